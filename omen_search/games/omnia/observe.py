"""What one OMNIA player knows (N-hidden-1, N-hidden-2), as a JSON-ready dict: life, pools, discard
stacks, playfields, the Shop Row, the source stacks and the Prime Flow; his own hand and primed
spells by name, the others' as counts; every deck and the Shop deck as counts (their order is
unknown to everyone, their owner included)."""

from __future__ import annotations

from typing import Any

from omen_search.games.omnia.rules import GAME

FORMAT = "omnia-observation/1"


def _in_play(state: Any, c: int) -> dict[str, Any]:
    card = state.card(c)
    out: dict[str, Any] = {"name": card.name}
    if card.type == "hero":
        out.update(atk=state.atk(c), defense=state.defense(c), damage=state.damage.get(c, 0),
                   attacked=c in state.attacked)
    if card.type == "equipment":
        hero = state.attached.get(c)
        out["attached_to"] = state.slot(hero) if hero is not None else None
    if card.ability is not None and card.ability.once:
        out["used"] = c in state.used
    return out


def _target(state: Any, target: tuple[str, int] | None) -> Any:
    if target is None:
        return None
    kind, value = target
    if kind == "player":
        return {"player": value}
    if kind == "flow":
        return {"flow": next((i + 1 for i, it in enumerate(state.flow) if it.uid == value), None)}
    seat = state.controller(value)
    return {"hero": state.name(value), "seat": seat, "slot": state.slot(value) if seat is not None else None}


def observe(state: Any, player: int) -> dict[str, Any]:
    """``player``'s view of ``state`` (a reference state or anything with its fields)."""
    name = state.name
    letters = state.letters()
    seats = []
    for q in range(state.n):
        own = q == player
        seats.append({
            "seat": q,
            "flavor": state.cards.flavors[state.flavor[q]].name,
            "life": state.life[q],
            "pool": {letters[f]: n for f, n in enumerate(state.pool[q]) if n},
            "prestige": state.prestige(q),
            "hand": [name(c) for c in state.hand[q]] if own else len(state.hand[q]),
            "primed": [name(c) for c in state.primed[q]] if own else len(state.primed[q]),
            "deck": len(state.deck[q]),
            "discard": [name(c) for c in state.discard[q]],
            "field": [_in_play(state, c) for c in state.field[q]],
        })
    return {
        "format": FORMAT,
        "game": GAME,
        "players_count": state.n,
        "max_turns": state.config.max_turns,
        "cards": state.cards.name,
        "player": player,
        "ply": state.ply,
        "turn": state.turns,
        "active": state.active,
        "phase": state.phase,
        "to_move": state.current_player,
        "step": _step(state),
        "shop_row": [name(c) for c in state.row],
        "shop_deck": len(state.shop_deck),
        "source_stacks": {state.cards.flavors[f].name: len(s) for f, s in state.stacks.items()},
        "flow": [{"kind": it.kind, "seat": it.player, "card": name(it.card), "target": _target(state, it.target),
                  "defenders": [state.slot(h) for h in it.defenders if state.controller(h) is not None],
                  "cast": it.cast, "cancelled": it.cancelled} for it in state.flow],
        "removed": [name(c) for c in state.removed],
        "players": seats,
    }


def _step(state: Any) -> dict[str, Any] | None:
    """The choice waiting inside the queue (None: an Action-phase move, or the game is over)."""
    if not state.todo:
        return None
    step = state.todo[0]
    kind, seat = step[0], step[1]
    out: dict[str, Any] = {"kind": kind, "seat": seat}
    if kind in ("pay", "target"):
        out["card"] = state.name(step[2].card)
    elif kind == "defend":
        out.update(attacker=state.name(step[2].card), chosen=[state.slot(h) for h in step[3]])
    elif kind == "assign":
        out.update(attacker=state.name(step[2]), defenders=[state.slot(h) for h in step[4]], given=list(step[5]))
    elif kind in ("discard", "remove"):
        out["left"] = step[2]
    elif kind == "trigger":
        out["cards"] = [state.name(c) for c in step[2]]
    elif kind == "priority":
        out["passes"] = step[2]
    elif kind == "attach":
        out["card"] = state.name(step[2])
    return out
