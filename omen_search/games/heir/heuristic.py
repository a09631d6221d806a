"""The greedy bot's one-ply judgement of a Heir position: what a quick look at the table says."""

from __future__ import annotations

from omen_search.games.heir.rules import CITIES
from omen_search.games.heir.state import State


def evaluate(state: State, player: int) -> float:
    """The greedy bot's one-ply heuristic, from ``player``'s side: VP above all, a war it would win or
    lose now, then strength in the cities that still have reward tiles, cards in hand and coins; a
    finished game is decisive."""
    other = 1 - player
    if state.is_terminal():
        return 1000.0 if state.winner() == player else -1000.0
    scores = state.scores()
    treasured = [sum(n for t, n in enumerate(state.hands[q]) if state.units[t].treasured) for q in (0, 1)]
    # VP on the table count fully; TREASURED cards in hand only a little (they are better played)
    value = 3.0 * ((scores[player] - treasured[player]) - (scores[other] - treasured[other]))
    value += 0.5 * (treasured[player] - treasured[other])
    value += 0.25 * (state.hand_size(player) - state.hand_size(other))
    value += 0.4 * (state.coins[player] - state.coins[other])
    torn = state.war_torn_cities()
    for city in range(CITIES):
        if state.city_tiles[city]:
            lead = state.strength(city, player) - state.strength(city, other)
            value += 0.8 * lead
            if city in torn:  # a tile (2 VP) changes hands in this turn's War step
                value += 6.0 * ((lead > 0) - (lead < 0))
    return value
