"""``omen-search serve``: a local web app to play the Omen games against the engine in a browser.

The server (:mod:`omen_search.web.server`) runs the app (:mod:`omen_search.web.app`: the routes)
over game sessions (:mod:`omen_search.web.sessions`) whose searches run in threads
(:mod:`omen_search.web.jobs`); the page is plain HTML, CSS and JavaScript in ``static/``, with no
build step and nothing fetched from elsewhere. The board a page draws is each game's own
description of it (:meth:`omen_search.game.Game.view`), so every registered game plays there.

Starlette and uvicorn come with the ``web`` extra (``pip install "omen-search[web]"``);
:func:`require_web` says so when they are missing. ``docs/web.md`` is the user's guide.
"""

from __future__ import annotations

import importlib.util

from omen_search.errors import UsageError

WEB_PACKAGES = ("starlette", "uvicorn")


def require_web() -> None:
    """Raise :class:`UsageError` naming the missing package and the extra that brings it."""
    missing = [name for name in WEB_PACKAGES if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(f"serve: needs {' and '.join(missing)}, which the web extra installs: "
                         'python3 -m pip install "omen-search[web]" (or ".[web]" in the source tree)')
