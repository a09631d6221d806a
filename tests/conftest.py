"""Shared fixtures and settings for the test suite.

Hypothesis runs with no deadline everywhere (CI machines are slow and uneven) and, under CI
(``CI`` set in the environment), derandomized with no example database, so that a CI run is
reproducible: the same commit draws the same examples.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from positions_helper import seed_card_text

settings.register_profile("dev", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, database=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(scope="session")
def seed_toml() -> str:
    """The text of the built-in card file, read from the installed package."""
    return seed_card_text()


@pytest.fixture
def write_cards(tmp_path: Path) -> Callable[[str], Path]:
    """Write a card file's text to ``tmp_path/cards.toml`` and return its path."""

    def write(text: str, name: str = "cards.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


@pytest.fixture
def tricks(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The toy game ``tricks-3`` (tests/toy_game) registered for this test only, in a copy of the
    registry that holds the package's games first, as a user's registry does (its core built, or
    the test skipped)."""
    import omen_search.game as registry
    from toy_game.build import NoCompilerError
    from toy_game.game import ToyGame

    game = ToyGame(3)
    try:
        game.new_initial_state(0, engine="core")
    except NoCompilerError as exc:
        pytest.skip(str(exc))
    registry.all_games()
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    return registry.register(game)
