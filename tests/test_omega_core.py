"""OMEGA's Cython core against its reference engine: seeded random games move for move (legal moves
in order, every player's observation at every ply, scores and returns), undo and clone byte for
byte, perft, the determinisation of what a player cannot see (issue 18, point 4), the search and
the random playouts on the C contract, and the core's doors refusing what is not legal.

``OMEN_OMEGA_DIFF_GAMES`` (default 20) sets the seeded games per player count of the differential
test (the long run: 2,000), ``OMEN_OMEGA_DET_GAMES`` (default 4) those of the determinisation test
(the long run: 60).
"""

from __future__ import annotations

import dataclasses
import os
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_search._omega_core import CoreState, state_size
from omen_search.errors import UsageError
from omen_search.game import get_game
from omen_search.games.omega.cards import default_cards
from omen_search.games.omega.reference import OmegaState
from omen_search.games.omega.rules import Config
from omen_search.perft import perft
from omen_search.rng import Rng

from core_helper import check_doors_refuse, check_ismcts_runs, check_run_playouts_replay, check_undo_and_clone
from omega_helper import invariants

DIFF_GAMES = int(os.environ.get("OMEN_OMEGA_DIFF_GAMES", "20"))
DET_GAMES = int(os.environ.get("OMEN_OMEGA_DET_GAMES", "4"))
PLAYERS = (2, 3, 4)


def _both(seed: int, players: int, **config: int) -> tuple[OmegaState, CoreState]:
    cfg = Config(players=players, **config)
    return OmegaState.new(seed, config=cfg), CoreState.new(seed, config=cfg)


def _compare_game(seed: int, players: int, **config: int) -> int:
    """Plays seed's random game on both engines, asserting they agree at every ply; its plies."""
    ref, core = _both(seed, players, **config)
    policy = Rng(seed)
    while True:
        legal = ref.legal_moves()
        assert [str(m) for m in core.legal_moves()] == [str(m) for m in legal], f"seed {seed} ply {ref.ply}"
        assert core.current_player == ref.current_player
        for p in range(players):
            assert core.observation(p) == ref.observation(p), f"seed {seed} ply {ref.ply} seat {p}"
        if ref.is_terminal():
            break
        move = legal[policy.below(len(legal))]
        ref.apply_trusted(move)
        core.apply(move)
    assert core.scores() == ref.scores() and core.returns() == ref.returns()
    assert core.moves == ref.moves
    return ref.ply


@pytest.mark.parametrize("players", PLAYERS)
def test_differential_core_plays_the_reference_game_move_for_move(players):
    plies = sum(_compare_game(seed, players) for seed in range(DIFF_GAMES))
    assert plies > DIFF_GAMES * 100  # whole games were compared


@pytest.mark.parametrize("players,first", [(2, 1), (3, 2), (4, 3)])
def test_differential_with_another_first_player_and_a_turn_limit(players, first):
    for seed in range(3):
        _compare_game(seed, players, first_player=first, max_turns=10 + seed)


def _edge_sets() -> dict:
    base = default_cards()
    keys = tuple(e for e in base.egregors if e.power == "key")
    return {
        "a disc of 2 squares": dataclasses.replace(base, squares=2),  # an Arcanum at every step
        "26 runes": dataclasses.replace(base, runes=(5, 5, 5, 5, 3, 3)),  # the bag runs dry
        "8 Egregors, the Keys first": dataclasses.replace(
            base, egregors=(keys + tuple(e for e in base.egregors if e.power != "key"))[:8]),  # reshuffles
        "64 runes of each kind": dataclasses.replace(base, runes=(64,) * 6),
    }


@pytest.mark.parametrize("name", list(_edge_sets()))
def test_differential_on_card_sets_at_the_edges(name):
    cards = _edge_sets()[name]
    for players in PLAYERS:
        for seed in range(2):
            ref = OmegaState.new(seed, cards, Config(players=players))
            core = CoreState.new(seed, cards, Config(players=players))
            policy = Rng(seed)
            while not ref.is_terminal():
                legal = ref.legal_moves()
                assert [str(m) for m in core.legal_moves()] == [str(m) for m in legal], f"{name} {seed} {ref.ply}"
                assert core.observation(players - 1) == ref.observation(players - 1)
                move = legal[policy.below(len(legal))]
                ref.apply_trusted(move)
                core.apply(move)
            assert core.scores() == ref.scores() and core.is_terminal()


def _random_core(seed: int, players: int) -> CoreState:
    return CoreState.new(seed, config=Config(players=players))


@pytest.mark.parametrize("players", PLAYERS)
def test_undo_restores_the_struct_byte_for_byte_and_a_clone_has_the_same_future(players):
    for seed in range(3):
        check_undo_and_clone(_random_core(seed, players), seed)


@settings(max_examples=8, deadline=None)
@given(players=st.sampled_from(PLAYERS), seed=st.integers(0, 2**64 - 1), policy=st.integers(0, 2**32))
def test_conservation_limits_and_apply_undo_at_every_ply_of_a_core_game(players, seed, policy):
    """155 runes, 42 Egregors, 42 Arcana, an Egregor's limits at every ply; each move undone gives the
    struct back byte for byte and replayed gives the same position."""
    core = _random_core(seed, players)
    rng = Rng(policy)
    while not core.is_terminal():
        invariants(core)
        before = core.state_bytes()
        ids = core.legal_move_ids()
        move = ids[rng.below(len(ids))]
        core.apply_id(move)
        after = core.state_bytes()
        core.undo()
        assert core.state_bytes() == before
        core.apply_id(move)
        assert core.state_bytes() == after
    assert sum(core.returns()) == pytest.approx(1.0)


def test_the_trail_of_one_move_stays_within_its_bound():
    """Every apply fits the trail records the C table announces (perft reports an overflow)."""
    core = _random_core(5, 4)
    policy = Rng(5)
    most = 0
    while not core.is_terminal():
        n = core.trail_records()
        ids = core.legal_move_ids()
        core.apply_id(ids[policy.below(len(ids))])
        most = max(most, core.trail_records() - n)
    assert 0 < most <= 2048
    assert state_size() < 65536


@pytest.mark.parametrize("players,seed,depth", [(2, 1, 3), (2, 4, 4), (3, 2, 3), (4, 3, 3)])
def test_perft_counts_agree(players, seed, depth):
    ref, core = _both(seed, players)
    for _ in range(25):  # into a Main phase with choices
        move = ref.legal_moves()[-1]
        ref.apply_trusted(move)
        core.apply(move)
    before = core.state_bytes()
    assert perft(core, depth) == perft(ref, depth)
    assert core.state_bytes() == before


def _unseen_counts(state, player: int) -> list[int]:
    return [state.bag[k] + sum(state.pyramid[q][k] - state.known[q][k] for q in range(state.n) if q != player)
            for k in range(6)]


def _check_world(core: CoreState, world: CoreState, player: int) -> None:
    assert world.observation(player) == core.observation(player)
    if core.current_player == player:
        assert world.legal_move_ids() == core.legal_move_ids()
    assert world.legal_move_ids()  # another player in the middle of a reveal can finish it
    assert _unseen_counts(world, player) == _unseen_counts(core, player)  # the unseen runes, re-dealt
    for q in range(core.n):
        assert sum(world.pyramid[q]) == sum(core.pyramid[q])
        assert all(world.pyramid[q][k] >= world.known[q][k] for k in range(6))
    assert world.pyramid[player] == core.pyramid[player]
    assert sorted(world.stack) == sorted(core.stack)
    assert Counter(t for s in world.arcana for t in s) == Counter(t for s in core.arcana for t in s)
    assert [s[-1:] for s in world.arcana] == [s[-1:] for s in core.arcana]


@pytest.mark.parametrize("players", PLAYERS)
def test_determinisation_shows_each_player_the_same_observation_at_every_decision(players):
    """At every decision of DET_GAMES games, each seat's world: same observation, the same runes
    unseen by him (dealt again, counts kept), the same cards and tokens, and it plays on to an end."""
    for seed in range(DET_GAMES):
        core = _random_core(seed, players)
        policy = Rng(seed)
        changed = 0
        while not core.is_terminal():
            for p in range(players):
                world = core.determinized(p, seed * 7919 + core.ply)
                _check_world(core, world, p)
                changed += world.pyramid != core.pyramid or world.stack != core.stack
            ids = core.legal_move_ids()
            core.apply_id(ids[policy.below(len(ids))])
        assert changed > 0
        world = _random_core(seed, players).determinized(0, 1)
        world.playout(3)
        assert world.is_terminal()


def test_determinisation_is_reproducible_and_leaves_the_game_alone():
    core = _random_core(3, 3)
    before = core.state_bytes()
    assert core.determinized(1, 9).state_bytes() == core.determinized(1, 9).state_bytes()
    assert core.state_bytes() == before
    with pytest.raises(UsageError):
        core.determinized(3, 0)


def test_d_omega_10_a_world_keeps_what_a_reveal_under_way_has_shown():
    """Runes a player is revealing (his ``with``) are known to all: a world deals them back to him,
    and he can finish his summon or capture there."""
    found = 0
    for seed in range(40):
        core = _random_core(seed, 2)
        policy = Rng(seed)
        while not core.is_terminal() and found < 3:
            step = core.todo[0] if core.todo else None
            if step and step[0] == "reveal" and step[4] is not None:
                kind, n = step[4]
                for other in range(2):
                    world = core.determinized(1 - step[1], seed + other)
                    assert world.pyramid[step[1]][kind] >= n and world.legal_move_ids()
                    world.playout(1)
                found += 1
            ids = core.legal_move_ids()
            core.apply_id(ids[policy.below(len(ids))])
    assert found


@pytest.mark.parametrize("players", PLAYERS)
def test_run_playouts_replays_the_reference_random_games(players):
    check_run_playouts_replay(_random_core(11, players),
                              lambda seed: OmegaState.new(seed, config=Config(players=players)))


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("mo", [False, True])
def test_ismcts_runs_on_the_core(players, mo):
    check_ismcts_runs(_random_core(2, players), mo)


def test_the_doors_refuse_what_is_not_legal():
    check_doors_refuse(_random_core(1, 2), "end")


def test_the_game_plays_on_the_core_and_copies_a_reference_game_to_it():
    game = get_game("omega-3")
    assert game.engines == ("core", "reference")
    ref = game.new_initial_state(5, engine="reference")
    for _ in range(40):
        ref.apply_trusted(ref.legal_moves()[0])
    core = game.to_core(ref)
    assert core.observation(1) == ref.observation(1) and core.ply == 40
    assert isinstance(game.new_initial_state(5), CoreState)
    with pytest.raises(UsageError):
        game.new_initial_state(5, engine="other")


@pytest.mark.parametrize("players", PLAYERS)
def test_a_reference_position_copied_to_the_core_has_the_same_face_and_future(players):
    for seed in range(6):
        ref = OmegaState.new(seed, config=Config(players=players))
        rng = Rng(seed)
        for _ in range(Rng(seed + 99).below(300)):
            if ref.is_terminal():
                break
            legal = ref.legal_moves()
            ref.apply_trusted(legal[rng.below(len(legal))])
        core = CoreState.from_state(ref)
        assert core.todo == ref.todo and core.moves == ref.moves and core.ply == ref.ply
        while True:
            assert [str(m) for m in core.legal_moves()] == [str(m) for m in ref.legal_moves()]
            assert [core.observation(p) for p in range(players)] == [ref.observation(p) for p in range(players)]
            if ref.is_terminal():
                break
            legal = ref.legal_moves()
            move = legal[rng.below(len(legal))]
            ref.apply_trusted(move)
            core.apply(move)
        assert core.scores() == ref.scores()


def test_from_state_refuses_what_the_core_cannot_hold():
    ref = OmegaState.new(1)
    ref.bag[0] = 300
    with pytest.raises(UsageError, match="bag"):
        CoreState.from_state(ref)
    ref = OmegaState.new(1)
    ref.controlled[0] = [0, 1, 2, 3, 4, 5]
    with pytest.raises(UsageError, match="controlled"):
        CoreState.from_state(ref)
    ref = OmegaState.new(1)
    ref.gallery.append(99)
    with pytest.raises(UsageError, match="gallery"):
        CoreState.from_state(ref)
    ref = OmegaState.new(1)
    ref.known[1][0] = ref.pyramid[1][0] + 1
    with pytest.raises(UsageError, match="known"):
        CoreState.from_state(ref)
    ref = OmegaState.new(1)
    ref.phase = "lunch"
    with pytest.raises(UsageError, match="state"):
        CoreState.from_state(ref)


@pytest.mark.parametrize("edit", [
    lambda c: dataclasses.replace(c, squares=1),
    lambda c: dataclasses.replace(c, runes=(1, 1, 1, 1, 1, 1)),
    lambda c: dataclasses.replace(c, egregors=c.egregors[:3]),
    lambda c: dataclasses.replace(c, egregors=(dataclasses.replace(c.egregors[0], thrust=250),) + c.egregors[1:]),
    lambda c: dataclasses.replace(c, egregors=(dataclasses.replace(c.egregors[0], colour=9),) + c.egregors[1:]),
])
def test_a_card_set_built_beyond_the_file_limits_is_refused(edit):
    with pytest.raises(UsageError, match="beyond the limits"):
        CoreState.new(0, edit(default_cards()))


def test_the_core_compiles_the_seed_edition():
    cards = default_cards()
    core = CoreState.new(0, cards)
    assert core.cards is cards and len(core.stack) == len(cards.egregors) - 4
