"""What the pages are sent, as JSON-ready data: the games to choose from, a decision's moves as
steps to pick one by one, and the advisor's answer.

The board itself is each game's own description (:meth:`omen_search.game.Game.view`): nothing
here names a game's cards, gods or phases, so a game added to the registry plays in the browser
without a new page.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable
from typing import Any

from omen_search.advisor import Advice
from omen_search.bots import BOT_KINDS
from omen_search.errors import UsageError
from omen_search.game import Game, all_games

# The opponents the new-game form offers, weakest first (any spec make_bot reads can be typed).
OPPONENTS: tuple[tuple[str, str], ...] = (
    ("first", "first: always the first legal move"),
    ("random", "random: any legal move"),
    ("greedy", "greedy: the best-looking move one step ahead"),
    ("ismcts:iterations=300", "ISMCTS, 300 iterations: quick"),
    ("ismcts:iterations=2000", "ISMCTS, 2,000 iterations"),
    ("ismcts:iterations=10000", "ISMCTS, 10,000 iterations: strong"),
    ("ismcts:seconds=5", "ISMCTS, 5 seconds a move"),
    ("omen:seconds=1", "Omen, 1 second a move: ISMCTS with MAST playouts and its tree kept from move to move"),
    ("omen:seconds=5", "Omen, 5 seconds a move: strongest"),
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
    point at it), its win probability with the 95% interval, the VP margin and its principal
    line; a forced move has no numbers (null)."""
    return {
        "iterations": advice.iterations,
        "seconds": round(advice.elapsed, 3),
        "moves": [{"move": str(m.move), "steps": list(game.move_steps(m.move)), "visits": m.visits,
                   "win_prob": _num(m.win_prob), "win_prob_low": _num(m.win_prob_low),
                   "win_prob_high": _num(m.win_prob_high), "vp_margin": _num(m.vp_margin),
                   "pv": [{"seat": s.seat, "move": s.move} for s in m.pv]}
                  for m in advice.moves[:top]],
        "outlook": advice.outlook_text,
        "separated": advice.separated,  # False: the top two moves' 95% intervals overlap
    }


def _followed_at_table(game: Game) -> bool:
    """Whether the game has a table companion (the "At the table" page offers those)."""
    try:
        game.table_rules()
    except UsageError:
        return False
    return True


def catalogue() -> dict[str, Any]:
    """The new-game form's choices: every registered game with its options and the seats a person
    can take, and the opponents on offer."""
    games = []
    for game in all_games():
        games.append({**game.describe(), "seats": list(game.deciding_seats), "automaton": game.automaton,
                      "table": _followed_at_table(game), "search": "core" in game.engines})
    return {"games": games, "opponents": [{"spec": spec, "label": label} for spec, label in OPPONENTS],
            "bot_kinds": [k for k in BOT_KINDS if k != "human"]}


def _cards(cards: list[dict[str, Any]]) -> Counter[str]:
    return Counter({c["name"]: c["count"] for c in cards})


def _difference(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[str]:
    gone, came = _cards(before) - _cards(after), _cards(after) - _cards(before)
    return ([f"+{name}" + (f" x{n}" if n > 1 else "") for name, n in came.items()]
            + [f"-{name}" + (f" x{n}" if n > 1 else "") for name, n in gone.items()])


def board_changes(before: dict[str, Any], after: dict[str, Any], seats: Collection[int]) -> list[str]:
    """What changed for ``seats`` between two views of the board (:meth:`Game.view`) of the same
    seat: cards come to or gone from their side of each zone and their piles, and their facts.
    It tells a person what a seat did that no move of the log says: the solo Heir's automaton plays
    its turn inside the rules, between the person's decisions."""
    out = []
    for zone_before, zone in zip(before["zones"], after["zones"]):
        for side_before, side in zip(zone_before["sides"], zone["sides"]):
            change = _difference(side_before["cards"], side["cards"]) if side["seat"] in seats else []
            if change:
                out.append(f"{zone['name']}: {', '.join(change)}")
    for seat_before, seat in zip(before["seats"], after["seats"]):
        if seat["seat"] not in seats:
            continue
        was = {f["label"]: f["value"] for f in seat_before["facts"]}
        out += [f"{f['label']} {was[f['label']]} → {f['value']}" for f in seat["facts"]
                if f["label"] in was and was[f["label"]] != f["value"]]
        piles = {p["name"]: p for p in seat_before["piles"]}
        for pile in seat["piles"]:
            old = piles.get(pile["name"], {"cards": [], "hidden": 0})
            change = _difference(old["cards"], pile["cards"])
            hidden = pile.get("hidden", 0) - old.get("hidden", 0)
            if hidden:
                change.append(f"{hidden:+d} hidden")
            if change:
                out.append(f"{pile['name']}: {', '.join(change)}")
    return out
