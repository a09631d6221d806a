"""Game records: the game, ruleset, card set, seed, players, every move in notation, and the result.

A record replays exactly: the seed fixes every shuffle and the moves fix every decision.
:func:`replay` re-plays one and checks every move, failing with the ply and the reason.
Records are written whole or not at all (:func:`omen_search.files.write_atomic`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from omen_search.documents import JsonReader
from omen_search.errors import FormatError, IllegalMoveError, NotationError, RecordError, shown
from omen_search.files import write_atomic
from omen_search.game import Game, game_of, named_game
from omen_search.jsonio import read_json_file
from omen_search.rng import MASK64
from omen_search.state import State

RECORD_FORMAT = "omen-record/1"
MAX_MOVES = 1_000_000  # moves a record may hold


def make_record(state: Any, players: list[str], game: Game | None = None) -> dict[str, Any]:
    """The record of a game of ``game`` (by default the one ``state``'s configuration sets up)
    played from ``new_initial_state(seed)`` on either engine, finished or not."""
    game = game or game_of(state.config)
    header = game.record_header(state)
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "game": game.name,
        **{k: v for k, v in header.items() if k != "config"},
        "seed": state.seed,
        "config": header.get("config", {}),
        "players": list(players),
        "moves": [str(m) for m in state.moves],
        "plies": state.ply,
        **game.record_totals(state),
    }
    if state.is_terminal():
        record["scores"] = list(state.scores())
        record["winner"] = winner_of(state)
    return record


def winner_of(state: State) -> int | None:
    """The one seat with the best return once the game is over (``None`` for a shared result)."""
    returns = state.returns()
    best = [seat for seat, r in enumerate(returns) if r == max(returns)]
    return best[0] if len(best) == 1 else None


def write_record(path: str | Path, record: dict[str, Any], option: str = "record") -> None:
    """Write a record whole or not at all; raises :class:`UsageError` naming ``option`` and the
    file if it cannot be written there (a path that is not a regular file included)."""

    def dump(f: IO[str]) -> None:
        json.dump(record, f, indent=1)
        f.write("\n")

    write_atomic(path, option, dump)


def record_game(record: Any) -> Game:
    """The game family a record (a dict) names in ``game`` (:data:`DEFAULT_GAME` if it names none);
    raises :class:`FormatError` naming ``record.game``."""
    if not isinstance(record, dict):
        raise FormatError(f"record: must be a JSON object, got {type(record).__name__}")
    return named_game(record, "record")


def replay(record: Any, cards: Any = None, upto: int | None = None, game: Game | None = None,
           engine: str = "reference", before: Callable[[Any], object] | None = None) -> Any:
    """Re-play a record (a dict) move by move on the reference engine (or ``engine``), checking
    each; stop after ``upto`` plies if given. ``game`` is the record's game (by default the one it
    names); ``before(state)`` is called before each move is played.

    Raises :class:`RecordError` naming the ply and the reason for a record that does not replay,
    and :class:`FormatError` for a malformed one.
    """
    family = game or record_game(record)
    cards = cards if cards is not None else family.default_cards()
    r = JsonReader("record")
    if record.get("format") != RECORD_FORMAT:
        r.fail("record.format", f"expected {RECORD_FORMAT!r}, got {shown(record.get('format'))}")
    config = family.read_record_header(record, cards)
    seed = r.integer(r.get(record, "seed", "record"), "record.seed", 0, MASK64)
    moves = r.items(r.get(record, "moves", "record"), "record.moves", most=MAX_MOVES)
    if upto is not None and not 0 <= upto <= len(moves):
        raise RecordError(f"ply {upto}: the record has {len(moves)} plies")
    state = (game or game_of(config)).new_initial_state(seed, engine=engine, cards=cards, config=config)
    for ply, text in enumerate(moves[:upto] if upto is not None else moves):
        if before is not None:
            before(state)
        try:
            state.apply(family.parse_move(text))
        except (NotationError, IllegalMoveError) as exc:
            raise RecordError(f"ply {ply}: move {shown(text)} does not replay: {exc}") from None
    if upto is None:
        if not state.is_terminal() and "scores" in record:
            raise RecordError(f"ply {len(moves)}: the moves end before the game does, but the record has scores")
        if "scores" in record and list(state.scores()) != record["scores"]:
            raise RecordError(
                f"ply {len(moves)}: the record says scores {shown(record['scores'])}, the replay gives {list(state.scores())}"
            )
        if "winner" in record and winner_of(state) != record["winner"]:
            raise RecordError(f"ply {len(moves)}: the record says winner {shown(record['winner'])}, the replay gives "
                              f"{winner_of(state)}")
        for field, value in (("plies", state.ply), *family.record_totals(state).items()):
            if field in record and record[field] != value:
                raise RecordError(f"ply {len(moves)}: the record says {field} {shown(record[field])}, the replay gives {value}")
    return state


def load_record(path: str | Path) -> dict[str, Any]:
    """Read a record file (validated when replayed); raises :class:`FormatError` if unreadable."""
    data = read_json_file(path, "record")
    if not isinstance(data, dict):
        raise FormatError(f"{path}: a record must be a JSON object")
    return data
