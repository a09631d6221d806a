"""The import contracts of ``pyproject.toml`` hold: data flows one way, from the card data through the
rules, the engines, the formats and the search to the tools and the command line, and a game never
imports the search or the tools (style practices 1 and 12).

The check runs import-linter (``lint-imports``) with the ``[tool.importlinter]`` settings. It is
skipped, saying why, where it cannot run: import-linter not installed, or the tests run without the
source tree that holds ``pyproject.toml``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent  # the directory that holds pyproject.toml


def test_the_import_contracts_are_kept() -> None:
    pytest.importorskip("importlinter", reason="import-linter is not installed (it is in the 'test' extra)")
    if not (ROOT / "pyproject.toml").is_file():
        pytest.skip(f"no source tree at {ROOT} (pyproject.toml) to read the contracts from")
    # in a process of its own: import-linter prints through a console that an earlier test's
    # captured (and since closed) stderr must not be, and it puts the working directory on sys.path
    check = ("import sys; from importlinter.cli import lint_imports; "
             f"sys.exit(lint_imports(config_filename={str(ROOT / 'pyproject.toml')!r}, no_cache=True, no_logo=True))")
    done = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"an import contract is broken:\n{done.stdout}{done.stderr}"
