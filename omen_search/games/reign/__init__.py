"""Omen: A Reign of War (second edition), two players: so far its card data only.

:mod:`~omen_search.games.reign.cards` reads and validates Reign of War card files (Soldiers, Beasts
and Oracles, reward cards, feats, the Grand Melee's Match/Victory cards) and holds the built-in
"Reign of War — seed edition". The rules are ``docs/rules/reign-of-war.md`` (rulings ``R-…``) and
the cards ``docs/rules/reign-of-war-cards.md``. There is no rules engine yet, so the game is not
registered (:data:`omen_search.games.BUILTIN`) and no command plays it.
"""
