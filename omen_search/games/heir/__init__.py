"""Omen: Heir to the Dunes, two players or one against the Corrupted Heir.

:mod:`~omen_search.games.heir.rules` is the vocabulary both engines, the formats and the tools
share; :mod:`~omen_search.games.heir.observe` is what one player can see of a game.
"""
