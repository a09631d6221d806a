"""Every public entry point refuses what it cannot serve with one named error, never a traceback.

Regression tests for inputs found by an adversarial run: JSON nested thousands of levels deep or
holding a 10,000-digit number, pending decisions and effect frames that do not fit their cards,
numbers past the core's 16-bit fields or past what a machine can allocate, misplaced players, SPRT
bounds that overflow, a Ray runtime that does not start, and output paths that are not files.
"""

from __future__ import annotations

import copy
import io
import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from omen_search import limits
from omen_search.advisor import Advisor
from omen_search.analysis import analyze_game
from omen_search.bots import HumanPlayer, RandomBot, make_bot
from omen_search.engine_protocol import EngineServer
from omen_search.games.heir.engines import new_game
from omen_search.errors import FormatError, RecordError, UsageError
from omen_search.games.heir.cards import default_cards
from omen_search.games.heir.observe import observe
from omen_search.games.heir.positions import load_observation, load_position, to_position
from omen_search.games.heir.rules import Config, programs
from omen_search.jsonio import MAX_JSON_DEPTH, parse_json, read_json_file
from omen_search.match import play_match
from omen_search.records import load_record, make_record, write_record
from omen_search.search import Limit
from omen_search.stats import Sprt

from cli_helper import assert_one_line_error, run

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
DEEP = "[" * 5000 + "]" * 5000
HUGE = 10**10_000 - 1  # 10,000 nines


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def played_record(seed: int = 3) -> dict[str, Any]:
    state = new_game("core", seed=seed)
    bot = RandomBot(seed)
    for _ in range(30):
        state.apply(bot.choose(state))
    return make_record(state, ["random", "random"])


def serve(*lines: str) -> list[dict[str, Any]]:
    """The engine's replies to ``lines``."""
    out = io.StringIO()
    EngineServer(io.StringIO("".join(line + "\n" for line in lines)), out).serve()
    return [json.loads(line) for line in out.getvalue().splitlines()]


# ------------------------------------------------------------------------------ A1, A2: JSON input


@pytest.fixture
def deep_file(tmp_path: Path) -> Path:
    path = tmp_path / "deep.json"
    path.write_text(DEEP, encoding="utf-8")
    return path


@pytest.mark.parametrize("argv", [
    ["advise", "--observation", "{}"], ["advise", "--record", "{}"], ["analyze", "{}", "--player", "0"],
    ["replay", "{}"],
])
def test_deeply_nested_json_files_are_one_line_naming_the_file(capsys, deep_file, argv):
    argv = [str(deep_file) if a == "{}" else a for a in argv]
    assert_one_line_error(*run(capsys, *argv), str(deep_file), f"nested more than {MAX_JSON_DEPTH} levels deep")


def test_deeply_nested_json_text_is_a_format_error_from_python(tmp_path, deep_file):
    for load in (load_position, load_observation):
        with pytest.raises(FormatError, match="^doc: not valid JSON: nested more than"):
            load(DEEP, root="doc")
    with pytest.raises(FormatError, match="deep.json: record: not valid JSON: nested"):
        load_record(deep_file)
    with pytest.raises(FormatError, match="^observation: not valid JSON: nested"):
        Advisor(Limit(iterations=10)).advise(DEEP)


def test_json_nesting_up_to_the_bound_still_reads():
    def nested(depth: int) -> str:  # ``depth`` levels in all: brackets in a string do not count
        return '{"a": "[[[[", "b": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"

    assert parse_json(nested(MAX_JSON_DEPTH), "x") == json.loads(nested(MAX_JSON_DEPTH))
    with pytest.raises(FormatError, match="^x: not valid JSON: nested more than 64 levels deep$"):
        parse_json(nested(MAX_JSON_DEPTH + 1), "x")


def test_json_larger_than_the_bound_is_refused(monkeypatch, tmp_path):
    monkeypatch.setattr("omen_search.jsonio.MAX_JSON_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"moves": ["end"] * 40}), encoding="utf-8")
    with pytest.raises(FormatError, match=r"big.json: record: too large: 101 bytes, at most 100"):
        read_json_file(path, "record")


def test_a_10000_digit_number_is_a_format_error(capsys, tmp_path):
    path = tmp_path / "obs.json"
    text = (EXAMPLES / "observation.json").read_text(encoding="utf-8")
    assert '"turn": 10,' in text
    path.write_text(text.replace('"turn": 10,', f'"turn": {"9" * 10_000},'), encoding="utf-8")
    assert_one_line_error(*run(capsys, "advise", "--observation", str(path)), str(path), "more than 4300 digits")
    doc = example("observation.json")
    doc["turn"] = HUGE  # a Python int, whose repr fails: the message still names it
    with pytest.raises(FormatError, match=r"^observation.turn: must be from 1 to 200, got an integer of about 1000"):
        load_observation(doc)
    doc["turn"], doc["players"][0]["coins"] = 10, [[HUGE]]
    with pytest.raises(FormatError, match=r"^observation.players\[0\].coins: must be an integer"):
        load_observation(doc)


def test_a_results_file_line_with_a_10000_digit_number_is_named(tmp_path):
    out = tmp_path / "m.jsonl"
    play_match("random", "random", games=2, out=str(out))
    header, first, second = out.read_text().splitlines()
    out.write_text(f'{header}\n{first[:-1]}, "big": {"9" * 10_000}}}\n{second}\n')
    with pytest.raises(RecordError, match=r"m\.jsonl:2: not valid JSON: a number has more than 4300 digits"):
        play_match("random", "random", games=2, out=str(out), resume=True)


def test_engine_lines_go_through_the_same_reader():
    deep, digits, late = serve(DEEP, '{"id": 1, "maxIterations": ' + "9" * 5000 + "}",
                               json.dumps({"id": 2, "action": "query_version"}))
    assert deep == {"id": None, "field": "", "error": f"not valid JSON: nested more than {MAX_JSON_DEPTH} levels deep"}
    assert digits["error"] == "not valid JSON: a number has more than 4300 digits" and digits["id"] is None
    assert late["action"] == "query_version"


# ------------------------------------------------------------------------------ A3: decisions and frames


def position_at(kind: str, card: bool = False) -> dict[str, Any]:
    """The position (a JSON document) of the first ``kind`` decision (about a card, if ``card``) in
    seeded random games."""
    for seed in range(100):
        state = new_game("reference", seed=seed)
        bot = RandomBot(seed)
        while not state.is_terminal():
            if state.pending.kind == kind and (state.pending.card >= 0) == card:
                return json.loads(json.dumps(to_position(state)))
            state.apply(bot.choose(state))
    raise AssertionError(f"no {kind} decision in 100 games")


def changed(doc: dict[str, Any], **pending: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    doc["pending"].update(pending)
    return doc


def no_war(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with every unit in the cities moved to the discard pile: no city is war-torn."""
    doc = copy.deepcopy(doc)
    doc["discard"] += [name for sides in doc["cities"] for side in sides for name in side]
    doc["cities"] = [[[], []] for _ in doc["cities"]]
    return doc


def test_the_frame_lists_are_the_ones_the_core_compiles():
    from omen_search._core import tables_for

    cards = default_cards()
    assert set(programs(cards)) == set(tables_for(cards).ref_progs)


@pytest.mark.parametrize("kind, change, path, words", [
    ("move", {"ref": ["maneuver", "Tortured Soul"]}, "pending.ref", ["'Tortured Soul' has no MANEUVER"]),
    ("move", {"ref": ["maneuver", "Rabid Usurper", 1]}, "pending.ref", ["does not name an ability"]),
    ("move", {"n": 3}, "pending.n", ["from 1 to 2"]),
    ("move", {"city": -1}, "pending.city", ["from 0 to 2"]),
    ("move", {"owner": -1}, "pending.owner", ["must be"]),
    ("keep", {"n": 3}, "pending.n", ["from 1 to 2"]),
    ("keep", {"last": 99}, "pending.last", ["got 99"]),
    ("keep", lambda d: {"city": (d["war"]["city"] + 1) % 3}, "pending.city", ["the city of the war"]),
    ("keep", {"ref": ["reinforce"], "index": 0}, "pending.ref", ["resolves no effect"]),
    ("wealth", {"n": 9}, "pending.n", ["from 2 to 3"]),
    ("surge", {"n": 2}, "pending.n", ["does not use it", "got 2"]),
    ("surge", {"card": "Opal Statuary"}, "pending.card", ["does not use it"]),
    ("entomb", {"index": 5}, "pending.index", ["does not point at an effect"]),
    ("entomb", {"last": 3 * 15}, "pending.last", ["from 0 to 44"]),
    ("entomb", {"ref": [], "index": -1}, "pending.ref", ["missing"]),
    ("choose", {"ref": ["reward", "Condemned to Toil"], "index": 0}, "pending.index",
     ["points at a 'entomb' effect; a 'choose' decision resolves 'choose'"]),
    ("steal", {"city": -1}, "pending.city", ["from 0 to 2"]),
    ("structure", {"last": 0}, "pending.last", ["is not there"]),
    ("discard", {"card": "Opal Statuary", "n": 1}, "pending.card", ["among its known cards"]),
    ("war", no_war, "pending", ["the 'war' decision has no legal move"]),
])
def test_a_pending_decision_must_fit_its_kind_and_its_card(kind, change, path, words):
    doc = position_at(kind)
    load_position(doc)  # as written, it loads
    bad = change(doc) if change is no_war else changed(doc, **(change(doc) if callable(change) else change))
    if kind == "discard":  # the hand may hold the card, but it is not among the known ones
        for player in bad["players"]:
            player["known"] = []
    with pytest.raises(FormatError) as caught:
        load_position(bad)
    assert str(caught.value).startswith(f"position.{path}:"), caught.value
    for word in words:
        assert word in str(caught.value), caught.value


@pytest.mark.parametrize("kind", ["move", "keep", "steal", "structure", "entomb"])
def test_an_observation_of_a_bad_decision_never_reaches_the_core(kind):
    """The advisor reads observations; what the core cannot hold is refused first, with the path."""
    state = load_position(position_at(kind))
    seen = json.loads(json.dumps(observe(state, state.current_player)))
    assert Advisor(Limit(iterations=20)).advise(seen).moves
    for bad in ({"ref": ["maneuver", "Temple Servant"], "index": 0}, {"n": 40}, {"last": 200}, {"owner": 5},
                {"index": 7}, {"city": 9}, {"kind": "trash"}, {"player": 1 - state.current_player}):
        with pytest.raises(FormatError, match=r"^observation\.(pending|player)"):
            Advisor(Limit(iterations=20)).advise(changed(seen, **bad))


def test_the_engine_names_the_field_of_a_decision_that_does_not_fit():
    observation = example("observation.json")
    observation["pending"]["ref"] = ["maneuver", "Tortured Soul"]
    observation["stack"][0]["ref"] = ["reinforce", 5]
    first, second = serve(json.dumps({"id": 1, "observation": observation, "maxIterations": 10}),
                          json.dumps({"id": 2, "observation": {**observation, "pending": None}, "maxIterations": 10}))
    assert first["field"] == "observation.stack[0].ref" and "internal error" not in first["error"]
    assert second["field"] == "observation.stack[0].ref"
    observation["stack"][0]["ref"] = ["reinforce"]
    reply, = serve(json.dumps({"id": 3, "observation": observation, "maxIterations": 10}))
    assert reply == {"id": 3, "field": "observation.pending.ref",
                     "error": "observation.pending.ref: does not name an ability of the card set: "
                              "['maneuver', 'Tortured Soul'] ('Tortured Soul' has no MANEUVER)"}


@pytest.mark.parametrize("frame, path, words", [
    ({"ref": ["reinforce", 5]}, ".ref", ["does not name an ability", "['reinforce', 5]"]),
    ({"ref": ["unit", "Temple Servant", "labor"]}, ".ref", ["'Temple Servant' has no labor"]),
    ({"ref": []}, ".ref", ["must name the effect list"]),
    ({"index": 5}, ".index", ["from 0 to 1"]),
    ({"city": -1}, ".city", ["from 0 to 2"]),
])
def test_a_stack_frame_must_point_at_an_effect_list_of_its_card(frame, path, words):
    for name, load in (("position.json", load_position), ("observation.json", load_observation)):
        doc = example(name)
        doc["stack"][0].update(frame)
        root = name.split(".")[0]
        with pytest.raises(FormatError) as caught:
            load(doc)
        assert str(caught.value).startswith(f"{root}.stack[0]{path}:"), caught.value
        for word in words:
            assert word in str(caught.value)


def test_a_war_being_resolved_names_its_city_and_limbo_waits_for_a_keep():
    """The core would index a city by war.city -1, or lose the units in limbo, running on from these."""
    doc = example("position.json")
    doc.update(pending=None, stack=[], phase="war_keep", war={"city": -1, "victor": -1, "keep_step": 0})
    with pytest.raises(FormatError, match=r"^position.war.city: must be the city of the war being resolved"):
        load_position(doc, settle=False)
    doc = position_at("keep")
    load_position(doc)
    doc["pending"] = None
    with pytest.raises(FormatError, match=r"^position.limbo: units wait in limbo only while a 'keep' decision"):
        load_position(doc, settle=False)


def test_the_corrupted_heir_makes_no_decision_and_resolves_no_frame():
    state = new_game("reference", seed=2, config=Config(level="hard"))
    doc = json.loads(json.dumps(to_position(state)))
    load_position(doc)
    with pytest.raises(FormatError, match=r"^position.pending.player: the Corrupted Heir makes no decisions"):
        load_position(changed(doc, player=1))
    doc["stack"] = [{"ref": ["reinforce"], "index": 0, "owner": 1, "city": 0}]
    with pytest.raises(FormatError, match=r"^position.stack\[0\].owner: the Corrupted Heir"):
        load_position(doc)


# ------------------------------------------------------------------------------ A4: the 16-bit turn


@pytest.mark.parametrize("command", [
    ["play", "--json"], ["perft", "--depth", "1"], ["selfcheck", "--games", "1", "--quiet"],
    ["match", "random", "random", "--games", "2", "--quiet"], ["balance", "--games", "2", "--quiet"],
])
def test_max_turns_past_the_cores_16_bits_is_one_line(capsys, command):
    assert_one_line_error(*run(capsys, *command, "--max-turns", "65536"), "--max-turns", "from 1 to 65535")


def test_max_turns_of_65535_plays(capsys):
    status, out, _ = run(capsys, "play", "--json", "--max-turns", str(limits.MAX_TURNS))
    assert status == 0 and json.loads(out)["winner"] in (0, 1)


def test_turn_and_max_turns_in_documents_fit_the_core():
    doc = example("observation.json")
    doc["config"]["max_turns"] = limits.MAX_TURNS + 1
    with pytest.raises(FormatError, match=r"^observation.config.max_turns: must be from 1 to 65535, got 65536"):
        load_observation(doc)
    doc["config"]["max_turns"], doc["turn"] = limits.MAX_TURNS, limits.MAX_TURNS
    Advisor(Limit(iterations=20)).advise(doc)  # the largest turn the core holds
    doc["turn"] = limits.MAX_TURNS + 1
    with pytest.raises(FormatError, match=r"^observation.turn: must be from 1 to 65535, got 65536"):
        Advisor(Limit(iterations=20)).advise(doc)
    record = played_record()
    record["config"]["max_turns"] = 70_000
    with pytest.raises(FormatError, match=r"^record.config.max_turns"):
        Advisor(Limit(iterations=20)).advise(record, 3)
    with pytest.raises(UsageError, match="^max_turns: must be an integer from 1 to 65535"):
        play_match("random", "random", games=2, max_turns=70_000)


# ------------------------------------------------------------------------------ A5: budgets and workers


@pytest.mark.parametrize("argv, option", [
    (["advise", "--observation", "docs/examples/observation.json", "--iterations", str(2**64)], "--iterations"),
    (["advise", "--observation", "docs/examples/observation.json", "--workers", str(2**64)], "--workers"),
    (["advise", "--observation", "docs/examples/observation.json", "--seconds", "1e308"], "--seconds"),
    (["analyze", "docs/examples/record.json", "--player", "0", "--iterations", str(2**64)], "--iterations"),
    (["demo", "--iterations", "1000000001"], "--iterations"),
    (["match", "random", "random", "--workers", "65"], "workers: must be an integer from 1 to 64"),
    (["match", "random", "random", "--workers", "10001", "--backend", "ray"], "--workers"),
    (["match", "random", "random", "--games", str(2**64)], "--games"),
    (["balance", "--workers", str(2**64)], "--workers"),
    (["play", "--players", "ismcts:iterations=99999999999999999999999,random"], "iterations"),
    (["play", "--players", "ismcts:workers=100000,random"], "workers"),
    (["play", "--players", "pimc:seconds=1e308,random"], "seconds"),
    (["match", "ismcts:workers=100000", "random"], "workers"),
])
def test_budgets_past_the_bounds_are_one_line(capsys, monkeypatch, argv, option):
    monkeypatch.chdir(EXAMPLES.parent.parent)
    assert_one_line_error(*run(capsys, *argv), option)


def test_the_python_api_checks_the_same_bounds():
    for make, option in [
        (lambda: Limit(iterations=limits.MAX_ITERATIONS + 1), "limit.iterations"),
        (lambda: Limit(seconds=1e308), "limit.seconds"),
        (lambda: Advisor(workers=limits.MAX_WORKERS + 1), "workers"),
        (lambda: analyze_game(played_record(), 0, workers=10**6), "workers"),
        (lambda: play_match("random", "random", games=2, workers=100_000), "workers"),
        (lambda: play_match("random", "random", games=limits.MAX_GAMES + 1), "games"),
        (lambda: make_bot("ismcts:iterations=1000000001"), "players"),
    ]:
        with pytest.raises(UsageError, match=f"^{option}: "):
            make()


def test_searches_that_do_not_fit_in_memory_name_the_workers(monkeypatch):
    class NoMemory:
        def __init__(self, *args: Any) -> None:
            raise MemoryError("search: cannot allocate 1000000 nodes")

    monkeypatch.setattr("omen_search._search.Search", NoMemory)
    with pytest.raises(UsageError, match="^workers: not enough memory for 8 searches"):  # the advisor's 8 at least
        Advisor(Limit(iterations=10), workers=2).advise(example("observation.json"))
    reply, = serve(json.dumps({"id": 1, "observation": example("observation.json"), "workers": 64}))
    assert reply["field"] == "workers" and reply["error"].startswith("workers: not enough memory for 64 searches")


# ------------------------------------------------------------------------------ A6, A7


@pytest.mark.parametrize("argv", [
    ["play", "--json", "--players", "corrupted-heir,random"],
    ["play", "--json", "--players", "random,corrupted-heir"],
    ["play", "--json", "--game", "heir-solo", "--players", "corrupted-heir"],
])
def test_the_corrupted_heir_in_a_seat_it_cannot_take_is_one_line(capsys, argv):
    assert_one_line_error(*run(capsys, *argv), "'corrupted-heir'", "seat 1 of --game heir-solo")


@pytest.mark.parametrize("spec", ["elo0=-1e308,elo1=1e308", "elo0=0,elo1=2001", "alpha=0.5", "beta=0", "elo0=nan"])
def test_sprt_bounds_that_would_overflow_are_one_line(capsys, spec):
    assert_one_line_error(*run(capsys, "match", "random", "random", "--games", "2", "--sprt", spec), "sprt")


def test_sprt_bounds_are_checked_from_python_too():
    with pytest.raises(UsageError, match="^sprt: elo0 must be less than elo1, both from -2000 to 2000"):
        Sprt(elo0=-1e308, elo1=1e308)
    assert Sprt(elo0=-2000, elo1=2000, alpha=0.49, beta=0.01).llr  # the widest accepted test is a test


# ------------------------------------------------------------------------------ A8: Ray


def test_a_ray_cluster_that_cannot_be_joined_is_one_line(capsys, monkeypatch):
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("a Ray runtime is already running in this process")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    assert_one_line_error(*run(capsys, "match", "random", "random", "--games", "2", "--quiet", "--backend", "ray",
                               "--address", "auto"), "--backend ray: cannot join Ray at 'auto': ConnectionError")


def test_a_ray_runtime_that_does_not_start_is_one_line(capsys, monkeypatch):
    ray = pytest.importorskip("ray")
    if ray.is_initialized():
        pytest.skip("a Ray runtime is already running in this process")

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("Failed to start the GCS server.\nmore detail")

    monkeypatch.setattr(ray, "init", broken)
    assert_one_line_error(*run(capsys, "match", "random", "random", "--games", "2", "--quiet", "--backend", "ray"),
                          "--backend ray: cannot start Ray: RuntimeError: Failed to start the GCS server.")


# ------------------------------------------------------------------------------ B10: output files


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_records_get_the_mode_the_umask_gives(tmp_path, umask):
    old = os.umask(umask)
    try:
        write_record(tmp_path / "game.json", played_record())
        (tmp_path / "plain.txt").write_text("x")
    finally:
        os.umask(old)
    mode = stat.S_IMODE((tmp_path / "game.json").stat().st_mode)
    assert mode == 0o666 & ~umask == stat.S_IMODE((tmp_path / "plain.txt").stat().st_mode)


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def test_a_path_that_is_not_a_regular_file_is_never_replaced(capsys, tmp_path, fifo):
    with pytest.raises(UsageError, match="^record: cannot write .*pipe: it exists and is not a regular file"):
        write_record(fifo, played_record())
    with pytest.raises(UsageError, match="not a regular file"):
        write_record(tmp_path, played_record())
    record = tmp_path / "game.json"
    write_record(record, played_record())
    for argv in (["play", "--json", "--record", str(fifo)], ["match", "random", "random", "--out", str(fifo)],
                 ["analyze", str(record), "--player", "0", "--html", str(fifo)],
                 ["balance", "--games", "2", "--html", str(fifo)]):
        status, out, err = run(capsys, *argv)
        assert_one_line_error(status, out, err, str(fifo), "not a regular file")
        assert out == ""  # refused before any game is played
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "pipe"]  # no temporary file left


# ------------------------------------------------------------------------------ C12, C13, C15


def test_analyze_help_prints_percent_signs_once(capsys):
    with pytest.raises(SystemExit):
        run(capsys, "analyze", "--help")
    text = " ".join(capsys.readouterr().out.split())
    assert "15 points of win %." in text and "(its 95% interval wholly below the best's)" in text
    assert "points of win % lost (beyond the search error)" in text
    assert "%%" not in text


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        run(capsys, "--version")
    assert done.value.code == 0 and capsys.readouterr().out == "omen-search 0.1.0\n"


@pytest.mark.parametrize("typed, said", [
    ('play "opal statuary" city0', "unknown card 'opal statuary'; did you mean 'Opal Statuary'?"),
    ('play "Opal Statue" city0', "unknown card 'Opal Statue'; did you mean 'Opal Statuary'?"),
    ('play "Zzz" city0', "unknown card 'Zzz'\n"),
])
def test_a_human_who_misspells_a_card_is_told_so(typed, said):
    state = new_game("core", seed=1)
    while state.pending.kind != "surge":
        state.apply(state.legal_moves()[0])
    out = io.StringIO()
    move = HumanPlayer(io.StringIO(f"{typed}\nend\n"), out).choose(state)
    assert str(move) == "end" and said in out.getvalue()
    assert "not legal here" not in out.getvalue()


# ------------------------------------------------------------------------------ a unit mid-BUILD


def test_a_labor_that_asks_a_question_can_be_written_loaded_observed_and_advised() -> None:
    """While a BUILD's LABOR asks a question, the built unit is in no zone: only its ``built`` frame
    names it. Positions and observations count it, so the state round-trips and the advisor works
    (it was "the cards add up to 39, not 40")."""
    from omen_search.games.heir.cards import parse_cards
    from omen_search.games.heir.reference import GameState
    from omen_search.rng import Rng
    from positions_helper import seed_card_text

    text = seed_card_text().replace(
        'labor = [{ op = "draw", n = 2 }]',
        'labor = [{ op = "choose", options = [{ label = "draw", effects = [{ op = "draw", n = 2 }] }, '
        '{ label = "coins", effects = [{ op = "gain", n = 2 }] }] }]')
    cards = parse_cards(text, "labor.toml")
    for seed in range(100):
        state, policy = GameState.new(seed=seed, cards=cards), Rng(seed)
        while not state.is_terminal() and not (
                state.pending.kind == "choose" and any(ref[0] == "built" for ref, *_ in state.stack)):
            moves = state.legal_moves()
            state.apply_trusted(moves[policy.below(len(moves))])
        if not state.is_terminal():
            break
    else:
        pytest.fail("no game reached a LABOR's question")
    doc = to_position(state)
    assert to_position(load_position(doc, cards)) == doc
    for seat in (0, 1):
        assert load_observation(observe(state, seat), cards) == observe(state, seat)
    advice = Advisor(Limit(iterations=200), seed=1, cards=cards).advise(observe(state, state.current_player))
    assert {str(m.move) for m in advice.moves} == {"choose draw", "choose coins"}
