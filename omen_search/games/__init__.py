"""The games this package plays, one folder each: a game's rules vocabulary and what its players see.

The search and the tools take a game through the State interface (:mod:`omen_search.state`) and
never name a game's cards, gods or phases; everything that does lives in the game's folder.
"""
