"""Determinisation on the core: what a player cannot see is dealt again, what they can see is kept.

Modelled on OpenSpiel's ResampleInfostateTest: at every decision of many random games, each
determinisation shows the player exactly the observation of the true state.
"""

from __future__ import annotations

from collections import Counter

import pytest

from omen_search._core import CoreState
from omen_search.errors import UsageError
from omen_search.games.heir.observe import observe
from omen_search.games.heir.positions import to_position
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.rules import Config
from omen_search.rng import Rng


def _cards_everywhere(state) -> Counter:
    counts = Counter(state.deck) + Counter(state.discard)
    for zone in (state.hands, state.under):
        for p in (0, 1):
            counts += Counter({t: n for t, n in enumerate(zone[p]) if n})
    for city in state.cities:
        for side in city:
            counts += Counter({t: n for t, n in enumerate(side) if n})
    counts += Counter({t: n for t, n in enumerate(state.revealed) if n})
    counts += Counter({t: n for t, n in enumerate(state.limbo) if n})
    counts += Counter(e for e in state.emissaries if e >= 0)
    return counts


@pytest.mark.parametrize("config", [Config(), Config(emissary=True), Config(first_player=1)])
def test_resample_keeps_the_players_observation(config):
    full = Counter({u.index: u.copies for u in CoreState.new().units})
    for seed in range(20):
        state = CoreState.new(seed=seed, config=config)
        rng = Rng(seed)
        while not state.is_terminal():
            for p in (0, 1):
                d = state.determinized(p, seed=state.ply * 2 + p)
                assert observe(d, p) == observe(state, p), (seed, state.ply, p)
                assert _cards_everywhere(d) == full
                if state.current_player == p:
                    assert d.legal_moves() == state.legal_moves()
            ids = state.legal_move_ids()
            state.apply_id(ids[rng.below(len(ids))])


@pytest.mark.parametrize("config", [Config(), Config(emissary=True, first_player=1), Config(level="hard")])
def test_the_reference_engine_deals_the_same_worlds_as_the_core(config):
    """The determinisation's Python twin: at every ply, for each seat, the same seed deals the same
    world on both engines, the reference's world shows the seat what the state shows it, and the
    state itself is left as it was."""
    for seed in range(5):
        core, reference = CoreState.new(seed=seed, config=config), GameState.new(seed=seed, config=config)
        rng = Rng(seed)
        while not core.is_terminal():
            before = to_position(reference)
            for p in (0, 1):
                world = reference.determinized(p, seed=reference.ply * 2 + p)
                assert to_position(world) == to_position(core.determinized(p, seed=reference.ply * 2 + p))
                assert observe(world, p) == observe(reference, p)
                assert world.moves == [] and world.history == []
            assert to_position(reference) == before
            moves = core.legal_moves()
            move = moves[rng.below(len(moves))]
            core.apply(move)
            reference.apply_trusted(move)


def _mid_discard_positions(count: int) -> list[GameState]:
    """Positions in which a player has discarded some of several cards and must discard more."""
    found: list[GameState] = []
    for seed in range(200):
        state = GameState.new(seed=seed)
        rng = Rng(seed)
        while not state.is_terminal() and len(found) < count:
            d = state.pending
            if d is not None and d.kind == "discard" and d.last > 0:
                found.append(state.clone())
            moves = state.legal_moves()
            state.apply_trusted(moves[rng.below(len(moves))])
        if len(found) >= count:
            return found
    raise AssertionError("no position in the middle of a discard of several cards")


def test_an_opponent_part_way_through_a_discard_can_go_on_in_every_world():
    """Its picks run in unit order (pending.last, which the other player sees), so its new hand must
    hold its remaining picks from that unit up: every world of the other player leaves it a legal
    move, shows the other player what the state shows, and is the same on both engines."""
    for state in _mid_discard_positions(6):
        other = 1 - state.pending.player
        core = CoreState.from_state(state)
        for seed in range(40):
            world = state.determinized(other, seed)
            assert world.legal_moves(), (state.seed, state.ply, seed)
            assert observe(world, other) == observe(state, other)
            assert to_position(world) == to_position(core.determinized(other, seed))


def test_resample_changes_what_is_hidden():
    state = CoreState.new(seed=5)
    opp_hands = {tuple(state.determinized(0, seed=s).hands[1]) for s in range(50)}
    decks = {tuple(state.determinized(0, seed=s).deck) for s in range(50)}
    tiles = {tuple(map(tuple, state.determinized(0, seed=s).city_tiles)) for s in range(50)}
    assert len(opp_hands) > 10 and len(decks) == 50 and len(tiles) > 10
    # the player's own hand never changes
    assert {tuple(state.determinized(0, seed=s).hands[0]) for s in range(50)} == {tuple(state.hands[0])}


def test_resample_is_uniform_over_the_unseen_cards():
    """Each unseen copy is equally likely to be in the opponent's hand."""
    state = CoreState.new(seed=8)
    unseen = Counter(state.deck) + Counter({t: n for t, n in enumerate(state.hands[1]) if n})
    hidden = sum(state.hands[1])
    draws = 4000
    seen = Counter()
    for s in range(draws):
        seen += Counter({t: n for t, n in enumerate(state.determinized(0, seed=s).hands[1]) if n})
    total_unseen = sum(unseen.values())
    for t, copies in unseen.items():
        expected = draws * hidden * copies / total_unseen
        assert abs(seen[t] - expected) < 5 * expected ** 0.5 + 5, (t, seen[t], expected)


def test_resample_keeps_publicly_known_cards():
    """A card known to be in the opponent's hand (revealed to it) stays there in every resample."""
    state = CoreState.new(seed=0)
    rng = Rng(3)
    while not any(state.known[1]) and not state.is_terminal():
        ids = state.legal_move_ids()
        state.apply_id(ids[rng.below(len(ids))])
    assert any(state.known[1])
    for s in range(30):
        d = state.determinized(0, seed=s)
        assert all(d.hands[1][t] >= n for t, n in enumerate(state.known[1]))


@pytest.mark.parametrize("engine", [CoreState, GameState])
def test_resample_is_reproducible_and_validated(engine):
    state = engine.new(seed=2)
    assert observe(state.determinized(1, seed=9), 0) == observe(state.determinized(1, seed=9), 0)
    with pytest.raises(UsageError, match="player"):
        state.determinized(2, seed=1)
    with pytest.raises(UsageError, match="seed"):
        state.determinized(0, seed=-1)
