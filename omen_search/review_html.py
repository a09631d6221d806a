"""The post-game review as one self-contained HTML file: the evaluation graph (the player's win %
before each decision, mistakes marked), the decision table, and the board as the player saw it.

No scripts, fonts or images from elsewhere: the graph is inline SVG, so the file opens anywhere
and can be attached to a message.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from omen_search.analysis import GameReview
from omen_search.files import write_atomic
from omen_search.game import DEFAULT_GAME, get_game

COLORS = {None: "#4a7bd0", "inaccuracy": "#e0b000", "mistake": "#e07000", "blunder": "#d02020"}
WIDTH, HEIGHT, PAD = 900, 300, 40

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.inaccuracy td.label { color: #a08000; } tr.mistake td.label { color: #c06000; }
tr.blunder td.label { color: #c00000; font-weight: bold; }
pre { background: #f6f6f6; padding: 8px; overflow-x: auto; }
details { margin: 0.3em 0; }
"""


def evaluation_graph(review: GameReview) -> str:
    """An SVG line of win % before each decision, a dot per decision coloured by its label."""
    points = [(d.ply, d.before.win_prob) for d in review.decisions]
    last = max((p for p, _ in points), default=1) or 1

    def x(ply: int) -> float:
        return PAD + (WIDTH - 2 * PAD) * ply / last

    def y(p: float) -> float:
        return HEIGHT - PAD - (HEIGHT - 2 * PAD) * p

    parts = [f'<svg id="evaluation-graph" xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="win probability over the game">',
             f'<rect x="{PAD}" y="{PAD}" width="{WIDTH - 2 * PAD}" height="{HEIGHT - 2 * PAD}" fill="#fafafa" '
             'stroke="#ccc"/>']
    for pct in (0, 25, 50, 75, 100):
        parts.append(f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(pct / 100):.1f}" y2="{y(pct / 100):.1f}" '
                     f'stroke="#ddd"/><text x="{PAD - 6}" y="{y(pct / 100) + 4:.1f}" font-size="11" '
                     f'text-anchor="end">{pct}%</text>')
    if points:
        path = " ".join(f"{x(p):.1f},{y(v):.1f}" for p, v in points)
        parts.append(f'<polyline class="evaluation" points="{path}" fill="none" stroke="{COLORS[None]}" '
                     'stroke-width="2"/>')
    for d in review.decisions:
        r = 3 if d.label is None else 6
        parts.append(f'<circle class="decision {d.label or "ok"}" cx="{x(d.ply):.1f}" cy="{y(d.before.win_prob):.1f}" '
                     f'r="{r}" fill="{COLORS[d.label]}"><title>ply {d.ply}: {escape(str(d.played))} '
                     f'({100 * d.before.win_prob:.0f}% → {100 * d.after.win_prob:.0f}%)</title></circle>')
    parts.append(f'<text x="{WIDTH / 2}" y="{HEIGHT - 8}" font-size="12" text-anchor="middle">ply</text></svg>')
    return "\n".join(parts)


def render(review: GameReview, title: str = "Omen game review") -> str:
    """The report as HTML text."""
    game = review.game or get_game(DEFAULT_GAME)
    rows = []
    for d in review.decisions:
        rows.append(
            f'<tr class="{d.label or "ok"}" id="ply-{d.ply}"><td class="num">{d.ply}</td>'
            f"<td>{escape(str(d.played))}</td><td>{escape(str(d.better or ''))}</td>"
            f'<td class="num">{100 * d.before.win_prob:.1f}%</td><td class="num">{100 * d.after.win_prob:.1f}%</td>'
            f'<td class="num">{d.stake:.1f}</td><td class="num">{d.loss:.1f}</td><td class="num">{d.accuracy:.0f}%</td>'
            f'<td class="num">{d.vp_loss:.1f}</td>'
            f'<td class="label">{d.label or ""}</td>'
            f"<td><details><summary>board</summary><pre>{escape(game.describe_observation(d.observation, review.cards))}</pre></details></td></tr>")
    costly = "".join(f"<li>{escape(d.explain())}</li>" for d in review.costliest()) or "<li>none</li>"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title><style>{STYLE}</style></head>
<body>
<h1>{escape(title)}</h1>
<p>Seat {review.player}: accuracy <strong id="accuracy">{review.accuracy:.1f}%</strong> over
{len(review.decisions)} decisions ({review.stake:.0f} points of win % at stake; {escape(review.budget)}, judged from
what the seat could see). A decision's accuracy is the share of its stake (the best move's win %
minus the mean of the legal moves') that the move kept; a better move is shown only when the one played is worse
beyond the search error.</p>
{evaluation_graph(review)}
<h2>Costliest decisions</h2>
<ol id="costliest">{costly}</ol>
<h2>Decisions</h2>
<table id="decisions"><thead><tr><th>ply</th><th>played</th><th>better move</th><th>win % before</th>
<th>win % after</th><th>at stake (points)</th><th>loss (points)</th><th>accuracy</th><th>{game.score_unit} loss</th><th>label</th>
<th>as the seat saw it</th></tr></thead>
<tbody>
{chr(10).join(rows)}
</tbody></table>
</body></html>
"""


def write_html(review: GameReview, path: str | Path, title: str = "Omen game review") -> None:
    """Write the report (:func:`omen_search.files.write_atomic`); raises :class:`UsageError` naming
    the path if it cannot be written."""
    page = render(review, title)
    write_atomic(path, "--html", lambda f: f.write(page))
