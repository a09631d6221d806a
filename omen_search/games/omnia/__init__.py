"""OMNIA (We The Bards), deck building for 2 to 4 players (``--game omnia``): each player's deck
changes all game, a shared Shop, heroes that attack and defend, and the Prime Flow, a stack where
every player may answer out of turn.

``cards`` (the seed edition and card files), ``rules`` (the vocabulary and set-up), ``notation``
(moves), ``reference`` (the reference engine), ``observe`` (what a player knows), ``positions`` (a
position dealt from what a player knows, for the advisor), ``render`` (for people), ``heuristic`` (the greedy bot's judgement), ``game`` (the ``Game`` objects, one per player
count, registered on import). The Cython core is ``ext/omnia/_omnia_core.pyx``.
"""
