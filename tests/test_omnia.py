"""OMNIA on its reference engine: each ruling of ``docs/rules/omnia.md`` (``N-…``), of its cards page
(``N-card-…``) and of ``docs/rulings.md`` (``D-omnia-…``) by a test named after it, starting from a
decision just before the rule so that the engine applies it; the invariants of random games (every
card in one place, life and prestige never from nothing, undo exact, what an observation shows);
the card file; the command line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_search.cardfiles import builtin_card_text
from omen_search.errors import CardDataError, IllegalMoveError, NotationError, UsageError
from omen_search.game import get_game
from omen_search.games.omnia.cards import default_cards, parse_cards
from omen_search.games.omnia.notation import Move
from omen_search.games.omnia.reference import OmniaState
from omen_search.games.omnia.rules import Config
from omen_search.rng import Rng

from cli_helper import assert_one_line_error, run
from omnia_helper import action_phase, clear_hand, hand, in_play, moves, places, pool, primed, take


def random_game(players: int, seed: int, check=None) -> OmniaState:
    state = OmniaState.new(seed, config=Config(players=players))
    rng = Rng(seed)
    while not state.is_terminal():
        legal = state.legal_moves()
        before = state.clone() if check is not None else None
        state.apply_trusted(legal[rng.below(len(legal))])
        if check is not None:
            check(before, state)
    return state


def random_walk(players: int, seed: int, plies: int) -> OmniaState:
    """A seeded game played at random for ``plies`` plies (or to its end)."""
    state = OmniaState.new(seed, config=Config(players=players))
    rng = Rng(seed)
    while not state.is_terminal() and state.ply < plies:
        legal = state.legal_moves()
        state.apply_trusted(legal[rng.below(len(legal))])
    return state


def names(state: OmniaState, cards: list[int]) -> list[str]:
    return [state.name(c) for c in cards]


# ------------------------------------------------------------------------------ set-up


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ruling_n_setup_1_to_6_and_n_players_1_the_deal(players):
    state = OmniaState.new(5, config=Config(players=players, first_player=players - 1))
    assert len(state.row) == 5 and len(state.shop_deck) == 20 * players - 5
    assert sorted(len(s) for s in state.stacks.values()) == [10] * players
    for p in range(players):
        cards = names(state, state.hand[p] + state.deck[p])
        assert sorted(cards) == ["Basic Source"] * 8 + ["Squire"] * 2
        assert len(state.hand[p]) == 5 and state.life[p] == 20
    assert state.current_player == players - 1 and state.phase == "action"
    assert [state.cards.flavors[f].name for f in state.flavor] == ["ember", "tide", "grove", "dusk"][:players]


def test_ruling_n_setup_4_and_d_omnia_9_the_first_player_is_drawn_from_the_seed():
    firsts = {OmniaState.new(seed, config=Config(players=3)).active for seed in range(30)}
    assert firsts == {0, 1, 2}
    assert OmniaState.new(4, config=Config(players=3)).active == OmniaState.new(4, config=Config(players=3)).active


def test_the_flavors_are_chosen_per_seat():
    state = OmniaState.new(1, config=Config(players=2, flavors=("dusk", "grove")))
    assert [state.cards.flavors[f].name for f in state.flavor] == ["dusk", "grove"]
    assert {state.card(c).flavor for c in state.shop_deck + state.row} == {"dusk", "grove"}
    with pytest.raises(UsageError, match="unknown 'fire'"):
        OmniaState.new(1, config=Config(players=2, flavors=("fire", "tide")))
    with pytest.raises(UsageError, match="own flavor"):
        Config(players=2, flavors=("tide", "tide"))


# ------------------------------------------------------------------------------ source and costs


def test_ruling_n_source_1_n_flow_1_and_n_card_7_a_source_card_is_a_special_action():
    state = action_phase(flavors=("tide", "ember"))
    hand(state, 0, "Basic Source", "Ember Wellspring")
    state.apply('source "Basic Source"')
    assert state.pool[0] == [0, 1, 0, 0], "Basic Source makes its owner's flavor, tide"
    assert not state.flow and not state.todo and names(state, state.discard[0]) == ["Basic Source"]
    state.apply('source "Ember Wellspring"')
    assert state.pool[0] == [2, 1, 0, 0]


def test_ruling_n_cost_1_and_d_omnia_3_flavored_source_first_then_the_most_left():
    state = action_phase()
    clear_hand(state, 0)
    state.row[0] = take(state, "Pyre Knight", 0)
    state.owner[state.row[0]] = None
    pool(state, 0, E=1, T=4)
    assert 'buy "Pyre Knight"' in moves(state)  # 4+E: one Ember and four of any flavor
    state.apply('buy "Pyre Knight"')
    assert state.pool[0] == [0, 0, 0, 0]
    pool(state, 0, T=6)
    assert 'buy "Ember Duelist"' not in moves(state), "no Ember source: no Ember card"


def test_d_omnia_3_the_generic_part_is_paid_from_the_flavor_with_the_most_left():
    state = action_phase()
    clear_hand(state, 0)
    pool(state, 0, E=2, T=2)
    state.apply('buy "Tide Wellspring"')  # 3: E (the first on a tie), then T (now the most), then E
    assert state.pool[0] == [0, 1, 0, 0]


# ------------------------------------------------------------------------------ play and the Prime Flow


def test_ruling_n_play_1_and_n_flow_7_a_hero_enters_play_when_nobody_can_answer():
    state = action_phase()
    [knight] = hand(state, 0, "Pyre Knight")
    state.apply('play "Pyre Knight"')
    assert state.field[0] == [knight] and not state.flow and not state.todo, "no priority window: nobody can answer"


def test_ruling_n_play_1_a_spell_applies_its_text_then_goes_to_the_discard_stack():
    state = action_phase()
    hand(state, 0, "Harvest")
    before = len(state.deck[0])
    state.apply('play "Harvest"')
    assert state.life[0] == 22 and len(state.hand[0]) == 1 and len(state.deck[0]) == before - 1
    assert names(state, state.discard[0]) == ["Harvest"]


def test_ruling_n_flow_2_priority_starts_with_the_active_player_and_restarts_after_an_answer():
    state = action_phase()
    hand(state, 0, "Pyre Knight", "Squire")
    hand(state, 1, "Basic Source")
    primed(state, 0, "Mend")
    primed(state, 1, "Mend")
    state.apply('play "Pyre Knight"')
    assert state.todo[0][:3] == ("priority", 0, 0) and moves(state) == ["pass", 'cast "Mend"']
    state.apply("pass")
    assert state.current_player == 1
    state.apply('cast "Mend"')  # its cost: the one card in hand, discarded for it
    assert state.todo[0][:3] == ("priority", 0, 0), "after an answer, priority starts again with the active player"
    assert [it.kind for it in state.flow] == ["play", "play"]


def test_ruling_n_flow_3_the_whole_flow_resolves_newest_first():
    state = action_phase()
    [knight] = hand(state, 0, "Pyre Knight")
    hand(state, 1, "Basic Source")
    primed(state, 1, "Countercurrent")
    state.apply('play "Pyre Knight"')
    state.apply('cast "Countercurrent"')  # seat 0 has nothing to answer with: seat 1 holds priority
    # its one target, the Knight's Play, is chosen for it (D-omnia-2); the Flow resolves top first
    assert not state.flow and knight in state.discard[0] and knight not in state.field[0]


def test_ruling_n_card_2_countercurrent_cancels_a_play_or_activate_only():
    state = action_phase()
    [duelist] = [in_play(state, 0, "Ember Duelist")]
    hand(state, 1, "Basic Source", "Squire")
    in_play(state, 1, "Squire")
    primed(state, 1, "Countercurrent")
    state.apply('attack "Ember Duelist" #1 seat1')
    state.apply("done")
    assert 'cast "Countercurrent"' not in moves(state), "an Attack cannot be cancelled"
    assert state.life[1] == 17 and duelist in state.discard[0], "the unblocked attack resolved and cycled"


def test_ruling_n_flow_4_only_activate_while_the_flow_holds_something():
    state = action_phase()
    hand(state, 0, "Pyre Knight", "Kindle", "Basic Source")
    hand(state, 1, "Basic Source")
    primed(state, 1, "Mend")
    state.apply('play "Pyre Knight"')
    assert moves(state) == ["pass"] or all(m.split()[0] in ("pass", "activate", "cast") for m in moves(state))


def test_ruling_n_play_2_equipment_attaches_to_a_hero_of_its_players_choice():
    state = action_phase()
    a = in_play(state, 0, "Squire")
    b = in_play(state, 0, "Ember Duelist")
    blade = hand(state, 0, "Burning Blade")[0]
    state.apply('play "Burning Blade"')
    assert moves(state) == ['attach "Squire" #1', 'attach "Ember Duelist" #2']
    state.apply('attach "Ember Duelist" #2')
    assert state.attached == {blade: b} and state.atk(b) == 5 and state.atk(a) == 2


def test_ruling_n_play_2_and_n_clean_1_unattached_equipment_is_sacrificed_at_clean_up():
    state = action_phase()
    clear_hand(state, 0)
    shield = hand(state, 0, "Pearl Shield")[0]
    state.apply('play "Pearl Shield"')
    assert shield in state.field[0] and shield not in state.attached, "no hero: it enters unattached"
    state.apply("end")
    assert shield in state.discard[0]


def test_ruling_n_play_3_a_target_gone_at_resolution_is_ignored():
    state = action_phase()
    squire = in_play(state, 1, "Squire")
    hand(state, 0, "Bramble Snare")
    hand(state, 1, "Basic Source")
    primed(state, 1, "Hex")
    state.apply('play "Bramble Snare"')  # its one target, the Squire, chosen for it (D-omnia-2)
    state.apply('cast "Hex"')  # seat 1 answers; Hex resolves first and destroys the Squire
    assert squire in state.discard[1] and state.life[0] == 22, "the damage is ignored, the life gained is not"


def test_d_omnia_8_a_spell_without_a_legal_target_cannot_be_played():
    state = action_phase()
    hand(state, 0, "Hex", "Countercurrent")
    in_play(state, 1, "Pyre Knight")  # Def 4: no hero of Def 2 or less
    offered = moves(state)
    assert 'play "Hex"' not in offered and 'play "Countercurrent"' not in offered
    assert 'prime "Hex"' in offered and 'prime "Countercurrent"' in offered


def test_ruling_n_buy_1_and_n_buy_2_a_purchase_goes_on_the_flow_and_the_row_refills_at_once():
    state = action_phase()
    clear_hand(state, 0)
    bought = state.row[2]
    cost = state.card(bought).cost
    pool(state, 0, E=cost.total, T=cost.total)
    top = state.shop_deck[-1]
    state.apply(f'buy "{state.name(bought)}"')
    assert state.row[-1] == top and bought not in state.row and len(state.row) == 5
    assert bought in state.discard[0] and state.owner[bought] == 0
    wellspring = state.stacks[1][-1]
    pool(state, 0, E=3)
    state.apply('buy "Tide Wellspring"')
    assert wellspring in state.discard[0] and len(state.stacks[1]) == 9, "anyone's flavor may be bought"


def test_ruling_n_prime_1_and_n_prime_2_prime_then_cast_in_the_same_turn():
    state = action_phase()
    hand(state, 0, "Flame Lance", "Squire")
    state.apply('prime "Flame Lance"')
    assert not state.flow and names(state, state.primed[0]) == ["Flame Lance"]
    state.apply('cast "Flame Lance"')  # the one card left in hand is its cost
    assert names(state, state.discard[0]) == ["Squire"]
    state.apply("player seat1")
    assert state.life[1] == 17 and names(state, state.discard[0]) == ["Squire", "Flame Lance"]


def test_ruling_n_prime_2_casting_needs_a_card_in_hand():
    state = action_phase()
    clear_hand(state, 0)
    primed(state, 0, "Mend")
    assert 'cast "Mend"' not in moves(state)


def test_ruling_n_activate_1_once_per_turn_and_n_source_1_source_played_to_pay_an_activate_cost():
    state = action_phase()
    clear_hand(state, 0)
    in_play(state, 1, "Cursed Idol")
    hand(state, 1, "Basic Source", "Basic Source", "Squire")
    [knight] = hand(state, 0, "Pyre Knight")
    state.apply('play "Pyre Knight"')
    state.apply('activate "Cursed Idol" #1')  # out of turn: two source cards are played to pay for it
    assert names(state, state.discard[1]) == ["Basic Source", "Basic Source"] and state.pool[1] == [0, 0, 0, 0]
    assert state.life[0] == 19 and knight in state.field[0]
    assert 'activate "Cursed Idol" #1' not in moves(state)


def test_ruling_n_source_2_an_ability_that_makes_source_goes_on_the_flow():
    """No seed card has one: a War Drum that makes 2 Ember source, from a card file."""
    text = builtin_card_text("omnia-seed.toml").replace(
        'ability = {cost = "1", target = "own_hero", effects = [{op = "pump", n = 1}]}',
        'ability = {cost = "1", effects = [{op = "gain_source", n = 2, flavor = "E"}]}')
    state = OmniaState.new(1, parse_cards(text, "drum.toml"), Config(players=2, first_player=0))
    in_play(state, 0, "War Drum")
    hand(state, 0, "Basic Source")
    hand(state, 1, "Basic Source")
    primed(state, 1, "Mend")
    state.apply('activate "War Drum" #1')  # its cost: the Basic Source played from hand
    assert state.flow and state.pool[0] == [0, 0, 0, 0] and state.current_player == 1, "seat 1 may answer"
    state.apply("pass")
    assert state.pool[0] == [2, 0, 0, 0]


# ------------------------------------------------------------------------------ attacks


def test_ruling_n_attack_1_and_d_omnia_5_the_defending_player_declares_defenders_in_the_attackers_turn():
    state = action_phase()
    in_play(state, 0, "Pyre Knight")
    in_play(state, 1, "Squire")
    in_play(state, 1, "Tide Sentinel")
    state.apply('attack "Pyre Knight" #1 seat1')
    assert state.current_player == 1 and moves(state) == ["done", 'defend "Squire" #1', 'defend "Tide Sentinel" #2']
    state.apply('defend "Squire" #1')
    assert moves(state) == ["done", 'defend "Tide Sentinel" #2'], "defenders in their order (D-omnia-5)"


def test_ruling_n_attack_2_a_hero_attacks_once_a_turn():
    state = action_phase()
    in_play(state, 0, "Squire")
    state.apply('attack "Squire" #1 seat1')
    assert not [m for m in moves(state) if m.startswith("attack")]


def test_ruling_n_attack_3_and_n_attack_5_unblocked_damage_cycles_the_attacker():
    state = action_phase()
    knight = in_play(state, 0, "Pyre Knight")
    in_play(state, 1, "Squire")
    state.apply('attack "Pyre Knight" #1 seat1')
    state.apply("done")
    assert state.life[1] == 15 and knight in state.discard[0] and knight not in state.field[0]


def test_ruling_n_attack_3_to_5_and_d_omnia_4_blocked_damage_split_and_carried_over():
    state = action_phase(players=3)
    knight = in_play(state, 0, "Pyre Knight")  # 5/4
    a = in_play(state, 1, "Squire")  # 2/2
    b = in_play(state, 1, "Squire")
    state.apply('attack "Pyre Knight" #1 seat1')
    state.apply('defend "Squire" #1')
    state.apply('defend "Squire" #2')
    assert state.current_player == 0 and moves(state) == ["assign 0", "assign 1", "assign 2"]
    state.apply("assign 2")  # the last defender takes the rest, 3; 1 over its lethal 2 carries over
    assert a in state.discard[1] and b in state.discard[1]
    assert state.life[1] == 19
    assert knight in state.discard[0], "4 damage from the two defenders destroys it; it cycled too"


def test_d_omnia_4_no_carry_over_unless_every_defender_has_lethal_damage():
    state = action_phase()
    knight = in_play(state, 0, "Pyre Knight")
    a = in_play(state, 1, "Tide Sentinel")  # 1/4
    b = in_play(state, 1, "Squire")
    state.apply('attack "Pyre Knight" #1 seat1')
    state.apply('defend "Tide Sentinel" #1')
    state.apply('defend "Squire" #2')
    state.apply("assign 1")  # the Squire takes 4: lethal, but the Sentinel did not get lethal damage
    assert state.life[1] == 20 and state.damage == {a: 1, knight: 3}
    assert b in state.discard[1] and knight in state.field[0], "no damage to the player: no cycling"


def test_ruling_n_attack_3_defenders_all_gone_means_the_atk_carries_over():
    state = action_phase()
    in_play(state, 0, "Pyre Knight")
    squire = in_play(state, 1, "Squire")
    hand(state, 1, "Basic Source")
    primed(state, 1, "Hex")
    state.apply('attack "Pyre Knight" #1 seat1')
    state.apply('defend "Squire" #1')  # then "done", his only choice left, is made for him
    state.apply('cast "Hex"')  # its only target: the defender
    assert squire in state.discard[1] and state.life[1] == 15


def test_ruling_n_attack_4_a_destroyed_heros_equipment_becomes_unattached():
    state = action_phase()
    squire = in_play(state, 1, "Squire")
    blade = in_play(state, 1, "Burning Blade", on=squire)
    hand(state, 0, "Flame Lance")
    state.apply('play "Flame Lance"')
    state.apply('hero "Squire" seat1 #1')
    assert squire in state.discard[1] and blade in state.field[1] and blade not in state.attached


def test_ruling_n_card_4_cannot_be_defended_against():
    state = action_phase()
    stalker = in_play(state, 0, "Dusk Stalker")
    in_play(state, 0, "Shadow Cloak", on=stalker)
    in_play(state, 1, "Squire")
    state.apply('attack "Dusk Stalker" #1 seat1')
    assert state.life[1] == 16, "no defenders could be declared: 3 + 1 Atk unblocked"


def test_ruling_n_card_4_night_blade_made_unblockable_after_defenders_were_declared():
    state = action_phase()
    blade = in_play(state, 0, "Night Blade")
    squire = in_play(state, 1, "Squire")
    hand(state, 0, "Basic Source")
    state.flavor = (3, 1)  # seat 0 plays Dusk
    state.apply('attack "Night Blade" #1 seat1')
    state.apply('defend "Squire" #1')
    state.apply('activate "Night Blade" #1')  # its D comes from the Basic Source in hand
    assert state.life[1] == 16 and squire in state.field[1] and blade in state.discard[0]


def test_ruling_n_card_6_spell_damage_to_a_player_never_cycles():
    state = action_phase()
    knight = in_play(state, 0, "Pyre Knight")
    hand(state, 0, "Flame Lance")
    state.apply('play "Flame Lance"')
    state.apply("player seat1")
    assert state.life[1] == 17 and knight in state.field[0]


def test_ruling_n_attack_6_damage_stays_until_clean_up_and_a_hero_defends_again():
    state = action_phase()
    in_play(state, 0, "Ember Duelist")
    in_play(state, 0, "Squire")
    sentinel = in_play(state, 1, "Tide Sentinel")  # 1/4
    state.apply('attack "Ember Duelist" #1 seat1')
    state.apply('defend "Tide Sentinel" #1')
    assert state.damage[sentinel] == 3
    state.apply('attack "Squire" #2 seat1')
    assert moves(state) == ["done", 'defend "Tide Sentinel" #1'], "it defends again, its damage still on it"
    state.apply('defend "Tide Sentinel" #1')
    assert sentinel in state.discard[1]


def test_ruling_n_prime_3_and_n_read_2_a_prime_spell_played_from_hand_and_any_number_of_actions():
    state = action_phase()
    hand(state, 0, "Mend", "Harvest", "Kindle", "Squire")
    state.apply('play "Mend"')
    state.apply('play "Harvest"')
    state.apply('play "Kindle"')
    assert state.life[0] == 26 and state.pool[0][0] == 1 and len(state.hand[0]) == 3


# ------------------------------------------------------------------------------ clean-up, draw, triggers


def test_ruling_n_clean_1_and_n_card_1_clean_up():
    state = action_phase()
    knight = in_play(state, 0, "Pyre Knight")
    hand(state, 0, "Undertow", "Squire", "Basic Source")
    other = hand(state, 1, "Basic Source", "Squire")
    pool(state, 1, T=2)
    state.apply('play "Undertow"')  # on the one hero in play
    state.damage[knight] = 2
    assert state.atk(knight) == 2
    state.apply("end")
    assert state.pool == [[0] * 4, [0] * 4] and state.damage == {} and state.atk(knight) == 5
    assert state.hand[1] == other, "the other players keep their hands"
    assert len(state.hand[0]) == 5 and state.active == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ruling_n_turn_1_the_turn_passes_to_the_left(players):
    state = action_phase(players=players)
    seen = []
    for _ in range(players + 1):
        seen.append(state.active)
        state.apply("end")
        while state.todo:  # an Enchantment's triggers, defenders: none here
            state.apply(state.legal_moves()[0])
    assert seen == [*range(players), 0] and state.turns == players + 2


def test_ruling_n_draw_1_and_n_deck_1_an_empty_deck_is_the_discard_stack_shuffled():
    state = action_phase()
    state.discard[0] += state.deck[0][:-2]
    state.deck[0] = state.deck[0][-2:]
    cards = sorted(state.deck[0] + state.discard[0] + state.hand[0])
    state.apply("end")
    assert len(state.hand[0]) == 5 and sorted(state.hand[0] + state.deck[0] + state.discard[0]) == cards
    assert len(state.deck[0]) == 5 and state.discard[0] == []


def test_ruling_n_flow_5_and_n_card_8_start_of_action_phase_triggers_in_the_chosen_order():
    state = action_phase()
    in_play(state, 1, "Ember Rite")
    in_play(state, 1, "Deep Current")
    in_play(state, 1, "Nightfall")
    state.apply("end")
    assert state.current_player == 1 and moves(state) == ['trigger "Ember Rite"', 'trigger "Deep Current"',
                                                          'trigger "Nightfall"']
    state.apply('trigger "Ember Rite"')
    assert state.life[0] == 19 and not state.flow
    state.apply('trigger "Nightfall"')
    assert state.current_player == 0 and state.todo[0][0] == "discard"


def test_ruling_n_card_3_each_opponent_discards_of_his_choice():
    state = action_phase(players=3)
    hand(state, 0, "Maelstrom")
    hand(state, 1, "Squire", "Basic Source", "Kindle")
    hand(state, 2, "Squire")
    state.apply('play "Maelstrom"')
    assert state.current_player == 1 and moves(state) == ['discard "Squire"', 'discard "Basic Source"',
                                                          'discard "Kindle"']
    state.apply('discard "Kindle"')
    state.apply('discard "Squire"')
    assert names(state, state.hand[1]) == ["Basic Source"] and state.hand[2] == [], "fewer from a smaller hand"


def test_ruling_n_card_5_purge_removes_and_the_prestige_no_longer_counts():
    state = action_phase()
    hand(state, 0, "Purge", "Pyre Knight")
    state.apply('play "Purge"')
    assert 'remove "Pyre Knight" hand' in moves(state) and "done" in moves(state)
    assert state.prestige(0) == 2
    state.apply('remove "Pyre Knight" hand')  # then nothing is left to remove
    assert state.prestige(0) == 0 and names(state, state.removed) == ["Pyre Knight"]


# ------------------------------------------------------------------------------ the end and scoring


def test_ruling_n_end_1_and_n_flow_6_the_game_ends_at_once_the_rest_of_the_flow_does_not_resolve():
    state = action_phase()
    state.life[1] = 3
    hand(state, 0, "Flame Lance", "Squire")
    hand(state, 1, "Basic Source")
    primed(state, 0, "Mend")
    primed(state, 1, "Mend")
    state.apply('play "Flame Lance"')
    state.apply("player seat1")
    state.apply("pass")
    state.apply('cast "Mend"')  # seat 1's Mend is on top of the Lance
    state.apply("pass")  # seat 0; seat 1 has no card left to discard for another answer
    assert not state.is_terminal() and state.life[1] == 4
    state2 = action_phase()
    state2.life[1] = 3
    hand(state2, 0, "Flame Lance", "Harvest")
    primed(state2, 0, "Mend")
    state2.apply('play "Flame Lance"')
    state2.apply("player seat1")
    state2.apply('cast "Mend"')  # seat 0's own answer; nobody can answer it: the Flow resolves
    assert state2.is_terminal() and state2.life[0] == 24 and state2.life[1] == 0


def test_ruling_n_score_1_and_n_score_2_prestige_plus_life():
    state = action_phase()
    in_play(state, 0, "Cinder Drake")
    primed(state, 0, "Flame Lance")
    state.discard[1].append(take(state, "Leviathan", 1))
    state.life = [-3, 5]
    assert state.scores() == (5, 9)


def test_ruling_n_score_3_ties_go_to_life_then_are_shared():
    state = action_phase(players=3)
    in_play(state, 0, "Cinder Drake")
    state.life = [6, 10, 10]
    assert state.scores() == (10, 10, 10) and state.returns() == (0.0, 0.5, 0.5)


def test_d_omnia_7_a_card_bought_on_the_flow_when_the_game_ends_counts_for_its_buyer():
    state = action_phase()
    clear_hand(state, 0)
    pool(state, 0, E=5)
    state.row[0] = take(state, "Pyre Knight", 0)
    state.owner[state.row[0]] = None
    state.life[1] = 1
    primed(state, 0, "Flame Lance")
    state.hand[0] = [take(state, "Squire", 0)]
    state.apply('buy "Pyre Knight"')
    state.apply('cast "Flame Lance"')
    state.apply("player seat1")
    assert state.is_terminal() and state.prestige(0) == 3  # the Knight (on the Flow) and the Lance


def test_d_omnia_1_the_turn_limit_judges_the_board():
    state = OmniaState.new(3, config=Config(players=2, max_turns=4))
    rng = Rng(3)
    while not state.is_terminal():
        legal = state.legal_moves()
        state.apply_trusted(legal[rng.below(len(legal))])
    assert state.turns == 4 or min(state.life) <= 0


def test_d_omnia_6_copies_are_alike_and_cards_in_play_are_named_by_place():
    state = action_phase()
    in_play(state, 0, "Squire")
    in_play(state, 0, "Squire")
    hand(state, 0, "Basic Source", "Basic Source", "Kindle", "Kindle")
    offered = moves(state)
    assert offered.count('source "Basic Source"') == 1 and offered.count('play "Kindle"') == 1
    assert 'attack "Squire" #1 seat1' in offered and 'attack "Squire" #2 seat1' in offered


def test_d_omnia_2_a_choice_with_one_outcome_is_made_for_the_player():
    state = action_phase()
    squire = in_play(state, 0, "Squire")
    blade = hand(state, 0, "Burning Blade")[0]
    state.apply('play "Burning Blade"')
    assert state.attached == {blade: squire} and not state.todo


# ------------------------------------------------------------------------------ hidden information


def test_ruling_n_hidden_1_n_hidden_2_and_d_omnia_10_what_an_observation_shows():
    state = action_phase()
    primed(state, 1, "Hex")
    seen = state.observation(0)
    other = seen["players"][1]
    assert other["hand"] == 5 and other["primed"] == 1 and isinstance(other["deck"], int)
    assert seen["players"][0]["hand"] == names(state, state.hand[0])
    assert state.observation(1)["players"][1]["primed"] == ["Hex"]
    hand(state, 0, "Mend")
    game = get_game("omnia")
    assert game.public_move(state, Move("prime", card="Mend"), 1) == "prime (a face-down card)"


# ------------------------------------------------------------------------------ invariants of random games


def conserved(before: OmniaState, state: OmniaState) -> None:
    """Every card in exactly one place; life and prestige from a card's text only."""
    assert sorted(places(state)) == list(range(len(state.design)))
    total = sum(c.prestige for c in (state.card(x) for x in range(len(state.design))))
    removed = sum(state.card(x).prestige for x in state.removed)
    unowned = sum(state.card(x).prestige for x in range(len(state.design)) if state.owner[x] is None)
    assert sum(state.prestige(p) for p in range(state.n)) == total - removed - unowned
    healers = {"Mend", "Harvest", "Bramble Snare", "Soul Siphon", "Elder Treant", "Seed Vault"}
    flow_names = {state.name(it.card) for it in before.flow} | {state.name(it.card) for it in state.flow}
    flow_names |= {before.name(s[2].card) for s in before.todo if s[0] in ("put", "target")}
    flow_names |= {state.moves[-1].card}  # a Play or Activate that went on the Flow and resolved in this ply
    for p in range(state.n):
        if state.life[p] > before.life[p]:
            assert flow_names & healers, "life gained without a card that gains life"
        if state.prestige(p) > before.prestige(p):
            assert state.moves[-1].verb == "buy", "prestige gained without a purchase"
            assert sum(o == p for o in state.owner) == sum(o == p for o in before.owner) + 1


@settings(max_examples=6, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_every_card_is_in_one_place_and_life_and_prestige_come_from_cards(players, seed):
    state = random_game(players, seed, conserved)
    assert state.is_terminal() and sum(state.returns()) == pytest.approx(1.0)


@settings(max_examples=5, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), cut=st.integers(1, 300))
def test_apply_then_undo_restores_the_state_exactly(players, seed, cut):
    state = random_walk(players, seed, cut)
    if state.is_terminal():
        return
    before = state._snapshot()
    legal = state.legal_moves()
    for move in legal:
        state.apply_trusted(move)
        state.undo()
        assert state._snapshot() == before and state.legal_moves() == legal


@settings(max_examples=5, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), cut=st.integers(1, 300))
def test_an_observation_does_not_depend_on_what_the_seat_cannot_see(players, seed, cut):
    """Another seat's hand card swapped with one of its deck, its face-down primed spell swapped with
    a Prime spell of its deck, and the order of every deck, the viewer's own included, change nothing
    the viewer is shown."""
    state = random_walk(players, seed, cut)
    viewer, other = 0, 1
    seen = state.observation(viewer)
    if state.hand[other] and state.deck[other]:
        state.hand[other][0], state.deck[other][0] = state.deck[other][0], state.hand[other][0]
    prime_in_deck = [i for i, c in enumerate(state.deck[other]) if state.card(c).prime]
    if state.primed[other] and prime_in_deck:
        i = prime_in_deck[0]
        state.primed[other][0], state.deck[other][i] = state.deck[other][i], state.primed[other][0]
    for deck in (state.deck[other], state.deck[viewer], state.shop_deck):
        deck.reverse()
    assert state.observation(viewer) == seen


@settings(max_examples=5, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), cut=st.integers(1, 300))
def test_a_world_keeps_every_card_and_deals_only_prime_spells_face_down(players, seed, cut):
    state = random_walk(players, seed, cut)
    for player in range(players):
        world = state.determinized(player, seed + player)
        assert sorted(places(world)) == list(range(len(world.design)))
        assert world.observation(player) == state.observation(player)
        for q in range(players):
            assert all(world.card(c).prime for c in world.primed[q])
            assert sorted(world.hand[q] + world.primed[q] + world.deck[q]) == sorted(
                state.hand[q] + state.primed[q] + state.deck[q])


def test_random_games_finish_for_every_count():
    for players in (2, 3, 4):
        for seed in range(3):
            state = random_game(players, seed)
            assert state.is_terminal() and len(state.scores()) == players


# ------------------------------------------------------------------------------ moves, cards, command line


@pytest.mark.parametrize("text", ['attack "Pyre Knight" #2 seat1', 'hero "Squire" seat0 #1', "player seat2",
                                  'counter "Kindle" #1', "assign 3", 'remove "Purge" discard', "pass", "end",
                                  'cast "Hex"', 'activate "War Drum" #3', 'source "Basic Source"'])
def test_the_notation_round_trips(text):
    assert str(Move.parse(text)) == text


@pytest.mark.parametrize("text", ["play Squire", "assign -1", "player 2", 'hero "Squire" #1 seat0',
                                  'remove "Purge" deck', "fly", "", 'attack "Squire" #0 seat1'])
def test_bad_notation_is_refused(text):
    with pytest.raises(NotationError):
        Move.parse(text)


def test_apply_refuses_an_illegal_move_and_changes_nothing():
    state = action_phase()
    before = state.observation(0)
    with pytest.raises(IllegalMoveError, match="ply 0"):
        state.apply('play "Nobody"')
    assert state.observation(0) == before


def test_the_seed_edition_is_designed_and_the_basic_counts_are_printed():
    cards = default_cards()
    assert cards.sources() == {"printed": 0, "designed": 46}
    assert {c.name: c.copies for c in cards.cards if c.copies_source == "printed"} == {"Squire": 2, "Basic Source": 8}
    assert [sum(cards.cards[i].prestige for i in cards.deck_of(f.name)) for f in cards.flavors] == [24, 24, 28, 24]


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace('ruleset = "omnia"', 'ruleset = "omega"'), "ruleset"),
    (lambda t: t.replace('cost = "2+E"', 'cost = "2+X"', 1), "flavor letter 'X'"),
    (lambda t: t.replace('cost = "2+E"', 'cost = "2+E+"', 1), "cost reads like"),
    (lambda t: t.replace('name = "Pyre Knight"', 'name = "Ember Duelist"'), "duplicate"),
    (lambda t: t.replace('op = "damage", n = 3', 'op = "explode", n = 3'), "explode"),
    (lambda t: t.replace('target = "combatant"\n', ""), "'target'"),
    (lambda t: t.replace("copies = 40", "copies = 41").replace("copies = 10", "copies = 41", 1), "at most 40"),
])
def test_a_bad_card_file_is_refused_naming_the_field(edit, words):
    with pytest.raises(CardDataError, match=words):
        parse_cards(edit(builtin_card_text("omnia-seed.toml")), "bad.toml")


def test_play_every_player_count_from_the_command_line(capsys):
    for count in (2, 3, 4):
        status, out, err = run(capsys, "play", "--game", "omnia", "--players-count", str(count), "--players",
                               ",".join(["random"] * count), "--seed", "4", "--json")
        result = json.loads(out)
        assert status == 0 and len(result["scores"]) == count and result["winner"] in (None, *range(count))


def test_flavors_and_players_count_are_checked(capsys):
    assert_one_line_error(*run(capsys, "play", "--game", "omnia", "--players-count", "5"), "--players-count",
                          "2, 3 or 4")
    assert_one_line_error(*run(capsys, "play", "--game", "omnia", "--flavors", "ember"), "flavors")
    assert_one_line_error(*run(capsys, "play", "--game", "omnia", "--flavors", "ember,fire"), "fire")


def test_a_record_replays_and_the_cards_command_marks_designed_cards(capsys, tmp_path):
    path = tmp_path / "g.json"
    assert run(capsys, "play", "--game", "omnia-3", "--players", "random,greedy,random", "--flavors",
               "dusk,grove,tide", "--record", str(path), "--json")[0] == 0
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0 and "all" in out
    status, out, _ = run(capsys, "cards", "--game", "omnia")
    assert status == 0 and " * Cinder Drake" in out and "2 (printed)" in out


def test_a_game_of_one_count_refuses_another_counts_configuration():
    with pytest.raises(UsageError):
        get_game("omnia").new_initial_state(1, config=Config(players=3))
