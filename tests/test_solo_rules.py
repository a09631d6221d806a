"""The Corrupted Heir solo game: one test per ruling (``S-…`` in shared/rules/corrupted-heir-solo.md,
``D-solo-…`` in docs/rulings.md), a scripted automaton turn, and the solo game's invariants.

Each test runs on both engines (the reference and the Cython core). The player is seat 0 (Anubis),
the Heir seat 1 (Horus). A position loaded in the Heir's turn runs the automaton's whole turn up to
the player's next decision, so each test reads the automaton's steps from what they left behind:
the deck order is chosen so that every step leaves its own mark.
"""

from __future__ import annotations

from collections import Counter

import pytest

from omen_search.engines import new_game
from omen_search.positions import observe
from omen_search.reference.state import LEVELS, Config
from positions_helper import decision, discard, moves, play, position, side, view

CH, PLAYER = 1, 0
SOLO = {"level": "normal", "gods": ["anubis", "horus"]}


@pytest.fixture(autouse=True, params=["reference", "core"])
def engine(request):
    """Every ruling is checked on both engines."""
    import positions_helper

    positions_helper.ENGINE["name"] = request.param
    yield request.param
    positions_helper.ENGINE["name"] = "reference"


def heir_turn(*, treasury: int = 0, level: str = "normal", heir: dict | None = None, phase: str = "wealth_reveal",
              **kwargs):
    """A solo position at the start of the Heir's turn (or of ``phase``), with ``treasury`` coins on its
    card and the rest of its seven in the reserve; the player holds a card so its turn stops at once."""
    players = kwargs.pop("players", None) or ({"hand": ["Temple Servant"]}, {})
    players = [dict(p) for p in players]
    players[CH] = {"coins": treasury, "hand": [], **(heir or {}), **players[CH]}
    return position(active=CH, phase=phase, favor=kwargs.pop("favor", "anubis"), config={**SOLO, "level": level},
                    heir_reserve=7 - treasury, players=players, turn=kwargs.pop("turn", 3), first_turn=False,
                    **kwargs)


def heir_side(state, city: int) -> Counter:
    return side(state, city, CH)


# ================================================================================ set-up and coins


@pytest.mark.parametrize("level, start", [("novice", 0), ("normal", 0), ("hard", 1), ("brutal", 2)])
def test_ruling_s_level_1_treasury_at_the_start_and_after_the_first_wealth(engine, level, start):
    """The treasury starts at 0, 0, 1, 2; the first Wealth adds a coin except at novice."""
    state = new_game(engine, seed=5, config=Config(level=level))
    assert state.turn == 2 and state.current_player == PLAYER, "the Heir took the first turn"
    after_first = start + (0 if level == "novice" else 1)
    assert state.coins[CH] == after_first and view(state)["heir_reserve"] == 7 - after_first


def test_ruling_s_level_1_the_treasury_never_exceeds_7(engine):
    state = heir_turn(treasury=7, deck_top=["Temple Servant", "Sunset Marauder", "Temple Servant"])
    assert state.coins[CH] == 7 and view(state)["heir_reserve"] == 0


def test_ruling_s_coins_1_the_reserve_comes_out_of_the_supply(engine):
    state = new_game(engine, seed=2, config=Config(level="hard"))
    v = view(state)
    assert state.coins[PLAYER] == 4
    assert state.coins[CH] + v["heir_reserve"] == 7
    assert state.supply() == 9  # 20 less the player's 4 and the Heir's 7


def test_ruling_d_solo_coins_1_the_heirs_seven_coins_never_return_to_the_supply(engine):
    from omen_search.bots import RandomBot

    for seed in range(6):
        state = new_game(engine, seed=seed, config=Config(level=LEVELS[seed % 4]))
        bot = RandomBot(seed)
        while not state.is_terminal():
            reserve = view(state)["heir_reserve"]
            assert state.coins[CH] + reserve == 7
            assert state.coins[PLAYER] + state.coins[CH] + reserve + state.supply() == 20
            state.apply(bot.choose(state))


def test_ruling_d_solo_hand_1_the_heir_never_holds_a_card(engine):
    """The Heir has no hand, whatever the player's cards do (an "opponent discards" finds nothing)."""
    from omen_search.bots import RandomBot

    for seed in range(6):
        state = new_game(engine, seed=seed, config=Config(level="normal"))
        bot = RandomBot(seed + 100)
        while not state.is_terminal():
            assert state.hand_size(CH) == 0
            assert decision(state) is None or decision(state)[1] == PLAYER, "only the player decides"
            state.apply(bot.choose(state))


def test_ruling_d_solo_hand_1_opponent_discards_finds_nothing(engine):
    """Moonfall Conscripts' REINFORCE (the opponent discards 1) in the player's turn: no decision
    for the Heir, nothing taken, and the player's turn goes on."""
    state = position(active=PLAYER, phase="surge", favor="anubis", config=SOLO, heir_reserve=7,
                     players=({"coins": 10, "hand": ["Moonfall Conscripts", "Temple Servant"]}, {"coins": 0}))
    before = Counter(discard(state))
    play(state, 'play "Moonfall Conscripts" city0')
    while decision(state) is not None and decision(state)[0] != "surge":
        play(state, moves(state)[0])  # the REINFORCE's own choices, if any, are the player's
        assert decision(state) is None or decision(state)[1] == PLAYER
    assert state.hand_size(CH) == 0 and Counter(discard(state)) >= before
    assert decision(state) == ("surge", PLAYER)


# ===================================================================================== Wealth


def test_ruling_s_place_1_wealth_unit_of_the_heirs_god_goes_to_the_omen_city(engine):
    state = heir_turn(deck_top=["Remembered Soul", "Sunset Marauder"])
    assert heir_side(state, 0) == Counter({"Remembered Soul": 1})


def test_ruling_s_omen_1_the_omen_token_stays_on_the_leftmost_city(engine):
    """Late in the game the first unit still goes to city 0 (the token never moves)."""
    state = heir_turn(turn=15, deck_top=["Opal Statuary", "Sunset Marauder"])
    assert heir_side(state, 0) == Counter({"Opal Statuary": 1})


def test_wealth_reveal_of_another_god_is_discarded(engine):
    state = heir_turn(deck_top=["Obsidian Statuary", "Sunset Marauder"])
    assert all(not heir_side(state, c) for c in range(3))
    assert discard(state)[:2] == ["Obsidian Statuary", "Sunset Marauder"]


TILES = ["Great Scouring", "Condemned to Toil", "Royal Treasury", "Scribes of Thoth", "Desecration",
         "Solar Eclipse", "Sandstorm", "Procession of the Dead", "Divine Mandate"]


def test_ruling_d_solo_place_1_wealth_unit_skips_a_city_without_tiles(engine):
    state = heir_turn(city_tiles=([], TILES[3:6], TILES[6:]), deck_top=["Remembered Soul", "Sunset Marauder"],
                      players=({"hand": ["Temple Servant"], "unused_tiles": TILES[:3]}, {}))
    assert not heir_side(state, 0) and heir_side(state, 1) == Counter({"Remembered Soul": 1})


def test_ruling_d_solo_place_1_wealth_unit_skips_a_full_city(engine):
    """The Heir's side of the Omen city holds 5 units: the unit goes to city 1 (then city 0 is
    war-torn and the Heir wins it, keeping one of its Marauders)."""
    full = ((), ("Sunset Marauder", "Sunset Marauder", "Sunset Marauder", "Rabid Usurper"))
    state = heir_turn(cities=(full, ((), ()), ((), ())), deck_top=["Remembered Soul", "Sunset Marauder"])
    assert heir_side(state, 1) == Counter({"Remembered Soul": 1})
    assert "Remembered Soul" not in heir_side(state, 0)


# ====================================================================================== Surge


def test_ruling_s_surge_1_the_discount_applies_once(engine):
    """Budget 4: Opal Statuary costs 2 (discounted), then Remembered Soul costs 3, not 2: 2 + 3 > 4."""
    state = heir_turn(treasury=3, deck_top=["Sunset Marauder", "Opal Statuary", "Remembered Soul", "Temple Servant"])
    assert state.coins[CH] == 4, "Wealth added a coin: the budget is 4"
    assert heir_side(state, 0) == Counter({"Opal Statuary": 1})
    assert not heir_side(state, 1), "with a second discount Remembered Soul would fit the budget"
    assert "Remembered Soul" in discard(state)


def test_ruling_s_surge_1_costs_are_not_spent(engine):
    state = heir_turn(treasury=3, deck_top=["Sunset Marauder", "Temple Servant", "Temple Servant", "Gilded Taskmaster"])
    assert heir_side(state, 0) == Counter({"Temple Servant": 1}) and heir_side(state, 1) == Counter({"Temple Servant": 1})
    assert state.coins[CH] == 4, "the treasury keeps its coins"


def test_ruling_s_surge_2_the_card_that_exceeds_the_budget_is_discarded_and_the_surge_ends(engine):
    """Budget 2: Temple Servant (2) fits; Sunlight Channeller (0 after the discount) would fit too,
    but Rabid Usurper comes first and exceeds it, so the Surge ends there."""
    state = heir_turn(treasury=1, deck_top=["Sunset Marauder", "Temple Servant", "Rabid Usurper", "Sunlight Channeller",
                                            "Temple Servant"])
    assert heir_side(state, 0) == Counter({"Temple Servant": 1})
    assert all(not heir_side(state, c) for c in (1, 2)), "nothing after the exceeding card is placed"
    assert "Rabid Usurper" in discard(state)
    assert view(state)["players"][CH]["under"] != [], "the Offering came next (Sunlight Channeller: 2 beneath)"


def test_ruling_s_place_1_surge_units_go_left_to_right_wrapping(engine):
    state = heir_turn(treasury=6, deck_top=["Sunset Marauder", "Forgotten Pharaoh", "Fallen Archivist",
                                            "Forgotten Pharaoh", "Fallen Archivist", "Gilded Taskmaster", "Temple Servant"])
    # Wealth: treasury 7. Surge: 1 (discount: 0) + 1 + 1 + 1 = 3, then Gilded Taskmaster (4): 7, fits.
    assert heir_side(state, 0) == Counter({"Forgotten Pharaoh": 1, "Fallen Archivist": 1})
    assert heir_side(state, 1) == Counter({"Fallen Archivist": 1, "Gilded Taskmaster": 1})
    assert heir_side(state, 2) == Counter({"Forgotten Pharaoh": 1})


def test_ruling_s_place_1_surge_skips_cities_without_tiles(engine):
    state = heir_turn(treasury=6, city_tiles=(TILES[:3], [], TILES[6:]),
                      deck_top=["Sunset Marauder", "Temple Servant", "Temple Servant", "Gilded Taskmaster"],
                      players=({"hand": ["Temple Servant"], "used_tiles": TILES[3:6]}, {}))
    # Wealth: treasury 7. Surge: Temple Servant (2) to city 0; city 1 has no tiles, so the next
    # Temple Servant (2) goes to city 2; Gilded Taskmaster (3 with the discount: 7 in all) wraps to city 0.
    assert heir_side(state, 0) == Counter({"Temple Servant": 1, "Gilded Taskmaster": 1})
    assert not heir_side(state, 1)
    assert heir_side(state, 2) == Counter({"Temple Servant": 1})


def test_ruling_d_solo_surge_1_a_card_with_no_city_is_discarded_and_ends_the_surge(engine):
    """Every city is full: the first Surge card fits the budget but finds no city, so it is
    discarded and the Surge ends (the next card stays on the deck for the Offering)."""
    cities = (((), ("Rabid Usurper", "Rabid Usurper", "Sunset Marauder")),
              ((), ("Rabid Usurper", "Rabid Usurper", "Sunset Marauder")),
              ((), ("Sunset Marauder", "Sunset Marauder", "Sunset Marauder", "Sunfall Conscripts")))
    state = heir_turn(treasury=6, cities=cities,
                      deck_top=["Gifted Taskmaster", "Temple Servant", "Forgotten Pharaoh", "Sunlight Channeller"])
    assert "Temple Servant" in discard(state), "it fit the budget (2 of 7) but no city had room"
    assert "Forgotten Pharaoh" in discard(state), "the Offering revealed the next card"
    assert view(state)["players"][CH]["under"] == ["Sunlight Channeller"], "Forgotten Pharaoh's strength 1"


def test_structure_completion_places_the_strongest_card_beneath_and_discards_the_rest(engine):
    under = ["Opal Statuary", "Sunlight Channeller", "Temple Servant", "Temple Servant", "Sunset Marauder"]
    state = heir_turn(heir={"building": "Monument to the Sun", "under": under},
                      deck_top=["Obsidian Statuary", "Sunset Marauder", "Temple Servant", "Sunset Marauder"])
    v = view(state)["players"][CH]
    assert "Monument to the Sun" in v["completed"]
    assert heir_side(state, 0) == Counter({"Opal Statuary": 1})
    assert Counter(discard(state)) >= Counter(["Sunlight Channeller", "Temple Servant", "Temple Servant"])


# ======================================================================================== War


CH_WINS = (("Temple Servant", "Temple Servant", "Temple Servant"),
           ("Opal Statuary", "Sunlight Channeller", "Remembered Soul"))


def test_ruling_d_solo_keep_1_the_winning_heir_keeps_its_strongest_unit(engine):
    state = heir_turn(phase="war", cities=(CH_WINS, ((), ()), ((), ())))
    assert heir_side(state, 0) == Counter({"Opal Statuary": 1})
    assert len(view(state)["players"][CH]["unused_tiles"]) == 1, "the Heir took the tile"
    assert decision(state) == ("keep", PLAYER)


def test_ruling_d_solo_keep_1_strength_then_cost(engine):
    """The losing Heir keeps two units: every pair has strength 4, the greatest cost wins."""
    player_wins = (("Rabid Usurper", "Obsidian Statuary", "Moonlight Channeller"),
                   ("Remembered Soul", "Sunlight Channeller", "Sunset Marauder"))
    state = heir_turn(phase="war", cities=(player_wins, ((), ()), ((), ())))
    assert heir_side(state, 0) == Counter({"Remembered Soul": 1, "Sunset Marauder": 1})
    assert "Sunlight Channeller" in discard(state)


def test_ruling_d_solo_war_1_war_torn_cities_are_resolved_left_to_right(engine):
    ch_wins_too = (("Forgotten Pharaoh", "Fallen Archivist", "Forgotten Pharaoh"), CH_WINS[1])
    state = heir_turn(phase="war", cities=(((), ()), CH_WINS, ch_wins_too))
    assert decision(state) == ("keep", PLAYER) and state.pending.city == 1
    play(state, "pass")  # the player keeps nothing in city 1
    assert decision(state) == ("keep", PLAYER) and state.pending.city == 2


# ==================================================================================== Offering


def test_offering_builds_the_smallest_structure_with_as_many_cards_as_the_strength(engine):
    state = heir_turn(phase="offering", deck_top=["Opal Statuary", "Temple Servant", "Sunset Marauder",
                                                  "Temple Servant", "Forgotten Pharaoh"])
    v = view(state)["players"][CH]
    assert v["building"] == "Monument to the Sun"
    assert Counter(v["under"]) == Counter({"Temple Servant": 2, "Sunset Marauder": 1})
    assert "Opal Statuary" in discard(state), "the revealed card is discarded"


def test_ruling_d_solo_offer_1_with_every_structure_complete_nothing_is_revealed(engine):
    done = ["Monument to the Sun", "Temple of Light", "Tomb of Rebirth"]
    state = heir_turn(phase="offering", heir={"completed": done}, deck_top=["Opal Statuary", "Temple Servant"])
    assert "Opal Statuary" not in discard(state)
    assert state.is_terminal(), "all three structures complete: the game ends this turn"


# ============================================================================ a scripted turn


def test_scripted_heir_turn_step_by_step(engine):
    """One whole turn from a known deck, every step leaving its mark:
    Wealth: a coin (treasury 3 -> 4), Remembered Soul (Horus) free into the Omen city;
    Surge (budget 4): Opal Statuary (3, discounted to 2) into city 0, Temple Servant (2: 4 in all)
    into city 1, Sunset Marauder (3: 7 > 4) discarded, the Surge ends;
    structure: Monument to the Sun has 5 beneath, so it completes: Obsidian Statuary (strength 3)
    goes to the Omen city, the other four are discarded;
    War: city 1 is war-torn (the player has 3 units there); strength 3 against 3, printed cost 6
    against 3: the Heir takes the top tile and keeps its strongest unit; then the player keeps two;
    Offering: Fallen Archivist (strength 1) discarded, one card (Temple Servant) beneath Temple of Light."""
    under = ["Obsidian Statuary", "Sunlight Channeller", "Temple Servant", "Forgotten Pharaoh", "Fallen Archivist"]
    city1 = (("Forgotten Pharaoh", "Forgotten Pharaoh", "Fallen Archivist"), ("Gilded Taskmaster",))
    state = heir_turn(treasury=3, heir={"building": "Monument to the Sun", "under": under},
                      cities=(((), ()), city1, ((), ())), city_tiles=(3, 3, 3),
                      deck_top=["Remembered Soul", "Opal Statuary", "Temple Servant", "Sunset Marauder",
                                "Fallen Archivist", "Temple Servant", "Moonlight Channeller"])
    v = view(state)
    heir = v["players"][CH]
    assert state.coins[CH] == 4 and v["heir_reserve"] == 3  # Wealth
    assert heir_side(state, 0) == Counter({"Remembered Soul": 1, "Opal Statuary": 1, "Obsidian Statuary": 1})
    assert "Sunset Marauder" in discard(state)  # the Surge ended on it
    assert "Monument to the Sun" in heir["completed"]  # the completion, and the four others discarded
    assert Counter(discard(state)) >= Counter(["Sunlight Channeller", "Temple Servant", "Forgotten Pharaoh",
                                               "Fallen Archivist"])
    assert heir_side(state, 1) == Counter({"Gilded Taskmaster": 1}), "kept its strongest (2, cost 4)"
    assert "Temple Servant" not in heir_side(state, 1)
    assert len(heir["unused_tiles"]) == 1 and len(v["city_tiles"][1]) == 2
    assert decision(state) == ("keep", PLAYER) and state.pending.city == 1  # the war waits for the player
    assert heir["building"] is None and heir["under"] == []  # no Offering yet
    play(state, "pass")
    heir = view(state)["players"][CH]
    assert heir["building"] == "Temple of Light" and heir["under"] == ["Temple Servant"]  # the Offering
    assert "Fallen Archivist" in discard(state)
    assert state.current_player == PLAYER and state.turn == 4


# ===================================================================== chance and information


def test_the_heirs_tie_breaks_come_from_the_game_seed(engine):
    """The same seed gives the same game; the whole solo game is reproducible."""
    from omen_search.bots import RandomBot

    def game(seed):
        state = new_game(engine, seed=seed, config=Config(level="brutal"))
        bot, trail = RandomBot(7), []
        while not state.is_terminal():
            move = bot.choose(state)
            trail.append(str(move))
            state.apply(move)
        return trail, state.scores()

    assert game(11) == game(11)
    assert game(11) != game(12)


def test_solo_determinisation_keeps_the_players_view_and_varies_the_hidden_cards(engine):
    if engine != "core":
        pytest.skip("determinisation is a core operation")
    state = new_game("core", seed=4, config=Config(level="hard"))
    for _ in range(30):
        state.apply(state.legal_moves()[0])
    seen = observe(state, PLAYER)
    decks = set()
    for seed in range(12):
        world = state.determinized(PLAYER, seed)
        assert observe(world, PLAYER) == seen
        decks.add(tuple(view(world)["deck"]))
    assert len(decks) > 1, "the deck order is re-dealt"


def test_solo_play_from_the_command_line(capsys, engine):
    import json

    from omen_search.cli import main

    if engine != "core":
        pytest.skip("the command line plays on the core")
    assert main(["play", "--game", "heir-solo", "--players", "ismcts:iterations=200", "--level", "hard",
                 "--seed", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["players"] == ["ismcts:iterations=200", "corrupted-heir"] and result["winner"] in (0, 1)
