"""Output files: checked before the work that fills them, then written whole or not at all.

Every file the commands write in one piece (game records, HTML reports) goes through
:func:`write_atomic`: a temporary file in the same folder, then a rename, so that nobody ever reads
half a file. The temporary file is created as ``open`` creates files (mode 0666 less the umask),
since a rename keeps its mode. A path that exists but is not a regular file (``/dev/null``, a
folder, a FIFO) is refused, never replaced: run as root, a rename would put a regular file in the
place of a device.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import IO

from omen_search.errors import UsageError


def check_output(path: str | Path, option: str) -> Path:
    """``path`` as a :class:`Path` if a file can be written there; else a :class:`UsageError`
    naming ``option`` (``"--html"``) and the path. Called before a long run too, so that it does
    not end in that error."""
    if "\x00" in str(path):  # no file has one; the OS refuses it with a ValueError, not an OSError
        raise UsageError(f"{option}: cannot write {str(path)!r}: a path cannot hold a NUL byte")
    path = Path(path)
    if path.exists() and not path.is_file():
        raise UsageError(f"{option}: cannot write {path}: it exists and is not a regular file")
    folder = path.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"{option}: cannot write {path}: no such writable file or folder")
    return path


def write_atomic(path: str | Path, option: str, write: Callable[[IO[str]], object]) -> None:
    """Write a file with ``write(file)`` through a temporary file and a rename.

    Raises :class:`UsageError` naming ``option`` and the path if it cannot be written; on any
    failure (an interrupt included) the old file, if any, is left as it was and no temporary file
    remains."""
    path = check_output(path, option)
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as exc:
        raise UsageError(f"{option}: cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise UsageError(f"{option}: cannot write {path}: {exc.strerror or exc}") from None
        raise
