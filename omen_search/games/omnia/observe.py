"""What one OMNIA player knows (N-hidden-1, N-hidden-2), as a JSON-ready dict: life, pools, discard
stacks, playfields, the Shop Row, the source stacks, the Prime Flow and the steps the rules take
next; his own hand and primed spells by name, the others' as counts; every deck and the Shop deck
as counts (their order is unknown to everyone, their owner included). Which cards a seat holds
unseen (another's hand, primed spells and deck; one's own deck) is public as a multiset, since every
card enters and leaves those zones face up: it is each seat's ``unseen``, sorted by name.
``positions`` reads an observation back."""

from __future__ import annotations

from typing import Any

from omen_search.games.omnia.cards import OPERATION_LISTS
from omen_search.games.omnia.rules import GAME

FORMAT = "omnia-observation/1"


def _in_play(state: Any, c: int) -> dict[str, Any]:
    card = state.card(c)
    out: dict[str, Any] = {"name": card.name}
    if card.type == "hero":
        out.update(atk=state.atk(c), defense=state.defense(c), damage=state.damage.get(c, 0),
                   attacked=c in state.attacked, pumped=state.pumped.get(c, 0), unblockable=c in state.unblockable)
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
            "unseen": sorted(map(name, state.deck[q] if own else state.hand[q] + state.primed[q] + state.deck[q])),
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
        "step": step_json(state, state.todo[0]) if state.todo else None,
        "queue": [step_json(state, step) for step in state.todo],
        "shop_row": [name(c) for c in state.row],
        "shop_deck": len(state.shop_deck),
        "source_stacks": {state.cards.flavors[f].name: len(s) for f, s in state.stacks.items()},
        "flow": [item_json(state, it) for it in state.flow],
        "removed": [name(c) for c in state.removed],
        "players": seats,
    }


def _slot(state: Any, c: int) -> int | None:
    """A card's place in a playfield, None once it has left play."""
    return state.slot(c) if state.controller(c) is not None else None


def item_json(state: Any, it: Any) -> dict[str, Any]:
    """An action on the Flow or on its way there; ``slot`` is the attacker's or the activated
    card's place (a card played or bought is on the Flow itself)."""
    return {"kind": it.kind, "seat": it.player, "card": state.name(it.card),
            "slot": _slot(state, it.card) if it.kind in ("attack", "activate") else None,
            "target": _target(state, it.target),
            "defenders": [state.slot(h) for h in it.defenders if state.controller(h) is not None],
            "cast": it.cast, "cancelled": it.cancelled}


def step_json(state: Any, step: tuple) -> dict[str, Any]:
    """One step of the queue (the reference engine's tuple), all of it public: the choice waiting
    at its front or what the rules do after it."""
    kind, seat = step[0], step[1]
    out: dict[str, Any] = {"kind": kind, "seat": seat}
    if kind in ("pay", "target", "put"):
        out.update(card=state.name(step[2].card), item=item_json(state, step[2]))
    elif kind == "defend":
        out.update(attacker=state.name(step[2].card), chosen=[state.slot(h) for h in step[3]],
                   item=item_json(state, step[2]))
    elif kind in ("assign", "strike"):
        out.update(attacker=state.name(step[2]), attacker_slot=_slot(state, step[2]), defending=step[3],
                   defenders=[state.slot(h) for h in step[4]], given=list(step[5]))
    elif kind in ("discard", "remove"):
        out["left"] = step[2]
    elif kind == "trigger":
        out.update(cards=[state.name(c) for c in step[2]], slots=[_slot(state, c) for c in step[2]])
    elif kind == "priority":
        out["passes"] = step[2]
    elif kind in ("attach", "to_discard"):
        out["card"] = state.name(step[2])
    elif kind == "effect":
        card = state.card(step[4])
        ops, index = card.operation_place(step[2])
        out.update(card=card.name, text=OPERATION_LISTS[ops], index=index, target=_target(state, step[3]))
    return out
