"""Positions of OMEGA for the ruling tests: a real deal brought to the active player's Main phase,
then the table arranged with the runes moved from the bag (so that the 155 runes stay counted)."""

from __future__ import annotations

from omen_search.games.omega.cards import KINDS
from omen_search.games.omega.reference import OmegaState
from omen_search.games.omega.rules import Config


def runes(**counts: int) -> list[int]:
    """Rune counts by kind name: ``runes(red=2, white=1)``."""
    return [counts.get(k, 0) for k in KINDS]


def main_phase(players: int = 2, seed: int = 1, **config: int) -> OmegaState:
    """A deal at the first player's Main phase (his Draw taken from the bag)."""
    state = OmegaState.new(seed, config=Config(players=players, **config))
    state.apply("draw bag")
    assert not state.todo and state.phase == "main"
    return state


def card(state: OmegaState, name: str) -> int:
    index = state.cards.egregor_index(name)
    assert index is not None, name
    return index


def _take_from_bag(state: OmegaState, counts: list[int]) -> None:
    for k, n in enumerate(counts):
        short = n - state.bag[k]
        if short > 0:  # the bag ran short: take from the Altar
            moved = min(short, state.altar[k])
            state.altar[k] -= moved
            state.bag[k] += moved
        assert state.bag[k] >= n, f"not enough {KINDS[k]} runes for the position"
        state.bag[k] -= n


def set_pyramid(state: OmegaState, seat: int, counts: list[int], known: list[int] | None = None) -> None:
    """Empty ``seat``'s Pyramid into the bag, then fill it with ``counts`` (``known`` of them public)."""
    for k in range(6):
        state.bag[k] += state.pyramid[seat][k]
    state.pyramid[seat] = [0] * 6
    _take_from_bag(state, counts)
    state.pyramid[seat] = list(counts)
    state.known[seat] = list(known or [0] * 6)


def give(state: OmegaState, seat: int, name: str, counts: list[int] | None = None, mask: bool = False) -> int:
    """Put Egregor ``name`` in front of ``seat`` carrying ``counts`` (taken from the bag)."""
    c = card(state, name)
    for zone in (state.gallery, state.stack, state.discard):
        if c in zone:
            zone.remove(c)
    counts = counts or [0] * 6
    _take_from_bag(state, counts)
    state.controlled[seat].append(c)
    state.carried[c] = list(counts)
    if mask:
        state.mask[seat] = c
    return c


def to_gallery(state: OmegaState, name: str) -> int:
    """Make ``name`` one of the Gallery's cards (swapped with the stack)."""
    c = card(state, name)
    if c in state.gallery:
        return c
    for zone in (state.stack, state.discard):
        if c in zone:
            zone.remove(c)
    state.stack.append(state.gallery.pop(0))  # the oldest card makes room: an earlier one placed stays
    state.gallery.append(c)
    return c


def total_runes(state: OmegaState) -> int:
    return sum(state.bag) + sum(state.altar) + sum(map(sum, state.pyramid)) + sum(map(sum, state.carried.values()))


def moves(state: OmegaState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def set_altar(state: OmegaState, counts: list[int]) -> None:
    """Return the Altar's runes to the bag, then lay ``counts`` on it from the bag."""
    for k in range(6):
        state.bag[k] += state.altar[k]
    state.altar = [0] * 6
    _take_from_bag(state, counts)
    state.altar = list(counts)


def stack_top(state: OmegaState, *names: str) -> None:
    """Put Egregors on top of the stack, the first named on top."""
    for name in reversed(names):
        c = card(state, name)
        for zone in (state.stack, state.discard, state.gallery):
            if c in zone:
                zone.remove(c)
        state.stack.append(c)
