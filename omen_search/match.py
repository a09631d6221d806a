"""AI-vs-AI matches of any game: seat-swapped pairs, or rotation sets of N bots, on the same deal,
results written as they finish.

A match is of one registered game (``game``, :data:`~omen_search.game.DEFAULT_GAME` by default) with
the options a match of it takes (:attr:`~omen_search.game.Game.match_options`); the rest of a
deal's set-up the game draws itself, deal by deal (:meth:`~omen_search.game.Game.match_config`:
Heir's gods). Game ``i`` of a match is fixed by the match seed and ``i`` alone:

* **two bots** (a game with two deciding seats): game ``i`` is game ``i % 2`` of pair ``i // 2``,
  whose deal (the game seed and the deal's set-up) comes from the match seed and the pair; bot A
  sits in the first seat in the even game and in the second in the odd one, so both bots play both
  sides of every deal. Totals are from A's side, with Elo, LOS, pentanomial pairs and the SPRT.
* **N bots** (a game with N > 2 deciding seats): game ``i`` is game ``r = i % N`` of rotation set
  ``i // N``, one deal per set; bot ``j`` sits in the ``(j + r) % N``-th deciding seat, so over a
  full set every bot plays every seat of the deal once. Totals are per bot (:class:`RotationResult`).
* **against an automaton** (a game with one deciding seat and an automaton, ``heir-solo``): bot A
  always sits in the deciding seat and bot B is the game's automaton, so there is nothing to swap
  and every game has a deal of its own; the totals are A's win rate against the automaton.

Each bot's seed comes from the match seed, the game and its seat.

Results go to a JSON Lines file, one line per game, written and flushed the moment the game
finishes; the first line names the match. A kill loses only the games in play. ``resume=True``
reads the file back, drops a line cut short by a kill, and plays only the games that are missing,
so a killed run ends with the totals an uninterrupted run would have had. Each game is a task of
its own on a backend: this process (one worker), a local process pool (whose workers end with it,
even when it is killed), or Ray tasks (``pip install "omen-search[ray]"``). A worker finds the
game by its name in the registry (:func:`~omen_search.game.get_game`), so a game registered only in
this process plays with one worker. Games are handed out a few at a time (two per local worker,
``workers`` Ray tasks), so that no worker waits and a decided SPRT stops soon.
"""

from __future__ import annotations

import ctypes
import hashlib
import itertools
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from omen_search.bots import make_bot, parse_spec
from omen_search.errors import FormatError, RecordError, UsageError
from omen_search.files import check_output
from omen_search.game import DEFAULT_GAME, Game, all_games, game_taking, get_game
from omen_search.jsonio import parse_json
from omen_search.limits import GAMES, RAY_TASKS, WORKERS, check_int
from omen_search.records import make_record, winner_of, write_record
from omen_search.rng import MASK64, splitmix64
from omen_search.stats import Sprt, elo_interval, los, pentanomial_sample, trinomial_sample, wilson

MATCH_FORMAT = "omen-match/1"
BACKENDS = ("local", "ray")

def labels_key(game: str) -> str:
    """The key of a result line that holds the seats' labels (:attr:`Game.labels_key`)."""
    return get_game(game).labels_key


@dataclass(frozen=True, init=False)
class MatchSetup:
    """Everything that decides a match's games (the same setup and index give the same game).

    ``MatchSetup(a, b, seed=…, game=…, options={…})`` for two bots (B is the game's automaton for a
    game with one deciding seat), ``MatchSetup(bots=(…), game=…)`` for N bots. The game's match
    options may also be given as keywords (``MatchSetup("greedy", "corrupted-heir", level="hard")``;
    a keyword set to None is left out); without ``game``, the match is of :data:`DEFAULT_GAME`, or of
    the first registered game that takes every option given. Options are checked when the match
    runs (:func:`run_match`)."""

    bots: tuple[str, ...]  # A and B, or one bot per deciding seat (bot j starts in the j-th)
    seed: int = 1
    cards: str | None = None  # card file; None is the game's built-in set
    ablate: tuple[str, ...] = ()  # cards whose copies are taken out of the deck
    track_cards: bool = False  # note the cards each seat played and drew (for the balance report)
    records: str | None = None  # folder for one game record per game
    game: str = DEFAULT_GAME
    options: tuple[tuple[str, Any], ...] = ()  # the game's match options given, by name

    def __init__(self, a: str | None = None, b: str | None = None, seed: int = 1, cards: str | None = None,
                 ablate: Iterable[str] = (), track_cards: bool = False, records: str | None = None,
                 game: str | None = None, options: Mapping[str, Any] | Iterable[tuple[str, Any]] = (),
                 bots: Iterable[str] = (), **more: Any):
        given = {**dict(options), **{k: v for k, v in more.items() if v is not None}}
        specs = tuple(bots) or tuple(s for s in (a, b) if s is not None)
        for name, value in (("bots", specs), ("seed", seed), ("cards", cards), ("ablate", tuple(ablate)),
                            ("track_cards", track_cards), ("records", records),
                            ("game", game if game is not None else game_taking(given, lambda g: g.match_options).name),
                            ("options", tuple(sorted(given.items())))):
            object.__setattr__(self, name, value)

    @property
    def a(self) -> str:
        return self.bots[0]

    @property
    def b(self) -> str:
        return self.bots[1] if len(self.bots) > 1 else ""

    def game_object(self) -> Game:
        """The registered game the match is of."""
        return get_game(self.game)

    def config(self) -> Any:
        """The game's configuration of the match (before a deal's set-up)."""
        return _config(self.game, self.options)

    def option_values(self) -> dict[str, Any]:
        """Every option a match of the game takes, by name in the game's order: given or default."""
        game, given = self.game_object(), dict(self.options)
        return {o.name: given.get(o.name, o.default) for o in game.options if o.name in game.match_options}

    def identity(self) -> dict[str, Any]:
        """What a results file must agree on to be resumed: the game, the bots, the seed, the card
        set, the options, card tracking (a game whose files predate the game's name in them keeps
        their form: :meth:`Game.match_identity`)."""
        cards = cards_digest(self.game, self.cards, self.ablate)
        own = self.game_object().match_identity(self.config(), self.track_cards)
        if own is not None:
            return {"a": self.a, "b": self.b, "seed": self.seed, "cards": cards, "ablate": list(self.ablate), **own}
        bots = {"a": self.a, "b": self.b} if len(self.bots) == 2 else {"bots": list(self.bots)}
        return {"game": self.game, **bots, "seed": self.seed, "cards": cards, "ablate": list(self.ablate),
                "options": self.option_values(), "track_cards": self.track_cards}


@lru_cache(maxsize=16)
def _config(game: str, options: tuple[tuple[str, Any], ...]) -> Any:
    return get_game(game).config(**dict(options))


@lru_cache(maxsize=16)
def card_set(game: str, path: str | None, ablate: tuple[str, ...] = ()) -> Any:
    """The card set of a match of ``game`` (by name), loaded once per process; an ablated card is
    taken out by the card set's ``without`` (Heir's and Reign of War's), and a card set without one
    refuses ``ablate``."""
    family = get_game(game)
    cards = family.load_cards(path)
    for name in ablate:
        without = getattr(cards, "without", None)
        if without is None:
            raise UsageError(f"ablate: a card set of {family.name} cannot leave a card out, got {name!r}")
        cards = without(name)
    return cards


@lru_cache(maxsize=16)
def cards_digest(game: str, path: str | None, ablate: tuple[str, ...]) -> str | None:
    """The card set's sha256 (as the game's ``cards --json`` gives it, else of that JSON; None for a
    game without card sets)."""
    cards = card_set(game, path, ablate)
    if cards is None:
        return None
    described = get_game(game).cards_json(cards)
    digest = described.get("sha256")
    return digest if isinstance(digest, str) else \
        hashlib.sha256(json.dumps(described, sort_keys=True).encode()).hexdigest()


def check_cards(setup: MatchSetup) -> None:
    """Refuse, before any game is played, a card file, an ablated name, or a card set the match's
    set-up cannot deal (Reign of War: a Deck Building deck naming an ablated design): loads the card
    set and deals one game of it."""
    game = setup.game_object()
    cards = card_set(setup.game, setup.cards, setup.ablate)
    game.new_initial_state(0, engine="core", cards=cards, config=game.match_config(setup.config(), 0, 0, cards))


def deal(seed: int, group: int) -> tuple[int, int]:
    """The game seed and the deal's bits (what :meth:`~omen_search.game.Game.match_config` draws the
    deal's set-up from: Heir's gods) of a pair, rotation set or solo game of a match."""
    state, value = splitmix64((seed * 0x9E3779B97F4A7C15 + group) & MASK64)
    _, bits = splitmix64(state)
    return value, bits


def game_bot_seed(seed: int, index: int, seat: int, players: int = 2) -> int:
    """The seed of the bot in ``seat`` in game ``index`` of a match seeded ``seed``."""
    shift = max(2, (players - 1).bit_length())  # two bits of seat for up to four seats
    return splitmix64((seed ^ (index << shift | seat) * 0xD1B54A32D192ED03) & MASK64)[1]


def seating(game: Game, bots: int, index: int) -> tuple[int, int, tuple[int, ...]]:
    """Where game ``index`` of a match of ``bots`` bots stands: its pair (rotation set, or for a game
    against an automaton the game itself), its turn in it, and each bot's seat."""
    seats = game.deciding_seats
    if len(seats) == 1:
        return index, 0, seats
    group, turn = divmod(index, len(seats))
    return group, turn, tuple(seats[(j + turn) % len(seats)] for j in range(bots))


def play_game(setup: MatchSetup, index: int) -> dict[str, Any]:
    """Play game ``index`` of the match on the core; returns its result line."""
    game = setup.game_object()
    deciding = setup.bots[:len(game.deciding_seats)] if len(game.deciding_seats) == 1 else setup.bots
    group, turn, seats = seating(game, len(deciding), index)
    game_seed, bits = deal(setup.seed, group)
    cards = card_set(setup.game, setup.cards, setup.ablate)
    config = game.match_config(setup.config(), bits, group, cards)
    specs = [str(game.automaton)] * game.players  # the automaton moves inside the rules
    for spec, seat in zip(deciding, seats):
        specs[seat] = spec
    bots = {seat: make_bot(spec, game_bot_seed(setup.seed, index, seat, game.players), game)
            for spec, seat in zip(deciding, seats)}
    state = game.new_initial_state(game_seed, engine="core", cards=cards, config=config)
    started = time.perf_counter()
    track = setup.track_cards
    played: list[set[str]] = [set() for _ in range(game.players)]
    drafted: list[list[str]] = [[] for _ in range(game.players)]  # in pick order
    # the opening hand counts as drawn
    drawn = [set(game.cards_drawn(state, seat)) if track else set() for seat in range(game.players)]
    while not state.is_terminal():
        seat = state.current_player
        assert seat in bots, "an automaton never has a decision to make"
        move = bots[seat].choose(state)
        card = game.card_played(move) if track else None
        pick = game.card_drafted(move) if track else None
        state.apply(move)
        if track:
            if card is not None:
                played[seat].add(card)
            if pick is not None:
                drafted[seat].append(pick)
            for other in range(game.players):
                drawn[other] |= game.cards_drawn(state, other)
    winner = winner_of(state)
    line: dict[str, Any] = {"index": index}
    labels = list(game.seat_labels(config))
    if len(deciding) <= 2:
        a_seat = seats[0]
        line.update({"pair": group, "game_seed": game_seed, labels_key(setup.game): labels, "a_seat": a_seat,
                     "players": specs, "winner": winner,
                     "result": 0.5 if winner is None else float(winner == a_seat)})
    else:
        line.update({"set": group, "game_seed": game_seed, labels_key(setup.game): labels, "rotation": turn,
                     "players": specs, "bot_seats": list(seats), "winner": winner,
                     "returns": list(state.returns())})
    line.update({"scores": list(state.scores()), **game.record_totals(state), "plies": state.ply,
                 "seconds": round(time.perf_counter() - started, 3)})
    if track:
        line["played"] = [sorted(s) for s in played]
        line["drawn"] = [sorted(s) for s in drawn]
        if any(drafted):
            line["drafted"] = drafted
    if setup.records:
        write_record(Path(setup.records) / f"game-{index:06d}.json", make_record(state, specs, game), "records")
    return line


# ------------------------------------------------------------------------------------- results


@dataclass
class Tally:
    """Running totals of finished games from A's side. Adding a game costs the same however many
    came before, so a long match can show its standing and check its SPRT after every game."""

    a_wins: int = 0
    b_wins: int = 0
    ties: int = 0
    seat0_wins: int = 0
    plies: int = 0
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)  # finished pairs by A's points
    halves: dict[int, float] = field(default_factory=dict)  # pair -> A's result, until its other game ends

    @property
    def games(self) -> int:
        return self.a_wins + self.b_wins + self.ties

    def add(self, line: dict[str, Any]) -> None:
        """Count one result line."""
        result = line["result"]
        self.a_wins += result == 1.0
        self.b_wins += result == 0.0
        self.ties += result == 0.5
        self.seat0_wins += line["winner"] == 0
        self.plies += line["plies"]
        other = self.halves.pop(line["pair"], None)
        if other is None:
            self.halves[line["pair"]] = result
        else:
            self.pentanomial[round(2 * (other + result))] += 1


def _automaton_names(spec: str) -> tuple[str, str]:
    """How a summary names an automaton from its spec: ``corrupted-heir`` is "the Corrupted Heir",
    "the Heir" for short."""
    words = spec.split("-")
    return "the " + " ".join(w.capitalize() for w in words), "the " + words[-1].capitalize()


@dataclass(frozen=True)
class MatchResult:
    """Totals of a two-bot match from A's side, with the statistics a tester reads."""

    a: str
    b: str
    games: int
    a_wins: int
    b_wins: int
    ties: int
    score: float
    elo: float
    elo_low: float
    elo_high: float
    los: float
    pentanomial: list[int]
    seat0_wins: int
    seat0_win_rate: float
    seat0_low: float
    seat0_high: float
    mean_plies: float
    sprt: dict[str, Any] | None = None
    stopped_early: bool = False
    level: str | None = None  # a match against the game's automaton B, set up so (heir-solo: its level)

    @classmethod
    def from_lines(cls, a: str, b: str, lines: Iterable[dict[str, Any]], sprt: Sprt | None = None,
                   stopped_early: bool = False, level: str | None = None) -> MatchResult:
        """Totals of finished games (result lines, in any order)."""
        tally = Tally()
        for line in lines:
            tally.add(line)
        return cls.from_tally(a, b, tally, sprt, stopped_early, level)

    @classmethod
    def from_tally(cls, a: str, b: str, tally: Tally, sprt: Sprt | None = None, stopped_early: bool = False,
                   level: str | None = None) -> MatchResult:
        """Totals and statistics of the games counted in ``tally``."""
        n, penta = tally.games, list(tally.pentanomial)
        score = (tally.a_wins + 0.5 * tally.ties) / n if n else 0.5
        sample = (pentanomial_sample(penta) if sum(penta) >= 2
                  else trinomial_sample(tally.a_wins, tally.b_wins, tally.ties))
        elo, low, high = elo_interval(score, n, sample)
        seat0_low, seat0_high = wilson(tally.seat0_wins, n)
        verdict = None
        if sprt is not None:
            llr = sprt.llr(sample)
            verdict = {**asdict(sprt), "llr": llr, "lower": sprt.lower, "upper": sprt.upper,
                       "verdict": sprt.verdict(llr)}
        return cls(a=a, b=b, games=n, a_wins=tally.a_wins, b_wins=tally.b_wins, ties=tally.ties, score=score,
                   elo=elo, elo_low=low, elo_high=high, los=los(tally.a_wins, tally.b_wins), pentanomial=penta,
                   seat0_wins=tally.seat0_wins, seat0_win_rate=tally.seat0_wins / n if n else 0.0,
                   seat0_low=seat0_low, seat0_high=seat0_high, mean_plies=tally.plies / n if n else 0.0,
                   sprt=verdict, stopped_early=stopped_early, level=level)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (every number finite)."""
        return asdict(self)

    def summary(self) -> str:
        """The result in a few lines, as the CLI prints it."""
        if self.level is not None:
            name, short = _automaton_names(self.b)
            return "\n".join([
                f"{self.a} vs {name} ({self.level}): {self.games} games",
                f"  A wins {self.a_wins} ({100 * self.seat0_win_rate:.1f}%, 95% {100 * self.seat0_low:.1f} .. "
                f"{100 * self.seat0_high:.1f}); {short} wins {self.b_wins}; {self.mean_plies:.0f} plies a game",
                f"  Elo against the automaton {self._elo()}",
            ] + self._sprt_lines())
        lines = [
            f"{self.a} vs {self.b}: {self.games} games",
            f"  A wins {self.a_wins}, B wins {self.b_wins}, ties {self.ties}; score {100 * self.score:.1f}%",
            f"  Elo {self._elo()}, LOS {100 * self.los:.1f}%",
            f"  pairs (A's points 0, ½, 1, 1½, 2): {' '.join(map(str, self.pentanomial))}",
            f"  seat 0 wins {100 * self.seat0_win_rate:.1f}% (95% {100 * self.seat0_low:.1f} .. "
            f"{100 * self.seat0_high:.1f}); {self.mean_plies:.0f} plies a game",
        ]
        return "\n".join(lines + self._sprt_lines())

    def _sprt_lines(self) -> list[str]:
        if not self.sprt:
            return []
        s = self.sprt
        return [f"  SPRT elo0={s['elo0']:g} elo1={s['elo1']:g} alpha={s['alpha']:g} beta={s['beta']:g}: "
                f"LLR {s['llr']:.2f} ({s['lower']:.2f}, {s['upper']:.2f}) -> {s['verdict']}"
                + (" (stopped early)" if self.stopped_early else "")]

    def _elo(self) -> str:
        """The Elo difference and its interval, in the one format of the summary, the progress bar
        and the progress lines."""
        return f"{self.elo:+.1f} (95% {self.elo_low:+.1f} .. {self.elo_high:+.1f})"

    def standing(self) -> str:
        """A's wins, losses and ties, score and Elo so far (the progress bar shows it)."""
        return (f"{self.a_wins}-{self.b_wins}-{self.ties}, score {100 * self.score:.1f}%, Elo {self._elo()}"
                + (f", LLR {self.sprt['llr']:.2f}" if self.sprt else ""))

    def line(self) -> str:
        """One progress line."""
        return f"{self.games} games: {self.standing()}"


# --------------------------------------------------------------------------------- N bots


@dataclass
class RotationTally:
    """Running totals of finished games of an N-bot match, per bot and per seat."""

    bots: int
    games: int = 0
    plies: int = 0
    shared_games: int = 0  # games whose best return was shared (no single winner)
    score: list[float] = field(default_factory=list)  # per bot: the sum of its returns
    wins: list[int] = field(default_factory=list)  # per bot: games it alone had the best return
    shared: list[int] = field(default_factory=list)  # per bot: games it shared the best return
    seat_games: dict[int, int] = field(default_factory=dict)
    seat_wins: dict[int, int] = field(default_factory=dict)
    seat_score: dict[int, float] = field(default_factory=dict)
    sets: dict[int, int] = field(default_factory=dict)  # rotation set -> its games counted

    def __post_init__(self) -> None:
        self.score, self.wins, self.shared = [0.0] * self.bots, [0] * self.bots, [0] * self.bots

    def add(self, line: dict[str, Any]) -> None:
        """Count one result line."""
        returns, winner = line["returns"], line["winner"]
        best = max(returns)
        self.games += 1
        self.plies += line["plies"]
        self.shared_games += winner is None
        self.sets[line["set"]] = self.sets.get(line["set"], 0) + 1
        for bot, seat in enumerate(line["bot_seats"]):
            self.score[bot] += returns[seat]
            self.wins[bot] += winner == seat
            self.shared[bot] += winner is None and returns[seat] == best
            self.seat_games[seat] = self.seat_games.get(seat, 0) + 1
            self.seat_wins[seat] = self.seat_wins.get(seat, 0) + (winner == seat)
            self.seat_score[seat] = self.seat_score.get(seat, 0.0) + returns[seat]


@dataclass(frozen=True)
class RotationResult:
    """Totals of a match of N > 2 bots, per bot and per seat.

    A bot's *score* is its mean return. A game's returns have a fixed sum: 1 in most games (the seats
    with the best result share it, so a k-way tie gives each 1/k), 2 in the Grand Melee (its places,
    D-melee-3); the bots' scores sum to it, and an even share is that sum over N (:attr:`total`).
    Its interval is Wilson's 95% interval on the score as a proportion of the games (as the
    two-bot win rates are); the games of one rotation set share a deal, so it is a little narrow. A
    *win* is a game in which the bot alone had the best return (its rate with a Wilson interval); a
    best return shared with others is counted in ``shared`` (and in the score, as its share). The
    SPRT, Elo and pairs are two-bot statistics and have no N-bot counterpart here."""

    game: str
    bots: list[str]
    games: int
    sets: int  # rotation sets with every game played
    by_bot: list[dict[str, Any]]  # bot, games, score, score_low, score_high, wins, win_rate, win_low, win_high, shared
    by_seat: list[dict[str, Any]]  # seat, games, wins, win_rate, win_low, win_high, score
    shared_games: int
    mean_plies: float

    @classmethod
    def from_lines(cls, game: str, bots: Sequence[str], lines: Iterable[dict[str, Any]]) -> RotationResult:
        """Totals of finished games (result lines, in any order)."""
        tally = RotationTally(len(bots))
        for line in lines:
            tally.add(line)
        return cls.from_tally(game, bots, tally)

    @classmethod
    def from_tally(cls, game: str, bots: Sequence[str], tally: RotationTally) -> RotationResult:
        """Totals and statistics of the games counted in ``tally``."""
        n = tally.games
        by_bot = []
        for j, spec in enumerate(bots):
            low, high = wilson(tally.score[j], n)
            win_low, win_high = wilson(tally.wins[j], n)
            by_bot.append({"bot": spec, "games": n, "score": tally.score[j] / n if n else 1 / len(bots),
                           "score_low": low, "score_high": high, "wins": tally.wins[j],
                           "win_rate": tally.wins[j] / n if n else 0.0, "win_low": win_low, "win_high": win_high,
                           "shared": tally.shared[j]})
        by_seat = []
        for seat in sorted(tally.seat_games):
            games, wins = tally.seat_games[seat], tally.seat_wins[seat]
            low, high = wilson(wins, games)
            by_seat.append({"seat": seat, "games": games, "wins": wins, "win_rate": wins / games,
                            "win_low": low, "win_high": high, "score": tally.seat_score[seat] / games})
        return cls(game=game, bots=list(bots), games=n, sets=sum(c == len(bots) for c in tally.sets.values()),
                   by_bot=by_bot, by_seat=by_seat, shared_games=tally.shared_games,
                   mean_plies=tally.plies / n if n else 0.0)

    @property
    def total(self) -> float:
        """What a game's returns sum to (1 before any game): the bots' scores summed."""
        return sum(b["score"] for b in self.by_bot) if self.games else 1.0

    @staticmethod
    def letter(bot: int) -> str:
        """A bot's name in the summary: A, B, C, …"""
        return chr(ord("A") + bot) if bot < 26 else f"#{bot + 1}"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (every number finite)."""
        return asdict(self)

    def summary(self) -> str:
        """The result in a few lines, as the CLI prints it."""
        width = max(len(b) for b in self.bots) + 2
        out = [f"{' vs '.join(self.bots)} ({self.game}): {self.games} games, {self.sets} full rotation "
               f"set{'s' if self.sets != 1 else ''} of {len(self.bots)}",
               f"  {'bot':{width + 2}} {'score':>6}   95% interval   {'wins':>5} {'win %':>6}   95% interval "
               f"{'shared':>6}"]
        for j, b in enumerate(self.by_bot):
            out.append(f"  {self.letter(j)} {b['bot']:{width}} {100 * b['score']:5.1f}%   "
                       f"{100 * b['score_low']:4.1f} .. {100 * b['score_high']:4.1f}   {b['wins']:5} "
                       f"{100 * b['win_rate']:5.1f}%   {100 * b['win_low']:4.1f} .. {100 * b['win_high']:4.1f} "
                       f"{b['shared']:6}")
        seats = ", ".join(f"seat {s['seat']} {100 * s['win_rate']:.1f}% (95% {100 * s['win_low']:.1f} .. "
                          f"{100 * s['win_high']:.1f})" for s in self.by_seat)
        out += [f"  wins by seat: {seats or '-'}",
                f"  {self.shared_games} games without a single winner; {self.mean_plies:.0f} plies a game",
                f"  score = mean return (the bots' scores sum to {100 * self.total:.0f}%, an even share is "
                f"{100 * self.total / len(self.bots):.1f}%); intervals: Wilson 95%"]
        return "\n".join(out)

    def standing(self) -> str:
        """Each bot's score so far (the progress bar shows it)."""
        return ", ".join(f"{self.letter(j)} {100 * b['score']:.1f}%" for j, b in enumerate(self.by_bot))

    def line(self) -> str:
        """One progress line."""
        return f"{self.games} games: {self.standing()}"


# ------------------------------------------------------------------------------- results file


def read_results(path: str | Path, identity: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The finished games in a results file, checking its first line against ``identity``.

    A last line without its newline (the run was killed while writing it) is cut off the file.
    Raises :class:`RecordError` naming the file and line for anything else that is wrong."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"{path}: cannot read the results: {exc.strerror or exc}") from None
    except ValueError as exc:  # a path with a NUL byte
        raise RecordError(f"{str(path)!r}: cannot read the results: {exc}") from None
    complete = data[: data.rfind(b"\n") + 1]
    if len(complete) != len(data):
        with open(path, "r+b") as f:
            f.truncate(len(complete))
    rows = complete.decode("utf-8", errors="replace").splitlines()
    if not rows:
        return []
    try:
        header = parse_json(rows[0])
    except FormatError:
        raise RecordError(f"{path}:1: not a results file (the first line is not JSON)") from None
    if not isinstance(header, dict) or header.get("format") != MATCH_FORMAT:
        raise RecordError(f"{path}:1: not a results file (expected format {MATCH_FORMAT!r})")
    match = header.get("match", {})
    match = match if isinstance(match, dict) else {}
    rotation = isinstance(match.get("bots"), list)  # a match of N bots (else of two)
    if identity is not None:
        for key, value in {"game": identity.get("game"), **identity}.items():  # Heir's files name no game
            if match.get(key) != value:
                raise RecordError(f"{path}:1: the file is of another match: {key} is "
                                  f"{match.get(key)!r} there, {value!r} here")
    games: dict[int, dict[str, Any]] = {}
    for number, row in enumerate(rows[1:], start=2):
        try:
            game = parse_json(row)
        except FormatError as exc:
            raise RecordError(f"{path}:{number}: {exc}") from None
        if not _is_result_line(game, rotation):
            raise RecordError(f"{path}:{number}: not a game result line")
        games[game["index"]] = game
    return list(games.values())


def _is_result_line(game: Any, rotation: bool) -> bool:
    """Whether ``game`` has what the totals read: a two-bot game's pair and A's result, or an
    N-bot game's rotation set, returns and bots' seats."""
    if not isinstance(game, dict) or not isinstance(game.get("index"), int) or not isinstance(game.get("plies"), int):
        return False
    if not rotation:
        return (game.get("result") in (0.0, 0.5, 1.0) and isinstance(game.get("pair"), int)
                and game.get("winner") in (0, 1, None))
    returns, seats, winner = game.get("returns"), game.get("bot_seats"), game.get("winner")
    return (isinstance(game.get("set"), int) and isinstance(returns, list) and len(returns) > 0
            and all(isinstance(r, (int, float)) and not isinstance(r, bool) and 0 <= r <= 1 for r in returns)
            and isinstance(seats, list) and len(seats) > 2
            and all(type(s) is int and 0 <= s < len(returns) for s in seats)
            and (winner is None or (type(winner) is int and 0 <= winner < len(returns))))


class _Writer:
    """Appends result lines and flushes each, so a kill loses at most the line being written."""

    def __init__(self, path: str | Path | None, header: dict[str, Any], new: bool):
        self.file = None
        if path is None:
            return
        try:
            self.file = open(path, "a", encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{path}: cannot write the results: {exc.strerror or exc}") from None
        if new:
            self.write(header)

    def write(self, line: dict[str, Any]) -> None:
        if self.file is not None:
            self.file.write(json.dumps(line) + "\n")
            self.file.flush()

    def close(self) -> None:
        if self.file is not None:
            self.file.close()


# ------------------------------------------------------------------------------------ backends


Lines = Generator[dict[str, Any], None, None]  # the games' result lines, as the games end
Runner = Callable[[MatchSetup, list[int]], Lines]
PR_SET_PDEATHSIG = 1  # Linux prctl(2)


def _run_here(setup: MatchSetup, todo: list[int]) -> Lines:
    for index in todo:
        yield play_game(setup, index)


def _in_flight(todo: list[int], window: int, start: Callable[[int], Any],
               wait_any: Callable[[list[Any]], tuple[list[Any], list[Any]]],
               cancel: Callable[[list[Any]], object]) -> Iterator[Any]:
    """Keep ``window`` games going: ``start(index)`` hands game ``index`` out, ``wait_any(going)``
    waits for some to end (``(ended, going)``); yields each ended one, after handing out the next.
    Closing the generator cancels those not ended."""
    queue = iter(todo)
    going = [start(i) for i in itertools.islice(queue, window)]
    try:
        while going:
            ended, going = wait_any(going)
            going += [start(i) for i in itertools.islice(queue, len(ended))]
            yield from ended
    finally:
        cancel(going)


def _die_with_parent(parent: int) -> None:
    """Process-pool initializer: the worker ends when the match process does, even by SIGKILL (left
    behind, it would wait on its pipe forever and hold the caller's stdout open). Linux kills it
    then (prctl PR_SET_PDEATHSIG); elsewhere a thread watches for the parent to go."""
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    else:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # it died before prctl took effect
        os._exit(1)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _run_pool(workers: int) -> Runner:
    def run(setup: MatchSetup, todo: list[int]) -> Lines:
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        def wait_any(going: list[Any]) -> tuple[list[Any], list[Any]]:
            ended, rest = wait(going, return_when=FIRST_COMPLETED)
            return list(ended), list(rest)

        with ProcessPoolExecutor(max_workers=workers, initializer=_die_with_parent,
                                 initargs=(os.getpid(),)) as pool:
            for future in _in_flight(todo, 2 * workers, lambda i: pool.submit(play_game, setup, i), wait_any,
                                     lambda going: [f.cancel() for f in going]):
                yield future.result()
    return run


def _run_ray(address: str | None, workers: int) -> Runner:
    try:
        import ray
    except ImportError:
        raise UsageError('--backend ray: Ray is not installed (pip install "omen-search[ray]")') from None

    def failed(exc: Exception, doing: str) -> UsageError:
        reason = (str(exc).strip().splitlines() or [""])[0]
        return UsageError(f"--backend ray: {doing}: {type(exc).__name__}: {reason}")

    def run(setup: MatchSetup, todo: list[int]) -> Lines:
        if not ray.is_initialized():
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except Exception as exc:  # Ray's own errors are many; each is the user's environment
                doing = "cannot start Ray" if address is None else f"cannot join Ray at {address!r}"
                raise failed(exc, doing) from None
        task = ray.remote(play_game)

        def wait_any(going: list[Any]) -> tuple[list[Any], list[Any]]:
            return ray.wait(going, num_returns=1)

        for ref in _in_flight(todo, workers, lambda i: task.remote(setup, i), wait_any,
                              lambda going: [ray.cancel(r) for r in going]):
            try:
                yield ray.get(ref)
            except ray.exceptions.RayTaskError as exc:  # the game itself raised: as in this process
                raise exc.cause from None
            except ray.exceptions.RayError as exc:
                raise failed(exc, "a game's task failed") from None
    return run


# --------------------------------------------------------------------------------------- match


@dataclass
class MatchOptions:
    """How a match runs (none of it changes a game's result)."""

    games: int = 100
    workers: int = 1
    backend: str = "local"
    address: str | None = None
    out: str | None = None
    resume: bool = False
    sprt: Sprt | None = None
    progress: bool = False
    report_every: int = 0
    lines: list[dict[str, Any]] = field(default_factory=list)


def _automata() -> dict[str, list[str]]:
    """The games whose automaton each automaton spec is."""
    found: dict[str, list[str]] = {}
    for g in all_games():
        if g.automaton:
            found.setdefault(g.automaton, []).append(g.name)
    return found


def _check(setup: MatchSetup, options: MatchOptions) -> Game:
    """Refuse a match that cannot be played (before any game is); returns its game."""
    game = setup.game_object()
    try:
        hash(setup.options)
    except TypeError:
        raise UsageError(f"options: each value must be a number, a string or true/false, got {setup.options!r}") \
            from None
    for name, _ in setup.options:
        if name not in game.match_options:
            takes = ", ".join(game.match_options) or "none"
            raise UsageError(f"{name}: not an option of a match of {game.name} (the options it takes: {takes})")
    setup.config()  # a bad option value fails here, naming the option
    seats = game.deciding_seats
    names = [f"bot_{chr(ord('a') + j)}" for j in range(len(setup.bots))] if len(setup.bots) <= 2 else \
        [f"bot {j + 1}" for j in range(len(setup.bots))]
    for name, spec in zip(names, setup.bots):
        if not isinstance(spec, str):
            raise UsageError(f"{name}: a bot spec must be a string, got {spec!r}")
    if len(seats) == 1:
        if not game.automaton:
            raise UsageError(f"game: {game.name} has one player and no automaton to play a match against")
        if len(setup.bots) != 2 or setup.b != game.automaton:
            raise UsageError(f"bot_b: a match of {game.name} is of one bot, BOT_A, against the game's automaton: "
                             f"BOT_B must be {game.automaton!r}; got {' '.join(setup.bots) or 'no bots'}")
    elif len(seats) == 2 and len(setup.bots) != 2:
        raise UsageError(f"bots: a match of {game.name} is between two bots (BOT_A BOT_B), got {len(setup.bots)}: "
                         f"{' '.join(setup.bots) or '-'}")
    elif len(seats) > 2 and len(setup.bots) != len(seats):
        raise UsageError(f"bots: a match of {game.name} takes {len(seats)} bots, one for each seat they rotate "
                         f"through, got {len(setup.bots)}: {' '.join(setup.bots) or '-'}")
    if len(seats) > 2 and options.sprt is not None:
        raise UsageError(f"sprt: the SPRT tests one bot against another; a match of {game.name} has "
                         f"{len(seats)} bots (drop --sprt)")
    automata = _automata()
    for j, (name, spec) in enumerate(zip(names, setup.bots)):
        if len(seats) == 1 and j == 1:
            continue  # the game's own automaton, checked above
        if spec in automata:
            owners = ", ".join(automata[spec])
            raise UsageError(f"{name}: {spec!r} is the automaton of {owners}: it plays only as BOT_B of a match "
                             f"of that game (--game {automata[spec][0]})")
        kind, _ = parse_spec(spec)
        if kind == "human":
            raise UsageError(f"{name}: a match is between bots; 'human' cannot play one")
    check_int(options.games, "games", GAMES)
    check_int(options.workers, "workers", RAY_TASKS if options.backend == "ray" else WORKERS)
    if options.backend not in BACKENDS:
        raise UsageError(f"backend: unknown backend {options.backend!r} (expected one of {', '.join(BACKENDS)})")
    if not isinstance(setup.seed, int) or not 0 <= setup.seed <= MASK64:
        raise UsageError(f"seed: must be an integer from 0 to 2**64-1, got {setup.seed!r}")
    if options.out is not None and check_output(options.out, "out").exists() and not options.resume:
        raise UsageError(f"out: {options.out} exists; resume it (--resume) or choose another file")
    if setup.records is not None:
        if "\x00" in setup.records:
            raise UsageError(f"records: cannot make the folder {setup.records!r}: a path cannot hold a NUL byte")
        try:
            os.makedirs(setup.records, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"records: cannot make the folder {setup.records}: {exc.strerror or exc}") from None
    check_cards(setup)  # a bad card file or ablated name fails here, not in a worker
    return game


def _automaton_setting(game: Game, setup: MatchSetup) -> str:
    """How a match against an automaton names its set-up: the values of the game's match options
    that are a choice (heir-solo: the level), else the automaton's name."""
    values = setup.option_values()
    chosen = [str(values[o.name]) for o in game.options
              if o.name in values and o.choices and not isinstance(o.default, bool)]
    return " ".join(chosen) or str(game.automaton)


AnyResult = MatchResult | RotationResult


def run_match(setup: MatchSetup, options: MatchOptions) -> AnyResult:
    """Play (or finish) a match; every finished game goes to ``options.out`` as it ends and to
    ``options.lines``. Two bots give a :class:`MatchResult`, N bots a :class:`RotationResult`."""
    game = _check(setup, options)
    rotation = len(game.deciding_seats) > 2
    level = _automaton_setting(game, setup) if len(game.deciding_seats) == 1 else None
    header = {"format": MATCH_FORMAT, "match": setup.identity()}
    done: dict[int, dict[str, Any]] = {}
    out = options.out
    exists = out is not None and Path(out).exists()
    if out is not None and exists:
        done = {g["index"]: g for g in read_results(out, setup.identity()) if g["index"] < options.games}
        if not Path(out).read_bytes():
            exists = False
    tally: Tally | RotationTally = RotationTally(len(setup.bots)) if rotation else Tally()
    for line in done.values():
        tally.add(line)

    def result(stopped: bool = False) -> AnyResult:
        if isinstance(tally, RotationTally):
            return RotationResult.from_tally(setup.game, setup.bots, tally)
        return MatchResult.from_tally(setup.a, setup.b, tally, options.sprt, stopped, level)

    def decided() -> bool:
        if options.sprt is None or not tally.games:
            return False
        verdict = result()
        return isinstance(verdict, MatchResult) and verdict.sprt is not None and verdict.sprt["verdict"] != "continue"

    todo = [] if decided() else [i for i in range(options.games) if i not in done]
    if options.backend == "ray":
        runner = _run_ray(options.address, options.workers)
    else:
        runner = _run_here if options.workers == 1 else _run_pool(options.workers)
    writer = _Writer(out, header, new=not exists)
    from tqdm import tqdm

    bar = tqdm(total=options.games, initial=tally.games, desc=" vs ".join(setup.bots), unit="game", file=sys.stderr,
               disable=not options.progress, smoothing=0.05)
    if tally.games:
        bar.set_postfix_str(result().standing(), refresh=False)
    results = runner(setup, todo) if todo else None
    try:
        for line in results or ():
            writer.write(line)
            tally.add(line)
            options.lines.append(line)
            bar.set_postfix_str(result().standing(), refresh=False)
            bar.update(1)
            if options.report_every and tally.games % options.report_every == 0:
                bar.write(result().line(), file=sys.stderr)
            if decided():
                break
    finally:
        if results is not None:
            results.close()  # hands out no more games, and ends the workers
        bar.close()
        writer.close()
    return result(decided() and tally.games < options.games)


def play_match(bot_a: str | None = None, bot_b: str | None = None, games: int = 100, seed: int = 1,
               workers: int = 1, backend: str = "local", address: str | None = None, out: str | None = None,
               resume: bool = False, sprt: Sprt | str | None = None, records: str | None = None,
               cards: str | None = None, progress: bool = False, *, game: str | None = None,
               bots: Sequence[str] = (), **options: Any) -> AnyResult:
    """Play a match and return its totals: between two bot specs (see :mod:`omen_search.bots`),
    seat-swapped, from A's side (a :class:`MatchResult`); of ``bots``, one per deciding seat of a
    game with more than two, in seat rotation (a :class:`RotationResult`); or of ``bot_a`` against
    the automaton of a game that has one (``bot_b`` its name: ``play_match("greedy",
    "corrupted-heir", level="hard")``). ``options`` are the game's match options (``emissary=True``,
    ``max_turns=150``, ``level="hard"``); without ``game`` the match is of :data:`DEFAULT_GAME` or
    of the first game that takes them. Raises :class:`UsageError` for a bad option."""
    setup = MatchSetup(bot_a, bot_b, seed=seed, cards=cards, records=records, game=game, bots=bots, **options)
    if isinstance(sprt, str):
        sprt = Sprt.parse(sprt)
    run = MatchOptions(games=games, workers=workers, backend=backend, address=address, out=out,
                       resume=resume, sprt=sprt, progress=progress)
    return run_match(setup, run)
