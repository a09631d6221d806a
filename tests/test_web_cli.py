"""``omen-search serve``: its help, its one-line errors (no web extra, a port in use) and a real
server process on a free port, on the loopback address by default and elsewhere only with a warning.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

from cli_helper import assert_one_line_error, run
from omen_search.cli import build_parser


def test_serve_is_listed_and_its_help_says_what_it_does(capsys):
    assert "serve" in build_parser().format_help()
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--help"])
    text = capsys.readouterr().out
    for words in ("127.0.0.1", "--host", "--port", "--open", "omen-search[web]", "docs/web.md", "hints", "undo"):
        assert words in text, words


def test_serve_without_the_web_extra_says_how_to_install_it(capsys, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "starlette" else real(name, *a))
    assert_one_line_error(*run(capsys, "serve"), "starlette", "web extra", "omen-search[web]")


def test_serve_on_a_port_in_use_names_the_port(capsys):
    pytest.importorskip("uvicorn", reason="uvicorn is not installed: pip install '.[web]' (the web extra)")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        assert_one_line_error(*run(capsys, "serve", "--port", str(port)), "--port", str(port), "--port 0")


def test_a_bad_port_or_host_is_refused(capsys):
    assert_one_line_error(*run(capsys, "serve", "--port", "70000"), "--port")
    pytest.importorskip("uvicorn", reason="uvicorn is not installed: pip install '.[web]' (the web extra)")
    assert_one_line_error(*run(capsys, "serve", "--host", "no such host..invalid"), "--host")


@pytest.mark.parametrize("host", [None, "0.0.0.0"])
def test_serve_answers_until_interrupted_and_warns_when_not_only_local(host):
    pytest.importorskip("starlette", reason="Starlette is not installed: pip install '.[web]' (the web extra)")
    pytest.importorskip("uvicorn", reason="uvicorn is not installed: pip install '.[web]' (the web extra)")
    argv = [sys.executable, "-P", "-m", "omen_search", "serve", "--port", "0", *(["--host", host] if host else [])]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        line = proc.stdout.readline()  # type: ignore[union-attr]
        assert "serving on http://127.0.0.1:" in line, (line, proc.stderr.read() if proc.poll() is not None else "")  # type: ignore[union-attr]
        url = line.split("serving on ", 1)[1].split()[0]
        with urllib.request.urlopen(url + "api/games", timeout=10) as response:
            assert [g["name"] for g in json.load(response)["games"]][:2] == ["heir", "heir-solo"]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(15) == 0
        err = proc.stderr.read()  # type: ignore[union-attr]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if host is None:
        assert "warning" not in err
    else:
        assert "warning" in err and host in err and "no password" in err
