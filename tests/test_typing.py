"""mypy passes on the package, so the type hints (and the State protocol both engines must satisfy)
stay true as the code changes.

The check runs ``python -m mypy`` in the source tree with the ``[tool.mypy]`` settings of
``pyproject.toml``. It is skipped, saying why, where it cannot run: mypy not installed, or the tests
run without the source tree (e.g. against an installed wheel).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent  # the directory that holds pyproject.toml


def test_mypy_reports_no_errors() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (it is in the 'test' extra)")
    if not (ROOT / "pyproject.toml").is_file() or not (ROOT / "omen_search").is_dir():
        pytest.skip(f"no source tree at {ROOT} (pyproject.toml and omen_search/) to type-check")
    result = subprocess.run(
        [sys.executable, "-m", "mypy"],  # files and options come from [tool.mypy] in pyproject.toml
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"mypy failed (exit {result.returncode}):\n{result.stdout}{result.stderr}"
