"""Properties every game of the Reign of War reference engine keeps, checked over random games
(issue 16, point 7).

A game is drawn as a deal seed, a :class:`~omen_search.games.reign.rules.Config` (every deck variant,
the beginner set, Emissary of War, the catch-up rule, the first player, sometimes a short turn cap)
and a seed for the move choices: at each decision a legal move is taken uniformly with an
:class:`~omen_search.rng.Rng` of that seed (:func:`walk`). A failing example therefore reproduces
with ``play(seed, config, move_seed)``.

Checked at every decision: conservation of the unit cards (each in exactly one zone, the totals those
of the variant's deck or decks, each own-deck card on its owner's side), of the coins and the reward
cards; the City Limit; known cards; the end checks; apply + undo; notation round trips; observations
(JSON, nothing hidden shown) and determinisation (consistent with the observation, a playable
world, and really re-dealing the hidden part: over several worlds some deal differs from the truth
whenever the chance of them all matching it is negligible). Then: illegal moves, the end of every
game and its score (R-score-1), and Deck Building's validation. A plain test plays seeds 1..200 of
the base game and 1..50 of each variant through the checked ``apply``.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omen_search.bots import bot_seed
from omen_search.errors import IllegalMoveError, NotationError, UsageError
from omen_search.games.reign.cards import default_cards
from omen_search.games.reign.notation import VERBS, Move
from omen_search.games.reign.reference import GameState
from omen_search.games.reign.rules import (
    CITIES,
    CITY_LIMIT,
    COIN_SUPPLY,
    COINS,
    DECKS,
    DEFAULT_MAX_TURNS,
    DRAFT_COINS,
    DRAFT_LIMITS,
    DRAFT_STACKS,
    FEATS_TO_END,
    REWARDS_PER_CITY,
    SDRAFT_PACK,
    SDRAFT_ROUNDS,
    Config,
)
from omen_search.rng import Rng
from reign_helper import BUILD_DECKS, dealt_decks, stack_decks

CARDS = default_cards()
UNIT_NAMES = {u.name for u in CARDS.units}
REWARD_NAMES = {r.name for r in CARDS.rewards}
ALL_REWARDS = sorted(r.index for r in CARDS.rewards for _ in range(r.copies))
ALL_UNIT_NAMES = sorted(UNIT_NAMES)

# A random game takes ~25 ms and ~180 plies; the heavier checks make one example cost up to ~0.4 s.
SEEDS = st.integers(0, 2**64 - 1)
MOVE_SEEDS = st.integers(0, 2**64 - 1)
LIGHT = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
HEAVY = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# A runaway game (an engine loop) is stopped here; random games last a few hundred plies.
MAX_PLIES = 20_000
# Worlds tried when checking that determinisation re-deals the hidden part, and the chance of a
# false alarm accepted (all of them equal to the truth although each deal is uniform).
WORLDS = 16
FALSE_ALARM = 1e-12


# ------------------------------------------------------------------------------ strategies


def designs(beginner: bool) -> list:
    return [u for u in CARDS.units if u.beginner or not beginner]


@st.composite
def build_decks(draw, beginner: bool = False) -> tuple[str, ...]:
    """A legal Deck Building list (R-build-1): 10 different designs within the type limits."""
    by_type = {k: [u.name for u in designs(beginner) if u.type == k] for k in DRAFT_LIMITS}
    splits = [
        (s, b, o)
        for s in range(DRAFT_LIMITS["soldier"] + 1)
        for b in range(DRAFT_LIMITS["beast"] + 1)
        for o in range(DRAFT_LIMITS["oracle"] + 1)
        if s + b + o == DRAFT_STACKS
        and s <= len(by_type["soldier"]) and b <= len(by_type["beast"]) and o <= len(by_type["oracle"])
    ]
    split = draw(st.sampled_from(splits))
    names: list[str] = []
    for kind, n in zip(("soldier", "beast", "oracle"), split):
        names += draw(st.lists(st.sampled_from(by_type[kind]), min_size=n, max_size=n, unique=True))
    return tuple(draw(st.permutations(names)))


@st.composite
def given_decks(draw, beginner: bool = False) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Two given decks (D-given-1): from 4 cards (a starting hand) to half the cards in play each,
    taken from a shuffle of every card, so that no design has more copies than the set."""
    every = [u.name for u in designs(beginner) for _ in range(u.copies)]
    shuffled = draw(st.permutations(every))
    n0, n1 = draw(st.integers(4, len(every) // 2)), draw(st.integers(4, len(every) // 2))
    return tuple(shuffled[:n0]), tuple(shuffled[n0:n0 + n1])


@st.composite
def configs(draw, decks: tuple[str, ...] = DECKS, short: bool = True) -> Config:
    """Any configuration: every deck variant, beginner, emissary, catch-up, first player, the coin
    supply (40, a Grand Melee table's 20, or any the core holds) and, if ``short``, sometimes a
    small turn cap (R-end-4)."""
    deck = draw(st.sampled_from(decks))
    beginner = draw(st.booleans())
    lists: tuple = ()
    if deck == "build":
        lists = (draw(build_decks(beginner)), draw(build_decks(beginner)))
    elif deck == "given":
        lists = draw(given_decks(beginner))
    max_turns = draw(st.integers(1, 30)) if short and draw(st.integers(0, 3)) == 0 else DEFAULT_MAX_TURNS
    least = 2 * DRAFT_COINS if deck == "draft" else COIN_SUPPLY[0]
    return Config(
        first_player=draw(st.integers(0, 1)),
        emissary=draw(st.booleans()),
        beginner=beginner,
        deck=deck,
        decks=lists,
        catch_up=draw(st.booleans()),
        max_turns=max_turns,
        coin_supply=draw(st.sampled_from([COINS, 20]) | st.integers(least, COIN_SUPPLY[1])),
    )


# ------------------------------------------------------------------------------ playing


def full_state(s: GameState) -> dict:
    """Every attribute of a game but its history: what undo must restore, whatever the snapshot
    (``_snapshot``, built from a list of fields) holds."""
    return copy.deepcopy({k: v for k, v in vars(s).items() if k not in ("history", "moves", "cards", "units")})


def walk(state: GameState, move_seed: int, checked: bool = True) -> Iterator[GameState]:
    """Yield ``state`` at each decision and once more at the end, playing a uniformly random legal
    move (drawn from ``Rng(move_seed)``) between yields. The consumer may look at the state, and
    undo/redo, as long as it leaves it as it was."""
    rng = Rng(move_seed)
    while True:
        yield state
        if state.is_terminal():
            return
        moves = state.legal_moves()
        move = moves[rng.below(len(moves))]
        state.apply(move) if checked else state.apply_trusted(move)
        assert state.ply < MAX_PLIES, "runaway game"


def play(seed: int, config: Config, move_seed: int, checked: bool = False, limit: int | None = None) -> GameState:
    """The random game of ``(seed, config, move_seed)``, to the end or ``limit`` plies."""
    state = GameState.new(seed=seed, config=config)
    for s in walk(state, move_seed, checked):
        if limit is not None and s.ply >= limit:
            break
    return state


# ------------------------------------------------------------------------------ invariants


def _zone_counts(s: GameState) -> list[list[int]]:
    zones = [s.revealed, s.limbo, s.limbo_enraged]
    for p in (0, 1):
        zones += [s.hands[p], s.known[p], s.packs[p], s.deck_lists[p], s.deck_known[p]]
        zones += [s.cities[c][p] for c in range(CITIES)] + [s.enraged[c][p] for c in range(CITIES)]
    return zones


def _revealed_owner(s: GameState) -> int:
    """Whose cards the revealed ones are: the player resolving the reveal (R-card-4)."""
    d = s.pending
    if d is not None and d.kind == "reveal_take":
        return d.owner
    for entry in s.stack:
        if entry[0] == "resume" and entry[1].kind == "reveal_take":
            return entry[1].owner
    raise AssertionError(f"ply {s.ply}: revealed cards {s.revealed} with no reveal under way")


def unit_census(s: GameState) -> list[Counter]:
    """Where every unit card is, per owner (one shared count for a shared deck): decks, discard
    piles, hands, city sides face up and Enraged, revealed, limbo, the Beast set aside, emissaries."""
    own = s.config.own_decks
    where = [Counter(), Counter()]

    def put(p: int, t: int, n: int = 1) -> None:
        where[p if own else 0][t] += n

    for p in (0, 1):
        for t in s.decks[p] + s.discards[p]:
            put(p, t)
        for t in range(s.T):
            put(p, t, s.hands[p][t] + sum(s.cities[c][p][t] + s.enraged[c][p][t] for c in range(CITIES)))
        if s.emissaries[p] >= 0:
            put(p, s.emissaries[p])
    if any(s.revealed):
        owner = _revealed_owner(s)
        for t in range(s.T):
            put(owner, t, s.revealed[t])
    if any(s.limbo) or any(s.limbo_enraged):
        assert s.pending is not None and s.pending.kind == "keep", f"ply {s.ply}: limbo outside a keep decision"
        for t in range(s.T):
            put(s.pending.player, t, s.limbo[t] + s.limbo_enraged[t])
    if s.beast >= 0:
        put(s.active, s.beast)
    return [+c for c in where]


def expected_decks(s: GameState) -> list[Counter]:
    """The cards each player's deck is made of (the shared deck as seat 0's), as the variant builds
    it from the config and the draft (for a Simplified draft, the picks made)."""
    cfg, names = s.config, CARDS.units
    every = Counter(t for u in designs(cfg.beginner) for t in [u.index] * u.copies)
    if cfg.deck == "shared":
        return [every, Counter()]
    if cfg.deck == "skill":
        one = Counter(u.index for u in designs(cfg.beginner))
        return [one, Counter(one)]
    if cfg.deck == "build":
        return [Counter(t for n in deck for t in [CARDS.unit(n).index] * CARDS.unit(n).copies) for deck in cfg.decks]
    if cfg.deck == "given":
        return [Counter(CARDS.unit(n).index for n in deck) for deck in cfg.decks]
    if cfg.deck == "draft":
        return [Counter(t for d in s.drafted[p] for t in [d] * names[d].copies) for p in (0, 1)]
    return [Counter({t: n for t, n in enumerate(s.deck_lists[p]) if n}) for p in (0, 1)]


def check_invariants(s: GameState) -> None:
    """The invariants that hold between any two decisions."""
    ply = f"ply {s.ply}"
    for zone in _zone_counts(s):
        assert min(zone) >= 0, f"{ply}: negative count in a zone"
    every = Counter(t for u in designs(s.config.beginner) for t in [u.index] * u.copies)
    census = unit_census(s)
    # ---- unit cards
    if s.phase == "draft":  # Card Drafting: each design's stack in the pool or drafted by one player
        assert sum(census[0].values()) + sum(census[1].values()) == 0, f"{ply}: unit cards out during the draft"
        stacks = s.pool + s.drafted[0] + s.drafted[1]
        assert sorted(stacks) == sorted(u.index for u in designs(s.config.beginner)), f"{ply}: stacks {stacks}"
        assert len(s.drafted[0]) + len(s.drafted[1]) == s.draft_picks <= 2 * DRAFT_STACKS
        for p in (0, 1):  # R-draft-2, R-draft-3: one coin per stack, the type limits
            assert s.coins[p] == DRAFT_COINS - len(s.drafted[p]), f"{ply}: seat {p} coins {s.coins[p]}"
            kinds = Counter(CARDS.units[d].type for d in s.drafted[p])
            assert all(kinds[k] <= DRAFT_LIMITS[k] for k in kinds), f"{ply}: seat {p} drafted {kinds}"
        assert s.pot == s.draft_picks, f"{ply}: pot {s.pot} after {s.draft_picks} picks"
    elif s.phase == "sdraft":  # Simplified: undealt, in a pack, picked this step, or in a deck list
        assert sum(census[0].values()) + sum(census[1].values()) == 0, f"{ply}: unit cards out during the draft"
        held = Counter(s.pool)
        for p in (0, 1):
            held.update({t: n for t, n in enumerate(s.packs[p]) if n})
            held.update({t: n for t, n in enumerate(s.deck_lists[p]) if n})
            if s.chosen[p] >= 0:
                held[s.chosen[p]] += 1
        assert held == every, f"{ply}: the Simplified draft holds {sum(held.values())} cards, not {sum(every.values())}"
        step = (s.draft_picks % (2 * SDRAFT_PACK)) // 2
        for p in (0, 1):
            picked = sum(s.deck_lists[p]) + (s.chosen[p] >= 0)
            assert picked == (s.draft_picks + (1 - p)) // 2, f"{ply}: seat {p} has {picked} picks"
            assert sum(s.packs[p]) + (s.chosen[p] >= 0) == SDRAFT_PACK - step, f"{ply}: seat {p} pack size"
    else:
        if s.config.own_decks:
            assert not s.pool and s.pot == 0, f"{ply}: draft pool {s.pool} / pot {s.pot} after the draft"
        want = expected_decks(s)
        for p in (0, 1):
            assert census[p] == want[p], (
                f"{ply}: seat {p}'s unit cards {sum(census[p].values())} != deck {sum(want[p].values())}: "
                f"extra {dict(census[p] - want[p])} missing {dict(want[p] - census[p])}"
            )
        if s.config.own_decks:
            for p in (0, 1):
                assert [want[p][t] for t in range(s.T)] == s.deck_lists[p], f"{ply}: seat {p}'s deck list"
                assert all(k <= n for k, n in zip(s.deck_known[p], s.deck_lists[p])), f"{ply}: deck_known"
                if s.config.deck != "sdraft":  # R-hidden-3: what each deck holds is public
                    assert s.deck_known[p] == s.deck_lists[p], f"{ply}: seat {p}'s deck list not public"
            if s.config.deck == "sdraft":
                assert sum(s.deck_lists[0]) == sum(s.deck_lists[1]) == SDRAFT_ROUNDS * SDRAFT_PACK
                assert not (Counter(want[0]) + Counter(want[1])) - every, f"{ply}: more copies than the box holds"
        else:
            assert s.decks[1] == [] and s.discards[1] == [], f"{ply}: a second pile in a shared-deck game"
        if s.config.deck != "draft":
            assert s.pot == 0
    # ---- coins: 40 in all (R-comp-4), none negative
    assert min(s.coins) >= 0 and s.pot >= 0 and s.supply() >= 0, f"{ply}: coins {s.coins} pot {s.pot}"
    assert s.coins[0] + s.coins[1] + s.pot + s.supply() == s.config.coin_supply
    # ---- reward cards: 12, in a city stack, a hand, or used
    rewards = [r for c in s.city_rewards for r in c]
    for p in (0, 1):
        rewards += s.rewards_hand[p] + s.rewards_used[p]
        assert s.rewards_hand[p] == sorted(s.rewards_hand[p]) and s.rewards_used[p] == sorted(s.rewards_used[p])
    assert sorted(rewards) == ALL_REWARDS, f"{ply}: reward cards {sorted(rewards)}"
    assert all(len(c) <= REWARDS_PER_CITY for c in s.city_rewards)
    # ---- the City Limit (R-surge-2), Beasts and Enraged units counting 2
    for c in range(CITIES):
        for p in (0, 1):
            assert s.side_count(c, p) <= CITY_LIMIT, f"{ply}: city{c} side {p} holds {s.side_count(c, p)}"
    # ---- D-known-1: known copies are copies in the hand
    for p in (0, 1):
        assert all(k <= n for k, n in zip(s.known[p], s.hands[p])), f"{ply}: seat {p} known > hand"
    # ---- D-decision-1: a game in progress always has a decision with a move; a finished one none
    if s.is_terminal():
        assert s.current_player == -1 and s.legal_moves() == [] and s.pending is None
    else:
        moves = s.legal_moves()
        assert s.current_player in (0, 1) and moves, f"{ply}: no legal move in a game in progress"
        assert len(set(moves)) == len(moves), f"{ply}: duplicate legal moves"
        assert all(isinstance(m, Move) for m in moves)


class EndChecks:
    """R-end-1 to R-end-4 as a game goes: a new turn starts only when the game could not end, and a
    finished game ended for one of the reasons."""

    def __init__(self) -> None:
        self.turn = 0

    def __call__(self, s: GameState) -> None:
        empty = sum(1 for c in s.city_rewards if not c)
        if s.is_terminal():
            assert empty >= 2 or s.feats_done(1 - s.active) >= FEATS_TO_END or s.turn >= s.config.max_turns, (
                f"ply {s.ply}: the game ended at turn {s.turn} with no reason"
            )
            assert s.turn <= s.config.max_turns
        elif s.turn != self.turn and self.turn:
            assert s.turn == self.turn + 1 and s.turn <= s.config.max_turns
            assert empty < 2, f"ply {s.ply}: turn {s.turn} started with {empty} empty cities"
            assert s.feats_done(s.active) < FEATS_TO_END, f"ply {s.ply}: turn started after the fifth feat's last turn"
        self.turn = s.turn


def check_result(s: GameState) -> None:
    """A finished game: R-score-1's points, R-score-2's winner and returns summing to 1."""
    assert s.is_terminal()
    obs = s.observation(0)
    want = tuple(
        2 * len(seat["feats"]) + 2 * seat["reward_count"] + len(seat["rewards_used"]) for seat in obs["players"]
    )
    assert s.scores() == want, f"scores {s.scores()} != R-score-1's {want}"
    assert want == tuple(2 * sum(s.feats[p]) + 2 * len(s.rewards_hand[p]) + len(s.rewards_used[p]) for p in (0, 1))
    key = [(want[p], len(obs["players"][p]["feats"])) for p in (0, 1)]
    winner = None if key[0] == key[1] else (0 if key[0] > key[1] else 1)
    assert s.winner() == winner
    r = s.returns()
    assert sum(r) == 1.0 and min(r) >= 0.0
    assert r == ((0.5, 0.5) if winner is None else (float(winner == 0), float(winner == 1)))


# ------------------------------------------------------------------------------ the plain test


VARIANTS = {
    "skill": Config(deck="skill"),
    "draft": Config(deck="draft"),
    "build": Config(deck="build", decks=BUILD_DECKS),
    "sdraft": Config(deck="sdraft"),
    "given": Config(deck="given", decks=dealt_decks(3)),
    "given_stacks_20_coins": Config(deck="given", decks=stack_decks(), coin_supply=20),
    "beginner": Config(beginner=True),
    "emissary": Config(emissary=True),
    "catch_up": Config(catch_up=True),
    "first_player_1": Config(first_player=1),
}


def play_checked(seed: int, config: Config) -> GameState:
    """A whole game of random moves (seat ``p`` drawing from ``Rng(bot_seed(seed, p))``, as a
    :class:`~omen_search.bots.RandomBot` does), every move through the checked ``apply``; the end
    checks at every ply, the invariants every few plies (every ply is the hypothesis test's job)."""
    state = GameState.new(seed=seed, config=config)
    rngs = (Rng(bot_seed(seed, 0)), Rng(bot_seed(seed, 1)))
    ends = EndChecks()
    check_invariants(state)
    while not state.is_terminal():
        legal = state.legal_moves()
        assert legal, f"seed {seed} ply {state.ply}: no legal move"
        state.apply(legal[rngs[state.current_player].below(len(legal))])
        ends(state)
        if state.ply % 16 == 0 or state.is_terminal():
            check_invariants(state)
        assert state.ply < MAX_PLIES, f"seed {seed}: runaway game"
    check_result(state)
    return state


@pytest.mark.parametrize(("variant", "seeds"), [("base", range(1, 201))] + [(v, range(1, 51)) for v in VARIANTS])
def test_random_games_of_every_variant_are_legal_to_the_end(variant, seeds):
    """Seeds 1..200 of the base game and 1..50 of each variant, every move checked."""
    config = VARIANTS.get(variant, Config())
    for seed in seeds:
        state = play_checked(seed, config)
        assert state.turn < config.max_turns, f"{variant} seed {seed}: a random game reached the turn cap"


# ------------------------------------------------------------------------------ conservation and ending


@LIGHT
@given(seed=SEEDS, config=configs(), move_seed=MOVE_SEEDS)
def test_cards_coins_and_rewards_are_conserved_and_every_game_ends(seed, config, move_seed):
    state = GameState.new(seed=seed, config=config)
    ends = EndChecks()
    for s in walk(state, move_seed):
        check_invariants(s)
        ends(s)
        if not s.is_terminal():
            assert s.returns() == (0.0, 0.0) and s.winner() is None
    check_result(state)


# ------------------------------------------------------------------------------ undo, clone, notation


@HEAVY
@given(seed=SEEDS, config=configs(), move_seed=MOVE_SEEDS)
def test_apply_then_undo_restores_the_exact_state(seed, config, move_seed):
    rng = Rng(move_seed)
    state = GameState.new(seed=seed, config=config)
    start = state._snapshot()
    everything = full_state(state)
    while not state.is_terminal():
        before, legal = state._snapshot(), state.legal_moves()
        whole, seen = full_state(state), [state.observation(p) for p in (0, 1)]
        move = legal[rng.below(len(legal))]
        state.apply(move)
        assert state.undo() == move
        assert state._snapshot() == before, f"ply {state.ply}: undo of {move} did not restore the state"
        assert full_state(state) == whole, f"ply {state.ply}: undo of {move} left an attribute changed"
        assert [state.observation(p) for p in (0, 1)] == seen
        assert state.legal_moves() == legal
        state.apply(move)
    while state.moves:  # and all the way back to the start
        state.undo()
    assert state._snapshot() == start and full_state(state) == everything
    with pytest.raises(IndexError):
        state.undo()


@HEAVY
@given(seed=SEEDS, config=configs(), move_seed=MOVE_SEEDS, fraction=st.floats(0, 1))
def test_clone_is_independent(seed, config, move_seed, fraction):
    length = play(seed, config, move_seed).ply
    state = play(seed, config, move_seed, limit=int(fraction * length))
    before, moves, history = state._snapshot(), list(state.moves), len(state.history)
    whole = full_state(state)
    clone = state.clone()
    assert clone._snapshot() == before and clone.moves == moves and full_state(clone) == whole
    for _ in walk(clone, move_seed + 1 if move_seed < 2**64 - 1 else 0):
        pass
    finished = clone._snapshot()
    while clone.moves:  # undo through the shared history, past the cloning point
        clone.undo()
    assert clone._snapshot() == GameState.new(seed=seed, config=config)._snapshot()
    assert state._snapshot() == before and state.moves == moves and len(state.history) == history
    assert full_state(state) == whole
    # and the other way round; the same moves from the same state give the same game (the generator
    # is part of the copy)
    clone = state.clone()
    for _ in walk(state, move_seed + 1 if move_seed < 2**64 - 1 else 0):
        pass
    assert clone._snapshot() == before and full_state(clone) == whole
    assert state._snapshot() == finished


@HEAVY
@given(seed=SEEDS, config=configs(), move_seed=MOVE_SEEDS)
def test_every_legal_move_round_trips_through_notation(seed, config, move_seed):
    rng = Rng(move_seed)
    state = GameState.new(seed=seed, config=config)
    while not state.is_terminal():
        legal = state.legal_moves()
        for move in legal:
            text = str(move)
            assert Move.parse(text) == move, text
            assert str(Move.parse(text)) == text
            assert move.verb in VERBS
            assert move.card is None or move.card in UNIT_NAMES | REWARD_NAMES, text
        state.apply(str(legal[rng.below(len(legal))]))  # the notation is a way in too


BAD_NOTATION = [
    "",
    "   ",
    "fly",
    "Play",
    '"play" city0',
    'play "Hoplite Recruit"',
    "play city0",
    'play "Hoplite Recruit" city3',
    'play "Hoplite Recruit" city0 city1',
    'play "" city0',
    'play "Hoplite Recruit city0',
    'play "A" "B" "C" city0',
    'end "Satyr"',
    "end city0",
    "pass 3",
    "wealth",
    "wealth draw 2",
    "wealth draw 2 coin",
    "wealth draw x coin 1",
    "wealth draw 100 coin 0",
    "wealth draw -1 coin 3",
    'offer "Satyr" draw 1 coin 1 city0',
    'enrage "Satyr" city0 enraged',
    'keep "Satyr" enraged enraged',
    'move "Spartan Warrior" city0',
    'move "Spartan Warrior" city0>city3',
    'war "Satyr"',
    "war city0>city1 city2",
    'keep "Satyr" 7up',
]


@pytest.mark.parametrize("text", BAD_NOTATION)
def test_bad_notation_raises_notation_error(text):
    with pytest.raises(NotationError):
        Move.parse(text)
    state = GameState.new(seed=1)
    with pytest.raises(NotationError):  # apply reads the text first: a notation error, not an illegal move
        state.apply(text)


@pytest.mark.parametrize("value", [None, 3, b"end", ["end"]])
def test_notation_of_a_non_string_raises_notation_error(value):
    with pytest.raises(NotationError):
        Move.parse(value)


NOTATION_WORDS = st.sampled_from(
    [*VERBS, "city0", "city2", "city0>city1", "city3", "draw", "coin", "0", "2", "99", "100", "enraged", '"Satyr"',
     '"Spartan Warrior"', '""', '"', "x"]
)


@settings(max_examples=300, deadline=None)
@given(text=st.one_of(st.text(max_size=40), st.lists(NOTATION_WORDS, max_size=7).map(" ".join)))
def test_any_text_parses_to_a_round_tripping_move_or_raises_notation_error(text):
    """``Move.parse`` of any text: a move whose notation reads back as itself, or NotationError
    (never another exception)."""
    try:
        move = Move.parse(text)
    except NotationError:
        return
    assert Move.parse(str(move)) == move


# ------------------------------------------------------------------------------ illegal moves


def _fabricated_moves() -> list[Move]:
    unit, reward = CARDS.units[0].name, CARDS.rewards[0].name
    return [
        Move("end"), Move("pass"), Move("wealth", draw=9, coin=9), Move("wealth", draw=0, coin=0),
        Move("play", card=unit, city=2), Move("play", card="No Such Unit", city=0), Move("beast", card="Satyr"),
        Move("use", card=reward), Move("use", card="No Such Reward"), Move("draft", card=unit),
        Move("pick", card=unit), Move("emissary", card=unit), Move("keep", card=unit, label="furious"),
        Move("war", city=1), Move("oracle", card="Haruspex", city=0), Move("offer", card=unit, draw=0, coin=0),
        Move("move", card=unit, city=0, to=0), Move("discard", card=unit), Move("take", card=unit),
    ]


@HEAVY
@given(seed=SEEDS, config=configs(), move_seed=MOVE_SEEDS, pick=st.integers(0, 2**32))
def test_illegal_moves_raise_naming_the_ply_and_change_nothing(seed, config, move_seed, pick):
    seen = dict.fromkeys(_fabricated_moves())
    state = GameState.new(seed=seed, config=config)
    tried = 0
    for s in walk(state, move_seed):
        legal = s.legal_moves()
        if s.ply % 3 == 0:
            seen.update(dict.fromkeys(legal))
        if s.ply % 5 and not s.is_terminal():
            continue
        legal_set = set(legal)
        candidates = [m for m in seen if m not in legal_set]
        before, moves = s._snapshot(), list(s.moves)
        for move in (candidates[pick % len(candidates)], candidates[(pick // 7) % len(candidates)]):
            for attempt in (move, str(move)):
                with pytest.raises(IllegalMoveError) as err:
                    s.apply(attempt)
                assert f"ply {s.ply}:" in str(err.value) and repr(str(move)) in str(err.value), str(err.value)
                if s.is_terminal():
                    assert "game is over" in str(err.value)
                assert s._snapshot() == before and s.moves == moves
                tried += 1
    assert tried > 0


# ------------------------------------------------------------------------------ observations


def check_observation_hides(s: GameState, p: int, obs: dict) -> None:
    """What an observation shows of the opponent: counts and public cards, never a hidden identity."""
    opp = 1 - p
    assert json.loads(json.dumps(obs)) == obs, f"ply {s.ply}: the observation is not plain JSON"
    assert obs["player"] == p
    me, them = obs["players"][p], obs["players"][opp]
    assert them["hand"] is None and them["rewards"] is None, f"ply {s.ply}: seat {p} sees the opponent's hand"
    assert "emissary" not in them and isinstance(them["emissary_chosen"], bool)
    assert them["hand_size"] == s.hand_size(opp) and them["reward_count"] == len(s.rewards_hand[opp])
    opp_hand = Counter(s.units[t].name for t in range(s.T) for _ in range(s.hands[opp][t]))
    assert Counter(them["known"]) == Counter(s.units[t].name for t in range(s.T) for _ in range(s.known[opp][t]))
    assert not Counter(them["known"]) - opp_hand, f"ply {s.ply}: known cards not in the hand"
    assert sorted(me["hand"]) == sorted(s.units[t].name for t in range(s.T) for _ in range(s.hands[p][t]))
    assert sorted(me["rewards"]) == sorted(CARDS.rewards[r].name for r in s.rewards_hand[p])
    for city in obs["cities"]:
        assert isinstance(city["rewards"], int), f"ply {s.ply}: a city's reward stack is shown"
    assert all(isinstance(n, int) for n in obs["deck_sizes"])
    for key in ("decks", "city_rewards", "rng", "hands", "packs", "chosen", "pool", "emissaries"):
        assert key not in obs, f"ply {s.ply}: an observation holds {key!r}"
    if s.config.own_decks and s.phase != "sdraft":
        assert sorted(them["deck_list"]) == sorted(
            s.units[t].name for t in range(s.T) for _ in range(s.deck_known[opp][t]))
        assert them["deck_list_unknown"] == sum(s.deck_lists[opp]) - sum(s.deck_known[opp])
    if s.phase == "sdraft":
        view = obs["sdraft"]
        step = (s.draft_picks % (2 * SDRAFT_PACK)) // 2
        assert isinstance(view["opponent_chosen"], bool)
        if step == 0:  # R-sdraft-3: the opponent's first pack of a round has never been seen
            assert view["opponent_pack"] is None
        if s.config.own_decks:
            assert sorted(them["deck_list"]) == sorted(
                s.units[t].name for t in range(s.T) for _ in range(s.deck_known[opp][t]))
    else:
        assert "sdraft" not in obs


def _swapped_worlds(s: GameState, p: int) -> Iterator[GameState]:
    """Copies of ``s`` that differ only in what ``p`` cannot see, made by hand (not by the engine's
    determinisation): an opponent's hidden hand card or emissary swapped with a card of a different
    design in the pile they draw from, two reward cards swapped in the cities, and one of the
    opponent's reward cards in hand swapped with one in a city."""
    opp = 1 - p
    pile = s.pile(opp)
    if s.phase not in ("draft", "sdraft"):
        hidden = [t for t in range(s.T) if s.hands[opp][t] > s.known[opp][t]]
        for t in hidden[:1]:
            for i, u in enumerate(s.decks[pile]):
                if u != t:
                    w = s.clone()
                    w.hands[opp][t] -= 1
                    w.hands[opp][u] += 1
                    w.decks[pile][i] = t
                    yield w
                    break
        if s.emissaries[opp] >= 0:
            for i, u in enumerate(s.decks[pile]):
                if u != s.emissaries[opp]:
                    w = s.clone()
                    w.decks[pile][i], w.emissaries[opp] = w.emissaries[opp], u
                    yield w
                    break
    slots = [(c, i) for c in range(CITIES) for i in range(len(s.city_rewards[c]))]
    for a, b in zip(slots, slots[1:]):
        if s.city_rewards[a[0]][a[1]] != s.city_rewards[b[0]][b[1]]:
            w = s.clone()
            ra, rb = w.city_rewards[a[0]][a[1]], w.city_rewards[b[0]][b[1]]
            w.city_rewards[a[0]][a[1]], w.city_rewards[b[0]][b[1]] = rb, ra
            yield w
            break
    for r in s.rewards_hand[opp][:1]:
        for c, i in slots:
            if s.city_rewards[c][i] != r:
                w = s.clone()
                w.rewards_hand[opp].remove(r)
                w.rewards_hand[opp] = sorted(w.rewards_hand[opp] + [w.city_rewards[c][i]])
                w.city_rewards[c][i] = r
                yield w
                break


@HEAVY
@given(seed=SEEDS, config=configs(), move_seed=MOVE_SEEDS)
def test_observations_are_json_and_show_nothing_hidden(seed, config, move_seed):
    state = GameState.new(seed=seed, config=config)
    swapped = 0
    for s in walk(state, move_seed):
        for p in (0, 1):
            obs = s.observation(p)
            check_observation_hides(s, p, obs)
            for w in _swapped_worlds(s, p):
                assert w._snapshot() != s._snapshot()
                assert w.observation(p) == obs, f"ply {s.ply}: seat {p} sees a change in a hidden card"
                swapped += 1
    assert swapped > 0


# ------------------------------------------------------------------------------ determinisation


def _p_sequence(pool: list[int], seq: list[int]) -> float:
    """The chance that a uniform shuffle of ``pool`` starts with ``seq`` (equally: ends with it)."""
    left, n, p = Counter(pool), len(pool), 1.0
    for x in seq:
        if n == 0 or left[x] == 0:
            return 0.0
        p *= left[x] / n
        left[x] -= 1
        n -= 1
    return p


def _p_world_is_truth(s: GameState, p: int) -> float:
    """An upper bound on the chance that one deal of :meth:`determinized` equals the truth in every
    hidden part: the least of the chances of its independent parts coming out the same."""
    opp = 1 - p
    chances = []
    rewards = [r for c in s.city_rewards for r in c] + s.rewards_hand[opp]
    chances.append(_p_sequence(rewards, [r for c in s.city_rewards for r in c]))
    if s.phase not in ("draft", "sdraft") and s.config.deck != "sdraft":
        if s.config.own_decks:  # the player's own deck order
            chances.append(_p_sequence(s.decks[p], s.decks[p]))
        hidden = [t for t in range(s.T) for _ in range(s.hands[opp][t] - s.known[opp][t])]
        emissary = [s.emissaries[opp]] if s.emissaries[opp] >= 0 else []
        deck = s.decks[s.pile(opp)]
        chances.append(_p_sequence(hidden + emissary + deck, deck))
    return min(chances)


def hidden_part(s: GameState, p: int) -> tuple:
    """Everything determinisation for ``p`` may deal again (the generator aside)."""
    opp = 1 - p
    return (
        tuple(s.hands[opp]), s.emissaries[opp], tuple(map(tuple, s.decks)), tuple(map(tuple, s.city_rewards)),
        tuple(s.rewards_hand[opp]), tuple(s.deck_lists[opp]), tuple(s.packs[opp]), s.chosen[opp], tuple(s.pool),
    )


def check_determinized(s: GameState, p: int, world_seed: int) -> int:
    """Worlds for ``p`` look to ``p`` exactly as ``s`` does, are whole games (conservation, moves),
    give ``p`` the same moves when ``p`` decides, and re-deal the hidden part. Returns 1 if the
    re-dealing was checked (there was enough hidden to tell)."""
    obs = s.observation(p)
    w = s.determinized(p, world_seed)
    assert w.observation(p) == obs, f"ply {s.ply}: seat {p}'s determinised world looks different to them"
    assert w.history == [] and w.ply == s.ply
    check_invariants(w)
    # the public and own parts are the truth's, and the opponent's known cards stay in their hand
    opp = 1 - p
    assert w.hands[p] == s.hands[p] and w.rewards_hand[p] == s.rewards_hand[p] and w.known == s.known
    assert all(k <= n for k, n in zip(w.known[opp], w.hands[opp]))
    assert w.hand_size(opp) == s.hand_size(opp) and len(w.rewards_hand[opp]) == len(s.rewards_hand[opp])
    assert [len(d) for d in w.decks] == [len(d) for d in s.decks]
    if not s.is_terminal():
        assert w.current_player == s.current_player and w.legal_moves(), f"ply {s.ply}: a world with no move"
        if s.current_player == p:  # a player's choices depend only on what they see
            assert w.legal_moves() == s.legal_moves(), f"ply {s.ply}: seat {p}'s moves differ in a world"
    truth = hidden_part(s, p)
    if _p_world_is_truth(s, p) ** WORLDS >= FALSE_ALARM:
        return 0
    for k in range(WORLDS):
        if hidden_part(s.determinized(p, world_seed + k), p) != truth:
            return 1
    raise AssertionError(f"ply {s.ply}: {WORLDS} determinisations for seat {p} all deal the true hidden cards")


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.parametrize("deck", DECKS)
@given(seed=SEEDS, config=st.data(), move_seed=MOVE_SEEDS, world_seed=st.integers(0, 2**32))
def test_determinisation_is_consistent_with_the_observation(deck, seed, config, move_seed, world_seed):
    """Every variant (the parametrisation makes sure of each deck variant, the drafts included;
    Emissary of War comes from the config) for both players at every decision."""
    config = config.draw(configs(decks=(deck,)))
    state = GameState.new(seed=seed, config=config)
    checked = 0
    for s in walk(state, move_seed):
        for p in (0, 1):
            checked += check_determinized(s, p, world_seed + s.ply)
    assert checked > 0, "no decision had enough hidden to check that determinisation re-deals it"


@pytest.mark.parametrize("deck", DECKS)
def test_determinisation_at_every_step_of_a_draft_and_the_emissaries(deck):
    """A fixed game of each deck variant with Emissary of War, up to the first turn's Surge: every
    pick of a draft (a Simplified draft's first pick of a round, before and after the opponent's
    pick, and the later steps), both emissaries (the second chosen with the first face down) and
    the first decisions of play, each for both players with several worlds."""
    decks = BUILD_DECKS if deck == "build" else dealt_decks(11) if deck == "given" else ()
    state = GameState.new(seed=11, config=Config(deck=deck, decks=decks, emissary=True))
    kinds: Counter = Counter()
    for s in walk(state, 5):
        if s.phase == "surge":
            break
        kinds[s.pending.kind] += 1
        for p in (0, 1):
            for k in range(3):
                check_determinized(s, p, 1000 * k + s.ply)
    drafts = {"sdraft": 2 * SDRAFT_ROUNDS * SDRAFT_PACK, "draft": 2 * DRAFT_STACKS}
    assert kinds[deck] == drafts.get(deck, 0)
    assert kinds["emissary"] == 2 and kinds["wealth"] == 1


def test_determinisation_refuses_a_bad_seat():
    state = GameState.new(seed=3)
    for bad in (2, -1, True, None):
        with pytest.raises(UsageError):
            state.determinized(bad, 0)


# ------------------------------------------------------------------------------ Deck Building


GOOD_DECK = BUILD_DECKS[0]
SOLDIERS = [u.name for u in CARDS.units if u.type == "soldier"]
BEASTS = [u.name for u in CARDS.units if u.type == "beast"]
ORACLES = [u.name for u in CARDS.units if u.type == "oracle"]
NON_BEGINNER = [u.name for u in CARDS.units if not u.beginner]

BAD_DECKS = {
    "9 designs": GOOD_DECK[:9],
    "11 designs": GOOD_DECK + (ORACLES[5],),
    "a design twice": GOOD_DECK[:9] + (GOOD_DECK[0],),
    "an unknown name": GOOD_DECK[:9] + ("Sir Not Appearing",),
    "7 soldier designs": tuple(SOLDIERS[:7] + BEASTS[:2] + ORACLES[:1]),
    "5 beast designs": tuple(SOLDIERS[:3] + BEASTS[:5] + ORACLES[:2]),
    "5 oracle designs": tuple(SOLDIERS[:3] + BEASTS[:2] + ORACLES[:5]),
}


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("why", list(BAD_DECKS))
def test_deck_building_refuses_a_bad_deck(why, seat):
    decks = [BUILD_DECKS[1], BUILD_DECKS[1]]
    decks[seat] = BAD_DECKS[why]
    with pytest.raises(UsageError) as err:
        GameState.new(seed=1, config=Config(deck="build", decks=tuple(decks)))
    assert f"decks[{seat}]" in str(err.value)


def test_deck_building_refuses_non_beginner_designs_with_beginner():
    deck = tuple(n for n in GOOD_DECK[:9]) + (next(n for n in NON_BEGINNER if CARDS.unit(n).type == "oracle"),)
    GameState.new(seed=1, config=Config(deck="build", decks=(deck, BUILD_DECKS[1])))  # fine without beginner
    with pytest.raises(UsageError):
        GameState.new(seed=1, config=Config(deck="build", beginner=True, decks=(deck, BUILD_DECKS[1])))


@pytest.mark.parametrize("decks", [(), (GOOD_DECK,), (GOOD_DECK, GOOD_DECK, GOOD_DECK), [GOOD_DECK, GOOD_DECK],
                                   (list(GOOD_DECK), GOOD_DECK), (GOOD_DECK, GOOD_DECK[:9] + (3,))])
def test_deck_building_needs_two_lists_of_names(decks):
    with pytest.raises(UsageError):
        GameState.new(seed=1, config=Config(deck="build", decks=decks))


def test_decks_only_with_deck_building():
    with pytest.raises(UsageError):
        Config(deck="skill", decks=(GOOD_DECK, GOOD_DECK))


@st.composite
def bad_build_decks(draw) -> tuple[tuple[str, ...], str]:
    """A legal deck spoiled one way: a design dropped, one added, one repeated, one renamed, or a
    type pushed over its limit."""
    deck = list(draw(build_decks()))
    how = draw(st.sampled_from(["drop", "add", "repeat", "rename", "over"]))
    if how == "drop":
        del deck[draw(st.integers(0, 9))]
    elif how == "add":
        deck.append(draw(st.sampled_from([n for n in ALL_UNIT_NAMES if n not in deck])))
    elif how == "repeat":
        deck[0] = deck[draw(st.integers(1, 9))]
    elif how == "rename":
        deck[draw(st.integers(0, 9))] = draw(st.text(min_size=1, max_size=20).filter(lambda n: n not in UNIT_NAMES))
    else:  # one more design of a type than its limit, the rest filled from the others
        kind = draw(st.sampled_from(sorted(DRAFT_LIMITS)))
        pool = {"soldier": SOLDIERS, "beast": BEASTS, "oracle": ORACLES}
        over = draw(st.lists(st.sampled_from(pool[kind]), min_size=DRAFT_LIMITS[kind] + 1,
                             max_size=DRAFT_LIMITS[kind] + 1, unique=True))
        others = [n for n in ALL_UNIT_NAMES if CARDS.unit(n).type != kind]
        rest = draw(st.lists(st.sampled_from(others), min_size=10 - len(over), max_size=10 - len(over), unique=True))
        deck = over + rest
    return tuple(deck), how


@settings(max_examples=100, deadline=None)
@given(bad=bad_build_decks(), good=build_decks(), seat=st.integers(0, 1))
def test_deck_building_refuses_any_spoiled_deck(bad, good, seat):
    deck, how = bad
    decks = [good, good]
    decks[seat] = deck
    with pytest.raises(UsageError):
        GameState.new(seed=1, config=Config(deck="build", decks=tuple(decks)))


@settings(max_examples=30, deadline=None)
@given(decks=st.tuples(build_decks(), build_decks()), seed=SEEDS)
def test_deck_building_accepts_any_legal_deck(decks, seed):
    state = GameState.new(seed=seed, config=Config(deck="build", decks=decks))
    check_invariants(state)
    for p in (0, 1):
        assert sorted(t for t in range(state.T) if state.deck_lists[p][t]) == sorted(
            CARDS.unit(n).index for n in decks[p])
