"""Running the web app: a socket bound to the loopback address unless told otherwise, uvicorn on
it, and the browser opened once it listens.

The port is bound here, before uvicorn starts, so that a port in use is a one-line
:class:`UsageError` naming ``--port`` rather than a log line and an exit from inside uvicorn.
"""

from __future__ import annotations

import socket
import sys
import threading
import time
import webbrowser
from typing import TextIO

from omen_search.errors import UsageError
from omen_search.web import require_web

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (port 0: any free one); raises
    :class:`UsageError` naming the option at fault."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise UsageError(f"--host: cannot use {host!r}: {exc}") from None
    except OverflowError:
        raise UsageError(f"--port: must be from 0 to 65535, got {port}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise UsageError(f"--port: cannot listen on {host} port {port}: {exc.strerror or exc}"
                         + ("; another program uses it (try --port 0 for any free port)"
                            if exc.errno in (98, 48, 10048) else "")) from None
    return sock


def url_of(sock: socket.socket) -> str:
    host, port = sock.getsockname()[:2]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else (f"[{host}]" if ":" in host else host)
    return f"http://{shown}:{port}/"


def serve(host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, *, open_browser: bool = False,
          threads: int | None = None, out: TextIO | None = None, err: TextIO | None = None) -> None:
    """Serve the app until interrupted. A host other than the loopback address is served only
    because the caller asked (``--host``), with a warning on ``err``: anyone who can reach it can
    play, ask for hints and read the games' records."""
    require_web()
    import uvicorn

    from omen_search.web.app import LOCAL_HOSTS, create_app

    out, err = out or sys.stdout, err or sys.stderr
    local = host in LOCAL_HOSTS
    sock = bind(host, port)
    if not local:
        print(f"omen-search: warning: serving on {host}, not only on this computer: anyone who can reach "
              "it can play and read the games' records (there is no password)", file=err)
    url = url_of(sock)
    app = create_app(allowed_hosts=LOCAL_HOSTS if local else None, threads=threads)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))

    def announce() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            print(f"omen-search: serving on {url} (Ctrl-C to stop)", file=out, flush=True)
            if open_browser:
                webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises Ctrl-C again once it has shut down: the way to stop
        pass
    finally:
        sock.close()
    print("omen-search: stopped", file=out)
