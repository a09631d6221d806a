"""Reign of War's Cython core against the reference engine: the same game move for move in every
variant, undo and clone byte-exact, the card-set limits refused where they enter, and the search
running on the core.

``OMEN_REIGN_GAMES`` sets the seeded random games per set-up of the differential test (default 20;
the release check runs 2000), the ablated set-ups (a design left out, D-ablate-1) included.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from omen_search._reign_core import CoreState, state_size
from omen_search._search import perft, run_playouts
from omen_search.errors import IllegalMoveError, UsageError
from omen_search.games.reign.cards import CardSet, default_cards
from omen_search.games.reign.encoding import MoveCodec
from omen_search.games.reign.reference import GameState, Parts
from omen_search.games.reign.rules import Config
from omen_search.rng import Rng
from omen_search.search import Limit, ismcts
from reign_helper import dealt_decks, stack_decks

GAMES = int(os.environ.get("OMEN_REIGN_GAMES", "20"))


def _build_decks() -> tuple[tuple[str, ...], ...]:
    """Two legal Deck Building decks (R-build-1): 6 Soldiers and 4 Oracles, then 4 Beasts and 6 Soldiers."""
    units = default_cards().units
    soldiers = [u.name for u in units if u.type == "soldier"]
    beasts = [u.name for u in units if u.type == "beast"]
    oracles = [u.name for u in units if u.type == "oracle"]
    return (tuple(soldiers[:6] + oracles[:4]), tuple(beasts[:4] + soldiers[6:12]))


SETUPS = {
    "base": Config(),
    "beginner": Config(beginner=True),
    "skill": Config(deck="skill"),
    "draft": Config(deck="draft"),
    "sdraft": Config(deck="sdraft"),
    "emissary": Config(emissary=True),
    "build": Config(deck="build", decks=_build_decks(), first_player=1),
    "catch_up": Config(catch_up=True, beginner=True, max_turns=30),
    "given": Config(deck="given", decks=dealt_decks(1)),
    "given_stacks": Config(deck="given", decks=stack_decks(), first_player=1),
    "melee_table": Config(deck="given", decks=dealt_decks(2), coin_supply=20, emissary=True),
    "coins_20": Config(coin_supply=20),
}
# D-ablate-1: a set-up with one unit design left out (CardSet.without), a design of each type
ABLATED = {
    "base": "Augur of Zeus",
    "beginner": "Satyr",
    "skill": "Hydra",
    "draft": "Cerberus",
    "sdraft": "Myrmidon",
    "emissary": "Temple Guard",
}


def _same(ref: GameState, core: CoreState, ply: int) -> None:
    """Every part of the game, both observations and the scores are equal."""
    for field in Parts._FIELDS:
        assert getattr(core, field) == getattr(ref, field), f"ply {ply}: {field}"
    for p in (0, 1):
        assert core.observation(p) == ref.observation(p), f"ply {ply}: observation of seat {p}"
    assert core.scores() == ref.scores(), f"ply {ply}: scores"
    assert core.totals_ok(), f"ply {ply}: a running total of the core differs from its recount"


def _play_both(seed: int, config: Config, cards: CardSet | None = None) -> int:
    """A random game (``RandomBot(seed)``'s choices) on both engines, compared at every ply."""
    ref = GameState.new(seed, cards=cards, config=config)
    core = CoreState.new(seed, cards=cards, config=config)
    bot = Rng(seed)
    ply = 0
    while True:
        _same(ref, core, ply)
        moves = ref.legal_moves()
        assert core.legal_moves() == moves, f"ply {ply}: legal moves"
        if not moves:
            break
        move = moves[bot.below(len(moves))]
        ref.apply_trusted(move)
        core.apply(move)
        ply += 1
    assert core.is_terminal() and (core.winner(), core.returns()) == (ref.winner(), ref.returns())
    return ply


@pytest.mark.parametrize("name", list(SETUPS))
def test_core_plays_the_reference_game_move_for_move(name: str) -> None:
    for seed in range(GAMES):
        _play_both(seed, SETUPS[name])


@pytest.mark.parametrize("coins", [40, 20])
def test_core_plays_the_reference_game_move_for_move_with_decks_dealt_per_seed(coins: int) -> None:
    """A Grand Melee table's set-up (D-given-1, R-melee-3): each seed's game has its own given decks,
    30 cards each dealt from that seed, as after a Simplified draft."""
    for seed in range(GAMES):
        _play_both(seed, Config(deck="given", decks=dealt_decks(seed), coin_supply=coins, emissary=seed % 2 == 1))


@pytest.mark.parametrize("name", list(ABLATED))
def test_core_plays_the_reference_game_move_for_move_with_a_design_left_out(name: str) -> None:
    cards = default_cards().without(ABLATED[name])
    for seed in range(GAMES):
        _play_both(seed, SETUPS[name], cards)


@pytest.mark.parametrize("name", ["base", "sdraft", "draft", "emissary"])
def test_undo_restores_every_byte_and_a_clone_is_the_same_game(name: str) -> None:
    for seed in range(3):
        core = CoreState.new(seed, config=SETUPS[name])
        start = core.state_bytes()
        bot = Rng(seed)
        while not core.is_terminal():
            before = core.state_bytes()
            ids = core.legal_move_ids()
            move = ids[bot.below(len(ids))]
            twin = core.clone()
            core.apply_id(move)
            played = core.undo()
            assert core.state_bytes() == before and twin.state_bytes() == before
            core.apply_id(move)
            twin.apply(played)
            assert twin.state_bytes() == core.state_bytes()
        while core.moves:
            core.undo()
        assert core.state_bytes() == start


@pytest.mark.parametrize("name", list(SETUPS))
def test_running_totals_equal_a_recount_at_every_ply_and_after_undo(name: str) -> None:
    """The core's running totals (units per side; the sets of designs in hands and on sides) are kept
    by every write and restored by undo:
    checked against a recount at every ply of random games, after each undo and in determinised worlds."""
    for seed in range(40):
        core = CoreState.new(seed, config=SETUPS[name])
        bot = Rng(seed)
        while not core.is_terminal():
            assert core.totals_ok(), f"seed {seed}, ply {core.ply}"
            ids = core.legal_move_ids()
            move = ids[bot.below(len(ids))]
            if core.ply % 7 == 0:
                assert core.determinized(core.ply % 2, seed).totals_ok(), f"seed {seed}, ply {core.ply}: a world"
                core.apply_id(move)
                assert core.totals_ok(), f"seed {seed}, ply {core.ply}"
                core.undo()
                assert core.totals_ok(), f"seed {seed}, ply {core.ply}: after undo"
            core.apply_id(move)
        assert core.totals_ok()


def _units_shown(state: Any) -> Counter[int]:
    """How often each unit design shows in a game, wherever: its cards in decks, piles, hands,
    cities, emissaries, packs and picks, revealed, awaiting a keep or set aside as the Beast; the
    drafts' pool (Card Drafting's stacks, Simplified Drafting's cards) and stacks drafted; the
    own decks' lists and what the opponent knows of them."""
    shown: Counter[int] = Counter()
    for cards in (*state.decks, *state.discards, state.pool, *state.drafted):
        shown.update(cards)
    counts = [*state.hands, *state.packs, *state.deck_lists, *state.deck_known, state.revealed, state.limbo,
              state.limbo_enraged, *(side for city in (*state.cities, *state.enraged) for side in city)]
    for zone in counts:
        shown.update({t: n for t, n in enumerate(zone) if n})
    shown.update(t for t in (*state.emissaries, *state.chosen, state.beast) if t >= 0)
    return shown


@pytest.mark.parametrize("name", list(SETUPS) + [f"{name} without {unit}" for name, unit in ABLATED.items()])
def test_determinized_deals_what_the_reference_deals(name: str) -> None:
    """The same draws in the same order: equal worlds for every seat at every ply, each observed by
    its seat as the true game; a world never holds a card of a design left out (D-ablate-1)."""
    base, _, ablate = name.partition(" without ")
    setup = SETUPS[base]
    cards = default_cards().without(ablate) if ablate else None
    gone = default_cards().unit(ablate).index if ablate else -1
    for seed in range(2):
        ref = GameState.new(seed, cards=cards, config=setup)
        core = CoreState.new(seed, cards=cards, config=setup)
        bot = Rng(seed)
        while not ref.is_terminal():
            assert _units_shown(ref)[gone] == 0, f"ply {ref.ply}: a card of {ablate!r} is in the game"
            for p in (0, 1):
                world, core_world = ref.determinized(p, 7 * ref.ply + p), core.determinized(p, 7 * ref.ply + p)
                for field in Parts._FIELDS:
                    assert getattr(core_world, field) == getattr(world, field), f"ply {ref.ply}, seat {p}: {field}"
                assert core_world.observation(p) == core.observation(p)
                assert _units_shown(world)[gone] == 0, f"ply {ref.ply}, seat {p}: a world deals {ablate!r}"
            moves = ref.legal_moves()
            move = moves[bot.below(len(moves))]
            ref.apply_trusted(move)
            core.apply(move)


@pytest.mark.parametrize("name", ["base", "draft", "sdraft", "emissary"])
def test_from_state_is_the_same_position_on_the_core(name: str) -> None:
    ref = GameState.new(4, config=SETUPS[name])
    core = CoreState.new(4, config=SETUPS[name])
    bot = Rng(4)
    while not ref.is_terminal():
        copy = CoreState.from_state(ref)
        assert copy.totals_ok(), f"ply {ref.ply}: from_state's running totals"
        for field in Parts._FIELDS:
            assert getattr(copy, field) == getattr(core, field), f"ply {ref.ply}: {field}"
        assert copy.legal_move_ids() == core.legal_move_ids()
        moves = ref.legal_moves()
        move = moves[bot.below(len(moves))]
        ref.apply_trusted(move)
        core.apply(move)


def test_a_state_beyond_the_cores_fields_is_refused_naming_the_part() -> None:
    ref = GameState.new(2)
    ref.discards[0] = [0] * 200
    with pytest.raises(UsageError, match=r"discards\[0\]"):
        CoreState.from_state(ref)


def test_move_ids_round_trip_through_the_encoding() -> None:
    codec = MoveCodec(default_cards())
    core = CoreState.new(5, config=SETUPS["emissary"])
    bot = Rng(5)
    while not core.is_terminal():
        ids = core.legal_move_ids()
        assert [codec.encode(m) for m in core.legal_moves()] == ids
        core.apply_id(ids[bot.below(len(ids))])


def test_an_illegal_move_is_refused_naming_the_move_player_and_ply() -> None:
    core = CoreState.new(1)
    ref = GameState.new(1)
    for move in ('play "Satyr" city0', "end", 'use "Trojan Horse"', 'keep "Cyclops" enraged'):
        with pytest.raises(IllegalMoveError) as core_error:
            core.apply(move)
        with pytest.raises(IllegalMoveError) as ref_error:
            ref.apply(move)
        assert str(core_error.value) == str(ref_error.value)
    assert core.ply == 0


@pytest.mark.parametrize("name", list(SETUPS))
def test_random_playouts_in_c_are_the_reference_games_of_random_bots(name: str) -> None:
    """The C playout loop (which counts the moves of some decisions instead of listing them) draws
    the moves the reference engine's random games draw, in every set-up."""
    scores, plies = run_playouts(CoreState.new(0, config=SETUPS[name]), GAMES, seed=100)
    for i in range(GAMES):
        ref = GameState.new(100 + i, config=SETUPS[name])
        bot = Rng(100 + i)
        while not ref.is_terminal():
            moves = ref.legal_moves()
            ref.apply_trusted(moves[bot.below(len(moves))])
        assert (tuple(scores[i]), plies[i]) == (ref.scores(), ref.ply)


def _reference_perft(state: GameState, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for move in state.legal_moves():
        state.apply_trusted(move)
        total += _reference_perft(state, depth - 1)
        state.undo()
    return total


@pytest.mark.parametrize("name", ["base", "sdraft", "emissary"])
def test_perft_counts_the_reference_tree(name: str) -> None:
    ref = GameState.new(3, config=SETUPS[name])
    assert perft(CoreState.new(3, config=SETUPS[name]), 4) == _reference_perft(ref, 4)


def test_card_sets_beyond_the_cores_limits_are_refused_naming_the_limit() -> None:
    cards = default_cards()
    too_many = replace(cards, units=cards.units + tuple(replace(u, index=50 + u.index) for u in cards.units[:1]),
                       sha256="too-many-designs")
    with pytest.raises(UsageError, match="MAX_UNIT_DESIGNS"):
        CoreState.new(0, too_many)
    rich = replace(cards, units=tuple(replace(u, offering=31) for u in cards.units), sha256="rich-offerings")
    with pytest.raises(UsageError, match="move lists"):
        CoreState.new(0, rich)
    with pytest.raises(UsageError, match="Card Drafting"):
        CoreState.new(0, replace(cards, units=cards.units[:19], sha256="few-designs"), Config(deck="draft"))


def test_the_state_is_one_flat_struct_a_trail_can_undo() -> None:
    assert 0 < state_size() <= 65535
    assert len(CoreState.new(0).state_bytes()) == state_size()


@pytest.mark.parametrize("mo", [False, True])
def test_ismcts_plays_a_game_on_the_core(mo: bool) -> None:
    core = CoreState.new(11, config=Config(deck="sdraft", max_turns=8))
    while not core.is_terminal():
        result = ismcts(core, Limit(iterations=200), seed=core.ply, mo=mo)
        assert result.best in core.legal_moves()
        core.apply(result.best)
    assert core.winner() in (0, 1, None)
