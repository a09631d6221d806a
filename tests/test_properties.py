"""Properties every game of the reference engine keeps, checked over seeded random games.

Games are played by :class:`~omen_search.bots.RandomBot` players seeded like the CLI seeds them
(``bot_seed(game_seed, seat)``), so a failing seed reproduces with
``omen-search play --players random,random --seed N``.

The cheap invariants (conservation of cards, tiles and coins; capacity; known cards; the hand and
coin limits at the end of a turn; no dead ends) are checked at every ply of a fixed range of seeds.
The dearer ones (undo, clone, notation, positions, observations, hidden information) run under
hypothesis on fewer games.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omen_search.bots import RandomBot, bot_seed
from omen_search.games.heir.cards import default_cards
from omen_search.games.heir.notation import Move
from omen_search.games.heir.observe import observe
from omen_search.games.heir.positions import load_observation, load_position, to_position
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.rules import CAPACITY, CITIES, COIN_LIMIT, COINS, HAND_LIMIT, Config

SEEDS = st.integers(0, 2**32)
CONFIGS = st.builds(
    Config,
    first_player=st.integers(0, 1),
    gods=st.sampled_from([("anubis", "horus"), ("horus", "anubis")]),
    emissary=st.booleans(),
)
# Whole random games take ~15 ms each; the heavier checks make one example cost up to ~0.3 s.
GAMES = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEAVY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TOTAL_UNITS = 40
TOTAL_TILES = 9
# A random game lasts about 18 turns of about 9 plies; this bound only stops a runaway loop.
MAX_PLIES = 20_000


# ------------------------------------------------------------------------------ helpers


def new_game(seed: int, config: Config | None = None) -> tuple[GameState, tuple[RandomBot, RandomBot]]:
    state = GameState.new(seed=seed, config=config or Config())
    return state, (RandomBot(bot_seed(seed, 0)), RandomBot(bot_seed(seed, 1)))


def play_out(state: GameState, bots, checked: bool = False, limit: int | None = None) -> GameState:
    """Play random moves until the game ends (or ``limit`` plies were played)."""
    n = 0
    while not state.is_terminal() and (limit is None or n < limit):
        move = bots[state.current_player].choose(state)
        state.apply(move) if checked else state.apply_trusted(move)
        n += 1
        assert n < MAX_PLIES, "runaway game"
    return state


def game_at(seed: int, fraction: float, config: Config | None = None) -> GameState:
    """The state ``fraction`` of the way through the seeded random game."""
    state, bots = new_game(seed, config)
    length = play_out(state.clone(), bots).ply
    state, bots = new_game(seed, config)
    return play_out(state, bots, limit=int(fraction * length))


def unit_census(s: GameState) -> Counter:
    """Where every unit card is: the deck, the discard pile, hands, cities, beneath structures,
    revealed from a structure, awaiting the keep decision, put forward as emissary."""
    where = Counter(s.deck) + Counter(s.discard)
    for t in range(s.T):
        where[t] += s.revealed[t] + s.limbo[t]
        for p in (0, 1):
            where[t] += s.hands[p][t] + s.under[p][t]
            where[t] += sum(s.cities[c][p][t] for c in range(CITIES))
    for e in s.emissaries:
        if e >= 0:
            where[e] += 1
    return where


def check_invariants(s: GameState) -> None:
    """The invariants that hold between any two decisions."""
    # every zone count is a count
    for zone in [s.revealed, s.limbo, *s.hands, *s.known, *s.under, *(side for city in s.cities for side in city)]:
        assert min(zone) >= 0, f"ply {s.ply}: negative count in a zone"
    # 40 unit cards, each design with its number of copies
    census = unit_census(s)
    assert sum(census.values()) == TOTAL_UNITS, f"ply {s.ply}: {sum(census.values())} unit cards"
    for u in s.units:
        assert census[u.index] == u.copies, f"ply {s.ply}: {census[u.index]} copies of {u.name!r}, not {u.copies}"
    # 9 reward tiles: in a city, or won (unused or used)
    tiles = [t for c in s.city_tiles for t in c] + s.unused[0] + s.unused[1] + s.used[0] + s.used[1]
    assert sorted(tiles) == list(range(TOTAL_TILES)), f"ply {s.ply}: reward tiles {sorted(tiles)}"
    # 20 coins: each player's and the supply's are never negative
    assert min(s.coins) >= 0 and s.supply() >= 0 and sum(s.coins) + s.supply() == COINS, f"ply {s.ply}: coins {s.coins}"
    # H-surge-2: capacity 5 per side, COLOSSAL counting 2
    for c in range(CITIES):
        for p in (0, 1):
            assert s.side_count(c, p) <= CAPACITY, f"ply {s.ply}: city{c} side {p} holds {s.side_count(c, p)}"
    # D-known-1: known copies are copies in the hand
    for p in (0, 1):
        for t in range(s.T):
            assert s.known[p][t] <= s.hands[p][t], f"ply {s.ply}: seat {p} knows {s.known[p][t]} of {s.units[t].name!r}"
    # D-decision-1: a game in progress always has a decision with at least one move; a finished one none
    if s.is_terminal():
        assert s.current_player == -1 and s.legal_moves() == []
    else:
        moves = s.legal_moves()
        assert s.current_player in (0, 1) and moves, f"ply {s.ply}: no legal move in a game in progress"
        assert len(set(moves)) == len(moves), f"ply {s.ply}: duplicate legal moves"


def play_checked(seed: int, config: Config | None = None, checked: bool = False) -> GameState:
    """Play a whole random game, checking the cheap invariants at every ply and the end-of-turn
    limits (H-offer-2) each time the turn passes or the game ends."""
    state, bots = new_game(seed, config)
    check_invariants(state)
    while not state.is_terminal():
        active, turn = state.active, state.turn
        move = bots[state.current_player].choose(state)
        state.apply(move) if checked else state.apply_trusted(move)
        check_invariants(state)
        if state.turn != turn or state.is_terminal():
            assert state.hand_size(active) <= HAND_LIMIT, f"seed {seed} ply {state.ply}: hand {state.hand_size(active)}"
            assert state.coins[active] <= COIN_LIMIT, f"seed {seed} ply {state.ply}: coins {state.coins[active]}"
        assert state.ply < MAX_PLIES
    assert state.turn <= state.config.max_turns
    return state


# ------------------------------------------------------------------------------ cheap invariants, every ply


def test_invariants_at_every_ply_of_1000_games():
    """Conservation, capacity, known cards, limits and no dead ends at every ply of seeds 0..999."""
    turns = []
    for seed in range(1000):
        state = play_checked(seed)
        assert state.winner() in (0, 1)
        turns.append(state.turn)
    assert max(turns) < Config().max_turns, "a random game should end well before the turn limit"


@GAMES
@given(seed=SEEDS, config=CONFIGS)
def test_every_game_ends_within_max_turns(seed, config):
    state = play_checked(seed, config)
    assert state.is_terminal() and state.turn <= config.max_turns
    assert state.winner() in (0, 1)
    assert state.returns() in ((1.0, 0.0), (0.0, 1.0))


@GAMES
@given(seed=SEEDS, max_turns=st.integers(1, 12))
def test_turn_limit_ends_the_game(seed, max_turns):
    """D-end-2: a game ends after ``max_turns`` turns at the latest."""
    state, bots = new_game(seed, Config(max_turns=max_turns))
    play_out(state, bots)
    assert state.is_terminal() and state.turn <= max_turns


@GAMES
@given(seed=SEEDS, first_player=st.integers(0, 1))
def test_emissary_variant_plays_legal_games(seed, first_player):
    """Setup 4: the Emissary variant; every move goes through the checked door."""
    config = Config(emissary=True, first_player=first_player)
    state = play_checked(seed, config, checked=True)
    assert state.winner() in (0, 1)
    # the first two decisions are the emissaries, seat 0 first (D-emissary-1)
    again, _ = new_game(seed, config)
    assert again.pending.kind == "emissary" and again.current_player == 0


@GAMES
@given(seed=SEEDS)
def test_same_seed_and_bots_give_the_same_game(seed):
    a = play_out(*new_game(seed))
    b = play_out(*new_game(seed))
    assert a.moves == b.moves
    assert a._snapshot() == b._snapshot()
    assert a.scores() == b.scores() and a.winner() == b.winner()


# ------------------------------------------------------------------------------ undo, clone, notation


@HEAVY
@given(seed=SEEDS, config=CONFIGS)
def test_apply_then_undo_restores_the_exact_state(seed, config):
    state, bots = new_game(seed, config)
    while not state.is_terminal():
        before = state._snapshot()
        legal = state.legal_moves()
        move = bots[state.current_player].choose(state)
        state.apply(move)
        assert state.undo() == move
        assert state._snapshot() == before, f"ply {state.ply}: undo of {move} did not restore the state"
        assert state.legal_moves() == legal
        state.apply(move)
    # and all the way back to the start
    start, _ = new_game(seed, config)
    while state.moves:
        state.undo()
    assert state._snapshot() == start._snapshot()
    with pytest.raises(IndexError):
        state.undo()


@HEAVY
@given(seed=SEEDS, fraction=st.floats(0, 1))
def test_clone_is_independent(seed, fraction):
    state = game_at(seed, fraction)
    before = state._snapshot()
    moves, history = list(state.moves), len(state.history)
    clone = state.clone()
    assert clone._snapshot() == before and clone.moves == moves
    play_out(clone, (RandomBot(seed), RandomBot(seed + 1)))
    while clone.moves:  # undo through the shared history, past the cloning point
        clone.undo()
    assert state._snapshot() == before
    assert state.moves == moves and len(state.history) == history
    # and the other way round: moves on the original leave the clone alone
    clone = state.clone()
    play_out(state, (RandomBot(seed), RandomBot(seed + 1)))
    assert clone._snapshot() == before


@HEAVY
@given(seed=SEEDS, config=CONFIGS)
def test_every_legal_move_round_trips_through_notation(seed, config):
    state, bots = new_game(seed, config)
    while not state.is_terminal():
        for move in state.legal_moves():
            text = str(move)
            assert Move.parse(text) == move, text
            assert str(Move.parse(text)) == text
        state.apply_trusted(bots[state.current_player].choose(state))


# ------------------------------------------------------------------------------ positions and observations


@HEAVY
@given(seed=SEEDS, config=CONFIGS)
def test_positions_and_observations_round_trip(seed, config):
    state, bots = new_game(seed, config)
    while True:
        doc = json.loads(json.dumps(to_position(state)))
        loaded = load_position(doc)
        assert loaded._snapshot() == state._snapshot(), f"ply {state.ply}: position does not round-trip"
        assert loaded.legal_moves() == state.legal_moves()
        for p in (0, 1):
            obs = observe(state, p)
            assert load_observation(json.loads(json.dumps(obs))) == obs, f"ply {state.ply}: observation {p}"
            assert state.observation(p) == obs
        if state.is_terminal():
            break
        state.apply_trusted(bots[state.current_player].choose(state))


def _swap_hidden_card(doc: dict, opp: int) -> bool:
    """Swap one card of ``opp``'s hand that ``opp``'s opponent does not know with a different card
    of the deck. Returns False when there is no such pair. A discard under way picks in card order
    from ``pending.last`` on (D-pick-1): the swap keeps the cards it can still pick."""
    player = doc["players"][opp]
    known = Counter(player["known"])
    hand = Counter(player["hand"])
    hidden = [name for name in hand if hand[name] > known[name]]
    pending = doc["pending"]
    last = pending["last"] if pending and pending["kind"] == "discard" and pending["player"] == opp else 0
    order = {u.name: u.index for u in default_cards().units}
    for name in hidden:
        for i, other in enumerate(doc["deck"]):
            if other != name and (order[other] >= last or order[name] < last):
                player["hand"].remove(name)
                player["hand"].append(other)
                doc["deck"][i] = name
                return True
    return False


def _swap_hidden_tile(doc: dict, opp: int) -> bool:
    """Swap one of ``opp``'s unused (face-down) reward tiles with a tile still in a city."""
    player = doc["players"][opp]
    for c, stack in enumerate(doc["city_tiles"]):
        if stack and player["unused_tiles"]:
            player["unused_tiles"][0], stack[-1] = stack[-1], player["unused_tiles"][0]
            return True
    return False


@HEAVY
@given(seed=SEEDS, config=CONFIGS)
def test_observation_hides_the_opponents_hand_and_tiles(seed, config):
    """H-hidden-1: p's observation is the same for two states that differ only in what p cannot see
    (which cards the opponent holds beyond the known ones, the deck order, the opponent's unused
    tiles and the city tiles)."""
    state, bots = new_game(seed, config)
    swapped = 0
    while not state.is_terminal():
        for p in (0, 1):
            opp = 1 - p
            obs = observe(state, p)
            assert obs["players"][opp]["hand"] is None and obs["players"][opp]["unused_tiles"] is None
            assert "deck" not in obs and "rng" not in obs and "under" not in obs["players"][opp]
            doc = to_position(state)
            changed = _swap_hidden_card(doc, opp)
            changed = _swap_hidden_tile(doc, opp) or changed
            if changed:
                other = load_position(doc)
                assert other._snapshot() != state._snapshot()
                assert observe(other, p) == obs, f"ply {state.ply}: seat {p} sees a change in hidden cards"
                swapped += 1
        state.apply_trusted(bots[state.current_player].choose(state))
    assert swapped > 0
