"""The ``omen-search`` command: ``play``, ``cards`` and ``replay``, and its one-line errors.

The commands are called in-process through :func:`omen_search.cli.main`; one test runs the installed
console script when there is one.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from omen_search.cli import main
from omen_search.games.heir.cards import default_cards
from omen_search.records import load_record, replay

from cli_helper import assert_one_line_error, run
from positions_helper import seed_card_text

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


# ------------------------------------------------------------------------------ play


@pytest.mark.parametrize("seed", [1, 2, 42, 2**64 - 1])
def test_play_json_prints_one_result_object(capsys, tmp_path, seed):
    record_path = tmp_path / "game.json"
    status, out, err = run(capsys, "play", "--players", "random,random", "--seed", str(seed), "--json",
                           "--record", str(record_path))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 1, "exactly one JSON object, on one line"
    result = json.loads(lines[0])
    assert {"winner", "scores", "turns", "plies", "seed"} <= set(result)
    assert result["seed"] == seed and result["winner"] in (0, 1)
    assert len(result["scores"]) == 2 and result["scores"][result["winner"]] >= result["scores"][1 - result["winner"]]
    assert 1 <= result["turns"] <= 200 and result["plies"] > 0
    # the game is legal: the reference engine replays the record to the same result
    record = load_record(record_path)
    state = replay(record)
    assert state.is_terminal()
    assert list(state.scores()) == result["scores"] and state.winner() == result["winner"]
    assert state.ply == result["plies"] and state.turn == result["turns"]


def test_play_with_the_first_bot_plays_the_first_legal_move_every_time(capsys, tmp_path):
    path = tmp_path / "game.json"
    status, out, err = run(capsys, "play", "--players", "first,random", "--seed", "3", "--json", "--record", str(path))
    assert status == 0 and err == "" and json.loads(out)["players"] == ["first", "random"]
    record = load_record(path)
    decisions = 0
    for ply, move in enumerate(record["moves"]):
        before = replay(record, upto=ply)
        if before.current_player == 0:
            assert move == str(before.legal_moves()[0]), f"ply {ply}"
            decisions += 1
    assert decisions > 10


def test_play_is_deterministic(capsys):
    first = run(capsys, "play", "--seed", "77", "--json")
    second = run(capsys, "play", "--seed", "77", "--json")
    assert first == second


def test_play_hex_seed_is_the_same_game(capsys):
    assert json.loads(run(capsys, "play", "--seed", "0x10", "--json")[1])["scores"] == \
        json.loads(run(capsys, "play", "--seed", "16", "--json")[1])["scores"]


@pytest.mark.parametrize("seed", [9, 10])
def test_play_engines_agree(capsys, seed):
    core = json.loads(run(capsys, "play", "--seed", str(seed), "--json", "--engine", "core")[1])
    reference = json.loads(run(capsys, "play", "--seed", str(seed), "--json", "--engine", "reference")[1])
    assert core == reference


def test_play_with_options(capsys, tmp_path):
    path = tmp_path / "g.json"
    status, out, _ = run(capsys, "play", "--seed", "3", "--json", "--first-player", "1", "--gods", "horus,anubis",
                         "--emissary", "--max-turns", "4", "--record", str(path))
    assert status == 0
    result = json.loads(out)
    assert result["turns"] <= 4
    record = load_record(path)
    assert record["game"] == "heir"
    assert record["config"] == {"first_player": 1, "gods": ["horus", "anubis"], "emissary": True, "max_turns": 4}
    assert list(replay(record).scores()) == result["scores"]


def test_play_json_seeds_1_to_1000(capsys, tmp_path):
    """Done-when criterion: ``play --players random,random --seed N --json`` for N = 1..1000 each
    prints one result, and every game replays legally on the reference engine to that result.
    About 30 s on one core, so it is not marked slow."""
    path = tmp_path / "game.json"
    for seed in range(1, 1001):
        status, out, err = run(capsys, "play", "--players", "random,random", "--seed", str(seed), "--json",
                               "--record", str(path))
        assert status == 0 and err == "", f"seed {seed}: {err}"
        result = json.loads(out)
        assert result["seed"] == seed and result["winner"] in (0, 1)
        state = replay(load_record(path))
        assert list(state.scores()) == result["scores"], f"seed {seed}"
        assert state.winner() == result["winner"] and state.ply == result["plies"], f"seed {seed}"


def test_play_text_output_shows_turns_and_result(capsys):
    status, out, err = run(capsys, "play", "--players", "random,random", "--seed", "5")
    assert status == 0 and err == ""
    assert out.startswith("Omen: Heir to the Dunes · seed 5")
    turns = re.findall(r"^Turn (\d+): seat [01] \((Anubis|Horus)\)$", out, re.M)
    assert [int(t) for t, _ in turns] == list(range(1, len(turns) + 1))
    final = out.strip().splitlines()[-1]
    m = re.fullmatch(r"Game over after (\d+) turns \((\d+) plies\): (\d+)-(\d+), "
                     r"seat ([01]) \((Anubis|Horus)\) wins\.", final)
    assert m, final
    assert int(m.group(1)) == len(turns)
    result = json.loads(run(capsys, "play", "--seed", "5", "--json")[1])
    assert [int(m.group(3)), int(m.group(4))] == result["scores"] and int(m.group(5)) == result["winner"]
    # every decision is shown with the kind of decision and the move
    assert re.search(r'^  seat [01] \((Anubis|Horus)\) wealth: wealth draw \d coin \d$', out, re.M)


def test_play_text_mentions_the_record(capsys, tmp_path):
    path = tmp_path / "g.json"
    status, out, _ = run(capsys, "play", "--seed", "6", "--record", str(path))
    assert status == 0 and f"record written to {path}" in out and path.exists()


def test_play_help_tells_a_human_the_commands_and_where_the_game_is_saved(capsys):
    with pytest.raises(SystemExit):
        run(capsys, "play", "--help")
    text = re.sub(r"(\w)- (\w)", r"\1-\2", " ".join(capsys.readouterr().out.split()))  # argparse wraps at hyphens
    for words in ("help, board, moves, hint", "undo", "quit", "Ctrl-C save the game to --record FILE",
                  "omen-GAME-seedN.json", "--hint-iterations N", "win % and 95% interval"):
        assert words in text, words
    assert "%%" not in text


# ------------------------------------------------------------------------------ cards


def test_cards_lists_every_card_and_marks_designed_ones(capsys):
    status, out, err = run(capsys, "cards")
    assert status == 0 and err == ""
    cards = default_cards()
    assert cards.name in out
    lines = out.splitlines()
    for item in (*cards.units, *cards.rewards, *cards.structures):
        line = next((ln for ln in lines if re.match(rf"^ [ *] {re.escape(item.name)}\s", ln)), None)
        assert line is not None, f"{item.name!r} is not listed"
        assert line.startswith(" * ") == (item.source == "designed"), line
    assert any(ln.startswith(" * ") for ln in lines), "the seed edition has designed cards"
    assert "Units (40 cards)" in out and "Reward tiles (9)" in out


def test_cards_json(capsys):
    status, out, _ = run(capsys, "cards", "--json")
    data = json.loads(out)
    cards = default_cards()
    assert status == 0 and data["sha256"] == cards.sha256
    assert [u["name"] for u in data["units"]] == [u.name for u in cards.units]
    assert sum(u["copies"] for u in data["units"]) == 40 and len(data["rewards"]) == 9


@pytest.fixture
def user_cards(tmp_path) -> Path:
    """The seed edition renamed, with every card marked printed and one unit renamed."""
    text = seed_card_text().replace('name = "Heir to the Dunes — seed edition"', 'name = "My printed set"', 1)
    text = text.replace('source = "designed"', 'source = "printed"')
    text = text.replace('name = "Temple Servant"', 'name = "Temple Acolyte"')
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_cards_with_a_user_file(capsys, user_cards):
    status, out, err = run(capsys, "cards", "--cards", str(user_cards))
    assert status == 0 and err == ""
    assert "My printed set" in out and "Temple Acolyte" in out and "Temple Servant" not in out
    assert not [ln for ln in out.splitlines() if ln.startswith(" * ")], "nothing is designed in this file"


def test_play_and_replay_with_a_user_file(capsys, tmp_path, user_cards):
    path = tmp_path / "g.json"
    status, out, _ = run(capsys, "play", "--seed", "8", "--cards", str(user_cards), "--record", str(path))
    assert status == 0 and "cards: My printed set" in out
    assert "designed" not in out.splitlines()[0]
    status, out, _ = run(capsys, "replay", str(path), "--cards", str(user_cards))
    assert status == 0 and "moves are legal" in out
    # without the card file the record is refused: it names the set to pass
    status, out, err = run(capsys, "replay", str(path))
    assert_one_line_error(status, out, err, "My printed set", "--cards")


# ------------------------------------------------------------------------------ replay


def test_replay_a_record(capsys, tmp_path):
    path = tmp_path / "g.json"
    run(capsys, "play", "--seed", "21", "--json", "--record", str(path))
    record = load_record(path)
    status, out, err = run(capsys, "replay", str(path))
    assert status == 0 and err == ""
    assert out.strip().startswith(f"{path}: all {len(record['moves'])} moves are legal. Game over after")
    status, out, _ = run(capsys, "replay", str(path), "--json")
    assert json.loads(out) == {"ok": True, "plies": len(record["moves"]), "finished": True,
                               "scores": record["scores"], "winner": record["winner"]}


def test_replay_the_example_record(capsys):
    status, out, _ = run(capsys, "replay", str(EXAMPLES / "record.json"), "--json")
    assert status == 0 and json.loads(out)["ok"] is True


def test_replay_an_unfinished_record(capsys, tmp_path):
    path = tmp_path / "g.json"
    run(capsys, "play", "--seed", "21", "--json", "--record", str(path))
    record = load_record(path)
    del record["moves"][40:], record["scores"], record["winner"], record["plies"], record["turns"]
    path.write_text(json.dumps(record), encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0 and "unfinished after 40 plies" in out


def test_replay_game_refuses_a_record_of_another_game(capsys):
    example = str(EXAMPLES / "record.json")
    assert_one_line_error(*run(capsys, "replay", example, "--game", "heir-solo"),
                          "--game heir-solo: the record is a game of heir")
    status, out, _ = run(capsys, "replay", example, "--game", "heir", "--json")
    assert status == 0 and json.loads(out)["ok"] is True


def test_replay_reads_records_without_game_and_refuses_a_wrong_one(capsys, tmp_path):
    record = load_record(EXAMPLES / "record.json")
    path = tmp_path / "old.json"
    path.write_text(json.dumps({k: v for k, v in record.items() if k != "game"}), encoding="utf-8")
    assert run(capsys, "replay", str(path), "--game", "heir")[0] == 0
    assert_one_line_error(*run(capsys, "replay", str(path), "--game", "heir-solo"), "the record is a game of heir")
    path.write_text(json.dumps({**record, "game": "heir-solo"}), encoding="utf-8")
    assert_one_line_error(*run(capsys, "replay", str(path)),
                          "record.game: is 'heir-solo', but record.config sets up 'heir'")
    path.write_text(json.dumps({**record, "game": "chess"}), encoding="utf-8")
    assert_one_line_error(*run(capsys, "replay", str(path), "--game", "heir"), "record.game: unknown game 'chess'")


# ------------------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "argv, words",
    [
        (["play", "--seed", "abc"], ["--seed", "'abc'"]),
        (["play", "--seed", "-1"], ["--seed", "-1"]),
        (["play", "--seed", str(2**64)], ["--seed"]),
        (["play", "--players", "random,alphazero"], ["unknown player 'alphazero'"]),
        (["play", "--players", "random"], ["--players"]),
        (["play", "--players", "random,random,random"], ["--players"]),
        (["play", "--gods", "ra,horus"], ["--gods"]),
        (["play", "--max-turns", "0"], ["--max-turns"]),
        (["play", "--first-player", "2"], ["--first-player"]),
        (["play", "--engine", "warp"], ["--engine"]),
        (["play", "--level", "hard"], ["--level: not an option of --game heir", "--emissary"]),
        (["play", "--game", "heir-solo", "--emissary"], ["--emissary: not an option of --game heir-solo"]),
        (["play", "--game", "heir-solo", "--level", "easy"], ["--level: must be one of"]),
        (["perft", "--game", "chess"], ["--game", "chess"]),
        (["replay", str(EXAMPLES / "record.json"), "--game", "chess"], ["--game", "'chess'", "heir-solo"]),
        (["frobnicate"], ["frobnicate"]),
        ([], ["command"]),
        (["replay"], ["FILE"]),
    ],
)
def test_usage_errors_are_one_line_and_status_2(capsys, argv, words):
    assert_one_line_error(*run(capsys, *argv), *words)


def test_missing_record_file(capsys, tmp_path):
    missing = tmp_path / "nope.json"
    assert_one_line_error(*run(capsys, "replay", str(missing)), str(missing), "cannot read record")


def test_record_that_is_not_json(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{not json", encoding="utf-8")
    assert_one_line_error(*run(capsys, "replay", str(path)), str(path), "not valid JSON")


def test_corrupted_record(capsys, tmp_path):
    path = tmp_path / "g.json"
    run(capsys, "play", "--seed", "21", "--json", "--record", str(path))
    record = load_record(path)
    record["moves"][7] = "war city2"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert_one_line_error(*run(capsys, "replay", str(path)), "ply 7", "war city2")
    record["moves"][7] = "fly away"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert_one_line_error(*run(capsys, "replay", str(path)), "ply 7", "unknown verb")


def test_record_with_a_bad_field(capsys, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(json.dumps({**load_record(EXAMPLES / "record.json"), "seed": "x"}), encoding="utf-8")
    assert_one_line_error(*run(capsys, "replay", str(path)), "record.seed")


@pytest.mark.parametrize("command", [["cards"], ["play", "--seed", "1"], ["replay", str(EXAMPLES / "record.json")]])
def test_bad_cards_file(capsys, tmp_path, command):
    missing = tmp_path / "missing.toml"
    assert_one_line_error(*run(capsys, *command, "--cards", str(missing)), str(missing))
    broken = tmp_path / "broken.toml"
    broken.write_text(seed_card_text().replace("copies = 5", "copies = 6", 1), encoding="utf-8")
    assert_one_line_error(*run(capsys, *command, "--cards", str(broken)), str(broken), "copies")
    garbage = tmp_path / "garbage.toml"
    garbage.write_text("name = [unclosed\n", encoding="utf-8")
    assert_one_line_error(*run(capsys, *command, "--cards", str(garbage)), str(garbage), "TOML")


def test_unwritable_record_path(capsys, tmp_path):
    target = tmp_path / "no" / "such" / "folder" / "g.json"
    assert_one_line_error(*run(capsys, "play", "--seed", "1", "--json", "--record", str(target)), str(target))


def test_help_exits_cleanly(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    for command in ("play", "cards", "replay"):
        assert command in out


# ------------------------------------------------------------------------------ the installed script


@pytest.mark.skipif(shutil.which("omen-search") is None, reason="the omen-search console script is not installed")
def test_console_script(tmp_path):
    exe = shutil.which("omen-search")
    done = subprocess.run([exe, "play", "--seed", "4", "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["seed"] == 4
    done = subprocess.run([exe, "play", "--seed", "x"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("omen-search: error:")


def test_games_lists_every_registered_game_with_its_options(capsys):
    status, out, _ = run(capsys, "games")
    assert status == 0
    assert out.splitlines()[0].startswith("heir: ") and "--emissary" in out
    solo = out[out.index("heir-solo:"):out.index("reign-of-war:")]
    assert "--level" in solo and "novice | normal | hard | brutal; default normal" in solo and "--emissary" not in solo
    status, out, _ = run(capsys, "games", "--json")
    listed = {g["name"]: g for g in json.loads(out)}  # the package's games (tests may register more)
    assert listed["heir"]["players"] == listed["heir-solo"]["players"] == listed["reign-of-war"]["players"] == 2


def test_a_game_option_flag_sets_up_that_game(capsys, tmp_path):
    record = tmp_path / "solo.json"
    status, out, _ = run(capsys, "play", "--game", "heir-solo", "--level", "brutal", "--players", "greedy",
                         "--seed", "4", "--json", "--record", str(record))
    assert status == 0 and json.loads(out)["players"] == ["greedy", "corrupted-heir"]
    written = json.loads(record.read_text())
    assert written["game"] == "heir-solo" and written["config"]["level"] == "brutal"
    assert run(capsys, "replay", str(record), "--game", "heir-solo")[0] == 0

