"""One test per ruling, named after its id.

The rulings are ``docs/rules/heir-to-the-dunes.md`` (``H-…``), ``docs/rules/heir-to-the-dunes-cards.md``
(``H-card-…``) and ``docs/rulings.md`` (``D-…``; a withdrawn decision is tested under the ruling that
replaced it). Each test sets up a small hand-written position (see ``positions_helper.py``), plays
moves in their text notation and checks the exact outcome: zones, coins, favor, legal moves, scores
or observations, chosen so that a wrong rule would change them. Seat 0 plays Anubis and seat 1 Horus
unless a test says otherwise. A test about an automatic step (a war, a structure completing) starts
at the decision just before it, so that each engine resolves the step by its own rules.

A test that fails because the engine disagrees with a ruling is kept and marked
``xfail(strict=True)`` with the reason; it starts passing (and so failing the suite) once the engine
is fixed, and the mark is then removed.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from omen_search.errors import IllegalMoveError
from omen_search.games.heir.positions import load_position
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.rules import Config
from positions_helper import (
    EMPTY,
    coins,
    decision,
    discard,
    edited_cards,
    hand,
    known,
    moves,
    play,
    position,
    side,
    view,
)

DATA = Path(__file__).parent / "data"
ANUBIS_STRUCTURES = ["Monument to the Moon", "Temple of Darkness", "Tomb of Oblivion"]
HORUS_STRUCTURES = ["Monument to the Sun", "Temple of Light", "Tomb of Rebirth"]


@pytest.fixture(autouse=True, params=["reference", "core"])
def engine(request):
    """Every ruling is checked on both engines: the reference and the Cython core."""
    import positions_helper

    positions_helper.ENGINE["name"] = request.param
    yield request.param
    positions_helper.ENGINE["name"] = "reference"


def _load(doc: dict) -> GameState:
    """A whole position document on the engine under test, as ``positions_helper.position`` loads
    one: on the core, copied before anything automatic is resolved."""
    import positions_helper

    if positions_helper.ENGINE["name"] == "core":
        from omen_search._core import CoreState

        return CoreState.from_state(load_position(doc, settle=False))  # type: ignore[return-value]
    return load_position(doc)


def _war(**kwargs):
    """A position at the decision just before the War step: the active player's Surge, ended with
    ``end``, so that each engine resolves the war on its own.

    The active player holds a card unless the test says otherwise, so that the Surge is a decision
    and the turn stops at the Offering after the war (with an empty hand the Offering is skipped:
    D-decision-1)."""
    players = [dict(p) for p in kwargs.pop("players", ({}, {}))]
    active = kwargs.get("active", 0)
    players[active].setdefault("hand", ["Temple Servant"])
    s = position(phase="surge", players=players, **kwargs)
    assert decision(s) == ("surge", active)
    return play(s, "end")


# ====================================================================================== H-dev


def test_ruling_h_dev_1_opponent_god_unit_counts_but_its_abilities_do_not_resolve() -> None:
    s = position(
        favor="anubis",
        cities=[(["Moonlight Channeller"], []), EMPTY, EMPTY],
        players=[{"coins": 6, "hand": ["Remembered Soul", "Tortured Soul"]}, {"hand": ["Temple Servant"]}],
        discard=["Sunset Marauder"],
    )
    play(s, 'play "Remembered Soul" city1')
    # counts normally: full cost (no discount: not devoted to Anubis), favor flip, strength, capacity
    assert coins(s) == [3, 4]
    assert s.favor == "horus"
    assert side(s, 1, 0) == Counter({"Remembered Soul": 1})
    assert s.strength(1, 0) == 2 and s.side_count(1, 0) == 1
    # none of its abilities resolves: no REINFORCE choice, the opponent discards nothing
    assert decision(s) == ("surge", 0)
    assert hand(s, 1) == Counter({"Temple Servant": 1})
    # and the discount is still there for the first Anubis unit
    play(s, 'play "Tortured Soul" city2')
    assert coins(s) == [1, 4]


def test_ruling_h_dev_2_mandatory_abilities_offer_no_pass() -> None:
    # INVOCATION "Draw 2 cards or gain 2 coins": one of the two, never neither
    s = position(favor="anubis", players=[{"hand": ["Temple Servant"]}, {}])
    play(s, 'play "Temple Servant" city0')
    assert moves(s) == ["choose draw", "choose coins"]
    # REINFORCE itself is optional ("may"), but "ENTOMB 1 of your units" then is not
    s = position(players=[{"hand": ["Gifted Taskmaster"]}, {}], cities=[EMPTY, EMPTY, (["Temple Servant"], [])])
    play(s, 'play "Gifted Taskmaster" city0')
    assert moves(s) == ['reinforce "Gifted Taskmaster" city0', "pass"]
    play(s, 'reinforce "Gifted Taskmaster" city0')
    assert moves(s) == ['entomb "Gifted Taskmaster" city0', 'entomb "Temple Servant" city2']


def test_ruling_h_dev_2_up_to_allows_zero() -> None:
    # Sunset Marauder: "discards up to 2 TREASURED cards"
    s = position(favor="anubis", players=[{"hand": ["Sunset Marauder"]}, {"hand": ["Sunlight Channeller"]}])
    play(s, 'play "Sunset Marauder" city0')
    assert moves(s) == ['discard "Sunlight Channeller"', "pass"]
    play(s, "pass")
    assert hand(s, 1) == Counter({"Sunlight Channeller": 1})
    assert decision(s) == ("surge", 0)
    # Condemned to Toil: "ENTOMB up to 2 opposing units"
    s = position(
        cities=[([], ["Opal Statuary"]), EMPTY, EMPTY],
        players=[{"unused_tiles": ["Condemned to Toil"]}, {}],
        city_tiles=[3, 3, 2],
    )
    play(s, 'use "Condemned to Toil"')
    assert moves(s) == ['entomb "Opal Statuary" city0', "pass"]
    play(s, "pass")
    assert side(s, 0, 1) == Counter({"Opal Statuary": 1})
    assert decision(s) == ("choose", 0)


# ====================================================================================== H-wealth


def test_ruling_h_wealth_1_god_card_goes_to_hand_known() -> None:
    s = position(phase="wealth_reveal", turn=3, deck_top=["Tortured Soul"], players=[{"hand": ["Opal Statuary"]}, {}])
    assert hand(s, 0) == Counter({"Opal Statuary": 1, "Tortured Soul": 1})
    assert known(s, 0) == Counter({"Tortured Soul": 1})
    assert discard(s) == []
    # no Neutral unit in hand: nothing to decide, straight to the Wealth actions
    assert decision(s) == ("wealth", 0)


def test_ruling_h_wealth_1_other_card_discarded_and_one_repeat_for_a_neutral() -> None:
    s = position(
        phase="wealth_reveal",
        turn=3,
        deck_top=["Opal Statuary", "Forgotten Pharaoh"],
        players=[{"hand": ["Temple Servant", "Sunset Marauder"]}, {}],
    )
    assert discard(s) == ["Opal Statuary"]  # a Horus card is not devoted to Anubis
    assert decision(s) == ("reveal", 0)
    assert moves(s) == ['reveal "Temple Servant"', 'reveal "Sunset Marauder"', "pass"]
    play(s, 'reveal "Temple Servant"')
    assert discard(s) == ["Opal Statuary", "Temple Servant"]
    # Forgotten Pharaoh is devoted to both gods: to the hand, known
    assert hand(s, 0) == Counter({"Sunset Marauder": 1, "Forgotten Pharaoh": 1})
    assert known(s, 0) == Counter({"Forgotten Pharaoh": 1})
    # once per turn, although a Neutral unit is still in hand
    assert decision(s) == ("wealth", 0)


def test_ruling_h_wealth_2_three_actions_all_at_once() -> None:
    s = position(phase="wealth", turn=2, active=1)
    assert decision(s) == ("wealth", 1)
    assert moves(s) == [
        "wealth draw 3 coin 0",
        "wealth draw 2 coin 1",
        "wealth draw 1 coin 2",
        "wealth draw 0 coin 3",
    ]


def test_ruling_h_wealth_2_first_players_first_turn_has_two() -> None:
    s = position(phase="wealth", turn=1, active=0)
    assert moves(s) == ["wealth draw 2 coin 0", "wealth draw 1 coin 1", "wealth draw 0 coin 2"]


def test_ruling_h_wealth_2_bonus_for_all_of_one_kind() -> None:
    base = position(phase="wealth", turn=2, players=[{"coins": 4, "hand": []}, {}])
    s = play(base.clone(), "wealth draw 3 coin 0")
    assert sum(hand(s, 0).values()) == 4 and coins(s) == [4, 4]
    s = play(base.clone(), "wealth draw 0 coin 3")
    assert sum(hand(s, 0).values()) == 0 and coins(s) == [8, 4]
    s = play(base.clone(), "wealth draw 1 coin 2")
    assert sum(hand(s, 0).values()) == 1 and coins(s) == [6, 4]
    s = play(base.clone(), "wealth draw 2 coin 1")
    assert sum(hand(s, 0).values()) == 2 and coins(s) == [5, 4]


def test_ruling_h_wealth_2_coins_never_exceed_the_supply() -> None:
    s = position(phase="wealth", turn=2, players=[{"coins": 9}, {"coins": 9}])
    play(s, "wealth draw 0 coin 3")
    assert coins(s) == [11, 9]
    assert s.supply() == 0


def test_ruling_h_deck_1_empty_deck_reshuffles_the_discard_pile() -> None:
    s = position(phase="wealth", turn=2, rest="discard")
    before = len(discard(s))
    assert view(s)["deck"] == [] and before == 40
    play(s, "wealth draw 3 coin 0")
    assert sum(hand(s, 0).values()) == 4
    assert discard(s) == []
    assert len(view(s)["deck"]) == before - 4


def test_ruling_h_deck_1_nothing_to_draw_draws_nothing() -> None:
    s = position(phase="wealth_reveal", turn=2, rest="hand1")
    assert decision(s) == ("wealth", 0)  # the god reveal found no card
    play(s, "wealth draw 3 coin 0")
    assert sum(hand(s, 0).values()) == 0
    assert view(s)["deck"] == [] and discard(s) == []
    assert sum(hand(s, 1).values()) == 40


# ====================================================================================== H-surge


def _completing(under, building="Monument to the Moon", **kwargs):
    """Seat 0's Wealth step (turn 2, three actions) with ``under`` beneath ``building``: taking 3 coins
    (4 with the bonus for one kind) ends it, and the Surge starts by checking the structure (H-surge-1).
    Seat 0 has 0 coins before, so 4 after, unless ``p0`` says otherwise."""
    p0 = {"coins": 0, "building": building, "under": under, **kwargs.pop("p0", {})}
    s = position(phase="wealth", turn=2, players=[p0, {}], **kwargs)
    assert decision(s) == ("wealth", 0) and view(s)["players"][0]["completed"] == []
    return play(s, "wealth draw 0 coin 3")


UNDER_5 = ["Tortured Soul", "Forgotten Pharaoh", "Opal Statuary", "Temple Servant", "Moonlight Channeller"]


def test_ruling_h_surge_1_structure_completes_first_and_reveals() -> None:
    s = _completing(UNDER_5)
    assert view(s)["players"][0]["completed"] == ["Monument to the Moon"]
    assert view(s)["players"][0]["building"] is None
    assert Counter(view(s)["revealed"]) == Counter(UNDER_5)
    assert decision(s) == ("unearth", 0)
    plays = [m for m in moves(s) if m.startswith("play")]
    # only cards devoted to Anubis (both included) may be played; Opal Statuary and Temple Servant not
    assert plays == [f'play "{n}" city{c}' for n in ("Forgotten Pharaoh", "Tortured Soul", "Moonlight Channeller")
                     for c in range(3)]
    assert s.scores()[0] == 3


def test_ruling_h_surge_1_free_play_is_a_normal_play() -> None:
    s = _completing(UNDER_5, favor="horus")
    play(s, 'play "Tortured Soul" city1')
    assert coins(s) == [4, 4]  # no cost
    assert s.favor == "anubis"  # favor flip
    assert side(s, 1, 0) == Counter({"Tortured Soul": 1})
    assert decision(s) == ("reinforce", 0)  # REINFORCE as on any play
    assert s.discount_used is False
    # the cards not taken go to the discard pile
    assert discard(s) == ["Forgotten Pharaoh", "Moonlight Channeller", "Opal Statuary", "Temple Servant"]


def test_ruling_h_surge_1_not_before_build_number() -> None:
    s = _completing(UNDER_5[:4])
    assert decision(s) == ("surge", 0)
    assert view(s)["players"][0]["building"] == "Monument to the Moon"
    assert view(s)["players"][0]["under_count"] == 4
    assert view(s)["players"][0]["completed"] == []


def test_ruling_h_surge_1_structure_free_play_leaves_the_discount() -> None:
    # the free play is from the revealed cards, not from hand: the first Anubis unit played from hand
    # afterwards still costs 1 less (H-surge-3)
    s = _completing(UNDER_5, p0={"hand": ["Obsidian Statuary", "Obsidian Statuary"]})
    play(s, 'play "Tortured Soul" city1', "pass")
    assert coins(s) == [4, 4] and s.discount_used is False
    play(s, 'play "Obsidian Statuary" city0', "pass")
    assert coins(s) == [2, 4]  # 3 - 1
    assert s.discount_used is True
    assert moves(s) == ["end"]  # the second one costs 3 again: more than the 2 coins left


def test_ruling_h_surge_2_capacity_five_colossal_counts_two() -> None:
    s = position(
        cities=[
            (["Sunset Marauder", "Sunset Marauder", "Rabid Usurper"], []),
            (["Sunset Marauder", "Sunset Marauder", "Sunset Marauder", "Rabid Usurper"], []),
            ([], ["Opal Statuary", "Remembered Soul", "Remembered Soul", "Sunlight Channeller", "Sunlight Channeller"]),
        ],
        players=[{"coins": 10, "hand": ["Temple Servant", "Moonfall Conscripts"]}, {}],
    )
    assert moves(s) == [
        'play "Moonfall Conscripts" city2',
        'play "Temple Servant" city0',
        'play "Temple Servant" city2',
        "end",
    ]
    with pytest.raises(IllegalMoveError):
        s.apply('play "Moonfall Conscripts" city0')


def test_ruling_h_surge_3_first_god_unit_costs_one_less() -> None:
    s = position(players=[{"coins": 6, "hand": ["Temple Servant", "Tortured Soul", "Obsidian Statuary"]}, {}])
    play(s, 'play "Temple Servant" city0')  # Neutral: full price, the discount stays
    assert coins(s)[0] == 4
    play(s, 'play "Tortured Soul" city0', "pass")
    assert coins(s)[0] == 2
    assert s.supply() == 20 - 2 - 4  # coins paid return to the supply
    # the second Anubis unit costs 3 again: not affordable with 2 coins
    assert moves(s) == ["end"]


def test_ruling_h_surge_3_discount_makes_unit_affordable_minimum_zero() -> None:
    s = position(players=[{"coins": 2, "hand": ["Tortured Soul", "Obsidian Statuary"]}, {}])
    assert 'play "Tortured Soul" city0' in moves(s) and 'play "Obsidian Statuary" city0' in moves(s)
    s = position(players=[{"coins": 0, "hand": ["Moonlight Channeller", "Temple Servant"]}, {}])
    assert moves(s) == ['play "Moonlight Channeller" city0', 'play "Moonlight Channeller" city1',
                        'play "Moonlight Channeller" city2', "end"]
    play(s, 'play "Moonlight Channeller" city0')
    assert coins(s)[0] == 0


def test_ruling_h_surge_3_a_free_play_from_hand_uses_up_the_discount() -> None:
    # Divine Mandate plays Tortured Soul from hand at no cost: the next Anubis unit costs full price
    s = position(players=[{"unused_tiles": ["Divine Mandate"], "coins": 3,
                           "hand": ["Tortured Soul", "Obsidian Statuary"]}, {}], city_tiles=[3, 3, 2])
    play(s, 'use "Divine Mandate"', 'play "Tortured Soul" city0', "pass")
    assert coins(s) == [3, 4] and s.discount_used is True
    play(s, 'play "Obsidian Statuary" city1')
    assert coins(s) == [0, 4]  # 3, not 3 - 1
    # a free Neutral unit is not devoted to Anubis: the discount stays for Obsidian Statuary
    s = position(players=[{"unused_tiles": ["Divine Mandate"], "coins": 3,
                           "hand": ["Temple Servant", "Obsidian Statuary"]}, {}], city_tiles=[3, 3, 2])
    play(s, 'use "Divine Mandate"', 'play "Temple Servant" city0')
    assert coins(s) == [3, 4] and s.discount_used is False
    play(s, 'play "Obsidian Statuary" city1')
    assert coins(s) == [1, 4]


def test_ruling_h_surge_4_god_unit_flips_favor_before_abilities() -> None:
    s = position(favor="horus", players=[{"hand": ["Tortured Soul"]}, {}])
    play(s, 'play "Tortured Soul" city0')
    assert decision(s) == ("reinforce", 0)
    assert s.favor == "anubis"
    # the Horus side of it
    s = position(active=1, turn=2, favor="anubis", players=[{}, {"hand": ["Remembered Soul"]}])
    play(s, 'play "Remembered Soul" city0')
    assert s.favor == "horus"


def test_ruling_h_surge_4_both_always_flips_neutral_never() -> None:
    for before, after in (("anubis", "horus"), ("horus", "anubis")):
        s = position(favor=before, players=[{"hand": ["Forgotten Pharaoh"]}, {}])
        play(s, 'play "Forgotten Pharaoh" city0')
        assert s.favor == after
    s = position(favor="horus", players=[{"hand": ["Temple Servant"]}, {}])
    play(s, 'play "Temple Servant" city0')
    assert s.favor == "horus"


def test_ruling_h_surge_5_reinforce_any_own_god_unit() -> None:
    s = position(
        cities=[([], ["Remembered Soul"]), (["Opal Statuary", "Rabid Usurper"], []), (["Moonlight Channeller"], [])],
        players=[{"hand": ["Tortured Soul"]}, {"hand": ["Temple Servant"]}],
        discard=["Sunset Marauder"],
    )
    play(s, 'play "Tortured Soul" city0')
    # not the opponent's units, not own units devoted to Horus, not units without REINFORCE
    assert moves(s) == ['reinforce "Tortured Soul" city0', 'reinforce "Moonlight Channeller" city2', "pass"]
    play(s, 'reinforce "Moonlight Channeller" city2')
    assert decision(s) == ("reclaim", 0)
    play(s, 'take "Sunset Marauder"')
    assert hand(s, 0) == Counter({"Sunset Marauder": 1})
    assert hand(s, 1) == Counter({"Temple Servant": 1})  # Tortured Soul's REINFORCE did not resolve


def test_ruling_h_surge_5_this_city_is_the_city_of_the_resolving_unit() -> None:
    s = position(
        cities=[([], ["Remembered Soul", "Sunlight Channeller"]), (["Obsidian Statuary"], ["Opal Statuary"]), EMPTY],
        players=[{"hand": ["Tortured Soul"]}, {}],
    )
    play(s, 'play "Tortured Soul" city0', 'reinforce "Obsidian Statuary" city1')
    assert moves(s) == ['entomb "Opal Statuary" city1']


def test_ruling_h_surge_5_no_reinforce_for_a_neutral_play() -> None:
    s = position(favor="horus", cities=[(["Moonlight Channeller"], []), EMPTY, EMPTY], discard=["Opal Statuary"],
                 players=[{"hand": ["Sunset Marauder"]}, {}])
    play(s, 'play "Sunset Marauder" city1')
    assert decision(s) == ("surge", 0)


def test_ruling_h_surge_6_invocation_only_when_favored() -> None:
    s = position(favor="anubis", players=[{"hand": ["Temple Servant"]}, {}])
    play(s, 'play "Temple Servant" city0')
    assert decision(s) == ("choose", 0)
    s = position(favor="horus", players=[{"hand": ["Temple Servant"]}, {}])
    play(s, 'play "Temple Servant" city0')
    assert decision(s) == ("surge", 0)
    assert sum(hand(s, 0).values()) == 0 and coins(s)[0] == 2


def test_ruling_h_surge_6_initiates_plus_one_strength_while_favored() -> None:
    cities = [(["Temple Servant", "Sunset Marauder", "Rabid Usurper"], ["Temple Servant"]), EMPTY, EMPTY]
    assert position(favor="anubis", cities=cities).strength(0, 0) == 8
    assert position(favor="horus", cities=cities).strength(0, 0) == 6
    assert position(favor="horus", cities=cities).strength(0, 1) == 2
    assert position(favor="anubis", cities=cities).strength(0, 1) == 1


def test_ruling_h_surge_7_maneuver_moves_into_or_out_of_this_city() -> None:
    s = position(
        cities=[
            (["Temple Servant"], []),
            (["Tortured Soul"], ["Remembered Soul"]),
            (["Rabid Usurper", "Sunset Marauder", "Sunset Marauder", "Sunset Marauder"], []),
        ],
        players=[{"coins": 5, "hand": ["Rabid Usurper"]}, {}],
    )
    play(s, 'play "Rabid Usurper" city1')
    # not the opponent's units, not units with MANEUVER, not city0<->city2, not into the full city2
    assert moves(s) == [
        'move "Temple Servant" city0>city1',
        'move "Tortured Soul" city1>city0',
        'move "Sunset Marauder" city2>city1',
        "pass",
    ]
    play(s, 'move "Tortured Soul" city1>city0')
    assert decision(s) == ("move", 0)  # moved units resolve no abilities (no REINFORCE choice)
    play(s, 'move "Sunset Marauder" city2>city1')
    assert decision(s) == ("surge", 0)  # up to 2 moves
    assert side(s, 0, 0) == Counter({"Temple Servant": 1, "Tortured Soul": 1})
    assert side(s, 1, 0) == Counter({"Rabid Usurper": 1, "Sunset Marauder": 1})
    assert side(s, 2, 0) == Counter({"Rabid Usurper": 1, "Sunset Marauder": 2})


def test_ruling_h_surge_7_maneuver_moves_different_units_each_once() -> None:
    # Rabid Usurper (MANEUVER 2) played into city1, where a Temple Servant already is
    s = position(cities=[(["Temple Servant"], []), (["Temple Servant"], []), (["Tortured Soul"], [])],
                 players=[{"hand": ["Rabid Usurper"]}, {}])
    play(s, 'play "Rabid Usurper" city1')
    assert moves(s) == ['move "Temple Servant" city0>city1', 'move "Temple Servant" city1>city0',
                        'move "Temple Servant" city1>city2', 'move "Tortured Soul" city2>city1', "pass"]
    play(s, 'move "Temple Servant" city0>city1')
    assert decision(s) == ("move", 0)
    assert view(s)["pending"]["moved"] == [["Temple Servant", 1]]
    # the moved Temple Servant stays in city1; the one that was already there may still move out
    assert moves(s) == ['move "Temple Servant" city1>city0', 'move "Temple Servant" city1>city2',
                        'move "Tortured Soul" city2>city1', "pass"]
    assert moves(_load(view(s))) == moves(s)  # the moved unit is part of the position
    t = play(s.clone(), 'move "Temple Servant" city1>city2')
    assert decision(t) == ("surge", 0)  # two different units moved
    assert side(t, 1, 0) == Counter({"Rabid Usurper": 1, "Temple Servant": 1})
    assert side(t, 2, 0) == Counter({"Tortured Soul": 1, "Temple Servant": 1})
    # no unit is ferried through the city: moved into it, it cannot move on (D-move-1 let it)
    s = position(cities=[(["Temple Servant"], []), EMPTY, EMPTY], players=[{"hand": ["Rabid Usurper"]}, {}])
    play(s, 'play "Rabid Usurper" city1')
    assert moves(s) == ['move "Temple Servant" city0>city1', "pass"]
    play(s, 'move "Temple Servant" city0>city1')
    assert decision(s) == ("surge", 0)  # one move left, but no unit that may make it
    assert side(s, 1, 0) == Counter({"Rabid Usurper": 1, "Temple Servant": 1})
    with pytest.raises(IllegalMoveError):
        s.apply('move "Temple Servant" city1>city2')


# ====================================================================================== keywords


def test_ruling_h_entomb_1_all_structures_complete_entomb_does_nothing() -> None:
    s = position(
        cities=[(["Temple Servant"], []), EMPTY, EMPTY],
        players=[{"coins": 5, "hand": ["Gifted Taskmaster"], "completed": ANUBIS_STRUCTURES}, {}],
    )
    play(s, 'play "Gifted Taskmaster" city1', 'reinforce "Gifted Taskmaster" city1')
    assert decision(s) == ("surge", 0)
    assert side(s, 1, 0) == Counter({"Gifted Taskmaster": 1})
    assert side(s, 0, 0) == Counter({"Temple Servant": 1})
    assert view(s)["players"][0]["under_count"] == 0


def test_ruling_h_entomb_1_condemned_to_toil_with_all_complete() -> None:
    s = position(
        cities=[([], ["Opal Statuary"]), EMPTY, EMPTY],
        players=[{"unused_tiles": ["Condemned to Toil"], "completed": ANUBIS_STRUCTURES}, {}],
        city_tiles=[3, 3, 2],
    )
    play(s, 'use "Condemned to Toil"')
    assert decision(s) == ("choose", 0)  # straight to "Draw 1 card or gain 1 coin"
    assert side(s, 0, 1) == Counter({"Opal Statuary": 1})


def _enduring_war(p1_hand):
    """Seat 0 wins city0 (8 against 7) and keeps its one unit that fits; seat 1 keeps two of three
    and loses Remembered Soul."""
    s = _war(
        cities=[
            (["Rabid Usurper", "Moonfall Conscripts", "Tortured Soul"],
             ["Remembered Soul", "Opal Statuary", "Sunlight Channeller"]),
            EMPTY,
            EMPTY,
        ],
        players=[{}, {"hand": p1_hand}],
    )
    assert decision(s) == ("keep", 0)
    assert moves(s) == ['keep "Tortured Soul"']  # a single option is still a move (D-decision-1)
    play(s, 'keep "Tortured Soul"')
    assert decision(s) == ("keep", 1)
    play(s, 'keep "Opal Statuary"', 'keep "Sunlight Channeller"')
    return s


def test_ruling_h_enduring_1_needs_another_card_in_hand() -> None:
    s = _enduring_war([])
    assert decision(s) == ("offering", 0)  # no ENDURING decision for seat 1
    assert "Remembered Soul" in discard(s)
    assert hand(s, 1) == Counter()


def test_ruling_h_enduring_1_return_then_discard_an_other_card() -> None:
    s = _enduring_war(["Temple Servant"])
    assert decision(s) == ("enduring", 1)
    assert moves(s) == ['enduring "Remembered Soul"', "pass"]
    play(s, 'enduring "Remembered Soul"')
    assert decision(s) == ("discard", 1)
    assert moves(s) == ['discard "Temple Servant"']  # not the returned unit
    play(s, 'discard "Temple Servant"')
    assert hand(s, 1) == Counter({"Remembered Soul": 1})
    assert known(s, 1) == Counter({"Remembered Soul": 1})
    assert "Remembered Soul" not in discard(s) and discard(s)[-1] == "Temple Servant"
    assert decision(s) == ("offering", 0)


# ====================================================================================== H-war


def test_ruling_h_war_1_war_torn_cities() -> None:
    s = position(
        cities=[
            ([], ["Temple Servant", "Temple Servant", "Temple Servant"]),  # non-active side has 3
            (["Rabid Usurper", "Sunset Marauder", "Sunset Marauder"], ["Sunset Marauder"]),  # 4 + 1 = 5
            (["Rabid Usurper", "Moonfall Conscripts", "Tortured Soul"], []),  # 5, but no reward tiles
        ],
        city_tiles=[3, 3, 0],
        players=[{"unused_tiles": ["Great Scouring", "Sandstorm"]}, {"unused_tiles": ["Desecration"]}],
    )
    assert s.war_torn_cities() == [0, 1]
    s = position(
        cities=[
            (["Temple Servant", "Sunset Marauder"], ["Rabid Usurper"]),  # 2 + 2 = 4, non-active 2
            ([], ["Sunfall Conscripts", "Remembered Soul"]),  # non-active 3 (COLOSSAL counts 2)
            (["Rabid Usurper", "Rabid Usurper", "Temple Servant"], []),  # the active side alone has 5
        ],
    )
    assert s.war_torn_cities() == [1, 2]
    # the same board seen from seat 1's turn: city0 has 2 + 2, city1 3 (non-active seat 0 has 0)
    s = position(active=1, turn=2, cities=[([], []), ([], ["Sunfall Conscripts", "Remembered Soul"]), EMPTY])
    assert s.war_torn_cities() == []


def test_ruling_h_war_1_no_war_in_a_city_that_is_not_war_torn() -> None:
    s = _war(cities=[(["Rabid Usurper"], ["Temple Servant", "Temple Servant"]), EMPTY, EMPTY])
    assert decision(s) == ("offering", 0)
    assert side(s, 0, 0) == Counter({"Rabid Usurper": 1})
    assert side(s, 0, 1) == Counter({"Temple Servant": 2})


def test_ruling_h_war_2_active_player_orders_the_wars() -> None:
    s = _war(
        favor="anubis",
        cities=[
            (["Moonfall Conscripts"], ["Sunset Marauder"] * 3),
            (["Temple Servant"], []),
            (["Rabid Usurper", "Rabid Usurper"], ["Temple Servant"] * 3),
        ],
        city_tiles=[
            ["Royal Treasury", "Desecration", "Great Scouring"],
            ["Scribes of Thoth", "Procession of the Dead", "Condemned to Toil"],
            ["Sandstorm", "Solar Eclipse", "Divine Mandate"],
        ],
    )
    assert decision(s) == ("war", 0)
    assert moves(s) == ["war city0", "war city2"]
    play(s, "war city2")
    # city2 first: seat 0 wins 6 to 3, takes Divine Mandate; nothing of seat 0 fits the keep limit of 1
    assert view(s)["players"][0]["unused_tiles"] == ["Divine Mandate"]
    assert view(s)["city_tiles"][0] == ["Royal Treasury", "Desecration", "Great Scouring"]
    assert side(s, 2, 0) == Counter()
    assert decision(s) == ("keep", 1)
    play(s, 'keep "Temple Servant"', 'keep "Temple Servant"')
    # city0 is the only war-torn city left: resolved without asking (seat 1 wins 6 to 3)
    assert view(s)["players"][1]["unused_tiles"] == ["Great Scouring"]
    assert decision(s) == ("keep", 1)


def test_ruling_h_war_3_higher_strength_wins_over_higher_cost() -> None:
    s = _war(favor="anubis",
             cities=[(["Moonlight Channeller", "Moonlight Channeller"], ["Temple Servant"] * 3), EMPTY, EMPTY],
             city_tiles=[["Royal Treasury", "Desecration", "Great Scouring"], 3, 3])
    assert view(s)["players"][0]["unused_tiles"] == ["Great Scouring"]  # 4 beats 3 (cost 2 against 6)
    assert s.war_victor == 0


def test_ruling_h_war_3_tie_goes_to_higher_cost() -> None:
    # strength 3 each (seat 1 is Horus, not favored: no INVOCATION bonus); printed cost 3 against 6
    cities = [(["Rabid Usurper"], ["Temple Servant"] * 3), EMPTY, EMPTY]
    before = position(favor="anubis", cities=cities)
    assert before.strength(0, 0) == before.strength(0, 1) == 3
    s = _war(favor="anubis", cities=cities, city_tiles=[["Royal Treasury", "Desecration", "Great Scouring"], 3, 3])
    assert view(s)["players"][1]["unused_tiles"] == ["Great Scouring"]
    assert view(s)["players"][0]["unused_tiles"] == []
    assert s.war_victor == 1
    # the loser (seat 0, 2 unit-counts) keeps its Rabid Usurper without a decision; the victor keeps 1
    assert decision(s) == ("keep", 1)
    assert side(s, 0, 0) == Counter({"Rabid Usurper": 1})


def test_ruling_h_war_3_still_tied_no_victor() -> None:
    s = _war(
        cities=[(["Rabid Usurper", "Moonfall Conscripts"], ["Opal Statuary", "Sunfall Conscripts"]), EMPTY, EMPTY],
        city_tiles=[["Royal Treasury", "Desecration", "Great Scouring"], 3, 3],
    )
    assert view(s)["city_tiles"][0] == ["Royal Treasury", "Desecration", "Great Scouring"]
    assert view(s)["players"][0]["unused_tiles"] == [] and view(s)["players"][1]["unused_tiles"] == []
    # no victor: both keep 2 unit-counts (one COLOSSAL is fine), a maximal set (H-war-4)
    assert decision(s) == ("keep", 0)
    assert moves(s) == ['keep "Moonfall Conscripts"', 'keep "Rabid Usurper"']
    play(s, 'keep "Rabid Usurper"')
    assert decision(s) == ("keep", 1)
    assert moves(s) == ['keep "Opal Statuary"', 'keep "Sunfall Conscripts"']
    play(s, 'keep "Opal Statuary"')  # the COLOSSAL Sunfall Conscripts no longer fits: the pick is over
    assert side(s, 0, 0) == Counter({"Rabid Usurper": 1}) and side(s, 0, 1) == Counter({"Opal Statuary": 1})
    assert discard(s) == ["Moonfall Conscripts", "Sunfall Conscripts"]
    assert decision(s) == ("offering", 0)


def test_ruling_h_war_4_outcome_tile_and_keep_limits() -> None:
    # active seat 0 loses 6 to 8 (Horus favored, seat 0 has no bonus)
    s = _war(
        favor="horus",
        cities=[
            (["Temple Servant", "Sunset Marauder", "Rabid Usurper"],
             ["Opal Statuary", "Sunfall Conscripts", "Remembered Soul"]),
            EMPTY,
            EMPTY,
        ],
        city_tiles=[["Royal Treasury", "Desecration", "Great Scouring"], 3, 3],
    )
    assert view(s)["players"][1]["unused_tiles"] == ["Great Scouring"]
    assert view(s)["city_tiles"][0] == ["Royal Treasury", "Desecration"]
    assert s.scores() == (0, 2)
    # the active player chooses first, although the loser; the loser may keep a COLOSSAL unit alone or
    # two units (Sunset Marauder first would leave the Temple Servant before it out: not offered)
    assert decision(s) == ("keep", 0)
    assert moves(s) == ['keep "Temple Servant"', 'keep "Rabid Usurper"']
    play(s, 'keep "Temple Servant"')
    assert moves(s) == ['keep "Sunset Marauder"']  # the second unit that fits, and no pass
    play(s, 'keep "Sunset Marauder"')
    # the victor keeps one unit-count: never the COLOSSAL Sunfall Conscripts
    assert decision(s) == ("keep", 1)
    assert moves(s) == ['keep "Remembered Soul"', 'keep "Opal Statuary"']
    play(s, 'keep "Opal Statuary"')
    assert side(s, 0, 0) == Counter({"Temple Servant": 1, "Sunset Marauder": 1})
    assert side(s, 0, 1) == Counter({"Opal Statuary": 1})
    assert discard(s) == ["Rabid Usurper", "Remembered Soul", "Sunfall Conscripts"]
    assert decision(s) == ("offering", 0)  # seat 1 has no card in hand for ENDURING


def _kept_sets(state: GameState, player: int, city: int) -> Counter:
    """Every way ``player`` can finish the keep decision: {units kept in ``city``: move sequences}."""
    out: Counter = Counter()

    def walk(s: GameState) -> None:
        if decision(s) != ("keep", player):
            out[tuple(sorted(side(s, city, player).elements()))] += 1
            return
        for m in s.legal_moves():
            walk(play(s.clone(), str(m)))

    walk(state)
    return out


def test_ruling_h_war_4_victor_keeps_exactly_one_unit_no_pass() -> None:
    # seat 0 wins 8 to 3: it keeps exactly one of its three non-COLOSSAL units, never none
    s = _war(favor="horus", cities=[(["Sunset Marauder", "Rabid Usurper", "Temple Servant", "Moonlight Channeller"],
                                     ["Opal Statuary"]), EMPTY, EMPTY])
    assert decision(s) == ("keep", 0)
    assert moves(s) == ['keep "Moonlight Channeller"', 'keep "Temple Servant"', 'keep "Sunset Marauder"']
    with pytest.raises(IllegalMoveError):
        s.apply("pass")
    assert _kept_sets(s, 0, 0) == Counter({("Moonlight Channeller",): 1, ("Temple Servant",): 1,
                                           ("Sunset Marauder",): 1})
    play(s, 'keep "Temple Servant"')  # one unit-count kept: the decision is over
    assert side(s, 0, 0) == Counter({"Temple Servant": 1})
    assert discard(s) == ["Moonlight Channeller", "Sunset Marauder", "Rabid Usurper"]
    assert side(s, 0, 1) == Counter({"Opal Statuary": 1})  # the loser, within its limit: no decision
    assert view(s)["players"][0]["unused_tiles"] == ["Solar Eclipse"]
    assert decision(s) == ("offering", 0)
    # a single unit that fits is still a move (D-decision-1); a victor with only COLOSSAL units keeps
    # nothing, without a decision
    s = _war(favor="horus", cities=[(["Rabid Usurper", "Obsidian Statuary"], ["Temple Servant", "Temple Servant"]),
                                    EMPTY, EMPTY])
    assert decision(s) == ("keep", 0) and moves(s) == ['keep "Obsidian Statuary"']
    s = _war(favor="horus", cities=[(["Rabid Usurper", "Moonfall Conscripts"], ["Temple Servant"]), EMPTY, EMPTY])
    assert view(s)["players"][0]["unused_tiles"] == ["Solar Eclipse"]  # 6 to 2: seat 0 won
    assert side(s, 0, 0) == Counter() and discard(s) == ["Moonfall Conscripts", "Rabid Usurper"]
    assert side(s, 0, 1) == Counter({"Temple Servant": 1})
    assert decision(s) == ("offering", 0)


def test_ruling_h_war_4_kept_set_is_maximal_loser_keeps_two_or_one_colossal() -> None:
    # seat 0 loses 8 to 9 with Tortured Soul < Moonfall Conscripts (COLOSSAL) < Obsidian Statuary
    cities = [(["Obsidian Statuary", "Moonfall Conscripts", "Tortured Soul"],
               ["Sunfall Conscripts", "Opal Statuary", "Opal Statuary"]), EMPTY, EMPTY]
    s = _war(favor="horus", cities=cities)
    assert decision(s) == ("keep", 0)
    # Obsidian Statuary first is not offered: the Tortured Soul before it could then never be added
    assert moves(s) == ['keep "Tortured Soul"', 'keep "Moonfall Conscripts"']
    assert _kept_sets(s, 0, 0) == Counter({("Obsidian Statuary", "Tortured Soul"): 1, ("Moonfall Conscripts",): 1})
    play(s, 'keep "Tortured Soul"')
    assert decision(s) == ("keep", 0)
    assert moves(s) == ['keep "Obsidian Statuary"']  # not the COLOSSAL unit (no room), and no pass
    with pytest.raises(IllegalMoveError):
        s.apply("pass")
    play(s, 'keep "Obsidian Statuary"')
    assert side(s, 0, 0) == Counter({"Tortured Soul": 1, "Obsidian Statuary": 1})
    assert discard(s) == ["Moonfall Conscripts"]
    # the victor keeps its only non-COLOSSAL design: one Opal Statuary
    assert decision(s) == ("keep", 1) and moves(s) == ['keep "Opal Statuary"']
    # one unit when only one fits beside a COLOSSAL unit: Tortured Soul alone is maximal
    s = _war(favor="horus", cities=[(["Moonfall Conscripts", "Tortured Soul"], cities[0][1]), EMPTY, EMPTY])
    assert moves(s) == ['keep "Tortured Soul"', 'keep "Moonfall Conscripts"']
    assert _kept_sets(s, 0, 0) == Counter({("Tortured Soul",): 1, ("Moonfall Conscripts",): 1})
    play(s, 'keep "Tortured Soul"')
    assert decision(s) == ("keep", 1)
    assert side(s, 0, 0) == Counter({"Tortured Soul": 1}) and discard(s) == ["Moonfall Conscripts"]


def test_ruling_h_war_4_side_within_its_limit_keeps_all_without_a_decision() -> None:
    # the loser (seat 0) has 2 unit-counts: it keeps its Rabid Usurper; only the victor is asked
    s = _war(favor="horus", cities=[(["Rabid Usurper"], ["Opal Statuary", "Opal Statuary", "Remembered Soul"]),
                                    EMPTY, EMPTY])
    assert s.war_victor == 1 and decision(s) == ("keep", 1)
    assert side(s, 0, 0) == Counter({"Rabid Usurper": 1})
    assert moves(s) == ['keep "Remembered Soul"', 'keep "Opal Statuary"']


def test_ruling_h_war_4_rulebook_keep_a_colossal_alone() -> None:
    """Rulebook: "If the player chooses to keep a COLOSSAL Unit, it would be the only one they could
    keep"."""
    # seat 0 wins 9 to 7 and keeps its only unit that fits; seat 1 may keep two units or its COLOSSAL one
    s = _war(favor="horus", cities=[(["Rabid Usurper", "Moonfall Conscripts", "Obsidian Statuary"],
                                     ["Sunlight Channeller", "Sunfall Conscripts", "Remembered Soul"]), EMPTY, EMPTY])
    assert decision(s) == ("keep", 0) and moves(s) == ['keep "Obsidian Statuary"']
    play(s, 'keep "Obsidian Statuary"')
    assert discard(s) == ["Moonfall Conscripts", "Rabid Usurper"]
    assert decision(s) == ("keep", 1)
    assert moves(s) == ['keep "Remembered Soul"', 'keep "Sunfall Conscripts"']
    assert _kept_sets(s, 1, 0) == Counter({("Remembered Soul", "Sunlight Channeller"): 1, ("Sunfall Conscripts",): 1})
    play(s, 'keep "Sunfall Conscripts"')  # nothing else can be kept with it: the pick is over
    assert side(s, 0, 1) == Counter({"Sunfall Conscripts": 1})
    assert discard(s) == ["Moonfall Conscripts", "Rabid Usurper", "Remembered Soul", "Sunlight Channeller"]
    assert decision(s) == ("offering", 0)  # seat 1 has no card in hand for ENDURING


def test_rulebook_war_example() -> None:
    """The rulebook's war example: Horus (active) 5 against Anubis 4 (3 printed + 1 INVOCATION).

    ``war_example.json`` is the board at the War step; it is loaded one decision earlier, in the
    Surge of the active player, who ends it, so that the engine resolves the war itself."""
    doc = json.loads((DATA / "war_example.json").read_text(encoding="utf-8"))
    assert doc["phase"] == "war"
    s = _load({**doc, "phase": "surge"})
    assert s.active == 1 and s.favor == "anubis"
    assert decision(s) == ("surge", 1)
    assert s.war_torn_cities() == [1]
    assert s.strength(1, 1) == 5  # Sunset Marauder 2 + Rabid Usurper 3, Horus not favored
    assert s.strength(1, 0) == 4  # Tortured Soul 2 + Temple Servant 1 + 1 (Anubis favored)
    play(s, "end")
    assert s.war_victor == 1
    assert view(s)["players"][1]["unused_tiles"] == ["Great Scouring"]
    assert view(s)["city_tiles"][1] == ["Royal Treasury", "Sandstorm"]
    # the victor "can only choose to keep the Sunset Marauder": never the Rabid Usurper, never nothing
    assert decision(s) == ("keep", 1)
    assert moves(s) == ['keep "Sunset Marauder"']
    play(s, 'keep "Sunset Marauder"')
    # the Anubis player keeps both units (2 unit-counts) without a decision
    assert side(s, 1, 0) == Counter({"Tortured Soul": 1, "Temple Servant": 1})
    assert side(s, 1, 1) == Counter({"Sunset Marauder": 1})
    assert discard(s) == ["Rabid Usurper"]
    assert decision(s) == ("offering", 1)
    assert s.scores() == (1, 2)  # the tile (2 VP); seat 0's Moonlight Channeller in hand is TREASURED


# ====================================================================================== H-offer


def test_ruling_h_offer_1_pass_offer_any_split_or_build() -> None:
    s = position(phase="offering", players=[{"hand": ["Temple Servant"]}, {}])
    assert decision(s) == ("offering", 0)
    assert moves(s) == [
        "pass",
        'offer "Temple Servant" draw 2 coin 0',
        'offer "Temple Servant" draw 1 coin 1',
        'offer "Temple Servant" draw 0 coin 2',
    ] + [f'build "Temple Servant" "{n}"' for n in ANUBIS_STRUCTURES]


def test_ruling_h_offer_1_offer_gains_the_split() -> None:
    s = position(phase="offering", players=[{"hand": ["Rabid Usurper", "Opal Statuary"]}, {}])
    play(s, 'offer "Rabid Usurper" draw 1 coin 3')
    assert sum(hand(s, 0).values()) == 2 and hand(s, 0)["Opal Statuary"] == 1
    assert coins(s) == [7, 4]
    assert discard(s)[0] == "Rabid Usurper"


def test_ruling_h_offer_1_build_only_on_the_structure_being_built() -> None:
    s = position(phase="offering", players=[{"hand": ["Temple Servant"], "building": "Temple of Darkness",
                                             "under": ["Opal Statuary"]}, {}])
    assert [m for m in moves(s) if m.startswith("build")] == ['build "Temple Servant" "Temple of Darkness"']
    # with some complete and none being built: the incomplete ones
    s = position(phase="offering", players=[{"hand": ["Temple Servant"], "completed": ["Temple of Darkness"]}, {}])
    assert [m for m in moves(s) if m.startswith("build")] == [
        'build "Temple Servant" "Monument to the Moon"', 'build "Temple Servant" "Tomb of Oblivion"']


def test_ruling_h_offer_1_build_not_allowed_when_all_complete() -> None:
    s = position(phase="offering", players=[{"hand": ["Temple Servant"], "completed": ANUBIS_STRUCTURES}, {}])
    assert not [m for m in moves(s) if m.startswith("build")]
    assert len(moves(s)) == 4


def test_ruling_h_offer_1_build_places_strength_cards_then_labor_then_discard() -> None:
    s = position(
        phase="offering",
        deck_top=["Opal Statuary", "Temple Servant", "Sunset Marauder"],
        players=[{"hand": ["Forgotten Pharaoh"], "coins": 4}, {"coins": 4}],
    )
    play(s, 'build "Forgotten Pharaoh" "Temple of Darkness"')
    p0 = view(s)["players"][0]
    assert p0["building"] == "Temple of Darkness"
    assert p0["under"] == ["Opal Statuary"]  # strength 1: one card from the top of the deck
    assert hand(s, 0) == Counter({"Temple Servant": 1})  # LABOR: draw 1 card …
    assert coins(s)[0] == 5  # … and gain 1 coin
    # then the unit goes to the discard pile (Sunset Marauder is seat 1's god reveal, next turn)
    assert discard(s) == ["Forgotten Pharaoh", "Sunset Marauder"]


def test_ruling_h_offer_1_build_extra_cards_stay() -> None:
    under = ["Opal Statuary", "Temple Servant", "Sunset Marauder", "Remembered Soul"]
    s = position(
        phase="offering",
        players=[{"hand": ["Rabid Usurper"], "building": "Monument to the Moon", "under": under}, {}],
    )
    play(s, 'build "Rabid Usurper" "Monument to the Moon"')
    assert view(s)["players"][0]["under_count"] == 7  # BUILD 5, strength 3: all 7 stay
    assert view(s)["players"][0]["building"] == "Monument to the Moon"


def test_ruling_h_offer_2_hand_and_coin_limits() -> None:
    big = ["Forgotten Pharaoh", "Tortured Soul", "Opal Statuary", "Temple Servant", "Temple Servant",
           "Sunset Marauder", "Rabid Usurper"]
    s = position(phase="offering", players=[{"hand": big, "coins": 12}, {"coins": 4}])
    play(s, "pass")
    assert decision(s) == ("discard", 0)
    play(s, 'discard "Temple Servant"', 'discard "Rabid Usurper"')
    assert hand(s, 0) == Counter(big) - Counter(["Temple Servant", "Rabid Usurper"])
    assert coins(s) == [10, 4]
    assert s.supply() == 6
    assert s.active == 1


# ====================================================================================== H-hidden


def test_ruling_h_hidden_1_what_each_player_knows() -> None:
    s = position(
        phase="wealth_reveal",
        turn=3,
        deck_top=["Tortured Soul"],
        players=[
            {"hand": ["Opal Statuary"], "building": "Monument to the Moon",
             "under": ["Gilded Taskmaster", "Gilded Taskmaster"], "unused_tiles": ["Divine Mandate"]},
            {"hand": ["Remembered Soul"]},
        ],
        city_tiles=[3, 3, 2],
    )
    mine, theirs = s.observation(0), s.observation(1)
    # unused reward tiles: known to their owner only
    assert mine["players"][0]["unused_tiles"] == ["Divine Mandate"]
    assert theirs["players"][0]["unused_tiles"] is None and theirs["players"][0]["unused_count"] == 1
    assert "Divine Mandate" not in json.dumps(theirs)
    # cards beneath a structure: nobody knows them, their owner included
    for obs in (mine, theirs):
        assert obs["players"][0]["under_count"] == 2
        assert "Gilded Taskmaster" not in json.dumps(obs)
    # the revealed god card is known to both while it stays in the hand; the rest of the hand is not
    assert theirs["players"][0]["hand"] is None and theirs["players"][0]["hand_size"] == 2
    assert theirs["players"][0]["known"] == ["Tortured Soul"]
    assert "Opal Statuary" not in json.dumps(theirs)
    assert mine["players"][1]["hand"] is None and "Remembered Soul" not in json.dumps(mine)


# ====================================================================================== H-end, H-score

SIX_TILES = (["Royal Treasury", "Desecration", "Great Scouring"], ["Sandstorm", "Solar Eclipse", "Divine Mandate"])


def test_ruling_h_end_1_two_cities_without_tiles_end_the_game() -> None:
    s = position(phase="offering", city_tiles=[0, 0, 3],
                 players=[{"unused_tiles": SIX_TILES[0], "hand": ["Temple Servant"]}, {"unused_tiles": SIX_TILES[1]}])
    assert not s.is_terminal()
    play(s, "pass")
    assert s.is_terminal() and s.legal_moves() == []


def test_ruling_h_end_1_one_empty_city_goes_on() -> None:
    s = position(phase="offering", city_tiles=[0, 3, 3],
                 players=[{"unused_tiles": SIX_TILES[0], "hand": ["Temple Servant"]}, {}])
    play(s, "pass")
    assert not s.is_terminal()
    assert s.active == 1 and s.turn == 2


def test_ruling_h_end_1_all_three_structures_end_the_game() -> None:
    s = position(phase="offering", players=[{"hand": ["Temple Servant"]}, {"completed": HORUS_STRUCTURES}])
    play(s, "pass")
    assert s.is_terminal()
    assert s.winner() == 1


def test_ruling_h_end_1_only_at_the_end_of_the_offering() -> None:
    # the war in city1 takes its last tile: two cities are empty, but the turn goes on to the Offering
    s = _war(
        city_tiles=[[], ["Royal Treasury"], 3],
        cities=[EMPTY, (["Rabid Usurper", "Rabid Usurper"], ["Temple Servant"]), EMPTY],
        players=[{"unused_tiles": ["Desecration", "Great Scouring"], "hand": ["Opal Statuary"]},
                 {"unused_tiles": ["Sandstorm", "Solar Eclipse", "Divine Mandate"]}],
    )
    assert view(s)["players"][0]["unused_tiles"] == ["Great Scouring", "Royal Treasury", "Desecration"]
    assert view(s)["city_tiles"][1] == []
    assert not s.is_terminal()
    assert decision(s) == ("offering", 0)
    play(s, "pass")
    assert s.is_terminal()


def test_ruling_h_score_1_victory_points() -> None:
    s = position(
        players=[
            {"unused_tiles": ["Royal Treasury"], "used_tiles": ["Desecration"],
             "hand": ["Forgotten Pharaoh", "Moonlight Channeller", "Temple Servant"],
             "completed": ["Monument to the Moon"]},
            {"hand": ["Sunlight Channeller"], "completed": ["Tomb of Rebirth", "Temple of Light"]},
        ],
        city_tiles=[3, 3, 1],
    )
    assert s.scores() == (2 + 1 + 2 + 3, 1 + 7 + 5)


def _final(players, favor="horus", city_tiles=(3, 3, 3)):
    return position(phase="game_over", favor=favor, players=players, city_tiles=city_tiles)


def test_ruling_h_score_1_tie_more_unused_tiles() -> None:
    s = _final([{"unused_tiles": ["Royal Treasury"]}, {"used_tiles": ["Desecration", "Sandstorm"]}], favor="horus",
               city_tiles=[3, 3, 0])
    assert s.scores() == (2, 2) and s.winner() == 0
    assert s.returns() == (1.0, 0.0)


def test_ruling_h_score_1_tie_more_treasured_in_hand() -> None:
    s = _final([{"used_tiles": ["Desecration", "Sandstorm"]},
                {"hand": ["Sunlight Channeller", "Sunlight Channeller"]}], favor="anubis", city_tiles=[3, 3, 1])
    assert s.scores() == (2, 2) and s.winner() == 1


def test_ruling_h_score_1_tie_favored_god() -> None:
    players = [{"hand": ["Fallen Archivist"]}, {"hand": ["Gilded Taskmaster"]}]
    assert _final(players, favor="horus").winner() == 1
    assert _final(players, favor="anubis").winner() == 0


# ====================================================================================== H-card


def _tortured_soul_reinforce(p1_hand, p1_known=()):
    s = position(players=[{"hand": ["Tortured Soul"]}, {"hand": p1_hand, "known": list(p1_known)}])
    return play(s, 'play "Tortured Soul" city0', 'reinforce "Tortured Soul" city0')


def test_ruling_h_card_1_opponent_chooses_the_discard() -> None:
    s = _tortured_soul_reinforce(["Forgotten Pharaoh", "Temple Servant"])
    assert decision(s) == ("discard", 1)
    assert moves(s) == ['discard "Forgotten Pharaoh"', 'discard "Temple Servant"']
    t = play(s.clone(), 'discard "Temple Servant"')  # not an Anubis card: to the discard pile
    assert discard(t) == ["Temple Servant"] and hand(t, 0) == Counter()
    # "an Anubis card" includes units devoted to both gods
    play(s, 'discard "Forgotten Pharaoh"')
    assert hand(s, 0) == Counter({"Forgotten Pharaoh": 1})
    assert hand(s, 1) == Counter({"Temple Servant": 1})
    assert decision(s) == ("surge", 0)


def test_ruling_h_card_1_active_player_picks_revealed_treasured_cards() -> None:
    p1_hand = ["Remembered Soul", "Sunlight Channeller", "Gilded Taskmaster", "Fallen Archivist"]
    s = position(favor="anubis", players=[{"hand": ["Sunset Marauder"]}, {"hand": p1_hand}])
    play(s, 'play "Sunset Marauder" city0')
    assert known(s, 1) == Counter(p1_hand)  # the hand is revealed to both
    assert decision(s) == ("trash", 0)  # the active player chooses
    assert moves(s) == ['discard "Fallen Archivist"', 'discard "Sunlight Channeller"',
                        'discard "Gilded Taskmaster"', "pass"]
    play(s, 'discard "Sunlight Channeller"', 'discard "Gilded Taskmaster"')
    assert hand(s, 1) == Counter({"Remembered Soul": 1, "Fallen Archivist": 1})
    assert decision(s) == ("surge", 0)  # at most 2


def test_ruling_h_card_1_fewer_cards_fewer_discards() -> None:
    s = position(players=[{"unused_tiles": ["Desecration"]}, {"hand": ["Temple Servant"]}], city_tiles=[3, 3, 2])
    play(s, 'use "Desecration"')
    assert decision(s) == ("discard", 1)
    play(s, 'discard "Temple Servant"')
    assert hand(s, 1) == Counter() and decision(s) == ("surge", 0)


def test_ruling_h_card_2_reclaim_up_to_n_known_to_both() -> None:
    s = position(players=[{"hand": ["Moonlight Channeller"]}, {}],
                 discard=["Rabid Usurper", "Temple Servant", "Temple Servant", "Opal Statuary"])
    play(s, 'play "Moonlight Channeller" city0', 'reinforce "Moonlight Channeller" city0')
    assert moves(s) == ['take "Opal Statuary"', 'take "Temple Servant"', 'take "Rabid Usurper"', "pass"]
    play(s, 'take "Opal Statuary"')
    assert hand(s, 0) == known(s, 0) == Counter({"Opal Statuary": 1})
    assert decision(s) == ("surge", 0)  # RECLAIM 1
    # RECLAIM 2, and "up to": pass after one
    s = position(players=[{"unused_tiles": ["Procession of the Dead"]}, {}], city_tiles=[3, 3, 2],
                 discard=["Rabid Usurper", "Temple Servant", "Opal Statuary"])
    play(s, 'use "Procession of the Dead"', 'take "Temple Servant"', 'take "Rabid Usurper"')
    assert hand(s, 0) == known(s, 0) == Counter({"Temple Servant": 1, "Rabid Usurper": 1})
    assert discard(s) == ["Opal Statuary"] and decision(s) == ("surge", 0)
    s = position(players=[{"unused_tiles": ["Procession of the Dead"]}, {}], city_tiles=[3, 3, 2],
                 discard=["Rabid Usurper", "Opal Statuary"])
    play(s, 'use "Procession of the Dead"', 'take "Opal Statuary"', "pass")
    assert hand(s, 0) == Counter({"Opal Statuary": 1}) and discard(s) == ["Rabid Usurper"]


def test_ruling_h_card_3_move_opposing_neutral_to_hand_then_discard() -> None:
    s = position(
        cities=[([], ["Temple Servant", "Rabid Usurper", "Opal Statuary"]), ([], ["Sunset Marauder"]), EMPTY],
        players=[{"coins": 5, "hand": ["Moonfall Conscripts", "Obsidian Statuary"]}, {}],
    )
    play(s, 'play "Moonfall Conscripts" city0')
    assert moves(s) == ['reinforce "Moonfall Conscripts" city0', "pass"]
    play(s, 'reinforce "Moonfall Conscripts" city0')
    # you choose; only Neutral units, only in this city
    assert decision(s) == ("steal", 0)
    assert moves(s) == ['take "Temple Servant"', 'take "Rabid Usurper"']
    play(s, 'take "Rabid Usurper"')
    assert side(s, 0, 1) == Counter({"Temple Servant": 1, "Opal Statuary": 1})
    assert known(s, 0) == Counter({"Rabid Usurper": 1})
    assert decision(s) == ("discard", 0)  # then you discard 1 card of your choice
    assert moves(s) == ['discard "Obsidian Statuary"', 'discard "Rabid Usurper"']
    play(s, 'discard "Obsidian Statuary"')
    assert hand(s, 0) == Counter({"Rabid Usurper": 1}) and discard(s) == ["Obsidian Statuary"]


def test_ruling_h_card_3_no_neutral_no_discard() -> None:
    s = position(cities=[([], ["Opal Statuary"]), ([], ["Temple Servant"]), EMPTY],
                 players=[{"coins": 5, "hand": ["Moonfall Conscripts", "Obsidian Statuary"]}, {}])
    play(s, 'play "Moonfall Conscripts" city0', 'reinforce "Moonfall Conscripts" city0')
    assert decision(s) == ("surge", 0)
    assert hand(s, 0) == Counter({"Obsidian Statuary": 1})


def test_ruling_h_card_4_taskmaster_entombs_any_own_unit_itself_included() -> None:
    s = position(cities=[EMPTY, ([], ["Opal Statuary"]), (["Temple Servant"], [])],
                 players=[{"coins": 5, "hand": ["Gifted Taskmaster"]}, {}])
    play(s, 'play "Gifted Taskmaster" city0', 'reinforce "Gifted Taskmaster" city0')
    assert moves(s) == ['entomb "Gifted Taskmaster" city0', 'entomb "Temple Servant" city2']
    play(s, 'entomb "Gifted Taskmaster" city0', 'structure "Temple of Darkness"')
    assert side(s, 0, 0) == Counter()
    assert view(s)["players"][0]["under"] == ["Gifted Taskmaster"]
    assert view(s)["players"][0]["building"] == "Temple of Darkness"


def test_ruling_h_card_4_condemned_to_toil_any_cities() -> None:
    s = position(
        cities=[([], ["Opal Statuary"]), (["Sunset Marauder"], []), ([], ["Temple Servant", "Rabid Usurper"])],
        players=[{"unused_tiles": ["Condemned to Toil"], "building": "Monument to the Moon"}, {}],
        city_tiles=[3, 3, 2],
    )
    play(s, 'use "Condemned to Toil"')
    assert moves(s) == ['entomb "Opal Statuary" city0', 'entomb "Temple Servant" city2',
                        'entomb "Rabid Usurper" city2', "pass"]
    play(s, 'entomb "Opal Statuary" city0', 'entomb "Rabid Usurper" city2')
    assert Counter(view(s)["players"][0]["under"]) == Counter({"Opal Statuary": 1, "Rabid Usurper": 1})
    assert side(s, 0, 1) == Counter() and side(s, 2, 1) == Counter({"Temple Servant": 1})
    assert decision(s) == ("choose", 0)


def test_ruling_h_card_5_one_choice_all_of_one_kind() -> None:
    base = position(favor="anubis", players=[{"hand": ["Temple Servant"], "coins": 4}, {}])
    play(base, 'play "Temple Servant" city0')
    s = play(base.clone(), "choose draw")
    assert sum(hand(s, 0).values()) == 2 and coins(s) == [2, 4]
    s = play(base.clone(), "choose coins")
    assert sum(hand(s, 0).values()) == 0 and coins(s) == [4, 4]
    base = position(players=[{"unused_tiles": ["Condemned to Toil"]}, {}], city_tiles=[3, 3, 2])
    play(base, 'use "Condemned to Toil"')
    assert moves(base) == ["choose draw", "choose coin"]
    s = play(base.clone(), "choose draw")
    assert sum(hand(s, 0).values()) == 1 and coins(s) == [4, 4]
    s = play(base.clone(), "choose coin")
    assert sum(hand(s, 0).values()) == 0 and coins(s) == [5, 4]


SCOURING_CITIES = [
    (["Rabid Usurper"], ["Temple Servant", "Opal Statuary"]),
    (["Sunset Marauder", "Forgotten Pharaoh"], ["Remembered Soul"]),
    ([], ["Sunset Marauder", "Sunset Marauder"]),
]


def test_ruling_h_card_6_great_scouring_is_not_a_war() -> None:
    s = position(cities=SCOURING_CITIES, players=[{"unused_tiles": ["Great Scouring"], "hand": []},
                                                  {"hand": ["Temple Servant"]}], city_tiles=[3, 3, 2])
    play(s, 'use "Great Scouring"')
    # Neutral units on both sides are destroyed; Embalmed (both gods) and Followers stay
    assert [side(s, c, p) for c in range(3) for p in (0, 1)] == [
        Counter(), Counter({"Opal Statuary": 1}),
        Counter({"Forgotten Pharaoh": 1}), Counter({"Remembered Soul": 1}),
        Counter(), Counter(),
    ]
    assert sum(hand(s, 0).values()) == 5  # one card for each unit destroyed
    # not a war: no tile changes hands, no keep or ENDURING decision
    assert [len(t) for t in view(s)["city_tiles"]] == [3, 3, 2]
    assert view(s)["players"][0]["unused_tiles"] == [] and view(s)["players"][0]["used_tiles"] == ["Great Scouring"]
    assert decision(s) == ("surge", 0)


def test_ruling_h_card_6_great_scouring_does_not_trigger_enduring() -> None:
    # No Neutral unit of the built-in set has ENDURING; give Sunset Marauder ENDURING to see it.
    cards = edited_cards("Sunset Marauder", "keywords = []", 'keywords = ["ENDURING"]')
    s = position(cards=cards, cities=[(["Sunset Marauder"], []), EMPTY, EMPTY],
                 players=[{"unused_tiles": ["Great Scouring"], "hand": ["Temple Servant"]}, {}], city_tiles=[3, 3, 2])
    play(s, 'use "Great Scouring"')
    assert decision(s) == ("surge", 0)
    assert "Sunset Marauder" in discard(s) and hand(s, 0)["Sunset Marauder"] == 0
    # the same unit destroyed in a war does offer ENDURING (so the edited card works)
    s = _war(cards=cards, favor="horus",
             cities=[(["Sunset Marauder", "Rabid Usurper", "Temple Servant"], ["Opal Statuary", "Remembered Soul"]),
                     EMPTY, EMPTY])
    assert moves(s) == ['keep "Temple Servant"', 'keep "Sunset Marauder"']  # seat 0 wins 6 to 5
    play(s, 'keep "Temple Servant"')  # the loser keeps both its units without a decision
    assert decision(s) == ("enduring", 0)
    assert moves(s) == ['enduring "Sunset Marauder"', "pass"]


def test_ruling_h_card_7_sandstorm_moves_own_units_with_capacity() -> None:
    s = position(
        cities=[
            (["Rabid Usurper", "Tortured Soul"], ["Remembered Soul"]),
            (["Sunset Marauder", "Sunset Marauder", "Sunset Marauder", "Moonfall Conscripts"], []),
            (["Temple Servant", "Temple Servant", "Temple Servant"], []),
        ],
        players=[{"unused_tiles": ["Sandstorm"]}, {}],
        city_tiles=[3, 3, 2],
    )
    play(s, 'use "Sandstorm"')
    assert moves(s) == [
        'move "Tortured Soul" city0>city2',
        'move "Rabid Usurper" city0>city2',  # a unit with MANEUVER may be moved by Sandstorm
        'move "Moonfall Conscripts" city1>city0',
        'move "Moonfall Conscripts" city1>city2',
        'move "Sunset Marauder" city1>city0',
        'move "Sunset Marauder" city1>city2',
        'move "Temple Servant" city2>city0',
        "pass",
    ]
    play(s, 'move "Tortured Soul" city0>city2')
    assert decision(s) == ("move", 0)  # no REINFORCE for a moved unit
    assert 'move "Rabid Usurper" city0>city2' not in moves(s)  # city2 now holds 4
    play(s, 'move "Sunset Marauder" city1>city0')
    assert decision(s) == ("surge", 0)
    assert side(s, 0, 0) == Counter({"Rabid Usurper": 1, "Sunset Marauder": 1})
    assert side(s, 2, 0) == Counter({"Temple Servant": 3, "Tortured Soul": 1})


def test_ruling_h_card_8_divine_mandate_is_a_free_normal_play() -> None:
    s = position(
        favor="horus",
        cities=[(["Sunset Marauder", "Sunset Marauder", "Sunset Marauder", "Rabid Usurper"], []), EMPTY,
                (["Moonlight Channeller"], [])],
        players=[{"unused_tiles": ["Divine Mandate"], "coins": 2,
                  "hand": ["Tortured Soul", "Obsidian Statuary", "Rabid Usurper"]}, {}],
        city_tiles=[3, 3, 2],
    )
    play(s, 'use "Divine Mandate"')
    assert decision(s) == ("play_free", 0)
    # capacity applies (city0 is full); mandatory, so no pass
    assert moves(s) == [f'play "{n}" city{c}' for n in ("Tortured Soul", "Obsidian Statuary", "Rabid Usurper")
                        for c in (1, 2)]
    play(s, 'play "Tortured Soul" city1')
    assert coins(s) == [2, 4] and s.favor == "anubis"
    assert moves(s) == ['reinforce "Tortured Soul" city1', 'reinforce "Moonlight Channeller" city2', "pass"]
    play(s, "pass")
    # a play from hand: the first Anubis unit used up the discount (H-surge-3), so Obsidian Statuary
    # costs its full 3, more than the 2 coins left (the Neutral Rabid Usurper costs 3 as well)
    assert s.discount_used is True
    assert moves(s) == ["end"]


def test_ruling_h_card_8_divine_mandate_maneuver() -> None:
    s = position(cities=[(["Temple Servant"], []), EMPTY, EMPTY],
                 players=[{"unused_tiles": ["Divine Mandate"], "coins": 0, "hand": ["Rabid Usurper"]}, {}],
                 city_tiles=[3, 3, 2])
    play(s, 'use "Divine Mandate"', 'play "Rabid Usurper" city1')
    assert moves(s) == ['move "Temple Servant" city0>city1', "pass"]


def test_ruling_h_card_9_solar_eclipse_sets_favor() -> None:
    for before in ("horus", "anubis"):
        s = position(favor=before, players=[{"unused_tiles": ["Solar Eclipse"]}, {}], city_tiles=[3, 3, 2])
        play(s, 'use "Solar Eclipse"')
        assert s.favor == "anubis"
        assert sum(hand(s, 0).values()) == 1


UNDER_7 = ["Moonlight Channeller", "Opal Statuary", "Temple Servant", "Temple Servant", "Rabid Usurper",
           "Forgotten Pharaoh", "Sunset Marauder"]


def test_ruling_h_card_10_take_exactly_k_no_pass() -> None:
    s = _completing(UNDER_7, building="Temple of Darkness")  # K = 2
    # a free play of an Anubis card, or the first of 2 takes (not the last card: nothing after it)
    plays = [f'play "{n}" city{c}' for n in ("Forgotten Pharaoh", "Moonlight Channeller") for c in range(3)]
    takes = [f'take "{n}"' for n in ("Forgotten Pharaoh", "Moonlight Channeller", "Opal Statuary", "Temple Servant",
                                     "Sunset Marauder")]
    assert moves(s) == plays + takes
    with pytest.raises(IllegalMoveError):
        s.apply("pass")
    # every way to finish: one of the 6 plays, or exactly 2 cards (16 pairs, each reached once)
    outcomes = _outcomes(s, "unearth", 0)
    assert outcomes[()] == 6
    assert sorted(len(k) for k in outcomes) == [0] + [2] * 16 and set(outcomes.values()) == {1, 6}
    play(s, 'take "Opal Statuary"')
    # after a take: no play any more, no pass, takes go on in card order
    assert moves(s) == ['take "Temple Servant"', 'take "Sunset Marauder"', 'take "Rabid Usurper"']
    play(s, 'take "Temple Servant"')
    assert decision(s) == ("surge", 0)  # K = 2 taken
    assert hand(s, 0) == known(s, 0) == Counter({"Opal Statuary": 1, "Temple Servant": 1})
    # the cards not taken go to the discard pile, in card order (D-discard-1)
    assert discard(s) == ["Forgotten Pharaoh", "Moonlight Channeller", "Temple Servant", "Sunset Marauder",
                          "Rabid Usurper"]


def test_ruling_h_card_10_take_all_if_fewer_than_k() -> None:
    # Tomb of Oblivion ("add any 3") made to complete with 2 cards beneath it: both must be taken
    cards = edited_cards("Tomb of Oblivion", "build = 9", "build = 2")
    s = _completing(["Opal Statuary", "Tortured Soul"], building="Tomb of Oblivion", cards=cards)
    assert view(s)["players"][0]["completed"] == ["Tomb of Oblivion"]
    assert Counter(view(s)["revealed"]) == Counter({"Opal Statuary": 1, "Tortured Soul": 1})
    # taking both in card order: the Tortured Soul first; or play it
    assert moves(s) == [f'play "Tortured Soul" city{c}' for c in range(3)] + ['take "Tortured Soul"']
    play(s, 'take "Tortured Soul"')
    assert moves(s) == ['take "Opal Statuary"']  # mandatory: a single option, no pass
    play(s, 'take "Opal Statuary"')
    assert decision(s) == ("surge", 0)
    assert hand(s, 0) == known(s, 0) == Counter({"Opal Statuary": 1, "Tortured Soul": 1})
    assert discard(s) == [] and view(s)["revealed"] == []


# ====================================================================================== D-decision, D-pick


def test_ruling_d_decision_1_opponents_choice_is_their_move() -> None:
    s = _tortured_soul_reinforce(["Temple Servant"])
    assert s.current_player == 1
    # a mandatory decision with a single option is still a move
    assert moves(s) == ['discard "Temple Servant"']
    play(s, 'discard "Temple Servant"')
    assert s.current_player == 0


def test_ruling_d_decision_1_only_pass_is_skipped() -> None:
    # RECLAIM with an empty discard pile
    s = position(players=[{"hand": ["Moonlight Channeller"]}, {}])
    play(s, 'play "Moonlight Channeller" city0', 'reinforce "Moonlight Channeller" city0')
    assert decision(s) == ("surge", 0)
    # Sunset Marauder against a hand without TREASURED cards (the hand is still revealed)
    s = position(favor="anubis", players=[{"hand": ["Sunset Marauder"]}, {"hand": ["Remembered Soul"]}])
    play(s, 'play "Sunset Marauder" city0')
    assert decision(s) == ("surge", 0)
    assert known(s, 1) == Counter({"Remembered Soul": 1})
    # MANEUVER with no unit to move
    s = position(players=[{"hand": ["Rabid Usurper"]}, {}])
    play(s, 'play "Rabid Usurper" city0')
    assert decision(s) == ("surge", 0)


def test_ruling_d_decision_1_offering_with_empty_hand_is_skipped() -> None:
    s = position(phase="offering", players=[{"hand": []}, {"hand": ["Temple Servant"]}])
    assert decision(s) != ("offering", 0)
    assert s.active == 1


def test_ruling_d_decision_2_single_war_torn_city_is_not_asked() -> None:
    s = _war(favor="anubis", cities=[EMPTY, (["Moonfall Conscripts"], ["Sunset Marauder"] * 3), EMPTY],
             city_tiles=[3, ["Royal Treasury", "Desecration", "Great Scouring"], 3])
    assert s.war_city == 1 and s.war_victor == 1
    assert decision(s) == ("keep", 1)
    assert "war city1" not in [str(m) for m in s.moves]


def _outcomes(state, kind, player):
    """Every way to finish the current decision: {result: number of move sequences reaching it}."""
    out: Counter = Counter()

    def walk(s):
        if decision(s) != (kind, player):
            out[tuple(sorted(hand(s, player).elements()))] += 1
            return
        for m in s.legal_moves():
            t = s.clone()
            t.apply(m)
            walk(t)

    walk(state)
    return out


def test_ruling_d_pick_1_picks_in_card_order_each_set_once() -> None:
    big = ["Rabid Usurper", "Temple Servant", "Opal Statuary", "Temple Servant", "Forgotten Pharaoh",
           "Sunset Marauder", "Tortured Soul"]
    s = position(phase="offering", players=[{"hand": big}, {}])
    play(s, "pass")
    # discard 2 of 7: the last card in card order cannot come first (nothing would be left after it)
    assert moves(s) == ['discard "Forgotten Pharaoh"', 'discard "Tortured Soul"', 'discard "Opal Statuary"',
                        'discard "Temple Servant"', 'discard "Sunset Marauder"']
    t = play(s.clone(), 'discard "Temple Servant"')
    assert moves(t) == ['discard "Temple Servant"', 'discard "Sunset Marauder"', 'discard "Rabid Usurper"']
    outcomes = _outcomes(s, "discard", 0)
    assert len(outcomes) == 16  # 15 pairs of different cards + the two Temple Servants
    assert set(outcomes.values()) == {1}


def test_ruling_d_pick_1_up_to_picks_end_with_pass_each_set_once() -> None:
    s = position(favor="anubis", players=[{"hand": ["Sunset Marauder"]},
                                          {"hand": ["Sunlight Channeller", "Sunlight Channeller", "Fallen Archivist"]}])
    play(s, 'play "Sunset Marauder" city0')
    outcomes = _outcomes(s, "trash", 0)  # the hand of seat 0 is the same in every outcome
    assert sum(outcomes.values()) == 1 + 2 + 2  # {}, {FA}, {SC}, {FA, SC}, {SC, SC}


# ====================================================================================== D-play, D-move


def _hybrid_cards():
    """Moonlight Channeller given INVOCATION (draw 1 or gain 1) and MANEUVER 1 besides its REINFORCE."""
    return edited_cards(
        "Moonlight Channeller",
        'reinforce = [{ op = "reclaim", n = 1 }]',
        'reinforce = [{ op = "reclaim", n = 1 }]\nmaneuver = 1\ninvocation = [{ op = "choose", options = ['
        '{ label = "draw", effects = [{ op = "draw", n = 1 }] }, '
        '{ label = "coins", effects = [{ op = "gain", n = 1 }] }] }]',
    )


def test_ruling_d_play_1_reinforce_then_invocation_then_maneuver() -> None:
    s = position(cards=_hybrid_cards(), favor="horus", discard=["Opal Statuary"],
                 cities=[EMPTY, (["Temple Servant"], []), EMPTY],
                 players=[{"hand": ["Moonlight Channeller"], "coins": 4}, {}])
    play(s, 'play "Moonlight Channeller" city0')
    assert coins(s)[0] == 4  # paid 0 (cost 1, discount) …
    assert s.favor == "anubis"  # … placed, favor flipped …
    assert decision(s) == ("reinforce", 0)  # … then REINFORCE
    play(s, 'reinforce "Moonlight Channeller" city0', 'take "Opal Statuary"')
    # then INVOCATION: the favor was checked after the flip (Horus was favored before the play)
    assert decision(s) == ("choose", 0)
    play(s, "choose coins")
    assert coins(s)[0] == 5
    assert decision(s) == ("move", 0)  # then MANEUVER
    assert moves(s) == ['move "Temple Servant" city1>city0', "pass"]


def test_ruling_d_play_1_both_gods_unit_offers_reinforce_to_either_player() -> None:
    s = position(cities=[EMPTY, (["Moonlight Channeller"], ["Sunlight Channeller"]), EMPTY],
                 players=[{"hand": ["Forgotten Pharaoh"]}, {}], discard=["Opal Statuary"])
    play(s, 'play "Forgotten Pharaoh" city0')
    assert moves(s) == ['reinforce "Moonlight Channeller" city1', "pass"]
    s = position(active=1, turn=2, cities=[EMPTY, (["Moonlight Channeller"], ["Sunlight Channeller"]), EMPTY],
                 players=[{}, {"hand": ["Fallen Archivist"]}], discard=["Opal Statuary"])
    play(s, 'play "Fallen Archivist" city2')
    assert moves(s) == ['reinforce "Sunlight Channeller" city1', "pass"]


def test_ruling_d_play_1_opponent_god_unit_triggers_nothing() -> None:
    s = position(cities=[EMPTY, (["Moonlight Channeller"], []), EMPTY], discard=["Opal Statuary"],
                 players=[{"hand": ["Sunlight Channeller"]}, {}])
    play(s, 'play "Sunlight Channeller" city0')
    assert decision(s) == ("surge", 0)


def test_ruling_d_move_2_sandstorm_moves_different_units_each_once() -> None:
    s = position(cities=[(["Temple Servant"], []), (["Tortured Soul"], []), EMPTY],
                 players=[{"unused_tiles": ["Sandstorm"]}, {}], city_tiles=[3, 3, 2])
    play(s, 'use "Sandstorm"', 'move "Temple Servant" city0>city1')
    assert view(s)["pending"]["moved"] == [["Temple Servant", 1]]
    assert moves(s) == ['move "Tortured Soul" city1>city0', 'move "Tortured Soul" city1>city2', "pass"]
    t = play(s.clone(), 'move "Tortured Soul" city1>city0')
    assert decision(t) == ("surge", 0)
    assert side(t, 0, 0) == Counter({"Tortured Soul": 1}) and side(t, 1, 0) == Counter({"Temple Servant": 1})
    t = play(s.clone(), "pass")  # stop early
    assert decision(t) == ("surge", 0)
    assert side(t, 1, 0) == Counter({"Temple Servant": 1, "Tortured Soul": 1})
    # one unit of yours: it moves once, and Sandstorm is over
    s = position(cities=[(["Temple Servant"], []), EMPTY, EMPTY],
                 players=[{"unused_tiles": ["Sandstorm"]}, {}], city_tiles=[3, 3, 2])
    play(s, 'use "Sandstorm"', 'move "Temple Servant" city0>city1')
    assert decision(s) == ("surge", 0)
    assert side(s, 1, 0) == Counter({"Temple Servant": 1})


def test_ruling_d_invocation_1_bonus_on_the_favored_side_in_the_other_players_turn() -> None:
    # seat 1's turn; Anubis favored: seat 0's Temple Servants are 2 each (6) against 3 + 2
    cities = [(["Temple Servant"] * 3, ["Rabid Usurper", "Remembered Soul"]), EMPTY, EMPTY]
    before = position(active=1, turn=2, favor="anubis", cities=cities)
    assert before.strength(0, 0) == 6 and before.strength(0, 1) == 5
    s = _war(active=1, turn=2, favor="anubis", cities=cities,
             city_tiles=[["Royal Treasury", "Desecration", "Great Scouring"], 3, 3])
    assert s.war_victor == 0
    assert view(s)["players"][0]["unused_tiles"] == ["Great Scouring"]


# ====================================================================================== D-dev, D-entomb, D-steal


def test_ruling_d_dev_1_enduring_of_an_opponent_god_unit_does_not_resolve() -> None:
    s = _war(
        favor="horus",
        cities=[(["Opal Statuary", "Obsidian Statuary", "Temple Servant", "Forgotten Pharaoh"],
                 ["Sunfall Conscripts", "Rabid Usurper", "Opal Statuary"]), EMPTY, EMPTY],
        players=[{"hand": ["Temple Servant"]}, {}],
    )
    assert s.war_victor == 1  # 9 to 8
    # seat 0 keeps Forgotten Pharaoh and Temple Servant, so both ENDURING statues are destroyed;
    # seat 1 keeps its one unit that fits, Opal Statuary
    play(s, 'keep "Forgotten Pharaoh"', 'keep "Temple Servant"', 'keep "Opal Statuary"')
    assert discard(s) == ["Obsidian Statuary", "Opal Statuary", "Sunfall Conscripts", "Rabid Usurper"]
    assert decision(s) == ("enduring", 0)
    assert moves(s) == ['enduring "Obsidian Statuary"', "pass"]  # not the Horus Opal Statuary


def test_ruling_d_dev_1_treasured_and_colossal_hold_for_any_owner() -> None:
    s = position(players=[{"hand": ["Sunlight Channeller", "Gilded Taskmaster", "Rabid Usurper"], "coins": 9}, {}],
                 cities=[(["Sunfall Conscripts", "Sunset Marauder", "Sunset Marauder"], []), EMPTY, EMPTY])
    assert s.scores()[0] == 2
    assert s.side_count(0, 0) == 4
    assert 'play "Rabid Usurper" city0' not in moves(s)
    assert 'play "Sunlight Channeller" city0' in moves(s)


def test_ruling_d_entomb_1_beneath_the_entombing_players_structure_hidden() -> None:
    s = position(cities=[([], ["Opal Statuary"]), EMPTY, EMPTY],
                 players=[{"unused_tiles": ["Condemned to Toil"], "building": "Temple of Darkness"},
                          {"building": "Monument to the Sun"}],
                 city_tiles=[3, 3, 2], deck_top=["Opal Statuary"])
    play(s, 'use "Condemned to Toil"', 'entomb "Opal Statuary" city0')
    assert decision(s) == ("choose", 0)
    assert view(s)["players"][0]["under"] == ["Opal Statuary"]
    assert view(s)["players"][1]["under"] == []
    for p in (0, 1):
        obs = s.observation(p)
        assert obs["players"][0]["under_count"] == 1
        assert "Opal Statuary" not in json.dumps(obs)


def test_ruling_d_entomb_2_unit_first_then_structure() -> None:
    s = position(cities=[(["Temple Servant"], []), EMPTY, EMPTY],
                 players=[{"coins": 5, "hand": ["Gifted Taskmaster"], "completed": ["Temple of Darkness"]}, {}])
    play(s, 'play "Gifted Taskmaster" city1', 'reinforce "Gifted Taskmaster" city1', 'entomb "Temple Servant" city0')
    assert decision(s) == ("structure", 0)
    assert moves(s) == ['structure "Monument to the Moon"', 'structure "Tomb of Oblivion"']
    play(s, 'structure "Tomb of Oblivion"')
    assert view(s)["players"][0]["building"] == "Tomb of Oblivion"
    assert view(s)["players"][0]["under"] == ["Temple Servant"]
    assert side(s, 0, 0) == Counter()


def test_ruling_d_entomb_2_one_incomplete_or_one_being_built_is_not_asked() -> None:
    for extra, expect in (({"completed": ["Monument to the Moon", "Tomb of Oblivion"]}, "Temple of Darkness"),
                          ({"building": "Tomb of Oblivion"}, "Tomb of Oblivion")):
        s = position(cities=[(["Temple Servant"], []), EMPTY, EMPTY],
                     players=[{"coins": 5, "hand": ["Gifted Taskmaster"], **extra}, {}])
        play(s, 'play "Gifted Taskmaster" city1', 'reinforce "Gifted Taskmaster" city1',
             'entomb "Temple Servant" city0')
        assert decision(s) == ("surge", 0)
        assert view(s)["players"][0]["building"] == expect
        assert view(s)["players"][0]["under"] == ["Temple Servant"]


def test_ruling_d_steal_1_discarded_face_up_straight_to_hand() -> None:
    s = _tortured_soul_reinforce(["Moonlight Channeller", "Temple Servant"], p1_known=["Moonlight Channeller"])
    play(s, 'discard "Moonlight Channeller"')
    assert discard(s) == []
    assert hand(s, 0) == known(s, 0) == Counter({"Moonlight Channeller": 1})
    assert hand(s, 1) == Counter({"Temple Servant": 1}) and known(s, 1) == Counter()
    assert s.observation(1)["players"][0]["known"] == ["Moonlight Channeller"]


# ====================================================================================== D-unearth, D-enduring


def test_ruling_d_unearth_1_rest_discarded_before_the_played_units_abilities() -> None:
    s = _completing(UNDER_7, building="Temple of Darkness")
    play(s, 'play "Moonlight Channeller" city0', 'reinforce "Moonlight Channeller" city0')
    # RECLAIM 1 can already take a card that was beneath the structure
    assert 'take "Opal Statuary"' in moves(s)
    assert discard(s) == ["Forgotten Pharaoh", "Opal Statuary", "Temple Servant", "Temple Servant",
                          "Sunset Marauder", "Rabid Usurper"]


def test_ruling_d_enduring_1_after_both_keeps_active_player_first() -> None:
    # active seat 0 loses city0 (9 against 10): both sides lose ENDURING units
    s = _war(
        favor="horus",
        cities=[(["Tortured Soul", "Tortured Soul", "Obsidian Statuary", "Moonlight Channeller"],
                 ["Remembered Soul", "Remembered Soul", "Opal Statuary", "Rabid Usurper"]), EMPTY, EMPTY],
        players=[{"hand": ["Temple Servant"]}, {"hand": ["Sunset Marauder"]}],
    )
    assert s.war_victor == 1
    play(s, 'keep "Moonlight Channeller"', 'keep "Obsidian Statuary"')  # both Tortured Souls are destroyed
    assert decision(s) == ("keep", 1)  # both keep before any ENDURING
    play(s, 'keep "Opal Statuary"')
    assert decision(s) == ("enduring", 0)  # the active player first, although the loser
    assert moves(s) == ['enduring "Tortured Soul"', "pass"]
    play(s, 'enduring "Tortured Soul"', 'discard "Temple Servant"')
    assert decision(s) == ("enduring", 0)  # the second copy
    play(s, "pass")
    assert decision(s) == ("enduring", 1)
    assert moves(s) == ['enduring "Remembered Soul"', "pass"]
    play(s, 'enduring "Remembered Soul"', 'discard "Sunset Marauder"', "pass")
    assert hand(s, 0) == Counter({"Tortured Soul": 1}) and hand(s, 1) == Counter({"Remembered Soul": 1})
    assert Counter(discard(s)) == Counter({"Tortured Soul": 1, "Remembered Soul": 1, "Rabid Usurper": 1,
                                           "Temple Servant": 1, "Sunset Marauder": 1})
    assert decision(s) == ("offering", 0)


# ====================================================================================== D-known, D-emissary, H-setup-4


def test_ruling_d_known_1_a_leaving_card_drops_one_known_copy() -> None:
    s = _tortured_soul_reinforce(["Temple Servant", "Temple Servant", "Opal Statuary"],
                                 p1_known=["Temple Servant", "Opal Statuary"])
    play(s, 'discard "Temple Servant"')
    assert hand(s, 1) == Counter({"Temple Servant": 1, "Opal Statuary": 1})
    # seat 0 cannot tell whether the known copy left: it no longer counts on one
    assert known(s, 1) == Counter({"Opal Statuary": 1})
    assert s.observation(0)["players"][1]["known"] == ["Opal Statuary"]


def test_ruling_d_known_1_an_unknown_card_leaving_keeps_the_known_one() -> None:
    s = _tortured_soul_reinforce(["Temple Servant", "Opal Statuary"], p1_known=["Opal Statuary"])
    play(s, 'discard "Temple Servant"')
    assert known(s, 1) == Counter({"Opal Statuary": 1})


def test_ruling_d_known_1_a_revealed_hand_is_known_whole() -> None:
    p1_hand = ["Remembered Soul", "Temple Servant"]
    s = position(favor="anubis", players=[{"hand": ["Sunset Marauder"]}, {"hand": p1_hand}])
    assert s.observation(0)["players"][1]["known"] == []
    play(s, 'play "Sunset Marauder" city0')
    assert s.observation(0)["players"][1]["known"] == ["Remembered Soul", "Temple Servant"]


def _emissary(p0, p1, first_player=0):
    return position(phase="emissary", config={"emissary": True, "first_player": first_player}, favor="horus",
                    players=[{"hand": p0}, {"hand": p1}])


def test_ruling_d_emissary_1_seat_0_first_unseen_higher_total_goes_first() -> None:
    s = _emissary(["Temple Servant", "Rabid Usurper"], ["Opal Statuary", "Sunset Marauder"])
    assert decision(s) == ("emissary", 0)
    assert moves(s) == ['emissary "Temple Servant"', 'emissary "Rabid Usurper"']
    play(s, 'emissary "Temple Servant"')
    assert decision(s) == ("emissary", 1)
    obs = s.observation(1)
    assert obs["players"][0]["emissary_chosen"] is True
    assert "Temple Servant" not in json.dumps(obs)
    play(s, 'emissary "Opal Statuary"')  # 3 + 3 + 4 = 10 against 2 + 1 + 2 = 5
    assert s.active == 1
    assert s.favor == "anubis"  # the second player's god
    assert "Opal Statuary" in discard(s)  # the first player discards its emissary
    assert hand(s, 0)["Temple Servant"] == 1 and known(s, 0) == Counter({"Temple Servant": 1})
    assert s.first_turn is True


def test_ruling_d_emissary_1_ties() -> None:
    # equal totals (6): the higher strength goes first
    s = _emissary(["Forgotten Pharaoh"], ["Sunlight Channeller"])
    play(s, 'emissary "Forgotten Pharaoh"', 'emissary "Sunlight Channeller"')
    assert s.active == 1 and s.favor == "anubis"
    # equal totals and strength: the configured first player, seat 0 here (H-setup-4)
    s = _emissary(["Sunset Marauder"], ["Remembered Soul"])
    play(s, 'emissary "Sunset Marauder"', 'emissary "Remembered Soul"')
    assert s.active == 0 and s.favor == "horus"
    assert hand(s, 1)["Remembered Soul"] == 1 and "Sunset Marauder" in discard(s)


def test_ruling_h_setup_4_emissary_full_tie_goes_to_the_configured_first_player() -> None:
    # Sunset Marauder and Remembered Soul: 3 + 2 + 2 each, strength 2 each
    s = _emissary(["Sunset Marauder"], ["Remembered Soul"], first_player=1)
    play(s, 'emissary "Sunset Marauder"', 'emissary "Remembered Soul"')
    assert s.active == 1 and s.favor == "anubis"  # the oldest player: seat 1, not seat 0
    assert discard(s)[0] == "Remembered Soul"  # the first player discards its emissary …
    assert hand(s, 0) == known(s, 0) == Counter({"Sunset Marauder": 1})  # … the other takes it back
    assert decision(s) == ("wealth", 1) and s.first_turn is True
    s = _emissary(["Sunset Marauder"], ["Remembered Soul"], first_player=0)
    play(s, 'emissary "Sunset Marauder"', 'emissary "Remembered Soul"')
    assert s.active == 0 and s.favor == "horus"
    assert discard(s)[0] == "Sunset Marauder"
    assert hand(s, 1) == known(s, 1) == Counter({"Remembered Soul": 1})
    assert decision(s) == ("wealth", 0)
    # only a full tie: equal totals (6) with a higher strength still go to the stronger emissary
    s = _emissary(["Moonlight Channeller"], ["Forgotten Pharaoh"], first_player=1)
    play(s, 'emissary "Moonlight Channeller"', 'emissary "Forgotten Pharaoh"')
    assert s.active == 0 and s.favor == "horus"
    assert discard(s)[0] == "Moonlight Channeller"


# ====================================================================================== D-deck, D-discard, D-offer


def test_ruling_d_deck_1_draw_one_at_a_time_reshuffling_when_empty() -> None:
    s = position(phase="wealth", turn=2, rest="discard", deck_top=["Gilded Taskmaster"],
                 players=[{"hand": []}, {}])
    assert len(discard(s)) == 39
    play(s, "wealth draw 3 coin 0")
    assert sum(hand(s, 0).values()) == 4
    assert hand(s, 0)["Gilded Taskmaster"] >= 1  # the one card of the deck came first
    assert discard(s) == [] and len(view(s)["deck"]) == 36


def test_ruling_d_discard_1_one_sides_destroyed_units_in_card_order() -> None:
    s = _war(favor="horus", cities=[(["Rabid Usurper", "Sunset Marauder", "Temple Servant", "Forgotten Pharaoh"],
                                     ["Opal Statuary"]), EMPTY, EMPTY])
    assert s.war_victor == 0  # 7 to 3: seat 0 keeps one unit
    play(s, 'keep "Temple Servant"')
    assert discard(s) == ["Forgotten Pharaoh", "Sunset Marauder", "Rabid Usurper"]


def test_ruling_d_discard_1_each_side_destroyed_as_soon_as_it_has_chosen() -> None:
    s = _war(favor="horus",
             cities=[(["Rabid Usurper", "Sunset Marauder", "Temple Servant"],
                      ["Fallen Archivist", "Remembered Soul", "Sunlight Channeller"]), EMPTY, EMPTY])
    assert s.war_victor == 0  # 6 to 5
    play(s, 'keep "Sunset Marauder"')  # the active player has chosen: its side goes first, in card order
    assert decision(s) == ("keep", 1)
    assert discard(s) == ["Temple Servant", "Rabid Usurper"]
    play(s, 'keep "Remembered Soul"', 'keep "Sunlight Channeller"')
    assert discard(s) == ["Temple Servant", "Rabid Usurper", "Fallen Archivist"]


def test_ruling_d_discard_1_great_scouring_city_by_city_seat_0_first() -> None:
    s = position(cities=[(["Rabid Usurper"], ["Temple Servant"]), (["Sunset Marauder"], []),
                         ([], ["Temple Servant", "Rabid Usurper"])],
                 players=[{"unused_tiles": ["Great Scouring"]}, {}], city_tiles=[3, 3, 2])
    play(s, 'use "Great Scouring"')
    assert discard(s) == ["Rabid Usurper", "Temple Servant", "Sunset Marauder", "Temple Servant", "Rabid Usurper"]


def test_ruling_d_discard_1_take_the_copy_nearest_the_top() -> None:
    s = position(players=[{"unused_tiles": ["Procession of the Dead"]}, {}], city_tiles=[3, 3, 2],
                 discard=["Temple Servant", "Opal Statuary", "Temple Servant", "Rabid Usurper"])
    play(s, 'use "Procession of the Dead"', 'take "Temple Servant"', "pass")
    assert discard(s) == ["Temple Servant", "Opal Statuary", "Rabid Usurper"]


def test_ruling_d_offer_1_any_split_coins_beyond_the_supply_are_lost() -> None:
    s = position(phase="offering", players=[{"hand": ["Rabid Usurper"], "coins": 5}, {"coins": 14}])
    assert moves(s)[1:6] == [f'offer "Rabid Usurper" draw {k} coin {4 - k}' for k in range(4, -1, -1)]
    play(s, 'offer "Rabid Usurper" draw 0 coin 4')
    assert coins(s) == [6, 14] and s.supply() == 0


# ====================================================================================== D-end


def test_ruling_d_end_1_limits_before_the_end_check() -> None:
    big = ["Forgotten Pharaoh", "Fallen Archivist", "Moonlight Channeller", "Gifted Taskmaster",
           "Temple Servant", "Sunset Marauder", "Rabid Usurper"]
    s = position(phase="offering", city_tiles=[0, 0, 3],
                 players=[{"hand": big, "coins": 12, "unused_tiles": SIX_TILES[0]},
                          {"coins": 4, "unused_tiles": SIX_TILES[1]}])
    play(s, "pass")
    assert not s.is_terminal() and decision(s) == ("discard", 0)
    play(s, 'discard "Forgotten Pharaoh"', 'discard "Fallen Archivist"')
    assert s.is_terminal()
    assert coins(s) == [10, 4]
    assert s.scores() == (6 + 2, 6)  # TREASURED counted in the hand as limited


def test_ruling_d_end_2_turn_limit() -> None:
    s = position(phase="offering", turn=3, config={"max_turns": 3},
                 players=[{"unused_tiles": ["Royal Treasury"], "hand": ["Temple Servant"]}, {}], city_tiles=[3, 3, 2])
    play(s, "pass")
    assert s.is_terminal()
    assert s.scores() == (2, 0) and s.winner() == 0
    s = position(phase="offering", turn=2, active=1, config={"max_turns": 3},
                 players=[{}, {"hand": ["Temple Servant"]}])
    play(s, "pass")
    assert not s.is_terminal() and s.turn == 3


# ====================================================================================== configured seats


def test_ruling_h_wealth_2_two_actions_for_the_configured_first_player_only() -> None:
    s = GameState.new(seed=3, config=Config(first_player=1))
    assert s.active == 1 and s.favor == "anubis"  # the favor card starts on the second player's god
    if decision(s) == ("reveal", 1):
        play(s, "pass")
    assert decision(s) == ("wealth", 1)
    assert len(moves(s)) == 3  # 2 actions: draw 2/1/0
    play(s, "wealth draw 0 coin 2", "end")
    while decision(s) != ("offering", 1):
        play(s, str(s.legal_moves()[-1]))
    play(s, "pass")
    while s.pending is not None and s.pending.player == 1:  # hand limit, if any
        play(s, str(s.legal_moves()[0]))
    if decision(s) == ("reveal", 0):
        play(s, "pass")
    assert decision(s) == ("wealth", 0)
    assert len(moves(s)) == 4  # seat 0's first turn is not the first player's first turn


def test_ruling_h_surge_4_with_gods_swapped_between_seats() -> None:
    cfg = {"gods": ["horus", "anubis"]}
    s = position(config=cfg, favor="anubis",
                 players=[{"hand": ["Remembered Soul", "Tortured Soul"], "coins": 8}, {"hand": ["Temple Servant"]}])
    play(s, 'play "Tortured Soul" city0')  # devoted to the opponent's god (Anubis): full cost, no ability
    assert coins(s)[0] == 5 and decision(s) == ("surge", 0) and s.favor == "anubis"
    play(s, 'play "Remembered Soul" city1')  # seat 0's god is Horus: discount, flip, REINFORCE
    assert coins(s)[0] == 3 and s.favor == "horus"
    assert moves(s) == ['reinforce "Remembered Soul" city1', "pass"]


def test_ruling_h_deck_1_god_reveal_reshuffles_too() -> None:
    s = position(phase="wealth_reveal", turn=2, rest="discard")
    assert len(view(s)["deck"]) == 39
    assert sum(hand(s, 0).values()) + len(discard(s)) == 1


def test_ruling_d_pick_1_entomb_picks_city_first() -> None:
    s = position(cities=[([], ["Rabid Usurper"]), EMPTY, ([], ["Opal Statuary"])],
                 players=[{"unused_tiles": ["Condemned to Toil"], "building": "Monument to the Moon"}, {}],
                 city_tiles=[3, 3, 2])
    play(s, 'use "Condemned to Toil"')
    assert moves(s) == ['entomb "Rabid Usurper" city0', 'entomb "Opal Statuary" city2', "pass"]
    play(s, 'entomb "Opal Statuary" city2')
    assert decision(s) == ("choose", 0)  # the Rabid Usurper in city0 comes before it: the pick is over


def test_ruling_d_entomb_2_structure_asked_once_for_two_units() -> None:
    s = position(cities=[([], ["Rabid Usurper"]), EMPTY, ([], ["Opal Statuary"])],
                 players=[{"unused_tiles": ["Condemned to Toil"]}, {}], city_tiles=[3, 3, 2])
    play(s, 'use "Condemned to Toil"', 'entomb "Rabid Usurper" city0')
    assert moves(s) == [f'structure "{n}"' for n in ANUBIS_STRUCTURES]
    play(s, 'structure "Monument to the Moon"')
    assert moves(s) == ['entomb "Opal Statuary" city2', "pass"]
    play(s, 'entomb "Opal Statuary" city2')
    assert decision(s) == ("choose", 0)
    assert Counter(view(s)["players"][0]["under"]) == Counter({"Rabid Usurper": 1, "Opal Statuary": 1})
    assert view(s)["players"][0]["building"] == "Monument to the Moon"
