"""What the pages are sent, as JSON-ready data: the games to choose from, a decision's moves as
steps to pick one by one, and the advisor's answer.

The board itself is each game's own description (:meth:`omen_search.game.Game.view`): nothing
here names a game's cards, gods or phases, so a game added to the registry plays in the browser
without a new page.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from omen_search.advisor import Advice
from omen_search.bots import BOT_KINDS
from omen_search.game import Game, all_games

# The opponents the new-game form offers, weakest first (any spec make_bot reads can be typed).
OPPONENTS: tuple[tuple[str, str], ...] = (
    ("random", "random: any legal move"),
    ("greedy", "greedy: the best-looking move one step ahead"),
    ("ismcts:iterations=300", "ISMCTS, 300 iterations: quick"),
    ("ismcts:iterations=2000", "ISMCTS, 2,000 iterations"),
    ("ismcts:iterations=10000", "ISMCTS, 10,000 iterations: strong"),
    ("ismcts:seconds=5", "ISMCTS, 5 seconds a move: strongest"),
)


def move_choices(game: Game, moves: Iterable[Any]) -> list[dict[str, Any]]:
    """The legal moves with their steps (:meth:`Game.move_steps`): a page groups them by their
    first step (the kind of move), then offers the next steps of the moves that share the ones
    picked, so the person chooses a card, then a city, never from a flat list."""
    return [{"move": str(m), "steps": list(game.move_steps(m))} for m in moves]


def _num(x: float) -> float | None:
    return None if math.isnan(x) else round(x, 4)


def advice_json(game: Game, advice: Advice, top: int) -> dict[str, Any]:
    """The advisor's ``top`` best moves for a page: each move (with its steps, so the page can
    point at it), its win probability with the 95% interval, the VP margin, its share of
    determinisations in which it was best and its principal line; a forced move has no numbers
    (null)."""
    return {
        "iterations": advice.iterations,
        "seconds": round(advice.elapsed, 3),
        "moves": [{"move": str(m.move), "steps": list(game.move_steps(m.move)), "visits": m.visits,
                   "win_prob": _num(m.win_prob), "win_prob_low": _num(m.win_prob_low),
                   "win_prob_high": _num(m.win_prob_high), "vp_margin": _num(m.vp_margin),
                   "best_share": _num(m.best_share), "pv": [{"seat": s.seat, "move": s.move} for s in m.pv]}
                  for m in advice.moves[:top]],
        "outlook": advice.outlook_text,
    }


def catalogue() -> dict[str, Any]:
    """The new-game form's choices: every registered game with its options and the seats a person
    can take, and the opponents on offer."""
    games = []
    for game in all_games():
        games.append({**game.describe(), "seats": list(game.deciding_seats), "automaton": game.automaton})
    return {"games": games, "opponents": [{"spec": spec, "label": label} for spec, label in OPPONENTS],
            "bot_kinds": [k for k in BOT_KINDS if k != "human"]}
