"""What the web app draws and offers, without a server: each game's board view (Game.view) shows a
seat nothing it does not know, a decision's moves split into steps that tell every move apart, and
a bot's move made in slices (omen_search.web.jobs) is the move the bot itself plays, and stops.
"""

from __future__ import annotations

import json
import threading
import time

import pytest

from omen_search.bots import ISMCTSBot, RandomBot, make_bot
from omen_search.game import Game, all_games, get_game
from omen_search.web.jobs import BotMove
from omen_search.web.views import board_changes, catalogue, move_choices

# the games with a board of their own (Game.view overridden); the Grand Melee's is the generic one yet
GAMES = [g.name for g in all_games() if type(g).view is not Game.view]


def names_in(value: object) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(names_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(names_in(v) for v in value)) if value else set()
    return set()


def hidden_hand(game, state, seat: int) -> set[str]:
    """The names of cards in the other seats' hands that ``seat``'s observation does not hold."""
    seen = names_in(game.observe(state, seat))
    held = set().union(*(game.cards_held(state, s) for s in range(game.players) if s != seat))
    return held - seen


def positions(name: str, seed: int, every: int = 3):
    """States of a random game of ``name``, every ``every`` plies, and the end."""
    game = get_game(name)
    state = game.new_initial_state(seed=seed)
    bot = RandomBot(seed)
    while not state.is_terminal():
        if state.ply % every == 0:
            yield game, state
        state.apply(bot.choose(state))
    yield game, state


@pytest.mark.parametrize("name", GAMES)
def test_the_view_shows_no_card_hidden_in_another_seats_hand(name):
    leaks, checked, held = [], 0, 0
    for seed in (1, 2):
        for game, state in positions(name, seed):
            for seat in game.deciding_seats:
                view = game.view(game.observe(state, seat))
                text = json.dumps(view)
                held += sum(len(game.cards_held(state, s)) for s in range(game.players) if s != seat)
                for card in hidden_hand(game, state, seat):
                    checked += 1
                    if f'"{card}"' in text:
                        leaks.append((seed, state.ply, seat, card))
    if held and not checked:  # the Grand Melee: the drafted stacks, face up, name every card a hand can hold
        pytest.skip(f"{name}: every seat's observation names every card another seat can hold")
    if not held and get_game(name).family == "omega":  # runes, not cards, are hidden: tests/test_omega.py
        pytest.skip(f"{name}: no seat holds cards; its hidden runes are checked in tests/test_omega.py")
    if get_game(name).automaton is None:  # the solo Heir's automaton holds no hand
        assert checked, "no position had a hidden card to check"
    assert not leaks, f"hidden cards in the view: {leaks[:5]}"


@pytest.mark.parametrize("name", GAMES)
def test_the_view_has_a_side_for_every_seat_in_every_zone_and_counts_hidden_cards(name):
    for game, state in positions(name, 3, every=7):
        for seat in game.deciding_seats:
            view = game.view(game.observe(state, seat))
            assert {s["seat"] for s in view["seats"]} == set(range(game.players))
            for zone in view["zones"]:
                assert [side["seat"] for side in zone["sides"]] == list(range(game.players)), zone["name"]
            for other in (s for s in view["seats"] if s["seat"] != seat):
                for pile in other["piles"]:
                    assert pile.get("hidden", 0) >= 0
            for card in (c for s in view["seats"] for p in s["piles"] for c in p["cards"]):
                assert card["count"] >= 1 and isinstance(card["detail"], str) and isinstance(card["text"], str)


def test_heir_shows_the_other_seats_vp_as_the_table_sees_it():
    """H-score-1: TREASURED cards in a hand count, so another seat's VP is a lower bound while its
    hand is hidden, and exact once it is all known."""
    game = get_game("heir")
    for _, state in positions("heir", 4, every=5):
        for seat in (0, 1):
            other = 1 - seat
            view = game.view(game.observe(state, seat))
            vp = {f["label"]: f["value"] for f in view["seats"][other]["facts"]}["VP"]
            mine = {f["label"]: f["value"] for f in view["seats"][seat]["facts"]}["VP"]
            assert mine == state.scores()[seat]
            bound = int(str(vp).removeprefix("at least "))
            assert bound <= state.scores()[other]
            if not str(vp).startswith("at least"):
                assert bound == state.scores()[other]


def test_a_game_without_a_view_of_its_own_is_laid_out_from_its_observation(tricks):
    """Point 5 of issue 20: a game added to the registry draws without a page of its own."""
    state = tricks.new_initial_state(seed=1)
    view = tricks.view(tricks.observe(state, 0))
    json.dumps(view)
    assert set(view) == {"facts", "zones", "seats", "piles"}
    choices = move_choices(tricks, state.legal_moves())
    assert [c["steps"] for c in choices] == [[str(m)] for m in state.legal_moves()]


@pytest.mark.parametrize("name", GAMES)
def test_the_steps_of_a_decisions_moves_tell_every_move_apart(name):
    """The page picks a move step by step, so no two legal moves may have the same steps; a move
    whose steps begin another's is offered as a complete move beside the longer ones."""
    kinds = set()
    for game, state in positions(name, 5, every=1):
        if state.is_terminal():
            continue
        choices = move_choices(game, state.legal_moves())
        steps = [tuple(c["steps"]) for c in choices]
        assert len(set(steps)) == len(steps), (state.ply, steps)
        for c in choices:
            assert c["steps"] and all(isinstance(s, str) and s for s in c["steps"])
            assert game.parse_move(c["move"]) in state.legal_moves()
        kinds.update(s[0] for s in steps)
    assert len(kinds) > 5


def test_an_offering_build_names_the_structure_before_the_unit():
    game = get_game("heir")
    move = game.parse_move('build "Gilded Taskmaster" "Temple of Darkness"')
    assert game.move_steps(move) == ("build", "Temple of Darkness", "Gilded Taskmaster")
    assert game.move_steps(game.parse_move('move "Rabid Usurper" city2>city0')) == (
        "move", "Rabid Usurper", "city2", "to city0")


def test_the_catalogue_offers_every_game_with_its_seats_and_options():
    games = {g["name"]: g for g in catalogue()["games"]}
    assert set(games) == {g.name for g in all_games()}
    assert games["heir-solo"]["seats"] == [0] and games["heir-solo"]["automaton"] == "corrupted-heir"
    assert games["heir"]["seats"] == [0, 1]
    for spec in (o["spec"] for o in catalogue()["opponents"]):
        make_bot(spec, 1, get_game("heir"))


@pytest.mark.parametrize("name", ["heir", "reign-of-war"])
def test_a_bot_move_made_in_slices_is_the_move_the_bot_plays(name):
    game = get_game(name)
    for _, state in positions(name, 6, every=9):
        if state.is_terminal() or len(state.legal_moves()) < 2:
            continue
        spec = ("ismcts:iterations=700", "ismcts:iterations=600,workers=2",
                "ismcts:iterations=500,rollout=mast,reuse=1")[state.ply // 9 % 3]
        alone, sliced = make_bot(spec, 9, game), make_bot(spec, 9, game)
        assert isinstance(alone, ISMCTSBot)
        assert BotMove(sliced, game).choose(state.clone()) == alone.choose(state.clone()), state.ply


def test_a_stopped_bot_move_ends_within_a_second():
    game = get_game("heir")
    state = game.new_initial_state(seed=7)
    while len(state.legal_moves()) < 2:
        state.apply(state.legal_moves()[0])
    job = BotMove(make_bot("ismcts:seconds=60", 1, game), game)
    done: list[object] = []
    thread = threading.Thread(target=lambda: done.append(job.choose(state.clone())))
    thread.start()
    time.sleep(0.5)
    started = time.perf_counter()
    job.stop()
    thread.join(10)
    assert not thread.is_alive() and done and done[0] in state.legal_moves()
    assert job.stopped and time.perf_counter() - started < 1.0
    assert job.iterations > 0


def test_the_changes_of_a_seat_between_two_views_are_named():
    """What the solo Heir's automaton did in its turn, which no move of the log says."""
    game = get_game("heir-solo")
    state = game.new_initial_state(seed=4, config=game.config(level="hard"))
    turn = state.turn
    before = game.view(game.observe(state, 0))
    while state.turn == turn or state.current_player != 0:
        state.apply(state.legal_moves()[-1])
    after = game.view(game.observe(state, 0))
    changes = board_changes(before, after, (1,))
    assert changes and any(c.startswith("treasury") or c.startswith("city") for c in changes), changes
    assert board_changes(after, after, (0, 1)) == []
