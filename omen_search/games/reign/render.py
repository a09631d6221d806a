"""Readable text for people about a game of Reign of War: the board, a move, the result, the cards."""

from __future__ import annotations

from typing import Any

from omen_search.games.reign.cards import CardSet
from omen_search.games.reign.rules import CITIES


def _side(state: Any, city: int, p: int) -> str:
    units = [state.units[t].name + (f" x{n}" if n > 1 else "") for t, n in enumerate(state.cities[city][p]) if n]
    units += [state.units[t].name + " (Enraged)" + (f" x{n}" if n > 1 else "")
              for t, n in enumerate(state.enraged[city][p]) if n]
    return ", ".join(units) if units else "-"


def describe_board(state: Any, pov: int | None = None) -> str:
    """A few lines: each city with its reward cards, strength and units; each seat's coins, cards,
    feats and VP (seen from a seat, the opponent's VP counts their reward cards in hand, which are
    hidden in number only, so it is shown)."""
    lines = [f"    city{c} [{len(state.city_rewards[c])} rewards]  seat0 ({state.strength(c, 0)}): {_side(state, c, 0)}"
             f"  |  seat1 ({state.strength(c, 1)}): {_side(state, c, 1)}" for c in range(CITIES)]
    scores = state.scores()
    for p in (0, 1):
        feats = [f.name for f in state.cards.feats if state.feats[p][f.index]]
        lines.append(f"    seat{p}: {state.coins[p]} coins, {state.hand_size(p)} cards, "
                     f"rewards {len(state.rewards_hand[p])} in hand/{len(state.rewards_used[p])} used, "
                     f"feats {len(feats)}" + (f" ({', '.join(feats)})" if feats else "") + f" — {scores[p]} VP")
    piles = (f"decks {len(state.decks[0])}/{len(state.decks[1])}, discards {len(state.discards[0])}/"
             f"{len(state.discards[1])}") if state.config.own_decks else (
        f"deck {len(state.decks[0])}, discard {len(state.discards[0])}")
    lines.append(f"    {piles}, supply {state.supply()} coins")
    return "\n".join(lines)


def describe_move(state: Any, move: Any) -> str:
    """``seat 1 discard: discard "Satyr"``: the player about to make ``move`` and the kind of decision."""
    assert state.pending is not None, "describe_move: the game is over"
    return f"  seat {state.current_player} {state.pending.kind}: {move}"


def describe_result(state: Any) -> str:
    s = state.scores()
    w = state.winner()
    outcome = "a draw (R-score-2)" if w is None else f"seat {w} wins"
    return f"Game over after {state.turn} turns ({state.ply} plies): {s[0]}-{s[1]}, {outcome}."


def turn_header(state: Any) -> str:
    """``Turn 3: seat 1``, or the draft before the first turn."""
    if state.phase in ("draft", "sdraft"):
        return "Draft"
    return f"Turn {state.turn}: seat {state.active}"


def describe_cards(cards: CardSet) -> str:
    """The card set in a line, with how many of its cards are designed rather than printed."""
    designed = sum(1 for kind in (cards.units, cards.rewards, cards.feats) for c in kind if c.source == "designed")
    extra = f" ({designed} designed cards, marked in `omen-search cards`)" if designed else ""
    return f"cards: {cards.name}{extra}"


def cards_json(cards: CardSet) -> dict[str, Any]:
    """The card set as ``omen-search cards --json`` prints it, each card marked printed or designed."""
    return {
        "name": cards.name,
        "sha256": cards.sha256,
        "units": [{"name": u.name, "type": u.type, "circles": u.circles, "cost": u.cost, "strength": u.strength,
                   "offering": u.offering, "copies": u.copies, "source": u.source, "text": u.text,
                   **({"note": u.note} if u.note else {})} for u in cards.units],
        "rewards": [{"name": r.name, "copies": r.copies, "melee_copies": r.melee_copies, "source": r.source,
                     "text": r.text} for r in cards.rewards],
        "feats": [{"name": f.name, "source": f.source, "text": f.text, **({"note": f.note} if f.note else {})}
                  for f in cards.feats],
    }


def cards_table(cards: CardSet) -> str:
    """The card set as a table for people, designed cards marked ``*``."""
    def mark(source: str) -> str:
        return "*" if source == "designed" else " "

    lines = [f"{cards.name}  (sha256 {cards.sha256[:12]})   * = designed, not printed",
             f"\nUnits ({sum(u.copies for u in cards.units)} cards; o = beginner set)",
             f"   {'name':24} {'type':7} set cost str off  copies  text"]
    for u in cards.units:
        lines.append(f" {mark(u.source)} {u.name:24} {u.type:7} {'o ' if u.beginner else 'oo'}  {u.cost:4} "
                     f"{u.strength:3} {u.offering:3}  {u.copies:6}  {u.text}")
    lines.append(f"\nReward cards ({sum(r.copies for r in cards.rewards)})")
    for r in cards.rewards:
        lines.append(f" {mark(r.source)} {r.name:24} x{r.copies}  {r.text}")
    lines.append(f"\nFeats ({len(cards.feats)}, each player has all of them)")
    for f in cards.feats:
        lines.append(f" {mark(f.source)} {f.name:24} {f.text}")
    return "\n".join(lines)
