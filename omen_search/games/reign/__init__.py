"""Omen: A Reign of War (second edition), two players: the game ``reign-of-war``.

Its card data (:mod:`~omen_search.games.reign.cards`, the built-in "Reign of War — seed edition"),
its rules vocabulary (:mod:`~omen_search.games.reign.rules`), move notation, the reference engine
(:mod:`~omen_search.games.reign.reference`, the executable rulebook, equal move for move to the
Cython core ``omen_search._reign_core`` built from ``ext/reign/``), what a player sees, positions,
text for people, the greedy heuristic, the adapters' actions and vectors and the :class:`Game`
object (:mod:`~omen_search.games.reign.game`), registered as ``reign-of-war``. The rules are
``docs/rules/reign-of-war.md`` (rulings ``R-…``) and the cards ``docs/rules/reign-of-war-cards.md``.
"""
