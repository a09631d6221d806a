"""Calling ``omen-search`` in-process from tests, and the shape of its one-line errors."""

from __future__ import annotations

from omen_search.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of ``omen-search ARGV``."""
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_line_error(status: int, out: str, err: str, *words: str) -> None:
    """Status 2 and exactly one ``omen-search: error: …`` line on stderr that mentions ``words``
    (``out`` is accepted so that ``assert_one_line_error(*run(...), ...)`` reads naturally)."""
    assert status == 2, f"exit status {status}, stderr {err!r}"
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {err!r}"
    assert lines[0].startswith("omen-search: error: "), lines[0]
    assert "Traceback" not in err
    for word in words:
        assert word in lines[0], f"{lines[0]!r} should mention {word!r}"
