"""OMNIA's greedy bot (``omen_search.games.omnia.heuristic``): it plays its source, buys the dearest
card it can pay for, plays its heroes and attacks when the damage is worth the hero that cycles;
its judgement is the same on both engines, and it beats random play."""

from __future__ import annotations

import pytest

from omen_search._omnia_core import CoreState
from omen_search.bots import GreedyBot, RandomBot
from omen_search.game import get_game
from omen_search.games.omnia.heuristic import evaluate
from omen_search.games.omnia.reference import OmniaState
from omen_search.games.omnia.rules import Config
from omen_search.rng import Rng

from omnia_helper import action_phase, clear_hand, hand, in_play, pool

GAME = get_game("omnia")


def choice(state: OmniaState) -> str:
    return str(GreedyBot(1, GAME).choose(state))


def test_greedy_plays_its_source_before_it_ends_the_turn():
    state = action_phase()
    hand(state, 0, "Basic Source", "Basic Source")
    assert choice(state) == 'source "Basic Source"'


def test_greedy_buys_the_dearest_card_it_can_pay_for():
    state = action_phase()
    clear_hand(state, 0)
    pool(state, 0, E=6)
    offered = [state.card(c) for c in state.row] + [state.card(s[-1]) for s in state.stacks.values()]
    payable = [c for c in offered if state.can_pay(0, c.cost, False)]
    move = choice(state)
    assert move.startswith("buy ")
    bought = next(c for c in payable if f'"{c.name}"' in move)
    assert bought.cost.total == max(c.cost.total for c in payable)


def test_greedy_plays_a_hero_and_attacks_a_player_without_defenders():
    state = action_phase()
    hand(state, 0, "Squire")
    assert choice(state) == 'play "Squire"'
    state = action_phase()
    clear_hand(state, 0)
    in_play(state, 0, "Pyre Knight")
    assert choice(state) == 'attack "Pyre Knight" #1 seat1'


@pytest.mark.parametrize("players", [2, 4])
def test_the_judgement_is_the_same_on_both_engines(players):
    ref = OmniaState.new(3, config=Config(players=players))
    core = CoreState.new(3, config=Config(players=players))
    rng = Rng(3)
    while not ref.is_terminal():
        if ref.ply % 7 == 0:
            assert [evaluate(core, p) for p in range(players)] == [evaluate(ref, p) for p in range(players)]
        legal = ref.legal_moves()
        move = legal[rng.below(len(legal))]
        ref.apply_trusted(move)
        core.apply(move)
    assert [evaluate(core, p) for p in range(players)] == [evaluate(ref, p) for p in range(players)]


def test_greedy_beats_random_play():
    wins = 0.0
    for seed in range(6):
        for seat in (0, 1):
            state = CoreState.new(seed, config=Config(players=2))
            bots = [RandomBot(seed), RandomBot(seed)]
            bots[seat] = GreedyBot(seed, GAME)
            while not state.is_terminal():
                state.apply(bots[state.current_player].choose(state))
            wins += state.returns()[seat]
    assert wins >= 10
