"""Game records: the game, ruleset, card set, seed, players, every move in notation, and the result.

A record replays exactly: the seed fixes every shuffle and the moves fix every decision.
:func:`replay` re-plays one and checks every move, failing with the ply and the reason.
Records are written whole or not at all (:func:`omen_search.files.write_atomic`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from omen_search.errors import FormatError, IllegalMoveError, NotationError, RecordError, shown
from omen_search.files import write_atomic
from omen_search.game import game_of
from omen_search.games.heir.cards import CardSet, default_cards
from omen_search.games.heir.notation import Move
from omen_search.games.heir.observe import written_config
from omen_search.games.heir.positions import DocumentReader, read_config
from omen_search.games.heir.reference import GameState
from omen_search.jsonio import read_json_file
from omen_search.rng import MASK64
from omen_search.state import State

RECORD_FORMAT = "omen-record/1"


def make_record(state: State, players: list[str]) -> dict[str, Any]:
    """The record of a game played from ``new(seed=...)`` on either engine (finished or not)."""
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": game_of(state.config).name,
        "ruleset": state.cards.ruleset,
        "cards": {"name": state.cards.name, "sha256": state.cards.sha256},
        "seed": state.seed,
        "config": written_config(state.config),
        "players": list(players),
        "moves": [str(m) for m in state.moves],
        "plies": state.ply,
        "turns": state.turn,
    }
    if state.is_terminal():
        record["scores"] = list(state.scores())
        record["winner"] = state.winner()
    return record


def write_record(path: str | Path, record: dict[str, Any], option: str = "record") -> None:
    """Write a record whole or not at all; raises :class:`UsageError` naming ``option`` and the
    file if it cannot be written there (a path that is not a regular file included)."""

    def dump(f: IO[str]) -> None:
        json.dump(record, f, indent=1)
        f.write("\n")

    write_atomic(path, option, dump)


def replay(record: Any, cards: CardSet | None = None, upto: int | None = None) -> GameState:
    """Re-play a record (a dict) move by move, checking each; stop after ``upto`` plies if given.

    Raises :class:`RecordError` naming the ply and the reason for a record that does not replay,
    and :class:`FormatError` for a malformed one.
    """
    cards = cards or default_cards()
    if not isinstance(record, dict):
        raise FormatError(f"record: must be a JSON object, got {type(record).__name__}")
    r = DocumentReader(cards, "record")
    if record.get("format") != RECORD_FORMAT:
        r.fail("record.format", f"expected {RECORD_FORMAT!r}, got {shown(record.get('format'))}")
    meta = r.obj(r.get(record, "cards", "record"), "record.cards")
    if meta.get("sha256") != cards.sha256:
        raise RecordError(
            f"record.cards: played with card set {shown(meta.get('name'))}, not {cards.name!r}; pass its --cards file"
        )
    seed = r.integer(r.get(record, "seed", "record"), "record.seed", 0, MASK64)
    config = read_config(r, record, "record")
    moves = r.items(r.get(record, "moves", "record"), "record.moves", most=1_000_000)
    if upto is not None and not 0 <= upto <= len(moves):
        raise RecordError(f"ply {upto}: the record has {len(moves)} plies")
    state = GameState.new(seed=seed, cards=cards, config=config)
    for ply, text in enumerate(moves[:upto] if upto is not None else moves):
        try:
            state.apply(Move.parse(text))
        except (NotationError, IllegalMoveError) as exc:
            raise RecordError(f"ply {ply}: move {shown(text)} does not replay: {exc}") from None
    if upto is None:
        if not state.is_terminal() and "scores" in record:
            raise RecordError(f"ply {len(moves)}: the moves end before the game does, but the record has scores")
        if "scores" in record and list(state.scores()) != record["scores"]:
            raise RecordError(
                f"ply {len(moves)}: the record says scores {shown(record['scores'])}, the replay gives {list(state.scores())}"
            )
        if "winner" in record and state.winner() != record["winner"]:
            raise RecordError(f"ply {len(moves)}: the record says winner {shown(record['winner'])}, the replay gives "
                              f"{state.winner()}")
        for field, value in (("plies", state.ply), ("turns", state.turn)):
            if field in record and record[field] != value:
                raise RecordError(f"ply {len(moves)}: the record says {field} {shown(record[field])}, the replay gives {value}")
    return state


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file (validated when replayed); raises :class:`FormatError` if unreadable."""
    data = read_json_file(path, "record")
    if not isinstance(data, dict):
        raise FormatError(f"{path}: a record must be a JSON object")
    return data
