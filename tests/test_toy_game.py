"""The toy game "tricks" (tests/toy_game): its two engines agree move for move, and the generic
search (omen_search._search) plays it for 2, 3 and 4 players through the C contract alone.

``OMEN_TOY_GAMES`` sets how many random games the differential test plays (300 by default).
"""

from __future__ import annotations

import doctest
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_search import _search
from omen_search.bots import RandomBot
from omen_search.errors import IllegalMoveError, NotationError, UsageError
from omen_search.perft import perft
from omen_search.rng import Rng
from play_helper import random_walk
from toy_game import reference, vocabulary
from toy_game.build import NoCompilerError, load_core
from toy_game.reference import GameState
from toy_game.vocabulary import Move, parse_card, suit_of

TOY_GAMES = int(os.environ.get("OMEN_TOY_GAMES", "300"))
PLAYER_COUNTS = (2, 3, 4)
HIDDEN_MOVE = -2  # what seen_move answers for another seat's discard (ext/common/game_api.pxd)


@pytest.fixture(scope="module")
def core() -> Any:
    """The core's state class, compiled on first use (skips without a C compiler)."""
    try:
        return load_core().CoreState
    except NoCompilerError as exc:
        pytest.skip(str(exc))


def cards(*names: str) -> list[int]:
    return [parse_card(name) for name in names]


def full_state(state: Any) -> tuple:
    """Everything a "tricks" game holds, read through the public members of either engine (copied:
    the reference's members are its live lists)."""
    return (state.players, state.current_player, state.ply, tuple(map(tuple, state.hands)), tuple(state.discards),
            tuple(state.undealt), tuple(state.history), state.scores())


# The sure trick (seats by role: L leads first, then N, then Y, the seat to decide). Y holds 5S and
# 1S and must follow L's 4S after N, void in swords, threw a crown. 5S takes the trick (2 points to
# L's 1) and wins the game unless L's last card is a sword; 1S gives L the trick and the game in
# every world. Y sees only 7 hidden cards: L's last card and discard, N's, and the 3 undealt.
SURE_TRICK_HANDS = {"L": ("5W", "4S", "3C", "4W"), "N": ("1W", "2C", "1C", "2S"), "Y": ("2W", "5S", "1S", "3W")}
SURE_TRICK_MOVES = ("discard 4W", "discard 2S", "discard 3W", "play 5W", "play 1W", "play 2W", "play 4S", "play 2C")


def sure_trick(engine: Any, leader: int) -> Any:
    """The sure-trick position with seat ``leader`` in the role L (Y is ``leader + 2``)."""
    hands: list[list[int]] = [[] for _ in range(3)]
    for offset, role in enumerate("LNY"):
        hands[(leader + offset) % 3] = cards(*SURE_TRICK_HANDS[role])
    state = engine.from_deal(hands, leader)
    for move in SURE_TRICK_MOVES:
        state.apply(move)
    return state


# ------------------------------------------------------------------------------ the rules


def test_doctests_of_the_toy_game():
    for module in (vocabulary, reference):
        failed, attempted = doctest.testmod(module)
        assert attempted > 0 and failed == 0, module.__name__


def test_the_core_plays_the_reference_games(core):
    """Differential: the same legal moves, observations for every seat, determinisations and
    outcome, over random games of every player count."""
    for game in range(TOY_GAMES):
        players = PLAYER_COUNTS[game % len(PLAYER_COUNTS)]
        ref, fast = GameState.new(game, players), core.new(game, players)
        rng = Rng(game)
        while not ref.is_terminal():
            assert full_state(fast) == full_state(ref), (game, ref.ply)
            assert fast.legal_move_ids() == ref.legal_move_ids() and fast.legal_moves() == ref.legal_moves()
            assert all(fast.observation(p) == ref.observation(p) for p in range(players))
            seat = ref.current_player
            assert full_state(fast.determinized(seat, game)) == full_state(ref.determinized(seat, game))
            move = ref.legal_moves()[rng.below(len(ref.legal_moves()))]
            ref.apply(move)
            fast.apply(move)
        assert fast.is_terminal() and full_state(fast) == full_state(ref)
        assert fast.returns() == ref.returns() and sum(ref.returns()) == pytest.approx(1)


@pytest.mark.parametrize("players, leaves", [(2, 7452), (3, 4608), (4, 512)])
def test_perft_counts_every_game_alike_on_both_engines(core, players, leaves):
    """Whole-game perft from seed 0 (pinned), and from a mid-game position."""
    assert perft(GameState.new(0, players), 12) == perft(core.new(0, players), 12) == leaves
    ref, fast = random_walk(GameState.new(7, players), 1, plies=players + 1), random_walk(core.new(7, players), 1,
                                                                                          plies=players + 1)
    for depth in range(5):
        assert perft(ref, depth) == perft(fast, depth)


@settings(max_examples=60)
@given(seed=st.integers(0, 2**64 - 1), policy=st.integers(0, 2**32), players=st.sampled_from(PLAYER_COUNTS))
def test_apply_then_undo_restores_the_core_byte_for_byte(core, seed, policy, players):
    fast, ref = core.new(seed, players), GameState.new(seed, players)
    seen = []
    rng = Rng(policy)
    while not fast.is_terminal():
        seen.append((fast.state_bytes(), fast.legal_move_ids(), full_state(ref)))
        move = fast.legal_moves()[rng.below(len(fast.legal_move_ids()))]
        fast.apply_trusted(move)
        ref.apply_trusted(move)
    for state_bytes, ids, before in reversed(seen):
        move = fast.undo()
        assert ref.undo() == move
        assert fast.state_bytes() == state_bytes and fast.legal_move_ids() == ids
        assert full_state(ref) == before
    for engine in (fast, ref):
        with pytest.raises(IndexError):
            engine.undo()


def test_a_clone_is_independent_and_has_no_undo_history(core):
    for engine in (GameState, core):
        state = random_walk(engine.new(3), 3, plies=5)
        before = full_state(state)
        copy = random_walk(state.clone(), 4)
        assert copy.is_terminal() and full_state(state) == before
        with pytest.raises(IndexError):
            state.clone().undo()


def test_moves_are_checked_and_named_in_errors(core):
    for engine in (GameState, core):
        state = engine.new(1)
        with pytest.raises(IllegalMoveError, match=r"ply 0: player 0 cannot play 'play 1C' here"):
            state.apply("play 1C")
        random_walk(state, 1)
        with pytest.raises(IllegalMoveError, match="nobody"):
            state.apply("play 1C")
    with pytest.raises(IllegalMoveError, match="game is over"):
        state.apply_id(1)


@given(st.text(max_size=12))
def test_move_notation_parses_back_or_raises_a_notation_error(text):
    try:
        move = Move.parse(text)
    except NotationError:
        return
    assert Move.parse(str(move)) == move == Move.from_id(move.id)


@pytest.mark.parametrize("make, message", [
    (lambda e: e.new(players=5), "players: must be one of 2, 3, 4, got 5"),
    (lambda e: e.new(seed=-1), "seed: must be an integer"),
    (lambda e: e.from_deal([[0, 1, 2, 3]] * 3, 0), r"hands\[1\]\[0\]: not a card id 0-14 dealt once: 0"),
    (lambda e: e.from_deal([[0, 1, 2], [3, 4, 5, 6], [7, 8, 9, 10]], 0), r"hands\[0\]: 3 players are dealt 4"),
    (lambda e: e.from_deal([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]], 3), "leader: must be a seat"),
    (lambda e: e.new().determinized(3), "player: must be a seat from 0 to 2, got 3"),
    (lambda e: e.new().observation(-1), "player: must be a seat"),
])
def test_bad_set_ups_are_usage_errors_on_both_engines(core, make: Callable, message: str):
    for engine in (GameState, core):
        with pytest.raises(UsageError, match=message):
            make(engine)


# ------------------------------------------------------------------------------ determinisation


def replayed(world: Any) -> GameState:
    """The game ``world`` would be if its cards had been dealt so: its hands rebuilt from the
    history and replayed with every move checked (raises ``IllegalMoveError`` if one is illegal)."""
    hands = [list(hand) for hand in world.hands]
    for seat, move in world.history:
        hands[seat].append(move.card)
    leader = world.history[0][0] if world.history else world.current_player
    game = GameState.from_deal([sorted(hand) for hand in hands], leader)
    for _, move in world.history:
        game.apply(move)
    return game


def test_a_determinisation_keeps_what_the_player_saw_and_every_card(core):
    for seed in range(60):
        players = PLAYER_COUNTS[seed % len(PLAYER_COUNTS)]
        for engine in (GameState, core):
            state = random_walk(engine.new(seed, players), seed, plies=seed % (3 * players))
            for player in range(players):
                world = state.determinized(player, seed)
                assert world.observation(player) == state.observation(player)
                hidden = [sorted(h for q, hand in enumerate(s.hands) if q != player for h in hand)
                          + sorted(d for q, d in enumerate(s.discards) if q != player and d is not None)
                          + s.undealt for s in (state, world)]
                assert sorted(hidden[0]) == sorted(hidden[1])
                assert full_state(replayed(world)) == full_state(world)  # the history is legal in the world


def test_a_seat_that_failed_to_follow_suit_holds_none_of_it_in_any_world(core):
    state = sure_trick(core, leader=0)
    player_n = 1  # threw 2C on 4S: void in swords
    worlds = [state.determinized(2, seed) for seed in range(200)]
    assert all(suit_of(card) != suit_of(parse_card("4S")) for w in worlds for card in w.hands[player_n])
    assert len({tuple(map(tuple, w.hands)) for w in worlds}) > 10  # and the hidden cards do move


def test_a_determinisation_is_reproducible_from_its_seed(core):
    state = random_walk(core.new(11), 11, plies=4)
    assert full_state(state.determinized(1, 5)) == full_state(state.determinized(1, 5))
    assert full_state(state.determinized(1, 5)) != full_state(state.determinized(1, 6))


# ------------------------------------------------------------------------------ the generic search


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_run_playouts_replays_the_random_bot_games(core, players):
    scores, plies = _search.run_playouts(core.new(players=players), 20, seed=100)
    assert scores.shape == (20, players)
    for i in range(20):
        state = GameState.new(100 + i, players)
        bot = RandomBot(100 + i)
        while not state.is_terminal():
            state.apply_trusted(bot.choose(state))
        assert list(scores[i]) == list(state.scores())
        assert plies[i] == state.ply


@pytest.mark.parametrize("players", PLAYER_COUNTS)
@pytest.mark.parametrize("mo", [False, True], ids=["SO", "MO"])
def test_ismcts_runs_for_every_player_count(core, players, mo):
    """Iterations as asked, children that are legal moves, every iteration counted once at the
    root, and the game's two statistics per root move (points and tricks taken after the root)."""
    state = random_walk(core.new(4, players), 4, plies=players)  # the first trick's leader to play
    result = _search.search(state, iterations=400, mo=mo, seed=2)
    children = {move: (visits, avail) for move, visits, avail, *_ in result["children"]}
    assert result["iterations"] == 400 and not result["full"]
    assert set(children) == set(state.legal_move_ids())
    assert sum(visits for visits, _ in children.values()) == 400
    assert all(visits <= avail <= 400 for visits, avail in children.values())
    assert set(result["stats"]) == set(children)
    tricks = vocabulary.HAND_SIZES[players] - 1
    for move, (points, taken) in result["stats"].items():
        assert 0 <= taken <= tricks * children[move][0]
        assert taken <= points <= (tricks + vocabulary.RANKS) * children[move][0]


def test_mo_ismcts_merges_the_hidden_discards_of_the_other_two_seats(core):
    """From the first discard, the root player's MO tree sees the next two discards as one
    HIDDEN_MOVE each (made by the next seats); its SO tree tells every card apart."""
    state = core.new(4)
    leader = state.current_player
    mo = _search.search(state, iterations=600, mo=True, seed=3, pv_depth=2)
    so = _search.search(state, iterations=600, mo=False, seed=3, pv_depth=2)
    for line in mo["pv"].values():
        assert [(move, player) for move, player, _ in line] == [(HIDDEN_MOVE, (leader + 1) % 3),
                                                                 (HIDDEN_MOVE, (leader + 2) % 3)]
    for line in so["pv"].values():
        assert line and all(move >= 0 and Move.from_id(move).discard for move, _, _ in line)
    assert mo["nodes"] < so["nodes"]


def test_mo_ismcts_keeps_one_tree_per_player(core):
    """Each player's tree has its own node cap. The root player's MO tree, which merges the other
    seats' discards, stays under a cap that the other seats' trees reach: the search is full all
    the same. One SO tree fills to the cap itself."""
    state = core.new(4)
    mo = _search.search(state, iterations=200, mo=True, seed=1, max_nodes=150)
    so = _search.search(state, iterations=200, mo=False, seed=1, max_nodes=150)
    assert mo["full"] and mo["nodes"] < 150 and mo["iterations"] == 200
    assert so["full"] and so["nodes"] == 150
    assert sum(visits for _, visits, *_ in mo["children"]) == 200


@pytest.mark.parametrize("mo", [False, True], ids=["SO", "MO"])
@pytest.mark.parametrize("leader", [0, 1, 2])
def test_the_search_takes_the_sure_trick_from_every_seat(core, leader, mo):
    state = sure_trick(core, leader)
    assert state.current_player == (leader + 2) % 3
    assert state.legal_moves() == [Move(parse_card("1S")), Move(parse_card("5S"))]
    result = _search.search(state, iterations=300, mo=mo, seed=leader)
    best = max(result["children"], key=lambda child: child[1])
    assert best[0] == parse_card("5S")


@pytest.mark.parametrize("plies", [0, 3, 5])
def test_best_shares_of_three_players_sum_to_one(core, plies):
    state = random_walk(core.new(8), 8, plies=plies)
    shares = _search.best_shares(state, state.legal_move_ids(), worlds=30, rollouts=8, seed=1)
    assert sum(shares) == pytest.approx(1) and all(0 <= share <= 1 for share in shares)


def test_best_shares_favour_the_sure_trick(core):
    """5S is never worse; it only ties with 1S (both lose by a point) when L's last card is a sword
    and N's a crown."""
    low, high = _search.best_shares(sure_trick(core, 1), cards("1S", "5S"), worlds=40, rollouts=4, seed=2)
    assert high > 0.75 and low + high == pytest.approx(1)


def test_best_shares_sum_to_one_when_the_moves_lose_many_rollouts(core):
    # both moves lose every rollout by a point in some worlds (5S when L's last card is a sword and
    # N's a crown; 1S often): with 1001 rollouts their tallies are -1.001
    shares = _search.best_shares(sure_trick(core, 0), cards("1S", "5S"), worlds=50, rollouts=1001, seed=1)
    assert sum(shares) == pytest.approx(1)
