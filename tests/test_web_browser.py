"""The web app in a real browser: Playwright for Python driving Debian's Chromium against the app
served by uvicorn on a free local port. Whole games are played by clicking only (Heir at desktop
width, Reign of War at phone width, against the random bot) and reviewed; a turn by the keyboard
only; a hint asked and played, a move taken back, the game saved and loaded; a record file
reviewed, a point of the graph and a row of the table clicked (the board shown is that seat's
view at that ply), mistakes practised; bad record files refused with a message. No page logs a
console error, and every page fits a phone's width.

Screenshots of each page at desktop and phone width go to ``build/web-screenshots/`` (ignored by
git; ``OMEN_SCREENSHOTS=DIR`` for another folder) to be looked at. Skipped, saying why, without
Playwright (the browser extra), Chromium (``apt-get install chromium``) or the web extra.
"""

from __future__ import annotations

import json
import os
import re
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

from omen_search.bots import make_bot  # noqa: E402
from omen_search.game import all_games, get_game  # noqa: E402
from omen_search.records import make_record, replay  # noqa: E402
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
    page.screenshot(path=str(SHOTS / f"{name}-{page.size}.jpg"), full_page=True, type="jpeg", quality=80)  # docs/images


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
        before = page.inner_html("#decide")
        page.locator("#decide .options button").first.click()
        page.wait_for_function("([html, n]) => document.querySelector('#decide').innerHTML !== html || "
                               "document.querySelectorAll('#log li.you').length > n", arg=[before, made])
        if your_moves(page) > made:
            break
    page.wait_for_selector("#decide .options button, #decide #b-review")
    assert your_moves(page) > made


def test_the_new_game_form_offers_every_game_and_fits_the_screen(page):
    page.goto(page.base)
    page.wait_for_selector("#f-game option", state="attached")
    names = page.eval_on_selector_all("#f-game option", "options => options.map(o => o.value)")
    assert names == [g.name for g in all_games()] and {"heir", "heir-solo", "reign-of-war"} <= set(names)
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


def test_a_turn_by_the_keyboard_only(page):
    """Enter on the focused choice, again and again: after each move the new decision's first
    choice has the focus, so a whole turn (until the bot has moved) needs no mouse."""
    start(page, opponent="random")
    page.wait_for_function("document.activeElement === document.querySelector('#decide .options button')")
    for _ in range(40):
        if page.locator("#log li.them").count():
            break
        assert page.evaluate("document.activeElement.closest('#decide') !== null"), "the focus left the decision"
        before = page.evaluate("[document.querySelectorAll('#log li').length, document.activeElement.textContent]")
        page.keyboard.press("Enter")
        page.wait_for_function("([n, text]) => document.querySelectorAll('#log li').length !== n || "
                               "document.activeElement.textContent !== text", arg=before)
        page.wait_for_selector("#decide .options button")
        page.wait_for_function("document.activeElement.closest('#decide') !== null || "
                               "document.querySelector('#log li.them') !== null")
    assert your_moves(page) >= 1 and page.locator("#log li.them").count() >= 1, "a whole turn of each side"


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


def view_cards(view: dict[str, Any]) -> list[str]:
    """The names of every card a board view (Game.view) shows, once a pile or side."""
    cards = [c["name"] for z in view["zones"] for side in z["sides"] for c in side["cards"]]
    cards += [c["name"] for seat in view["seats"] for pile in seat["piles"] for c in pile["cards"]]
    return sorted(cards + [c["name"] for pile in view["piles"] for c in pile["cards"]])


def shown_board(page: Any) -> tuple[int, int, list[str]]:
    """The seat and ply of the decision the review shows, and the cards its board shows."""
    heading = page.inner_text("#r-detail h2")
    found = re.match(r"Ply (\d+) · seat (\d+)", heading)
    assert found, heading
    names = page.eval_on_selector_all("#r-board .card[data-name]", "cards => cards.map(c => c.dataset.name)")
    return int(found[2]), int(found[1]), sorted(names)


def expect_board(page: Any, record: dict[str, Any], seat: int, ply: int) -> None:
    """The review shows the decision of ``seat`` at ``ply``, its board that seat's view then."""
    game = get_game(record["game"])
    page.wait_for_function("([s, p]) => (document.querySelector('#r-detail h2') || {}).textContent"
                           "?.startsWith(`Ply ${p} · seat ${s}`) && document.querySelector('#r-board .card')",
                           arg=[seat, ply])
    expected = view_cards(game.view(game.observe(replay(record, upto=ply), seat)))
    assert shown_board(page) == (seat, ply, expected)


def wait_for_review(page: Any) -> None:
    page.wait_for_url("**/#/review/*")
    page.wait_for_selector("#r-detail:not([hidden]) h2", timeout=60_000)
    assert page.is_hidden("#r-progress") and "accuracy" in page.inner_text("#r-status")


@pytest.mark.parametrize("game", ["heir", "reign-of-war"])
def test_a_whole_game_by_clicking_then_its_review(page, game, monkeypatch):
    """A whole game against the random bot, clicking the first choice each time; then the review
    the finished game offers (at the review's default budget, made small here), with both seats' graph."""
    if (game, page.size) not in (("heir", "desktop"), ("reign-of-war", "phone")):
        pytest.skip("one whole game a width keeps the run short")
    monkeypatch.setattr("omen_search.advisor.DEFAULT_ITERATIONS", 300)  # the server runs in this process
    monkeypatch.setattr("omen_search.advisor.DEFAULT_SETTLE", 1200)
    start(page, game=game, opponent="random", seed=3)
    for _ in range(400):
        if page.is_visible("#status.over"):
            break
        click_a_move(page)
    assert page.is_visible("#status.over") and "resigned" not in page.inner_text("#status")
    shot(page, f"over-{game}")
    page.click("#b-review")
    wait_for_review(page)
    assert "300 iterations a search, settling up to 1200" in page.inner_text("#r-status")
    assert page.locator("#r-svg polyline.line").count() == 2, "both seats' lines"
    assert page.locator("#r-legend li").count() == 5  # two seats and three labels
    assert "(you)" in page.inner_text("#r-legend")
    fits_the_width(page)
    shot(page, f"review-{game}")


@pytest.fixture(scope="module")
def review_file(tmp_path_factory) -> tuple[Any, dict[str, Any]]:
    """A record file as ``omen-search play --record`` writes it: random (seat 0, called human)
    against greedy, three turns, with blunders of seat 0 by 300 iterations."""
    game = get_game("heir")
    state = game.new_initial_state(24, engine="core", config=game.config(max_turns=3))
    bots = [make_bot("random", 24, game), make_bot("greedy", 25, game)]
    while not state.is_terminal():
        state.apply(bots[state.current_player].choose(state))
    record = make_record(state, ["human", "greedy"], game)
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_text(json.dumps(record))
    return path, record


def open_review_file(page: Any, path: Any) -> None:
    page.goto(page.base + "#/review")
    page.wait_for_selector("#r-games li")
    page.select_option("#r-iterations", "300")
    page.set_input_files("#r-file", str(path))


def test_review_a_record_click_a_point_and_a_row_then_practise(page, review_file):
    path, record = review_file
    open_review_file(page, path)
    wait_for_review(page)
    fits_the_width(page)
    shot(page, "review")
    assert page.locator("#r-svg circle.point").count() == int(re.search(r"of (\d+)", page.inner_text("#r-count"))[1])
    ticks = page.eval_on_selector_all("#r-svg text.tick", "ts => ts.map(t => t.textContent)")
    assert {"0%", "50%", "100%", "0"} <= set(ticks), ticks
    # a point of the graph: seat 1's third decision
    point = page.locator("#r-svg circle.point[data-seat='1']").nth(2)
    seat, ply = int(point.get_attribute("data-seat")), int(point.get_attribute("data-ply"))
    point.click()
    expect_board(page, record, seat, ply)
    assert page.locator("#r-detail table.best-moves tbody tr").count() >= 1
    # a row of the table: every decision, seat 0's second
    page.click("#r-filter button:has-text('Every decision')")
    row = page.locator("#r-table tbody tr[data-seat='0']").nth(1)
    seat, ply = int(row.get_attribute("data-seat")), int(row.get_attribute("data-ply"))
    row.click()
    expect_board(page, record, seat, ply)
    assert page.locator(f"#r-svg circle.point.chosen[data-seat='{seat}'][data-ply='{ply}']").count() == 1
    # practice: seat 0's labelled decisions, one by one
    labelled = page.eval_on_selector_all("#r-svg circle.point[data-seat='0']:not(.ok)", "ps => ps.map(p => +p.dataset.ply)")
    assert labelled, "the record has mistakes of seat 0 to practise"
    page.click("button.practise")
    expect_board(page, record, 0, labelled[0])
    shot(page, "practice")
    for _ in range(8):
        if page.locator("#r-detail .verdict").count():
            break
        page.locator("#r-detail .options button").first.click()
        page.wait_for_selector("#r-detail .options button, #r-detail .verdict")
    verdict = page.inner_text("#r-detail .verdict")
    assert re.search(r"best move|as good as the best|points worse", verdict), verdict
    fits_the_width(page)
    shot(page, "practice-verdict")
    if len(labelled) > 1:
        page.click("#r-skip")
        expect_board(page, record, 0, labelled[1])


def test_a_bad_record_file_is_refused_with_a_message(page, tmp_path, review_file):
    bad = tmp_path / "broken.json"
    bad.write_text('{"format": "omen-record/1", "moves": [')
    open_review_file(page, bad)
    page.wait_for_selector("#alert:not([hidden])")
    assert "broken.json" in page.inner_text("#alert") and "not valid JSON" in page.inner_text("#alert")
    other = tmp_path / "chess.json"
    other.write_text(json.dumps({**review_file[1], "game": "chess"}))
    page.set_input_files("#r-file", str(other))
    page.wait_for_function("document.querySelector('#alert').textContent.includes('chess.json')")
    assert "unknown game 'chess'" in page.inner_text("#alert")
    assert page.url.endswith("#/review")
    fits_the_width(page)
    shot(page, "review-open")
    assert page.errors and all("400" in e for e in page.errors), page.errors  # the browser logs the 400s
    page.errors.clear()
