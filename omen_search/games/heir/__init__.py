"""Omen: Heir to the Dunes, two players or one against the Corrupted Heir.

:mod:`~omen_search.games.heir.cards` is the card data and :mod:`~omen_search.games.heir.notation`
the move notation; :mod:`~omen_search.games.heir.rules` is the vocabulary both engines, the
formats and the tools share; :mod:`~omen_search.games.heir.observe` is what one player can see
of a game and :mod:`~omen_search.games.heir.state` the State protocol both engines follow;
:mod:`~omen_search.games.heir.reference` is the reference engine (the executable rulebook the
Cython core, ``ext/heir/``, is checked against move for move) and
:mod:`~omen_search.games.heir.engines` deals on either; :mod:`~omen_search.games.heir.positions`
and :mod:`~omen_search.games.heir.render` are its documents and its text for people,
:mod:`~omen_search.games.heir.heuristic` the greedy bot's judgement and
:mod:`~omen_search.games.heir.adapter` (with ``actions`` and ``encoding``) what the OpenSpiel and
PettingZoo adapters need; :mod:`~omen_search.games.heir.game` registers ``heir`` and
``heir-solo`` with the hooks the tools call.
"""
