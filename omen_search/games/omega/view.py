"""OMEGA's board for a user interface (:meth:`omen_search.game.Game.view`) and its moves in steps
(:meth:`~omen_search.game.Game.move_steps`), drawn from one seat's observation alone."""

from __future__ import annotations

from typing import Any

from omen_search.games.omega.cards import CardSet
from omen_search.games.omega.notation import VERBS, Move

RUNE_POWERS = {  # what each kind does when placed (O-rune-1 to O-rune-13), for a rune's tooltip
    "blue": "Time Thrust: 2 squares per blue placed",
    "gold": "2 points each at Judgment",
    "red": "may take a red from the Altar onto the same Egregor",
    "green": "draw 1 rune per 2 greens placed together",
    "white": "comes back when its Egregor is lost; 2 whites shut out black runes",
    "black": "placed on an opponent's Egregor: take one of its runes",
}


def _runes(counts: dict[str, int], *tags: str) -> list[dict[str, Any]]:
    return [{"name": kind, "count": n, "detail": "rune", "text": RUNE_POWERS.get(kind, ""), "tags": list(tags)}
            for kind, n in counts.items()]


def _egregor(cards: CardSet, name: str, runes: dict[str, int] | None = None, mask: bool = False) -> dict[str, Any]:
    index = cards.egregor_index(name)
    e = cards.egregors[index] if index is not None else None
    carried = ", ".join(f"{n} {k}" for k, n in (runes or {}).items())
    detail = f"snake {e.snake}, thrust {e.thrust}" if e else ""
    return {"name": name, "count": 1, "detail": f"{carried}; {detail}" if runes is not None else detail,
            "text": e.power_text() if e else "", "tags": (["mask"] if mask else []) + ([e.tag] if e and e.tag else [])}


def view(o: dict[str, Any], cards: CardSet) -> dict[str, Any]:
    """The board ``o`` (an ``omega-observation/1``) shows: the Altar, Gallery, discard pile and Arcana
    on top of their stacks as shared piles; each seat's Egregors with their runes (the Mask
    tagged), its Pyramid (whole for the observing seat, else the known runes and a hidden count),
    its Arcana, pawn and Prestige."""
    arcana = {a.name: a for a in cards.arcana}
    seats = []
    for seat in o["players"]:
        pyramid = seat["pyramid"]
        mine = "runes" in pyramid
        seats.append({
            "seat": seat["seat"], "name": f"seat {seat['seat']}",
            "facts": [{"label": "pawn", "value": seat["pawn"]}, {"label": "prestige", "value": seat["prestige"]},
                      {"label": "arcana", "value": len(seat["arcana"])},
                      {"label": "runes in pyramid", "value": pyramid["size"]}],
            "piles": [
                {"name": "egregors", "cards": [_egregor(cards, e["name"], e["runes"], e["name"] == seat["mask"])
                                               for e in seat["egregors"]]},
                {"name": "pyramid", "cards": _runes(pyramid["runes"] if mine else pyramid["known"],
                                                    *(() if mine else ("known",))),
                 "hidden": 0 if mine else pyramid["hidden"]},
                {"name": "arcana", "cards": [{"name": name, "count": 1, "detail": "",
                                              "text": arcana[name].text() if name in arcana else "", "tags": []}
                                             for name in seat["arcana"]]},
            ]})
    tops = [{"name": a["top"], "count": 1, "detail": f"stack {a['stack']}, {a['height']} high",
             "text": arcana[a["top"]].text() if a["top"] in arcana else "", "tags": []} for a in o["arcana"] if a["top"]]
    final = ([{"label": "final turns", "value": ", ".join(f"seat {s}" for s in o["final_turns"]) or "-"}]
             if o["announcer"] is not None else [])
    return {
        "facts": [{"label": "turn", "value": o["turn"]}, {"label": "active", "value": f"seat {o['active']}"},
                  {"label": "phase", "value": o["phase"]}, {"label": "bag", "value": o["bag"]},
                  {"label": "stack", "value": o["stack"]}, *final],
        "zones": [],
        "seats": seats,
        "piles": [{"name": "altar", "cards": _runes(o["altar"])},
                  {"name": "gallery", "cards": [_egregor(cards, name) for name in o["gallery"]]},
                  {"name": "arcana on top", "cards": tops},
                  {"name": "discard", "cards": [_egregor(cards, name) for name in o["discard"]]}],
    }


def move_steps(move: Move) -> tuple[str, ...]:
    """A move as the choices it is made of, in its notation's order (``place "Nodo" red3``:
    place, Nodo, red3)."""
    steps = [move.verb]
    for field in VERBS[move.verb]:
        value = getattr(move, field)
        steps.append(f"{value[0]}{value[1]}" if field == "runes" else str(value))
    return tuple(steps)
