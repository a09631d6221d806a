"""The greedy bot's judgement of Reign of War (omen_search.games.reign.heuristic) on both engines."""

from __future__ import annotations

import pytest

from omen_search.bots import GreedyBot
from omen_search.game import get_game

GAME = get_game("reign-of-war")


@pytest.mark.parametrize("seed", range(1, 7))
def test_greedy_against_greedy_ends_by_the_rules_not_the_turn_cap(seed):
    """A bot that never plays a unit never makes a war: both greedy bots would pass every Surge and
    the game would run to the turn cap (what the judgement without presence did)."""
    state = GAME.new_initial_state(seed, engine="core")
    bots = [GreedyBot(seed, GAME), GreedyBot(seed + 100, GAME)]
    while not state.is_terminal():
        state.apply(bots[state.current_player].choose(state))
    assert state.turn < state.config.max_turns
    assert sum(len(city) for city in state.city_rewards) < 12  # wars were fought


@pytest.mark.parametrize("engine", ["core", "reference"])
def test_a_unit_on_the_table_is_worth_its_card_and_cost(engine):
    """From the first Surge with a unit play on offer, greedy plays a unit rather than ending the step."""
    for seed in range(1, 40):
        state = GAME.new_initial_state(seed, engine=engine)
        while not state.is_terminal() and not (state.phase == "surge" and any(
                m.verb == "play" for m in state.legal_moves())):
            state.apply(state.legal_moves()[-1] if state.phase == "offering" else state.legal_moves()[0])
        if state.is_terminal():
            continue
        player = state.current_player
        values = {}
        for move in state.legal_moves():
            child = state.clone()
            child.apply(move)
            values[str(move)] = GAME.evaluate(child, player)
        best = max(values, key=lambda name: values[name])
        assert best != "end", values
        return
    pytest.fail("no Surge with a unit play in 40 deals")
