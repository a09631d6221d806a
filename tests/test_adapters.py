"""The ecosystem adapters: Heir's action space and observation encoding, the games as OpenSpiel
games and PettingZoo AEC environments (Heir, OMEGA and OMNIA for 2, 3 and 4 players, the same tests
for both, and the three-player toy game "tricks" of tests/toy_game, which must play through them as
any registered game), and the OpenSpiel side-by-side script (smoke run). OMNIA's own action space
and encoding checks are in tests/test_omnia_adapter.py."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import omen_search
from omen_search._core import CoreState
from omen_search.bots import RandomBot
from omen_search.errors import OmenError
from omen_search.games.heir.actions import NUM_ACTIONS, action_of, packed_of
from omen_search.games.heir.cards import default_cards
from omen_search.games.heir.encoding import SCALARS, ObservationEncoder
from omen_search.games.heir.rules import Config

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(Path(omen_search.__file__).resolve().parent.parent)}


# ------------------------------------------------------------------------------ actions


@pytest.mark.parametrize("config", [Config(), Config(emissary=True), Config(level="brutal")])
def test_every_legal_move_has_one_action_and_back(config):
    for seed in range(15):
        state = CoreState.new(seed=seed, config=config)
        bot = RandomBot(seed)
        while not state.is_terminal():
            ids = state.legal_move_ids()
            actions = [action_of(m) for m in ids]
            assert all(0 <= a < NUM_ACTIONS for a in actions)
            assert len(set(actions)) == len(actions), "two moves share an action"
            assert [packed_of(a) for a in actions] == ids
            state.apply(bot.choose(state))


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 10**9])
def test_actions_outside_the_space_are_refused(action):
    with pytest.raises(OmenError, match="action"):
        packed_of(action)


# ---------------------------------------------------------------------------- observations


def test_doctests_of_the_encoding():
    import doctest

    from omen_search.games.heir import encoding

    failed, attempted = doctest.testmod(encoding)
    assert attempted > 0 and failed == 0


def test_doctests_of_heirs_adapter():
    import doctest

    from omen_search.games.heir import adapter

    failed, attempted = doctest.testmod(adapter)
    assert attempted > 0 and failed == 0


def test_the_encoding_layout_tiles_the_vector():
    encoder = ObservationEncoder(default_cards())
    starts = sorted(encoder.layout.values())
    assert starts[0][0] == 0 and sum(length for _, length in starts) == encoder.size
    assert all(a + n == b for (a, n), (b, _) in zip(starts, starts[1:]))
    assert encoder.layout["scalars"][1] == len(SCALARS)


@pytest.mark.parametrize("config", [Config(), Config(emissary=True), Config(level="brutal")])
def test_the_encoding_is_what_the_seat_sees(config):
    """Re-dealing what a seat cannot see leaves its vector alone; its own hand is in it."""
    encoder = ObservationEncoder(default_cards())
    seats = (0,) if config.solo else (0, 1)
    for seed in range(6):
        state = CoreState.new(seed=seed, config=config)
        bot = RandomBot(seed)
        while not state.is_terminal():
            for p in seats:
                vector = encoder.encode(state.observation(p))
                assert vector[encoder.slice("hand")].sum() == state.hand_size(p)
                assert (encoder.encode(state.determinized(p, seed).observation(p)) == vector).all()
            state.apply(bot.choose(state))


# ----------------------------------------------------------------------------- OpenSpiel


@pytest.fixture(scope="module")
def pyspiel():
    module = pytest.importorskip("pyspiel")
    import omen_search.adapters.openspiel  # noqa: F401  (registers the games)

    return module


@pytest.mark.parametrize("name, params", [("omen_heir", {}), ("omen_heir", {"emissary": True}),
                                          ("omen_heir_solo", {"level": "hard"}), ("omen_reign", {}),
                                          ("omen_reign", {"deck": "sdraft", "emissary": True}),
                                          ("omen_reign", {"deck": "draft", "beginner": True})])
def test_openspiel_random_simulation_test(pyspiel, name, params):
    """OpenSpiel's own checks for Python games (legal actions, clones, returns, strings)."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("name, params", [("omen_heir", {}), ("omen_heir", {"emissary": True}),
                                          ("omen_heir_solo", {"level": "hard"}), ("omen_reign", {"deck": "skill"})])
def test_openspiel_states_serialise(pyspiel, name, params):
    """OpenSpiel's simulation test with serialisation, and a state read back plays on exactly as the
    original, a re-dealt one (``resample_from_infostate``) included."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    rng = random.Random(5)
    state = game.new_initial_state()
    state.apply_action(11)
    for _ in range(15):
        state.apply_action(rng.choice(state.legal_actions()))
    resampled = state.resample_from_infostate(0, rng.random)
    for original in (state, resampled):
        copy = game.deserialize_state(original.serialize())
        assert copy.history() == original.history() and str(copy) == str(original)
        while not original.is_terminal():
            assert copy.legal_actions() == original.legal_actions()
            assert [copy.observation_string(p) for p in range(game.num_players())] == \
                [original.observation_string(p) for p in range(game.num_players())]
            action = rng.choice(original.legal_actions())
            original.apply_action(action)
            copy.apply_action(action)
        assert copy.is_terminal() and copy.returns() == original.returns()


def test_openspiel_game_shape(pyspiel):
    game = pyspiel.load_game("omen_heir")
    assert game.num_players() == 2 and game.num_distinct_actions() == NUM_ACTIONS
    assert game.observation_tensor_size() == ObservationEncoder(default_cards()).size
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 4096
    assert pyspiel.load_game("omen_heir_solo").num_players() == 1


def test_openspiel_play_matches_the_core_move_for_move(pyspiel):
    game = pyspiel.load_game("omen_heir")
    state = game.new_initial_state()
    state.apply_action(17)
    core = CoreState.new(seed=17)
    bot = RandomBot(3)
    while not core.is_terminal():
        assert state.current_player() == core.current_player
        assert [state.action_to_string(a) for a in state.legal_actions()] == \
            sorted((str(m) for m in core.legal_moves()), key=lambda text: action_of(core.move_id(text)))
        move = bot.choose(core)
        state.apply_action(action_of(core.move_id(move)))
        core.apply(move)
    assert state.is_terminal()
    winner = core.winner()
    assert state.returns() == ([0.0, 0.0] if winner is None else [1.0 if p == winner else -1.0 for p in (0, 1)])


def test_openspiel_resample_keeps_the_information_state(pyspiel):
    game = pyspiel.load_game("omen_heir")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for deal in range(4):
        state = game.new_initial_state()
        state.apply_action(deal)
        bot = RandomBot(deal)
        for _ in range(25):
            player = state.current_player()
            worlds = [state.resample_from_infostate(player, sampler) for _ in range(4)]
            for world in worlds:
                assert world.information_state_string(player) == state.information_state_string(player)
                assert world.legal_actions() == state.legal_actions()
            state.apply_action(action_of(state.core.move_id(bot.choose(state.core))))
            if state.is_terminal():
                break


def test_openspiel_observations_private_and_public(pyspiel):
    """The default observer sees the seat's hand (string and tensor); the public one sees no hand,
    and gives the same string from either seat."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game("omen_heir")
    state = game.new_initial_state()
    state.apply_action(11)
    p = state.current_player()
    hand = state.core.observation(p)["players"][p]["hand"]
    assert hand and json.loads(state.observation_string(p))["players"][p]["hand"] == hand
    encoder = ObservationEncoder(default_cards())
    assert sum(state.observation_tensor(p)[encoder.slice("hand")]) == len(hand)
    public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                               private_info=pyspiel.PrivateInfoType.NONE))
    text = public.string_from(state, p)
    assert text == public.string_from(state, 1 - p) and json.loads(text)["players"][p]["hand"] is None
    public.set_from(state, p)
    assert public.dict["hand"].sum() == 0 and public.dict["scalars"][SCALARS.index("my_hand_size")] == len(hand)


def test_openspiel_resample_redeals_what_the_player_cannot_see(pyspiel):
    game = pyspiel.load_game("omen_heir")
    state = game.new_initial_state()
    state.apply_action(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    hands = {tuple(state.resample_from_infostate(0, sampler).core.hands[1]) for _ in range(10)}
    assert len(hands) > 1


def test_openspiel_python_ismcts_plays_the_adapter(pyspiel):
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("omen_heir")
    state = game.new_initial_state()
    state.apply_action(2)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)), 0.7, 20,
                           random_state=np.random.RandomState(1))
    assert bot.step(state) in state.legal_actions()


def test_openspiel_cpp_ismcts_bot_refuses_python_games_without_crashing(pyspiel):
    """What docs/adapters.md says: OpenSpiel's C++ ISMCTSBot, called with the GIL kept, cannot
    resample a Python game's state (its bridge does not forward resample_from_infostate). If a
    later OpenSpiel can, the side-by-side script uses the C++ bot and this test says so."""
    sys.path.insert(0, str(ROOT / "bench"))
    saved = dict(os.environ)
    try:
        import compare_openspiel
    finally:
        sys.path.remove(str(ROOT / "bench"))
        os.environ.clear()
        os.environ.update(saved)  # the script pins OPENBLAS_NUM_THREADS for its own process
    reason = compare_openspiel.cpp_ismcts_unavailable(pyspiel.load_game("omen_heir"))
    assert reason is not None and "ResampleFromInfostate" in reason, "the C++ ISMCTSBot now plays: update the docs"


def test_importing_the_openspiel_adapter_exits_cleanly(pyspiel):
    """Registered games must not crash the interpreter at exit (a lambda factory did)."""
    done = subprocess.run([sys.executable, "-P", "-c", "import omen_search.adapters.openspiel as o; "
                           "import pyspiel; pyspiel.load_game('omen_heir')"],
                          env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]


# ----------------------------------------------------------------------------- PettingZoo


@pytest.fixture(scope="module")
def pettingzoo_env():
    pytest.importorskip("pettingzoo")
    from omen_search.adapters import pettingzoo

    return pettingzoo.env


@pytest.mark.parametrize("kwargs", [{}, {"level": "normal"}, {"emissary": True}, {"game": "reign-of-war"},
                                    {"game": "reign-of-war", "deck": "sdraft"}])
def test_pettingzoo_api_test(pettingzoo_env, kwargs):
    from pettingzoo.test import api_test

    api_test(pettingzoo_env(**kwargs), num_cycles=300, verbose_progress=False)


def test_pettingzoo_seed_test(pettingzoo_env):
    from pettingzoo.test import seed_test

    seed_test(pettingzoo_env, num_cycles=200)


def test_pettingzoo_mask_is_the_legal_moves_and_rewards_are_zero_sum(pettingzoo_env):
    env = pettingzoo_env()
    env.reset(seed=3)
    rng = __import__("random").Random(1)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        legal = sorted(int(a) for a in obs["action_mask"].nonzero()[0])
        assert legal == sorted(info["moves"]) == sorted(action_of(m) for m in env.core.legal_move_ids())
        env.step(rng.choice(legal))
    assert sum(env._cumulative_rewards.values()) == 0
    assert env.core.is_terminal()


def test_pettingzoo_observation_hides_the_opponents_hand(pettingzoo_env):
    env = pettingzoo_env()
    env.reset(seed=9)
    seen = env.observe("player_0")["observation"]
    other = env.core.determinized(0, 1)
    env.core = other
    assert (env.observe("player_0")["observation"] == seen).all()


# ------------------------------------------------------------------------ a game that is not Heir


@pytest.fixture
def tricks_spiel(pyspiel, tricks):
    """``omen_tricks_3``: the toy game registered with OpenSpiel on demand."""
    from omen_search.adapters.openspiel import register_openspiel_game

    assert register_openspiel_game(tricks) == "omen_tricks_3"
    return pyspiel.load_game("omen_tricks_3")


def _dealt_and_played(game, deal: int, plies: int, rng: random.Random):
    state = game.new_initial_state()
    state.apply_action(deal)
    for _ in range(plies):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_every_game_with_an_adapter_has_an_openspiel_name(pyspiel):
    from omen_search.adapters.openspiel import GAMES
    from omen_search.adapters.spec import GameAdapter
    from omen_search.game import get_game

    names = ("omen_heir", "omen_heir_solo", "omen_reign", "omen_omega", "omen_omega_3", "omen_omega_4",
             "omen_omnia", "omen_omnia_3", "omen_omnia_4")
    assert set(names) <= set(GAMES) <= set(pyspiel.registered_names())
    assert [pyspiel.load_game(name).num_players() for name in names] == [2, 1, 2, 2, 3, 4, 2, 3, 4]
    for name in ("heir", "heir-solo", "reign-of-war", *N_PLAYER_GAMES):
        assert isinstance(get_game(name).adapter(), GameAdapter)


def test_the_toy_game_through_openspiel_random_simulations(tricks_spiel, pyspiel):
    """OpenSpiel's own checks (legal actions, clones, returns adding up to 1, strings, serialisation)."""
    from omen_search.adapters.spec import GameAdapter

    assert isinstance(tricks_spiel.adapter, GameAdapter)
    game = tricks_spiel
    assert game.num_players() == 3 and game.num_distinct_actions() == 32
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0
    assert game.observation_tensor_size() == tricks_spiel.adapter.observation_size
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


def test_the_toy_game_plays_as_its_core_move_for_move(tricks_spiel, tricks):
    state = tricks_spiel.new_initial_state()
    state.apply_action(9)
    core = tricks.new_initial_state(9)
    rng = random.Random(2)
    seats = set()
    while not core.is_terminal():
        seats.add(core.current_player)
        assert state.current_player() == core.current_player
        assert state.legal_actions() == sorted(core.legal_move_ids())
        assert [state.action_to_string(a) for a in state.legal_actions()] == [str(m) for m in core.legal_moves()]
        move = rng.choice(core.legal_moves())
        state.apply_action(move.id)
        core.apply(move)
    assert seats == {0, 1, 2} and state.is_terminal() and state.returns() == list(core.returns())
    assert sum(state.returns()) == 1


def test_the_toy_game_resamples_what_a_player_cannot_see(tricks_spiel, pyspiel):
    """Every re-dealt world looks the same to the player (strings, tensor, legal moves) and plays
    on; the other hands do change."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = set()
    for deal in range(6):
        rng = random.Random(deal)
        state = _dealt_and_played(tricks_spiel, deal, 0, rng)
        while not state.is_terminal():
            player = state.current_player()
            for _ in range(3):
                world = state.resample_from_infostate(player, sampler)
                assert world.information_state_string(player) == state.information_state_string(player)
                assert world.observation_tensor(player) == state.observation_tensor(player)
                assert world.legal_actions() == state.legal_actions()
                assert world.core.observation(player) == state.core.observation(player)
                others.add(tuple(world.core.hands[(player + 1) % 3]))
                world.apply_action(rng.choice(world.legal_actions()))  # a world plays on
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(others) > 6


def test_the_toy_game_states_serialise_and_play_on(tricks_spiel, pyspiel):
    """A state read back, a re-dealt one included, is the same core state, byte for byte, and plays on
    exactly as the original."""
    rng = random.Random(4)
    state = _dealt_and_played(tricks_spiel, 13, 5, rng)
    resampled = state.resample_from_infostate(state.current_player(), rng.random)
    for original in (state, resampled):
        copy = tricks_spiel.deserialize_state(original.serialize())
        assert copy.core.state_bytes() == original.core.state_bytes() and copy.core.seed == original.core.seed
        assert copy.history() == original.history() and str(copy) == str(original)
        while not original.is_terminal():
            assert copy.legal_actions() == original.legal_actions()
            assert [copy.observation_string(p) for p in range(3)] == [original.observation_string(p) for p in range(3)]
            action = rng.choice(original.legal_actions())
            original.apply_action(action)
            copy.apply_action(action)
        assert copy.is_terminal() and copy.returns() == original.returns()


def test_the_toy_game_observers_private_and_public(tricks_spiel, pyspiel):
    from open_spiel.python.observation import make_observation

    state = _dealt_and_played(tricks_spiel, 3, 4, random.Random(3))
    adapter = tricks_spiel.adapter
    for p in range(3):
        seen = json.loads(state.observation_string(p))
        assert seen == state.core.observation(p) and seen["hand"]
        assert sum(state.observation_tensor(p)[adapter.observation_layout["hand"]]) == len(seen["hand"])
    public = make_observation(tricks_spiel, pyspiel.IIGObservationType(perfect_recall=False,
                                                                       private_info=pyspiel.PrivateInfoType.NONE))
    texts = {public.string_from(state, p) for p in range(3)}
    assert len(texts) == 1
    view = json.loads(texts.pop())
    assert view["hand"] is None and view["discard"] is None and view["seat"] is None
    assert all(move == "discard ?" for _, move in view["history"] if move.startswith("discard"))
    for p in range(3):
        public.set_from(state, p)
        assert public.dict["hand"].sum() == 0 and public.dict["discard"].sum() == 0
        assert public.dict["hand_sizes"][0] == len(state.core.hands[p])  # "mine" is the observing seat


def test_openspiel_python_ismcts_plays_the_toy_game(tricks_spiel):
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    rs = np.random.RandomState(1)
    bot = ismcts.ISMCTSBot(tricks_spiel, mcts.RandomRolloutEvaluator(1, rs), 0.7, 30, random_state=rs)
    state = tricks_spiel.new_initial_state()
    state.apply_action(5)
    while not state.is_terminal():
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert sum(state.returns()) == 1


def test_registering_the_toy_game_exits_cleanly(pyspiel, tricks):
    """A game registered on demand must not crash the interpreter at exit either."""
    code = ("import pyspiel; from omen_search.adapters.openspiel import register_openspiel_game; "
            "from toy_game.game import ToyGame; pyspiel.load_game(register_openspiel_game(ToyGame(3)))"
            ".new_initial_state().apply_action(1)")
    env = {**ENV, "PYTHONPATH": os.pathsep.join([ENV["PYTHONPATH"], str(ROOT / "tests")])}
    done = subprocess.run([sys.executable, "-P", "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-500:]


def test_a_game_without_an_adapter_is_refused(pyspiel, pettingzoo_env):
    from omen_search.adapters.openspiel import register_openspiel_game
    from omen_search.game import Game

    class Bare(Game):
        name, title, players, options = "bare", "a game without an adapter", 2, ()
        parse_move = config = owns = new_initial_state = None  # never called

    with pytest.raises(OmenError, match="adapters: bare has no adapter"):
        register_openspiel_game(Bare())
    with pytest.raises(OmenError, match="adapters: bare has no adapter"):
        pettingzoo_env(Bare())


def test_pettingzoo_api_test_on_the_toy_game(pettingzoo_env, tricks):
    from pettingzoo.test import api_test

    env = pettingzoo_env("tricks-3")
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    api_test(env, num_cycles=100, verbose_progress=False)


def test_pettingzoo_seed_test_on_the_toy_game(pettingzoo_env, tricks):
    from pettingzoo.test import seed_test

    seed_test(lambda: pettingzoo_env(tricks), num_cycles=50)


def test_pettingzoo_toy_game_masks_observations_and_rewards(pettingzoo_env, tricks):
    """The mask is the legal moves, an agent's vector does not change when what it cannot see is
    re-dealt, and the rewards are the game's returns (adding up to 1)."""
    env = pettingzoo_env(game="tricks-3")
    env.reset(seed=5)
    rng = random.Random(5)
    adapter = env.adapter
    final = {}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            final[agent] = reward
            env.step(None)
            continue
        seat = int(agent.removeprefix("player_"))
        legal = sorted(int(a) for a in obs["action_mask"].nonzero()[0])
        assert legal == sorted(info["moves"]) == env.core.legal_move_ids()
        twin = env.core.determinized(seat, rng.randrange(2**32))
        assert (adapter.encode(twin.observation(seat)) == obs["observation"]).all()
        env.step(rng.choice(legal))
    assert env.core.is_terminal()
    assert [final[f"player_{s}"] for s in range(3)] == list(env.core.returns())
    assert sum(final.values()) == pytest.approx(1.0)


# ------------------------------------------------- N-player games: OMEGA and OMNIA, 2 to 4 players


@dataclass(frozen=True)
class Family:
    """What the generic tests need to know of a family played by 2 to 4 (the rest is its adapter's):
    the segment of a seat's own hidden cards and their count in the core, what a re-deal changes
    (for some player count, from some seat), and what a public view must not show."""

    name: str
    modules: tuple[str, ...]  # modules whose doctests run
    mine: str
    held: Callable[[Any, int], int]
    hidden: Callable[[Any], Hashable]
    public_zero: tuple[str, ...]
    public_seat: Callable[[dict[str, Any]], bool]  # a seat of a public view shows nothing private


FAMILIES = {
    "omega": Family("omega", ("omega.adapter", "omega.vectors"), "my_pyramid", lambda core, p: sum(core.pyramid[p]),
                    lambda core: tuple(map(tuple, core.pyramid)), ("my_pyramid", "known"),
                    lambda seat: set(seat["pyramid"]) == {"size"}),
    "omnia": Family("omnia", ("omnia.adapter", "omnia.vectors", "omnia.actions"), "my_hand",
                    lambda core, p: len(core.hand[p]), lambda core: tuple(map(tuple, core.hand)),
                    ("my_hand", "my_primed"),
                    lambda seat: isinstance(seat["hand"], int) and isinstance(seat["primed"], int)),
}
COUNTS = ((2, ""), (3, "-3"), (4, "-4"))
N_PLAYER_GAMES = tuple(f"{family}{suffix}" for family in FAMILIES for _, suffix in COUNTS)


def _family(name: str) -> Family:
    return FAMILIES[name.split("-")[0]]


def _adapter(name):
    from omen_search.game import get_game

    return get_game(name).adapter()


def test_doctests_of_what_the_game_adapters_share():
    import doctest

    from omen_search import action_space, vector_layout

    for module in (action_space, vector_layout):
        failed, attempted = doctest.testmod(module)
        assert attempted > 0 and failed == 0, module.__name__


@pytest.mark.parametrize("family", FAMILIES)
def test_doctests_of_the_n_player_adapters_and_encodings(family):
    import doctest
    import importlib

    for name in FAMILIES[family].modules:
        failed, attempted = doctest.testmod(importlib.import_module(f"omen_search.games.{name}"))
        assert attempted > 0 and failed == 0, name


@pytest.mark.parametrize("name", N_PLAYER_GAMES)
def test_moves_have_one_action_each_and_the_vector_is_what_the_seat_sees(name):
    """Every legal move has its own action and comes back; re-dealing what a seat cannot see leaves
    its vector alone (the vector shows no hidden card); its own hidden cards are in it; a stored
    state plays on as the original."""
    adapter, family = _adapter(name), _family(name)
    layout = adapter.observation_layout
    for seed in range(3):
        core = adapter.new_core(seed, adapter.config({}))
        rng = random.Random(seed)
        while not core.is_terminal():
            ids = core.legal_move_ids()
            actions = [adapter.action_of(m) for m in ids]
            assert all(0 <= a < adapter.num_actions for a in actions) and len(set(actions)) == len(actions)
            assert [adapter.move_id_of(a) for a in actions] == ids
            if rng.random() < 0.1:
                for p in range(core.n):
                    vector = adapter.encode(core.observation(p))
                    assert vector[layout[family.mine]].sum() == family.held(core, p)
                    assert (adapter.encode(core.determinized(p, rng.randrange(2**32)).observation(p)) == vector).all()
                copy = adapter.deserialize(adapter.serialize(core))
                assert copy.observation(0) == core.observation(0) and copy.playout(seed) == core.clone().playout(seed)
            core.apply_id(rng.choice(ids))
        assert sum(adapter.returns(core)) == pytest.approx(1.0)


@pytest.mark.parametrize("name", ("omega-4", "omnia-4"))
def test_the_encoding_layout_tiles_the_vector_and_actions_outside_are_refused(name):
    adapter = _adapter(name)
    slices = sorted(adapter.observation_layout.values(), key=lambda s: s.start)
    assert slices[0].start == 0 and slices[-1].stop == adapter.observation_size
    assert all(a.stop == b.start for a, b in zip(slices, slices[1:]))
    for action in (-1, adapter.num_actions):
        with pytest.raises(OmenError, match="action"):
            adapter.move_id_of(action)


@pytest.mark.parametrize("name", N_PLAYER_GAMES)
def test_n_player_games_through_openspiel_random_simulations(pyspiel, name):
    """OpenSpiel's own checks (legal actions, clones, returns adding up to 1, strings, serialisation)."""
    players = _adapter(name).players
    game = pyspiel.load_game("omen_" + name.replace("-", "_"), {"first_player": players - 1})
    assert game.num_players() == players and game.utility_sum() == 1.0
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("family", FAMILIES)
def test_openspiel_resamples_serialises_and_observes(pyspiel, family):
    """Three players: a re-dealt world looks the same to the player (strings, tensor, legal moves),
    what it cannot see changes; a state read back (a re-dealt one too) plays on as the original; the
    public observer gives one string from every seat and shows nothing private."""
    from open_spiel.python.observation import make_observation

    spec = FAMILIES[family]
    game = pyspiel.load_game(f"omen_{family}_3")
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    rng = random.Random(3)
    state = _dealt_and_played(game, 3, 12, rng)
    hidden = set()
    for _ in range(4):
        player = state.current_player()
        world = state.resample_from_infostate(player, sampler)
        assert world.information_state_string(player) == state.information_state_string(player)
        assert world.observation_tensor(player) == state.observation_tensor(player)
        assert world.legal_actions() == state.legal_actions()
        hidden.add(spec.hidden(world.core))
    assert len(hidden) > 1
    public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                               private_info=pyspiel.PrivateInfoType.NONE))
    texts = {public.string_from(state, p) for p in range(3)}
    assert len(texts) == 1 and all(map(spec.public_seat, json.loads(texts.pop())["players"]))
    public.set_from(state, 0)
    assert all(public.dict[segment].sum() == 0 for segment in spec.public_zero)
    resampled = state.resample_from_infostate(state.current_player(), rng.random)
    for original in (state, resampled):
        copy = game.deserialize_state(original.serialize())
        assert copy.history() == original.history() and str(copy) == str(original)
        while not original.is_terminal():
            assert copy.legal_actions() == original.legal_actions()
            action = rng.choice(original.legal_actions())
            original.apply_action(action)
            copy.apply_action(action)
        assert copy.returns() == original.returns() and sum(copy.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("kwargs, players", [({}, 2), ({"players_count": 3}, 3), ({"players_count": 4}, 4)])
def test_pettingzoo_api_test_on_n_player_games(pettingzoo_env, family, kwargs, players):
    from pettingzoo.test import api_test

    env = pettingzoo_env(family, **kwargs)
    assert env.possible_agents == [f"player_{seat}" for seat in range(players)]
    api_test(env, num_cycles=300, verbose_progress=False)


def test_pettingzoo_takes_a_game_of_the_family_and_its_options(pettingzoo_env):
    env = pettingzoo_env(game="omega-4", first_player=2)
    env.reset(seed=1)
    assert env.game.name == "omega-4" and env.core.config.first_player == 2
    env = pettingzoo_env("omnia", players_count=3, flavors="dusk,grove,tide", first_player=1)
    env.reset(seed=1)
    assert env.game.name == "omnia-3" and env.core.active == 1
    assert [f.name for f in (env.cards.flavors[i] for i in env.core.flavor)] == ["dusk", "grove", "tide"]


@pytest.mark.parametrize("family", FAMILIES)
def test_pettingzoo_seed_test_on_n_player_games(pettingzoo_env, family):
    from pettingzoo.test import seed_test

    seed_test(lambda: pettingzoo_env(family, players_count=4), num_cycles=100)


@pytest.mark.parametrize("family", FAMILIES)
def test_pettingzoo_refuses_a_player_count_the_family_is_not_played_by(pettingzoo_env, family):
    with pytest.raises(OmenError, match=f"players_count: {family} is played by 2, 3 or 4 players, not 5"):
        pettingzoo_env(family, players_count=5)


# ------------------------------------------------------------------------- the comparison


@pytest.mark.parametrize("game, games", [("heir", 2), ("reign-of-war", 2), ("omega-3", 0), ("omnia-4", 0)])
def test_compare_openspiel_script_runs_and_reports(pyspiel, game, games):
    """A smoke run; OMEGA's and OMNIA's without the match (OpenSpiel's Python search plays them slowly)."""
    done = subprocess.run([sys.executable, "-P", str(ROOT / "bench" / "compare_openspiel.py"), "--game", game,
                           "--games", str(games),
                           "--seconds", "0.01", "--our-iterations", "500", "--their-iterations", "5", "--workers", "1",
                           "--playout-seconds", "0.02", "--rounds", "1", "--json"],
                          env=ENV, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-800:]
    out = json.loads(done.stdout)
    assert out["game"] == game and out["players"] == {"omega-3": 3, "omnia-4": 4}.get(game, 2)
    assert out["search"]["ratio"] > 1 and out["search"]["cpp_ismcts_hearts_iterations_per_s"] > 0
    match = out["match"]
    if games == 0:
        assert match is None
    else:
        assert match["games"] == 2 and match["our_wins"] + match["ties"] <= 2
        assert 0 <= match["win_rate_low"] <= match["win_rate"] <= match["win_rate_high"] <= 1
        assert match["openspiel_simulations_per_move"] > 0 and match["openspiel_seconds_per_move"] > 0
    assert set(out["playouts"]) == {"omen_core", "rounds", "hearts", "dou_dizhu", "crazy_eights"}
    for game in ("hearts", "dou_dizhu", "crazy_eights"):
        for way in ("rollouts", "games"):
            entry = out["playouts"][game][way]
            assert entry["plies_per_s"] > 0 and entry["our_ratio"] > 0


def test_the_code_in_docs_adapters_md_runs(pyspiel, pettingzoo_env):
    import re

    text = (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/adapters.md", "exec"), {})
