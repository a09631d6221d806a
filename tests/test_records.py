"""Game records (``omen-record/1``): written atomically, replayed exactly, and corrupted ones refused
with a :class:`RecordError` that names the ply."""

from __future__ import annotations

import copy
import json
import os
import re
from pathlib import Path

import pytest

from omen_search.bots import RandomBot, bot_seed
from omen_search.errors import FormatError, OmenError, RecordError
from omen_search.game import all_games
from omen_search.games.heir.positions import document_game
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.rules import Config
from omen_search.records import RECORD_FORMAT, load_record, make_record, replay, write_record

GAME_NAMES = ", ".join(g.name for g in all_games())  # what an unknown-game error lists

EXAMPLE = Path(__file__).resolve().parent.parent / "docs" / "examples" / "record.json"


def play(seed: int, config: Config | None = None, plies: int | None = None) -> GameState:
    state = GameState.new(seed=seed, config=config or Config())
    bots = (RandomBot(bot_seed(seed, 0)), RandomBot(bot_seed(seed, 1)))
    while not state.is_terminal() and (plies is None or state.ply < plies):
        state.apply(bots[state.current_player].choose(state))
    return state


@pytest.fixture(scope="module")
def game() -> GameState:
    return play(11)


@pytest.fixture
def record(game) -> dict:
    return make_record(game, ["random", "random"])


def _no_temp_files(folder: Path) -> bool:
    return not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


# ------------------------------------------------------------------------------ writing and replaying


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 5, 8, 13, 21])
@pytest.mark.parametrize("config", [Config(), Config(first_player=1, gods=("horus", "anubis"), emissary=True)],
                         ids=["default", "emissary"])
def test_written_records_replay_to_the_same_scores(tmp_path, seed, config):
    state = play(seed, config)
    path = tmp_path / "game.json"
    write_record(path, make_record(state, ["random", "random"]))
    again = replay(load_record(path))
    assert again.is_terminal()
    assert again.scores() == state.scores() and again.winner() == state.winner()
    assert again.moves == state.moves and again._snapshot() == state._snapshot()
    assert _no_temp_files(tmp_path)


def test_record_fields(record, game):
    assert record["format"] == RECORD_FORMAT
    assert record["seed"] == 11 and record["players"] == ["random", "random"]
    assert record["moves"] == [str(m) for m in game.moves]
    assert record["plies"] == len(record["moves"]) == game.ply
    assert record["turns"] == game.turn
    assert record["scores"] == list(game.scores()) and record["winner"] == game.winner()
    assert record["cards"]["sha256"] == game.cards.sha256
    json.dumps(record)  # JSON-ready as it is


@pytest.mark.parametrize("config, name", [(Config(), "heir"), (Config(emissary=True), "heir"),
                                          (Config(level="hard"), "heir-solo")])
def test_a_record_names_its_game(config, name):
    state = play(6, config, plies=40)
    record = make_record(state, ["random", "random"])
    assert record["game"] == name and document_game(record, "record").name == name
    assert replay(record)._snapshot() == state._snapshot()


def test_a_record_without_game_is_of_the_game_its_config_sets_up(record):
    old = {k: v for k, v in record.items() if k != "game"}
    assert replay(old)._snapshot() == replay(record)._snapshot()
    assert document_game({**old, "config": {**old["config"], "level": "novice"}}, "record").name == "heir-solo"


def test_unfinished_record_has_no_result_and_replays(tmp_path):
    state = play(4, plies=30)
    record = make_record(state, ["random", "random"])
    assert "scores" not in record and "winner" not in record
    again = replay(record)
    assert not again.is_terminal() and again._snapshot() == state._snapshot()


def test_replay_upto_stops_at_a_ply(record, game):
    for ply in (0, 1, 17, len(record["moves"])):
        state = replay(record, upto=ply)
        assert state.ply == ply and state.moves == game.moves[:ply]
    with pytest.raises(RecordError, match=r"ply 9999"):
        replay(record, upto=9999)


def test_example_record_replays():
    record = load_record(EXAMPLE)
    state = replay(record)
    assert state.is_terminal() and list(state.scores()) == record["scores"]


# ------------------------------------------------------------------------------ corrupted records


def test_an_illegal_move_is_refused_naming_its_ply(record):
    bad = copy.deepcopy(record)
    bad["moves"][5] = "war city2"
    with pytest.raises(RecordError, match=r"^ply 5: move 'war city2' does not replay"):
        replay(bad)


def test_a_changed_move_is_refused_naming_a_ply(record, game):
    """Replacing a move by another legal one makes the game diverge: some later move no longer
    replays, or the result differs."""
    bad = copy.deepcopy(record)
    k = next(i for i in range(len(game.moves)) if len(replay(record, upto=i).legal_moves()) > 1)
    state = replay(record, upto=k)
    other = next(m for m in state.legal_moves() if str(m) != record["moves"][k])
    bad["moves"][k] = str(other)
    with pytest.raises(RecordError, match=r"^ply \d+: "):
        replay(bad)


def test_an_unparsable_move_is_refused_naming_its_ply(record):
    bad = copy.deepcopy(record)
    bad["moves"][3] = 'play "Temple Servant'
    with pytest.raises(RecordError, match=r"^ply 3: move .* does not replay"):
        replay(bad)
    bad["moves"][3] = 42
    with pytest.raises(RecordError, match=r"^ply 3: "):
        replay(bad)


def test_a_truncated_record_with_scores_is_refused(record):
    bad = copy.deepcopy(record)
    del bad["moves"][-3:]
    n = len(bad["moves"])
    with pytest.raises(RecordError, match=rf"^ply {n}: the moves end before the game does"):
        replay(bad)


def test_a_move_after_the_end_is_refused(record):
    bad = copy.deepcopy(record)
    n = len(bad["moves"])
    bad["moves"].append("pass")
    with pytest.raises(RecordError, match=rf"^ply {n}: .*game is over"):
        replay(bad)


def test_a_wrong_score_is_refused(record):
    bad = copy.deepcopy(record)
    bad["scores"] = [bad["scores"][0] + 1, bad["scores"][1]]
    with pytest.raises(RecordError, match=rf"^ply {len(bad['moves'])}: the record says scores"):
        replay(bad)


def test_a_wrong_winner_is_refused(record):
    bad = copy.deepcopy(record)
    bad["winner"] = 1 - bad["winner"]
    with pytest.raises(RecordError, match=rf"^ply {len(bad['moves'])}: the record says winner"):
        replay(bad)


def test_a_different_card_set_is_refused(record):
    """Refused before the first move: the message names the field and says which set to pass."""
    bad = copy.deepcopy(record)
    bad["cards"]["sha256"] = "0" * 64
    bad["cards"]["name"] = "Someone's printed set"
    with pytest.raises(RecordError, match=r"record\.cards: played with card set \"Someone's printed set\""):
        replay(bad)


def test_a_different_seed_does_not_replay(record):
    bad = copy.deepcopy(record)
    bad["seed"] += 1
    with pytest.raises(RecordError, match=r"^ply \d+: "):
        replay(bad)


@pytest.mark.parametrize(
    "mutate, path",
    [
        (lambda r: r.update(format="omen-record/9"), "record.format"),
        (lambda r: r.pop("seed"), "record.seed"),
        (lambda r: r.update(seed=-1), "record.seed"),
        (lambda r: r.update(seed="11"), "record.seed"),
        (lambda r: r.pop("moves"), "record.moves"),
        (lambda r: r.update(moves="pass"), "record.moves"),
        (lambda r: r.update(config={"gods": ["horus", "horus"]}), "record.config.gods"),
        (lambda r: r.update(config={"first_player": 2}), "record.config.first_player"),
        (lambda r: r.pop("cards"), "record.cards"),
        (lambda r: r.update(game="chess"), f"record.game: unknown game 'chess' (games: {GAME_NAMES})"),
        (lambda r: r.update(game="heir_solo"), "record.game: unknown game 'heir_solo'; did you mean 'heir-solo'?"),
        (lambda r: r.update(game=None), "record.game: unknown game None"),
        (lambda r: r.update(game="heir-solo"), "record.game: is 'heir-solo', but record.config sets up 'heir'"),
        (lambda r: r["config"].update(level="hard"), "record.game: is 'heir', but record.config sets up 'heir-solo'"),
    ],
)
def test_malformed_records_name_the_field(record, mutate, path):
    bad = copy.deepcopy(record)
    mutate(bad)
    with pytest.raises(FormatError, match="^" + re.escape(path)):
        replay(bad)


def test_a_record_must_be_an_object():
    with pytest.raises(FormatError):
        replay(["not", "a", "record"])


@pytest.mark.parametrize("field", ["plies", "turns"])
def test_wrong_plies_or_turns_are_refused(record, field):
    bad = copy.deepcopy(record)
    bad[field] += 5
    with pytest.raises(RecordError, match=field):
        replay(bad)


def test_load_record_errors_name_the_file(tmp_path):
    with pytest.raises(FormatError, match="missing.json"):
        load_record(tmp_path / "missing.json")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "omen-record/1", "moves": [', encoding="utf-8")
    with pytest.raises(FormatError, match="broken.json: record: not valid JSON"):
        load_record(broken)
    listed = tmp_path / "list.json"
    listed.write_text("[]", encoding="utf-8")
    with pytest.raises(FormatError, match="list.json"):
        load_record(listed)


# ------------------------------------------------------------------------------ atomic writes


class _Boom(Exception):
    pass


def test_write_record_is_atomic(tmp_path, monkeypatch, record):
    """A failure in the middle of writing leaves the old file as it was and no temporary file."""
    path = tmp_path / "game.json"
    write_record(path, record)
    old = path.read_bytes()

    real_dump = json.dump

    def failing_dump(obj, fp, *args, **kwargs):
        fp.write('{"format": "omen-record/1", "moves": ["wealth')  # half a record …
        fp.flush()
        raise _Boom("disk full")  # … then the failure

    monkeypatch.setattr(json, "dump", failing_dump)
    other = make_record(play(12), ["random", "random"])
    with pytest.raises(_Boom):
        write_record(path, other)
    assert path.read_bytes() == old
    assert _no_temp_files(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]

    monkeypatch.setattr(json, "dump", real_dump)
    write_record(path, other)
    assert load_record(path) == json.loads(json.dumps(other))
    assert _no_temp_files(tmp_path)


def test_interrupted_write_leaves_no_file(tmp_path, monkeypatch, record):
    """Even a KeyboardInterrupt during the write cleans up, and a new file is not created half-written."""
    path = tmp_path / "new.json"

    def interrupted(obj, fp, *args, **kwargs):
        fp.write("{")
        raise KeyboardInterrupt

    monkeypatch.setattr(json, "dump", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_record(path, record)
    assert list(tmp_path.iterdir()) == []


def test_write_record_into_the_current_folder(tmp_path, monkeypatch, record):
    monkeypatch.chdir(tmp_path)
    write_record("here.json", record)
    assert load_record("here.json")["moves"] == record["moves"]
    assert _no_temp_files(tmp_path)


def test_write_record_replaces_an_existing_file(tmp_path, record):
    """The rename replaces an existing record in one step."""
    path = tmp_path / "game.json"
    path.write_text("old", encoding="utf-8")
    write_record(path, record)
    assert load_record(path)["seed"] == record["seed"]
    assert os.path.getsize(path) > 3


def test_record_errors_are_omen_errors():
    assert issubclass(RecordError, OmenError) and issubclass(FormatError, OmenError)
