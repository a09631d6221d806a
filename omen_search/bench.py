"""Speed of a game's rules engines, measured in one run: the core against the reference.

Everything is timed in the same process, one after the other, so the ratios compare like with like
on whatever machine runs it. ``signature`` is a deterministic count and hash over a fixed list of
seeded random games and perft trees: it changes only when the engines' behaviour changes (like
Stockfish's ``bench`` node count), never with the machine's speed.
"""

from __future__ import annotations

import hashlib
import os
import platform
import time
from typing import Any

from omen_search.bots import RandomBot
from omen_search.game import DEFAULT_GAME, Game, get_game
from omen_search.perft import perft
from omen_search.search import Limit, ismcts, move_id

MIN_SECONDS = 0.05  # the shortest measurement: a search or a game needs some milliseconds
SIGNATURE_GAMES = 200  # seeds 0..199
SIGNATURE_PERFT = ((1, 5), (2, 5), (3, 5))  # (seed, depth)


def _rate(fn, min_seconds: float) -> tuple[float, int]:
    """Calls of ``fn`` per second, repeating until ``min_seconds`` have passed."""
    n, start = 0, time.perf_counter()
    while True:
        fn()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_seconds:
            return n / elapsed, n


def _midgame(game: Game, engine: str, seed: int = 11, plies: int = 40) -> Any:
    """A seeded random game ``plies`` plies in, or one ply before its end if it is shorter."""
    state = game.new_initial_state(seed, engine=engine)
    bot = RandomBot(seed)
    while state.ply < plies:
        state.apply(bot.choose(state))
        if state.is_terminal():
            state.undo()
            break
    return state


def signature(game: Game | None = None) -> dict[str, Any]:
    """Plies and a hash over seeded core playouts plus perft counts of ``game`` (default
    :data:`DEFAULT_GAME`) in its default set-up: changes only with behaviour."""
    from omen_search._search import run_playouts

    game = game or get_game(DEFAULT_GAME)
    scores, plies = run_playouts(game.new_initial_state(0), SIGNATURE_GAMES, seed=0)
    counts = [perft(game.new_initial_state(s), d) for s, d in SIGNATURE_PERFT]
    h = hashlib.sha256(scores.tobytes() + plies.tobytes() + repr(counts).encode()).hexdigest()[:16]
    return {"games": SIGNATURE_GAMES, "plies": int(plies.sum()), "perft": counts, "hash": h}


def _per_s(count: float, seconds: float) -> float:
    """A rate; 0 when nothing was counted (a measurement cut short by the machine)."""
    return count / seconds if count and seconds > 0 else 0.0


def run_bench(seconds: float = 1.0, game: Game | None = None) -> dict[str, Any]:
    """Measure clone, apply+undo, legal-move generation and random playouts of ``game`` (default
    :data:`DEFAULT_GAME`) on both engines, each for ``seconds`` (at least :data:`MIN_SECONDS`, so
    that every measurement counts something)."""
    from omen_search._search import bench_clone, run_playouts, search, state_size

    seconds = max(seconds, MIN_SECONDS)
    game = game or get_game(DEFAULT_GAME)

    out: dict[str, Any] = {"game": game.name,
                           "machine": f"{platform.machine()} {platform.processor() or ''}".strip(),
                           "python": platform.python_version()}
    per = max(seconds / 4, 0.05)
    for engine in ("core", "reference"):
        state = _midgame(game, engine)
        move = state.legal_moves()[0]
        if engine == "core":
            mid = move_id(state, move)
            out["core_clone_per_s"] = _rate(state.clone, per)[0]
            out["core_legal_moves_per_s"] = _rate(state.legal_move_ids, per)[0]
            out["core_apply_undo_per_s"] = _rate(lambda: (state.apply_id(mid), state.undo()), per)[0]
        else:
            out["reference_clone_per_s"] = _rate(state.clone, per)[0]
            out["reference_legal_moves_per_s"] = _rate(state.legal_moves, per)[0]
            out["reference_apply_undo_per_s"] = _rate(lambda: (state.apply_trusted(move), state.undo()), per)[0]

    games, start, plies = 0, time.perf_counter(), 0
    while games == 0 or time.perf_counter() - start < seconds:  # one game at least, however short the time
        s = game.new_initial_state(games, engine="reference")
        bot = RandomBot(games)
        while not s.is_terminal():
            s.apply_trusted(bot.choose(s))
        plies += s.ply
        games += 1
    ref_rate = games / (time.perf_counter() - start)

    deal = game.new_initial_state(0)  # the game and set-up run_playouts deals again and again
    batch, core_games, start, core_plies = 500, 0, time.perf_counter(), 0
    while core_games == 0 or time.perf_counter() - start < seconds:
        _, p = run_playouts(deal, batch, seed=core_games)
        core_games += batch
        core_plies += int(p.sum())
    core_rate = core_games / (time.perf_counter() - start)

    probe = search(game.new_initial_state(3), 0, seconds, 0.7, False, 1, 4_000_000)
    threads = max(2, min(4, os.cpu_count() or 1))  # root parallelism: one search per thread
    parallel = ismcts(game.new_initial_state(3), Limit(seconds=seconds), seed=1, workers=threads)

    n = 2_000_000
    clone_s, memcpy_s, _ = bench_clone(_midgame(game, "core"), n)
    out.update({
        "core_playouts_per_s": core_rate,
        "reference_playouts_per_s": ref_rate,
        "ratio": core_rate / ref_rate,
        "plies_per_playout": core_plies / core_games,
        "core_plies_per_s": core_rate * core_plies / core_games,
        "state_bytes": state_size(deal),
        "clone_ns_c_loop": clone_s / n * 1e9,
        "memcpy_ns_c_loop": memcpy_s / n * 1e9,
        "clone_vs_memcpy": clone_s / memcpy_s,
        "ismcts_iterations_per_s": _per_s(probe["iterations"], probe["seconds"]),
        "ismcts_threads": threads,
        "ismcts_threads_iterations_per_s": _per_s(parallel.iterations, parallel.seconds),
        "ismcts_thread_scaling": _per_s(_per_s(parallel.iterations, parallel.seconds),
                                        _per_s(probe["iterations"], probe["seconds"])),
        "signature": signature(game),
    })
    out["ratios"] = {
        "playouts": out["ratio"],
        "clone": out["core_clone_per_s"] / out["reference_clone_per_s"],
        "apply_undo": out["core_apply_undo_per_s"] / out["reference_apply_undo_per_s"],
        "legal_moves": out["core_legal_moves_per_s"] / out["reference_legal_moves_per_s"],
    }
    return out


def format_bench(r: dict[str, Any]) -> str:
    """The bench result as a short table for people."""
    rows = [
        ("random playouts / s", r["core_playouts_per_s"], r["reference_playouts_per_s"], r["ratios"]["playouts"]),
        ("clone / s", r["core_clone_per_s"], r["reference_clone_per_s"], r["ratios"]["clone"]),
        ("apply+undo / s", r["core_apply_undo_per_s"], r["reference_apply_undo_per_s"], r["ratios"]["apply_undo"]),
        ("legal moves / s", r["core_legal_moves_per_s"], r["reference_legal_moves_per_s"], r["ratios"]["legal_moves"]),
    ]
    lines = [f"{'':22}{'core':>14}{'reference':>14}{'ratio':>10}"]
    lines += [f"{name:22}{a:14,.0f}{b:14,.1f}{c:9,.0f}x" for name, a, b, c in rows]
    lines.append(f"plies per playout {r['plies_per_playout']:.1f}; state {r['state_bytes']} bytes; "
                 f"clone in a C loop {r['clone_ns_c_loop']:.1f} ns vs memcpy {r['memcpy_ns_c_loop']:.1f} ns "
                 f"({r['clone_vs_memcpy']:.2f}x)")
    lines.append(f"ISMCTS iterations / s (one process, from the first decision): {r['ismcts_iterations_per_s']:,.0f}; "
                 f"{r['ismcts_threads']} threads: {r['ismcts_threads_iterations_per_s']:,.0f} "
                 f"({r['ismcts_thread_scaling']:.2f}x)")
    sig = r["signature"]
    lines.append(f"signature {sig['hash']} ({sig['games']} games, {sig['plies']} plies, perft {sig['perft']})")
    return "\n".join(lines)
