"""Our ISMCTS on the Cython core beside OpenSpiel's ISMCTSBot on the OpenSpiel adapter, and our
core's random playouts beside OpenSpiel's C++ card games, in one run.

    python3 bench/compare_openspiel.py [--game heir|reign-of-war|omega|omega-3|omega-4|omnia|omnia-3|omnia-4]
                                       [--games 200] [--seconds 0.05] [--workers 2] [--json]

``--game`` (default ``heir``) is the game compared: Heir to the Dunes (``omen_heir``), Reign of War
(``omen_reign``), OMEGA for 2, 3 or 4 players (``omen_omega``, ``omen_omega_3``, ``omen_omega_4``) or
OMNIA for 2, 3 or 4 players (``omen_omnia``, ``omen_omnia_3``, ``omen_omnia_4``), on the built-in cards
and default options.

1. **Search speed.** ISMCTS iterations per second of each from the same positions (the first
   decision of deals 0-4 of the game) and the ratio. OpenSpiel's C++ ``pyspiel.ISMCTSBot`` is
   tried first; it cannot search a Python game (see ``omen_search.adapters.openspiel``), so the
   OpenSpiel side is then its Python ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (the same
   algorithm, "adapted from the C++ implementation") with a random-rollout evaluator; the reason
   is printed. For scale, the C++ bot's rate on OpenSpiel's own C++ ``hearts`` is printed too (a
   different game: context, not a comparison).
2. **Strength at equal time.** A seat-rotated match (each deal played once with our bot in every
   seat: seat-swapped pairs with two players): our ``ismcts`` with ``--seconds`` per move against
   OpenSpiel's bot in every other seat, stopped by the clock after the same time
   (:class:`PythonIsmcts`); the mean time per move each side actually took and OpenSpiel's mean
   simulations per move are reported. Our score (a win shared by k seats counts 1/k, a tie of two
   one half) with a Wilson 95% interval. ``--games 0`` leaves the match out.
3. **Raw engine speed.** Random playouts, plies per second, best of ``--rounds`` alternating
   rounds: our core's ``run_playouts`` (a C loop of whole random games, each from a fresh deal)
   against OpenSpiel's C++ ``hearts``, ``dou_dizhu`` and ``crazy_eights``, measured two ways, both
   looping in C++: *rollouts*, the ``RandomRolloutEvaluator`` inside ``pyspiel.MCTSBot`` (one
   simulation: N random rollouts from a dealt position, the loop OpenSpiel's MCTS uses; plies per
   rollout counted by random play from the same position), and *games*, ``pyspiel.evaluate_bots``
   with C++ uniform random bots (whole games from the initial state, deal included; plies counted
   exactly from each game's history). Our plies are all decisions (the core deals and draws
   inside its moves), so OpenSpiel's chance plies (the deal, crazy eights' draws) are left out of
   the ratio and shown apart.

Needs ``pip install "omen-search[openspiel]"``.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # no idle BLAS thread competing with the timed loops

import argparse  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from concurrent.futures import ProcessPoolExecutor, as_completed  # noqa: E402
from importlib.metadata import version  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts as openspiel_ismcts  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402
from tqdm import tqdm  # noqa: E402

from omen_search._search import run_playouts  # noqa: E402
from omen_search.adapters.openspiel import OmenState, short_name  # noqa: E402  (registers the games)
from omen_search.adapters.spec import adapter_of  # noqa: E402
from omen_search.game import get_game  # noqa: E402
from omen_search.search import Limit, ismcts  # noqa: E402
from omen_search.stats import wilson  # noqa: E402

GAMES = ("heir", "reign-of-war", "omega", "omega-3", "omega-4", "omnia", "omnia-3", "omnia-4")  # the games compared, each with an OpenSpiel name
POSITIONS = range(5)  # deals whose first decision is searched in part 1
CARD_GAMES = ("hearts", "dou_dizhu", "crazy_eights")
UCT_C = 0.7  # our exploration constant (the default of ``ismcts``), for rewards 0..1
THEIR_UCT_C = 2 * UCT_C  # the same exploration for OpenSpiel's bots, whose returns run -1..1


def bar(total: int, desc: str) -> tqdm:
    return tqdm(total=total, desc=desc, unit="step", file=sys.stderr, leave=False)


# ------------------------------------------------------------------------------- part 1: search


class CppIsmcts:
    """OpenSpiel's C++ ``pyspiel.ISMCTSBot`` with a one-rollout random evaluator (kept alive here),
    stopped by ``simulations`` or by its own clock (``seconds``). ``step`` goes through the base
    class's ``pyspiel.Bot.step``, which keeps the GIL: ``ISMCTSBot.step`` releases it, and then a
    Python game's callbacks crash the interpreter."""

    def __init__(self, seed: int, simulations: int | None = None, seconds: float | None = None):
        self.evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        self.bot = pyspiel.ISMCTSBot(seed, self.evaluator, THEIR_UCT_C, simulations or 10**9, -1,
                                     pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False,
                                     seconds if seconds is not None else -1.0)
        self.simulations = 0  # not reported by the C++ bot

    def step(self, state: Any) -> int:
        return int(pyspiel.Bot.step(self.bot, state))


class _TimeUp(Exception):
    pass


class PythonIsmcts(openspiel_ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTSBot (random rollouts, the most visited move), stopped by
    ``simulations`` or by the clock (``seconds``: simulations until that time has passed, at least
    two, then its own final policy). Its worlds come from the adapter's ``resample_from_infostate``
    with numbers from the seeded ``random_state`` (OpenSpiel's default sampler is unseeded), so a
    seed reproduces its play, up to where the clock stops it."""

    def __init__(self, game: Any, seed: int, simulations: int | None = None, seconds: float | None = None):
        rs = np.random.RandomState(seed)
        super().__init__(game, mcts.RandomRolloutEvaluator(1, rs), THEIR_UCT_C, simulations or 10**9, random_state=rs)
        self.set_resampler(lambda state, player: state.resample_from_infostate(player, rs.random_sample))
        self.seconds = seconds
        self.simulations = 0  # run so far, over all searches
        self._deadline = 0.0
        self._this_search = 0

    def sample_root_state(self, state: Any) -> Any:
        # the first simulation only expands the root: at least two, so that a move has a visit
        if self.seconds is not None and self._this_search >= 2 and time.perf_counter() >= self._deadline:
            raise _TimeUp
        self._this_search += 1
        self.simulations += 1
        return super().sample_root_state(state)

    def run_search(self, state: Any) -> Any:
        self._deadline = time.perf_counter() + (self.seconds or 0.0)
        self._this_search = 0
        try:
            return super().run_search(state)
        except _TimeUp:
            return self.get_final_policy(state, self._root_node)


def cpp_ismcts_unavailable(game: Any) -> str | None:
    """Why OpenSpiel's C++ ISMCTSBot cannot search ``game`` (``None``: it can); with the GIL kept
    (:class:`CppIsmcts`) a refusal is an exception, not a crash."""
    try:
        CppIsmcts(1, 2).step(dealt(game, 0))
    except pyspiel.SpielError as error:
        return (f"pyspiel.ISMCTSBot cannot search a Python game: {error} (ISMCTSBot.step also releases the GIL "
                "before calling back into Python: a segmentation fault)")
    return None


def their_bot(game: Any, seed: int, use_cpp: bool, simulations: int | None = None,
              seconds: float | None = None) -> Any:
    if use_cpp:
        return CppIsmcts(seed, simulations, seconds)
    return PythonIsmcts(game, seed, simulations, seconds)


def dealt(game: Any, deal: int) -> OmenState:
    state = game.new_initial_state()
    state.apply_action(deal)
    return state


def search_rates(name: str, ours: int, theirs: int) -> dict[str, Any]:
    """Iterations per second of each search from the same positions, and the ratio."""
    game = pyspiel.load_game(short_name(get_game(name)))
    reason = cpp_ismcts_unavailable(game)
    use_cpp = reason is None
    our_time = their_time = 0.0
    with bar(2 * len(POSITIONS), "search speed") as progress:
        for deal in POSITIONS:
            state = dealt(game, deal)
            start = time.perf_counter()
            ismcts(state.core, Limit(iterations=ours), seed=deal, c=UCT_C)
            our_time += time.perf_counter() - start
            progress.update(1)
            bot = their_bot(game, deal, use_cpp, simulations=theirs)
            start = time.perf_counter()
            bot.step(state)
            their_time += time.perf_counter() - start
            progress.update(1)
    n = len(POSITIONS)
    out: dict[str, Any] = {
        "positions": n, "our_iterations": ours, "their_iterations": theirs,
        "openspiel_bot": "C++ pyspiel.ISMCTSBot" if use_cpp else "Python open_spiel.python.algorithms.ismcts.ISMCTSBot",
        "cpp_bot_unavailable": reason,
        "ours_iterations_per_s": ours * n / our_time, "openspiel_iterations_per_s": theirs * n / their_time,
        "cpp_ismcts_hearts_iterations_per_s": cpp_ismcts_rate("hearts", ours)}
    out["ratio"] = out["ours_iterations_per_s"] / out["openspiel_iterations_per_s"]
    return out


def cpp_ismcts_rate(name: str, iterations: int) -> float:
    """Context: the C++ ISMCTSBot's iterations per second on one of OpenSpiel's own C++ games."""
    game = pyspiel.load_game(name)
    rng = random.Random(1)
    elapsed = 0.0
    for seed in POSITIONS:
        state = first_choice(game, rng)
        bot = pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), THEIR_UCT_C, iterations, -1,
                                pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
        start = time.perf_counter()
        bot.step(state)  # a C++ game: the GIL may go
        elapsed += time.perf_counter() - start
    return iterations * len(POSITIONS) / elapsed


# -------------------------------------------------------------------------------- part 2: match


def play_rotated_game(name: str, index: int, seconds: float, use_cpp: bool) -> dict[str, Any]:
    """Game ``index`` of ``name`` (N players): deal ``index // N``; our bot in seat ``index % N``,
    OpenSpiel's bot (one shared by the other seats) everywhere else."""
    family = get_game(name)
    action_of = adapter_of(family).action_of
    game = pyspiel.load_game(short_name(family))
    players = game.num_players()
    state = dealt(game, index // players)
    core = state.core  # the adapter plays its moves on this core state
    assert core is not None
    ours = index % players
    theirs = their_bot(game, index, use_cpp, seconds=seconds)
    turn = 0
    time_used = [0.0, 0.0]  # ours, theirs
    moves = [0, 0]
    while not state.is_terminal():
        start = time.perf_counter()
        if state.current_player() == ours:
            result = ismcts(core, Limit(seconds=seconds), seed=index * 1000 + turn, c=UCT_C)
            state.apply_action(action_of(core.move_id(result.best)))
            side = 0
        else:
            state.apply_action(int(theirs.step(state)))
            side = 1
        time_used[side] += time.perf_counter() - start
        moves[side] += 1
        turn += 1
    returns = state.returns()
    best = [seat for seat, r in enumerate(returns) if r == max(returns)]
    return {"index": index, "ours": ours, "score": 1 / len(best) if ours in best else 0.0, "shared": len(best) > 1,
            "plies": core.ply, "time": time_used, "moves": moves, "their_simulations": theirs.simulations}


def match(name: str, games: int, seconds: float, workers: int, use_cpp: bool) -> dict[str, Any]:
    lines = []
    with ProcessPoolExecutor(max_workers=workers) as pool, tqdm(total=games, desc="match", unit="game",
                                                                file=sys.stderr, leave=False) as progress:
        futures = [pool.submit(play_rotated_game, name, i, seconds, use_cpp) for i in range(games)]
        for future in as_completed(futures):
            lines.append(future.result())
            progress.update(1)
    wins = sum(1 for g in lines if g["score"] == 1)
    ties = sum(1 for g in lines if g["shared"])
    score = sum(g["score"] for g in lines)
    low, high = wilson(score, games)
    per_move = [sum(g["time"][side] for g in lines) / max(1, sum(g["moves"][side] for g in lines)) for side in (0, 1)]
    their_moves = sum(g["moves"][1] for g in lines)
    return {"games": games, "seconds_per_move": seconds,
            "openspiel_simulations_per_move": sum(g["their_simulations"] for g in lines) / max(1, their_moves),
            "our_wins": wins,
            "ties": ties, "win_rate": score / games, "win_rate_low": low, "win_rate_high": high,
            "our_seconds_per_move": per_move[0], "openspiel_seconds_per_move": per_move[1]}


# ------------------------------------------------------------------------------ part 3: playouts


def first_choice(game: Any, rng: random.Random) -> Any:
    """A state after the deal where the player to move has a choice."""
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(state.legal_actions()[0])
    return state


def rollout_plies(state: Any, rng: random.Random, samples: int = 300) -> tuple[float, float]:
    """Mean decision and chance plies of a random rollout from ``state`` (random play in Python)."""
    decision = chance = 0
    for _ in range(samples):
        s = state.clone()
        while not s.is_terminal():
            if s.is_chance_node():
                actions, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(actions, probs)[0])
                chance += 1
            else:
                s.apply_action(rng.choice(s.legal_actions()))
                decision += 1
    return decision / samples, chance / samples


class TheirRollouts:
    """OpenSpiel's C++ rollout loop: a one-simulation ``MCTSBot`` evaluates its root with ``n``
    random rollouts of a ``RandomRolloutEvaluator``; nothing else of note runs."""

    def __init__(self, name: str, seconds: float):
        self.game = pyspiel.load_game(name)
        rng = random.Random(1)
        self.state = first_choice(self.game, rng)
        self.decision, self.chance = rollout_plies(self.state, rng)
        self.n = max(50, int(self._rate(200) * seconds))

    def _time(self, n: int) -> float:
        evaluator = pyspiel.RandomRolloutEvaluator(n, 1)
        bot = pyspiel.MCTSBot(self.game, evaluator, 2.0, 1, 1000, False, 1, False)
        start = time.perf_counter()
        bot.step(self.state)
        return time.perf_counter() - start

    def _rate(self, n: int) -> float:
        return n / self._time(n)

    def measure(self) -> dict[str, float]:
        rollouts = self._rate(self.n)
        return {"rollouts_per_s": rollouts, "plies_per_s": rollouts * self.decision,
                "chance_plies_per_s": rollouts * self.chance}


class TheirGames:
    """Whole random games in C++: ``pyspiel.evaluate_bots`` with uniform random bots, from fresh
    initial states made beforehand (outside the timing); plies counted from each history."""

    def __init__(self, name: str, seconds: float):
        self.game = pyspiel.load_game(name)
        self.bots = [pyspiel.make_uniform_random_bot(p, 1 + p) for p in range(self.game.num_players())]
        self.seed = 0
        probe = self._measure(20)
        self.n = max(20, int(probe["games_per_s"] * seconds))

    def _measure(self, n: int) -> dict[str, float]:
        states = [self.game.new_initial_state() for _ in range(n)]
        start = time.perf_counter()
        for state in states:
            self.seed += 1
            pyspiel.evaluate_bots(state, self.bots, self.seed)
        elapsed = time.perf_counter() - start
        chance = sum(1 for s in states for step in s.full_history() if step.player == pyspiel.PlayerId.CHANCE)
        total = sum(len(s.history()) for s in states)
        return {"games_per_s": n / elapsed, "plies_per_s": (total - chance) / elapsed,
                "chance_plies_per_s": chance / elapsed, "plies_per_game": (total - chance) / n}

    def measure(self) -> dict[str, float]:
        return self._measure(self.n)


class OurPlayouts:
    """Our core: ``run_playouts`` (whole random games, each from a fresh deal, in C)."""

    def __init__(self, name: str, seconds: float):
        self.core = get_game(name).new_initial_state(0, engine="core")
        self.seed = 0
        probe = self.measure(200)
        self.n = max(200, int(probe["games_per_s"] * seconds))

    def measure(self, n: int | None = None) -> dict[str, float]:
        n = n or self.n
        self.seed += 1
        start = time.perf_counter()
        _, plies = run_playouts(self.core, n, seed=self.seed)
        elapsed = time.perf_counter() - start
        return {"games_per_s": n / elapsed, "plies_per_s": int(plies.sum()) / elapsed, "plies_per_game": plies.mean()}


def playouts(name: str, seconds: float, rounds: int) -> dict[str, Any]:
    """Best of ``rounds`` rounds, each measuring every engine once in turn (so a slow spell of a
    shared machine hits all of them alike)."""
    engines: dict[str, Any] = {"omen_core": OurPlayouts(name, seconds)}
    for name in CARD_GAMES:
        engines[f"{name}/rollouts"] = TheirRollouts(name, seconds)
        engines[f"{name}/games"] = TheirGames(name, seconds)
    best: dict[str, dict[str, float]] = {}
    with bar(rounds * len(engines), "playouts") as progress:
        for _ in range(rounds):
            for key, engine in engines.items():
                result = engine.measure()
                if key not in best or result["plies_per_s"] > best[key]["plies_per_s"]:
                    best[key] = result
                progress.update(1)
    ours = best["omen_core"]["plies_per_s"]
    out: dict[str, Any] = {"omen_core": best["omen_core"], "rounds": rounds}
    for name in CARD_GAMES:
        out[name] = {}
        for way in ("rollouts", "games"):
            entry = dict(best[f"{name}/{way}"])
            entry["our_ratio"] = ours / entry["plies_per_s"]
            out[name][way] = entry
    return out


# ------------------------------------------------------------------------------------- report


def report(out: dict[str, Any]) -> str:
    s, m, p = out["search"], out["match"], out["playouts"]
    players = out.get("players", 2)
    title = short_name(get_game(out["game"]))
    lines = [f"{out['game']} ({title}); open_spiel {out['versions']['open_spiel']}, "
             f"Python {out['versions']['python']}", "",
             f"1. ISMCTS iterations per second (first decision of deals 0-4 of {title})",
             f"   {'ours (Cython core)':40} {s['ours_iterations_per_s']:>12,.0f}",
             f"   {'OpenSpiel (' + s['openspiel_bot'].split()[0] + ' ISMCTSBot)':40} "
             f"{s['openspiel_iterations_per_s']:>12,.0f}",
             f"   {'ratio':40} {s['ratio']:>12,.0f}x"]
    if s["cpp_bot_unavailable"]:
        lines.append(f"   (C++ bot: {s['cpp_bot_unavailable']})")
    lines += [f"   context: C++ pyspiel.ISMCTSBot on OpenSpiel's C++ hearts: "
              f"{s['cpp_ismcts_hearts_iterations_per_s']:,.0f} iterations/s (a different game)", ""]
    if m is None:
        lines += ["2. Match: not played (--games 0)", ""]
    else:
        lines += [f"2. Match at {m['seconds_per_move']} s per move, "
                  + ("seat-swapped pairs" if players == 2 else f"our bot in each of the {players} seats of a deal")
                  + f" (OpenSpiel: {m['openspiel_simulations_per_move']:.1f} simulations a move on average)",
                  f"   ours {m['our_wins']} wins, {m['ties']} {'ties' if players == 2 else 'shared results'} of "
                  f"{m['games']} games: {100 * m['win_rate']:.1f}% "
                  f"(95% Wilson {100 * m['win_rate_low']:.1f}-{100 * m['win_rate_high']:.1f}; even {100 / players:.1f}%)",
                  f"   time per move actually used: ours {m['our_seconds_per_move']:.3f} s, "
                  f"OpenSpiel's {m['openspiel_seconds_per_move']:.3f} s", ""]
    lines += [f"3. Random playouts, decision plies per second (best of {p['rounds']} rounds)",
              f"   {'engine':42} {'plies/s':>12} {'our ratio':>10} {'chance plies/s':>15}",
              f"   {'Omen core (run_playouts, whole games)':42} {p['omen_core']['plies_per_s']:>12,.0f} {'1.00x':>10}"]
    for name in CARD_GAMES:
        for way, label in (("rollouts", "C++ rollouts after the deal"), ("games", "C++ whole games")):
            e = p[name][way]
            lines.append(f"   {name + ', ' + label:42} {e['plies_per_s']:>12,.0f} {e['our_ratio']:>9.2f}x "
                         f"{e['chance_plies_per_s']:>15,.0f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, default="heir", help="the game compared (default heir)")
    parser.add_argument("--games", type=int, default=200,
                        help="match games, a multiple of the players (seat-swapped pairs with two); 0: no match "
                             "(default 200)")
    parser.add_argument("--seconds", type=float, default=0.05, help="search time per move in the match (default 0.05)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the match (default 2)")
    parser.add_argument("--our-iterations", type=int, default=20000, help="iterations per position, ours (part 1)")
    parser.add_argument("--their-iterations", type=int, default=100, help="iterations per position, OpenSpiel's")
    parser.add_argument("--playout-seconds", type=float, default=1.0, help="length of one timing (part 3)")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds in part 3, best kept (default 3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    players = len(get_game(args.game).deciding_seats)
    if args.games < 0 or args.games % players or args.seconds <= 0 or args.workers < 1 or args.rounds < 1 \
            or args.playout_seconds <= 0 or args.our_iterations < 1 or args.their_iterations < 1:
        parser.error(f"--games must be a multiple of the game's {players} players (0: no match); "
                     "the other numbers positive")

    out: dict[str, Any] = {"game": args.game, "players": players,
                           "versions": {"open_spiel": version("open_spiel"), "python": platform.python_version()},
                           "search": search_rates(args.game, args.our_iterations, args.their_iterations)}
    use_cpp = out["search"]["cpp_bot_unavailable"] is None
    out["match"] = match(args.game, args.games, args.seconds, args.workers, use_cpp) if args.games else None
    out["playouts"] = playouts(args.game, args.playout_seconds, args.rounds)
    print(json.dumps(out) if args.json else report(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
