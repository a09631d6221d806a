"""Balance report: win rates by seat, god and card over AI-vs-AI games, and card ablation.

The games come from the match runner (:mod:`omen_search.match`) with ``track_cards``, so each
result line says which units each seat played and drew. Every rate is a *win rate* in which a tie
counts half a win, so the two seats of a game always share exactly one win and the rate over all
seats is 50%. Rates carry Wilson 95% intervals (:func:`omen_search.stats.wilson`).

* By seat and by god: how often seat 0 (the first player) or the seat with a god won.
* By card: among the seats that played (or drew) a unit, the share that won. This is a
  correlation, not an effect: a card that is played when its player is already ahead looks strong.
  "Drawn" means the unit was in the opening hand or came into the hand during the game (draws,
  steals, takes from structures).
* Ablation (causal): the same match seeds are played again with every copy of one unit taken out
  of the deck. Game ``i`` with and without the card share the game seed, the gods' seats and the
  bots' seeds, and the deck is shuffled whole before the card is taken out, so the other cards come
  in the same order (``CardSet.shuffled_deck``). For each game the
  difference ``without - with`` of a quantity (the win rate of the card's god, of seat 0, of bot A;
  turns; VP) is taken; the change is the mean difference, and its 95% interval is the normal
  approximation over the paired differences, the two games of a seat-swapped deal counted as one
  cluster. With both seats played by the same bot the overall win rate is 50% whatever the deck,
  so the effect shows in the win rate of a god (the card's, or Anubis for a Neutral or two-god card;
  Horus's is the complement) or of a seat.

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
from omen_search.games.heir.cards import GODS, CardSet, Unit
from omen_search.games.heir.render import god_name
from omen_search.match import MatchOptions, MatchSetup, card_set, run_match
from omen_search.stats import Z95, wilson

REPORT_FORMAT = "omen-balance/1"
Line = dict[str, Any]


# ------------------------------------------------------------------------------------- numbers


def seat_score(line: Line, seat: int) -> float:
    """What a finished game was worth to ``seat``: 1 for a win, ½ for a tie, 0 for a loss."""
    winner = line["winner"]
    return 0.5 if winner is None else float(winner == seat)


def win_rate(wins: float, n: int) -> dict[str, Any]:
    """A win rate with its Wilson 95% interval; ``rate`` is None without games. ``flag`` says the
    interval excludes 50%."""
    low, high = wilson(wins, n)
    return {"n": n, "wins": wins, "rate": wins / n if n else None, "low": low, "high": high,
            "flag": n > 0 and not low <= 0.5 <= high}


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


def ablation_god(unit: Unit) -> str:
    """The god whose win rate measures a unit's ablation: its own, or Anubis for a Neutral unit or
    one devoted to both gods."""
    return unit.devotion if unit.devotion in GODS else GODS[0]


Metric = tuple[str, str, str, Callable[[Line], float]]  # key, label, kind ("rate" or "number"), value


def _metrics(god: str, two_bots: bool) -> list[Metric]:
    metrics: list[Metric] = [
        ("god", f"{god_name(god)} win rate", "rate", lambda g: seat_score(g, g["gods"].index(god))),
        ("seat0", "seat 0 win rate", "rate", lambda g: seat_score(g, 0)),
    ]
    if two_bots:
        metrics.append(("bot_a", "bot A win rate", "rate", lambda g: float(g["result"])))
    metrics += [
        ("turns", "turns a game", "number", lambda g: float(g["turns"])),
        ("vp", "VP a game (both seats)", "number", lambda g: float(sum(g["scores"]))),
        ("margin", "winning margin (VP)", "number", lambda g: float(abs(g["scores"][0] - g["scores"][1]))),
    ]
    return metrics


def _card_row(unit: Unit, lines: Sequence[Line]) -> dict[str, Any]:
    row: dict[str, Any] = {"name": unit.name, "devotion": unit.devotion, "copies": unit.copies,
                           "source": unit.source}
    for key in ("played", "drawn"):
        scores: dict[bool, list[float]] = {True: [], False: []}
        for g in lines:
            for s in (0, 1):
                scores[unit.name in g[key][s]].append(seat_score(g, s))
        stats = win_rate(sum(scores[True]), len(scores[True]))
        rest = sum(scores[False]) / len(scores[False]) if scores[False] else None
        stats.update(share=len(scores[True]) / (2 * len(lines)) if lines else 0.0,
                     delta=None if stats["rate"] is None else stats["rate"] - 0.5,
                     rest_n=len(scores[False]), rest_rate=rest,
                     gap=None if stats["rate"] is None or rest is None else stats["rate"] - rest)
        row[key] = stats
    return row


def _ablation(unit: Unit, lines: Sequence[Line], ablated: Sequence[Line], two_bots: bool,
              played_share: float) -> dict[str, Any]:
    by_index = {g["index"]: g for g in lines}
    pairs = [(by_index[g["index"]], g) for g in sorted(ablated, key=lambda g: g["index"]) if g["index"] in by_index]
    god = ablation_god(unit)
    metrics = []
    for key, label, kind, value in _metrics(god, two_bots):
        diff = paired_difference([(base["pair"], value(base), value(without)) for base, without in pairs])
        metrics.append({"key": key, "label": label, "kind": kind, **diff})
    return {"card": unit.name, "devotion": unit.devotion, "god": god, "copies": unit.copies, "games": len(pairs),
            "played_share": played_share, "metrics": metrics}


def balance_report(setup: MatchSetup, lines: Sequence[Line],
                   ablations: Mapping[str, Sequence[Line]] | None = None) -> dict[str, Any]:
    """The report (a JSON-ready dict) of a match's result lines (played with ``track_cards``) and,
    for each ablated unit, the result lines of the same match without it. Cards keep the card file's
    order. Raises :class:`UsageError` for a line without card tracking or an unknown ablated unit."""
    if any("played" not in g or "drawn" not in g for g in lines):
        raise UsageError("balance: the result lines must come from a match with track_cards=True")
    cards: CardSet = card_set(setup.cards)
    n = len(lines)
    seats = [{"key": f"seat {s}", "label": f"seat {s}" + (" (first)" if s == 0 else ""),
              **win_rate(sum(seat_score(g, s) for g in lines), n)} for s in (0, 1)]
    gods = [{"key": god, "label": god_name(god), **win_rate(sum(seat_score(g, g["gods"].index(god)) for g in lines), n)}
            for god in GODS]
    two_bots = setup.a != setup.b
    bots = []
    if two_bots:
        a_wins = sum(float(g["result"]) for g in lines)
        bots = [{"key": "A", "label": f"A: {setup.a}", **win_rate(a_wins, n)},
                {"key": "B", "label": f"B: {setup.b}", **win_rate(n - a_wins, n)}]
    decided = [g for g in lines if g["winner"] is not None]
    card_rows = [_card_row(u, lines) for u in cards.units]
    shares = {row["name"]: row["played"]["share"] for row in card_rows}
    ablation = []
    for name, ablated in (ablations or {}).items():
        try:
            unit = cards.unit(name)
        except KeyError:
            raise UsageError(f"ablate: no unit called {name!r} in {cards.name!r}") from None
        ablation.append(_ablation(unit, lines, ablated, two_bots, shares[name]))
    return {
        "format": REPORT_FORMAT,
        "bots": [setup.a, setup.b], "seed": setup.seed, "cards": cards.name, "cards_sha256": cards.sha256,
        "emissary": setup.emissary, "max_turns": setup.max_turns,
        "games": n, "ties": n - len(decided),
        "mean_turns": sum(g["turns"] for g in lines) / n if n else 0.0,
        "mean_plies": sum(g["plies"] for g in lines) / n if n else 0.0,
        "mean_winner_vp": sum(g["scores"][g["winner"]] for g in decided) / len(decided) if decided else 0.0,
        "mean_loser_vp": sum(g["scores"][1 - g["winner"]] for g in decided) / len(decided) if decided else 0.0,
        "by_seat": seats, "by_god": gods, "by_bot": bots, "by_card": card_rows, "ablations": ablation,
    }


def run_balance(setup: MatchSetup, options: MatchOptions, ablate: Sequence[str] = ()) -> dict[str, Any]:
    """Play the match (with card tracking) and, for each unit in ``ablate``, the same match without
    it; return the report. Unknown units fail before any game is played."""
    names = list(dict.fromkeys(ablate))
    for name in names:
        card_set(setup.cards, (name,))
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

CARD_VIEWS = (("played", "played", "not played"), ("drawn", "drew", "not drawn"))  # key, verb, the others


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


def _chance_note(report: dict[str, Any]) -> str:
    shown = sum(1 for c in report["by_card"] for k, _, _ in CARD_VIEWS if c[k]["n"])
    return f"{shown} card intervals at 95%: about {shown / 20:.1f} exclude 50% by chance alone"


def format_text(report: dict[str, Any]) -> str:
    """The report as the CLI prints it."""
    a, b = report["bots"]
    out = [f"Balance report: {a} vs {b}, {report['games']} games (seed {report['seed']}), cards: {report['cards']}",
           "Win rates count a tie as half a win; intervals are 95% (Wilson); ! marks an interval that excludes 50%.",
           f"Games last {report['mean_turns']:.1f} turns ({report['mean_plies']:.0f} plies); the winner scores "
           f"{report['mean_winner_vp']:.1f} VP, the loser {report['mean_loser_vp']:.1f}; {report['ties']} ties.",
           "", f"  {'':26} {'games':>6} {'win rate':>9}   95% interval"]
    for title, rows in (("By seat", report["by_seat"]), ("By god", report["by_god"]), ("By bot", report["by_bot"])):
        if rows:
            out.append(title)
        for r in rows:
            out.append(f"  {r['label'][:26]:26} {r['n']:6} {_pct(r['rate']):>9}{'!' if r['flag'] else ' '}  "
                       f"{_interval(r['low'], r['high'])}")
    for key, verb, others in CARD_VIEWS:
        out += ["", f"Cards when {key}: win rate of the {2 * report['games']} seats that {verb} the card, best first",
                f"  {'':22} {'devotion':8} {'seats':>6} {'share':>5} {'win':>6}  {'95% interval':13} {'vs 50':>6} "
                f"{others:>10} {'gap':>6}"]
        for c in _sorted_cards(report, key):
            n, share, rate, interval, delta, rest, gap = _card_cells(c[key])
            out.append(f"  {c['name'][:22]:22} {c['devotion']:8} {n:>6} {share:>5} {rate:>6}"
                       f"{'!' if c[key]['flag'] else ' '} {interval:13} {delta:>6} {rest:>10} {gap:>6}")
    out += [f"  Drawn: in the opening hand or came into the hand during the game. gap = win rate "
            f"minus that of the other seats. {_chance_note(report)}.",
            "  These are correlations (a card played while ahead looks strong); --ablate measures an effect."]
    for ab in report["ablations"]:
        out += ["", f"Ablation: without {ab['card']} ({ab['devotion']}, {ab['copies']} copies; played by "
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
    fetched): win rate by seat, god and bot; by card when played and when drawn; ablation effects;
    and tables with every number."""
    a, b = report["bots"]
    overview = report["by_seat"] + report["by_god"] + report["by_bot"]
    body = [f"<h1>Balance report: {_e(a)} vs {_e(b)}</h1>",
            f'<p class="meta">{report["games"]} games, seed {report["seed"]}, cards: {_e(report["cards"])}'
            f'{", Emissary of War" if report["emissary"] else ""}. Games last {report["mean_turns"]:.1f} turns; '
            f"the winner scores {report['mean_winner_vp']:.1f} VP, the loser {report['mean_loser_vp']:.1f}; "
            f"{report['ties']} ties.</p>",
            '<p class="note">Each bar runs from the dashed 50% line to a win rate (a tie counts half a win); the '
            "whisker is its 95% interval (Wilson). Solid bars: the interval excludes 50%. Pale bars: not told apart "
            "from 50% by these games.</p>",
            "<h2>Win rate by seat and god</h2>",
            _chart("chart-overview", [_rate_row(r["key"], r["label"], r) for r in overview], 0.5, 0.1, (0.0, 1.0),
                   _pct_tick),
            _table("table-overview", ("", "games", "wins", "win rate", "95% interval"),
                   [((r["label"], r["n"], f"{r['wins']:g}", _pct(r["rate"]), _interval(r["low"], r["high"])),
                     r["flag"]) for r in overview])]
    for key, verb, others in CARD_VIEWS:
        cards = _sorted_cards(report, key)
        body += [f"<h2>Win rate when {_e(key)}, by card</h2>",
                 f'<p class="note">Bars: the win rate of the seats (of {2 * report["games"]}) that {verb} the card. '
                 f"Circles: the win rate of the seats that did not; gap = bar minus circle"
                 + (". Drawn: in the opening hand or came into the hand during the game" if key == "drawn"
                    else "")
                 + ". A correlation, not an effect: a card played while ahead looks strong, and winners play "
                   f"more cards. {_e(_chance_note(report))}.</p>",
                 _chart(f"chart-{key}", [_rate_row(c["name"], c["name"], c[key]) for c in cards], 0.5, 0.1,
                        (0.0, 1.0), _pct_tick),
                 _table(f"table-{key}", ("card", "devotion", "copies", "seats", "share", "win rate", "95% interval",
                                         "vs 50%", others, "gap"),
                        [((c["name"], c["devotion"], c["copies"], *_card_cells(c[key])), c[key]["flag"])
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
            f"<title>Balance report: {_e(a)} vs {_e(b)}</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write_html(report: dict[str, Any], path: str | Path) -> None:
    """Write :func:`render_html` to ``path`` (:func:`omen_search.files.write_atomic`); raises
    :class:`UsageError` if it cannot be written."""
    page = render_html(report)
    write_atomic(path, "--html", lambda f: f.write(page))
