"""Subprocesses of the tests: the environment that makes ``python3 -P -m omen_search`` run the very
package the tests import (the installed one in CI, the source tree with its core built in place
in development), and, read from /proc, a subprocess's live children and whether one is gone (so
that a test can say no worker outlived a killed match)."""

from __future__ import annotations

import os
from pathlib import Path

import omen_search

PROC = Path("/proc")
PACKAGE_PARENT = Path(omen_search.__file__).resolve().parent.parent  # the folder holding the package under test


def omen_env(**extra: str) -> dict[str, str]:
    """The environment of a subprocess that imports the package under test, plus ``extra``."""
    return {**os.environ, "PYTHONPATH": str(PACKAGE_PARENT), **extra}


def _stat_fields(pid: int | str) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state, parent, …)."""
    return PROC.joinpath(str(pid), "stat").read_text().rsplit(")", 1)[1].split()


def children(pid: int) -> list[int]:
    """The live processes whose parent is ``pid``."""
    found = []
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state, parent = _stat_fields(entry.name)[:2]
        except (OSError, ValueError, IndexError):
            continue
        if int(parent) == pid and state != "Z":
            found.append(int(entry.name))
    return found


def gone(pid: int) -> bool:
    """Whether ``pid`` has exited (no longer there, or a zombie or dead entry)."""
    try:
        return _stat_fields(pid)[0] in ("Z", "X")
    except (OSError, IndexError):
        return True
