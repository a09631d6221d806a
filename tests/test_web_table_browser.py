"""The table companion in a real browser (Playwright driving Debian's Chromium, as
``test_web_browser.py``, whose server, browser and page fixtures it uses): a game of at least 30
events set up and entered by clicking only (the starting hand, each seat's move in steps, the cards
each event showed), advice asked at one of your decisions, an impossible event refused with its
reason and nothing changed, the record saved and the game reviewed (your seat only). Screenshots at desktop and
phone width, as the other browser tests take them. Skipped as they are, saying why."""

from __future__ import annotations

import json
import random
from typing import Any

import test_web_browser as shared
from test_web_browser import fits_the_width, shot

from omen_search.game import get_game
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.rules import Config
from omen_search.games.heir.table import witness

SEED = 3
server, browser, page = shared.server, shared.browser, shared.page  # the fixtures of the other browser tests


def true_game() -> tuple[GameState, list[str], list[str], list[tuple[int, str, list[str]]]]:
    """A game of random moves, to your Surge after at least 30 events (where a card can be played)."""
    rnd, state = random.Random(SEED), GameState.new(seed=SEED)
    while len(state.moves) < 30 or state.pending.kind != "surge" or state.current_player != 0:
        state.apply(rnd.choice(state.legal_moves()))
    return (state, *witness(SEED, Config(), 0, state.moves))


def answer_questions(tab: Any, seen: list[str], box: str) -> None:
    """Click each card the event showed, as the page asks for them."""
    for name in seen:
        tab.wait_for_selector(f"{box} button[data-seen={json.dumps(name)}]")
        tab.click(f"{box} button[data-seen={json.dumps(name)}]")


def enter(tab: Any, seat: int, move: str, seen: list[str]) -> None:
    """Enter one event by clicking: the move's steps (or the button of the whole move), then the cards."""
    count = tab.locator("#t-log li.you, #t-log li.them").count()
    steps = get_game("heir").move_steps(get_game("heir").parse_move(move))
    whole = f"#t-decide .options button[data-move={json.dumps(move)}]"
    for _ in range(len(steps) + 1):
        if tab.locator(whole).count():
            tab.click(whole)
            break
        picked = tab.locator("#t-decide .crumbs .step").count()
        tab.click(f"#t-decide .options button[data-step={json.dumps(steps[picked])}]")
    answer_questions(tab, seen, "#t-question")
    tab.wait_for_function("n => document.querySelectorAll('#t-log li.you, #t-log li.them').length > n", arg=count)
    assert not tab.is_visible("#alert"), tab.inner_text("#alert")


def test_a_table_game_of_30_events_or_more_by_clicking_with_advice_and_a_refusal(page):
    state, hand, seen, events = true_game()
    n = len(events)
    page.goto(page.base + "#/table")
    page.wait_for_selector("#t-cards button")
    page.select_option("#t-seat", "0")
    for name in hand:
        page.click(f"#t-cards button[data-add={json.dumps(name)}]")
    assert page.inner_text("#t-hand-count") == "4 of 4"
    fits_the_width(page)
    shot(page, "table-setup")
    page.click("#t-start")
    answer_questions(page, seen, "#t-setup-question")
    page.wait_for_selector("#t-decide .options button")
    replay = GameState.new(seed=SEED)
    advised = False
    for index, (seat, move, shown) in enumerate(events):
        assert page.inner_text("#t-decide h2").startswith("Your decision" if seat == 0 else "The opponent's decision")
        if seat == 0 and not advised and index >= 10 and len(replay.legal_moves()) > 1:
            page.click("#t-advice")
            page.wait_for_selector("#t-hint table tbody tr", timeout=120_000)
            top = page.locator("#t-hint tbody tr").first.inner_text()
            assert "%" in top
            shot(page, "table-advice")
            advised = True
        enter(page, seat, move, shown)
        replay.apply(move)
    assert advised and page.locator("#t-log li.you, #t-log li.them").count() == n
    # an impossible event: a card you do not hold, typed; refused with the reason, nothing changed
    hand_now = state.observation(0)["players"][0]["hand"]
    absent = next(u.name for u in state.units if u.name not in hand_now)
    page.click("#t-decide details.typed summary")
    page.select_option("#t-typed-seat", "0")
    page.fill("#t-typed-move", f'play "{absent}" city0')
    page.click("#t-typed button[type=submit]")
    page.wait_for_selector("#alert:not([hidden])")
    reason = page.inner_text("#alert")
    assert reason == f"event {n}: {absent} is not in your hand"
    assert page.errors and all("422" in e for e in page.errors), page.errors  # the browser logs the refusal
    page.errors.clear()
    assert page.locator("#t-log li.you, #t-log li.them").count() == n
    fits_the_width(page)
    shot(page, "table-refused")
    page.click("#t-undo")
    page.wait_for_function("n => document.querySelectorAll('#t-log li.you, #t-log li.them').length === n", arg=n - 1)
    enter(page, *events[-1])
    shot(page, "table")
    with page.expect_download() as download:
        page.click("#t-save")
    record = json.loads(open(download.value.path()).read())
    assert record["format"] == "omen-table/1" and len(record["events"]) == n and "seed" not in record
    page.click("#t-review")
    page.wait_for_selector("#r-table tbody tr", timeout=180_000)  # your decisions only: one seat's line
    assert page.locator("#r-legend li").first.inner_text().startswith("seat 0")
    shot(page, "table-review")
