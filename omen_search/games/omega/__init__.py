"""OMEGA: the ritual, for 2 to 4 players (``--game omega``): hidden rune Pyramids, a bag that
refills all game, Egregors summoned and captured, the Ritual Disc and its Arcana.

``cards`` (the seed edition and card files), ``rules`` (the vocabulary and set-up), ``notation``
(moves), ``reference`` (the reference engine), ``observe`` (what a player knows), ``game`` (the
``Game`` objects, one per player count, registered on import).
"""
