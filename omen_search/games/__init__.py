"""The games this package plays, one folder each: a game's rules vocabulary and what its players see.

The search and the tools take a game by name through :mod:`omen_search.game` and the State
interface (:mod:`omen_search.state`), and never name a game's cards, gods or phases; everything
that does lives in the game's folder.
"""

# the modules that register the package's games (omen_search.game loads them on first use)
BUILTIN: tuple[str, ...] = ("omen_search.games.heir.game", "omen_search.games.reign.game",
                             "omen_search.games.melee.game", "omen_search.games.combined.game",
                             "omen_search.games.omega.game", "omen_search.games.omnia.game")
