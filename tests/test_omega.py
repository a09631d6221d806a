"""OMEGA: the ritual on its reference engine: each ruling of ``docs/rules/omega-the-ritual.md``
(``O-…``), of its cards page (``O-card-…``) and of ``docs/rulings.md`` (``D-omega-…``) by a test
named after it, starting from a decision just before the rule so that the engine applies it (each
position whose moves a test lists is copied to the core, which must list the same: ``moves``); the
invariants of random games (runes, Egregors and Arcana conserved, an Egregor's limits, what an
observation shows); the card file; the command line."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_search.errors import CardDataError, IllegalMoveError, NotationError, UsageError
from omen_search.game import get_game
from omen_search.games.omega.cards import BLUE, GOLD, GREEN, RED, WHITE, default_cards, parse_cards
from omen_search.games.omega.notation import Move
from omen_search.games.omega.reference import OmegaState
from omen_search.games.omega.rules import Config
from omen_search.rng import Rng

from cli_helper import assert_one_line_error, run
from omega_helper import (
    card,
    give,
    invariants,
    main_phase,
    moves,
    runes,
    set_altar,
    set_pyramid,
    stack_top,
    to_gallery,
    total_runes,
)


def random_game(players: int, seed: int, check=None) -> OmegaState:
    state = OmegaState.new(seed, config=Config(players=players))
    rng = Rng(seed)
    while not state.is_terminal():
        legal = state.legal_moves()
        state.apply_trusted(legal[rng.below(len(legal))])
        if check is not None:
            check(state)
    return state


# ------------------------------------------------------------------------------ set-up


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ruling_o_setup_2_to_6_the_deal(players):
    state = OmegaState.new(7, config=Config(players=players, first_player=players - 1))
    cards = default_cards()
    assert total_runes(state) == 155 == sum(cards.runes)
    assert len(state.gallery) == 4 and len(state.stack) == 42 - 4
    assert sorted(len(s) for s in state.arcana) == [7] * 6
    dealt = [sum(state.pyramid[(players - 1 + i) % players]) for i in range(players)]
    first = state.current_player
    assert first == players - 1 and state.todo[0][0] == "draw"
    expected = {2: [4, 5], 3: [4, 5, 6], 4: [4, 5, 5, 6]}[players]
    assert dealt == expected, "O-setup-6 by place in the turn order (D-omega-8)"
    assert state.known == [[0] * 6] * players, "the starting runes are known to their owner only"
    assert sum(state.altar) == 6


def test_the_same_seed_deals_the_same_game():
    a, b = random_game(3, 11), random_game(3, 11)
    assert a.moves == b.moves and a.scores() == b.scores()


# ------------------------------------------------------------------------------ draw


def test_ruling_o_draw_1_a_rune_from_the_altar_is_known_one_from_the_bag_is_not():
    state = OmegaState.new(3)
    offered = moves(state)
    assert offered[-1] == "draw bag" and all(m.startswith("draw ") for m in offered)
    kind = next(k for k in range(6) if state.altar[k])
    p = state.current_player
    state.apply(Move("draw", source=["blue", "gold", "red", "green", "white", "black"][kind]))
    assert state.known[p][kind] == 1 and sum(state.altar) == 5
    state.undo()
    state.apply("draw bag")
    assert sum(state.known[p]) == 0 and sum(state.pyramid[p]) == 5


# ------------------------------------------------------------------------------ summon


def test_ruling_o_summon_1_limits_of_the_runes_placed():
    state = main_phase()
    set_pyramid(state, 0, runes(red=12, blue=3, gold=2, black=4))
    to_gallery(state, "Syphus")
    to_gallery(state, "Fyrral")  # Primitive
    state.apply('summon "Syphus"')
    firsts = moves(state)
    assert "with red10" in firsts and "with red11" not in firsts, "at most 10 runes"
    assert not any("black" in m for m in firsts), "no black runes (O-rune-13)"
    state.apply("with blue2")
    seconds = moves(state)
    assert "add red8" in seconds and "add red9" not in seconds and "add gold1" in seconds and "done" in seconds
    state.apply("add red3")
    syphus = card(state, "Syphus")
    assert syphus in state.controlled[0] and state.carried[syphus][BLUE] == 2
    state.undo(), state.undo(), state.undo()
    state.apply('summon "Fyrral"')
    state.apply("with gold2")
    assert card(state, "Fyrral") in state.controlled[0], "a Primitive takes one colour: no second step"
    assert state.carried[card(state, "Fyrral")] == runes(gold=2)


def test_ruling_o_summon_2_and_o_rune_4_runes_of_a_summon_trigger():
    state = main_phase()
    set_pyramid(state, 0, runes(green=4))
    to_gallery(state, "Syphus")
    state.apply('summon "Syphus"')
    state.apply("with green4")
    draws = 0
    while state.todo and state.todo[0][0] == "draw":
        state.apply("draw bag")
        draws += 1
    assert draws == 2, "4 greens placed together draw 2 (O-rune-4)"


def test_ruling_o_summon_3_and_o_mask_1_the_first_egregor_wears_the_mask_unless_renegade():
    state = main_phase()
    set_pyramid(state, 0, runes(red=4))
    to_gallery(state, "Erebane")  # Renegade
    state.apply('summon "Erebane"')
    state.apply("with red1")
    assert state.mask[0] is None
    state.undo(), state.undo()
    to_gallery(state, "Syphus")
    state.apply('summon "Syphus"')
    state.apply("with red1")
    assert state.mask[0] == card(state, "Syphus")


def test_ruling_o_main_2_one_gain_per_turn():
    state = main_phase()
    set_pyramid(state, 0, runes(red=6))
    to_gallery(state, "Syphus")
    state.apply('summon "Syphus"')
    state.apply("with red1")
    assert not any(m.startswith(("summon", "capture")) for m in moves(state))


# ------------------------------------------------------------------------------ capture


def capture_table() -> OmegaState:
    """Seat 0 to move with 6 red, 3 blue; seat 1 holds Syphus (3 red 1 white 1 gold) and Belzu."""
    state = main_phase()
    set_pyramid(state, 0, runes(red=6, blue=3))
    give(state, 1, "Syphus", runes(red=3, white=1, gold=1))
    give(state, 1, "Belzu", runes(blue=1), mask=True)
    return state


def test_ruling_o_capture_1_reveal_more_runes_than_the_target_carries():
    state = capture_table()
    assert 'capture "Syphus"' in moves(state) and 'capture "Belzu"' not in moves(state), "Belzu is masked"
    state.apply('capture "Syphus"')
    firsts = moves(state)
    assert "with blue3" in firsts and "with blue2" in firsts, "blue2 is completed by 4 red"
    assert "with red6" in firsts and "with red5" not in firsts, "red is the last colour it has: 5 is too few"
    state.apply("with blue2")
    seconds = moves(state)
    assert "done" not in seconds and "add red3" not in seconds and "add red4" in seconds


def test_ruling_o_capture_2_immune_targets():
    state = capture_table()
    syphus = card(state, "Syphus")
    state.carried[syphus] = runes(red=8, white=1, gold=1)  # (a) 10 runes
    state.bag[RED] -= 5
    assert 'capture "Syphus"' not in moves(state)
    state.carried[syphus] = runes(red=3, white=1, gold=1)
    state.bag[RED] += 5
    state.lost[1] = True  # (d) lost one since his last turn
    assert 'capture "Syphus"' not in moves(state)
    state.lost[1] = False
    state.controlled[1].remove(card(state, "Belzu"))  # (c) his only Egregor
    assert 'capture "Syphus"' not in moves(state)


def test_ruling_o_capture_3_the_victim_loses_first_then_the_revealed_runes_are_placed():
    state = capture_table()
    before = list(state.pyramid[1])
    state.apply('capture "Syphus"')
    state.apply("with red6")
    syphus = card(state, "Syphus")
    assert state.carried[syphus] == runes(red=6), "only the revealed runes are on it"
    assert [a - b for a, b in zip(state.pyramid[1], before)] == runes(red=3, white=1, gold=1)
    assert state.known[1] == runes(red=3, white=1, gold=1), "the runes got back are seen by all"
    assert syphus in state.controlled[0] and state.prestige[0] == 1 and state.pyramid[0] == runes(blue=3)


def test_ruling_o_lose_1_keeps_exactly_the_snake_number_and_the_rest_goes_to_the_bag():
    state = main_phase()
    set_pyramid(state, 0, runes(red=9))
    set_pyramid(state, 1, runes())
    give(state, 1, "Caphra", runes(blue=3, gold=2, white=2))  # snake 2
    give(state, 1, "Belzu", runes(blue=1))
    bag_before = sum(state.bag)
    state.apply('capture "Caphra"')
    state.apply("with red8")
    assert state.current_player == 1, "the victim decides, inside the capturer's turn"
    assert moves(state) == ["keep blue", "keep gold"]
    state.apply("keep gold")
    assert state.current_player == 0, "the second keep has one choice, gold (kind order, D-omega-7): made for him"
    assert state.pyramid[1][GOLD] == 2 and state.known[1][GOLD] == 2 and state.pyramid[1][WHITE] == 2
    assert sum(state.bag) == bag_before + 3, "the 3 blue go back to the bag"
    caphra = card(state, "Caphra")
    assert caphra in state.controlled[0] and state.carried[caphra][RED] >= 8
    assert state.prestige[0] == 1 and state.lost[1], "O-capture-3 step 4 and O-capture-2 (d)"


def test_d_omega_2_a_forced_keep_is_made_for_the_victim():
    state = main_phase()
    set_pyramid(state, 0, runes(red=9))
    set_pyramid(state, 1, runes())
    give(state, 1, "Syphus", runes(blue=3, white=1))  # snake 4 > 3 others: all kept
    give(state, 1, "Belzu", runes(blue=1))
    state.apply('capture "Syphus"')
    state.apply("with red5")
    assert state.current_player == 0 and not state.todo, "no keep decision: every rune is kept"
    assert state.pyramid[1][BLUE] == 3 and state.known[1][BLUE] == 3


def test_ruling_o_lose_2_the_mask_returns_unplaced():
    state = main_phase()
    set_pyramid(state, 0, runes(red=9))
    give(state, 1, "Belzu", runes(blue=1))
    give(state, 1, "Syphus", runes(blue=1))
    state.mask[1] = card(state, "Belzu")
    state.active = 1  # seat 1's Main phase, after he gained Syphus
    state.gained = card(state, "Syphus")
    state.apply('disown "Belzu"')
    assert state.mask[1] is None and card(state, "Belzu") in state.discard


def test_ruling_o_end_4_no_capture_in_the_final_turn():
    state = capture_table()
    state.announcer = 1
    state.final = [0]
    assert not any(m.startswith("capture") for m in moves(state))


# ------------------------------------------------------------------------------ disown, end of the Main phase


def test_ruling_o_disown_1_only_after_a_gain_and_not_the_one_gained():
    state = main_phase()
    set_pyramid(state, 0, runes(red=4))
    give(state, 0, "Belzu", runes(red=1))
    to_gallery(state, "Syphus")
    assert not any(m.startswith("disown") for m in moves(state))
    state.apply('summon "Syphus"')
    state.apply("with red1")
    assert [m for m in moves(state) if m.startswith("disown")] == ['disown "Belzu"']
    state.apply('disown "Belzu"')
    assert not any(m.startswith("disown") for m in moves(state)), "one disown a turn"


def test_ruling_o_main_3_and_o_disown_2_a_fifth_egregor_must_be_disowned():
    state = main_phase()
    set_pyramid(state, 0, runes(red=4))
    for name in ("Belzu", "Caphra", "Aabor", "Gomor"):
        give(state, 0, name, runes(red=1))
    to_gallery(state, "Syphus")
    state.apply('summon "Syphus"')
    state.apply("with red1")
    assert "end" not in moves(state)
    state.apply('disown "Gomor"')
    assert "end" in moves(state)


# ------------------------------------------------------------------------------ rune powers


def test_ruling_o_rune_1_and_o_arcana_1_blue_moves_the_pawn_and_crossing_the_eye_takes_an_arcanum():
    state = main_phase()
    set_pyramid(state, 0, runes(blue=4))
    give(state, 0, "Belzu", runes(blue=1))
    state.pawn[0] = 6
    state.apply('place "Belzu" blue4')  # 8 squares: from square 7 past XII to 3
    assert state.pawn[0] == (6 + 8) % 12
    offered = moves(state)
    assert len(offered) == 6 and all(m.startswith("arcana ") for m in offered)
    top = state.arcana[2][-1]
    state.apply(offered[2])
    assert state.taken[0] == [top] and len(state.arcana[2]) == 6


def test_ruling_o_disc_2_one_move_may_cross_the_eye_twice():
    state = main_phase()
    set_pyramid(state, 0, runes(blue=7))
    give(state, 0, "Belzu", runes(blue=1))
    state.pawn[0] = 11
    state.apply('place "Belzu" blue7')  # 14 squares from XII
    assert state.pawn[0] == (11 + 14) % 12
    state.apply(moves(state)[0])
    assert state.todo and state.todo[0][0] == "arcana", "a second Arcanum"


def test_ruling_o_rune_2_red_proliferates_from_the_altar():
    state = main_phase()
    set_pyramid(state, 0, runes(red=2))
    give(state, 0, "Belzu", runes(red=7))
    set_altar(state, runes(red=3, blue=3))
    state.apply('place "Belzu" red2')
    assert moves(state) == ["proliferate", "skip"]
    state.apply("proliferate")
    belzu = card(state, "Belzu")
    assert state.carried[belzu][RED] == 10 and state.altar[RED] == 2
    assert not state.todo, "the second red cannot proliferate onto a full Egregor"


def test_ruling_d_omega_11_a_black_rune_taking_a_black_is_offered_only_while_it_changes_something():
    state = main_phase()
    set_pyramid(state, 0, runes(black=2))  # neither black known to the other player
    give(state, 1, "Belzu", runes(red=2, black=1))
    assert [m for m in moves(state) if m.startswith("black")] == ['black "Belzu" red', 'black "Belzu" black']
    state.apply('black "Belzu" black')  # shows one of seat 0's blacks: the only thing it does
    assert state.known[0] == runes(black=1) and state.pyramid[0] == runes(black=2)
    before = [state.observation(seat) for seat in (0, 1)]
    assert [m for m in moves(state) if m.startswith("black")] == ['black "Belzu" red']  # now it would do nothing
    with pytest.raises(IllegalMoveError):
        state.apply('black "Belzu" black')
    assert [state.observation(seat) for seat in (0, 1)] == before
    state.apply('black "Belzu" red')  # the known black goes first (O-hidden-2): the other is unknown again
    assert state.known[0] == runes(red=1) and 'black "Belzu" black' in moves(state)


def test_ruling_o_rune_5_a_pair_of_greens_on_two_egregors_draws_one():
    state = main_phase()
    set_pyramid(state, 0, runes(green=2))
    give(state, 0, "Belzu", runes(green=1))
    give(state, 0, "Caphra", runes(red=1))
    assert 'pair "Belzu" "Caphra"' in moves(state)
    state.apply('pair "Belzu" "Caphra"')
    assert state.todo and state.todo[0][0] == "draw"


def test_ruling_o_rune_9_to_o_rune_11_black_takes_a_rune_and_stays():
    state = main_phase()
    set_pyramid(state, 0, runes(black=2))
    give(state, 1, "Belzu", runes(red=2, white=1, black=1))
    give(state, 1, "Caphra", runes(blue=2, white=2))
    offered = [m for m in moves(state) if m.startswith("black")]
    assert offered == ['black "Belzu" red', 'black "Belzu" black'], "no white taken; 2 whites shut it out"
    state.apply('black "Belzu" red')
    belzu = card(state, "Belzu")
    assert state.carried[belzu] == runes(red=1, white=1, black=2) and state.pyramid[0] == runes(red=1, black=1)
    assert state.known[0][RED] == 1


def test_ruling_o_rune_13_no_black_on_your_own_egregors():
    state = main_phase()
    set_pyramid(state, 0, runes(black=2))
    give(state, 0, "Belzu", runes(red=2))
    assert not any(m.startswith(("black", "place")) for m in moves(state))


def test_ruling_o_place_1_and_o_place_3_colours_on_an_egregor():
    state = main_phase()
    set_pyramid(state, 0, runes(red=2, blue=2, gold=2))
    give(state, 0, "Belzu", runes(red=1, blue=1))
    give(state, 0, "Fyrral", runes(black=1))  # Primitive with only black: any one colour
    placed = moves(state)
    assert 'place "Belzu" gold1' not in placed and 'place "Belzu" red2' in placed
    assert {'place "Fyrral" red1', 'place "Fyrral" gold1'} <= set(placed)
    state.apply('place "Fyrral" gold1')
    assert 'place "Fyrral" red1' not in moves(state) and 'place "Fyrral" gold1' in moves(state)


# ------------------------------------------------------------------------------ Mask and powers


def test_d_omega_6_the_mask_moves_once_a_turn_and_never_to_a_renegade():
    state = main_phase()
    give(state, 0, "Belzu", runes(red=1), mask=True)
    give(state, 0, "Caphra", runes(red=1))
    give(state, 0, "Erebane", runes(red=1))
    assert [m for m in moves(state) if m.startswith("mask")] == ['mask "Caphra"']
    state.apply('mask "Caphra"')
    assert not any(m.startswith("mask") for m in moves(state))


def test_ruling_o_power_1_a_book_power_once_a_turn():
    state = main_phase()
    give(state, 0, "Ulvar", runes(red=1))  # Book: THRUST 2
    state.apply('power "Ulvar"')
    assert state.pawn[0] == 2 and 'power "Ulvar"' not in moves(state)


def test_ruling_o_power_2_lightning_is_optional_after_the_runes():
    state = main_phase()
    set_pyramid(state, 0, runes(red=1))
    set_altar(state, runes(blue=6))
    to_gallery(state, "Ishtor")  # Lightning: THRUST 4
    state.apply('summon "Ishtor"')  # one red: its runes are chosen for him (D-omega-2)
    assert moves(state) == ['power "Ishtor"', "skip"]
    state.apply('power "Ishtor"')
    assert state.pawn[0] == 4


def test_ruling_o_power_3_runic_cycling_takes_exactly_n_from_your_egregors():
    state = main_phase()
    set_pyramid(state, 0, runes())
    give(state, 0, "Belzu", runes(green=1, red=3))
    give(state, 0, "Nodo", runes(blue=1, white=2))  # Book CYCLE 2
    state.apply('power "Nodo"')
    assert moves(state) == ['cycle "Belzu" red', 'cycle "Belzu" green', 'cycle "Nodo" blue', 'cycle "Nodo" white']
    state.apply('cycle "Nodo" blue')
    assert not state.todo, "the second rune has one choice left (D-omega-2, D-omega-7)"
    assert state.pyramid[0] == runes(blue=1, white=1) and state.known[0] == runes(blue=1, white=1)


def test_ruling_o_card_1_a_coloured_cycling_takes_all_there_is_of_its_colour():
    state = main_phase()
    set_pyramid(state, 0, runes(red=3, green=1))
    to_gallery(state, "Ossia")  # Lightning: CYCLE 2 (green)
    state.apply('summon "Ossia"')
    state.apply("with red3")
    state.apply("add green1")
    state.apply('power "Ossia"')
    assert state.carried[card(state, "Ossia")] == runes(red=3) and state.pyramid[0][GREEN] == 1


def test_ruling_o_power_5_and_o_card_2_a_coloured_hand_of_fate_takes_the_altar_then_searches_the_bag():
    state = main_phase()
    set_pyramid(state, 0, runes(red=1))
    set_altar(state, runes(blue=1, red=5))
    to_gallery(state, "Lamyr")  # Lightning: FATE 2 (blue)
    state.apply('summon "Lamyr"')
    assert moves(state) == ["proliferate", "skip"], "the red placed comes first (D-omega-3)"
    state.apply("skip")
    bag = state.bag[BLUE]
    state.apply('power "Lamyr"')
    assert state.pyramid[0] == runes(blue=2) and state.known[0] == runes(blue=2), "found by colour: public"
    assert state.altar[BLUE] == 0 and state.bag[BLUE] == bag - 1


def test_ruling_o_power_6_and_o_power_7_summoning_keys():
    state = main_phase()
    give(state, 0, "Domra", runes(red=2), mask=True)  # Book KEY 3
    give(state, 0, "Eldrith", runes(red=1, blue=1))  # Book KEY 4
    stack_top(state, "Fenoch", "Fyrral", "Syphus", "Gomor", "Hesh", "Caphra", "Aabor")
    discard = len(state.discard)
    state.apply('power "Domra"')
    step = state.todo[0]
    assert step[0] == "key" and len(step[3]) == 7, "3 + 4 revealed: every available Key adds up"
    offered = moves(state)
    assert 'replace "Domra" "Syphus"' in offered and 'replace "Domra" "Fenoch"' not in offered, "a Key is never chosen"
    assert 'replace "Domra" "Fyrral"' in offered, "Domra's runes show one colour: a Primitive may take them"
    state.apply('replace "Domra" "Syphus"')
    assert 'replace "Eldrith" "Fyrral"' not in moves(state), "two colours do not go on a Primitive"
    state.apply('retain "Eldrith"')
    syphus = card(state, "Syphus")
    assert state.controlled[0][0] == syphus and state.carried[syphus] == runes(red=2) and state.mask[0] == syphus
    assert card(state, "Domra") in state.discard and len(state.discard) == discard + 1 + 6
    assert 'power "Eldrith"' not in moves(state), "both Keys counted as used"


# ------------------------------------------------------------------------------ endings and Judgment


def test_ruling_o_end_1_and_o_end_2_the_arcanic_ending_and_the_final_turns():
    state = main_phase(players=3)
    state.taken[0] = [0] * 7
    state.apply("end")
    assert state.announcer == 0 and state.current_player == 1
    for seat in (1, 2):
        while state.current_player == seat and not state.is_terminal():
            state.apply("end" if "end" in moves(state) else moves(state)[0])
    assert state.is_terminal() and state.active == 2, "the announcer does not play again"


def test_ruling_o_end_1_the_runic_ending():
    state = main_phase()
    for name in ("Belzu", "Caphra", "Aabor", "Gomor"):
        give(state, 0, name, runes(red=5, blue=5))
    state.apply("end")
    while state.todo:
        state.apply(moves(state)[0])
    assert state.announcer == 0


def test_d_omega_1_the_turn_limit_judges_the_board():
    state = main_phase(max_turns=1)
    state.apply("end")
    while state.todo:
        state.apply(moves(state)[0])
    assert state.is_terminal() and state.announcer is None and state.turns == 1


def test_ruling_o_judge_1_scoring():
    state = main_phase()
    give(state, 0, "Belzu", runes(gold=9, red=1))  # 10 runes: 12 points, 9 gold: 18
    give(state, 0, "Caphra", runes(white=2))  # 2 runes: 1 point
    state.prestige = [1, 1]
    state.taken[0] = [state.cards.arcanum_index("The Hermit"), state.cards.arcanum_index("The Tower")]
    state.taken[1] = [state.cards.arcanum_index("Wheel of Fortune")]
    assert state.score(0) == 12 + 1 + 18 + 5 + 5 + 3 and state.score(1) == 5 + 0
    state.prestige = [0, 0]
    assert state.score(1) == 0, "no Prestige token, no bonus"


def test_ruling_o_judge_2_tie_breaks():
    state = main_phase()
    give(state, 0, "Belzu", runes(red=2))  # 1 point, 2 runes
    give(state, 1, "Caphra", runes(red=1))  # 0 points
    state.taken[1] = [state.cards.arcanum_index("The Moon")]  # 1 point, 1 rune: tied on points
    assert state.scores() == (1, 1) and state.returns() == (1.0, 0.0), "more runes carried wins"
    state.carried[card(state, "Caphra")][RED] = 2  # 2 points, 2 runes
    state.taken[0] = [state.cards.arcanum_index("The Moon")]  # 2 points each, 2 runes each
    assert state.scores() == (2, 2) and state.returns() == (0.5, 0.5), "and then the win is shared"
    state.taken[1].append(state.cards.arcanum_index("The Magician"))
    state.taken[0].append(state.cards.arcanum_index("The Lovers"))
    state.carried[card(state, "Caphra")][RED] = 1
    assert state.scores() == (5, 3)


def test_ruling_o_card_3_to_o_card_5_variable_arcana():
    state = main_phase()
    give(state, 0, "Belzu", runes(blue=3, black=2))
    give(state, 0, "Caphra", runes(white=1, green=2))
    set_pyramid(state, 0, runes(black=2))
    a = state.cards.arcanum_index
    state.taken[0] = [a("Wheel of Fortune"), a("Wheel of Fortune"), a("The World"), a("The Hanged Man"),
                      a("The Chariot"), a("Temperance"), a("The High Priestess")]
    assert state.arcana_points(0) == 3 + 3 + 4 + 2 + 3 + 2 + 1


# ------------------------------------------------------------------------------ hidden information


def test_ruling_o_hidden_1_to_3_what_an_observation_shows():
    state = main_phase()
    set_pyramid(state, 1, runes(red=3, gold=2), known=runes(red=1))
    seen = state.observation(0)
    assert seen["players"][1]["pyramid"] == {"known": {"red": 1}, "hidden": 4, "size": 5}
    assert state.observation(1)["players"][1]["pyramid"] == {"runes": {"gold": 2, "red": 3}, "known": {"red": 1},
                                                              "size": 5}  # he knows what the others have seen
    assert seen["stack"] == len(state.stack) and all(set(a) == {"stack", "top", "height"} for a in seen["arcana"])
    assert "bag" in seen and isinstance(seen["bag"], int), "the bag by its size only"


def test_ruling_o_hidden_2_a_rune_leaves_from_the_known_part_first():
    state = main_phase()
    set_pyramid(state, 0, runes(red=3), known=runes(red=1))
    give(state, 0, "Belzu", runes(red=1))
    state.apply('place "Belzu" red1')
    assert state.known[0][RED] == 0 and state.pyramid[0][RED] == 2


@settings(max_examples=6, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_runes_egregors_and_arcana_are_conserved_and_every_egregor_keeps_its_limits(players, seed):
    state = random_game(players, seed, invariants)
    assert state.is_terminal() and sum(state.returns()) == pytest.approx(1.0)


@settings(max_examples=5, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), cut=st.integers(1, 200))
def test_an_observation_does_not_depend_on_what_the_seat_cannot_see(players, seed, cut):
    """Another seat's unknown runes swapped for bag runes of other kinds change nothing it shows."""
    state = OmegaState.new(seed, config=Config(players=players))
    rng = Rng(seed)
    while not state.is_terminal() and state.ply < cut:
        legal = state.legal_moves()
        state.apply_trusted(legal[rng.below(len(legal))])
    viewer, other = 0, 1
    seen = state.observation(viewer)
    unknown = [p - k for p, k in zip(state.pyramid[other], state.known[other])]
    swap = next(((a, b) for a in range(6) for b in range(6) if a != b and unknown[a] and state.bag[b]), None)
    if swap is None:
        return
    a, b = swap
    state.pyramid[other][a] -= 1
    state.bag[a] += 1
    state.pyramid[other][b] += 1
    state.bag[b] -= 1
    assert state.observation(viewer) == seen


# ------------------------------------------------------------------------------ moves, cards, command line


@pytest.mark.parametrize("text", ['summon "Khep"', "with green2", "add white10", "done", 'place "Nodo" red3',
                                  'pair "Nodo" "Khep"', 'black "Khep" black', 'arcana "The Hermit" 3',
                                  "draw bag", "draw red", 'replace "Domra" "Syphus"', 'retain "Domra"', "keep gold"])
def test_the_notation_round_trips(text):
    assert str(Move.parse(text)) == text


@pytest.mark.parametrize("text", ["summon Khep", "with green0", "with green11", "with purple2", "draw", 'keep "red"',
                                  "arcana 3", "fly", ""])
def test_bad_notation_is_refused(text):
    with pytest.raises(NotationError):
        Move.parse(text)


def test_apply_refuses_an_illegal_move_and_changes_nothing():
    state = main_phase()
    before = state.observation(0)
    with pytest.raises(IllegalMoveError, match="ply 1"):
        state.apply('summon "Nobody"')
    assert state.observation(0) == before


def test_the_seed_edition_marks_what_is_printed():
    cards = default_cards()
    assert cards.sources() == {"printed": 0, "partly printed": 4, "designed": 59}
    assert [e.name for e in cards.egregors if e.source == "partly printed"] == ["Nodo", "Khep", "Syphus", "Pysos"]
    assert cards.runes == (25, 25, 37, 28, 22, 18) and cards.runes_source == "printed"


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace('ruleset = "omega"', 'ruleset = "heir"'), "ruleset"),
    (lambda t: t.replace("squares = 12", "squares = 1"), "squares"),
    (lambda t: t.replace('power = "cycle"\nn = 2', 'power = "cycle"\nn = 0', 1), "'n'"),
    (lambda t: t.replace('name = "Khep"', 'name = "Nodo"'), "duplicate"),
    (lambda t: t.replace("points = 2\n", "points = 2\ncounts = \"gold\"\n", 1), "points"),
    (lambda t: t.replace('tag = "renegade"', 'tag = "rebel"', 1), "rebel"),
    (lambda t: t.replace("red = 37", "red = 0").replace("green = 28", "green = 0").replace("blue = 25", "blue = 0")
     .replace("gold = 25", "gold = 0").replace("white = 22", "white = 1").replace("black = 18", "black = 20"),
     "at least 26 runes"),  # the set-up would run the bag dry
])
def test_a_bad_card_file_is_refused_naming_the_field(edit, words):
    from omen_search.cardfiles import builtin_card_text

    with pytest.raises(CardDataError, match=words):
        parse_cards(edit(builtin_card_text("omega-seed.toml")), "bad.toml")


def test_play_every_player_count_from_the_command_line(capsys):
    for count in (2, 3, 4):
        status, out, err = run(capsys, "play", "--game", "omega", "--players-count", str(count), "--players",
                               ",".join(["random"] * count), "--seed", "4", "--json")
        result = json.loads(out)
        assert status == 0 and len(result["scores"]) == count and result["winner"] in (None, *range(count))


def test_players_count_is_checked(capsys):
    assert_one_line_error(*run(capsys, "play", "--game", "omega", "--players-count", "5"), "--players-count", "2, 3 or 4")
    assert_one_line_error(*run(capsys, "play", "--game", "omega", "--engine", "nonsense"), "--engine")
    assert run(capsys, "play", "--game", "omega", "--engine", "core", "--seed", "3")[0] == 0  # both engines play it


def test_a_record_replays_and_the_cards_command_marks_designed_items(capsys, tmp_path):
    path = tmp_path / "g.json"
    assert run(capsys, "play", "--game", "omega-3", "--players", "random,greedy,random", "--record", str(path),
               "--json")[0] == 0
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0 and "all" in out
    status, out, _ = run(capsys, "cards", "--game", "omega")
    assert status == 0 and "* V      The Hierophant" in out and "+ Nodo" in out


def test_a_game_of_one_count_refuses_another_counts_configuration():
    with pytest.raises(UsageError):
        get_game("omega").new_initial_state(1, config=Config(players=3))


def test_the_board_view_shows_an_opponents_known_runes_and_hides_the_rest():
    state = main_phase()
    set_pyramid(state, 1, runes(red=3, gold=2), known=runes(red=1))
    give(state, 1, "Belzu", runes(blue=2), mask=True)
    game = get_game("omega")
    seat = next(s for s in game.view(game.observe(state, 0))["seats"] if s["seat"] == 1)
    piles = {p["name"]: p for p in seat["piles"]}
    assert [(c["name"], c["count"], c["tags"]) for c in piles["pyramid"]["cards"]] == [("red", 1, ["known"])]
    assert piles["pyramid"]["hidden"] == 4
    assert piles["egregors"]["cards"][0]["name"] == "Belzu" and "mask" in piles["egregors"]["cards"][0]["tags"]
    own = next(s for s in game.view(game.observe(state, 1))["seats"] if s["seat"] == 1)
    assert {c["name"]: c["count"] for c in own["piles"][1]["cards"]} == {"red": 3, "gold": 2}


def test_every_legal_move_is_a_distinct_line_of_steps():
    game = get_game("omega-4")
    state = OmegaState.new(5, config=Config(players=4))
    rng = Rng(5)
    while not state.is_terminal():
        legal = state.legal_moves()
        steps = [game.move_steps(m) for m in legal]
        assert len(set(steps)) == len(steps) and all(s[0] == m.verb for s, m in zip(steps, legal))
        state.apply_trusted(legal[rng.below(len(legal))])


# ------------------------------------------------------------------------------ observations read back


@pytest.mark.parametrize("name", ["omega", "omega-3", "omega-4"])
def test_an_observation_reads_back_as_a_position_the_seat_sees_the_same(name):
    """What advise searches from: a state dealt from an observation alone shows its seat the same
    observation and the same legal moves, on the reference engine and copied to the core."""
    game = get_game(name)
    for seed in (1, 2):
        state = game.new_initial_state(seed, engine="reference")
        rng = Rng(seed)
        while not state.is_terminal():
            if state.ply % 5 == 0:
                seen = game.observe(state, state.current_player)
                rebuilt, seat = game.from_observation(json.dumps(seen), root="obs")
                assert seat == state.current_player and game.observe(rebuilt, seat) == seen
                assert rebuilt.legal_moves() == state.legal_moves()
                assert game.observe(game.to_core(rebuilt), seat) == seen
            legal = state.legal_moves()
            state.apply_trusted(legal[rng.below(len(legal))])


def example_observation() -> dict:
    from pathlib import Path

    return json.loads((Path(__file__).parent.parent / "docs" / "examples" / "omega-observation.json").read_text())


@pytest.mark.parametrize("edit, words", [
    (lambda o: o.update(bag=o["bag"] + 1), "obs.bag"),
    (lambda o: o.update(stack=o["stack"] - 1), "obs.stack"),
    (lambda o: o["gallery"].append("Nobody"), "obs.gallery[4]: unknown Egregor 'Nobody'"),
    (lambda o: o["arcana"][0].update(height=o["arcana"][0]["height"] + 2), "obs.arcana"),
    (lambda o: o["players"][1]["pyramid"].update(hidden=-1), "obs.players[1].pyramid.hidden"),
    (lambda o: o["players"][0]["pyramid"].update(known={"gold": 2}), "obs.players[0].pyramid.known"),
    (lambda o: o.update(to_move=1), "obs.to_move"),
    (lambda o: o["queue"].append({"kind": "fly", "seat": 0}), "obs.queue[0].kind"),
])
def test_an_observation_that_does_not_add_up_is_refused_naming_the_field(edit, words):
    from omen_search.errors import FormatError

    observation = example_observation()
    edit(observation)
    with pytest.raises(FormatError, match=words.replace("[", r"\[").replace("]", r"\]")):
        get_game("omega").from_observation(observation, root="obs")


def test_advise_gives_the_score_outlook_of_the_best_move(capsys):
    """The core's tracker: after the best move, the mean final totals of the player and of his best
    opponent over that move's iterations, whose difference is the move's point margin (the same
    iterations), and the turns the game still takes."""
    status, out, err = run(capsys, "advise", "--observation", "docs/examples/omega-observation.json",
                           "--iterations", "2000", "--json")
    advice = json.loads(out)
    (outlook,) = advice["score_outlook"]
    assert status == 0 and set(outlook) == {"score", "best_opponent", "turns_left"}
    assert outlook["score"] - outlook["best_opponent"] == pytest.approx(advice["moves"][0]["vp_margin"], abs=1e-3)
    observation = example_observation()
    assert 0 <= outlook["turns_left"] <= observation["max_turns"] - observation["turn"]
    status, out, err = run(capsys, "advise", "--observation", "docs/examples/omega-observation.json",
                           "--iterations", "2000")
    assert f"after the best move: final total {outlook['score']:.1f} against the best opponent's" in out
    assert "point margin" in out.splitlines()[1] and "VP" not in out  # OMEGA scores Judgment points


def test_advise_ranks_the_moves_of_a_hand_written_observation(capsys):
    status, out, err = run(capsys, "advise", "--observation", "docs/examples/omega-observation.json",
                           "--iterations", "2000", "--json")
    advice = json.loads(out)
    assert status == 0 and advice["pov"] == 0 and len(advice["moves"]) >= 3
    assert all(0 <= m["win_prob"] <= 1 for m in advice["moves"])
    legal = {str(m) for m in get_game("omega").from_observation(example_observation())[0].legal_moves()}
    assert {m["move"] for m in advice["moves"]} <= legal
