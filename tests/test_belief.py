"""Belief weighting of the determinisations (issue 22): deals of the state where the other player's
latest moves began, played forward and weighed by how likely those moves were under a model of play
learned from self-play; the game's ``deal_like`` that deals the root with a world's hands; the fit
of the model; the bot option. A game whose core cannot deal like another keeps today's search."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from cli_helper import assert_one_line_error, run
from omen_search._core import CoreState
from omen_search._search import MAX_WORLDS, Search, can_believe, deal_like, move_probabilities
from omen_search.bots import make_bot
from omen_search.errors import UsageError
from omen_search.evaluation import read_evaluation, shipped_evaluation
from omen_search.game import get_game
from omen_search.games.heir.rules import Config
from omen_search.match import MatchOptions, MatchSetup, run_match
from omen_search.search import Belief, Limit, TreeKeeper
from omen_search.value_training import decisions, fit, move_features, record_files, replays, train, win_chances

HEIR = get_game("heir")
POLICY = shipped_evaluation(HEIR, "policy")


def after_other_moves(seed: int, at_least: int = 2, game=HEIR):
    """A game of ``game`` (Heir's core) on deal ``seed`` played by a seeded random policy to a decision of player 0 with
    two or more moves, the first after ``at_least`` or more moves of player 1 since player 0's
    previous decision (after ply 20): ``(past, path, state)``, ``past`` being the state before the
    first of those moves and ``path`` the moves from there to ``state``."""
    state = game.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    path: list[tuple[int, int]] = []
    past = None
    while not state.is_terminal():
        mover, ids = state.current_player, state.legal_move_ids()
        if mover == 0 and len(ids) > 1:
            if past is not None and sum(m == 1 for _, m in path) >= at_least and state.ply > 20:
                return past, path, state
            past, path = None, []
        if mover == 1 and past is None:
            past, path = state.clone(), []
        if past is not None:
            path.append((int(ids[0 if len(ids) == 1 else rng.integers(len(ids))]), mover))
            state.apply_id(path[-1][0])
        else:
            state.apply_id(int(ids[rng.integers(len(ids))]))
    raise AssertionError(f"deal {seed}: no such decision")


def test_only_games_whose_core_deals_like_another_can_believe():
    assert can_believe(HEIR.new_initial_state(1)) and POLICY is not None
    omega = get_game("omega").new_initial_state(1)
    assert not can_believe(omega)
    with pytest.raises(UsageError, match="deal_like"):
        Search(omega).believe(omega, [])
    with pytest.raises(UsageError, match="deal_like"):
        deal_like(omega, 0, omega)


def unseen_cards(state) -> list[int]:
    """The cards player 0 cannot see in a state of Heir's core, by type: the deck, the cards beneath the
    structures and player 1's hand, sorted."""
    counts = [state.hands[1]] + list(state.under)
    return sorted(state.deck + [t for c in counts for t, n in enumerate(c) for _ in range(n)])


@pytest.mark.parametrize("name", ["heir", "heir+reign"])  # the combined game's core is built on Heir's files
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), deal=st.integers(0, 2**32))
def test_deal_like_gives_the_other_player_the_source_hand_and_keeps_what_the_viewer_sees(name, seed, deal):
    _, _, state = after_other_moves(seed % 50, game=get_game(name))
    source = state.determinized(0, seed)
    dealt = deal_like(state, 0, source, deal)
    assert dealt is not None and dealt.hands[1] == source.hands[1]
    assert dealt.observation(0) == state.observation(0)  # consistent with what player 0 sees
    assert dealt.hands[0] == state.hands[0]
    assert unseen_cards(dealt) == unseen_cards(state)  # the same cards, dealt again


def test_deal_like_refuses_a_hand_that_cannot_be_the_other_players():
    refused = 0
    for seed in range(8):
        past, _, state = after_other_moves(seed)
        world = past.determinized(0, seed)  # the hand before player 1's moves since: it no longer fits
        if sum(world.hands[1]) != sum(state.hands[1]):
            before = state.state_bytes()
            assert deal_like(state, 0, world, seed) is None
            assert state.state_bytes() == before
            refused += 1
    assert refused >= 4
    with pytest.raises(UsageError, match="source"):
        deal_like(state, 0, get_game("heir+reign").new_initial_state(1))
    with pytest.raises(UsageError, match="player"):
        deal_like(state, 2, state)


def test_believe_keeps_only_worlds_in_which_the_other_players_moves_were_legal():
    past, path, state = after_other_moves(5, at_least=3)
    search = Search(state, seed=2)
    report = search.believe(past, path, None, 400)
    assert report["worlds"] == 400 and 0 < report["kept"] < 400  # the moves played rule out some hands
    assert report["ess"] <= report["kept"]
    assert search.run(iterations=300) == 300 and search.result()["children"]


def test_a_sharper_model_of_play_concentrates_the_belief():
    past, path, state = after_other_moves(7, at_least=3)
    ess = [Search(state, seed=1).believe(past, path, [scale * w for w in POLICY.weights], 400)["ess"]
           for scale in (0.0, 1.0, 30.0)]
    assert ess[0] > ess[2] and ess[1] > ess[2]


def test_a_move_the_searcher_cannot_see_weighs_no_world():
    """With the Emissary variant, the other player's face-down Emissary is a move player 0 does not
    know: a world held to it would be weighed by what player 0 cannot see."""
    for seed in range(30):
        state = CoreState.new(seed=seed, config=Config(emissary=True))
        rng = np.random.default_rng(seed)
        past, path, hidden = None, [], False
        while not state.is_terminal():
            mover, ids = state.current_player, state.legal_move_ids()
            if mover == 0 and len(ids) > 1 and past is not None:
                if hidden:
                    assert Search(state).believe(past, path, POLICY.weights, 64) == {"worlds": 0, "kept": 0, "ess": 0.0}
                    return
                past, path = None, []
            if mover == 1 and past is None:
                past, path, hidden = state.clone(), [], False
            pick = int(rng.integers(len(ids)))
            if past is not None:
                path.append((int(ids[pick]), mover))
                hidden = hidden or mover == 1 and str(state.legal_moves()[pick]).startswith("emissary")
            state.apply_id(int(ids[pick]))
    raise AssertionError("no game had player 1 place a face-down Emissary")


def test_a_keeper_whose_moves_no_longer_lead_to_the_state_weighs_nothing_and_searches_on():
    """A game taken back (the web app's undo) and played on otherwise: the kept state and the
    moves since no longer meet this one, so the decision is not weighed, and the search goes on."""
    past, path, state = after_other_moves(6)
    keeper = TreeKeeper(belief=Belief(POLICY.weights, 64))
    keeper.root = past.clone()
    keeper.root.apply_id(keeper.root.legal_move_ids()[-1])  # a state off the line the path follows
    keeper.searches = [Search(state, seed=1)]
    assert path[0][1] == 1  # the other player's moves begin at once: the belief starts at the kept state
    keeper.believe(state, path)
    assert keeper.anchor is None and keeper.weighed == 0
    assert keeper.search(state, Limit(iterations=50)).best in state.legal_moves()


def test_believe_refuses_what_it_cannot_use():
    past, path, state = after_other_moves(2)
    search = Search(state)
    with pytest.raises(UsageError, match="worlds"):
        search.believe(past, path, None, 0)
    with pytest.raises(UsageError, match="worlds"):
        search.believe(past, path, None, MAX_WORLDS + 1)
    with pytest.raises(UsageError, match="weights"):
        search.believe(past, path, [1.0, 2.0])
    with pytest.raises(UsageError, match="weights"):
        search.believe(past, path, [float("nan")] * len(POLICY.weights))
    with pytest.raises(UsageError, match="path"):
        search.believe(past, path[:-1])  # does not reach the root
    with pytest.raises(UsageError, match="path"):
        search.believe(past, [(path[0][0], 1 - path[0][1])] + path[1:])  # the wrong mover
    with pytest.raises(UsageError, match="root move"):
        Search(state, root_move=state.legal_move_ids()[0]).believe(past, path)


def test_the_search_and_the_training_share_one_model_of_play():
    _, _, state = after_other_moves(4)
    w = np.asarray(POLICY.weights)
    x = move_features(state, 2)
    expected = win_chances(x[None], w)[0]
    assert move_probabilities(state, w) == pytest.approx(expected, rel=1e-9)
    assert move_probabilities(state) == pytest.approx(np.full(len(x), 1 / len(x)))


def test_the_policy_fit_recovers_the_weights_that_chose_the_moves():
    rng = np.random.default_rng(6)
    truth = np.array([1.5, -0.5, 0.0])
    samples = []
    for moves in (2, 5, 9):  # decisions of different sizes, as a game's are
        x = rng.normal(size=(12_000, moves, 3))
        chosen = (win_chances(x, truth).cumsum(axis=1) > rng.random((len(x), 1))).argmax(axis=1)
        samples.append((x, np.eye(moves)[chosen]))
    assert fit(samples, ridge=1e-6) == pytest.approx(truth, abs=0.06)


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    folder = tmp_path_factory.mktemp("selfplay")
    run_match(MatchSetup("greedy", "random", seed=5, records=str(folder)), MatchOptions(games=4))
    return folder


def test_the_model_of_play_is_fitted_to_every_decision_of_the_records(records, tmp_path, capsys):
    files = record_files(records)
    samples = decisions(replays(files, HEIR), HEIR)
    choices = sum(len(x) for x, _ in samples)
    assert all(set(y.sum(axis=1)) == {1.0} and x.shape[1] >= 2 for x, y in samples)
    policy = train(records, HEIR, target="policy", folds=2)
    assert policy.trained["decisions"] == choices and policy.trained["log_loss_of_uniform"] > 0
    out = tmp_path / "p.json"
    status, printed, _ = run(capsys, "train-value", str(records), "--policy", "--out", str(out), "--folds", "0")
    assert status == 0 and f"{choices} decisions of 4 games" in printed
    assert read_evaluation(out, HEIR).weights == policy.weights  # the same fit, written and read back
    assert json.loads(out.read_text())["trained"]["decisions"] == choices
    with pytest.raises(UsageError, match="target"):
        train(records, HEIR, target="moves")


def test_the_belief_bot_weighs_its_deals_in_heir_and_plays_on_without_in_other_games():
    bot = make_bot("ismcts:iterations=80,belief=1,worlds=64", 3, HEIR)
    assert bot.name == "ismcts:iterations=80,c=0.7,belief=1.0,worlds=64"
    other = make_bot("random", 3, HEIR)
    state = HEIR.new_initial_state(3)
    after_theirs, theirs = 0, False  # the bot's decisions searched after the other player's first move
    while not state.is_terminal():
        mover = state.current_player
        after_theirs += mover == 0 and len(state.legal_move_ids()) > 1 and theirs
        state.apply((bot if mover == 0 else other).choose(state))  # apply checks legality
        theirs = theirs or mover == 1
    keeper = bot.keeper
    assert keeper is not None and keeper.kept > 0 and keeper.reused == 0
    assert keeper.weighed == after_theirs > 10  # every one, the next decisions of a turn by the same moves
    omega = get_game("omega")
    bot = make_bot("omen:iterations=40,belief=1", 3, omega)
    state = omega.new_initial_state(3)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply(bot.choose(state))
    assert bot.keeper is not None and bot.keeper.weighed == 0 and bot.keeper.reused > 0


@pytest.mark.parametrize("spec, problem", [("ismcts:belief=-1", "belief"), ("ismcts:belief=1000", "belief"),
                                            ("omen:worlds=0", "worlds"), ("ismcts:belief=x", "belief")])
def test_bad_belief_options_are_refused_in_one_line(spec, problem, capsys):
    with pytest.raises(UsageError, match=problem):
        make_bot(spec)
    assert_one_line_error(*run(capsys, "match", spec, "random", "--games", "2"), problem)
