"""Omen: A Reign of War — one test per ruling, named after its id (issue 16, point 7).

The rulings are ``docs/rules/reign-of-war.md`` (``R-…``) and ``docs/rules/reign-of-war-cards.md``
(``R-card-…``), with the engine's own ``D-portent-1`` (``docs/rulings.md``). The Grand Melee
(``R-melee-*``) and the combined game (``C-*``) are tested elsewhere.

Each test lays out a small hand-made table just before the rule applies (:func:`table`), plays the
deciding moves in their text notation through ``apply`` so that the engine applies the rule itself,
and checks the outcome a wrong rule would change: zones, coins, feats, legal moves, scores or
observations. Cards are named, never numbered. Seat 0 is the active player unless a test says
otherwise.

Every test runs on each engine of the ``engine`` fixture (autouse): the reference engine and the
Cython core (:data:`ENGINES`: for each, a way to start a new game and a way to take over a laid-out
table).

A test that fails because the engine disagrees with a ruling is kept and marked
``xfail(strict=True)`` with the reason; it starts passing (and so failing the suite) once the engine
is fixed, and the mark is then removed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

from omen_search.errors import IllegalMoveError
from omen_search.cardfiles import builtin_card_text
from omen_search.games.reign.cards import CardSet, default_cards, parse_cards
from omen_search._reign_core import CoreState
from omen_search.games.reign.reference import GameState
from omen_search.games.reign.rules import Config

CARDS = default_cards()
FEAT_NAMES = [f.name for f in CARDS.feats]


# ============================================================================ engines and the table


@dataclass(frozen=True)
class Engine:
    """How the tests make states on one engine: ``new(seed, config, cards)`` sets up a game (and
    runs it to its first decision); ``adopt(state)`` takes over a reference :class:`GameState` laid
    out by :func:`table`, nothing automatic resolved yet, and runs it to its first decision."""

    name: str
    new: Callable[..., Any]
    adopt: Callable[[GameState], Any]


def _adopt_reference(laid_out: GameState) -> GameState:
    state = GameState.from_parts(laid_out)
    state.run_to_decision()
    return state


ENGINES: dict[str, Engine] = {
    "reference": Engine(
        "reference",
        new=lambda seed, config, cards: GameState.new(seed=seed, config=config, cards=cards),
        adopt=_adopt_reference,
    ),
    "core": Engine(
        "core",
        new=lambda seed, config, cards: CoreState.new(seed=seed, config=config, cards=cards),
        adopt=CoreState.from_state,  # runs the core's own rules on to the first decision
    ),
}
_CURRENT: dict[str, Engine] = {}


@pytest.fixture(autouse=True, params=list(ENGINES))
def engine(request: pytest.FixtureRequest) -> Any:
    """Every ruling is checked on each engine named here."""
    _CURRENT["engine"] = ENGINES[request.param]
    yield ENGINES[request.param]
    _CURRENT.pop("engine", None)


def _engine() -> Engine:
    return _CURRENT.get("engine", ENGINES["reference"])


def edited_cards(name: str, old: str, new: str) -> CardSet:
    """The seed edition with one edit inside the block of the card called ``name``: used where no
    seed card can show a ruling (a Soldier that moves Soldiers, an opposing Soldier moved)."""
    text = builtin_card_text("reign-seed.toml")
    start = text.index(f'\nname = "{name}"\n')
    end = text.find("\n[[", start)
    block = text[start:end]
    assert block.count(old) == 1
    return parse_cards(text[:start] + block.replace(old, new) + text[end:], "edited.toml")


DEFAULT_REWARDS = (
    ("Tribute of Athens", "Wisdom of Athena", "Trojan Horse", "Curse of Hades"),
    ("Thunderbolt of Zeus", "Call to Arms", "Tribute of Athens", "Wisdom of Athena"),
    ("Trojan Horse", "Thunderbolt of Zeus", "Call to Arms", "Curse of Hades"),
)
Pair = tuple[Iterable[str], Iterable[str]]


def table(
    *,
    phase: str = "surge",
    active: int = 0,
    hands: Pair = ((), ()),
    known: Pair = ((), ()),
    coins: tuple[int, int] = (4, 4),
    cities: Mapping[int, Pair] | None = None,
    enraged: Mapping[int, Pair] | None = None,
    deck: Iterable[str] = (),
    discard: Iterable[str] = (),
    decks: Pair | None = None,
    discards: Pair | None = None,
    deck_lists: Pair | None = None,
    deck_known: Pair | None = None,
    rewards: Iterable[Iterable[str]] = DEFAULT_REWARDS,
    rewards_hand: Pair = ((), ()),
    rewards_used: Pair = ((), ()),
    feats: Pair = ((), ()),
    turn: int = 5,
    first_turn: bool = False,
    reward_used: bool = False,
    hand_discards: tuple[int, int] = (0, 0),
    beast_abilities: int = 0,
    config: Config | None = None,
    cards: CardSet = CARDS,
) -> Any:
    """A table laid out by hand, at the start of ``phase`` of ``active``'s turn, run to its first
    decision on the engine under test.

    Cards are names. ``hands``, ``cities`` (``{city: (seat 0's side, seat 1's side)}``, face-up
    units) and ``enraged`` (the same, Enraged units) are per seat. ``deck`` (shared) or ``decks``
    (one per seat, R-own-1) are listed **top first**; ``discard``/``discards`` bottom first (the
    last is on top). With own decks, ``deck_lists`` is every card of each seat's deck wherever it is
    (by default its deck and hand) and ``deck_known`` what the opponent knows of it (by default all). ``rewards`` are the three cities' stacks, top first. ``feats`` names the feats
    each seat has done (face down). Everything not given is empty, apart from 4 coins each and 4
    reward cards per city."""
    config = config or Config()
    s = GameState(cards, config)
    ids = {u.name: u.index for u in cards.units}
    rid = {r.name: r.index for r in cards.rewards}

    def counts(names: Iterable[str]) -> list[int]:
        out = [0] * len(cards.units)
        for name in names:
            out[ids[name]] += 1
        return out

    s.hands = [counts(h) for h in hands]
    s.known = [counts(k) for k in known]
    s.coins = list(coins)
    s.cities = [[counts((cities or {}).get(c, ((), ()))[p]) for p in (0, 1)] for c in range(3)]
    s.enraged = [[counts((enraged or {}).get(c, ((), ()))[p]) for p in (0, 1)] for c in range(3)]
    if decks is not None:
        s.decks = [[ids[n] for n in reversed(list(d))] for d in decks]
        s.deck_lists = [counts(list(d) + list(h)) for d, h in zip(decks, deck_lists or hands)]
        s.deck_known = [counts(k) for k in deck_known] if deck_known else [list(x) for x in s.deck_lists]
    else:
        s.decks = [[ids[n] for n in reversed(list(deck))], []]
    if discards is not None:
        s.discards = [[ids[n] for n in d] for d in discards]
    else:
        s.discards = [[ids[n] for n in discard], []]
    s.city_rewards = [[rid[n] for n in reversed(list(stack))] for stack in rewards]
    s.rewards_hand = [sorted(rid[n] for n in r) for r in rewards_hand]
    s.rewards_used = [sorted(rid[n] for n in r) for r in rewards_used]
    s.feats = [[f.name in set(done) for f in cards.feats] for done in feats]
    s.active, s.turn, s.first_turn, s.reward_used = active, turn, first_turn, reward_used
    s.hand_discards, s.beast_abilities = list(hand_discards), beast_abilities
    s.phase, s.pending, s.stack = phase, None, []
    return _engine().adopt(s)


def new(seed: int = 0, cards: CardSet = CARDS, **config: Any) -> Any:
    """A new game set up by the engine under test (R-setup-*), at its first decision."""
    return _engine().new(seed, Config(**config), cards)


# ============================================================================ reading a state back


def names(counts: list[int], cards: CardSet = CARDS) -> Counter:
    return Counter({cards.units[t].name: n for t, n in enumerate(counts) if n})


def hand(s: Any, p: int) -> Counter:
    return names(s.hands[p], s.cards)


def side(s: Any, city: int, p: int) -> Counter:
    """Seat ``p``'s face-up units in ``city``."""
    return names(s.cities[city][p], s.cards)


def raged(s: Any, city: int, p: int) -> Counter:
    """Seat ``p``'s Enraged units in ``city``."""
    return names(s.enraged[city][p], s.cards)


def pile(s: Any, p: int = 0) -> list[str]:
    """A discard pile, bottom first."""
    return [s.cards.units[t].name for t in s.discards[p]]


def deck(s: Any, p: int = 0) -> list[str]:
    """A deck, top first."""
    return [s.cards.units[t].name for t in reversed(s.decks[p])]


def city_rewards(s: Any, city: int) -> list[str]:
    """A city's reward stack, top first."""
    return [s.cards.rewards[r].name for r in reversed(s.city_rewards[city])]


def rewards_in_hand(s: Any, p: int) -> list[str]:
    return sorted(s.cards.rewards[r].name for r in s.rewards_hand[p])


def feats(s: Any, p: int) -> list[str]:
    return [f.name for f in s.cards.feats if s.feats[p][f.index]]


def moves(s: Any) -> list[str]:
    return [str(m) for m in s.legal_moves()]


def decision(s: Any) -> tuple[str, int]:
    """What is being decided and by whom; ``("over", -1)`` once nothing is (the game is over)."""
    return ("over", -1) if s.pending is None else (s.pending.kind, s.pending.player)


def play(s: Any, *notation: str) -> Any:
    for m in notation:
        s.apply(m)
    return s


def to_war(s: Any) -> Any:
    """End the Surge: Portent, Feat and War follow by the engine's own rules."""
    assert decision(s) == ("surge", s.active)
    return play(s, "end")


def units_everywhere(s: Any) -> Counter:
    """Every unit card in the game: decks, discard piles, hands, cities (face up and Enraged)."""
    total: Counter = Counter()
    for p in (0, 1):
        total.update(deck(s, p))
        total.update(pile(s, p))
        total += hand(s, p)
        for c in range(3):
            total += side(s, c, p) + raged(s, c, p)
    return total


# ============================================================================ components (R-comp)


def test_ruling_r_comp_1_deck_is_174_cards_in_50_designs_of_three_types() -> None:
    s = new(1)
    everything = units_everywhere(s)
    assert sum(everything.values()) == 174
    assert len(everything) == 50
    kinds: Counter = Counter()
    for name, n in everything.items():
        kinds[s.cards.unit(name).type] += n
    assert kinds == Counter({"soldier": 77, "beast": 48, "oracle": 49})
    # the single-circle designs are the beginner set: 24 designs
    assert sum(1 for name in everything if s.cards.unit(name).beginner) == 24


def test_ruling_r_comp_2_twelve_reward_cards_two_of_each_of_six_designs() -> None:
    s = new(2)
    dealt = Counter(name for c in range(3) for name in city_rewards(s, c))
    assert sum(dealt.values()) == 12
    assert dealt == Counter({r.name: 2 for r in s.cards.rewards})
    assert len(dealt) == 6
    # the Grand Melee's marked set (melee_copies) stays in the box in a 2-player game
    assert all(r.melee_copies == 2 for r in s.cards.rewards)


def test_ruling_r_comp_3_each_player_has_the_same_six_feats_face_up() -> None:
    s = new(3)
    assert len(s.feats[0]) == len(s.feats[1]) == 6
    assert feats(s, 0) == feats(s, 1) == []  # none done: all face up
    assert s.observation(1)["players"][0]["feats"] == []


def test_ruling_r_comp_4_no_player_gains_more_coins_than_the_supply_holds() -> None:
    # 39 coins are with the players: 1 left in the supply
    s = table(phase="wealth", coins=(20, 19))
    assert s.supply() == 1
    play(s, "wealth draw 0 coin 3")  # 3 coins and the bonus 1: only 1 can be taken
    assert s.coins == [21, 19]
    assert s.supply() == 0


def test_ruling_r_comp_5_match_cards_are_for_the_grand_melee_only() -> None:
    # the card set has the 4 Match/Victory cards; a 2-player game deals none of them anywhere
    assert sorted(m.number for m in CARDS.match_cards for _ in range(m.copies)) == [1, 1, 2, 2]
    s = new(5)
    text = str(s.observation(0)) + str(s.observation(1))
    assert "Match" not in text


def test_ruling_r_comp_6_three_cities_of_four_reward_cards_and_a_side_for_each_player() -> None:
    s = new(6)
    assert len(s.city_rewards) == 3 and all(len(s.city_rewards[c]) == 4 for c in range(3))
    assert all(len(s.cities[c]) == 2 for c in range(3))
    # no city board: a city is its stack; a play goes onto the player's own side of it
    s = table(hands=(["Hoplite Recruit"], []))
    play(s, 'play "Hoplite Recruit" city2')
    assert side(s, 2, 0) == Counter({"Hoplite Recruit": 1}) and side(s, 2, 1) == Counter()


# ============================================================================ units (R-unit, R-beast)


def test_ruling_r_unit_1_cost_is_paid_strength_fights_offering_is_discarded_for() -> None:
    # Grizzled Veteran: cost 3, strength 3, offering 2
    s = table(hands=(["Grizzled Veteran", "Grizzled Veteran"], []), coins=(5, 4), deck=["Satyr", "Harpy"])
    play(s, 'play "Grizzled Veteran" city0')
    assert s.coins == [2, 4]  # cost paid
    assert s.strength(0, 0) == 3  # printed strength
    play(s, "end")
    assert decision(s) == ("offering", 0)
    # the offering value 2, split any way between cards and coins
    assert [m for m in moves(s) if "Grizzled" in m] == [
        'offer "Grizzled Veteran" draw 2 coin 0',
        'offer "Grizzled Veteran" draw 1 coin 1',
        'offer "Grizzled Veteran" draw 0 coin 2',
    ]


def test_ruling_r_unit_2_mandatory_unless_may_or_up_to() -> None:
    # Theban Slinger (mandatory): "Discard 1 opposing Oracle from this City": no pass
    s = table(hands=(["Theban Slinger"], []),
              cities={0: ((), ["Pythia of Delphi", "Haruspex"])})
    play(s, 'play "Theban Slinger" city0')
    assert decision(s) == ("destroy", 0)
    assert moves(s) == ['destroy "Pythia of Delphi" city0', 'destroy "Haruspex" city0']
    # Spartan Warrior ("You may Enrage"): zero is allowed
    s = table(hands=(["Spartan Warrior"], []), coins=(3, 4))
    play(s, 'play "Spartan Warrior" city1')
    assert moves(s) == ['enrage "Spartan Warrior" city1', "pass"]
    # an ability that finds nothing does nothing: no Oracle to discard, no decision
    s = table(hands=(["Theban Slinger"], ["Pythia of Delphi"]))
    play(s, 'play "Theban Slinger" city2')
    assert decision(s) == ("surge", 0)
    # "you" is the unit's owner: seat 1's Hoplite Recruit gains seat 1 the coin
    s = table(active=1, hands=((), ["Hoplite Recruit"]), coins=(4, 4))
    play(s, 'play "Hoplite Recruit" city0')
    assert s.coins == [4, 3]


def test_ruling_r_unit_3_soldier_ability_resolves_on_every_entry_into_a_city() -> None:
    # played from hand
    s = table(hands=(["Hoplite Recruit", "Centaur"], []), coins=(5, 4))
    play(s, 'play "Hoplite Recruit" city0')
    assert s.coins == [4, 4]
    # moved by an ability (Centaur, discarded for its ability): it resolves again, in its new city
    play(s, 'beast "Centaur"', 'move "Hoplite Recruit" city0>city1')
    assert s.coins == [2, 4]  # 4 - 3 (Centaur) + 1 (Hoplite Recruit)
    assert side(s, 1, 0) == Counter({"Hoplite Recruit": 1})
    # played at no cost (Call to Arms)
    s = table(hands=(["Hoplite Recruit"], []), coins=(0, 4), rewards_hand=(["Call to Arms"], []))
    play(s, 'use "Call to Arms"', 'play "Hoplite Recruit" city2')
    assert s.coins == [1, 4]


def test_ruling_r_unit_3_this_city_is_the_city_just_entered() -> None:
    # Theban Slinger moved from city 0 into city 2 discards the opposing Oracle of city 2, not city 0
    s = table(hands=(["Pegasus"], []),
              cities={0: (["Theban Slinger"], ["Pythia of Delphi"]), 2: ((), ["Haruspex"])},
              deck=["Satyr"])
    play(s, 'beast "Pegasus"', 'move "Theban Slinger" city0>city2')
    assert moves(s) == ['destroy "Haruspex" city2']
    play(s, 'destroy "Haruspex" city2')
    assert side(s, 2, 1) == Counter() and side(s, 0, 1) == Counter({"Pythia of Delphi": 1})


def test_ruling_r_unit_4_a_beast_played_into_a_city_ignores_its_ability() -> None:
    s = table(hands=(["Satyr"], []), deck=["Harpy", "Griffin", "Cyclops"])
    assert {'play "Satyr" city0', 'beast "Satyr"'} <= set(moves(s))  # the two uses
    play(s, 'play "Satyr" city0')
    assert hand(s, 0) == Counter()  # "Draw 3 cards" did not resolve
    assert deck(s) == ["Harpy", "Griffin", "Cyclops"]
    assert s.coins == [2, 4] and s.strength(0, 0) == 3


def test_ruling_r_unit_5_an_oracle_resolves_in_the_portent_step_of_the_turn_it_is_played() -> None:
    s = table(hands=(["Priestess of Demeter", "Satyr"], []), coins=(2, 4))
    play(s, 'play "Priestess of Demeter" city1')
    assert s.coins == [0, 4]  # nothing happens when it is played
    play(s, "end")
    assert s.coins == [1, 4]  # its Portent, this same turn


def test_ruling_r_beast_1_a_beast_counts_as_two_units() -> None:
    # City Limit: Minotaur + Satyr (4) leaves room for a Soldier but not a Beast
    s = table(hands=(["Hoplite Recruit", "Griffin"], []), cities={0: (["Minotaur", "Satyr"], [])})
    assert 'play "Hoplite Recruit" city0' in moves(s)
    assert 'play "Griffin" city0' not in moves(s) and 'play "Griffin" city1' in moves(s)
    # war-torn: the opponent's Beast and Soldier are 3 units
    s = table(hands=(["Hoplite Recruit"], []), cities={1: ((), ["Satyr", "Hoplite Recruit"])})
    to_war(s)
    assert rewards_in_hand(s, 1) == ["Thunderbolt of Zeus"]  # the war was fought (seat 1 won it)
    assert decision(s) == ("keep", 1)
    # feats: Full Ranks (5 units on one side) with 2 Beasts and a Soldier
    s = table(hands=(["Hoplite Recruit"], []), cities={2: (["Satyr", "Griffin", "Hoplite Recruit"], [])},
              rewards=((), (), ()))
    to_war(s)
    assert "Full Ranks" in feats(s, 0)


def test_ruling_r_beast_1_a_winner_never_keeps_a_beast() -> None:
    # the winner keeps 1 unit: their Beast does not fit, their Soldier does
    s = table(hands=(["Satyr"], []),
              cities={0: (["Cyclops", "Hoplite Recruit"], ["Hoplite Recruit", "Temple Guard", "Haruspex"])})
    to_war(s)
    assert decision(s) == ("keep", 0)
    assert moves(s) == ['keep "Hoplite Recruit"', "pass"]


def test_ruling_r_beast_2_choosing_is_by_card_a_beast_is_one_choice() -> None:
    # Cyclops: "Discard 1 opposing unit from any City" can take a whole Beast
    s = table(hands=(["Cyclops"], []), coins=(5, 4), cities={1: ((), ["Minotaur", "Hoplite Recruit"])})
    play(s, 'beast "Cyclops"')
    assert moves(s) == ['destroy "Hoplite Recruit" city1', 'destroy "Minotaur" city1']
    play(s, 'destroy "Minotaur" city1')
    assert side(s, 1, 1) == Counter({"Hoplite Recruit": 1})
    # Centaur: "Move up to 2 of your units" moves two Beasts (4 units' worth)
    s = table(hands=(["Centaur"], []), cities={0: (["Satyr", "Griffin"], [])})
    play(s, 'beast "Centaur"', 'move "Satyr" city0>city1', 'move "Griffin" city0>city2')
    assert side(s, 1, 0) == Counter({"Satyr": 1}) and side(s, 2, 0) == Counter({"Griffin": 1})


# ============================================================================ setup (R-setup)


def test_ruling_r_setup_1_four_face_down_reward_cards_in_each_city() -> None:
    s = new(11)
    assert [len(s.city_rewards[c]) for c in range(3)] == [4, 4, 4]
    for p in (0, 1):
        obs = s.observation(p)
        assert [city["rewards"] for city in obs["cities"]] == [4, 4, 4]
        # nobody knows a reward card, the top ones included
        assert not any(r.name in str(obs) for r in s.cards.rewards)


def test_ruling_r_setup_2_each_player_takes_four_cards_four_coins_and_six_feats() -> None:
    s = new(12)
    assert [sum(hand(s, p).values()) for p in (0, 1)] == [4, 4]
    assert s.coins == [4, 4] and s.supply() == 32
    assert len(deck(s)) == 174 - 8
    assert feats(s, 0) == feats(s, 1) == [] and len(s.feats[0]) == 6


@pytest.mark.parametrize("first", [0, 1])
def test_ruling_r_setup_3_the_oldest_player_takes_the_first_turn(first: int) -> None:
    s = new(13, first_player=first)
    assert decision(s) == ("wealth", first)
    assert s.active == first


# ============================================================================ Wealth (R-wealth)


def test_ruling_r_wealth_1_three_actions_two_on_the_first_players_first_turn() -> None:
    s = new(21)
    # the split is the move: chosen before anything is taken
    assert moves(s) == ["wealth draw 2 coin 0", "wealth draw 1 coin 1", "wealth draw 0 coin 2"]
    play(s, "wealth draw 1 coin 1", "end")
    assert decision(s) == ("offering", 0)
    play(s, "pass")
    assert decision(s) == ("wealth", 1)  # the second player's first turn has 3 actions
    assert moves(s) == ["wealth draw 3 coin 0", "wealth draw 2 coin 1", "wealth draw 1 coin 2",
                        "wealth draw 0 coin 3"]


def test_ruling_r_wealth_2_all_of_one_kind_earns_one_more() -> None:
    five = ["Satyr", "Harpy", "Griffin", "Cyclops", "Phoenix"]
    s = play(table(phase="wealth", deck=five), "wealth draw 3 coin 0")
    assert hand(s, 0) == Counter(five[:4]) and s.coins == [4, 4]
    s = play(table(phase="wealth", deck=five), "wealth draw 0 coin 3")
    assert hand(s, 0) == Counter() and s.coins == [8, 4]
    s = play(table(phase="wealth", deck=five), "wealth draw 2 coin 1")
    assert hand(s, 0) == Counter(five[:2]) and s.coins == [5, 4]
    # the first turn's 2 actions earn the bonus too
    s = play(table(phase="wealth", deck=five, first_turn=True), "wealth draw 2 coin 0")
    assert hand(s, 0) == Counter(five[:3])


def test_ruling_r_wealth_3_coins_from_the_supply_cards_from_the_deck() -> None:
    s = table(phase="wealth", deck=["Cyclops", "Satyr", "Harpy"], coins=(4, 6))
    assert s.supply() == 30
    play(s, "wealth draw 1 coin 2")
    assert hand(s, 0) == Counter({"Cyclops": 1})  # the top card
    assert deck(s) == ["Satyr", "Harpy"]
    assert s.coins == [6, 6] and s.supply() == 28


def test_ruling_r_wealth_4_catch_up_actions_for_no_unit_cards_or_no_coins() -> None:
    deck_ = ["Satyr"] * 4 + ["Harpy"] * 4
    # off by default: 3 actions even with nothing
    s = table(phase="wealth", coins=(0, 4), deck=deck_)
    assert len(moves(s)) == 4
    on = Config(catch_up=True)
    # neither unit cards nor coins: 2 extra actions; all of one kind still earns the bonus
    s = table(phase="wealth", coins=(0, 4), deck=deck_, config=on)
    assert moves(s)[0] == "wealth draw 5 coin 0" and len(moves(s)) == 6
    play(s, "wealth draw 5 coin 0")
    assert sum(hand(s, 0).values()) == 6
    # reward cards in hand are not "cards in hand": 1 extra action for having no unit cards
    s = table(phase="wealth", coins=(3, 4), deck=deck_, rewards_hand=(["Call to Arms"], []), config=on)
    assert moves(s)[0] == "wealth draw 4 coin 0"
    # unit cards but no coins: 1 extra action
    s = table(phase="wealth", coins=(0, 4), hands=(["Satyr"], []), deck=deck_, config=on)
    assert moves(s)[0] == "wealth draw 4 coin 0"
    # unit cards and coins: no extra action
    s = table(phase="wealth", coins=(3, 4), hands=(["Satyr"], []), deck=deck_, config=on)
    assert moves(s)[0] == "wealth draw 3 coin 0"


# ============================================================================ Surge (R-surge)


def test_ruling_r_surge_1_play_into_any_city_paying_the_cost_to_the_supply() -> None:
    # city 2 has no reward cards left: a unit may still be played there
    s = table(hands=(["Grizzled Veteran"], []), coins=(5, 4), deck=["Satyr"],
              rewards=(DEFAULT_REWARDS[0], DEFAULT_REWARDS[1], ()))
    assert {'play "Grizzled Veteran" city0', 'play "Grizzled Veteran" city2'} <= set(moves(s))
    supply = s.supply()
    play(s, 'play "Grizzled Veteran" city2')
    assert s.coins == [2, 4] and s.supply() == supply + 3
    assert side(s, 2, 0) == Counter({"Grizzled Veteran": 1})
    assert hand(s, 0) == Counter({"Satyr": 1})  # the Soldier's ability resolved at once
    # a unit that costs more than you have cannot be played
    s = table(hands=(["Grizzled Veteran"], []), coins=(2, 4))
    assert moves(s) == ["end"]


def test_ruling_r_surge_2_city_limit_five_units_a_side() -> None:
    full = ["Hoplite Recruit", "Hoplite Recruit", "Temple Guard", "Satyr"]  # 5 units
    s = table(hands=(["Argive Scout", "Harpy"], []), cities={0: (full, []), 1: (["Hoplite Recruit"] * 4, [])})
    ms = moves(s)
    assert not any("city0" in m for m in ms)  # nothing more fits in city 0
    assert 'play "Argive Scout" city1' in ms and 'play "Harpy" city1' not in ms
    # nor may a move take a side beyond it
    s = table(hands=(["Pegasus"], []), cities={0: (full, []), 1: (["Argive Scout"], [])}, deck=["Satyr"])
    play(s, 'beast "Pegasus"')
    assert 'move "Argive Scout" city1>city0' not in moves(s)
    assert 'move "Argive Scout" city1>city2' in moves(s)
    # the opposing side of the city has a limit of its own
    s = table(hands=(["Argive Scout"], []), cities={0: ((), full)})
    assert 'play "Argive Scout" city0' in moves(s)


def test_ruling_r_surge_3_a_unit_stays_on_its_owners_side() -> None:
    # Thessalian Horseman moves an opposing Beast: it stays on its owner's side of the new city
    s = table(hands=(["Thessalian Horseman"], []), cities={0: ((), ["Minotaur"])})
    play(s, 'play "Thessalian Horseman" city0')
    assert moves(s) == ['move "Minotaur" city0>city1', 'move "Minotaur" city0>city2', "pass"]
    play(s, 'move "Minotaur" city0>city2')
    assert side(s, 2, 1) == Counter({"Minotaur": 1}) and side(s, 2, 0) == Counter()
    assert side(s, 0, 0) == Counter({"Thessalian Horseman": 1})


def test_ruling_r_surge_4_discard_a_beast_pay_resolve_then_discard() -> None:
    # Phoenix: pay, then "return up to 2 unit cards from the discard pile": it is not there yet
    s = table(hands=(["Phoenix"], []), discard=["Hoplite Recruit"], coins=(3, 4))
    play(s, 'beast "Phoenix"')
    assert s.coins == [0, 4]
    assert moves(s) == ['take "Hoplite Recruit"', "pass"]  # never the Phoenix itself
    play(s, 'take "Hoplite Recruit"')
    assert pile(s) == ["Phoenix"]  # discarded after its ability
    assert hand(s, 0) == Counter({"Hoplite Recruit": 1})
    # it never entered a city
    assert all(side(s, c, 0) == Counter() for c in range(3))


def test_ruling_r_surge_4_only_from_hand_only_in_the_surge() -> None:
    # a Beast already in a city is just a unit: only the Cyclops in hand can be discarded
    s = table(hands=(["Cyclops"], []), coins=(5, 4), cities={0: (["Satyr"], [])})
    assert [m for m in moves(s) if m.startswith("beast")] == ['beast "Cyclops"']
    s = table(hands=(["Cyclops"], []), coins=(4, 4))
    assert moves(s) == ["end"]  # its cost must be paid
    # in the Offering step a Beast in hand is only offered
    play(s, "end")
    assert decision(s) == ("offering", 0)
    assert not any(m.startswith("beast") for m in moves(s))


def test_ruling_r_surge_5_one_reward_card_a_turn_used_face_down_for_1_vp() -> None:
    s = table(hands=(["Satyr"], []), rewards_hand=(["Tribute of Athens", "Wisdom of Athena"], []),
              deck=["Harpy", "Griffin", "Cyclops"])
    assert s.scores() == (4, 0)
    assert {'use "Tribute of Athens"', 'use "Wisdom of Athena"'} <= set(moves(s))
    play(s, 'use "Tribute of Athens"')
    assert s.coins == [8, 4]
    assert not any(m.startswith("use") for m in moves(s))  # at most once per turn
    with pytest.raises(IllegalMoveError):
        play(s, 'use "Wisdom of Athena"')
    assert rewards_in_hand(s, 0) == ["Wisdom of Athena"]
    assert s.scores() == (3, 0)  # 2 in hand, 1 used
    # a used reward card is known to both players; one in hand is not
    seen = s.observation(1)["players"][0]
    assert seen["rewards_used"] == ["Tribute of Athens"] and seen["rewards"] is None
    assert seen["reward_count"] == 1
    # the next turn of its owner, another one may be used
    s = table(phase="offering", active=1, hands=(["Satyr"], ["Harpy"]), deck=["Griffin"] * 5,
              rewards_hand=(["Wisdom of Athena"], []), reward_used=True)
    play(s, "pass", "wealth draw 0 coin 3")
    assert 'use "Wisdom of Athena"' in moves(s)


def test_ruling_r_surge_6_ending_the_surge_is_a_move() -> None:
    s = table(hands=(["Hoplite Recruit"], []), coins=(0, 4))
    assert moves(s) == ["end"]  # a decision with only "end" is still asked
    s = table(hands=(["Hoplite Recruit"], []), coins=(2, 4))
    assert moves(s)[-1] == "end"
    play(s, "end")
    assert decision(s) == ("offering", 0)
    assert s.coins == [2, 4] and hand(s, 0) == Counter({"Hoplite Recruit": 1})


def test_ruling_r_surge_7_nested_abilities_resolve_depth_first() -> None:
    # Pegasus: "You may move 1 of your units to another City. Draw 1 card." It moves Temple Guard
    # ("Draw 1 card, then discard 1 card"): Temple Guard draws and discards before Pegasus draws.
    s = table(hands=(["Pegasus"], []), cities={0: (["Temple Guard"], [])}, deck=["Satyr", "Harpy"])
    play(s, 'beast "Pegasus"', 'move "Temple Guard" city0>city1')
    assert decision(s) == ("discard", 0)
    assert hand(s, 0) == Counter({"Satyr": 1})  # Temple Guard's draw; Pegasus has not drawn yet
    play(s, 'discard "Satyr"')
    assert hand(s, 0) == Counter({"Harpy": 1})  # then the rest of Pegasus
    assert pile(s) == ["Satyr", "Pegasus"]


def test_ruling_r_surge_7_a_chain_of_soldier_triggers_stops_at_depth_8() -> None:
    # a card file where Herald of Hermes moves a Soldier: each move re-enters a Herald
    cards = edited_cards("Herald of Hermes", 'filter = "oracle"', 'filter = "soldier"')
    s = table(hands=(["Herald of Hermes"], []), cards=cards)
    play(s, 'play "Herald of Hermes" city0')
    where = 0
    asked = 0
    while decision(s) == ("move", 0):
        asked += 1
        to = (where + 1) % 3
        play(s, f'move "Herald of Hermes" city{where}>city{to}')
        where = to
    assert asked == 8  # the played Herald's trigger and 7 nested ones; the 9th is skipped
    assert decision(s) == ("surge", 0)


def test_ruling_r_surge_8_a_moved_opposing_soldier_resolves_for_its_owner() -> None:
    # a card file where Thessalian Horseman moves an opposing Soldier out of this City
    cards = edited_cards("Thessalian Horseman", 'filter = "beast"', 'filter = "soldier"')
    s = table(hands=(["Thessalian Horseman"], []), coins=(3, 4), cities={1: ((), ["Hoplite Recruit"])},
              cards=cards)
    play(s, 'play "Thessalian Horseman" city1', 'move "Hoplite Recruit" city1>city2')
    assert s.coins == [0, 5]  # "Gain 1 coin" went to its owner
    assert side(s, 2, 1) == Counter({"Hoplite Recruit": 1})


# ============================================================================ Portent (R-portent, D-portent-1)


def test_ruling_r_portent_1_each_oracle_resolves_once_in_the_order_chosen() -> None:
    s = table(hands=(["Satyr"], []), cities={0: (["Priestess of Demeter"], []), 1: (["Pythia of Delphi"], [])},
              deck=["Harpy", "Griffin"])
    play(s, "end")
    assert decision(s) == ("portent", 0)
    assert moves(s) == ['oracle "Priestess of Demeter" city0', 'oracle "Pythia of Delphi" city1']
    play(s, 'oracle "Pythia of Delphi" city1')
    # the last one resolves without asking; each resolved exactly once
    assert decision(s) == ("offering", 0)
    assert s.coins == [5, 4] and hand(s, 0) == Counter({"Satyr": 1, "Harpy": 1})
    # copies of one design in one city are one choice: both resolve, nothing asked
    s = table(hands=(["Satyr"], []), cities={2: (["Priestess of Demeter", "Priestess of Demeter"], [])})
    play(s, "end")
    assert decision(s) == ("offering", 0) and s.coins == [6, 4]


def test_ruling_r_portent_2_an_oracle_enraged_earlier_is_skipped() -> None:
    s = table(hands=(["Satyr"], []), cities={0: (["Priestess of Demeter"], [])},
              enraged={0: (["Priestess of Demeter"], []), 1: (["Pythia of Delphi"], [])}, deck=["Harpy"])
    play(s, "end")
    assert s.coins == [5, 4]  # only the face-up Priestess
    assert hand(s, 0) == Counter({"Satyr": 1})  # the Enraged Pythia drew nothing


def test_ruling_r_portent_2_an_oracle_enraged_in_this_step_is_skipped() -> None:
    # Oracle of Hermes moves Spartan Warrior into city 1, which Enrages the Priestess there
    s = table(hands=(["Satyr"], []),
              cities={0: (["Oracle of Hermes", "Spartan Warrior"], []), 1: (["Priestess of Demeter"], [])})
    play(s, "end", 'oracle "Oracle of Hermes" city0', 'move "Spartan Warrior" city0>city1')
    assert moves(s) == ['enrage "Spartan Warrior" city1', 'enrage "Priestess of Demeter" city1', "pass"]
    play(s, 'enrage "Priestess of Demeter" city1')
    assert decision(s) == ("offering", 0)
    assert s.coins == [4, 4]  # the Priestess never resolved
    assert raged(s, 1, 0) == Counter({"Priestess of Demeter": 1})


def test_ruling_r_portent_2_an_oracle_that_left_the_cities_is_skipped() -> None:
    # a card file where Theban Slinger discards one of *your* Oracles from this City
    cards = edited_cards("Theban Slinger", 'side = "opposing"', 'side = "own"')
    s = table(hands=(["Satyr"], []), cards=cards,
              cities={0: (["Oracle of Hermes", "Theban Slinger"], []), 1: (["Priestess of Demeter"], [])})
    play(s, "end", 'oracle "Oracle of Hermes" city0', 'move "Theban Slinger" city0>city1')
    assert moves(s) == ['destroy "Priestess of Demeter" city1']
    play(s, 'destroy "Priestess of Demeter" city1')
    assert side(s, 1, 0) == Counter({"Theban Slinger": 1})
    assert decision(s) == ("offering", 0)
    assert s.coins == [4, 4]


def test_ruling_r_portent_2_a_moved_oracle_resolves_once_in_its_new_city() -> None:
    # Oracle of Hermes moves Herald of Hermes, which moves the Maenad from city 1 to city 2; the
    # Maenad then resolves there: "this City" is city 2
    s = table(hands=(["Satyr"], []),
              cities={0: (["Oracle of Hermes", "Herald of Hermes"], ["Hoplite Recruit"]),
                      1: (["Maenad"], ["Grizzled Veteran"]),
                      2: ((), ["Pythia of Delphi"])})
    play(s, "end")
    assert moves(s) == ['oracle "Oracle of Hermes" city0', 'oracle "Maenad" city1']
    play(s, 'oracle "Oracle of Hermes" city0', 'move "Herald of Hermes" city0>city2', 'move "Maenad" city1>city2')
    assert decision(s) == ("enrage", 0)
    assert moves(s) == ['enrage "Pythia of Delphi" city2', "pass"]
    play(s, 'enrage "Pythia of Delphi" city2')
    assert decision(s) == ("offering", 0)  # once only


def test_ruling_r_portent_3_the_opposing_players_oracles_do_nothing() -> None:
    s = table(hands=(["Satyr"], ["Harpy"]), deck=["Griffin"],
              cities={0: ((), ["Priestess of Demeter", "Pythia of Delphi"]), 1: ((), ["Augur of Zeus"])})
    play(s, "end")
    assert decision(s) == ("offering", 0)
    assert s.coins == [4, 4] and hand(s, 1) == Counter({"Harpy": 1}) and hand(s, 0) == Counter({"Satyr": 1})


def _two_maenads() -> Any:
    return table(hands=(["Satyr"], []),
                 cities={0: (["Maenad", "Maenad", "Oracle of Hermes", "Herald of Hermes"],
                             ["Hoplite Recruit", "Hoplite Recruit"]),
                         1: ((), ["Grizzled Veteran"])})


def test_ruling_d_portent_1_a_copy_that_has_resolved_leaves_first() -> None:
    s = _two_maenads()
    play(s, "end", 'oracle "Maenad" city0', "pass")  # one Maenad has resolved
    play(s, 'oracle "Oracle of Hermes" city0', 'move "Herald of Hermes" city0>city1')
    play(s, 'move "Maenad" city0>city1')  # the resolved copy is the one that leaves
    # the Maenad still to resolve is the one in city 0: nothing to choose, and "this City" is city 0
    assert decision(s) == ("enrage", 0)
    assert moves(s) == ['enrage "Hoplite Recruit" city0', "pass"]
    play(s, "pass")
    assert decision(s) == ("offering", 0)


def test_ruling_d_portent_1_a_moved_copy_that_had_not_resolved_takes_its_turn_along() -> None:
    s = _two_maenads()
    play(s, "end", 'oracle "Oracle of Hermes" city0', 'move "Herald of Hermes" city0>city1')
    play(s, 'move "Maenad" city0>city1')
    assert decision(s) == ("portent", 0)
    assert moves(s) == ['oracle "Maenad" city0', 'oracle "Maenad" city1']
    play(s, 'oracle "Maenad" city1')
    assert moves(s) == ['enrage "Grizzled Veteran" city1', "pass"]
    play(s, "pass")
    assert moves(s) == ['enrage "Hoplite Recruit" city0', "pass"]  # the other resolves in city 0
    play(s, "pass")
    assert decision(s) == ("offering", 0)


# ============================================================================ Feat (R-feat)


def test_ruling_r_feat_1_every_feat_that_holds_flips_only_for_the_active_player() -> None:
    # Garrison (a Soldier in each City) and Full Ranks (5 units in one City) at once; seat 1 has a
    # Soldier in each City too but checks nothing in seat 0's turn
    s = table(hands=(["Satyr"], []), rewards=((), DEFAULT_REWARDS[1], DEFAULT_REWARDS[2]),
              cities={0: (["Hoplite Recruit"] * 5, ["Argive Scout"]),
                      1: (["Temple Guard"], ["Argive Scout"]),
                      2: (["Temple Guard"], ["Argive Scout"])})
    play(s, "end")  # the flips are not asked: they are mandatory
    assert decision(s) == ("offering", 0)
    assert feats(s, 0) == ["Garrison", "Full Ranks"]
    assert feats(s, 1) == []


def test_ruling_r_feat_2_a_done_feat_stays_done_for_2_vp() -> None:
    s = table(hands=(["Satyr"], []), feats=(["Garrison", "Lord of Beasts"], []))
    play(s, "end")  # neither condition holds now
    assert feats(s, 0) == ["Garrison", "Lord of Beasts"]
    assert s.scores() == (4, 0)


def test_ruling_r_feat_3_a_state_condition_is_checked_at_the_feat_step() -> None:
    garrison: dict[int, Pair] = {c: (["Hoplite Recruit"], []) for c in range(3)}
    s = play(table(hands=(["Pegasus"], []), cities=garrison, deck=["Satyr"]), "end")
    assert feats(s, 0) == ["Garrison"]  # held at the Feat step
    # the same table, but the Soldier of city 2 moves away during the Surge
    s = table(hands=(["Pegasus"], []), cities=garrison, deck=["Satyr"])
    play(s, 'beast "Pegasus"', 'move "Hoplite Recruit" city2>city1')
    play(s, "end")
    assert feats(s, 0) == []  # it held earlier in the turn, not now


def test_ruling_r_feat_3_each_city_includes_cities_with_no_reward_cards() -> None:
    no_rewards = (DEFAULT_REWARDS[0], DEFAULT_REWARDS[1], ())
    two: dict[int, Pair] = {0: (["Hoplite Recruit"], []), 1: (["Hoplite Recruit"], [])}
    s = play(table(hands=(["Satyr"], []), cities=two, rewards=no_rewards), "end")
    assert feats(s, 0) == []  # city 2 has no Soldier, and it counts
    three = {**two, 2: (["Hoplite Recruit"], [])}
    s = play(table(hands=(["Satyr"], []), cities=three, rewards=no_rewards), "end")
    assert feats(s, 0) == ["Garrison"]


def test_ruling_r_feat_3_a_this_turn_condition_counts_this_turn_only() -> None:
    # seat 1 discarded 2 Beasts for their abilities in its turn; seat 0 discards 1 in its own
    s = table(phase="offering", active=1, hands=(["Satyr", "Griffin"], ["Harpy"]), beast_abilities=2,
              deck=["Cyclops"] * 6)
    play(s, "pass", "wealth draw 0 coin 3", 'beast "Satyr"')
    play(s, "end")
    assert "Wild Hunt" not in feats(s, 0)
    # two in this turn, before the Feat step
    s = table(hands=(["Satyr", "Griffin"], []), deck=["Cyclops"] * 6)
    play(s, 'beast "Satyr"', 'beast "Griffin"', "end")
    assert "Wild Hunt" in feats(s, 0)


def test_ruling_r_feat_4_the_six_feats_of_the_seed_edition() -> None:
    assert FEAT_NAMES == ["Garrison", "Voice of the Gods", "Lord of Beasts", "Humiliation", "Full Ranks",
                          "Wild Hunt"]
    # Voice of the Gods (an Oracle in each City) and Lord of Beasts (a Beast in each City)
    s = table(hands=(["Satyr"], []), cities={0: (["Haruspex", "Satyr"], []), 1: (["Haruspex", "Griffin"], []),
                                             2: (["Haruspex", "Minotaur"], [])}, deck=["Harpy"] * 6)
    play(s, "end")
    while decision(s) == ("portent", 0) or decision(s) == ("discard", 0):
        play(s, moves(s)[0])
    assert feats(s, 0) == ["Voice of the Gods", "Lord of Beasts"]


# ============================================================================ War (R-war)


def test_ruling_r_war_1_war_torn_cities() -> None:
    # city 0: 3 opposing units (a Beast and a Soldier); city 1: 5 units of the active player alone;
    # city 2: 3 opposing units but no reward cards left
    s = table(hands=(["Satyr"], []), rewards=(DEFAULT_REWARDS[0], DEFAULT_REWARDS[1], ()),
              cities={0: ((), ["Satyr", "Hoplite Recruit"]),
                      1: (["Hoplite Recruit", "Temple Guard", "Minotaur", "Argive Scout"], []),
                      2: ((), ["Hoplite Recruit"] * 3)})
    play(s, "end")
    assert decision(s) == ("war", 0)
    assert moves(s) == ["war city0", "war city1"]
    # 2 opposing units and 4 in all is not war-torn; 4 + 1 with a Beast is
    s = table(hands=(["Satyr"], []),
              cities={0: (["Hoplite Recruit"] * 2, ["Hoplite Recruit"] * 2),
                      1: (["Satyr", "Hoplite Recruit", "Hoplite Recruit"], ["Argive Scout"])})
    play(s, "end")
    assert rewards_in_hand(s, 0) == ["Thunderbolt of Zeus"]  # city 1's war, fought without asking
    assert city_rewards(s, 0) == list(DEFAULT_REWARDS[0])  # no war in city 0


def test_ruling_r_war_2_the_active_player_orders_the_wars() -> None:
    s = table(hands=(["Satyr"], []),
              cities={0: (["Cyclops"], ["Hoplite Recruit", "Hoplite Recruit", "Argive Scout"]),
                      2: (["Nemean Lion"], ["Argive Scout", "Argive Scout", "Temple Guard"])})
    play(s, "end")
    assert moves(s) == ["war city0", "war city2"]
    play(s, "war city2")
    # city 2 is fought first: its reward is taken, city 0's not yet. The winner (the active player)
    # has only a Beast and keeps nothing without being asked; then the loser keeps
    assert rewards_in_hand(s, 0) == ["Trojan Horse"]
    assert decision(s) == ("keep", 1) and s.pending.city == 2
    play(s, 'keep "Argive Scout"', 'keep "Argive Scout"')
    # then city 0 without asking (one war-torn city left); city 2 is not fought again
    assert rewards_in_hand(s, 0) == ["Tribute of Athens", "Trojan Horse"]
    assert decision(s) == ("keep", 1) and s.pending.city == 0
    play(s, "pass")
    assert decision(s) == ("offering", 0)
    assert city_rewards(s, 2) == list(DEFAULT_REWARDS[2][1:])


def test_ruling_r_war_3_higher_strength_wins() -> None:
    # 6 (Cyclops) against 7 (three Soldiers)
    s = table(hands=(["Satyr"], []), cities={0: (["Cyclops"], ["Hoplite Recruit", "Hoplite Recruit", "Temple Guard"])})
    play(s, "end")
    assert rewards_in_hand(s, 1) == ["Tribute of Athens"] and rewards_in_hand(s, 0) == []


def test_ruling_r_war_3_tie_goes_to_more_soldiers() -> None:
    # 7 each: Minotaur + Hoplite Recruit (1 Soldier) against three Soldiers
    s = table(hands=(["Satyr"], []),
              cities={0: (["Minotaur", "Hoplite Recruit"], ["Grizzled Veteran", "Hoplite Recruit", "Hoplite Recruit"])})
    assert s.strength(0, 0) == s.strength(0, 1) == 7
    play(s, "end")
    assert rewards_in_hand(s, 1) == ["Tribute of Athens"] and rewards_in_hand(s, 0) == []
    assert decision(s) == ("keep", 0) and s.pending.n == 2  # the active loser keeps 2, first


def test_ruling_r_war_3_an_enraged_soldier_is_no_soldier_in_the_tie_break() -> None:
    # 7 each; seat 0 has 2 face-up Soldiers and an Enraged one, seat 1 has 3 Soldiers: seat 1 wins
    s = table(hands=(["Satyr"], []),
              cities={0: (["Hoplite Recruit", "Argive Scout"],
                          ["Grizzled Veteran", "Hoplite Recruit", "Hoplite Recruit"])},
              enraged={0: (["Spartan Warrior"], [])})
    play(s, "end")
    assert rewards_in_hand(s, 1) == ["Tribute of Athens"] and rewards_in_hand(s, 0) == []


def test_ruling_r_war_3_equal_strength_and_soldiers_is_no_winner() -> None:
    s = table(hands=(["Satyr"], []),
              cities={0: (["Hoplite Recruit", "Hoplite Recruit", "Temple Guard"],
                          ["Grizzled Veteran", "Hoplite Recruit", "Hoplite Recruit"])})
    play(s, "end")
    assert rewards_in_hand(s, 0) == rewards_in_hand(s, 1) == []
    assert city_rewards(s, 0) == list(DEFAULT_REWARDS[0])
    # both keep up to 2 units, the active player first
    assert decision(s) == ("keep", 0) and s.pending.n == 2
    play(s, 'keep "Hoplite Recruit"', 'keep "Temple Guard"')
    assert decision(s) == ("keep", 1) and s.pending.n == 2


def test_ruling_r_war_4_reward_to_the_winners_hand_winner_keeps_1_loser_keeps_2() -> None:
    s = table(hands=(["Satyr"], []),
              cities={0: (["Hoplite Recruit", "Temple Guard", "Cyclops"],
                          ["Satyr", "Hoplite Recruit", "Argive Scout"])})
    play(s, "end")
    assert rewards_in_hand(s, 0) == ["Tribute of Athens"]
    assert city_rewards(s, 0) == list(DEFAULT_REWARDS[0][1:])
    assert s.observation(1)["players"][0]["rewards"] is None  # known to its winner only
    assert s.observation(0)["players"][0]["rewards"] == ["Tribute of Athens"]
    # the winner (the active player) chooses first, 1 unit: never the Beast
    assert decision(s) == ("keep", 0)
    assert moves(s) == ['keep "Hoplite Recruit"', 'keep "Temple Guard"', "pass"]
    play(s, 'keep "Temple Guard"')
    # the loser keeps 2 units: one Beast, or two others
    assert decision(s) == ("keep", 1)
    assert moves(s) == ['keep "Hoplite Recruit"', 'keep "Argive Scout"', 'keep "Satyr"', "pass"]
    play(s, 'keep "Satyr"')
    assert decision(s) == ("offering", 0)
    assert side(s, 0, 0) == Counter({"Temple Guard": 1}) and side(s, 0, 1) == Counter({"Satyr": 1})
    assert pile(s) == ["Hoplite Recruit", "Cyclops", "Hoplite Recruit", "Argive Scout"]


def test_ruling_r_war_5_a_player_may_keep_fewer() -> None:
    s = table(hands=(["Satyr"], []),
              cities={0: (["Cyclops", "Hoplite Recruit"], ["Satyr", "Hoplite Recruit", "Argive Scout"])})
    play(s, "end")
    # the winner may keep none at all
    assert decision(s) == ("keep", 0) and moves(s) == ['keep "Hoplite Recruit"', "pass"]
    play(s, "pass")
    # the loser may keep 1 where 2 would fit
    assert decision(s) == ("keep", 1)
    play(s, 'keep "Hoplite Recruit"')
    assert decision(s) == ("keep", 1) and "pass" in moves(s)
    play(s, "pass")
    assert side(s, 0, 0) == Counter() and side(s, 0, 1) == Counter({"Hoplite Recruit": 1})
    assert pile(s) == ["Hoplite Recruit", "Cyclops", "Argive Scout", "Satyr"]


def test_ruling_r_war_6_units_discarded_after_a_war_are_no_hand_discards() -> None:
    s = table(hands=(["Satyr"], []),
              cities={0: (["Cyclops", "Hydra"], ["Hoplite Recruit", "Hoplite Recruit", "Argive Scout"])})
    play(s, "end", "pass")
    assert len(pile(s)) == 5
    assert list(s.hand_discards) == [0, 0]
    assert s.observation(0)["turn_counts"]["hand_discards"] == [0, 0]
    assert hand(s, 0) == Counter({"Satyr": 1}) and s.coins == [4, 4]  # no Soldier ability resolved


# ============================================================================ Offering (R-offer)


def test_ruling_r_offer_1_pass_or_discard_one_unit_card_for_its_value() -> None:
    s = table(phase="offering", hands=(["Athenian Spearman", "Cyclops"], []), deck=["Satyr", "Harpy"])
    assert moves(s) == ["pass",
                        'offer "Athenian Spearman" draw 3 coin 0', 'offer "Athenian Spearman" draw 2 coin 1',
                        'offer "Athenian Spearman" draw 1 coin 2', 'offer "Athenian Spearman" draw 0 coin 3',
                        'offer "Cyclops" draw 1 coin 0', 'offer "Cyclops" draw 0 coin 1']
    play(s, 'offer "Athenian Spearman" draw 1 coin 2')
    assert hand(s, 0) == Counter({"Cyclops": 1, "Satyr": 1}) and s.coins == [6, 4]
    assert pile(s) == ["Athenian Spearman"]
    assert decision(s) == ("wealth", 1)  # exactly one card: the step is over
    # coins are limited by the supply
    s = table(phase="offering", hands=(["Athenian Spearman"], []), coins=(30, 9))
    play(s, 'offer "Athenian Spearman" draw 0 coin 3')
    assert s.coins == [31, 9]
    # passing keeps everything
    s = table(phase="offering", hands=(["Athenian Spearman"], []))
    play(s, "pass")
    assert hand(s, 0) == Counter({"Athenian Spearman": 1}) and pile(s) == []


def test_ruling_r_offer_2_no_hand_limit_and_no_coin_limit() -> None:
    big = ["Satyr", "Harpy", "Griffin", "Cyclops", "Phoenix", "Minotaur", "Hoplite Recruit", "Temple Guard"]
    s = table(phase="offering", hands=(big, []), coins=(15, 4))
    play(s, "pass")
    assert decision(s) == ("wealth", 1)
    assert hand(s, 0) == Counter(big) and s.coins == [15, 4]


def test_ruling_r_offer_3_the_active_players_enraged_units_flip_face_up() -> None:
    s = table(phase="offering", hands=(["Satyr"], []),
              enraged={0: (["Spartan Warrior"], ["Pythia of Delphi"]), 2: (["Maenad"], [])})
    play(s, "pass")
    assert side(s, 0, 0) == Counter({"Spartan Warrior": 1}) and side(s, 2, 0) == Counter({"Maenad": 1})
    assert raged(s, 0, 0) == raged(s, 2, 0) == Counter()
    assert raged(s, 0, 1) == Counter({"Pythia of Delphi": 1})  # the opposing side's stay Enraged


# ============================================================================ end of the game (R-end)


def test_ruling_r_end_1_two_cities_without_reward_cards_end_the_game() -> None:
    s = table(phase="offering", hands=(["Satyr"], []), rewards=((), DEFAULT_REWARDS[1], ()))
    play(s, "pass")
    assert s.is_terminal() and decision(s) == ("over", -1)
    # one empty city is not enough
    s = table(phase="offering", hands=(["Satyr"], []), rewards=((), DEFAULT_REWARDS[1], DEFAULT_REWARDS[2]))
    play(s, "pass")
    assert not s.is_terminal() and decision(s) == ("wealth", 1)


def test_ruling_r_end_1_the_opposing_players_five_feats_end_the_game() -> None:
    five = FEAT_NAMES[:5]
    s = table(phase="offering", hands=(["Satyr"], []), feats=([], five))
    play(s, "pass")
    assert s.is_terminal()
    # the active player's own five feats do not end their turn's game
    s = table(phase="offering", hands=(["Satyr"], []), feats=(five, []))
    play(s, "pass")
    assert not s.is_terminal()


def test_ruling_r_end_2_the_fifth_feat_gives_the_other_player_one_last_turn() -> None:
    # seat 0 has 4 feats and makes Garrison its fifth in this Feat step
    four = ["Voice of the Gods", "Lord of Beasts", "Humiliation", "Full Ranks"]
    s = table(hands=(["Satyr"], ["Harpy"]), feats=(four, []), deck=["Griffin"] * 8,
              cities={c: (["Hoplite Recruit"], []) for c in range(3)})
    play(s, "end")
    assert len(feats(s, 0)) == 5
    play(s, "pass")
    assert not s.is_terminal() and decision(s) == ("wealth", 1)  # seat 1's last turn
    play(s, "wealth draw 3 coin 0", "end", "pass")
    assert s.is_terminal()
    # both at 5 feats: the game ends at the end of the current turn
    s = table(hands=(["Satyr"], []), feats=(four, FEAT_NAMES[:5]),
              cities={c: (["Hoplite Recruit"], []) for c in range(3)})
    play(s, "end", "pass")
    assert s.is_terminal()


def test_ruling_r_end_3_empty_cities_end_the_game_at_the_end_of_the_turn() -> None:
    # the war takes city 1's last reward card: city 2 is already empty, but the Offering still comes
    s = table(hands=(["Satyr"], []), rewards=(DEFAULT_REWARDS[0], ["Call to Arms"], ()),
              cities={1: (["Cyclops"], ["Argive Scout"] * 3)})
    play(s, "end", "pass")
    assert city_rewards(s, 1) == []
    assert not s.is_terminal() and decision(s) == ("offering", 0)
    play(s, 'offer "Satyr" draw 0 coin 3')
    assert s.is_terminal() and s.coins == [7, 4]


def test_ruling_r_end_4_the_turn_cap_ends_and_scores_the_game() -> None:
    s = table(phase="offering", hands=(["Satyr"], []), turn=7, config=Config(max_turns=7),
              rewards_hand=([], ["Curse of Hades"]))
    play(s, "pass")
    assert s.is_terminal() and s.scores() == (0, 2) and s.winner() == 1
    s = table(phase="offering", hands=(["Satyr"], []), turn=6, config=Config(max_turns=7))
    play(s, "pass")
    assert not s.is_terminal()


# ============================================================================ scoring (R-score)


def test_ruling_r_score_1_feats_2_rewards_in_hand_2_used_rewards_1() -> None:
    s = table(phase="offering", hands=(["Satyr"], []), rewards=((), (), DEFAULT_REWARDS[2]),
              feats=(["Garrison", "Wild Hunt"], ["Humiliation"]),
              rewards_hand=(["Call to Arms"], ["Tribute of Athens", "Wisdom of Athena"]),
              rewards_used=(["Curse of Hades", "Trojan Horse"], []),
              cities={0: (["Cyclops", "Hoplite Recruit"], [])})
    play(s, "pass")
    assert s.is_terminal()
    assert s.scores() == (2 * 2 + 2 + 2, 2 + 2 * 2)  # units score nothing
    assert s.winner() == 0


def test_ruling_r_score_2_ties_go_to_more_feats_then_draw() -> None:
    # 4 each: seat 0 by 2 feats, seat 1 by 2 reward cards in hand
    s = table(phase="offering", hands=(["Satyr"], []), rewards=((), (), DEFAULT_REWARDS[2]),
              feats=(["Garrison", "Wild Hunt"], []), rewards_hand=([], ["Call to Arms", "Curse of Hades"]))
    play(s, "pass")
    assert s.scores() == (4, 4) and s.winner() == 0 and s.returns() == (1.0, 0.0)
    # equal in feats too: a draw
    s = table(phase="offering", hands=(["Satyr"], []), rewards=((), (), DEFAULT_REWARDS[2]),
              feats=(["Garrison"], ["Wild Hunt"]), rewards_hand=(["Call to Arms"], []),
              rewards_used=([], ["Curse of Hades", "Trojan Horse"]))
    play(s, "pass")
    assert s.scores() == (4, 4) and s.winner() is None and s.returns() == (0.5, 0.5)


# ============================================================================ Enraged (R-enrage)


def test_ruling_r_enrage_1_only_a_face_up_soldier_or_oracle_in_a_city() -> None:
    # Chimera: "Enrage up to 2 of your Soldiers or Oracles": not the Beast, not the Enraged
    # Soldier, not the card in hand
    s = table(hands=(["Chimera", "Hoplite Recruit"], []),
              cities={0: (["Minotaur", "Pythia of Delphi"], ["Temple Guard"])},
              enraged={1: (["Hoplite Recruit"], [])})
    play(s, 'beast "Chimera"')
    assert moves(s) == ['enrage "Pythia of Delphi" city0', "pass"]


def test_ruling_r_enrage_2_an_enraged_unit_is_a_strength_4_beast_counting_2() -> None:
    # Minotaur discards an opposing Soldier: not the Enraged one; Nemean Lion an opposing Beast: it
    s = table(hands=(["Minotaur", "Nemean Lion"], []), coins=(8, 4),
              cities={0: ((), ["Argive Scout"])}, enraged={0: ((), ["Hoplite Recruit"])})
    play(s, 'beast "Minotaur"')
    assert moves(s) == ['destroy "Argive Scout" city0']
    play(s, 'destroy "Argive Scout" city0', 'beast "Nemean Lion"')
    assert moves(s) == ['destroy "Hoplite Recruit" city0 enraged']
    # in war: 2 units (so the city is war-torn) of strength 4, and no Soldier in the tie-break
    s = table(hands=(["Satyr"], []), cities={0: (["Hoplite Recruit", "Argive Scout"], ["Argive Scout"])},
              enraged={0: ((), ["Hoplite Recruit"])})
    play(s, "end")
    assert rewards_in_hand(s, 1) == ["Tribute of Athens"]  # 5 against 3
    # no ability: an Enraged Soldier moved into a city resolves nothing
    s = table(hands=(["Pegasus"], []), coins=(2, 4), deck=["Satyr"], enraged={0: (["Hoplite Recruit"], [])})
    play(s, 'beast "Pegasus"', 'move "Hoplite Recruit" city0>city1 enraged')
    assert s.coins == [0, 4] and raged(s, 1, 0) == Counter({"Hoplite Recruit": 1})


def test_ruling_r_enrage_3_no_enrage_beyond_the_city_limit() -> None:
    # Ares' Provocateur must Enrage 1 opposing Oracle: not the one on a full side (5 units)
    s = table(hands=(["Ares' Provocateur"], []),
              cities={0: ((), ["Pythia of Delphi"] + ["Hoplite Recruit"] * 4), 1: ((), ["Haruspex"])})
    play(s, 'play "Ares\' Provocateur" city2')
    assert moves(s) == ['enrage "Haruspex" city1']
    # with no room anywhere, it does nothing
    s = table(hands=(["Ares' Provocateur"], []),
              cities={0: ((), ["Pythia of Delphi"] + ["Hoplite Recruit"] * 4)})
    play(s, 'play "Ares\' Provocateur" city2')
    assert decision(s) == ("surge", 0) and raged(s, 0, 1) == Counter()
    # each Enrage adds 1: with 4 units, one Enrage fits and a second in that city does not
    s = table(hands=(["Chimera"], []), cities={0: (["Hoplite Recruit"] * 4, [])})
    play(s, 'beast "Chimera"', 'enrage "Hoplite Recruit" city0')
    assert decision(s) == ("surge", 0)
    assert raged(s, 0, 0) == Counter({"Hoplite Recruit": 1}) and side(s, 0, 0) == Counter({"Hoplite Recruit": 3})


def test_ruling_r_enrage_4_your_own_enraged_unit_fights_in_your_war_step() -> None:
    # Spartan Warrior Enrages itself: 2 + 4 = 6 beats 5 (face up it would be 5, lost on Soldiers)
    s = table(hands=(["Spartan Warrior"], []), coins=(3, 4),
              cities={0: (["Hoplite Recruit"], ["Hoplite Recruit", "Hoplite Recruit", "Argive Scout"])})
    play(s, 'play "Spartan Warrior" city0', 'enrage "Spartan Warrior" city0', "end")
    assert rewards_in_hand(s, 0) == ["Tribute of Athens"]


def test_ruling_r_enrage_4_an_opposing_enraged_unit_stays_through_the_opponents_turn() -> None:
    # seat 0 Enraged seat 1's Priestess of Demeter this turn
    s = table(phase="offering", hands=(["Satyr"], ["Harpy"]), deck=["Griffin"] * 6,
              enraged={1: ((), ["Priestess of Demeter"])})
    play(s, "pass")
    assert decision(s) == ("wealth", 1) and raged(s, 1, 1) == Counter({"Priestess of Demeter": 1})
    play(s, "wealth draw 3 coin 0", "end")
    assert s.coins == [4, 4]  # it missed seat 1's Portent
    assert decision(s) == ("offering", 1) and raged(s, 1, 1) == Counter({"Priestess of Demeter": 1})
    play(s, "pass")  # the end of its controller's Offering step
    assert raged(s, 1, 1) == Counter() and side(s, 1, 1) == Counter({"Priestess of Demeter": 1})


def test_ruling_r_enrage_5_flipping_face_up_is_not_entering_a_city() -> None:
    s = table(phase="offering", hands=(["Satyr"], []), coins=(4, 4),
              enraged={0: (["Hoplite Recruit", "Theban Slinger"], [])}, cities={0: ((), ["Pythia of Delphi"])})
    play(s, "pass")
    assert side(s, 0, 0) == Counter({"Hoplite Recruit": 1, "Theban Slinger": 1})
    assert s.coins == [4, 4]  # no "Gain 1 coin"
    assert side(s, 0, 1) == Counter({"Pythia of Delphi": 1})  # no Oracle discarded
    assert decision(s) == ("wealth", 1)


def test_ruling_r_enrage_6_an_enraged_unit_leaves_the_city_as_its_card_known_to_both() -> None:
    # discarded: its own card goes to the discard pile
    s = table(hands=(["Nemean Lion"], []), cities={0: ((), ["Argive Scout"])},
              enraged={0: ((), ["Spartan Warrior"])})
    play(s, 'beast "Nemean Lion"', 'destroy "Spartan Warrior" city0 enraged')
    assert pile(s) == ["Spartan Warrior", "Nemean Lion"]
    # returned to its owner's hand: the card, face up, known to both players
    s = table(hands=(["Seaside Guardian"], ["Satyr"]), enraged={2: ((), ["Maenad"])})
    play(s, 'play "Seaside Guardian" city2', 'return "Maenad" city2 enraged')
    assert hand(s, 1) == Counter({"Satyr": 1, "Maenad": 1})
    assert s.observation(0)["players"][1]["known"] == ["Maenad"]


# ============================================================================ cards, hands and the deck


def test_ruling_r_deck_1_an_empty_deck_is_refilled_from_the_discard_pile() -> None:
    s = table(phase="wealth", deck=["Cyclops"], discard=["Satyr", "Harpy"])
    play(s, "wealth draw 3 coin 0")  # 4 cards: 1 from the deck, then the reshuffled pile
    assert hand(s, 0) == Counter({"Cyclops": 1, "Satyr": 1, "Harpy": 1})
    assert deck(s) == [] and pile(s) == []
    # both empty: nothing is drawn, and the game goes on
    s = table(phase="wealth")
    play(s, "wealth draw 3 coin 0")
    assert hand(s, 0) == Counter() and decision(s) == ("surge", 0)
    # own decks: a player's own pile only
    s = table(phase="wealth", config=Config(deck="skill"), decks=([], ["Griffin"]),
              discards=(["Satyr"], ["Harpy", "Minotaur"]))
    play(s, "wealth draw 3 coin 0")
    assert hand(s, 0) == Counter({"Satyr": 1})
    assert deck(s, 1) == ["Griffin"] and pile(s, 1) == ["Harpy", "Minotaur"]


def test_ruling_r_deck_2_revealed_cards_not_taken_go_to_the_discard_pile() -> None:
    s = table(hands=(["Argive Scout"], []), deck=["Satyr", "Harpy", "Griffin"])
    play(s, 'play "Argive Scout" city0')
    assert moves(s) == ['take "Satyr"', 'take "Harpy"']
    play(s, 'take "Harpy"')
    assert hand(s, 0) == Counter({"Harpy": 1})
    assert pile(s) == ["Satyr"] and deck(s) == ["Griffin"]


def test_ruling_r_deck_3_revealed_or_reclaimed_cards_are_not_drawn() -> None:
    # a drawn card is hidden; a card added from a reveal is known to both players
    s = table(hands=(["Argive Scout", "Grizzled Veteran"], []), coins=(4, 4), deck=["Cyclops", "Satyr", "Harpy"])
    play(s, 'play "Grizzled Veteran" city1')
    assert hand(s, 0)["Cyclops"] == 1 and s.observation(1)["players"][0]["known"] == []
    play(s, 'play "Argive Scout" city0', 'take "Harpy"')
    assert s.observation(1)["players"][0]["known"] == ["Harpy"]
    # a card returned from the discard pile is known too (Royal Bodyguard)
    s = table(hands=(["Royal Bodyguard"], []), discard=["Myrmidon"])
    play(s, 'play "Royal Bodyguard" city0', 'take "Myrmidon"')
    assert s.observation(1)["players"][0]["known"] == ["Myrmidon"]


def test_ruling_r_deck_4_the_discard_pile_is_public_and_filled_in_card_order() -> None:
    # Sphinx reveals 4 and takes none: they go to the pile in card order, then the Sphinx
    s = table(hands=(["Sphinx"], []), discard=["Griffin"],
              deck=["Cyclops", "Athenian Spearman", "Satyr", "Hoplite Recruit", "Minotaur"])
    play(s, 'beast "Sphinx"', "pass")
    expected = ["Griffin", "Hoplite Recruit", "Athenian Spearman", "Satyr", "Cyclops", "Sphinx"]
    assert pile(s) == expected
    assert s.observation(1)["discards"][0] == expected == s.observation(0)["discards"][0]


def test_ruling_r_hand_1_only_unit_cards_are_discarded_or_revealed() -> None:
    # "Your opponent discards 1 card" with only reward cards in that hand: nothing
    s = table(hands=(["Athenian Spearman"], []), rewards_hand=([], ["Call to Arms"]))
    play(s, 'play "Athenian Spearman" city0')
    assert decision(s) == ("surge", 0) and rewards_in_hand(s, 1) == ["Call to Arms"]
    # with a unit card too, the unit card goes
    s = table(hands=(["Athenian Spearman"], ["Satyr"]), rewards_hand=([], ["Call to Arms"]))
    play(s, 'play "Athenian Spearman" city0')
    assert decision(s) == ("discard", 1) and moves(s) == ['discard "Satyr"']
    play(s, 'discard "Satyr"')
    assert rewards_in_hand(s, 1) == ["Call to Arms"] and pile(s) == ["Satyr"]
    # your own "Discard 1 card" too
    s = table(hands=(["Phalanx Shieldbearer"], []), rewards_hand=(["Curse of Hades"], []))
    play(s, 'play "Phalanx Shieldbearer" city1')
    assert decision(s) == ("surge", 0) and rewards_in_hand(s, 0) == ["Curse of Hades"]
    # a revealed hand shows its unit cards only
    s = table(hands=(["Cerberus"], ["Satyr"]), rewards_hand=([], ["Call to Arms"]))
    play(s, 'beast "Cerberus"')
    seen = s.observation(0)["players"][1]
    assert seen["known"] == ["Satyr"] and seen["rewards"] is None


def test_ruling_r_hand_2_the_offering_discards_only_unit_cards() -> None:
    s = table(phase="offering", rewards_hand=(["Call to Arms"], []))
    assert decision(s) == ("wealth", 1)  # nothing to offer: the step asks nothing
    assert rewards_in_hand(s, 0) == ["Call to Arms"]
    s = table(phase="offering", hands=(["Satyr"], []), rewards_hand=(["Call to Arms"], []))
    assert all("Call to Arms" not in m for m in moves(s))


def test_ruling_r_hidden_1_hand_sizes_are_public_and_public_cards_stay_known() -> None:
    s = table(hands=(["Phoenix", "Satyr"], ["Harpy", "Griffin"]), discard=["Minotaur"],
              rewards_hand=(["Call to Arms"], []))
    seen = s.observation(1)["players"][0]
    assert seen["hand"] is None and seen["hand_size"] == 2 and seen["reward_count"] == 1
    assert s.observation(0)["players"][1]["hand_size"] == 2
    # a card that enters a hand from the discard pile is known while it stays there
    play(s, 'beast "Phoenix"', 'take "Minotaur"')
    seen = s.observation(1)["players"][0]
    assert seen["known"] == ["Minotaur"] and seen["hand_size"] == 2
    # a revealed hand is known whole (Cerberus)
    s = table(hands=(["Cerberus"], ["Harpy", "Griffin"]))
    play(s, 'beast "Cerberus"')
    assert s.observation(0)["players"][1]["known"] == ["Harpy", "Griffin"]


def test_ruling_r_hidden_2_reward_cards_are_private_until_used() -> None:
    s = table(hands=(["Satyr"], []), rewards_hand=(["Curse of Hades"], []),
              cities={0: (["Cyclops"], ["Argive Scout"] * 3)})
    play(s, "end")  # seat 0 wins city 0's top card
    mine, theirs = s.observation(0), s.observation(1)
    assert mine["players"][0]["rewards"] == ["Tribute of Athens", "Curse of Hades"]
    assert theirs["players"][0]["rewards"] is None and theirs["players"][0]["reward_count"] == 2
    # the cities' stacks: a count for everyone
    assert [c["rewards"] for c in mine["cities"]] == [3, 4, 4]
    assert "Wisdom of Athena" not in str(mine["cities"]) + str(theirs["cities"])
    # a used reward card is public
    s = table(hands=(["Satyr"], []), rewards_hand=(["Tribute of Athens"], []))
    play(s, 'use "Tribute of Athens"')
    assert s.observation(1)["players"][0]["rewards_used"] == ["Tribute of Athens"]


def test_ruling_r_hidden_3_feats_and_enraged_units_are_public_deck_order_is_not() -> None:
    s = table(hands=(["Satyr"], []), feats=(["Garrison"], ["Wild Hunt"]), deck=["Cyclops", "Harpy"],
              enraged={1: (["Spartan Warrior"], ["Maenad"])})
    seen = s.observation(1)
    assert seen["players"][0]["feats"] == ["Garrison"]
    assert seen["cities"][1]["enraged"] == [["Spartan Warrior"], ["Maenad"]]
    assert seen["deck_sizes"][0] == 2 and "Cyclops" not in str(seen)
    # own decks: what each deck holds is public
    s = table(config=Config(deck="skill"), hands=(["Satyr"], []), decks=(["Cyclops"], ["Harpy", "Griffin"]))
    assert s.observation(0)["players"][1]["deck_list"] == ["Harpy", "Griffin"]
    assert s.observation(0)["players"][1]["deck_list_unknown"] == 0


# ============================================================================ variants


def test_ruling_r_var_1_the_beginner_deck_is_the_24_single_circle_designs() -> None:
    s = new(31, beginner=True)
    everything = units_everywhere(s)
    assert sum(everything.values()) == 96 and len(everything) == 24
    assert all(s.cards.unit(name).circles == 1 for name in everything)
    assert all(everything[name] == s.cards.unit(name).copies for name in everything)  # all their copies
    # nothing else changes
    assert s.coins == [4, 4] and [len(s.city_rewards[c]) for c in range(3)] == [4, 4, 4]


def _emissaries(first_player: int, zero: list[str], one: list[str]) -> Any:
    return table(phase="emissary", first_turn=True, hands=(zero, one), deck=["Harpy"] * 6,
                 config=Config(emissary=True, first_player=first_player))


def test_ruling_r_emissary_1_the_highest_emissary_goes_first() -> None:
    # Cyclops 5 + 1 + 6 = 12 against Champion of Zeus 5 + 1 + 5 = 11
    s = _emissaries(1, ["Hoplite Recruit", "Cyclops"], ["Champion of Zeus", "Satyr"])
    assert decision(s) == ("emissary", 0)
    play(s, 'emissary "Cyclops"')
    assert decision(s) == ("emissary", 1)
    seen = s.observation(1)["players"][0]
    assert seen["emissary_chosen"] and "Cyclops" not in str(s.observation(1))  # face down
    play(s, 'emissary "Champion of Zeus"')
    assert decision(s) == ("wealth", 0)
    assert moves(s)[0] == "wealth draw 2 coin 0"  # the first player's first turn
    assert pile(s) == ["Cyclops"]  # the first player's emissary is discarded
    assert hand(s, 1) == Counter({"Champion of Zeus": 1, "Satyr": 1})  # the other returns to hand
    assert s.observation(0)["players"][1]["known"] == ["Champion of Zeus"]


def test_ruling_r_emissary_1_ties_go_to_strength_then_to_the_oldest_player() -> None:
    # Athenian Spearman 2 + 3 + 2 = 7 against Temple Guard 2 + 2 + 3 = 7: the stronger Temple Guard
    s = _emissaries(0, ["Athenian Spearman"], ["Temple Guard"])
    play(s, 'emissary "Athenian Spearman"', 'emissary "Temple Guard"')
    assert decision(s) == ("wealth", 1) and pile(s) == ["Temple Guard"]
    # Satyr 2 + 3 + 3 = 8 against Grizzled Veteran 3 + 2 + 3 = 8, strength 3 each: the oldest
    for oldest in (0, 1):
        s = _emissaries(oldest, ["Satyr"], ["Grizzled Veteran"])
        play(s, 'emissary "Satyr"', 'emissary "Grizzled Veteran"')
        assert decision(s) == ("wealth", oldest)


def test_ruling_d_emissary_2_a_seat_with_no_unit_card_is_skipped_and_the_next_still_asked() -> None:
    # seat 0 has only a reward card: seat 1 is still asked, and its emissary goes first
    s = table(phase="emissary", first_turn=True, hands=([], ["Satyr", "Cyclops"]), deck=["Harpy"] * 6,
              rewards_hand=(["Trojan Horse"], []), config=Config(emissary=True, first_player=0))
    assert decision(s) == ("emissary", 1) and moves(s) == ['emissary "Satyr"', 'emissary "Cyclops"']
    play(s, 'emissary "Cyclops"')
    assert decision(s) == ("wealth", 1) and s.first_player == 1
    assert pile(s) == ["Cyclops"] and hand(s, 1) == Counter({"Satyr": 1})
    # seat 1 has none: seat 0's emissary goes first whoever is the oldest
    s = table(phase="emissary", first_turn=True, hands=(["Satyr"], []), deck=["Harpy"] * 6,
              config=Config(emissary=True, first_player=1))
    assert decision(s) == ("emissary", 0)
    play(s, 'emissary "Satyr"')
    assert decision(s) == ("wealth", 0) and s.first_player == 0
    # neither has one: the oldest player goes first (R-setup-3)
    for oldest in (0, 1):
        s = table(phase="emissary", first_turn=True, deck=["Harpy"] * 6,
                  config=Config(emissary=True, first_player=oldest))
        assert decision(s) == ("wealth", oldest) and s.first_player == oldest


def test_ruling_r_own_1_own_decks_and_each_card_to_its_owners_pile() -> None:
    skill = Config(deck="skill")
    # Argive Scout reveals from its owner's deck; the card not taken goes to its owner's pile
    s = table(config=skill, hands=(["Argive Scout"], []), decks=(["Satyr", "Harpy"], ["Cyclops", "Griffin"]))
    play(s, 'play "Argive Scout" city0', 'take "Satyr"')
    assert pile(s, 0) == ["Harpy"] and deck(s, 1) == ["Cyclops", "Griffin"] and pile(s, 1) == []
    # an opponent's discard, a destroyed opposing unit: to the opponent's own pile
    s = table(config=skill, hands=(["Harpy", "Cyclops"], ["Satyr", "Minotaur"]), coins=(8, 4),
              cities={1: ((), ["Hoplite Recruit"])}, decks=([], []))
    play(s, 'beast "Cyclops"', 'destroy "Hoplite Recruit" city1')
    assert pile(s, 1) == ["Hoplite Recruit"] and pile(s, 0) == ["Cyclops"]
    play(s, 'beast "Harpy"', 'discard "Satyr"', 'discard "Minotaur"')
    assert pile(s, 1) == ["Hoplite Recruit", "Satyr", "Minotaur"] and pile(s, 0) == ["Cyclops", "Harpy"]
    # "the discard pile" in your ability is your own
    s = table(config=skill, hands=(["Phoenix"], []), decks=([], []), discards=(["Griffin"], ["Cyclops"]))
    play(s, 'beast "Phoenix"')
    assert moves(s) == ['take "Griffin"', "pass"]
    # and each player draws from their own deck
    s = table(phase="wealth", config=skill, decks=(["Griffin"], ["Cyclops"]))
    play(s, "wealth draw 1 coin 2")
    assert hand(s, 0) == Counter({"Griffin": 1}) and deck(s, 1) == ["Cyclops"]


def test_ruling_r_skill_1_each_deck_has_one_card_of_each_design() -> None:
    s = new(41, deck="skill")
    for p in (0, 1):
        cards = Counter(deck(s, p)) + hand(s, p)
        assert len(cards) == 50 and set(cards.values()) == {1}
        assert sum(hand(s, p).values()) == 4
    assert sum(units_everywhere(s).values()) == 100
    assert deck(s, 0) != deck(s, 1)  # each shuffled on its own
    s = new(42, deck="skill", beginner=True)
    assert sum((Counter(deck(s, 0)) + hand(s, 0)).values()) == 24


def test_ruling_r_draft_1_ten_coins_each_and_one_stack_per_design() -> None:
    s = new(51, deck="draft")
    assert s.coins == [10, 10]
    assert decision(s) == ("draft", 1)
    assert len(moves(s)) == 50 and moves(s)[0] == 'draft "Hoplite Recruit"'


def test_ruling_r_draft_2_the_youngest_picks_first_paying_a_coin_a_pick() -> None:
    for oldest in (0, 1):
        s = new(52, deck="draft", first_player=oldest)
        young = 1 - oldest
        order = []
        for _ in range(20):
            order.append(decision(s)[1])
            play(s, moves(s)[0])
            if len(order) == 1:
                assert s.coins[young] == 9 and s.supply() == 20  # 1 coin in the middle
        assert order == [young, oldest] * 10
        assert [len(d) for d in s.drafted] == [10, 10]


def test_ruling_r_draft_3_type_limits_with_an_escape_for_a_stuck_drafter() -> None:
    s = new(53, deck="draft")
    soldiers = [u.name for u in s.cards.units if u.type == "soldier"]
    for i in range(12):  # seat 1 takes 6 Soldier stacks, seat 0 six others
        play(s, f'draft "{soldiers[i // 2]}"' if i % 2 == 0 else moves(s)[-1])
    assert decision(s) == ("draft", 1)
    assert not any(s.cards.unit(m.split('"')[1]).type == "soldier" for m in moves(s))
    # a drafter with no legal stack left may take any (only possible with four drafters): here the
    # pool is laid out by hand with Soldier stacks only
    laid_out = GameState.from_parts(s)
    laid_out.pool = [s.cards.unit(n).index for n in soldiers[6:9]]
    s = _engine().adopt(laid_out)
    assert moves(s) == [f'draft "{n}"' for n in soldiers[6:9]]


def test_ruling_r_draft_4_after_the_draft() -> None:
    s = new(54, deck="draft", first_player=0)
    picks: list[list[str]] = [[], []]
    while decision(s)[0] == "draft":
        p = decision(s)[1]
        m = moves(s)[len(picks[p]) % 3]
        picks[p].append(m.split('"')[1])
        play(s, m)
    assert decision(s) == ("wealth", 0)  # the oldest goes first
    assert s.coins == [4, 4] and s.supply() == 32  # the drafting coins went back
    for p in (0, 1):
        cards = Counter(deck(s, p)) + hand(s, p)
        assert cards == Counter({n: s.cards.unit(n).copies for n in picks[p]})  # all the copies
        assert sum(hand(s, p).values()) == 4
    # the undrafted stacks left the game
    assert units_everywhere(s) == Counter({n: s.cards.unit(n).copies for n in picks[0] + picks[1]})


def test_ruling_r_build_1_decks_of_ten_designs_under_the_drafting_limits() -> None:
    names_ = ["Hoplite Recruit", "Grizzled Veteran", "Seaside Guardian", "Athenian Spearman", "Satyr",
              "Minotaur", "Phoenix", "Pythia of Delphi", "Priestess of Demeter", "Haruspex"]
    s = new(61, deck="build", decks=(tuple(names_), tuple(names_)))  # both may use the same designs
    for p in (0, 1):
        assert Counter(deck(s, p)) + hand(s, p) == Counter({n: s.cards.unit(n).copies for n in names_})
    assert deck(s, 0) != deck(s, 1)
    too_many = [u.name for u in CARDS.units if u.type == "soldier"][:7] + ["Satyr", "Minotaur", "Phoenix"]
    from omen_search.errors import UsageError

    with pytest.raises(UsageError, match="7 soldier designs"):
        new(61, deck="build", decks=(tuple(too_many), tuple(names_)))
    with pytest.raises(UsageError, match="exactly 10"):
        new(61, deck="build", decks=(tuple(names_[:9]), tuple(names_)))


def test_ruling_r_sdraft_1_three_rounds_of_ten_passed_left() -> None:
    s = new(71, deck="sdraft")
    assert decision(s) == ("sdraft", 0)
    pack0 = Counter(s.observation(0)["sdraft"]["pack"])
    pack1 = Counter(s.observation(1)["sdraft"]["pack"])
    assert sum(pack0.values()) == sum(pack1.values()) == 10
    first = moves(s)[0].split('"')[1]
    play(s, moves(s)[0])
    assert decision(s) == ("sdraft", 1)
    play(s, moves(s)[0])
    # the packs pass: seat 1 now holds what seat 0 left
    assert Counter(s.observation(1)["sdraft"]["pack"]) == pack0 - Counter({first: 1})
    while decision(s)[0] == "sdraft":
        play(s, moves(s)[0])
    for p in (0, 1):
        assert sum(s.deck_lists[p]) == 30
        assert sum(hand(s, p).values()) == 4 and len(deck(s, p)) == 26
    assert sum(units_everywhere(s).values()) == 60  # the cards not picked left the game


def test_ruling_r_sdraft_2_picks_are_simultaneous_and_hidden() -> None:
    a, b = new(72, deck="sdraft"), new(72, deck="sdraft")
    play(a, moves(a)[0])
    play(b, moves(b)[-1])
    # seat 1 chooses from the same pack whatever seat 0 picked, and knows only that it has picked
    assert decision(a) == decision(b) == ("sdraft", 1)
    assert moves(a) == moves(b)
    assert a.observation(1) == b.observation(1)
    seen = a.observation(1)["sdraft"]
    assert seen["opponent_chosen"] is True and seen["opponent_pack"] is None
    assert a.observation(1)["players"][0]["deck_list"] == []
    # and seat 1's pick is hidden from seat 0 once the packs pass
    play(a, moves(a)[-1])
    assert decision(a) == ("sdraft", 0)
    assert a.observation(0)["players"][1]["deck_list"] == []


def test_ruling_r_sdraft_3_picks_are_face_down_and_there_are_no_type_limits() -> None:
    s = new(73, deck="sdraft")
    while decision(s)[0] == "sdraft":
        p = decision(s)[1]
        # seat 0 takes Beasts whenever it can: no type limit stops it
        beasts = [m for m in moves(s) if s.cards.unit(m.split('"')[1]).type == "beast"]
        play(s, beasts[0] if p == 0 and beasts else moves(s)[0])
    obs = s.observation(1)["players"][0]
    # seat 1 saw every pack seat 0 picked from but the first of each round: 3 picks unknown
    assert obs["deck_list_unknown"] == 3
    assert len(obs["deck_list"]) + obs["deck_list_unknown"] == 30
    designs = sum(1 for t, n in enumerate(s.deck_lists[0]) if n and s.cards.units[t].type == "beast")
    assert designs > 4  # more Beast designs than a Card Drafting deck may hold


def test_ruling_d_sdraft_2_the_beast_set_aside_counts_among_the_public_copies() -> None:
    # Sphinx (reveal 4, take 2) is set aside while its ability reveals the other Sphinx of the deck:
    # seat 1 sees both at once, so knows that seat 0's deck holds 2 Sphinx
    s = table(config=Config(deck="sdraft"), hands=(["Sphinx"], []), coins=(5, 4),
              decks=(["Sphinx", "Satyr", "Harpy", "Griffin"], []), deck_known=([], []))
    assert s.observation(1)["players"][0]["deck_list"] == []
    play(s, 'beast "Sphinx"')
    seen = s.observation(1)
    assert seen["beast"] == "Sphinx" and "Sphinx" in seen["revealed"]
    assert Counter(seen["players"][0]["deck_list"])["Sphinx"] == 2
    play(s, 'take "Satyr"', 'take "Harpy"')
    assert pile(s, 0) == ["Griffin", "Sphinx", "Sphinx"]  # the revealed cards first, then the Beast
    assert Counter(s.observation(1)["players"][0]["deck_list"])["Sphinx"] == 2


def test_ruling_d_given_1_a_given_deck_is_its_players_own_and_known_to_both() -> None:
    given = (("Satyr", "Satyr", "Cyclops", "Hoplite Recruit", "Haruspex", "Temple Guard"),
             ("Griffin", "Harpy", "Harpy", "Augur of Zeus", "Phoenix"))
    s = new(81, deck="given", decks=given)
    for p in (0, 1):  # R-own-1: each draws from their own deck, exactly the cards given
        assert names(s.deck_lists[p]) == Counter(given[p])
        assert hand(s, p) <= Counter(given[p]) and sum(hand(s, p).values()) == 4
        assert sorted(deck(s, p)) == sorted((Counter(given[p]) - hand(s, p)).elements())
        # both players know what each given deck holds: nothing of it is unknown
        them = s.observation(1 - p)["players"][p]
        assert Counter(them["deck_list"]) == Counter(given[p]) and them["deck_list_unknown"] == 0
    # a world dealt for seat 0 deals seat 1's hidden cards from seat 1's given deck only
    for seed in range(20):
        world = s.determinized(0, seed)
        hidden = hand(world, 1) + Counter(deck(world, 1))
        assert hidden == Counter(given[1]) and deck(world, 0) != [] and hand(world, 0) == hand(s, 0)


# ============================================================================ card texts (R-card)


def test_ruling_r_card_1_discard_opposing_units_the_owner_of_the_ability_chooses() -> None:
    # Cyclops: seat 0 chooses among every opposing unit in any City, a Beast being one choice
    s = table(config=Config(deck="skill"), decks=([], []), hands=(["Cyclops"], []), coins=(5, 4),
              cities={0: ((), ["Hoplite Recruit"]), 2: ((), ["Minotaur"])})
    play(s, 'beast "Cyclops"')
    assert decision(s) == ("destroy", 0)
    assert moves(s) == ['destroy "Hoplite Recruit" city0', 'destroy "Minotaur" city2']  # no pass
    play(s, 'destroy "Minotaur" city2')
    assert pile(s, 1) == ["Minotaur"] and pile(s, 0) == ["Cyclops"]  # to its owner's pile
    # not a war and not a hand discard: nothing is counted for Humiliation, no reward moves
    assert s.hand_discards[1] == 0 and rewards_in_hand(s, 0) == []


def test_ruling_r_card_1_without_up_to_as_many_as_possible_up_to_n() -> None:
    # a card file where Hydra must discard 2 opposing Soldiers
    cards = edited_cards("Hydra", "up_to = true", "up_to = false")
    s = table(cards=cards, hands=(["Hydra"], []), coins=(5, 4),
              cities={0: ((), ["Hoplite Recruit"]), 1: ((), ["Argive Scout"]), 2: ((), ["Temple Guard", "Satyr"])})
    play(s, 'beast "Hydra"')
    # picks in card order (D-pick-1): the first leaves one to pick after it
    assert moves(s) == ['destroy "Hoplite Recruit" city0', 'destroy "Argive Scout" city1']
    play(s, 'destroy "Argive Scout" city1')
    assert moves(s) == ['destroy "Temple Guard" city2']
    play(s, 'destroy "Temple Guard" city2')
    assert side(s, 0, 1) == Counter({"Hoplite Recruit": 1}) and side(s, 2, 1) == Counter({"Satyr": 1})
    # only one there: that one
    s = table(cards=cards, hands=(["Hydra"], []), coins=(5, 4), cities={1: ((), ["Argive Scout", "Satyr"])})
    play(s, 'beast "Hydra"')
    assert moves(s) == ['destroy "Argive Scout" city1']
    play(s, 'destroy "Argive Scout" city1')
    assert decision(s) == ("surge", 0)
    # the printed Hydra says "up to": it may stop
    s = table(hands=(["Hydra"], []), coins=(5, 4), cities={1: ((), ["Argive Scout"])})
    play(s, 'beast "Hydra"')
    assert moves(s) == ['destroy "Argive Scout" city1', "pass"]


def test_ruling_r_card_2_the_opponent_chooses_unit_cards_to_discard() -> None:
    s = table(hands=(["Harpy"], ["Hoplite Recruit", "Satyr", "Cyclops"]), rewards_hand=([], ["Call to Arms"]))
    play(s, 'beast "Harpy"')
    assert decision(s) == ("discard", 1)
    # one at a time in card order: the first pick leaves a card to pick after it
    assert moves(s) == ['discard "Hoplite Recruit"', 'discard "Satyr"']
    play(s, 'discard "Satyr"')
    assert moves(s) == ['discard "Cyclops"']
    play(s, 'discard "Cyclops"')
    assert hand(s, 1) == Counter({"Hoplite Recruit": 1}) and rewards_in_hand(s, 1) == ["Call to Arms"]
    assert s.hand_discards[1] == 2  # each counts for Humiliation
    # fewer if they have fewer
    s = table(hands=(["Harpy"], ["Hoplite Recruit"]))
    play(s, 'beast "Harpy"', 'discard "Hoplite Recruit"')
    assert decision(s) == ("surge", 0) and hand(s, 1) == Counter()


def test_ruling_r_card_3_your_own_discard_may_take_the_card_just_drawn() -> None:
    s = table(hands=(["Temple Guard", "Satyr"], []), deck=["Cyclops"])
    play(s, 'play "Temple Guard" city0')
    assert decision(s) == ("discard", 0)
    assert moves(s) == ['discard "Satyr"', 'discard "Cyclops"']
    play(s, 'discard "Cyclops"')
    assert hand(s, 0) == Counter({"Satyr": 1}) and pile(s) == ["Cyclops"]
    # "Discard 2 cards" with one unit card: that one
    s = table(hands=(["Mercenary Captain", "Satyr"], []), rewards_hand=(["Call to Arms"], []))
    play(s, 'play "Mercenary Captain" city1')
    assert moves(s) == ['discard "Satyr"']
    play(s, 'discard "Satyr"')
    assert decision(s) == ("surge", 0) and rewards_in_hand(s, 0) == ["Call to Arms"]


def test_ruling_r_card_4_reveal_one_at_a_time_reshuffling_and_choose_k() -> None:
    # the deck runs out after one card: the pile is shuffled to reveal the second
    s = table(hands=(["Argive Scout"], []), deck=["Cyclops"], discard=["Satyr"])
    play(s, 'play "Argive Scout" city0')
    assert moves(s) == ['take "Satyr"', 'take "Cyclops"']  # mandatory: no pass
    assert s.observation(1)["revealed"] == ["Satyr", "Cyclops"]  # known to both
    play(s, 'take "Cyclops"')
    assert hand(s, 0) == Counter({"Cyclops": 1}) and pile(s) == ["Satyr"]
    # Sphinx: "up to 2"
    s = table(hands=(["Sphinx"], []), deck=["Cyclops", "Harpy", "Satyr", "Griffin"])
    play(s, 'beast "Sphinx"')
    assert moves(s) == ['take "Satyr"', 'take "Cyclops"', 'take "Harpy"', 'take "Griffin"', "pass"]
    play(s, 'take "Cyclops"', 'take "Griffin"')
    assert hand(s, 0) == Counter({"Cyclops": 1, "Griffin": 1})
    assert pile(s) == ["Satyr", "Harpy", "Sphinx"]


def test_ruling_r_card_4_recruiting_sergeant_plays_a_revealed_soldier_free_into_this_city() -> None:
    s = table(hands=(["Recruiting Sergeant"], []), coins=(3, 4),
              deck=["Satyr", "Grizzled Veteran", "Hoplite Recruit", "Cyclops"])
    play(s, 'play "Recruiting Sergeant" city1')
    assert moves(s) == ['play "Hoplite Recruit" city1', 'play "Grizzled Veteran" city1', "pass"]
    play(s, 'play "Grizzled Veteran" city1')
    assert s.coins == [0, 4]  # at no cost
    assert side(s, 1, 0) == Counter({"Recruiting Sergeant": 1, "Grizzled Veteran": 1})
    assert hand(s, 0) == Counter({"Cyclops": 1})  # its ability resolved: "Draw 1 card"
    assert pile(s) == ["Hoplite Recruit", "Satyr"]
    # no room left in this City: nothing is played, all go to the pile
    s = table(hands=(["Recruiting Sergeant"], []), coins=(3, 4), cities={0: (["Satyr", "Griffin"], [])},
              deck=["Satyr", "Grizzled Veteran", "Hoplite Recruit"])
    play(s, 'play "Recruiting Sergeant" city0')
    assert decision(s) == ("surge", 0)
    assert pile(s) == ["Hoplite Recruit", "Grizzled Veteran", "Satyr"]


def test_ruling_r_card_5_return_from_the_discard_pile_with_a_type_filter() -> None:
    s = table(hands=(["Royal Bodyguard"], []), discard=["Myrmidon", "Satyr", "Hoplite Recruit", "Myrmidon"])
    play(s, 'play "Royal Bodyguard" city0')
    assert moves(s) == ['take "Hoplite Recruit"', 'take "Myrmidon"', "pass"]  # Soldiers only; may
    play(s, 'take "Myrmidon"')
    assert hand(s, 0) == Counter({"Myrmidon": 1})
    assert pile(s) == ["Myrmidon", "Satyr", "Hoplite Recruit"]  # the copy nearest the top
    assert s.observation(1)["players"][0]["known"] == ["Myrmidon"]
    # Phoenix: up to 2, any type, one at a time in card order
    s = table(hands=(["Phoenix"], []), discard=["Myrmidon", "Satyr", "Hoplite Recruit"])
    play(s, 'beast "Phoenix"')
    assert moves(s) == ['take "Hoplite Recruit"', 'take "Myrmidon"', 'take "Satyr"', "pass"]
    play(s, 'take "Myrmidon"')
    assert moves(s) == ['take "Satyr"', "pass"]
    play(s, 'take "Satyr"')
    assert decision(s) == ("surge", 0)
    assert hand(s, 0) == Counter({"Myrmidon": 1, "Satyr": 1}) and pile(s) == ["Hoplite Recruit", "Phoenix"]


def test_ruling_r_card_6_take_coins_from_the_opponent_fewer_if_they_have_fewer() -> None:
    s = table(hands=(["Pillager of Troy"], []), coins=(4, 1))
    supply = s.supply()
    play(s, 'play "Pillager of Troy" city0')
    assert s.coins == [1, 0]
    assert s.supply() == supply + 4  # only the cost went to the supply


def test_ruling_r_card_7_moves_are_counted_and_a_moved_soldier_resolves_before_the_next() -> None:
    # Centaur moves the same Hoplite Recruit twice: it gains a coin each time it enters a city
    s = table(hands=(["Centaur"], []), coins=(3, 4), cities={0: (["Hoplite Recruit"], [])})
    play(s, 'beast "Centaur"', 'move "Hoplite Recruit" city0>city1')
    assert s.coins == [1, 4]  # resolved before the second move
    assert 'move "Hoplite Recruit" city1>city2' in moves(s)
    play(s, 'move "Hoplite Recruit" city1>city2')
    assert s.coins == [2, 4] and side(s, 2, 0) == Counter({"Hoplite Recruit": 1})
    # the side it joins must have room
    s = table(hands=(["Centaur"], []), cities={0: (["Hoplite Recruit"], []), 1: (["Satyr", "Griffin", "Haruspex"], [])})
    play(s, 'beast "Centaur"')
    assert [m for m in moves(s) if "Hoplite" in m] == ['move "Hoplite Recruit" city0>city2']
    assert not any(m.endswith("city0>city1") or m.endswith("city2>city1") for m in moves(s))


def test_ruling_r_card_7_out_of_this_city_only() -> None:
    # Oracle of Hermes moves a Soldier out of its own City only
    s = table(hands=(["Satyr"], []), cities={1: (["Oracle of Hermes", "Hoplite Recruit"], []),
                                             2: (["Temple Guard"], [])})
    play(s, "end")
    assert moves(s) == ['move "Hoplite Recruit" city1>city0', 'move "Hoplite Recruit" city1>city2', "pass"]


def test_ruling_r_card_8_seaside_guardian_returns_an_opposing_beast_of_this_city() -> None:
    s = table(hands=(["Seaside Guardian"], ["Harpy"]),
              cities={1: ((), ["Satyr", "Hoplite Recruit"]), 2: ((), ["Minotaur"])},
              enraged={1: ((), ["Spartan Warrior"])})
    play(s, 'play "Seaside Guardian" city1')
    # an Enraged unit is a Beast; the Soldier is not; the Minotaur is in another City
    assert moves(s) == ['return "Satyr" city1', 'return "Spartan Warrior" city1 enraged', "pass"]
    play(s, 'return "Spartan Warrior" city1 enraged')
    assert hand(s, 1) == Counter({"Harpy": 1, "Spartan Warrior": 1})
    assert s.observation(0)["players"][1]["known"] == ["Spartan Warrior"]
    assert raged(s, 1, 1) == Counter() and side(s, 1, 1) == Counter({"Satyr": 1, "Hoplite Recruit": 1})


def test_ruling_r_card_9_enrage_wording() -> None:
    # "1 of your Soldiers or Oracles in this City" includes an Oracle and the Spartan Warrior itself
    s = table(hands=(["Spartan Warrior"], []), coins=(3, 4),
              cities={0: (["Pythia of Delphi", "Satyr"], []), 1: (["Haruspex"], [])})
    play(s, 'play "Spartan Warrior" city0')
    assert moves(s) == ['enrage "Spartan Warrior" city0', 'enrage "Pythia of Delphi" city0', "pass"]
    # the City Limit is checked for each unit: Chimera Enrages 2 where there is room for 2
    s = table(hands=(["Chimera"], []), cities={0: (["Hoplite Recruit", "Pythia of Delphi", "Temple Guard"], [])})
    play(s, 'beast "Chimera"', 'enrage "Hoplite Recruit" city0')
    assert moves(s) == ['enrage "Temple Guard" city0', 'enrage "Pythia of Delphi" city0', "pass"]
    play(s, 'enrage "Pythia of Delphi" city0')
    assert raged(s, 0, 0) == Counter({"Hoplite Recruit": 1, "Pythia of Delphi": 1})
    # a full side: the Spartan Warrior cannot Enrage anything there
    s = table(hands=(["Spartan Warrior"], []), coins=(3, 4), cities={2: (["Hoplite Recruit"] * 4, [])})
    play(s, 'play "Spartan Warrior" city2')
    assert decision(s) == ("surge", 0) and raged(s, 2, 0) == Counter()


def test_ruling_r_card_10_call_to_arms_is_a_normal_play_without_paying() -> None:
    s = table(hands=(["Satyr", "Hoplite Recruit"], []), coins=(0, 4), rewards_hand=(["Call to Arms"], []),
              cities={0: (["Temple Guard"] * 4, [])})
    play(s, 'use "Call to Arms"')
    # the City Limit applies; a Beast is played as a unit, never discarded for its ability
    assert moves(s) == ['play "Hoplite Recruit" city0', 'play "Hoplite Recruit" city1',
                        'play "Hoplite Recruit" city2', 'play "Satyr" city1', 'play "Satyr" city2']
    play(s, 'play "Hoplite Recruit" city0')
    assert s.coins == [1, 0 + 4]  # no cost; the Soldier's ability resolved


def test_ruling_r_card_11_a_revealed_hand_the_active_player_picks_up_to_2() -> None:
    s = table(hands=(["Cerberus"], ["Hoplite Recruit", "Satyr", "Cyclops"]), coins=(4, 4))
    play(s, 'beast "Cerberus"')
    assert decision(s) == ("trash", 0)
    assert s.observation(0)["players"][1]["known"] == ["Hoplite Recruit", "Satyr", "Cyclops"]
    assert moves(s) == ['discard "Hoplite Recruit"', 'discard "Satyr"', 'discard "Cyclops"', "pass"]
    play(s, 'discard "Satyr"', 'discard "Cyclops"')
    assert hand(s, 1) == Counter({"Hoplite Recruit": 1})
    assert s.hand_discards[1] == 2  # they count for Humiliation
    assert s.observation(0)["players"][1]["known"] == ["Hoplite Recruit"]


def test_ruling_r_card_12_humiliation_counts_every_discard_from_the_opponents_hand() -> None:
    # 1 by Athenian Spearman (the opponent chooses) and 2 by Cerberus (seat 0 chooses)
    s = table(hands=(["Athenian Spearman", "Cerberus"], ["Hoplite Recruit", "Satyr", "Cyclops", "Harpy"]),
              coins=(6, 4), cities={1: ((), ["Hoplite Recruit"])})
    play(s, 'play "Athenian Spearman" city0', 'discard "Harpy"')
    play(s, 'beast "Cerberus"', 'discard "Hoplite Recruit"', 'discard "Satyr"', "end")
    assert "Humiliation" in feats(s, 0)
    # 2 are not enough
    s = table(hands=(["Cerberus"], ["Hoplite Recruit", "Satyr", "Cyclops"]), coins=(6, 4))
    play(s, 'beast "Cerberus"', 'discard "Hoplite Recruit"', 'discard "Satyr"', "end")
    assert "Humiliation" not in feats(s, 0)


def test_ruling_r_card_12_wild_hunt_counts_beasts_discarded_for_their_abilities() -> None:
    # a Beast played into a city does not count
    s = table(hands=(["Satyr", "Griffin"], []), coins=(4, 4), deck=["Harpy"] * 5)
    play(s, 'beast "Satyr"', 'play "Griffin" city2', "end")
    assert "Wild Hunt" not in feats(s, 0)
    s = table(hands=(["Satyr", "Griffin"], []), coins=(4, 4), deck=["Harpy"] * 5)
    play(s, 'beast "Satyr"', 'beast "Griffin"', "end")
    assert "Wild Hunt" in feats(s, 0)


def test_ruling_r_card_12_full_ranks_and_lord_of_beasts_count_enraged_units_as_beasts() -> None:
    s = table(hands=(["Satyr"], []), rewards=((), (), DEFAULT_REWARDS[2]),
              cities={0: (["Argive Scout"], [])},
              enraged={0: (["Hoplite Recruit", "Pythia of Delphi"], []), 1: (["Maenad"], []),
                       2: (["Temple Guard"], [])})
    play(s, "end")
    assert feats(s, 0) == ["Lord of Beasts", "Full Ranks"]
