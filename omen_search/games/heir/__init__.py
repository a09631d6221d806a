"""Omen: Heir to the Dunes, two players or one against the Corrupted Heir.

:mod:`~omen_search.games.heir.rules` is the vocabulary both engines, the formats and the tools
share; :mod:`~omen_search.games.heir.reference` is the reference engine (the executable rulebook
the Cython core, ``ext/heir/``, is checked against move for move);
:mod:`~omen_search.games.heir.observe` is what one player can see of a game;
:mod:`~omen_search.games.heir.game` registers ``heir`` and ``heir-solo``.
"""
