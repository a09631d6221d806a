"""OMNIA for people: the card set as a table and as JSON (each card marked designed or printed), the
board from a seat's observation, the turn header and the result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from omen_search.games.omnia.cards import Card, CardSet

MARKS = {"printed": " ", "designed": "*"}


def describe_cards(cards: CardSet) -> str:
    """The banner's line: the set and how much of it is designed."""
    sources = cards.sources()
    return (f"cards: {cards.name} ({sources['designed']} of {len(cards.cards)} card designs designed; "
            "marked in `omen-search cards`)")


def _stats(card: Card) -> str:
    return f"{card.atk}/{card.defense}" if card.type == "hero" else ""


def cards_json(cards: CardSet) -> dict[str, Any]:
    """``omen-search cards --json``: every card with its ``source``."""
    return {
        "name": cards.name,
        "sha256": cards.sha256,
        "flavors": [{"name": f.name, "letter": f.letter, "theme": f.theme} for f in cards.flavors],
        "cards": [{"name": c.name, "set": c.set, "flavor": c.flavor, "type": c.kind_text(),
                   "cost": str(c.cost) if c.cost is not None else None, "stats": _stats(c) or None,
                   "prestige": c.prestige, "copies": c.copies, "copies_source": c.copies_source, "text": c.text,
                   "source": c.source, **({"note": c.note} if c.note else {})} for c in cards.cards],
    }


def _of_deck(flavor: str) -> Callable[[Card], bool]:
    return lambda c: c.set == "deck" and c.flavor == flavor


def cards_table(cards: CardSet) -> str:
    """``omen-search cards``: the set by part, designed cards marked ``*``."""
    lines = [f"{cards.name}  (sha256 {cards.sha256[:12]})   * = designed, unmarked = printed",
             "flavors: " + ", ".join(f"{f.name} ({f.letter}{', ' + f.theme if f.theme else ''})" for f in cards.flavors)]
    parts: list[tuple[str, Callable[[Card], bool]]] = [("Basic cards (each player)", lambda c: c.set == "basic"),
             ("Source stacks", lambda c: c.set == "stack")]
    parts += [(f"{f.name.capitalize()} flavor deck", _of_deck(f.name)) for f in cards.flavors]
    for title, keep in parts:
        lines += [f"\n{title}", f"   {'name':16} {'type':20} {'cost':6} {'stats':5} pres copies  text"]
        for c in cards.cards:
            if keep(c):
                copies = f"{c.copies}{'' if c.copies_source == 'designed' else ' (printed)'}"
                lines.append(f" {MARKS[c.source]} {c.name:16} {c.kind_text():20} {str(c.cost or '-'):6} "
                             f"{_stats(c):5} {c.prestige:4} {copies:7} {c.text or '-'}")
    return "\n".join(lines)


def _in_play(entry: dict[str, Any]) -> str:
    out = entry["name"]
    if "atk" in entry:
        out += f" {entry['atk']}/{entry['defense']}" + (f" ({entry['damage']} dmg)" if entry["damage"] else "")
    if entry.get("attached_to"):
        out += f" on #{entry['attached_to']}"
    return out


def _step(step: dict[str, Any]) -> str:
    """The choice waiting inside the turn, in words."""
    seat, kind = f"seat {step['seat']}", step["kind"]
    places = lambda key: ", ".join(f"#{k}" for k in step[key]) or "none"  # noqa: E731
    return {
        "priority": lambda: f"{seat} has priority ({step['passes']} passed in succession)",
        "defend": lambda: f"{seat} declares defenders against {step['attacker']} (chosen: {places('chosen')})",
        "assign": lambda: f"{seat} splits {step['attacker']}'s damage among the defenders {places('defenders')}",
        "target": lambda: f"{seat} chooses a target for {step['card']}",
        "pay": lambda: f"{seat} plays source to pay for {step['card']}'s ability",
        "cost": lambda: f"{seat} discards a card to cast a primed spell",
        "attach": lambda: f"{seat} attaches {step['card']} to a hero",
        "discard": lambda: f"{seat} discards ({step['left']} to go)",
        "remove": lambda: f"{seat} removes cards from the game ({step['left']} at most)",
        "trigger": lambda: f"{seat} chooses the next trigger of {', '.join(step['cards'])}",
    }.get(kind, lambda: f"{seat}: {kind}")()


def describe_observation(obs: dict[str, Any], you: bool = True) -> str:
    """The board as a seat sees it, in a few lines (``you``: the observing seat is marked)."""
    stacks = ", ".join(f"{f} {n}" for f, n in obs["source_stacks"].items())
    lines = [f"    shop row: {', '.join(obs['shop_row']) or '-'}; shop deck {obs['shop_deck']}; stacks: {stacks}"]
    if obs["flow"]:
        lines.append("    prime flow (bottom first): " + "; ".join(
            f"{f['kind']} {f['card']} by seat {f['seat']}{' (cancelled)' if f['cancelled'] else ''}" for f in obs["flow"]))
    if obs.get("step"):
        lines.append(f"    now: {_step(obs['step'])}")
    for seat in obs["players"]:
        mark = " (you)" if you and seat["seat"] == obs["player"] else ""
        hand = ", ".join(seat["hand"]) if isinstance(seat["hand"], list) else f"{seat['hand']} cards"
        primed = ", ".join(seat["primed"]) if isinstance(seat["primed"], list) else f"{seat['primed']} face down"
        pool = " ".join(f"{n}{f}" for f, n in seat["pool"].items()) or "0"
        lines.append(f"    seat {seat['seat']}{mark} {seat['flavor']}: life {seat['life']}, prestige {seat['prestige']}, "
                     f"source {pool}; deck {seat['deck']}, discard {len(seat['discard'])}; hand: {hand or '-'}; "
                     f"primed: {primed or '-'}")
        lines.append("        in play: " + ("; ".join(f"#{i + 1} {_in_play(e)}" for i, e in enumerate(seat["field"]))
                                         or "-"))
    return "\n".join(lines)


def turn_header(state: Any) -> str | None:
    return f"Turn {state.turns}: seat {state.active}"


def describe_result(state: Any) -> str:
    scores = state.scores()
    returns = state.returns()
    winners = [p for p, r in enumerate(returns) if r == max(returns)]
    how = "share the win" if len(winners) > 1 else "wins"
    down = [p for p in range(state.n) if state.life[p] <= 0]
    ending = f"seat {', '.join(map(str, down))} at 0 life" if down else "the turn limit"
    return (f"Game over after {state.turns} turns ({ending}): "
            + ", ".join(f"seat {p} {s} ({state.prestige(p)} prestige + {max(state.life[p], 0)} life)"
                        for p, s in enumerate(scores))
            + f"; seat{'s' if len(winners) > 1 else ''} {', '.join(map(str, winners))} {how}.")
