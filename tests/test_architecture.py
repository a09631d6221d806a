"""The import contracts of ``pyproject.toml`` hold: data flows one way, from the card data through the
rules, the engines, the formats and the search to the tools and the command line, and a game never
imports the search or the tools (style practices 1 and 12).

The check runs import-linter (``lint-imports``) with the ``[tool.importlinter]`` settings. It is
skipped, saying why, where it cannot run: import-linter not installed, or the tests run without the
source tree that holds ``pyproject.toml``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent  # the directory that holds pyproject.toml


def test_the_import_contracts_are_kept(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("importlinter", reason="import-linter is not installed (it is in the 'test' extra)")
    from importlinter.cli import EXIT_STATUS_SUCCESS, lint_imports

    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip(f"no source tree at {ROOT} (pyproject.toml) to read the contracts from")
    monkeypatch.setattr(sys, "path", list(sys.path))  # lint_imports puts the working directory first
    status = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True, no_logo=True)
    assert status == EXIT_STATUS_SUCCESS, f"an import contract is broken:\n{capsys.readouterr().out}"
