"""Our ISMCTS on the Cython core beside OpenSpiel's ISMCTSBot on the OpenSpiel adapter, in one run.

    python3 bench/compare_openspiel.py [--games 200] [--seconds 0.05] [--workers 2] [--json]

1. Search speed: ISMCTS iterations per second of each, from the same positions (the first decision
   of deals 0..4), and the ratio. OpenSpiel's C++ ``pyspiel.ISMCTSBot`` crashes (SIGSEGV) on every
   Python game, OpenSpiel's own ``python_kuhn_poker`` included, so the OpenSpiel side is its Python
   ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (the same algorithm, "adapted from the C++
   implementation") with a random-rollout evaluator, on ``omen_heir``.
2. Strength at equal time: a seat-swapped match (pairs of games on one deal), our ``ismcts`` with
   ``--seconds`` per move against OpenSpiel's bot with as many simulations as it runs in that time
   (calibrated in part 1); A's win rate with a Wilson 95% interval.
3. Raw engine speed: random playouts of our core (``run_playouts``, a C loop) against OpenSpiel's
   C++ card games ``hearts``, ``dou_dizhu`` and ``crazy_eights``, whose random rollouts run in C++
   inside ``pyspiel.MCTSBot``'s ``RandomRolloutEvaluator`` (no Python in the loop; timed as the
   difference between an 8- and a 4-simulation search, so only 4 x 2,000 rollouts are counted):
   plies per second of each (theirs count chance moves too, which favours them) and our ratio.

Needs ``pip install "omen-search[openspiel]"``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as openspiel_ismcts
from open_spiel.python.algorithms import mcts
from tqdm import tqdm

from omen_search._core import run_playouts
from omen_search.adapters.actions import action_of
from omen_search.adapters.openspiel import OmenState  # registers omen_heir
from omen_search.search import Limit, ismcts
from omen_search.stats import wilson

POSITIONS = range(5)  # deals whose first decision is searched in part 1


def their_bot(game: Any, simulations: int, seed: int) -> Any:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return openspiel_ismcts.ISMCTSBot(game, evaluator, 0.7, max(1, simulations),
                                      random_state=np.random.RandomState(seed))


def dealt(game: Any, deal: int) -> OmenState:
    state = game.new_initial_state()
    state.apply_action(deal)
    return state


def search_rates(ours: int, theirs: int) -> dict[str, float]:
    """Iterations per second of each search from the same positions."""
    game = pyspiel.load_game("omen_heir")
    our_time = their_time = 0.0
    for deal in POSITIONS:
        state = dealt(game, deal)
        start = time.perf_counter()
        ismcts(state.core, Limit(iterations=ours), seed=deal)
        our_time += time.perf_counter() - start
        bot = their_bot(game, theirs, deal)
        start = time.perf_counter()
        bot.step(state)
        their_time += time.perf_counter() - start
    n = len(POSITIONS)
    rates = {"ours_iterations_per_s": ours * n / our_time, "openspiel_iterations_per_s": theirs * n / their_time}
    rates["ratio"] = rates["ours_iterations_per_s"] / rates["openspiel_iterations_per_s"]
    return rates


def play_pair_game(index: int, seconds: float, simulations: int) -> dict[str, Any]:
    """Game ``index``: deal ``index // 2``; our bot in seat ``index % 2``."""
    game = pyspiel.load_game("omen_heir")
    state = dealt(game, index // 2)
    ours = index % 2
    theirs = their_bot(game, simulations, index)
    turn = 0
    while not state.is_terminal():
        if state.current_player() == ours:
            result = ismcts(state.core, Limit(seconds=seconds), seed=index * 1000 + turn)
            state.apply_action(action_of(state.core.move_id(result.best)))
        else:
            state.apply_action(theirs.step(state))
        turn += 1
    winner = state.core.winner()
    return {"index": index, "ours": ours, "winner": winner, "plies": state.core.ply}


def match(games: int, seconds: float, simulations: int, workers: int) -> dict[str, Any]:
    lines = []
    with ProcessPoolExecutor(max_workers=workers) as pool, tqdm(total=games, desc="match", unit="game",
                                                                file=sys.stderr) as bar:
        for line in pool.map(play_pair_game, range(games), [seconds] * games, [simulations] * games):
            lines.append(line)
            bar.update(1)
    wins = sum(1 for g in lines if g["winner"] == g["ours"])
    ties = sum(1 for g in lines if g["winner"] is None)
    low, high = wilson(wins + 0.5 * ties, games)
    return {"games": games, "seconds_per_move": seconds, "openspiel_simulations": simulations, "our_wins": wins,
            "ties": ties, "win_rate": (wins + 0.5 * ties) / games, "win_rate_low": low, "win_rate_high": high}


def openspiel_plies_per_s(name: str, rollouts: int = 2000) -> float:
    """Random rollouts in C++ (``RandomRolloutEvaluator`` inside ``MCTSBot``) from a position with a
    choice, and the mean length of a rollout from there (measured by random play in Python)."""
    game = pyspiel.load_game(name)
    rng = random.Random(1)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(state.legal_actions()[0])
    plies = 0
    for _ in range(200):
        s = state.clone()
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(actions, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
            plies += 1
    per_rollout = plies / 200

    def timed(simulations: int) -> float:
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(rollouts, 1), 2.0, simulations, 1000, False, 1,
                              False)
        start = time.perf_counter()
        bot.step(state)
        return time.perf_counter() - start

    # the difference of two searches: 4 more evaluations of ``rollouts`` rollouts each, nothing else
    return 4 * rollouts * per_rollout / (timed(8) - timed(4))


def core_plies_per_s(seconds: float = 1.0) -> float:
    games = plies = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, p = run_playouts(500, seed=games)
        games += 500
        plies += int(p.sum())
    return plies / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="match games, in seat-swapped pairs (default 200)")
    parser.add_argument("--seconds", type=float, default=0.05, help="search time per move in the match (default 0.05)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the match (default 2)")
    parser.add_argument("--our-iterations", type=int, default=20000, help="iterations per position, ours (part 1)")
    parser.add_argument("--their-iterations", type=int, default=100, help="iterations per position, OpenSpiel's")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.games < 2 or args.games % 2 or args.seconds <= 0 or args.workers < 1:
        parser.error("--games must be even and at least 2; --seconds and --workers positive")

    out: dict[str, Any] = {"search": search_rates(args.our_iterations, args.their_iterations)}
    simulations = round(out["search"]["openspiel_iterations_per_s"] * args.seconds)
    out["match"] = match(args.games, args.seconds, simulations, args.workers)
    ours = core_plies_per_s()
    out["playouts"] = {"omen_core_plies_per_s": ours}
    for name in ("hearts", "dou_dizhu", "crazy_eights"):
        theirs = openspiel_plies_per_s(name)
        out["playouts"][name] = {"plies_per_s": theirs, "our_ratio": ours / theirs}
    if args.json:
        print(json.dumps(out))
        return 0
    s, m = out["search"], out["match"]
    print(f"ISMCTS iterations/s: ours {s['ours_iterations_per_s']:,.0f}, OpenSpiel {s['openspiel_iterations_per_s']:,.0f}"
          f" -> {s['ratio']:.0f}x")
    print(f"match at {m['seconds_per_move']} s a move (OpenSpiel: {m['openspiel_simulations']} simulations): "
          f"ours {m['our_wins']}/{m['games']} = {100 * m['win_rate']:.1f}% "
          f"(95% {100 * m['win_rate_low']:.1f}-{100 * m['win_rate_high']:.1f})")
    print(f"random playouts, plies/s: Omen core {ours:,.0f}")
    for name in ("hearts", "dou_dizhu", "crazy_eights"):
        p = out["playouts"][name]
        print(f"  {name:13} {p['plies_per_s']:>13,.0f}  (ours {p['our_ratio']:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
