"""The combined game (``heir+reign``): one test per ``C-…`` ruling of ``docs/rules/reign-of-war.md`` and
per ``D-combined-…`` of ``docs/rulings.md``, each named after it, and the properties every engine has.

Each ruling test lays out a small table at the decision just before the rule (:func:`table`: the
active player's Surge, unless it says otherwise), plays moves in their notation and checks the exact
outcome, so that the engine applies the rule itself. Seat 0 plays Anubis, seat 1 Horus. The ruling
tests lay out tables on the reference engine; ``tests/test_combined_core.py`` checks the core plays
every game as the reference does.
"""

from __future__ import annotations

import json
import os
from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from cli_helper import assert_one_line_error, run
from omen_search.errors import UsageError
from omen_search.game import get_game
from omen_search.games.combined.cards import combine, default_pool, random_reign_cards
from omen_search.games.combined.reference import GameState
from omen_search.games.combined.rules import Config
from omen_search.games.heir.rules import CITIES, SURGE, WEALTH_REVEAL, Pending
from omen_search.rng import Rng

GAME = get_game("heir+reign")
GAMES = int(os.environ.get("OMEN_COMBINED_GAMES", "60"))  # seeded random games of the property tests
CHOICES = ("random:10", "random:6",  # three choices of Reign of War cards, and the seed of each random one
           "Satyr,Centaur,Spartan Warrior,Maenad,Herald of Hermes,Recruiting Sergeant,Chimera,Priestess of Ares,"
           "Ares' Provocateur,Phoenix")


def table(units: tuple[str, ...], *, hands=((), ()), cities=None, coins=(5, 5), active=0, feats=True,
          discard=(), deck_top=(), phase=SURGE) -> GameState:
    """A game of ``units`` (Reign of War cards) laid out by hand: hands, cities (``cities[c][p]``,
    names), coins and the discard pile as given, every other card in the deck (``deck_top`` on top),
    no reward tiles taken; the active player at ``phase`` (its Surge decision by default)."""
    s = GameState.new(seed=1, config=Config(reign_units=units, feats=feats))
    ids = s._id
    s.hands = [[0] * s.T, [0] * s.T]
    s.known = [[0] * s.T, [0] * s.T]
    s.cities = [[[0] * s.T, [0] * s.T] for _ in range(CITIES)]
    placed = Counter()
    for p in (0, 1):
        for name in hands[p]:
            s.hands[p][ids(name)] += 1
            placed[ids(name)] += 1
    for c, sides in enumerate(cities or ()):
        for p in (0, 1):
            for name in sides[p]:
                s.cities[c][p][ids(name)] += 1
                placed[s.cards.base(ids(name))] += 1
    s.discard = [ids(n) for n in discard]
    placed.update(s.discard)
    rest = Counter(s.cards.deck_list()) - placed
    s.deck = [t for t in sorted(rest.elements()) if t not in [ids(n) for n in deck_top]] + [ids(n) for n in reversed(deck_top)]
    s.coins = list(coins)
    s.active, s.turn, s.first_turn = active, 3, False
    s.phase, s.pending, s.stack = phase, None, []
    if phase == SURGE:
        s.pending = Pending("surge", active)
    else:
        s.run_to_decision()
    return s


def names(s: GameState, counts: list[int]) -> list[str]:
    return [s.units[t].name for t, n in enumerate(counts) for _ in range(n)]


def moves(s: GameState) -> list[str]:
    return [str(m) for m in s.legal_moves()]


# ------------------------------------------------------------------ C-2: which Reign of War cards


def test_C_2_at_most_ten_reign_of_war_cards():
    with pytest.raises(UsageError, match=r"reign_units: at most 10 Reign of War unit cards \(C-2\), got 11"):
        Config(reign_units=("Satyr",) * 2 + ("Griffin",) * 4 + ("Harpy",) * 4 + ("Cyclops",))
    with pytest.raises(UsageError, match="5 cards of 'Satyr', the set has 4"):
        combine(default_pool(), ("Satyr",) * 5)
    with pytest.raises(UsageError, match="no Reign of War unit called 'satyr'.*did you mean 'Satyr'"):
        combine(default_pool(), ("satyr",))
    s = GameState.new(seed=4, config=Config(reign_units=("Satyr", "Satyr", "Griffin")))
    assert len(s.deck) + len(s.discard) + sum(map(sum, s.hands)) == 40 + 3  # the Heir deck and the three cards


def test_D_combined_1_a_seeded_random_choice_is_part_of_the_configuration(capsys):
    a, b = GAME.config(reign_units="random:10", reign_seed=7), GAME.config(reign_units="random:10", reign_seed=7)
    assert a.reign_units == b.reign_units == random_reign_cards(default_pool(), 10, 7)
    assert len(a.reign_units) == 10 and a.reign_units != GAME.config(reign_units="random:10", reign_seed=8).reign_units
    assert GAME.config(reign_units="Satyr, Griffin").reign_units == ("Satyr", "Griffin")
    assert_one_line_error(*run(capsys, "play", "--game", "heir+reign", "--players", "random,random", "--reign-units",
                               "random:11"), "--reign-units", "random:K takes K from 0 to 10")


# ------------------------------------------------------------------ C-3, C-4: the Portent and Feat steps


def test_C_3_the_portent_step_follows_the_surge():
    """Two Oracles of the active player: the player orders them; the opponent's Oracle does nothing
    (R-portent-3); then the War and Offering steps."""
    s = table(("Priestess of Demeter", "Priestess of Demeter", "Pythia of Delphi"), hands=(("Temple Servant",), ()),
              cities=[(["Priestess of Demeter"], ["Priestess of Demeter"]), (["Pythia of Delphi"], []), ([], [])])
    hand = sum(s.hands[0])
    s.apply("end")
    assert moves(s) == ['oracle "Priestess of Demeter" city0', 'oracle "Pythia of Delphi" city1']
    s.apply('oracle "Pythia of Delphi" city1')
    assert sum(s.hands[0]) == hand + 1 and s.coins == [6, 5]  # then the last one resolved by itself
    assert s.pending.kind == "offering"


def test_C_4_the_fifth_feat_ends_the_game_after_the_opponents_turn():
    """R-end-2: seat 0 flips its fifth feat (Full Ranks: 5 units in one city) in its Feat step; the
    game goes on through seat 1's turn and ends when it ends."""
    s = table(("Satyr",), hands=(("Temple Servant",), ("Temple Servant",)),
              cities=[(["Temple Servant"] * 5, []), ([], []), ([], [])])
    s.city_tiles[0] = []  # no war there
    full_ranks = next(f.index for f in s.cards.feats if f.name == "Full Ranks")
    s.feats[0] = [f.index != full_ranks and f.name != "Garrison" for f in s.cards.feats]  # four done
    s.apply("end")
    assert sum(s.feats[0]) == 5 and s.feats[0][full_ranks]
    s.apply("pass")  # seat 0's Offering
    assert not s.is_terminal() and s.active == 1  # the other player has one last turn
    while not s.is_terminal():
        assert s.active == 1
        s.apply(s.legal_moves()[-1] if s.pending.kind != "wealth" else s.legal_moves()[0])
    assert s.turn == 4 and s.scores()[0] >= 10


def test_C_4_feats_can_be_left_out(capsys):
    s = table(("Satyr",), feats=False, cities=[(["Temple Servant"] * 5, []), ([], []), ([], [])],
              hands=(("Temple Servant",), ()))
    s.apply("end")
    assert s.cards.feats == () and s.feats == [[], []] and s.observation(0)["feats"] == [[], []]
    code, out, _ = run(capsys, "play", "--game", "heir+reign", "--players", "random,random", "--no-feats", "--json")
    assert code == 0 and json.loads(out)["plies"] > 0


# ------------------------------------------------------------------ C-5, C-6: Neutral units of their own types


def test_C_5_reign_of_war_units_are_neutral():
    """No discount and no favor flip for the first unit of the turn; the god reveal discards it."""
    s = table(("Hoplite Recruit",), hands=(("Hoplite Recruit",), ()))
    s.favor = "horus"
    s.apply('play "Hoplite Recruit" city0')
    assert s.coins[0] == 5 - 2 + 1  # full cost, then its ability: gain 1 (R-unit-3)
    assert s.favor == "horus" and not s.discount_used
    s = table(("Hoplite Recruit",), deck_top=("Hoplite Recruit",), phase=WEALTH_REVEAL,
              hands=(("Temple Servant",), ()))
    assert names(s, s.hands[0]) == ["Temple Servant"] and s.units[s.discard[-1]].name == "Hoplite Recruit"


def test_C_6_a_beast_counts_two():
    s = table(("Satyr", "Hoplite Recruit"), hands=(("Satyr", "Hoplite Recruit"), ()),
              cities=[(["Temple Servant"] * 4, []), ([], []), ([], [])])
    assert 'play "Satyr" city0' not in moves(s) and 'play "Hoplite Recruit" city0' in moves(s)
    assert s.side_count(1, 0) == 0 and s.units[s._id("Satyr")].size == 2


def test_R_surge_4_a_beast_discarded_for_its_ability_cannot_return_itself():
    s = table(("Phoenix",), hands=(("Phoenix",), ()), discard=("Temple Servant",))
    s.apply('beast "Phoenix"')
    assert s.coins[0] == 5 - 3 and moves(s) == ['take "Temple Servant"', "pass"]
    s.apply('take "Temple Servant"')
    assert s.units[s.discard[-1]].name == "Phoenix" and s.beast_abilities == 1


# ------------------------------------------------------------------ C-7 to C-9: moves, war, Enraged units


def test_C_7_a_soldier_moved_by_sandstorm_resolves_its_ability():
    s = table(("Hoplite Recruit",), cities=[(["Hoplite Recruit"], []), (["Temple Servant"], []), ([], [])])
    s.unused[0] = [next(r.index for r in s.cards.rewards if r.name == "Sandstorm")]
    s.apply('use "Sandstorm"')
    s.apply('move "Hoplite Recruit" city0>city2')
    assert s.coins[0] == 6  # Gain 1 coin, before the second move is chosen (R-surge-7)
    assert s.pending.kind == "move" and 'move "Temple Servant" city1>city0' in moves(s)
    s.apply('move "Temple Servant" city1>city0')
    assert s.coins[0] == 6 and s.pending.kind == "surge"  # a moved Heir unit resolves nothing


def test_C_8_an_enraged_unit_fights_at_4_and_costs_nothing_in_a_tie():
    """War in city0: 4 strength each; the Enraged unit's cost 0 loses the tie-break to Temple
    Servants' printed costs (2 + 2)."""
    s = table(("Spartan Warrior",), hands=(("Temple Servant",), ()),
              cities=[(["Spartan Warrior (enraged)"], ["Rabid Usurper", "Temple Servant"]), ([], []), ([], [])])
    s.favor = "anubis"  # no INVOCATION bonus for seat 1's Temple Servant
    assert s.strength(0, 0) == 4 and s.strength(0, 1) == 4
    s.apply("end")
    assert len(s.unused[1]) == 1 and not s.unused[0]


def test_C_9_enraged_units_flip_back_at_the_end_of_their_owners_turn():
    s = table(("Spartan Warrior", "Maenad"), hands=(("Temple Servant",), ()),
              cities=[(["Spartan Warrior (enraged)"], ["Maenad (enraged)"]), ([], []), ([], [])])
    s.apply("end")
    s.apply("pass")  # the Offering: the turn ends
    assert names(s, s.cities[0][0]) == ["Spartan Warrior"]
    assert names(s, s.cities[0][1]) == ["Maenad (enraged)"]  # the opposing side stays Enraged


def test_R_enrage_3_an_enraged_unit_must_fit():
    """Spartan Warrior: "You may Enrage 1 of your Soldiers or Oracles in this City"; a side at 5
    cannot take one more."""
    s = table(("Spartan Warrior", "Spartan Warrior"), hands=(("Spartan Warrior",), ()),
              cities=[(["Spartan Warrior"], []), (["Spartan Warrior", "Temple Servant", "Temple Servant",
                                                   "Temple Servant"], []), ([], [])])
    s.apply('play "Spartan Warrior" city0')
    assert moves(s) == ['enrage "Spartan Warrior" city0', "pass"]
    s.apply('enrage "Spartan Warrior" city0')
    assert names(s, s.cities[0][0]) == ["Spartan Warrior", "Spartan Warrior (enraged)"] and s.side_count(0, 0) == 3
    s = table(("Spartan Warrior", "Spartan Warrior"), hands=(("Spartan Warrior",), ()),
              cities=[(["Spartan Warrior", "Temple Servant", "Temple Servant", "Temple Servant"], []), ([], []), ([], [])])
    s.apply('play "Spartan Warrior" city0')
    assert s.pending.kind == "surge"  # no room: the ability does nothing


# ------------------------------------------------------------------ C-11 to C-14: words, scoring, counts


def test_C_11_discarding_a_unit_from_a_city_is_not_a_war():
    """Cyclops discards an opposing ENDURING unit: to the discard pile, and no ENDURING choice."""
    s = table(("Cyclops",), hands=(("Cyclops",), ("Temple Servant",)), cities=[([], ["Opal Statuary"]), ([], []), ([], [])])
    s.apply('beast "Cyclops"')
    assert moves(s) == ['destroy "Opal Statuary" city0']
    s.apply('destroy "Opal Statuary" city0')
    assert s.pending.kind == "surge" and not any(s.destroyed[1])
    assert [s.units[t].name for t in s.discard[-2:]] == ["Opal Statuary", "Cyclops"]


def test_R_enrage_6_an_enraged_unit_leaves_a_city_as_its_card():
    s = table(("Seaside Guardian", "Maenad"), hands=(("Seaside Guardian",), ()),
              cities=[([], ["Maenad (enraged)"]), ([], []), ([], [])])
    s.apply('play "Seaside Guardian" city0')
    s.apply('return "Maenad (enraged)" city0')
    assert names(s, s.hands[1]) == ["Maenad"] and names(s, s.known[1]) == ["Maenad"]


def test_C_12_feats_break_a_tie_before_favor():
    s = table(("Satyr",), hands=(("Temple Servant",), ()))
    s.city_tiles = [[], [], s.city_tiles[2]]  # two cities without tiles: the game ends with this turn
    s.used[0] = [0, 1]  # 2 VP
    s.feats[1][0] = True  # 2 VP
    s.favor = "anubis"
    s.apply("end")
    s.apply("pass")
    assert s.is_terminal() and s.scores() == (2, 2) and s.winner() == 1


def test_C_13_discards_from_the_opponents_hand_count_for_a_feat():
    """Harpy (your opponent discards 2) and Athenian Spearman (1): Humiliation in the Feat step;
    two Beasts discarded for their abilities would be Wild Hunt, one is not."""
    s = table(("Harpy", "Athenian Spearman"), hands=(("Harpy", "Athenian Spearman"), ("Temple Servant",) * 4))
    s.apply('beast "Harpy"')
    s.apply('discard "Temple Servant"')
    s.apply('discard "Temple Servant"')
    s.apply('play "Athenian Spearman" city0')
    s.apply('discard "Temple Servant"')
    assert s.hand_discards == [1, 3]
    s.apply("end")
    done = [f.name for f in s.cards.feats if s.feats[0][f.index]]
    assert done == ["Humiliation"]


def test_C_14_great_scouring_draws_one_card_per_card():
    s = table(("Satyr", "Hoplite Recruit"), cities=[(["Satyr"], ["Hoplite Recruit (enraged)"]), ([], []), ([], [])])
    s.unused[0] = [next(r.index for r in s.cards.rewards if r.name == "Great Scouring")]
    hand = sum(s.hands[0])
    s.apply('use "Great Scouring"')
    assert sum(s.hands[0]) == hand + 2  # a Beast is one card, an Enraged unit too
    assert sorted(s.units[t].name for t in s.discard) == ["Hoplite Recruit", "Satyr"]


def test_C_15_the_solo_game_is_not_combined(capsys):
    with pytest.raises(UsageError, match=r"C-15"):
        Config(level="hard")
    assert_one_line_error(*run(capsys, "play", "--game", "heir+reign", "--players", "random,random", "--level", "hard"),
                          "--level: not an option of --game heir+reign")


def test_D_combined_3_an_heir_unit_is_no_soldier_beast_or_oracle():
    """Garrison (a Soldier in every City): units devoted to both gods are no Soldiers, on both engines."""
    pharaohs = [(["Forgotten Pharaoh"], []), (["Fallen Archivist"], []), (["Forgotten Pharaoh"], [])]
    s = table(("Hoplite Recruit",), cities=pharaohs)
    garrison = next(f.index for f in s.cards.feats if f.name == "Garrison")
    assert not s.units[s._id("Forgotten Pharaoh")].matches("soldier")
    assert not s.feat_holds(0, garrison) and not GAME.to_core(s).feat_holds(0, garrison)
    s = table(("Hoplite Recruit",) * 3, cities=[([name, "Hoplite Recruit"], []) for (name,), _ in pharaohs])
    assert s.feat_holds(0, garrison) and GAME.to_core(s).feat_holds(0, garrison)


def test_D_combined_4_an_oracle_enraged_before_its_turn_is_skipped():
    """Maenad (Oracle: "You may Enrage 1 opposing Soldier or Oracle in this City") played by seat 1
    earlier; here seat 0's own Priestess of Ares resolves first and the Enraged Oracle never does."""
    s = table(("Maenad", "Ares' Provocateur", "Priestess of Demeter"), hands=(("Ares' Provocateur",), ()),
              cities=[(["Priestess of Demeter"], ["Maenad"]), ([], []), ([], [])])
    s.apply('play "Ares\' Provocateur" city1')  # Enrage 1 opposing Oracle in any City
    assert moves(s) == ['enrage "Maenad" city0']
    s.apply('enrage "Maenad" city0')
    s.active, s.pending = 1, None  # as if it were seat 1's Portent step now
    s.phase = "portent_start"
    s.run_to_decision()
    assert s.portent_left == [[0] * s.T] * 3 and s.coins == [3, 5]  # seat 0's Priestess is not seat 1's


# ------------------------------------------------------------------ properties


def _games(n: int):
    """Seeded random games over three choices of Reign of War cards (every state they pass)."""
    for seed in range(n):
        config = GAME.config(reign_units=CHOICES[seed % 3], reign_seed=seed)
        s = GAME.new_initial_state(seed, engine="reference", config=config)
        rng = Rng(seed)
        yield s
        while not s.is_terminal():
            s.apply(s.legal_moves()[rng.below(len(s.legal_moves()))])
            yield s


def _cards(s: GameState) -> Counter:
    """Every card of the game where it is: the piles, hands, cities (an Enraged unit as its card),
    beneath structures, revealed, waiting to be kept, an emissary, a Beast or a BUILD's unit set aside."""
    c = Counter(s.deck) + Counter(s.discard)
    for counts in [*s.hands, *s.under, s.revealed, s.limbo, *[side for city in s.cities for side in city]]:
        for t, n in enumerate(counts):
            c[s.cards.base(t)] += n
    c.update(e for e in s.emissaries if e >= 0)
    c.update(ref[1] for ref, i, _, _ in s.stack if ref[0] == "built" and i == 0)
    return +c


def test_cards_and_coins_are_conserved_and_every_game_ends():
    full = None
    for s in _games(GAMES):
        if s.ply == 0:
            full = _cards(s)
        assert _cards(s) == full and 0 <= sum(s.coins) <= 20
        assert s.is_terminal() or s.legal_moves()
        assert s.ply < 2000


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), choice=st.sampled_from(CHOICES), steps=st.integers(0, 150))
def test_undo_and_clone_restore_the_exact_state(seed, choice, steps):
    s = GAME.new_initial_state(seed, engine="reference", config=GAME.config(reign_units=choice, reign_seed=seed))
    rng = Rng(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(s.legal_moves()[rng.below(len(s.legal_moves()))])
    before, copy = s._snapshot(), s.clone()
    if not s.is_terminal():
        s.apply(s.legal_moves()[0])
        s.undo()
    assert s._snapshot() == before == copy._snapshot()


def test_determinisations_are_consistent_with_the_observation():
    """At every 7th decision of the games: the determinised world shows the deciding player, and
    the other, exactly what they see, and has the same legal moves."""
    for s in _games(max(GAMES // 3, 1)):
        if s.is_terminal() or s.ply % 7:
            continue
        p = s.current_player
        world = s.determinized(p, seed=s.ply)
        assert world.observation(p) == s.observation(p)
        assert [str(m) for m in world.legal_moves()] == [str(m) for m in s.legal_moves()]
        json.dumps(s.observation(1 - p))


def test_play_finishes_from_the_command_line(capsys):
    code, out, _ = run(capsys, "play", "--game", "heir+reign", "--players", "greedy,random", "--seed", "3", "--json")
    result = json.loads(out)
    assert code == 0 and result["winner"] in (0, 1) and result["turns"] > 1
    code, out, _ = run(capsys, "play", "--game", "heir+reign", "--players", "random,random", "--seed", "3",
                       "--engine", "reference", "--json")
    assert code == 0 and json.loads(out)["winner"] in (0, 1)


def _combined_file(extra: str = "") -> str:
    """A combined card file made of the two built-in files: Heir's sections, then Reign of War's
    units (as ``reign_unit``) and feats; its rewards and Match cards are left out (C-10)."""
    import re

    from omen_search.cardfiles import builtin_card_text

    heir = builtin_card_text("heir-seed.toml").replace('ruleset = "heir"', 'ruleset = "heir+reign"')
    blocks = re.split(r"(?m)^(?=\[\[)", builtin_card_text("reign-seed.toml"))[1:]
    keep = [b.replace("[[unit]]", "[[reign_unit]]", 1) for b in blocks if b.startswith(("[[unit]]", "[[feat]]"))]
    return heir + "\n" + "".join(keep) + extra


def test_C_2_a_card_file_may_mix_both_sets():
    from omen_search.errors import CardDataError
    from omen_search.games.combined.cards import parse_pool

    pool = parse_pool(_combined_file(), "mixed.toml")
    assert len(pool.reign.units) == 50 and len(pool.reign.feats) == 6 and pool.heir.ruleset == "heir"
    s = GameState.new(seed=2, cards=pool, config=Config(reign_units=("Satyr",)))
    assert s.cards.unit("Satyr").size == 2
    clash = '\n[[reign_unit]]\nname = "Temple Servant"\ntype = "soldier"\ncircles = 1\ncost = 1\nstrength = 1\n' \
            'offering = 1\ncopies = 2\nsource = "designed"\ntext = "-"\n'
    with pytest.raises(CardDataError, match="reign_unit 'Temple Servant': an Heir unit has the same name"):
        parse_pool(_combined_file(clash), "mixed.toml")
