"""What the fuzzers found, each kept as a regression test with its concrete input.

Each test names the fuzzer that found the input; ``docs/reliability.md`` lists them.
"""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from omen_search import engine_protocol, jsonio
from omen_search.engine_protocol import EngineServer
from omen_search.errors import CardDataError, FormatError, RecordError, UsageError
from omen_search.games.heir.cards import load_cards
from omen_search.games.heir.positions import load_observation, load_position
from omen_search.match import play_match, read_results
from omen_search.records import load_record, write_record

from cli_helper import assert_one_line_error, run
from positions_helper import position_doc
from process_helper import omen_env

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SOLO = {"level": "normal", "gods": ["anubis", "horus"]}


# ------------------------------------------------------------------ paths with a NUL byte (fuzzer: cli)
# No file has one, and the OS refuses it with a ValueError, not an OSError; in-process argv and the
# Python API can hold one.


@pytest.mark.parametrize("argv", [
    ["replay", "a\x00b.json"],
    ["advise", "--observation", "a\x00b.json", "--iterations", "10"],
    ["advise", "--record", "a\x00b.json", "--iterations", "10"],
    ["analyze", "a\x00b.json", "--player", "0", "--iterations", "1"],
])
def test_an_input_path_with_a_nul_byte_is_one_line(capsys, argv):
    assert_one_line_error(*run(capsys, *argv), "cannot read", "embedded null byte")


def test_an_input_path_with_a_nul_byte_is_a_format_error_from_python():
    with pytest.raises(FormatError, match=r"^'a\\x00b.json': cannot read record: embedded null byte"):
        load_record("a\x00b.json")


@pytest.mark.parametrize("argv, option", [
    (["play", "--record", "{tmp}/o\x00.json"], "--record"),
    (["match", "random", "random", "--games", "2", "--out", "{tmp}/m\x00.jsonl"], "out"),
    (["match", "random", "random", "--games", "2", "--records", "{tmp}/games\x00"], "records"),
    (["balance", "--games", "2", "--html", "{tmp}/b\x00.html"], "--html"),
    (["analyze", str(EXAMPLES / "record.json"), "--player", "0", "--iterations", "1", "--html", "{tmp}/r\x00.html"],
     "--html"),
])
def test_an_output_path_with_a_nul_byte_is_one_line(capsys, tmp_path, argv, option):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert_one_line_error(*run(capsys, *argv), f"{option}: cannot", "NUL byte")
    assert list(tmp_path.iterdir()) == []


def test_an_output_path_with_a_nul_byte_is_a_usage_error_from_python(tmp_path):
    with pytest.raises(UsageError, match="record: cannot write .*a path cannot hold a NUL byte"):
        write_record(tmp_path / "r\x00.json", {})
    with pytest.raises(RecordError, match=r"m\\x00.jsonl': cannot read the results"):
        read_results(tmp_path / "m\x00.jsonl")
    with pytest.raises(UsageError, match="^out: cannot write"):
        play_match("random", "random", games=2, out=str(tmp_path / "m\x00.jsonl"))


# ------------------------------------------------------------------ reads without end (found by hand beside the fuzzers)


def test_a_card_file_without_end_is_refused_not_read_into_memory(monkeypatch, tmp_path):
    monkeypatch.setattr("omen_search.games.heir.cards.MAX_FILE_CHARS", 1000)
    path = tmp_path / "big.toml"
    path.write_text("# " + "x" * 2000 + "\n", encoding="utf-8")
    with pytest.raises(CardDataError, match=r"big.toml: cannot read card file: larger than 1000 characters"):
        load_cards(path)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_cards_from_dev_zero_is_one_line(capsys):
    assert_one_line_error(*run(capsys, "cards", "--cards", "/dev/zero"), "/dev/zero: cannot read card file: larger than")


def test_an_engine_line_longer_than_the_bound_is_skipped_unread_and_the_engine_reads_on(monkeypatch):
    monkeypatch.setattr(engine_protocol, "MAX_JSON_BYTES", 100)
    monkeypatch.setattr(jsonio, "MAX_JSON_BYTES", 100)

    class Counting(io.StringIO):
        longest = 0

        def readline(self, size=-1):
            line = super().readline(size)
            Counting.longest = max(Counting.longest, len(line))
            return line

    stdin = Counting('{"id": 1, "action": "query_version"}\n' + "x" * 1000 + "\n" + "y" * 350 + "\n"
                     + '{"id": 2, "action": "query_version"}\n')
    out = io.StringIO()
    assert EngineServer(stdin, out).serve() == 0
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r["id"] for r in replies] == [1, None, None, 2]
    assert replies[1] == replies[2] == {"id": None, "error": "too large: 101 bytes, at most 100", "field": ""}
    assert Counting.longest <= 101, "a long line was read whole"


# ------------------------------------------------------------------ the Corrupted Heir's turn (fuzzer: positions)
# A solo position with the Heir to move in a phase its procedure skips made the engines ask the
# Heir for a decision (a 'surge' or 'wealth' decision of seat 1), which a loaded position then refused.


@pytest.mark.parametrize("phase", ["wealth_again", "wealth", "surge"])
def test_a_solo_position_with_the_heir_in_a_phase_it_skips_is_refused(phase):
    doc = position_doc(active=1, phase=phase, config=SOLO, heir_reserve=7, players=({"hand": ["Tortured Soul"]},
                                                                                     {"coins": 0, "hand": []}))
    with pytest.raises(FormatError, match=f"^position.phase: the Corrupted Heir's turn never is in phase '{phase}'"):
        load_position(doc)


@pytest.mark.parametrize("phase", ["wealth_reveal", "surge_start", "war", "offering"])
def test_a_solo_position_with_the_heir_in_its_own_phases_runs_its_procedure(phase):
    doc = position_doc(active=1, phase=phase, config=SOLO, heir_reserve=7, players=({"hand": ["Tortured Soul"]},
                                                                                     {"coins": 0, "hand": []}))
    state = load_position(doc)
    assert state.is_terminal() or state.current_player == 0


# ------------------------------------------------------------------ destroyed units (fuzzer: observations)
# ``destroyed`` is what a war leaves for the ENDURING decision; a document could list units there in
# any phase, units without ENDURING, or units not in the discard pile, and the reference engine then
# failed an internal assertion ("unit 13 not in the discard pile") when the unit was returned.


def observation(**changes) -> dict:
    doc = json.loads((EXAMPLES / "observation.json").read_text(encoding="utf-8"))
    for key, value in changes.items():
        doc[key] = value
    return doc


def test_destroyed_units_outside_a_war_are_refused():
    doc = position_doc(phase="surge", players=({"hand": ["Temple Servant"], "destroyed": ["Tortured Soul"]}, {}),
                       discard=["Tortured Soul"])
    with pytest.raises(FormatError, match=r"^position.players\[0\].destroyed: destroyed units wait only in phases "
                                          r"'war_keep' and 'war_enduring', not 'surge'"):
        load_position(doc)


def test_destroyed_units_must_be_enduring_and_in_the_discard_pile():
    base = {"phase": "war_enduring", "war": {"city": 0, "victor": 0, "keep_step": 0}}
    doc = position_doc(**base, players=({"hand": ["Temple Servant"], "destroyed": ["Fallen Archivist"]}, {}),
                       discard=["Fallen Archivist"])
    with pytest.raises(FormatError, match=r"destroyed: 'Fallen Archivist' is not an ENDURING unit"):
        load_position(doc)
    doc = position_doc(**base, players=({"hand": ["Temple Servant"], "destroyed": ["Tortured Soul"]},
                                        {"hand": ["Opal Statuary"], "destroyed": ["Opal Statuary"]}),
                       discard=["Tortured Soul"])
    with pytest.raises(FormatError, match=r"players\[1\].destroyed: 'Opal Statuary' is listed more often than the "
                                          "discard pile holds it"):
        load_position(doc)


def test_a_destroyed_unit_in_the_discard_pile_is_returned_on_both_engines():
    from omen_search._core import CoreState

    doc = position_doc(phase="war_enduring", war={"city": 0, "victor": 0, "keep_step": 0},
                       players=({"hand": ["Temple Servant"], "destroyed": ["Tortured Soul"]}, {}),
                       discard=["Tortured Soul"])
    for state in (load_position(doc), CoreState.from_state(load_position(doc, settle=False))):
        assert [str(m) for m in state.legal_moves()] == ['enduring "Tortured Soul"', "pass"]
        state.apply('enduring "Tortured Soul"')
        assert [str(m) for m in state.legal_moves()] == ['discard "Temple Servant"']


def test_an_observation_with_destroyed_units_outside_a_war_is_refused():
    doc = observation()
    doc["players"][0]["destroyed"] = ["Sunset Marauder"]
    with pytest.raises(FormatError, match=r"^observation.players\[0\].destroyed: destroyed units wait only"):
        load_observation(doc)


# ------------------------------------------------------------------ a reference cut short (fuzzer: observations)
# ``["maneuver"]`` without the unit's name made the loader's message for an unknown ability index
# past the end of the reference (IndexError) instead of naming the field.


@pytest.mark.parametrize("ref", [["maneuver"], ["unit"], ["built"], ["reward"], ["structure"]])
def test_a_reference_without_its_card_names_the_field(ref):
    doc = position_doc(stack=[{"ref": ref, "index": 0, "owner": 0, "city": 0}])
    with pytest.raises(FormatError, match=r"^position.stack\[0\].ref: does not name an ability of the card set"):
        load_position(doc)
    doc = position_doc(phase="surge", pending={"kind": "move", "player": 0, "owner": 0, "n": 1, "city": 0,
                                               "ref": ref, "index": 0})
    with pytest.raises(FormatError, match=r"^position.pending.ref: does not name an ability of the card set"):
        load_position(doc)


# ------------------------------------------------------------------ a record's moves not a list (fuzzer: records)
# ``advise --record FILE`` without ``--ply`` took the length of ``moves`` before the record was
# checked: ``"moves": true`` escaped as a TypeError.


@pytest.mark.parametrize("moves", [True, 7, None, {"0": "end"}, 1.5])
def test_advise_a_record_whose_moves_are_not_a_list_is_one_line(capsys, tmp_path, moves):
    record = json.loads((EXAMPLES / "record.json").read_text(encoding="utf-8"))
    record["moves"] = moves
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert_one_line_error(*run(capsys, "advise", "--record", str(path), "--iterations", "10", "--quiet"),
                          "record.moves: must be a list")


# ------------------------------------------------------------------ seeds at the top of the range (fuzzer: cli)
# ``analyze --seed 18446744073709551615`` seeded the search of ply N with seed + N, past 2**64-1: the
# error came from inside the analysis, after its progress bar ("seed: must be … got
# 18446744073709551616", a seed the user never gave); ``selfcheck`` did the same with seed + game.


def test_analyze_with_the_largest_seed_wraps(capsys):
    status, out, err = run(capsys, "analyze", str(EXAMPLES / "record.json"), "--player", "0", "--iterations", "1",
                           "--seed", "18446744073709551615", "--all", "--json")
    assert status == 0 and err.count("\n") <= 2 * len(json.loads(out)["decisions"]) + 2, err
    assert "error" not in err


def test_analyze_game_checks_its_seed_first():
    from omen_search.analysis import analyze_game
    from omen_search.search import Limit

    record = json.loads((EXAMPLES / "record.json").read_text(encoding="utf-8"))
    for seed in (-1, 2**64, 1.5, True):
        with pytest.raises(UsageError, match="^seed: must be an integer from 0 to 2\\*\\*64-1"):
            analyze_game(record, 0, Limit(iterations=1), seed=seed)


def test_selfcheck_from_the_largest_seed_wraps_to_seed_0(capsys):
    status, out, err = run(capsys, "selfcheck", "--seed", "18446744073709551615", "--games", "2", "--max-turns", "3",
                           "--quiet")
    assert status == 0 and "2 games" in out and err == ""


# ------------------------------------------------------------------ a bench too short to count (fuzzer: cli)
# ``bench --seconds 1e-9`` played no game and ran no search iteration in its time, then divided by
# the rates it had measured: ZeroDivisionError.


def test_bench_of_a_billionth_of_a_second_measures_something(capsys):
    status, out, err = run(capsys, "bench", "--seconds", "1e-9", "--json")
    assert status == 0, err
    result = json.loads(out)
    assert result["reference_playouts_per_s"] > 0 and result["ismcts_iterations_per_s"] > 0
    assert all(v > 0 for v in result["ratios"].values())


# ------------------------------------------------------------------ terminals in other encodings (found beside the fuzzers;
# the in-a-process CLI fuzzer now covers them)
# On a Latin-1 terminal ``omen-search cards`` failed to print the em dash of the built-in set's name
# (UnicodeEncodeError), and a human player's input that is not UTF-8 on a strict terminal failed to
# decode (UnicodeDecodeError): tracebacks, exit 1.


def _omen(args: list[str], encoding: str, stdin: bytes = b"") -> tuple[int, str, str]:
    import subprocess
    import sys

    env = omen_env(PYTHONIOENCODING=encoding)
    proc = subprocess.run([sys.executable, "-P", "-m", "omen_search", *args], input=stdin, capture_output=True,
                          env=env, timeout=120)
    codec = encoding.split(":")[0]
    return proc.returncode, proc.stdout.decode(codec), proc.stderr.decode(codec)


def test_cards_on_a_latin1_terminal_escapes_what_it_cannot_show():
    status, out, err = _omen(["cards"], "latin-1")
    assert status == 0 and err == "", err
    assert out.startswith("Heir to the Dunes \\u2014 seed edition")


def test_a_human_players_input_that_is_not_utf8_is_read_as_a_bad_move():
    status, out, err = _omen(["play", "--players", "human,random"], "utf-8:strict", b"\xff\xfe\n")
    assert "unknown verb" in out
    assert status == 2 and err == "omen-search: error: human player: input ended before the game did\n", err
