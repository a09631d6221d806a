"""The registered games in other frameworks: OpenSpiel games (:mod:`.openspiel`, ``pip install
"omen-search[openspiel]"``) and PettingZoo AEC environments (:mod:`.pettingzoo`, ``[pettingzoo]``),
both on a game's core and sharing what its adapter (:mod:`.spec`, ``game.adapter()``) gives them:
one fixed action space and one observation encoding."""
