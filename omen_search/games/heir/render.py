"""Readable text for people: the board, a move with who made it, the final result."""

from __future__ import annotations

from typing import Any

from omen_search.games.heir.cards import CardSet
from omen_search.games.heir.notation import Move
from omen_search.games.heir.rules import CITIES
from omen_search.games.heir.state import State


def _side(state: State, city: int, p: int) -> str:
    units = [f"{state.units[t].name}" + (f" x{n}" if n > 1 else "") for t, n in enumerate(state.cities[city][p]) if n]
    return ", ".join(units) if units else "-"


def god_name(god: str) -> str:
    return god.capitalize()


def describe_board(state: State, pov: int | None = None) -> str:
    """A few lines: each city with its tiles, strength and units; each seat's resources and VP
    (only ``pov``'s own VP when the board is seen from a seat)."""
    lines = []
    for c in range(CITIES):
        lines.append(
            f"    city{c} [{len(state.city_tiles[c])} tiles]  "
            f"seat0 ({state.strength(c, 0)}): {_side(state, c, 0)}  |  seat1 ({state.strength(c, 1)}): {_side(state, c, 1)}"
        )
    scores = state.scores()

    def vp(p: int) -> str:
        return f" — {scores[p]} VP" if pov is None or p == pov else " — VP not known to you"

    for p in (0, 1):
        slot = state.building[p]
        structures = state.cards.structures_of(state.config.gods[p])
        building = f", building {structures[slot].name} ({sum(state.under[p])} under)" if slot >= 0 else ""
        done = [structures[s].name for s in range(3) if state.completed[p][s]]
        if state.config.solo and p == 1:  # the Corrupted Heir: a treasury and a reserve, no hand
            coins = f"{state.coins[p]} coins in its treasury, {state.reserve} in reserve"
            lines.append(f"    seat{p} {god_name(state.config.gods[p])} (Corrupted Heir): {coins}, "
                         f"tiles {len(state.unused[p])}{building}" + (f", completed {', '.join(done)}" if done else "")
                         + vp(p))
            continue
        lines.append(
            f"    seat{p} {god_name(state.config.gods[p])}: {state.coins[p]} coins, {state.hand_size(p)} cards, "
            f"tiles {len(state.unused[p])} unused/{len(state.used[p])} used{building}"
            + (f", completed {', '.join(done)}" if done else "")
            + vp(p)
        )
    lines.append(f"    favor: {god_name(state.favor)}; deck {len(state.deck)}, discard {len(state.discard)}")
    return "\n".join(lines)


def describe_move(state: State, move: Move) -> str:
    """``seat 1 (Horus) discard: discard "Temple Servant"`` for the player about to make ``move``;
    the word before the colon is the kind of decision (see docs/formats.md)."""
    p = state.current_player
    assert state.pending is not None, "describe_move: the game is over"
    return f"  seat {p} ({god_name(state.config.gods[p])}) {state.pending.kind}: {move}"


def describe_result(state: State) -> str:
    s = state.scores()
    w = state.winner()
    assert w is not None, "describe_result: the game is not over"
    return f"Game over after {state.turn} turns ({state.ply} plies): {s[0]}-{s[1]}, seat {w} ({god_name(state.config.gods[w])}) wins."


def describe_cards(cards: CardSet) -> str:
    """The card set in a line, with how many of its cards are designed rather than printed."""
    designed = sum(1 for u in cards.units if u.source == "designed")
    designed += sum(1 for r in cards.rewards if r.source == "designed")
    designed += sum(1 for s in cards.structures if s.source == "designed")
    extra = f" ({designed} designed cards, marked in `omen-search cards`)" if designed else ""
    return f"cards: {cards.name}{extra}"


def cards_json(cards: CardSet) -> dict[str, Any]:
    """The card set as ``omen-search cards --json`` prints it."""
    return {
        "name": cards.name,
        "sha256": cards.sha256,
        "units": [{"name": u.name, "type": u.type, "devotion": u.devotion, "cost": u.cost,
                   "strength": u.strength, "offering": u.offering, "keywords": sorted(u.keywords),
                   "copies": u.copies, "source": u.source, "text": u.text} for u in cards.units],
        "rewards": [{"name": r.name, "source": r.source, "text": r.text} for r in cards.rewards],
        "structures": [{"name": s.name, "god": s.god, "build": s.build, "vp": s.vp, "source": s.source,
                        "text": s.text} for s in cards.structures],
    }


def cards_table(cards: CardSet) -> str:
    """The card set as a table for people, designed cards marked ``*``."""
    def mark(source: str) -> str:
        return "*" if source == "designed" else " "

    lines = [f"{cards.name}  (sha256 {cards.sha256[:12]})   * = designed, not printed",
             f"\nUnits ({sum(u.copies for u in cards.units)} cards)",
             f"   {'name':22} {'type':9} {'devotion':8} cost str off  copies  text"]
    for u in cards.units:
        lines.append(f" {mark(u.source)} {u.name:22} {u.type:9} {u.devotion:8} {u.cost:4} {u.strength:3} {u.offering:3}  "
                     f"{u.copies:6}  {u.text}")
    lines.append(f"\nReward tiles ({len(cards.rewards)})")
    for r in cards.rewards:
        lines.append(f" {mark(r.source)} {r.name:24} {r.text}")
    lines.append("\nStructures")
    for s in cards.structures:
        lines.append(f" {mark(s.source)} {s.name:22} {god_name(s.god):6} BUILD {s.build}  {s.vp} VP  {s.text}")
    return "\n".join(lines)


def turn_header(state: State) -> str:
    """``Turn 3: seat 1 (Horus)``: the line a turn-by-turn log starts each turn with."""
    return f"Turn {state.turn}: seat {state.active} ({god_name(state.config.gods[state.active])})"


def describe_seats(state: State, players: list[str]) -> str:
    """``seat 0 greedy (Anubis) vs seat 1 random (Horus)``."""
    return " vs ".join(f"seat {i} {players[i]} ({god_name(state.config.gods[i])})" for i in (0, 1))
