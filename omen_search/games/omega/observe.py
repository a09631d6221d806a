"""What one OMEGA player knows (O-hidden-1 to O-hidden-3), as a JSON-ready dict: everything on the
table, the counts of every hidden zone, his own Pyramid whole and only the known part of the
others'. The tokens under each Arcana stack's top and the order of the Egregor stack are unknown to
everyone, so they appear only as counts."""

from __future__ import annotations

from typing import Any

from omen_search.games.omega.cards import KINDS
from omen_search.games.omega.rules import GAME

FORMAT = "omega-observation/1"


def runes(counts: list[int]) -> dict[str, int]:
    """Rune counts by kind name, zero kinds left out."""
    return {KINDS[k]: n for k, n in enumerate(counts) if n}


def observe(state: Any, player: int) -> dict[str, Any]:
    """``player``'s view of ``state`` (a reference state or anything with its fields)."""
    cards = state.cards
    name = lambda c: cards.egregors[c].name  # noqa: E731
    seats = []
    for q in range(state.n):
        pyramid: dict[str, Any]
        if q == player:
            pyramid = {"runes": runes(state.pyramid[q]), "known": runes(state.known[q]), "size": sum(state.pyramid[q])}
        else:
            known = state.known[q]
            pyramid = {"known": runes(known), "hidden": sum(state.pyramid[q]) - sum(known),
                       "size": sum(state.pyramid[q])}
        seats.append({
            "seat": q,
            "pyramid": pyramid,
            "egregors": [{"name": name(c), "runes": runes(state.carried[c])} for c in state.controlled[q]],
            "mask": name(state.mask[q]) if state.mask[q] is not None else None,
            "pawn": state.pawn[q] + 1,
            "prestige": state.prestige[q],
            "arcana": [cards.arcana[t].name for t in state.taken[q]],
            "lost_an_egregor": state.lost[q],
        })
    return {
        "format": FORMAT,
        "game": GAME,
        "players_count": state.n,
        "first_player": state.config.first_player,
        "max_turns": state.config.max_turns,
        "cards": cards.name,
        "player": player,
        "ply": state.ply,
        "turn": state.turns,
        "active": state.active,
        "phase": state.phase,
        "to_move": state.current_player,
        "step": step_json(state, state.todo[0]) if state.todo else None,
        "queue": [step_json(state, step) for step in state.todo],
        "this_turn": {
            "gained": name(state.gained) if state.gained is not None else None,
            "disowned": state.disowned,
            "mask_moved": state.mask_moved,
            "powers_used": [name(c) for c in sorted(state.used)],
        },
        "announcer": state.announcer,
        "final_turns": list(state.final),
        "bag": sum(state.bag),
        "altar": runes(state.altar),
        "gallery": [name(c) for c in state.gallery],
        "stack": len(state.stack),
        "discard": [name(c) for c in state.discard],
        "arcana": [{"stack": i + 1, "top": cards.arcana[s[-1]].name if s else None, "height": len(s)}
                   for i, s in enumerate(state.arcana)],
        "players": seats,
    }


def step_json(state: Any, step: tuple) -> dict[str, Any]:
    """One step of ``state``'s queue (the reference engine's tuple) as JSON: what the rules do
    next, all of it public (a rune drawn from the bag is drawn when its step comes), with the runes
    still on an Egregor being lost. ``positions`` reads it back."""
    kind, cards = step[0], state.cards
    name = lambda c: cards.egregors[c].name  # noqa: E731
    if kind == "bag_rest":
        return {"kind": kind, "egregor": name(step[1]), "how": step[2], "runes": runes(state.carried[step[1]])}
    out: dict[str, Any] = {"kind": kind, "seat": step[1]}
    if kind in ("proliferate", "lightning"):
        out["egregor"] = name(step[2])
    elif kind == "keep":
        out.update(egregor=name(step[2]), left=step[3], from_kind=KINDS[step[4]], runes=runes(state.carried[step[2]]))
    elif kind == "cycle":
        out.update(left=step[2], colour=KINDS[step[3]] if step[3] is not None else None, after=list(step[4]))
    elif kind == "key":
        out.update(keys=[name(c) for c in step[2]], revealed=[name(c) for c in step[3]],
                   chosen=[name(c) for c in sorted(step[4])])
    elif kind == "reveal":
        out.update(action=step[2], egregor=name(step[3]),
                   first=[KINDS[step[4][0]], step[4][1]] if step[4] is not None else None)
    elif kind == "gain":
        out.update(egregor=name(step[2]), runes=runes(list(step[3])), how=step[4])
    elif kind == "lose":
        out.update(egregor=name(step[2]), how=step[3])
    elif kind == "coloured_draw":
        out["colour"] = KINDS[step[2]]
    return out
