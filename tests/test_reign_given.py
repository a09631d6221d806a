"""Reign of War set up as a Grand Melee table (D-given-1, R-melee-3): each player's deck given card
by card (``deck = "given"``) and the table's coin supply (``coin_supply``), refused where they
enter with the field and the card named, and carried through every round trip the project has
(records and ``omen-search replay``, positions, observations) on both engines; the first player of
a finished game (R-melee-7 needs it). The differential tests of ``test_reign_core.py`` play these
set-ups move for move, the rulings are in ``test_reign_rulings.py``."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from cli_helper import run
from omen_search._reign_core import CoreState
from omen_search.errors import FormatError, UsageError
from omen_search.game import get_game
from omen_search.games.reign.cards import default_cards
from omen_search.games.reign.observe import observe
from omen_search.games.reign.positions import load_position, read_record_header, state_from_observation, to_position
from omen_search.games.reign.reference import GameState
from omen_search.games.reign.rules import COIN_SUPPLY, START_COINS, START_HAND, Config
from omen_search.records import load_record, make_record, replay, write_record
from omen_search.rng import Rng
from reign_helper import dealt_decks, stack_decks

REIGN = get_game("reign-of-war")
CARDS = default_cards()
ENGINES = ("reference", "core")
TABLE = Config(deck="given", decks=dealt_decks(5), coin_supply=20, emissary=True)


def _play(state: Any, seed: int, plies: int | None = None) -> Any:
    """Random moves (``Rng(seed)``) to the end, or for ``plies`` moves."""
    rng = Rng(seed)
    while not state.is_terminal() and (plies is None or state.ply < plies):
        moves = state.legal_moves()
        state.apply(moves[rng.below(len(moves))])
    return state


def _both(config: Config) -> list[Any]:
    return [GameState.new(1, config=config), CoreState.new(1, config=config)]


# ------------------------------------------------------------------------------ the Config API

GOOD = dealt_decks(7)
SATYRS = CARDS.unit("Satyr").copies  # 4 in the seed edition
BAD_GIVEN = {
    r"decks\[1\]\[3\]: no unit card 'Sir Not Appearing'": (GOOD[0], GOOD[1][:3] + ("Sir Not Appearing",) + GOOD[1][4:]),
    r"decks\[0\]: 3 cards, a deck deals a starting hand of 4": (GOOD[0][:START_HAND - 1], GOOD[1]),
    rf"decks\[1\]\[2\]: 'Satyr' is one copy too many: the card set has {SATYRS}":
        (("Satyr",) * (SATYRS - 1) + ("Cyclops",) * 3, ("Harpy", "Satyr", "Satyr", "Griffin")),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("match", list(BAD_GIVEN))
def test_a_given_deck_is_refused_naming_the_seat_the_card_and_why(engine: str, match: str) -> None:
    config = Config(deck="given", decks=BAD_GIVEN[match])
    with pytest.raises(UsageError, match=match):
        REIGN.new_initial_state(1, engine=engine, config=config)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_given_deck_holds_only_the_designs_in_play(engine: str) -> None:
    two_circles = next(u.name for u in CARDS.units if not u.beginner)
    ones = [u.name for u in CARDS.units if u.beginner]
    decks = (tuple(ones[:5]), tuple(ones[5:9]) + (two_circles,))
    REIGN.new_initial_state(1, engine=engine, config=Config(deck="given", decks=decks))
    with pytest.raises(UsageError, match=r"decks\[1\]\[4\]: .*beginner designs only"):
        REIGN.new_initial_state(1, engine=engine, config=Config(deck="given", decks=decks, beginner=True))


@pytest.mark.parametrize("decks", [(), (GOOD[0],), [GOOD[0], GOOD[1]], (list(GOOD[0]), GOOD[1]), (GOOD[0], (1, 2, 3, 4))])
def test_given_decks_must_be_two_tuples_of_names(decks: Any) -> None:
    with pytest.raises(UsageError, match="decks: deck = 'given' needs two lists of card names"):
        Config(deck="given", decks=decks)


@pytest.mark.parametrize("value", [COIN_SUPPLY[0] - 1, COIN_SUPPLY[1] + 1, True, "20", 20.0, None])
def test_a_coin_supply_the_core_cannot_hold_is_refused(value: Any) -> None:
    with pytest.raises(UsageError, match=rf"coin_supply: must be an integer from {COIN_SUPPLY[0]} to {COIN_SUPPLY[1]}"):
        Config(coin_supply=value)


def test_card_drafting_needs_the_coins_it_hands_out() -> None:
    with pytest.raises(UsageError, match="coin_supply: Card Drafting gives each player 10 coins"):
        Config(deck="draft", coin_supply=19)
    assert Config(deck="draft", coin_supply=20).coin_supply == 20


def test_the_command_line_options_set_up_a_table(capsys: pytest.CaptureFixture[str]) -> None:
    decks = ";".join(",".join(d) for d in TABLE.decks)
    assert REIGN.config(deck="given", decks=decks, coin_supply=20, emissary=True) == TABLE
    status, out, err = run(capsys, "play", "--game", "reign-of-war", "--deck", "given", "--decks", decks,
                           "--coin-supply", "20", "--players", "random,random", "--seed", "3", "--json")
    assert status == 0, err
    status, out, err = run(capsys, "play", "--game", "reign-of-war", "--deck", "given", "--decks", "Satyr;Harpy",
                           "--players", "random,random")
    assert status == 2 and "decks[0]: 1 cards" in err


# ------------------------------------------------------------------------------ playing


@pytest.mark.parametrize("supply", [20, 5, 0])
def test_the_coin_supply_bounds_every_gain(supply: int) -> None:
    """R-comp-4 with the table's supply: seat 0 takes its 4 coins first, seat 1 what is left, and the
    coins never add up to more than the supply at any ply."""
    for state in _both(Config(coin_supply=supply)):
        start = min(START_COINS, supply)
        assert state.coins == [start, min(START_COINS, supply - start)]
        assert state.observation(0)["supply"] == supply - sum(state.coins)
        rng = Rng(2)
        while not state.is_terminal():
            assert 0 <= state.supply() and sum(state.coins) + state.supply() == supply, f"ply {state.ply}"
            moves = state.legal_moves()
            state.apply(moves[rng.below(len(moves))])


@pytest.mark.parametrize("decks", [dealt_decks(9), stack_decks()])
def test_a_given_deck_is_dealt_exactly_as_given(decks: tuple[tuple[str, ...], tuple[str, ...]]) -> None:
    for state in _both(Config(deck="given", decks=decks)):
        for p in (0, 1):
            cards = Counter(CARDS.units[t].name for t in state.decks[p])
            cards.update({CARDS.units[t].name: n for t, n in enumerate(state.hands[p]) if n})
            assert cards == Counter(decks[p]), f"seat {p}"


@pytest.mark.parametrize("engine", ENGINES)
def test_the_first_player_of_a_finished_game_is_public(engine: str) -> None:
    """``first_player``: ``None`` while the emissaries decide it, then the seat of turn 1, to the end."""
    for seed in range(6):
        state = REIGN.new_initial_state(seed, engine=engine, config=TABLE)
        assert state.phase == "emissary" and state.first_player is None
        _play(state, seed, plies=2)
        assert state.turn == 1 and state.first_player == state.active
        first = state.active
        _play(state, seed)
        assert state.is_terminal() and state.first_player == first


# ------------------------------------------------------------------------------ round trips


@pytest.mark.parametrize("engine", ENGINES)
def test_a_record_of_a_table_replays_through_the_command_line(engine: str, tmp_path: Any,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    state = _play(REIGN.new_initial_state(4, engine=engine, config=TABLE), 4)
    record = make_record(state, ["random", "random"])
    assert record["config"]["deck"] == "given" and record["config"]["coin_supply"] == 20
    assert record["config"]["decks"] == [list(d) for d in TABLE.decks]
    assert read_record_header(json.loads(json.dumps(record)), CARDS) == TABLE
    path = tmp_path / "table.json"
    write_record(path, record)
    status, out, err = run(capsys, "replay", str(path))
    assert status == 0, err
    replayed = replay(load_record(path))
    assert replayed.config == TABLE and replayed.moves == state.moves and replayed.scores() == state.scores()


def test_a_record_header_names_a_bad_table() -> None:
    record = make_record(GameState.new(1, config=TABLE), ["random", "random"])
    record["config"]["coin_supply"] = 300
    with pytest.raises(FormatError, match=r"record\.config\.coin_supply"):
        read_record_header(record, CARDS)
    record["config"]["coin_supply"] = 20
    record["config"]["decks"][0][2] = "Sir Not Appearing"
    with pytest.raises(FormatError, match=r"record\.config\.decks\[0\]\[2\]: no unit card 'Sir Not Appearing'"):
        read_record_header(record, CARDS)


@pytest.mark.parametrize("config", [TABLE, Config(deck="given", decks=stack_decks(), coin_supply=20)])
def test_positions_and_observations_of_a_table_read_back_on_both_engines(config: Config) -> None:
    state = CoreState.new(6, config=config)
    rng = Rng(6)
    while not state.is_terminal():
        position = json.loads(json.dumps(to_position(state)))
        loaded = load_position(position)
        assert loaded.config == config and to_position(loaded) == position, f"ply {state.ply}"
        assert CoreState.from_state(loaded).legal_move_ids() == state.legal_move_ids(), f"ply {state.ply}"
        for p in (0, 1):
            seen = json.loads(json.dumps(observe(state, p)))
            rebuilt, _ = state_from_observation(seen)
            assert observe(rebuilt, p) == seen and observe(state.determinized(p, state.ply), p) == seen
        moves = state.legal_moves()
        state.apply(moves[rng.below(len(moves))])
