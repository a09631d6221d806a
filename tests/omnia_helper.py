"""Positions of OMNIA for the ruling tests: a real deal at the first player's Action phase, then the
table arranged by moving cards from where they are (so that every card stays in one place)."""

from __future__ import annotations

from omen_search.games.omnia.reference import OmniaState
from omen_search.games.omnia.rules import Config


def action_phase(players: int = 2, seed: int = 1, **config) -> OmniaState:
    """A deal at seat 0's first Action phase, every hand and deck emptied into the discard stacks'
    reserve (the shop and the players' basics stay where they are)."""
    state = OmniaState.new(seed, config=Config(players=players, first_player=0, **config))
    assert not state.todo and state.phase == "action" and state.active == 0
    return state


def _zones(state: OmniaState) -> list[list[int]]:
    return ([state.shop_deck, *state.stacks.values(), state.row] + state.deck + state.hand + state.discard)


def take(state: OmniaState, name: str, owner: int) -> int:
    """A card of that name taken out of its place (the Shop deck first, then a source stack, the Shop
    Row, the owner's deck, hand and discard stack), now owned by ``owner``; a card of a flavor not in
    the game is made for the position (a new card, in no other place)."""
    for zone in [state.shop_deck, *state.stacks.values(), state.row, state.deck[owner], state.hand[owner],
                 state.discard[owner]]:
        for c in reversed(zone):
            if state.name(c) == name and state.owner[c] in (None, owner):
                zone.remove(c)
                state.owner[c] = owner
                if zone is state.row:
                    state._refill()
                return c
    design = state.cards.index(name)
    assert design is not None, name
    if state.cards.cards[design].flavor in [state.cards.flavors[f].name for f in state.flavor]:
        raise AssertionError(f"no {name} left for seat {owner}")
    return state._make(design, owner)


def clear_hand(state: OmniaState, seat: int) -> None:
    """Put a hand back on top of its deck."""
    state.deck[seat] += state.hand[seat]
    state.hand[seat] = []


def hand(state: OmniaState, seat: int, *names: str) -> list[int]:
    """Make ``names`` the seat's hand (the old hand goes back to the deck)."""
    clear_hand(state, seat)
    cards = [take(state, n, seat) for n in names]
    state.hand[seat] = cards
    return cards


def in_play(state: OmniaState, seat: int, name: str, on: int | None = None) -> int:
    """Put a card into the seat's playfield (an Equipment attached to hero ``on``)."""
    c = take(state, name, seat)
    state.field[seat].append(c)
    if on is not None:
        state.attached[c] = on
    return c


def primed(state: OmniaState, seat: int, name: str) -> int:
    c = take(state, name, seat)
    state.primed[seat].append(c)
    return c


def pool(state: OmniaState, seat: int, **amounts: int) -> None:
    """Set a source pool by flavor letter: ``pool(state, 0, E=2, T=1)``."""
    letters = state.letters()
    state.pool[seat] = [amounts.get(letter, 0) for letter in letters]


def moves(state: OmniaState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def places(state: OmniaState) -> list[int]:
    """Every card id where it is (a card being played or bought is on the Flow or in the queue)."""
    out = [c for zone in _zones(state) for c in zone]
    for p in range(state.n):
        out += state.field[p] + state.primed[p]
    out += state.removed + [it.card for it in state.flow if it.kind in ("play", "buy")]
    for step in state.todo:
        if step[0] in ("target", "put") and step[2].kind in ("play", "buy"):
            out.append(step[2].card)
        elif step[0] in ("to_discard", "attach"):
            out.append(step[2])
    return out
