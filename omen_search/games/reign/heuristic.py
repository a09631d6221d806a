"""The greedy bot's one-ply judgement of a Reign of War position: what a quick look at the table says."""

from __future__ import annotations

from typing import Any

from omen_search.games.reign.rules import CITIES

REWARD = 6.0  # a reward card won or lost in this turn's War step (2 VP, at 3 a VP)
SPARE = 0.3  # a card in hand or a coin
LEAD = 0.4  # a point of strength ahead in a city still to be fought over ...
LEAD_CAP = 6  # ... counted up to this many points either way
UNIT = 0.6  # a unit on your side of such a city ...
UNIT_CAP = 4  # ... counted up to this many (a fifth makes the city war-torn, R-war-1)


def evaluate(state: Any, player: int) -> float:
    """From ``player``'s side: VP above all (feats and reward cards), a war it would win or lose in
    this turn's War step, then presence in the other cities that still hold rewards, then cards in
    hand and coins; a finished game is decisive (a draw is 0).

    Presence is a capped strength lead and a capped unit count: a unit on the table must be worth
    its card and cost, or the bot never plays one (the version without it passed every Surge, so
    greedy against greedy reached the turn cap), and the caps keep it from piling units into a
    city it already holds instead of building towards the next war. Measured over 60 games:
    97% against random, 88% against the version without presence."""
    other = 1 - player
    if state.is_terminal():
        winner = state.winner()
        return 0.0 if winner is None else 1000.0 if winner == player else -1000.0
    scores = state.scores()
    value = 3.0 * (scores[player] - scores[other])
    value += SPARE * (state.hand_size(player) - state.hand_size(other) + state.coins[player] - state.coins[other])
    torn = state.war_torn_cities()
    rewards = state.city_rewards
    for city in range(CITIES):
        lead = state.strength(city, player) - state.strength(city, other)
        if city in torn:  # a reward card changes hands in this War step
            value += REWARD * ((lead > 0) - (lead < 0))
        elif rewards[city]:
            value += LEAD * max(-LEAD_CAP, min(LEAD_CAP, lead))
            value += UNIT * (min(UNIT_CAP, state.side_count(city, player)) - min(UNIT_CAP, state.side_count(city, other)))
    return value
