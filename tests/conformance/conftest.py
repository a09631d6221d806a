"""The conformance suite runs every test that takes a ``game`` once per registered game, and on
the toy game ``tricks`` (tests/toy_game) of 2, 3 and 4 players beside them.

The toy games are handed to the tests, not registered: the registry is the package's for the
whole test session, so other tests see exactly its games (``tests/test_game_registry.py`` checks
that a game from outside the package registers and is found). A game whose core cannot be built on
this machine (the toy core without a C compiler) is skipped.
"""

from __future__ import annotations

import pytest

from omen_search.game import Game, all_games
from toy_game.build import NoCompilerError
from toy_game.game import TOY_GAMES


# Known bugs, by test and game, each shown as an expected failure until it is fixed (not strict:
# a bug that needs a rare position may not show at the default size).
KNOWN_FAILURES: dict[tuple[str, str], str] = {}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "game" in metafunc.fixturenames:
        metafunc.parametrize("game", all_games() + TOY_GAMES, ids=lambda game: game.name, indirect=True)


@pytest.fixture
def game(request: pytest.FixtureRequest) -> Game:
    """The game under test, its core built (skips if it cannot be); a known failure is
    marked as expected."""
    game: Game = request.param
    known = KNOWN_FAILURES.get((request.node.originalname, game.name))
    if known:
        request.applymarker(pytest.mark.xfail(reason=known))
    try:
        game.new_initial_state(0, engine=game.engines[0])
    except NoCompilerError as exc:
        pytest.skip(str(exc))
    return game
