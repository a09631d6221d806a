"""The web app in a real browser: Playwright for Python driving Debian's Chromium against the app
served by uvicorn on a free local port. A game is played by clicking only (and one decision by the
keyboard only), a hint asked and played, a move taken back, the game saved and loaded; no page
logs a console error, and the page fits a phone's width.

Screenshots of each page at desktop and phone width go to ``build/web-screenshots/`` (ignored by
git; ``OMEN_SCREENSHOTS=DIR`` for another folder) to be looked at. Skipped, saying why, without
Playwright (the browser extra), Chromium (``apt-get install chromium``) or the web extra.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="Starlette is not installed: pip install '.[web]' (the web extra)")
pytest.importorskip("uvicorn", reason="uvicorn is not installed: pip install '.[web]' (the web extra)")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="Playwright is not installed: pip install '.[browser]' (the browser extra)")
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
if CHROMIUM is None:
    pytest.skip("no Chromium: apt-get install chromium (Debian's package; .ci/run installs it)", allow_module_level=True)

import uvicorn  # noqa: E402

from omen_search.records import replay  # noqa: E402
from omen_search.web.app import create_app  # noqa: E402
from omen_search.web.server import bind, url_of  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(os.environ.get("OMEN_SCREENSHOTS") or Path(__file__).resolve().parent.parent / "build" / "web-screenshots")
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The app on a free port of 127.0.0.1, in a thread; its address."""
    sock = bind("127.0.0.1", 0)
    server_ = uvicorn.Server(uvicorn.Config(create_app(threads=2), log_level="warning"))
    thread = threading.Thread(target=lambda: server_.run(sockets=[sock]), daemon=True)
    thread.start()
    for _ in range(200):
        if server_.started:
            break
        threading.Event().wait(0.05)
    yield url_of(sock)
    server_.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        try:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Exception as exc:  # a Chromium that cannot start here (no display libraries, a sandbox)
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {str(exc)[:300]}")
        yield chromium
        chromium.close()


@pytest.fixture(params=list(SIZES))
def page(request, browser, server) -> Iterator[Any]:
    """A page at desktop or phone width that fails the test on a console error or an uncaught one."""
    width, height = SIZES[request.param]
    context = browser.new_context(viewport={"width": width, "height": height}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.size = request.param  # type: ignore[attr-defined]
    page.base = server  # type: ignore[attr-defined]
    page.errors = errors  # type: ignore[attr-defined]
    yield page
    context.close()
    assert not errors, f"console errors: {errors}"


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{page.size}.png"), full_page=True)


def fits_the_width(page: Any) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"the page is {overflow}px wider than the {page.size} screen"


def start(page: Any, game: str = "heir", opponent: str = "greedy", seat: str = "0", seed: int = 12) -> None:
    page.goto(page.base)
    page.wait_for_selector("#f-game option", state="attached")
    page.select_option("#f-game", game)
    if page.is_visible("#f-seat"):
        page.select_option("#f-seat", seat)
        page.select_option("#f-opponent", opponent)
    page.click("#new-form details summary")
    page.fill("#f-seed", str(seed))
    page.click("#f-start")
    page.wait_for_selector("#decide .options button")


def your_moves(page: Any) -> int:
    return page.locator("#log li.you").count()


def click_a_move(page: Any) -> None:
    """Pick the first offered step, then the next, until a move is played (by clicking only)."""
    made = your_moves(page)
    for _ in range(8):
        page.locator("#decide .options button").first.click()
        page.wait_for_function(
            "([n]) => document.querySelectorAll('#log li.you').length > n || "
            "document.querySelector('#decide .crumbs') !== null", arg=[made])
        if your_moves(page) > made:
            break
    page.wait_for_selector("#decide .options button, #decide a[href='#/']")
    assert your_moves(page) > made


def test_the_new_game_form_offers_every_game_and_fits_the_screen(page):
    page.goto(page.base)
    page.wait_for_selector("#f-game option", state="attached")
    names = page.eval_on_selector_all("#f-game option", "options => options.map(o => o.value)")
    assert names == ["heir", "heir-solo", "reign-of-war"]
    page.select_option("#f-game", "heir-solo")
    assert page.is_hidden("#f-opponent") and page.is_visible("#opt-level")
    page.select_option("#f-game", "heir")
    fits_the_width(page)
    shot(page, "new-game")


def test_play_turns_by_clicking_get_a_hint_play_it_and_undo(page):
    start(page)
    for _ in range(40):  # through the bot's first turn at least
        click_a_move(page)
        if page.locator("#log li.them").count() and page.is_visible("#decide .options button"):
            break
    assert page.locator("#log li.them").count() > 0, "the bot's moves are shown"
    while int(page.inner_text("#decide h2 .note").split()[0]) < 2:  # a decision with a choice
        click_a_move(page)
    page.click("#b-hint")
    page.wait_for_selector("#hint table tbody tr")
    rows = page.locator("#hint tbody tr")
    assert rows.count() >= 1 and "%" in rows.first.inner_text()
    shot(page, "play-hint")
    fits_the_width(page)
    before = your_moves(page)
    rows.first.locator("button.play-hint").click()
    page.wait_for_function("([n]) => document.querySelectorAll('#log li.you').length > n", arg=[before])
    page.wait_for_selector("#decide .options button")
    after = your_moves(page)
    page.click("#b-undo")
    page.wait_for_function("([n]) => document.querySelectorAll('#log li.you').length < n", arg=[after])
    assert your_moves(page) == after - 1
    # a card of the board shows its rules text when clicked
    page.locator("#board .seat.you .card").first.click()
    assert page.is_visible("#card-info") and page.inner_text("#card-info-name")
    shot(page, "card")
    page.keyboard.press("Escape")
    shot(page, "play")


def test_one_decision_by_the_keyboard_only(page):
    start(page)
    made = your_moves(page)
    page.locator("#decide .options button").first.focus()
    for _ in range(8):
        page.keyboard.press("Enter")
        page.wait_for_timeout(150)
        if your_moves(page) > made:
            break
        page.wait_for_selector("#decide .options button")
        page.locator("#decide .options button").first.focus()
    assert your_moves(page) > made


def test_save_then_load_the_game(page, tmp_path):
    start(page, game="reign-of-war", opponent="random")
    for _ in range(3):
        click_a_move(page)
    with page.expect_download() as download:
        page.click("#b-save")
    path = tmp_path / "game.json"
    download.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["game"] == "reign-of-war" and record["players"] == ["human", "random"]
    ply = replay(record).ply
    page.goto(page.base)
    page.set_input_files("#load-file", str(path))
    page.wait_for_url("**/#/play/*")
    page.wait_for_selector("#decide .options button, #decide a[href='#/']")
    assert page.locator("#log li.you, #log li.them").count() == ply
    shot(page, "loaded")


def test_the_solo_game_and_resigning(page):
    start(page, game="heir-solo")
    click_a_move(page)
    assert "corrupted-heir" in page.inner_text("#board")
    page.click("#b-resign")
    page.click("#b-resign")
    page.wait_for_selector("#status.over")
    assert "resigned" in page.inner_text("#status")
    shot(page, "solo-resigned")


def test_a_page_of_a_game_the_server_does_not_hold_says_so(page):
    page.goto(page.base + "#/play/no-such-game")
    page.wait_for_selector("#alert:not([hidden])")
    assert "no such game" in page.inner_text("#alert")
    assert all("404" in e for e in page.errors), page.errors  # the browser logs the 404 it was answered
    page.errors.clear()
