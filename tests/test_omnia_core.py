"""OMNIA's Cython core against its reference engine: seeded random games move for move (legal moves
in order, every player's observation at every ply, scores and returns), worlds dealt alike,
positions arranged by hand copied to the core, undo and clone byte for byte, perft, the
determinisation of what a player cannot see (issue 19, point 4), the search and the random playouts
on the C contract, and the core refusing what it cannot hold.

``OMEN_OMNIA_DIFF_GAMES`` (default 3) sets the seeded games per player count of the differential
test (the long run: 2,000), ``OMEN_OMNIA_DET_GAMES`` (default 2) those of the determinisation test
(the long run: 60).
"""

from __future__ import annotations

import dataclasses
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_search._omnia_core import CoreState, limits, state_size
from omen_search.errors import CoreLimitError, UsageError
from omen_search.game import get_game
from omen_search.games.omnia.cards import default_cards
from omen_search.games.omnia.reference import OmniaState
from omen_search.games.omnia.rules import Config
from omen_search.perft import perft
from omen_search.rng import Rng

from core_helper import check_doors_refuse, check_ismcts_runs, check_run_playouts_replay, check_undo_and_clone
from omnia_helper import action_phase, hand, in_play, places, pool, primed

DIFF_GAMES = int(os.environ.get("OMEN_OMNIA_DIFF_GAMES", "3"))
DET_GAMES = int(os.environ.get("OMEN_OMNIA_DET_GAMES", "2"))
PLAYERS = (2, 3, 4)


def _both(seed: int, players: int, **config) -> tuple[OmniaState, CoreState]:
    cfg = Config(players=players, **config)
    return OmniaState.new(seed, config=cfg), CoreState.new(seed, config=cfg)


def _play_both(ref: OmniaState, core: CoreState, policy: Rng, where: str) -> int:
    """Random moves on both engines to the end, asserting they agree at every ply; the plies."""
    players = ref.n
    while True:
        legal = ref.legal_moves()
        assert core.legal_moves() == legal, f"{where} ply {ref.ply}"
        assert core.current_player == ref.current_player
        for p in range(players):
            assert core.observation(p) == ref.observation(p), f"{where} ply {ref.ply} seat {p}"
        if ref.is_terminal():
            break
        move = legal[policy.below(len(legal))]
        ref.apply_trusted(move)
        core.apply(move)
    assert core.scores() == ref.scores() and core.returns() == ref.returns()
    assert core.moves == ref.moves and core.is_terminal()
    return ref.ply


@pytest.mark.parametrize("players", PLAYERS)
def test_differential_core_plays_the_reference_game_move_for_move(players):
    plies = sum(_play_both(*_both(seed, players), Rng(seed), f"seed {seed}") for seed in range(DIFF_GAMES))
    assert plies > DIFF_GAMES * 100  # whole games were compared


@pytest.mark.parametrize("players,first", [(2, 1), (3, 2), (4, 3)])
def test_differential_with_another_first_player_other_flavors_and_a_turn_limit(players, first):
    flavors = ("dusk", "grove", "tide", "ember")[:players]
    for seed in range(2):
        _play_both(*_both(seed, players, first_player=first, max_turns=8 + seed, flavors=flavors), Rng(seed),
                   f"seed {seed}")


def _crowded(players: int, seed: int) -> OmniaState:
    """Seat 0's Action phase with every kind of card at work: triggers, Equipment, abilities, primed
    spells on both sides, a counter-spell, heroes to attack and defend with, source to spend."""
    state = action_phase(players, seed)
    hand(state, 0, "Pyre Knight", "Burning Blade", "Basic Source", "Purge", "Flame Lance")
    hand(state, 1, "Basic Source", "Tidal Insight", "Mend")
    for name in ("Ember Rite", "Deep Current", "Squire", "Cinder Drake", "War Drum"):
        in_play(state, 0, name)
    in_play(state, 0, "Shadow Cloak", on=state.field[0][2])
    for name in ("Nightfall", "Tide Sentinel", "Squire", "Wave Caller", "Night Blade", "Scrying Pool"):
        in_play(state, 1, name)
    primed(state, 0, "Hex")
    primed(state, 1, "Countercurrent")
    primed(state, 1, "Undertow")
    pool(state, 0, E=3, T=1)
    pool(state, 1, T=2, D=1)
    return state


@pytest.mark.parametrize("players", PLAYERS)
def test_differential_from_a_crowded_table_copied_to_the_core(players):
    """Every card text of the arranged table (triggers, defenders and damage assignment, counters,
    casts paid with source from hand) on both engines, from a position the reference was given."""
    for seed in range(4):
        ref = _crowded(players, seed)
        core = CoreState.from_state(ref)
        assert core.todo == ref.todo and core.ply == ref.ply
        _play_both(ref, core, Rng(seed), f"crowded seed {seed}")


@pytest.mark.parametrize("players", PLAYERS)
def test_a_reference_position_copied_to_the_core_has_the_same_face_and_future(players):
    for seed in range(4):
        ref = OmniaState.new(seed, config=Config(players=players))
        rng = Rng(seed)
        for _ in range(Rng(seed + 99).below(300)):
            if ref.is_terminal():
                break
            legal = ref.legal_moves()
            ref.apply_trusted(legal[rng.below(len(legal))])
        core = CoreState.from_state(ref)
        assert core.todo == ref.todo and core.moves == ref.moves and core.ply == ref.ply
        _play_both(ref, core, rng, f"copied seed {seed}")


def _random_core(seed: int, players: int) -> CoreState:
    return CoreState.new(seed, config=Config(players=players))


@pytest.mark.parametrize("players", PLAYERS)
def test_undo_restores_the_struct_byte_for_byte_and_a_clone_has_the_same_future(players):
    for seed in range(2):
        check_undo_and_clone(_random_core(seed, players), seed)


@settings(max_examples=6, deadline=None)
@given(players=st.sampled_from(PLAYERS), seed=st.integers(0, 2**64 - 1), policy=st.integers(0, 2**32))
def test_every_card_in_one_place_and_apply_undo_exact_at_every_ply_of_a_core_game(players, seed, policy):
    """Every card in exactly one place at every ply; each move undone gives the struct back byte for
    byte, and replayed gives the same position."""
    core = _random_core(seed, players)
    rng = Rng(policy)
    while not core.is_terminal():
        view = core.view()
        assert sorted(places(view)) == list(range(len(view.design)))
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
    most = 0
    for players in PLAYERS:
        core = _random_core(5, players)
        policy = Rng(5)
        while not core.is_terminal():
            n = core.trail_records()
            ids = core.legal_move_ids()
            core.apply_id(ids[policy.below(len(ids))])
            most = max(most, core.trail_records() - n)
    assert 0 < most <= 16384
    assert state_size() < 65536


@pytest.mark.parametrize("players,seed,depth", [(2, 1, 3), (3, 2, 3), (4, 3, 2)])
def test_perft_counts_agree(players, seed, depth):
    ref, core = _both(seed, players)
    policy = Rng(seed)
    for _ in range(30):  # into the game, with cards bought and in play
        legal = ref.legal_moves()
        move = legal[policy.below(len(legal))]
        ref.apply_trusted(move)
        core.apply(move)
    before = core.state_bytes()
    assert perft(core, depth) == perft(ref, depth)
    assert core.state_bytes() == before


def _check_world(ref: OmniaState, core: CoreState, player: int, seed: int) -> int:
    """The core's world for ``player`` is the reference's (the same cards dealt to the same places),
    shows ``player`` what he sees, keeps each opponent's unseen cards and deals only Prime spells
    face down; whether it changed anything."""
    world = core.determinized(player, seed)
    expected = ref.determinized(player, seed)
    assert [world.observation(p) for p in range(ref.n)] == [expected.observation(p) for p in range(ref.n)]
    assert world.observation(player) == core.observation(player)
    if core.current_player == player:
        assert world.legal_move_ids() == core.legal_move_ids()
    view, before = world.view(), core.view()
    assert sorted(places(view)) == list(range(len(view.design)))
    for q in range(ref.n):
        assert all(view.card(c).prime for c in view.primed[q])
        assert sorted(view.hand[q] + view.primed[q] + view.deck[q]) == sorted(
            before.hand[q] + before.primed[q] + before.deck[q])
    assert sorted(view.shop_deck) == sorted(before.shop_deck)
    return view.hand != before.hand or view.deck != before.deck


@pytest.mark.parametrize("players", PLAYERS)
def test_determinisation_is_the_references_and_shows_each_player_what_he_sees(players):
    """At every decision of DET_GAMES games, each seat's world on the core is the reference's world,
    with the same observation for him and every card in one place."""
    for seed in range(DET_GAMES):
        ref, core = _both(seed, players)
        policy = Rng(seed)
        changed = 0
        while not ref.is_terminal():
            if ref.ply % 3 == 0:
                for p in range(players):
                    changed += _check_world(ref, core, p, seed * 7919 + ref.ply)
            legal = ref.legal_moves()
            move = legal[policy.below(len(legal))]
            ref.apply_trusted(move)
            core.apply(move)
        assert changed > 0
    world = _random_core(1, players).determinized(0, 1)
    world.playout(3)
    assert world.is_terminal()


def test_determinisation_is_reproducible_and_leaves_the_game_alone():
    core = _random_core(3, 3)
    before = core.state_bytes()
    assert core.determinized(1, 9).state_bytes() == core.determinized(1, 9).state_bytes()
    assert core.state_bytes() == before
    with pytest.raises(UsageError):
        core.determinized(3, 0)


@pytest.mark.parametrize("players", PLAYERS)
def test_run_playouts_replays_the_reference_random_games(players):
    check_run_playouts_replay(_random_core(11, players),
                              lambda seed: OmniaState.new(seed, config=Config(players=players)))


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("mo", [False, True])
def test_ismcts_runs_on_the_core(players, mo):
    check_ismcts_runs(_random_core(2, players), mo)


def test_the_doors_refuse_what_is_not_legal():
    check_doors_refuse(_random_core(1, 2), "pass")


def test_the_game_plays_on_the_core_and_copies_a_reference_game_to_it():
    game = get_game("omnia-3")
    assert game.engines == ("core", "reference")
    ref = game.new_initial_state(5, engine="reference")
    for _ in range(40):
        ref.apply_trusted(ref.legal_moves()[0])
    core = game.to_core(ref)
    assert core.observation(1) == ref.observation(1) and core.ply == 40
    assert isinstance(game.new_initial_state(5), CoreState)
    with pytest.raises(UsageError):
        game.new_initial_state(5, engine="other")


# ------------------------------------------------------------------------------ the core's limits


def _bigger(cards, name: str, copies: int):
    """The card set with ``name`` in ``copies`` copies."""
    return dataclasses.replace(cards, cards=tuple(dataclasses.replace(c, copies=copies) if c.name == name else c
                                                  for c in cards.cards))


def test_a_deal_with_more_cards_than_the_core_holds_is_refused_and_plays_on_the_reference():
    cards = default_cards()
    for name in ("Kindle", "Tidal Insight", "Harvest", "Purge"):  # 37 more cards in each flavor deck
        cards = _bigger(cards, name, 40)
    assert CoreState.new(1, cards, Config(players=2)).view().design  # 2 x (10 + 67) cards fit
    with pytest.raises(CoreLimitError, match=f"has 308 cards; OMNIA's core holds at most {limits()['MAX_IDS']}"):
        CoreState.new(1, cards, Config(players=4))
    OmniaState.new(1, cards, Config(players=4))  # the reference engine plays it
    with pytest.raises(CoreLimitError, match="starting cards"):
        CoreState.new(1, _bigger(default_cards(), "Squire", 251))


def test_a_card_beyond_the_cores_numbers_is_refused():
    cards = default_cards()
    strong = dataclasses.replace(cards, cards=tuple(dataclasses.replace(c, atk=300) if c.name == "Squire" else c
                                                    for c in cards.cards))
    with pytest.raises(CoreLimitError, match="Squire"):
        CoreState.new(0, strong)


def test_a_game_that_grows_beyond_a_limit_stops_with_core_limit_error():
    """Seat 1 defends with more heroes than the core's MAX_LIST: the reference plays it, the core
    refuses the move that goes beyond and keeps the position."""
    ref = action_phase(2, 1)
    hand(ref, 0, "Basic Source")
    in_play(ref, 0, "Pyre Knight")
    defenders = ("Tide Sentinel",) * 3 + ("Wave Caller",) * 2 + ("Leviathan", "Squire", "Squire") \
        + ("Grove Warden",) * 3 + ("Thornback",) * 2 + ("Elder Treant",) + ("Dusk Stalker",) * 3 + ("Night Blade",)
    for name in defenders:
        in_play(ref, 1, name)
    assert len(defenders) > limits()["MAX_LIST"]
    core = CoreState.from_state(ref)
    for move in [str(m) for m in ref.legal_moves() if m.verb == "attack"][:1]:
        ref.apply(move)
        core.apply(move)
    for slot in range(1, limits()["MAX_LIST"] + 1):
        move = str(ref.legal_moves()[1])
        ref.apply(move)
        core.apply(move)
    before = core.state_bytes()
    move = str(ref.legal_moves()[1])
    with pytest.raises(CoreLimitError, match="limit of OMNIA's core"):
        core.apply(move)
    assert core.state_bytes() == before
    ref.apply(move)


def test_a_damage_assignment_of_more_moves_than_the_core_lists_stops_with_core_limit_error():
    """An attacker of Atk 1,252 blocked first by a hero of Def 1,254 (Equipment of +250 each): 1,253
    amounts to assign, more than the core's MAX_MOVES; the core refuses the move that leads there
    and keeps the position."""
    cards = default_cards()
    cards = dataclasses.replace(cards, cards=tuple(
        dataclasses.replace(c, copies=5, equip={**c.equip, "atk": 250}) if c.name == "Burning Blade"
        else dataclasses.replace(c, copies=5, equip={**c.equip, "def": 250}) if c.name == "Pearl Shield" else c
        for c in cards.cards))
    ref = OmniaState.new(1, cards, Config(players=2, first_player=0))
    hand(ref, 0, "Basic Source")
    hero = in_play(ref, 0, "Squire")
    for _ in range(5):
        in_play(ref, 0, "Burning Blade", on=hero)
    wall = in_play(ref, 1, "Tide Sentinel")
    for _ in range(5):
        in_play(ref, 1, "Pearl Shield", on=wall)
    in_play(ref, 1, "Squire")
    core = CoreState.from_state(ref)
    for move in ('attack "Squire" #1 seat1', 'defend "Tide Sentinel" #1'):
        ref.apply(move)
        core.apply(move)
    before = core.state_bytes()
    with pytest.raises(CoreLimitError, match="limit of OMNIA's core"):
        core.apply('defend "Squire" #7')
    assert core.state_bytes() == before


def test_from_state_refuses_what_the_core_cannot_hold():
    ref = OmniaState.new(1)
    ref.phase = "lunch"
    with pytest.raises(UsageError, match="state"):
        CoreState.from_state(ref)
    ref = OmniaState.new(1)
    ref.design += [0] * 200
    with pytest.raises(CoreLimitError, match="at most"):
        CoreState.from_state(ref)
    ref = OmniaState.new(1)  # the core clears damage at Clean-Up on the cards in play only
    ref.damage[ref.hand[0][0]] = 1
    with pytest.raises(UsageError, match="not in play"):
        CoreState.from_state(ref)
    ref = OmniaState.new(1)
    ref.attacked.add(10**6)
    with pytest.raises(UsageError, match="not in the game"):
        CoreState.from_state(ref)


def test_the_core_compiles_the_seed_edition():
    cards = default_cards()
    core = CoreState.new(0, cards)
    assert core.cards is cards and len(core.view().design) == 2 * 10 + 2 * 30
