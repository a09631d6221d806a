"""Balance report: win rates by seat, seat label (Heir: god) and card over AI-vs-AI games of any
game, and card ablation.

The games come from the match runner (:mod:`omen_search.match`) with ``track_cards``, so each
result line says which cards each seat played and drew (the game says which: :meth:`Game.card_played
<omen_search.game.Game.card_played>` and :meth:`~omen_search.game.Game.cards_drawn`). Every rate is a
*win rate* in which a tie counts half a win, so the two seats of a game always share exactly one win
and the rate over all seats is 50%. In a game of N seats (the Grand Melee's four) a win is the game's
single best return, a best return shared by k seats counts 1/k each, and the rate over all seats is
1/N, the report's ``even``. Rates carry Wilson 95% intervals (:func:`omen_search.stats.wilson`).

* By seat and by label: how often seat 0 (the first player) or the seat with a label won. A seat's
  label is what the game's set-up tells it apart by (:meth:`~omen_search.game.Game.seat_labels`:
  Heir's gods, dealt at random per pair); a game whose seats have no labels of their own has no rows
  by label. Heir's report and result lines call them gods (:func:`omen_search.match.labels_key`),
  OMNIA's flavors; a label's rate is over the games it was dealt in (OMNIA's ``--flavors rotate``
  deals each flavor to each seat in turn, so the seats' advantage cancels).
* By card: among the seats that played (or drew) a card, the share that won. This is a
  correlation, not an effect: a card that is played when its player is already ahead looks strong.
  "Drawn" means the card was in the opening hand or came into the hand during the game (draws,
  steals, takes from structures), or what the game says (:attr:`~omen_search.game.Game.drawn_means`:
  OMNIA's owned cards, the starting deck and those bought). The cards are those of the card set's ``units`` in the game's
  ``cards --json`` (:meth:`~omen_search.game.Game.cards_json`, with their devotion, copies and
  source), else those the games played or drew, by name. In a game with a draft (the Grand Melee)
  a card (a design stack) is also counted when drafted (:meth:`~omen_search.game.Game.card_drafted`),
  with the mean pick (1 for a seat's first pick): the draft-pick win rates.
* Ablation (causal): the same match seeds are played again with every copy of one card taken out
  of the deck (the card set's ``without``: Heir's and Reign of War's; OMEGA's and OMNIA's, whose
  smaller set is dealt afresh). Game ``i`` with and without the card share the game seed, the
  deal's labels and the bots' seeds, and Heir's deck is shuffled whole before the card is taken
  out, so the other cards come in the same order
  (``AblatableSet.shuffled_without`` in :mod:`omen_search.cardfiles`). For each
  game the difference ``without - with`` of a quantity (the win rate of the card's label over the
  games it was dealt in, of seat 0, of bot A; the game's totals such as turns; the scores, VP or
  OMNIA's points) is taken; the change is the mean difference,
  and its 95% interval is the normal approximation over the paired differences, the two games of a
  seat-swapped deal counted as one cluster. With both seats played by the same bot the overall win
  rate is 50% whatever the deck, so the effect shows in the win rate of a label (the card's
  devotion when it is one, else the first label: Anubis for a Neutral or two-god card; Horus's is
  the complement) or of a seat.

:func:`balance_report` turns result lines into the report (a JSON-ready dict);
:func:`format_text` and :func:`render_html` present it; :func:`run_balance` plays the games.
"""

from __future__ import annotations

import html
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from omen_search.errors import UsageError
from omen_search.files import write_atomic
from omen_search.game import DEFAULT_GAME, Game, get_game
from omen_search.match import MatchOptions, MatchSetup, card_set, cards_digest, check_cards, labels_key, run_match
from omen_search.stats import Z95, wilson

REPORT_FORMAT = "omen-balance/1"
Line = dict[str, Any]
# what a result line holds beside the game's own totals (Game.record_totals: Heir's turns)
_LINE_KEYS = frozenset({"index", "pair", "set", "game_seed", "a_seat", "rotation", "players", "bot_seats", "winner",
                        "result", "returns", "scores", "plies", "seconds", "played", "drawn", "drafted"})
CARD_VIEWS = (("played", "played", "not played"), ("drawn", "drew", "not drawn"),
              ("drafted", "drafted", "not drafted"))  # key, verb, the others (drafted: in a game with a draft)


# ------------------------------------------------------------------------------------- numbers


def seat_score(line: Line, seat: int) -> float:
    """What a finished game was worth to ``seat``: 1 for a win, 0 for a loss; a tie ½ (of two
    seats), or 1/k to each of the k seats that share the best return (of N)."""
    winner, returns = line["winner"], line.get("returns")
    if winner is not None or returns is None:
        return 0.5 if winner is None else float(winner == seat)
    best = [s for s, r in enumerate(returns) if r == max(returns)]
    return 1 / len(best) if seat in best else 0.0


def win_rate(wins: float, n: int, even: float = 0.5) -> dict[str, Any]:
    """A win rate with its Wilson 95% interval; ``rate`` is None without games. ``flag`` says the
    interval excludes ``even``, every seat's rate in a game without a favourite (½ of two seats)."""
    low, high = wilson(wins, n)
    return {"n": n, "wins": wins, "rate": wins / n if n else None, "low": low, "high": high,
            "flag": n > 0 and not low <= even <= high}


def paired_difference(samples: Sequence[tuple[int, float, float]]) -> dict[str, Any]:
    """Mean of ``without - with`` over paired games given as ``(cluster, with, without)``, with a
    95% interval from the normal approximation; games of one cluster (the two seatings of a deal)
    are not independent, so the standard error is the cluster-robust one. The interval is None with
    fewer than two clusters."""
    clusters: dict[int, list[float]] = {}
    for cluster, with_, without in samples:
        clusters.setdefault(cluster, []).append(without - with_)
    n = len(samples)
    if n == 0:
        return {"n": 0, "with": None, "without": None, "change": None, "low": None, "high": None, "flag": False}
    mean = sum(without - with_ for _, with_, without in samples) / n
    result: dict[str, Any] = {"n": n, "with": sum(s[1] for s in samples) / n, "without": sum(s[2] for s in samples) / n,
              "change": mean, "low": None, "high": None, "flag": False}
    c = len(clusters)
    if c >= 2:
        variance = c / (c - 1) * sum((sum(d) - len(d) * mean) ** 2 for d in clusters.values()) / n**2
        half = Z95 * math.sqrt(variance)
        result.update(low=mean - half, high=mean + half, flag=not mean - half <= 0.0 <= mean + half)
    return result


def ablation_label(devotion: Any, labels: Sequence[str]) -> str:
    """The seat label whose win rate measures a card's ablation: the card's devotion when that is a
    label (Heir: its god; OMNIA: its flavor), else the first label (Anubis for a Neutral unit or one
    devoted to both)."""
    return devotion if devotion in labels else labels[0]


def label_name(label: str) -> str:
    """A seat label for people: ``anubis`` is Anubis."""
    return label.capitalize()


# key, label, kind ("rate" or "number"), value (None: the game does not count, as a game without the label)
Metric = tuple[str, str, str, Callable[[Line], float | None]]


class _Vocabulary:
    """What a report of one game calls things: the result lines' key of the seats' labels, the
    label rows' word (Heir: "god"), the labels in order (none for a game whose seats have none of
    their own; of a game that deals them in rotation, those the games dealt: OMNIA's flavors), the
    game's totals kept in the lines (Heir: turns), the word beside a card (Heir: devotion) and what
    the scores count (Heir: VP)."""

    def __init__(self, setup: MatchSetup, lines: Sequence[Line]):
        game = setup.game_object()
        self.key = labels_key(setup.game)
        self.word = self.key[:-1] if self.key.endswith("s") else self.key
        config = setup.config()
        own = tuple(game.seat_labels(config))
        labels = list(own) if own != Game.seat_labels(game, config) else []
        dealt = {lab for g in lines for lab in g.get(self.key, ())}
        self.labels = [lab for lab in labels if lab in dealt or not lines] \
            + sorted(dealt - set(labels)) if labels else []
        self.card = game.card_label
        self.score = plural(game.score_unit)
        self.totals = [k for k in (lines[0] if lines else {}) if k not in _LINE_KEYS and k != self.key
                       and isinstance(lines[0][k], (int, float)) and not isinstance(lines[0][k], bool)]


def _total(key: str) -> Callable[[Line], float]:
    """A game's total ``key`` (Heir: turns), as an ablation metric reads it."""
    return lambda g: float(g[key])


def _metrics(label: str | None, vocabulary: _Vocabulary, two_bots: bool, seats: int) -> list[Metric]:
    key = vocabulary.key
    metrics: list[Metric] = []
    if label is not None:
        metrics.append((vocabulary.word, f"{label_name(label)} win rate", "rate",
                        lambda g: seat_score(g, g[key].index(label)) if label in g[key] else None))
    metrics.append(("seat0", "seat 0 win rate", "rate", lambda g: seat_score(g, 0)))
    if two_bots:
        metrics.append(("bot_a", "bot A win rate", "rate",
                        lambda g: float(g["result"]) if "result" in g else seat_score(g, g["bot_seats"][0])))
    metrics += [(total, f"{total} a game", "number", _total(total)) for total in vocabulary.totals]
    metrics.append(("vp", f"{vocabulary.score} a game ({'both' if seats == 2 else 'all'} seats)", "number",
                    lambda g: float(sum(g["scores"]))))
    if seats == 2:
        metrics.append(("margin", f"winning margin ({vocabulary.score})", "number",
                        lambda g: float(abs(g["scores"][0] - g["scores"][1]))))
    return metrics


def _cards(game: Game, cards: Any, lines: Sequence[Line]) -> list[dict[str, Any]]:
    """The report's cards, in the card file's order: those the game rates
    (:meth:`Game.balance_cards`), else each with its devotion, copies and source when the card set
    lists them (Heir's units), else the cards the games played or drew, by name."""
    rated = game.balance_cards(cards) if cards is not None else None
    if rated is not None:
        return rated
    units = game.cards_json(cards).get("units") if cards is not None else None
    if isinstance(units, list) and all(isinstance(u, dict) and "name" in u for u in units):
        return [{"name": u["name"], "devotion": u.get("devotion"), "copies": u.get("copies"),
                 "source": u.get("source")} for u in units]
    seen = sorted({c for g in lines for key, _, _ in CARD_VIEWS for hand in g.get(key, ()) for c in hand})
    return [{"name": name, "devotion": None, "copies": None, "source": None} for name in seen]


def _card_row(card: dict[str, Any], lines: Sequence[Line], views: Sequence[str], seats: int) -> dict[str, Any]:
    """One card's win rates when played, drawn (and drafted, with its mean pick), against the even rate."""
    row: dict[str, Any] = dict(card)
    even = 1 / seats
    for key in views:
        scores: dict[bool, list[float]] = {True: [], False: []}
        picks = []
        for g in lines:
            for s in range(seats):
                taken = card["name"] in g[key][s]
                scores[taken].append(seat_score(g, s))
                if taken and key == "drafted":
                    picks.append(g[key][s].index(card["name"]) + 1)
        stats = win_rate(sum(scores[True]), len(scores[True]), even)
        rest = sum(scores[False]) / len(scores[False]) if scores[False] else None
        stats.update(share=len(scores[True]) / (seats * len(lines)) if lines else 0.0,
                     delta=None if stats["rate"] is None else stats["rate"] - even,
                     rest_n=len(scores[False]), rest_rate=rest,
                     gap=None if stats["rate"] is None or rest is None else stats["rate"] - rest)
        if key == "drafted":
            stats["mean_pick"] = sum(picks) / len(picks) if picks else None
        row[key] = stats
    return row


def _ablation(card: dict[str, Any], lines: Sequence[Line], ablated: Sequence[Line], two_bots: bool,
              played_share: float, vocabulary: _Vocabulary, seats: int) -> dict[str, Any]:
    by_index = {g["index"]: g for g in lines}
    pairs = [(by_index[g["index"]], g) for g in sorted(ablated, key=lambda g: g["index"]) if g["index"] in by_index]
    label = ablation_label(card[vocabulary.card], vocabulary.labels) if vocabulary.labels else None
    metrics = []
    for key, text, kind, value in _metrics(label, vocabulary, two_bots, seats):
        values = [(base["pair"] if "pair" in base else base["set"], value(base), value(without))
                  for base, without in pairs]
        diff = paired_difference([(c, w, wo) for c, w, wo in values if w is not None and wo is not None])
        metrics.append({"key": key, "label": text, "kind": kind, **diff})
    return {"card": card["name"], vocabulary.card: card[vocabulary.card], vocabulary.word: label,
            "copies": card["copies"], "games": len(pairs), "played_share": played_share, "metrics": metrics}


def balance_report(setup: MatchSetup, lines: Sequence[Line],
                   ablations: Mapping[str, Sequence[Line]] | None = None) -> dict[str, Any]:
    """The report (a JSON-ready dict) of a match's result lines (played with ``track_cards``) and,
    for each ablated card, the result lines of the same match without it. Cards keep the card file's
    order. Raises :class:`UsageError` for a line without card tracking or an unknown ablated card."""
    if any("played" not in g or "drawn" not in g for g in lines):
        raise UsageError("balance: the result lines must come from a match with track_cards=True")
    game = setup.game_object()
    cards = card_set(setup.game, setup.cards)
    described = game.cards_json(cards) if cards is not None else {}
    vocabulary = _Vocabulary(setup, lines)
    n = len(lines)
    count = len(game.deciding_seats) if len(game.deciding_seats) > 1 else 2
    even = 1 / count
    first = game.first_seat(setup.config())
    seats = [{"key": f"seat {s}", "label": f"seat {s}" + (" (first)" if s == first and count == 2 else ""),
              **win_rate(sum(seat_score(g, s) for g in lines), n, even)} for s in range(count)]
    key = vocabulary.key
    by_label = [{"key": label, "label": label_name(label),
                 **win_rate(sum(seat_score(g, g[key].index(label)) for g in lines if label in g[key]),
                            sum(1 for g in lines if label in g[key]), even)}
                for label in vocabulary.labels]
    two_bots = len(set(setup.bots)) > 1
    bots = []
    if two_bots and len(setup.bots) == 2:
        a_wins = sum(float(g["result"]) for g in lines)
        bots = [{"key": "A", "label": f"A: {setup.a}", **win_rate(a_wins, n)},
                {"key": "B", "label": f"B: {setup.b}", **win_rate(n - a_wins, n)}]
    elif two_bots:
        bots = [{"key": chr(ord("A") + j), "label": f"{chr(ord('A') + j)}: {spec}",
                 **win_rate(sum(seat_score(g, g["bot_seats"][j]) for g in lines), n, even)}
                for j, spec in enumerate(setup.bots)]
    decided = [g for g in lines if g["winner"] is not None]
    views = [key for key, _, _ in CARD_VIEWS if lines and all(key in g for g in lines)]
    card_rows = [_card_row(card, lines, views, count) for card in _cards(game, cards, lines)]
    shares = {row["name"]: row["played"]["share"] for row in card_rows}
    by_name = {row["name"]: row for row in card_rows}
    ablation = []
    for name, ablated in (ablations or {}).items():
        if name not in by_name:
            raise UsageError(f"ablate: no card called {name!r} in {described.get('name', setup.game)!r}")
        ablation.append(_ablation(by_name[name], lines, ablated, two_bots, shares[name], vocabulary, count))
    report: dict[str, Any] = {
        "format": REPORT_FORMAT, **({"game": setup.game} if setup.game != DEFAULT_GAME else {}),
        "bots": list(setup.bots) if len(setup.bots) > 2 else [setup.a, setup.b], "seed": setup.seed,
        "cards": described.get("name"),
        "cards_sha256": cards_digest(setup.game, setup.cards, ()),
    }
    report.update({name: value for name, value in setup.option_values().items() if name not in report})
    report.update({
        "games": n, "ties": n - len(decided), **({"seats": count} if count > 2 else {}),
        **({"drawn_means": game.drawn_means} if game.drawn_means != Game.drawn_means else {}),
        **({"card_label": game.card_label} if game.card_label != Game.card_label else {}),
        **({"score_unit": game.score_unit} if game.score_unit != Game.score_unit else {}),
        **({"score_means": game.score_means} if game.score_means else {}),
        **{f"mean_{total}": sum(g[total] for g in lines) / n if n else 0.0 for total in vocabulary.totals},
        "mean_plies": sum(g["plies"] for g in lines) / n if n else 0.0,
        "mean_winner_vp": sum(g["scores"][g["winner"]] for g in decided) / len(decided) if decided else 0.0,
        "mean_loser_vp": sum(sum(g["scores"]) - g["scores"][g["winner"]] for g in decided) / len(decided)
        / (count - 1) if decided else 0.0,
        "by_seat": seats, f"by_{vocabulary.word}": by_label, "by_bot": bots, "by_card": card_rows,
        "ablations": ablation,
    })
    return report


def run_balance(setup: MatchSetup, options: MatchOptions, ablate: Sequence[str] = ()) -> dict[str, Any]:
    """Play the match (with card tracking) and, for each card in ``ablate``, the same match without
    it; return the report. Unknown cards fail before any game is played."""
    names = list(dict.fromkeys(ablate))
    for name in names:
        check_cards(replace(setup, ablate=(name,)))
    setup = replace(setup, track_cards=True)
    base = replace(options, lines=[])
    run_match(setup, base)
    ablations: dict[str, list[Line]] = {}
    for name in names:
        if options.progress:
            print(f"without {name}:", file=sys.stderr)
        run = replace(options, lines=[])
        run_match(replace(setup, ablate=(name,)), run)
        ablations[name] = run.lines
    return balance_report(setup, base.lines, ablations)


# ---------------------------------------------------------------------------------------- text

def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _points(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:+.1f} pts"


def _number(value: float | None, signed: bool = False) -> str:
    return "-" if value is None else (f"{value:+.2f}" if signed else f"{value:.2f}")


def _interval(low: float | None, high: float | None, kind: str = "rate") -> str:
    """``kind``: "rate" (a Wilson interval, in %), "points" (a change of a rate) or "number"."""
    if low is None or high is None:
        return "-"
    if kind == "rate":
        return f"{100 * low:.1f} .. {100 * high:.1f}"
    if kind == "points":
        return f"{100 * low:+.1f} .. {100 * high:+.1f}"
    return f"{low:+.2f} .. {high:+.2f}"


def _card_cells(s: dict[str, Any]) -> tuple[str, ...]:
    """Seats, share, win rate, interval, against 50%, the others' win rate, gap: one card's view."""
    return (str(s["n"]), f"{100 * s['share']:.0f}%", _pct(s["rate"]), _interval(s["low"], s["high"]) if s["n"] else "-",
            "-" if s["delta"] is None else f"{100 * s['delta']:+.1f}", _pct(s["rest_rate"]),
            "-" if s["gap"] is None else f"{100 * s['gap']:+.1f}")


def _change_cells(m: dict[str, Any]) -> tuple[str, str, str, str]:
    """With, without, change and its interval of an ablation metric."""
    if m["kind"] == "rate":
        return _pct(m["with"]), _pct(m["without"]), _points(m["change"]), _interval(m["low"], m["high"], "points")
    return (_number(m["with"]), _number(m["without"]), _number(m["change"], True),
            _interval(m["low"], m["high"], "number"))


def _sorted_cards(report: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """Cards by win rate when ``key`` (played or drawn), best first; cards without games last."""
    return sorted(report["by_card"], key=lambda c: (c[key]["rate"] is None, -(c[key]["rate"] or 0.0), c["name"]))


def _labels(report: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
    """The word for the seats' labels (Heir: god) and the report's rows by label."""
    key = next((k for k in report if k.startswith("by_") and k not in ("by_seat", "by_bot", "by_card")), "by_label")
    return key[3:], report.get(key, [])


def _length(report: dict[str, Any]) -> list[str]:
    """How long games last, in the game's own totals (Heir: turns) a game: ``["13.7 turns"]``."""
    return [f"{value:.1f} {key[5:]}" for key, value in report.items()
            if key.startswith("mean_") and key not in ("mean_plies", "mean_winner_vp", "mean_loser_vp")]


def _variant(report: dict[str, Any]) -> str:
    """The match options of a report that are not their defaults, for its page (``", with emissary"``)."""
    try:
        game = get_game(report.get("game", DEFAULT_GAME))
    except UsageError:  # a report of a game not registered here
        return ""
    shown = [o.name if o.default is False else f"{o.name} {report[o.name]}" for o in game.options
             if o.name in game.match_options and o.name in report and report[o.name] != o.default]
    return f", with {', '.join(shown)}" if shown else ""


def _text(value: Any) -> str:
    return "-" if value is None else str(value)


def _views(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The report's card views (played and drawn; drafted in a game with a draft)."""
    return [view for view in CARD_VIEWS if report["by_card"] and view[0] in report["by_card"][0]]


def _even(report: dict[str, Any]) -> tuple[int, float, str]:
    """The report's seats a game, the even win rate (½ of two seats, 1/N of N) and it as text."""
    seats = report.get("seats", 2)
    return seats, 1 / seats, f"{100 / seats:.1f}".removesuffix(".0") + "%"


def _card_label(report: dict[str, Any]) -> str:
    """The word beside a card in the report's game (:attr:`Game.card_label`: Heir's devotion)."""
    return str(report.get("card_label", Game.card_label))


def plural(unit: str) -> str:
    """A score unit counting more than one: ``point`` is ``points``, ``VP`` stays ``VP``."""
    return unit if unit.isupper() else unit + "s"


def _score(report: dict[str, Any]) -> str:
    """What the scores count (:attr:`Game.score_unit`), with what they are made of when the game
    says: ``points (prestige + life, N-score-2)``."""
    means = report.get("score_means")
    return plural(str(report.get("score_unit", Game.score_unit))) + (f" ({means})" if means else "")


def _drawn_means(report: dict[str, Any]) -> str:
    """What "drawn" means in the report's game (:attr:`Game.drawn_means`)."""
    return str(report.get("drawn_means", Game.drawn_means))


def _chance_note(report: dict[str, Any]) -> str:
    shown = sum(1 for c in report["by_card"] for k, _, _ in _views(report) if c[k]["n"])
    return f"{shown} card intervals at 95%: about {shown / 20:.1f} exclude {_even(report)[2]} by chance alone"


def format_text(report: dict[str, Any]) -> str:
    """The report as the CLI prints it."""
    seats, _, even = _even(report)
    word, by_label = _labels(report)
    length = ", ".join(_length(report))
    plies = f"{report['mean_plies']:.0f} plies"
    ties = (f"{report['ties']} ties" if seats == 2 else
            f"the others {report['mean_loser_vp']:.1f} each; {report['ties']} games without a single winner")
    out = [f"Balance report: {' vs '.join(report['bots'])}, {report['games']} games (seed {report['seed']}), cards: "
           f"{_text(report['cards'])}",
           ("Win rates count a tie as half a win" if seats == 2 else
            f"A win is the game's single best result ({seats} seats: {even} each on average)")
           + f"; intervals are 95% (Wilson); ! marks an interval that excludes {even}.",
           f"Games last {f'{length} ({plies})' if length else plies}; the winner scores "
           f"{report['mean_winner_vp']:.1f} {_score(report)}, "
           + (f"the loser {report['mean_loser_vp']:.1f}; {ties}." if seats == 2 else f"{ties}."),
           "", f"  {'':26} {'games':>6} {'win rate':>9}   95% interval"]
    for title, rows in (("By seat", report["by_seat"]), (f"By {word}", by_label), ("By bot", report["by_bot"])):
        if rows:
            out.append(title)
        for r in rows:
            out.append(f"  {r['label'][:26]:26} {r['n']:6} {_pct(r['rate']):>9}{'!' if r['flag'] else ' '}  "
                       f"{_interval(r['low'], r['high'])}")
    for key, verb, others in _views(report):
        out += ["", f"Cards when {key}: win rate of the {seats * report['games']} seats that {verb} the card, best first",
                f"  {'':22} {_card_label(report)[:8]:8} {'seats':>6} {'share':>5} {'win':>6}  {'95% interval':13} "
                f"{'vs ' + even.rstrip('%'):>6} {others:>10} {'gap':>6}" + (f" {'pick':>5}" if key == "drafted" else "")]
        for c in _sorted_cards(report, key):
            n, share, rate, interval, delta, rest, gap = _card_cells(c[key])
            out.append(f"  {c['name'][:22]:22} {_text(c[_card_label(report)]):8} {n:>6} {share:>5} {rate:>6}"
                       f"{'!' if c[key]['flag'] else ' '} {interval:13} {delta:>6} {rest:>10} {gap:>6}"
                       + (f" {_number(c[key]['mean_pick']):>5}" if key == "drafted" else ""))
    if report["by_card"]:
        out += [f"  Drawn: {_drawn_means(report)}. gap = win rate "
                f"minus that of the other seats. {_chance_note(report)}."
                + (" pick: the mean pick (1: a seat's first)." if seats > 2 and ("drafted", "drafted", "not drafted")
                   in _views(report) else ""),
                "  These are correlations (a card played while ahead looks strong); --ablate measures an effect."]
    for ab in report["ablations"]:
        label = ab[_card_label(report)]
        about = ", ".join([_text(label)] * (label is not None)
                          + [f"{ab['copies']} {'copy' if ab['copies'] == 1 else 'copies'}"] * (ab["copies"] is not None))
        about += "; " if about else ""
        out += ["", f"Ablation: without {ab['card']} ({about}played by "
                    f"{100 * ab['played_share']:.0f}% of seats), {ab['games']} games paired by seed",
                f"  {'':26} {'with':>8} {'without':>8} {'change':>10}   95% interval"]
        for m in ab["metrics"]:
            with_, without, change, interval = _change_cells(m)
            out.append(f"  {m['label'][:26]:26} {with_:>8} {without:>8} {change:>10}{'!' if m['flag'] else ' '}  "
                       f"{interval}")
        out.append("  change = without - with; ! marks an interval that excludes 0.")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------- HTML

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1000px;
       color: #222; background: #fff; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ccc; }
p.note { color: #555; font-size: 13px; max-width: 900px; }
table { border-collapse: collapse; font-size: 13px; margin: 8px 0 16px; }
th, td { padding: 3px 8px; border-bottom: 1px solid #e4e4e4; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.flag td { font-weight: 600; }
svg.chart { display: block; margin: 8px 0; font-size: 12px; }
svg.chart text { fill: #222; }
rect.up { fill: #2e7d32; } rect.down { fill: #c62828; }
g.row:not(.flag) rect.bar { fill-opacity: 0.4; }
line.whisker, line.cap { stroke: #222; stroke-width: 1.5; }
circle.rest { fill: #fff; stroke: #1565c0; stroke-width: 2; }
line.ref { stroke: #444; stroke-dasharray: 4 3; }
line.grid { stroke: #e0e0e0; }
"""

_LABEL_W, _PLOT_W, _NOTE_W, _ROW_H, _TOP, _BOTTOM = 210, 560, 170, 22, 10, 28


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _axis_range(values: Sequence[float], ref: float, step: float,
                limits: tuple[float, float] | None) -> tuple[float, float]:
    """An axis in whole steps, with a step to spare, that shows every value and the reference."""
    lo = math.floor(min([ref, *values]) / step - 1e-9) * step
    hi = math.ceil(max([ref, *values]) / step + 1e-9) * step
    if limits is not None:
        lo, hi = max(lo, limits[0]), min(hi, limits[1])
    return lo, hi


def _chart(chart_id: str, rows: Sequence[dict[str, Any]], ref: float, step: float,
           limits: tuple[float, float] | None, tick: Callable[[float], str]) -> str:
    """A horizontal bar chart as inline SVG: each row a bar from the reference line to its value,
    green above and red below, with a whisker for its interval and, if the row has a ``rest`` value,
    a circle there; rows whose interval excludes the reference are drawn solid. A row is
    ``{key, label, value, low, high, note, flag}``; a row without a value shows its label and note."""
    values = [v for r in rows for v in (r["value"], r["low"], r["high"], r.get("rest")) if v is not None]
    lo, hi = _axis_range(values, ref, step, limits)
    x = lambda v: _LABEL_W + (v - lo) / (hi - lo) * _PLOT_W  # noqa: E731
    bottom = _TOP + _ROW_H * len(rows)
    width, height = _LABEL_W + _PLOT_W + _NOTE_W, bottom + _BOTTOM
    parts = [f'<svg class="chart" id="{_e(chart_id)}" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" data-lo="{lo:.6f}" data-hi="{hi:.6f}" data-ref="{ref:.6f}">']
    for k in range(round((hi - lo) / step) + 1):
        v = lo + k * step
        parts.append(f'<line class="grid" x1="{x(v):.2f}" x2="{x(v):.2f}" y1="{_TOP}" y2="{bottom}" />'
                     f'<text class="tick" x="{x(v):.2f}" y="{bottom + 16}" text-anchor="middle">{_e(tick(v))}</text>')
    for i, r in enumerate(rows):
        y, mid = _TOP + i * _ROW_H, _TOP + i * _ROW_H + _ROW_H / 2
        parts.append(f'<g class="row{" flag" if r["flag"] else ""}" data-key="{_e(r["key"])}">'
                     f'<text class="label" x="{_LABEL_W - 8}" y="{y + 15}" text-anchor="end">{_e(r["label"])}</text>')
        if r["value"] is not None:
            v = r["value"]
            left, right = sorted((x(ref), x(v)))
            parts.append(f'<rect class="bar {"up" if v >= ref else "down"}" x="{left:.2f}" y="{y + 4}" '
                         f'width="{right - left:.2f}" height="{_ROW_H - 8}" data-value="{v:.6f}" />')
        if r["low"] is not None and r["high"] is not None:
            x1, x2 = x(r["low"]), x(r["high"])
            parts.append(f'<line class="whisker" x1="{x1:.2f}" x2="{x2:.2f}" y1="{mid}" y2="{mid}" '
                         f'data-low="{r["low"]:.6f}" data-high="{r["high"]:.6f}" />'
                         + "".join(f'<line class="cap" x1="{c:.2f}" x2="{c:.2f}" y1="{mid - 5}" y2="{mid + 5}" />'
                                   for c in (x1, x2)))
        if r.get("rest") is not None:
            parts.append(f'<circle class="rest" cx="{x(r["rest"]):.2f}" cy="{mid}" r="4" '
                         f'data-value="{r["rest"]:.6f}" />')
        parts.append(f'<text class="note" x="{_LABEL_W + _PLOT_W + 8}" y="{y + 15}">{_e(r["note"])}</text></g>')
    parts.append(f'<line class="ref" x1="{x(ref):.2f}" x2="{x(ref):.2f}" y1="{_TOP - 4}" y2="{bottom + 2}" /></svg>')
    return "".join(parts)


def _rate_row(key: str, label: str, s: dict[str, Any]) -> dict[str, Any]:
    return {"key": key, "label": label, "value": s["rate"], "low": s["low"] if s["n"] else None,
            "high": s["high"] if s["n"] else None, "rest": s.get("rest_rate"), "flag": s["flag"],
            "note": f"{_pct(s['rate'])}  n={s['n']}" if s["n"] else "no games"}


def _table(table_id: str, head: Sequence[str], rows: Sequence[tuple[Sequence[object], bool]]) -> str:
    """An HTML table; each row is its cells and whether it is flagged."""
    out = [f'<table id="{_e(table_id)}"><thead><tr>' + "".join(f"<th>{_e(h)}</th>" for h in head)
           + "</tr></thead><tbody>"]
    for cells, flag in rows:
        out.append(('<tr class="flag">' if flag else "<tr>") + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def _pct_tick(v: float) -> str:
    return f"{100 * v:.0f}%"


def render_html(report: dict[str, Any]) -> str:
    """The report as one self-contained HTML page (inline SVG charts and CSS, no script, nothing
    fetched): win rate by seat, label (Heir: god) and bot; by card when played and when drawn; ablation
    effects; and tables with every number."""
    seats, ref, even = _even(report)
    versus = " vs ".join(report["bots"])
    word, by_label = _labels(report)
    overview = report["by_seat"] + by_label + report["by_bot"]
    length = ", ".join(_length(report)) or f"{report['mean_plies']:.0f} plies"
    others = (f"the loser {report['mean_loser_vp']:.1f}; {report['ties']} ties" if seats == 2 else
              f"the others {report['mean_loser_vp']:.1f} each; {report['ties']} games without a single winner")
    body = [f"<h1>Balance report: {_e(versus)}</h1>",
            f'<p class="meta">{report["games"]} games, seed {report["seed"]}, cards: {_e(_text(report["cards"]))}'
            f'{_e(_variant(report))}. Games last {_e(length)}; '
            f"the winner scores {report['mean_winner_vp']:.1f} {_e(_score(report))}, {_e(others)}.</p>",
            f'<p class="note">Each bar runs from the dashed {even} line to a win rate '
            + ("(a tie counts half a win)" if seats == 2 else f"(a win: the game's single best result, of {seats})")
            + f"; the whisker is its 95% interval (Wilson). Solid bars: the interval excludes {even}. Pale bars: not "
            f"told apart from {even} by these games.</p>",
            f"<h2>Win rate by seat and {_e(word)}</h2>",
            _chart("chart-overview", [_rate_row(r["key"], r["label"], r) for r in overview], ref, 0.1, (0.0, 1.0),
                   _pct_tick),
            _table("table-overview", ("", "games", "wins", "win rate", "95% interval"),
                   [((r["label"], r["n"], f"{r['wins']:g}", _pct(r["rate"]), _interval(r["low"], r["high"])),
                     r["flag"]) for r in overview])]
    for key, verb, others in _views(report):
        cards = _sorted_cards(report, key)
        body += [f"<h2>Win rate when {_e(key)}, by card</h2>",
                 f'<p class="note">Bars: the win rate of the seats (of {seats * report["games"]}) that {verb} the card. '
                 f"Circles: the win rate of the seats that did not; gap = bar minus circle"
                 + (f". Drawn: {_e(_drawn_means(report))}" if key == "drawn"
                    else "")
                 + ". A correlation, not an effect: a card played while ahead looks strong, and winners play "
                   f"more cards. {_e(_chance_note(report))}.</p>",
                 _chart(f"chart-{key}", [_rate_row(c["name"], c["name"], c[key]) for c in cards], ref, 0.1,
                        (0.0, 1.0), _pct_tick),
                 _table(f"table-{key}", ("card", _card_label(report), "copies", "seats", "share", "win rate", "95% interval",
                                         f"vs {even}", others, "gap") + (("mean pick",) if key == "drafted" else ()),
                        [((c["name"], _text(c[_card_label(report)]), _text(c["copies"]), *_card_cells(c[key]))
                          + ((_number(c[key]["mean_pick"]),) if key == "drafted" else ()), c[key]["flag"])
                         for c in cards])]
    if report["ablations"]:
        body += ["<h2>Ablation: what removing a card changes</h2>",
                 '<p class="note">The same seeds played again with every copy of the card taken out of the deck. '
                 "Each bar is the change (without minus with) of a win rate, in points, with its 95% interval over "
                 "the games paired by seed. Solid bars: the interval excludes 0. This is an effect of the card on "
                 "games between these bots, not a correlation.</p>",
                 _chart("chart-ablation",
                        [{"key": f"{ab['card']}|{m['key']}", "label": f"{ab['card']}: {m['label']}",
                          "value": m["change"], "low": m["low"], "high": m["high"], "flag": m["flag"],
                          "note": f"{_points(m['change'])}  n={m['n']}"}
                         for ab in report["ablations"] for m in ab["metrics"] if m["kind"] == "rate"],
                        0.0, 0.05, None, lambda v: f"{100 * v:+.0f}" if round(100 * v) else "0"),
                 _table("table-ablation", ("card", "quantity", "with", "without", "change", "95% interval", "games"),
                        [((ab["card"], m["label"], *_change_cells(m), m["n"]), m["flag"])
                         for ab in report["ablations"] for m in ab["metrics"]])]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\" />"
            f"<title>Balance report: {_e(versus)}</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write_html(report: dict[str, Any], path: str | Path) -> None:
    """Write :func:`render_html` to ``path`` (:func:`omen_search.files.write_atomic`); raises
    :class:`UsageError` if it cannot be written."""
    page = render_html(report)
    write_atomic(path, "--html", lambda f: f.write(page))
