"""A tiny N-player card game, "tricks", kept in the tests: it proves that the generic search
(``omen_search._search``) plays any game through the C contract (``ext/common/game_api.pxd``) for
2, 3 and 4 players, and gives a conformance suite and the tools a second game. See README.md.

Modules: ``vocabulary`` (cards, moves, deals), ``reference`` (the rules in Python),
``observation`` (what a seat knows, for both engines), ``_toy_core.pyx`` (the Cython core) and
``build`` (compiles the core for the tests).
"""
