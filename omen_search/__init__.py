"""omen_search: a game-playing and analysis engine for the Omen card games.

The front door: find a game, start one, search it, ask for advice, play a match, review a game.

>>> import omen_search
>>> [g.name for g in omen_search.all_games()][:2]
['heir', 'heir-solo']
>>> state = omen_search.get_game("heir").new_initial_state(seed=3)
>>> result = omen_search.ismcts(state, omen_search.Limit(iterations=200), seed=1)
>>> result.best in state.legal_moves()
True

The data flows one way: a game's folder (:mod:`omen_search.games`: card data, rules, the
reference engine and the core), found by name through :mod:`omen_search.game` → the search
(:mod:`omen_search.search`) → the tools (:mod:`omen_search.advisor`, :mod:`omen_search.match`,
:mod:`omen_search.analysis`, …) → the command line. The names below load their module when first
used, so ``import omen_search`` stays light and no layer imports one above it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from omen_search.errors import OmenError

if TYPE_CHECKING:
    from omen_search.advisor import Advice, Advisor
    from omen_search.analysis import GameReview, analyze_game
    from omen_search.game import Game, all_games, get_game
    from omen_search.match import MatchResult, play_match
    from omen_search.games.heir.cards import CardSet, default_cards, load_cards
    from omen_search.games.heir.notation import Move
    from omen_search.games.heir.positions import load_observation, load_position
    from omen_search.records import load_record
    from omen_search.search import Limit, SearchResult, ismcts

# name -> the module that defines it, imported on first use (PEP 562)
_LAZY = {
    "Game": "omen_search.game", "all_games": "omen_search.game", "get_game": "omen_search.game",
    "Limit": "omen_search.search", "SearchResult": "omen_search.search", "ismcts": "omen_search.search",
    "Advisor": "omen_search.advisor", "Advice": "omen_search.advisor",
    "play_match": "omen_search.match", "MatchResult": "omen_search.match",
    "analyze_game": "omen_search.analysis", "GameReview": "omen_search.analysis",
    "load_record": "omen_search.records",
    # Heir's own (the default game's) card sets, moves and documents
    "CardSet": "omen_search.games.heir.cards", "default_cards": "omen_search.games.heir.cards",
    "load_cards": "omen_search.games.heir.cards", "Move": "omen_search.games.heir.notation",
    "load_position": "omen_search.games.heir.positions", "load_observation": "omen_search.games.heir.positions",
}

__all__ = ["Advice", "Advisor", "CardSet", "Game", "GameReview", "Limit", "MatchResult", "Move", "OmenError",
           "SearchResult", "all_games", "analyze_game", "default_cards", "get_game", "ismcts", "load_cards",
           "load_observation", "load_position", "load_record", "play_match"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'omen_search' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
