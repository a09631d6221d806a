"""Regenerate the reference suite of positions, bench/positions/GAME.jsonl (docs/formats.md, section 11).

The decisions come from games between ISMCTS bots of 2,000 iterations in every seat (heir and the
games after it, fewer games for those; heir-solo: one bot against the Corrupted Heir at level hard,
which it beats about half the time), each game its own seed, a few decisions taken from every
stretch of each game; forced decisions (one legal move) are
skipped. bench/positions/handmade.json adds decisions written by hand. Each decision is stored as
the observation of the player to move with the reference value of every legal move: SEARCHES
independent runs of the advisor's own search (8 root-parallel ISMCTS trees) of ITERATIONS each
(suite.reference_moves).

A position is appended to its file as soon as it is searched, so a cut run resumes where it
stopped; a line searched with another budget is searched again. A larger budget for anyone with
more time:

    nice -n 10 python3 bench/suite_positions.py --game heir --iterations 1000000 --searches 8

``--deepen GAP`` values again, at the budget given, only the positions already in the file whose
best move leads the second by more than GAP win-% points (those the suite's "top-1 where the gap is
over 1 point" can count), and rewrites each in place as soon as it is searched (so a cut run
resumes too); the other positions keep their reference, and each line says its own budget:

    nice -n 10 python3 bench/suite_positions.py --game heir --iterations 400000 --searches 2 --deepen 0.5
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from omen_search.bots import bot_seed, make_bot
from omen_search.files import write_atomic
from omen_search.game import get_game
from omen_search.rng import Rng
from omen_search.suite import (DEFAULT_DIR, SUITE_FORMAT, SuitePosition, load_suite, position_line,
                               reference_moves)

BOT = "ismcts:iterations=2000"
PLAN: dict[str, tuple[int, int, dict[str, Any]]] = {  # games, decisions taken from each, game options
    "heir": (12, 25, {}), "heir-solo": (10, 10, {"level": "hard"}),
    # the games that came after Heir: a smaller suite each, for the same measures (heir+reign has none:
    # it reads no observations yet, so the advisor cannot search it)
    "reign-of-war": (4, 10, {}), "reign-of-war-melee": (3, 10, {}), "omega": (3, 10, {}), "omnia": (3, 10, {})}
HANDMADE = DEFAULT_DIR / "handmade.json"


def decisions(game_name: str, games: int, per_game: int, options: dict[str, Any]) -> Iterator[tuple[str, str, Any]]:
    """(id, source, observation) of the decisions to value: ``per_game`` from each of ``games``
    games between bots, one from each of as many equal stretches of the game's unforced decisions,
    then the hand-made ones of this game."""
    game = get_game(game_name)
    setting = ", ".join(f"{name} {value}" for name, value in options.items())
    players = f"{BOT} against the {game.automaton}, {setting}" if game.automaton else f"{BOT} both seats"
    for seed in range(1, games + 1):
        state = game.new_initial_state(seed=seed, engine="core", config=game.config(**options))
        bots = {seat: make_bot(BOT, bot_seed(seed, seat), game) for seat in game.deciding_seats}
        seen = []
        while not state.is_terminal():
            if len(state.legal_moves()) > 1:
                seen.append((state.ply, game.observe(state, state.current_player)))
            state.apply(bots[state.current_player].choose(state))
        rng = Rng(seed)
        for k in range(per_game):
            lo, hi = k * len(seen) // per_game, (k + 1) * len(seen) // per_game
            if hi > lo:
                ply, observation = seen[lo + rng.next64() % (hi - lo)]
                yield f"{game_name}-s{seed}-p{ply}", f"{players}, game seed {seed}, ply {ply}", observation
    for item in json.loads(HANDMADE.read_text(encoding="utf-8")):
        if item["observation"].get("game", "heir") == game_name:
            yield item["id"], item["source"], item["observation"]


def same_budget(reference: dict[str, Any], budget: dict[str, Any]) -> bool:
    """Whether a line's reference was searched with ``budget`` (its seed aside)."""
    return {k: reference.get(k) for k in budget} == budget


def kept_lines(path: Path, reference: dict[str, Any]) -> dict[str, str]:
    """The lines of an earlier run with the same budget, by id (a cut last line is dropped)."""
    kept = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                doc = json.loads(line)
            except ValueError:
                continue
            if doc.get("format") == SUITE_FORMAT and same_budget(doc["reference"], reference):
                kept[doc["id"]] = line
    return kept


def deepen(path: Path, budget: dict[str, Any], gap: float) -> None:
    """Value again, at ``budget``, the positions of ``path`` whose reference gap is over ``gap``
    points and whose reference is another budget; the file is rewritten after each one."""
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    positions = load_suite(path, check_moves=False)
    todo = [i for i, p in enumerate(positions)
            if p.gap > gap and not same_budget(p.reference, budget)]
    print(f"{path}: {len(todo)} of {len(positions)} positions to value again", file=sys.stderr)
    for n, i in enumerate(todo, 1):
        old, started = positions[i], time.perf_counter()
        seed = zlib.crc32(f"{old.id} {budget['iterations']}".encode())
        moves = reference_moves(old.observation, budget["iterations"], budget["searches"], seed)
        lines[i] = position_line(SuitePosition(old.id, old.game, old.observation, moves, {**budget, "seed": seed},
                                               old.source))
        write_atomic(path, "--out", lambda f: f.writelines(line + "\n" for line in lines))
        print(f"{n}/{len(todo)} {old.id}: best {old.best.move} {100 * old.best.win_prob:.1f}% (gap {old.gap:.2f}) "
              f"-> {moves[0].move} {100 * moves[0].win_prob:.1f}% (gap {100 * (moves[0].win_prob - moves[1].win_prob):.2f}), "
              f"{time.perf_counter() - started:.0f} s", file=sys.stderr)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(PLAN) + ["all"], default="all")
    parser.add_argument("--iterations", type=int, default=25_000, help="iterations of each reference search")
    parser.add_argument("--searches", type=int, default=4, help="independent reference searches per position")
    parser.add_argument("--games", type=int, help="bot games to draw decisions from (default: 12 heir, 10 solo)")
    parser.add_argument("--out", type=Path, default=DEFAULT_DIR, help="the suite folder (default bench/positions)")
    parser.add_argument("--deepen", type=float, metavar="GAP",
                        help="value again only the file's positions whose best move leads by more than GAP points")
    args = parser.parse_args()
    for name in sorted(PLAN) if args.game == "all" else [args.game]:
        args.out.mkdir(parents=True, exist_ok=True)
        path = args.out / f"{name}.jsonl"
        budget = {"algorithm": "advisor", "c": 0.7, "searches": args.searches, "iterations": args.iterations}
        if args.deepen is not None:
            deepen(path, budget, args.deepen)
            continue
        kept = kept_lines(path, budget)
        write_atomic(path, "--out", lambda f: f.writelines(line + "\n" for line in kept.values()))
        games, per_game, options = PLAN[name]
        done = 0
        with path.open("a", encoding="utf-8") as out:
            for ident, source, observation in decisions(name, args.games or games, per_game, options):
                if ident in kept:
                    continue
                started = time.perf_counter()
                seed = zlib.crc32(ident.encode())
                moves = reference_moves(observation, args.iterations, args.searches, seed)
                position = SuitePosition(ident, name, observation, moves, {**budget, "seed": seed}, source)
                out.write(position_line(position) + "\n")
                out.flush()
                done += 1
                print(f"{ident}: {len(moves)} moves, best {moves[0].move} {100 * moves[0].win_prob:.1f}%, "
                      f"{time.perf_counter() - started:.1f} s", file=sys.stderr)
        print(f"{path}: {len(kept) + done} positions ({done} searched now)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
