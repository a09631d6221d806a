"""The Grand Melee (``reign-of-war-melee``): its rulings on both engines, and the core against the
reference engine move for move.

Each ruling test starts from a decision just before the rule and lets each engine apply it.
``OMEN_MELEE_GAMES`` (20 by default; 2,000 for a long run) sets how many seeded random Grand Melees the differential test
plays on both engines (each is a draft and four table games, about 750 plies).
"""

from __future__ import annotations

import json
import os

import pytest

from omen_search._reign_core import MeleeCore
from omen_search.errors import IllegalMoveError, UsageError
from omen_search.game import get_game
from omen_search.games.melee.reference import MeleeState
from omen_search.games.melee.rules import DRAFT_ORDER, DRAFT_PICKS, DRAFTS, SDRAFT_PICKS, TABLE_COINS, MeleeConfig
from omen_search.games.reign.cards import default_cards
from omen_search.rng import Rng
from omen_search.search import Limit, ismcts

MELEE_GAMES = int(os.environ.get("OMEN_MELEE_GAMES", "20"))
ENGINES = ("reference", "core")
MELEE = get_game("reign-of-war-melee")
CARDS = default_cards()


def new(engine: str, seed: int, config: MeleeConfig | None = None):
    return MELEE.new_initial_state(seed, engine=engine, config=config)


def walk(state, seed: int, until=lambda s: False):
    """Random moves (``Rng(seed)``) until the game ends or ``until(state)`` holds; the moves played."""
    rng = Rng(seed)
    played = []
    while not state.is_terminal() and not until(state):
        moves = state.legal_moves()
        played.append(moves[rng.below(len(moves))])
        state.apply(played[-1])
    return played


def both(seed: int, until=lambda s: False):
    """The same random Grand Melee on both engines, walked until ``until`` holds on the reference."""
    ref = new("reference", seed)
    played = walk(ref, seed, until)
    core = new("core", seed)
    for move in played:
        core.apply(move)
    return ref, core


def type_counts(stacks: list[int]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for t in stacks:
        counts[CARDS.units[t].type] = counts.get(CARDS.units[t].type, 0) + 1
    return counts


# ------------------------------------------------------------------ the draft


@pytest.mark.parametrize("engine", ENGINES)
def test_ruling_r_melee_2_two_match_cards_show_1_and_two_show_2_each_hidden_until_the_draft_ends(engine):
    for seed in range(6):
        state = new(engine, seed)
        assert sorted(state.match) == [1, 1, 2, 2]
        for p in range(4):
            shown = state.observation(p)["match"]
            assert shown[p] == state.match[p] and [c for q, c in enumerate(shown) if q != p] == [None] * 3
    ref, core = both(0, until=lambda s: s.phase != "draft")
    for state in (ref, core):
        assert all(state.observation(p)["match"] == state.match for p in range(4))


@pytest.mark.parametrize("engine", ENGINES)
def test_ruling_d_melee_1_the_youngest_seat_3_drafts_first_then_down_the_seats(engine):
    state = new(engine, 5)
    order = []
    rng = Rng(5)
    for _ in range(12):
        order.append(state.current_player)
        moves = state.legal_moves()
        state.apply(moves[rng.below(len(moves))])
    assert order == list(DRAFT_ORDER) * 3 == [3, 2, 1, 0] * 3


def stuck_drafter(engine: str):
    """A draft at its last pick, seat 0 to take it with 6 Soldier stacks already and only Soldier
    stacks left (laid out on the reference engine, adopted by the core)."""
    state = MeleeState.new(4, CARDS)
    soldiers = [u.index for u in CARDS.units if u.type == "soldier"]
    others = [u.index for u in CARDS.units if u.type != "soldier"]
    rest = others[3:] + soldiers[6:11]
    state.drafted = [soldiers[0:6] + others[0:3], rest[0:10], rest[10:20], rest[20:30]]
    state.pool = sorted(soldiers[11:])
    state.picks = DRAFT_PICKS - 1
    assert state.current_player == 0
    return state if engine == "reference" else MeleeCore.from_state(state)


@pytest.mark.parametrize("engine", ENGINES)
def test_ruling_r_draft_3_in_a_melee_a_drafter_with_no_legal_stack_may_take_any(engine):
    state = stuck_drafter(engine)
    assert type_counts(state.drafted[0])["soldier"] == 6
    moves = state.legal_moves()
    assert [m.card for m in moves] == [CARDS.units[t].name for t in state.pool]  # the escape: any stack
    state.apply(moves[0])
    assert state.phase == "table"


@pytest.mark.parametrize("engine", ENGINES)
def test_ruling_r_melee_4_type_limits_hold_for_each_of_the_four_drafters(engine):
    state = new(engine, 9)
    rng = Rng(9)
    while state.phase == "draft":
        p = state.current_player
        taken = type_counts(state.drafted[p])
        for move in state.legal_moves():
            kind = CARDS.unit(move.card).type
            assert taken.get(kind, 0) < {"soldier": 6, "beast": 4, "oracle": 4}[kind]
        moves = state.legal_moves()
        state.apply(moves[rng.below(len(moves))])
    assert all(len(d) == 10 for d in state.drafted) and state.pool == []


# ------------------------------------------------------------------ the Simplified draft (D-melee-4)

SIMPLIFIED = MeleeConfig(draft="simplified")


def pack_of(state, seat: int) -> list[str]:
    """The cards ``seat`` holds, as its observation shows them."""
    return state.observation(seat)["sdraft"]["pack"]


@pytest.mark.parametrize("engine", ENGINES)
def test_ruling_r_melee_4_d_melee_4_the_simplified_draft_deals_packs_of_10_and_passes_them_to_the_next_seat_down(engine):
    state = new(engine, 3, SIMPLIFIED)
    assert len(state.dealt) == 40 and len(state.pool) == sum(u.copies for u in CARDS.units) - 40
    before = [pack_of(state, q) for q in range(4)]
    assert all(len(pack) == 10 for pack in before)
    order, taken = [], []
    for _ in range(4):  # one step: each seat picks from its own pack, in seat order (R-sdraft-2)
        order.append(state.current_player)
        move = state.legal_moves()[0]
        assert move.verb == "pick" and move.card in before[state.current_player]
        taken.append(move.card)
        state.apply(move)
    assert order == [0, 1, 2, 3]
    for q in range(4):  # D-melee-4: seat q now holds what seat q + 1 held, less its pick
        passed = list(before[(q + 1) % 4])
        passed.remove(taken[(q + 1) % 4])
        assert pack_of(state, q) == passed
    walk(state, 3, until=lambda s: s.observation(0).get("sdraft", {}).get("picks") == 40)
    assert len(state.dealt) == 80  # a new round: packs of 10 again
    assert all(len(pack_of(state, q)) == 10 for q in range(4))


@pytest.mark.parametrize("engine", ENGINES)
def test_ruling_r_sdraft_3_four_players_picks_are_face_down_and_the_30_cards_are_each_deck(engine):
    state = new(engine, 4, SIMPLIFIED)
    walk(state, 4, until=lambda s: s.ply == 45)
    p = state.current_player
    seen = state.observation(p)
    assert [d is None for d in seen["drafted"]] == [q != p for q in range(4)] and seen["stacks"] == []
    assert len(seen["sdraft"]["held"]) == 12  # round 2, step 2: every pack held so far, as held
    move = state.legal_moves()[0]
    assert MELEE.public_move(state, move, (p + 1) % 4) == "(hidden move)" and MELEE.public_move(state, move, p) == str(move)
    walk(state, 4, until=lambda s: s.phase != "draft")
    assert state.phase == "table" and [len(d) for d in state.drafted] == [30] * 4  # 120 cards picked
    table = state.table
    for seat, q in enumerate(state.table_seats):  # D-given-1: the player's 30 cards are their deck
        assert sorted(table.config.decks[seat]) == sorted(CARDS.units[t].name for t in state.drafted[q])
    assert all(d is not None for d in state.observation(0)["drafted"])  # the decks are public now


@pytest.mark.parametrize("engine", ENGINES)
def test_a_world_of_the_simplified_draft_deals_again_only_what_the_drafter_has_not_seen(engine):
    state = new(engine, 6, SIMPLIFIED)
    walk(state, 6, until=lambda s: s.ply == 57)
    p = state.current_player
    others = set()
    for seed in range(12):
        world = state.determinized(p, seed)
        assert world.observation(p) == state.observation(p)  # every pack p held, as held; p's picks
        assert world.drafted[p] == state.drafted[p]
        assert sorted(world.pool + world.dealt) == sorted(t for t, u in enumerate(CARDS.units) for _ in range(u.copies))
        others.add(tuple(tuple(world.drafted[q]) for q in range(4) if q != p))
    assert len(others) > 6  # the other players' unseen picks are dealt again


def test_the_simplified_melee_refuses_a_card_set_with_fewer_than_120_unit_cards():
    small = CARDS
    for unit in CARDS.units[:20]:
        small = small.without(unit.name)
    assert sum(u.copies for u in small.units) < SDRAFT_PICKS <= sum(u.copies for u in CARDS.units)
    for engine in ENGINES:
        with pytest.raises(UsageError, match="120 unit cards"):
            MELEE.new_initial_state(0, engine=engine, cards=small, config=SIMPLIFIED)
    with pytest.raises(UsageError, match="draft: must be one of card, simplified"):
        MELEE.config(draft="sealed")


# ------------------------------------------------------------------ the tables


@pytest.mark.parametrize("engine", ENGINES)
def test_ruling_r_melee_5_round_1_pairs_equal_match_cards_with_their_drafted_decks_and_20_coins(engine):
    ref, core = both(2, until=lambda s: s.phase == "draft" and s.picks == DRAFT_PICKS - 1)
    state = ref if engine == "reference" else core
    state.apply(state.legal_moves()[0])  # the last pick: the draft ends, the first table is dealt
    ones = tuple(p for p in range(4) if state.match[p] == 1)
    assert state.phase == "table" and state.table_seats == ones
    table = state.table
    for seat, p in enumerate(ones):  # R-melee-5: every copy of each drafted stack, the player's own deck
        deck = sorted(name for name in table.config.decks[seat])
        assert deck == sorted(CARDS.units[t].name for t in state.drafted[p] for _ in range(CARDS.units[t].copies))
    assert table.config.coin_supply == TABLE_COINS  # R-melee-3
    assert table.supply() + table.coins[0] + table.coins[1] == TABLE_COINS
    assert state.table_seats[table.current_player] == state.current_player


def finishing_move(seed: int, index: int):
    """Both engines one move before table game ``index`` of seed ``seed``'s random melee ends."""
    ref = new("reference", seed)
    played = walk(ref, seed, until=lambda s: len(s.results) > index)
    ref, core = new("reference", seed), new("core", seed)
    for move in played[:-1]:
        ref.apply(move)
        core.apply(move)
    return ref, core, played[-1]


@pytest.mark.parametrize("engine", ENGINES)
def test_ruling_r_melee_6_round_2_puts_winners_together_then_losers_and_places_give_returns(engine):
    ref, core, last = finishing_move(0, 1)
    state = ref if engine == "reference" else core
    state.apply(last)  # round 1 ends: the winners' table is dealt
    first, second = state.results
    assert state.table_seats == tuple(sorted((first.winner, second.winner)))
    walk(state, 1, until=lambda s: len(s.results) == 3)
    losers = tuple(sorted(r.loser for r in state.results[:2]))
    assert state.table_seats == losers
    walk(state, 2)
    wins = state.scores()
    assert sorted(wins) == [0, 1, 1, 2]  # the third round is not played (R-melee-6): shared second place
    assert state.returns() == tuple({2: 1.0, 1: 0.5, 0: 0.0}[w] for w in wins)  # D-melee-3
    champion = state.results[2].winner
    assert wins[champion] == 2


def a_drawn_table() -> tuple[int, int]:
    """A seed and a table game of it that random play draws on points (R-score-2)."""
    for seed in range(60):
        state = new("core", seed)
        walk(state, seed)
        for i, r in enumerate(state.results):
            if r.drawn:
                return seed, i
    raise AssertionError("no drawn table game in 60 random Grand Melees")


@pytest.mark.parametrize("engine", ENGINES)
def test_ruling_r_melee_7_a_drawn_table_game_goes_to_the_player_who_took_the_second_turn(engine):
    seed, index = a_drawn_table()
    ref, core, last = finishing_move(seed, index)
    state = ref if engine == "reference" else core
    seats, table = state.table_seats, state.table
    state.apply(last)
    result = state.results[index]
    assert result.drawn and result.scores[0] == result.scores[1]
    second = 1 - table.first_player  # the first player is decided long before the last move
    assert result.winner == seats[second]


@pytest.mark.parametrize("engine", ENGINES)
def test_ruling_d_melee_2_the_other_tables_game_and_result_stay_hidden_until_the_round_ends(engine):
    ref, core, last = finishing_move(3, 1)
    state = ref if engine == "reference" else core
    playing, other = state.table_seats, state.results[0].seats
    for p in other:  # at the other table: none of this game
        assert state.observation(p)["table"] is None
    for p in playing:  # at this table: the other table's result not yet
        assert state.observation(p)["results"][0]["winner"] is None
        assert state.observation(p)["table"] is not None
    assert state.observation(other[0])["results"][0]["winner"] == state.results[0].winner
    state.apply(last)  # round 1 is over: every result is shown to everyone
    assert all(state.observation(p)["results"][i]["winner"] == r.winner
               for p in range(4) for i, r in enumerate(state.results))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hidden_result_is_dealt_again_in_a_world_and_a_seen_one_kept(engine):
    ref, core, _ = finishing_move(3, 1)
    state = ref if engine == "reference" else core
    p = state.table_seats[0]
    winners = {state.determinized(p, seed).results[0].winner for seed in range(40)}
    assert winners == set(state.results[0].seats)  # either player of the other table
    q = state.results[0].seats[0]
    assert {state.determinized(q, seed).results[0].winner for seed in range(10)} == {state.results[0].winner}


def test_the_melee_refuses_a_card_set_with_too_few_stacks_and_a_bad_option():
    small = CARDS
    for unit in CARDS.units[:11]:  # 39 stacks left
        small = small.without(unit.name)
    for engine in ENGINES:
        with pytest.raises(UsageError, match="40 design stacks"):
            MELEE.new_initial_state(0, engine=engine, cards=small)
    with pytest.raises(UsageError, match="max_turns"):
        MELEE.config(max_turns=0)
    state = new("core", 0)
    with pytest.raises(IllegalMoveError, match="ply 0: player 3"):
        state.apply('play "Satyr" city0')


# ------------------------------------------------------------------ the core against the reference


@pytest.mark.parametrize("draft", DRAFTS)
def test_the_core_plays_every_grand_melee_as_the_reference_move_for_move(draft):
    """Both drafts (R-melee-4): at every ply the same legal moves in order and the same player; at
    every 25th ply every player's observation and each player's world of the same seed; at the end
    the same results."""
    for seed in range(MELEE_GAMES):
        config = MeleeConfig(emissary=seed % 2 == 1, catch_up=seed % 4 == 2, draft=draft)
        ref, core = new("reference", seed, config), new("core", seed, config)
        rng = Rng(seed)
        while not ref.is_terminal():
            moves = ref.legal_moves()
            where = f"seed {seed}, ply {ref.ply}"
            assert core.legal_moves() == moves and core.current_player == ref.current_player, where
            if ref.ply % 25 == 0 or (draft == "simplified" and ref.phase == "draft" and ref.ply % 7 == 0):
                for p in range(4):
                    assert core.observation(p) == ref.observation(p), where
                    w_ref, w_core = ref.determinized(p, seed + ref.ply), core.determinized(p, seed + ref.ply)
                    assert w_core.observation(p) == w_ref.observation(p) == ref.observation(p), where
                    assert w_core.legal_moves() == w_ref.legal_moves(), where
                    assert (w_core.drafted, w_core.dealt, w_core.pool) == (w_ref.drafted, w_ref.dealt, w_ref.pool), where
            move = moves[rng.below(len(moves))]
            ref.apply(move)
            core.apply(move)
        assert core.is_terminal() and core.results == ref.results and core.returns() == ref.returns()


@pytest.mark.parametrize("draft", DRAFTS)
def test_undo_takes_the_core_back_byte_for_byte_across_table_changes(draft):
    core = new("core", 11, MeleeConfig(draft=draft))
    start = core.state_bytes()
    marks = []
    rng = Rng(11)
    while not core.is_terminal():
        marks.append(core.state_bytes())
        moves = core.legal_moves()
        core.apply(moves[rng.below(len(moves))])
    for before in reversed(marks):
        core.undo()
        assert core.state_bytes() == before
    assert core.state_bytes() == start


def test_a_reference_melee_adopted_by_the_core_plays_on_the_same():
    ref, core = both(6, until=lambda s: len(s.results) == 1 and s.table is not None and s.table.ply > 30)
    adopted = MeleeCore.from_state(ref)
    assert [adopted.observation(p) for p in range(4)] == [core.observation(p) for p in range(4)]
    walk(adopted, 7)
    walk(core, 7)
    assert adopted.results == core.results and adopted.ply == core.ply


def test_ismcts_searches_a_grand_melee_draft_and_table_for_the_player_to_move():
    state = new("core", 1)
    result = ismcts(state, Limit(iterations=300), seed=2)
    assert result.best in state.legal_moves() and result.iterations == 300
    walk(state, 1, until=lambda s: s.phase == "table")
    result = ismcts(state, Limit(iterations=300), seed=2, mo=True)
    assert result.best in state.legal_moves()


# ------------------------------------------------------------------ the command line


def test_melee_flag_plays_reign_of_war_as_the_grand_melee(capsys):
    from cli_helper import run

    args = ("play", "--players", "random,random,random,random", "--seed", "4", "--json")
    status, alias, _ = run(capsys, *args, "--game", "reign-of-war", "--melee")
    assert status == 0
    status, named, _ = run(capsys, *args, "--game", "reign-of-war-melee")
    assert status == 0 and json.loads(alias) == json.loads(named)
    assert sorted(json.loads(alias)["scores"]) == [0, 1, 1, 2]


def test_melee_flag_with_the_simplified_draft_plays_a_whole_grand_melee(capsys):
    from cli_helper import run

    status, out, _ = run(capsys, "play", "--game", "reign-of-war", "--melee", "--draft", "simplified", "--players",
                         "ismcts:iterations=30,random,random,random", "--seed", "2", "--json")
    assert status == 0 and sorted(json.loads(out)["scores"]) == [0, 1, 1, 2]


def test_melee_flag_with_another_game_is_refused_in_one_line(capsys):
    from cli_helper import assert_one_line_error, run

    assert_one_line_error(*run(capsys, "play", "--game", "heir", "--melee", "--players", "random,random"),
                          "--melee", "reign-of-war", "heir")


# ------------------------------------------------------------------ a drafter (table=KIND)


def test_a_bot_with_table_kind_drafts_itself_and_leaves_the_table_games_to_that_kind():
    from omen_search.bots import make_bot

    bot = make_bot("random:table=first", 3, MELEE)
    assert bot.name == "random,table=first"
    state = new("core", 8)
    drafted_first = []
    while not state.is_terminal() and state.ply < 120:
        moves = state.legal_moves()
        move = bot.choose(state)
        if state.phase == "draft":
            drafted_first.append(move == moves[0])
        else:
            assert move == moves[0]  # the table bot: first legal move
        state.apply(move)
    assert len(drafted_first) == DRAFT_PICKS and not all(drafted_first)  # the drafter: at random


def test_a_table_kind_that_searches_or_is_unknown_is_refused_naming_it():
    from omen_search.bots import make_bot

    for spec in ("ismcts:table=ismcts", "greedy:table=human", "human:table=greedy"):
        with pytest.raises(UsageError, match="table"):
            make_bot(spec, 0, MELEE)


# ------------------------------------------------------------------ matches of four bots


def test_a_melee_match_rotates_four_bots_and_a_cut_file_resumes_to_the_same_totals(capsys, tmp_path):
    from omen_search.match import read_results
    from cli_helper import run

    bots = ("random:table=first", "random", "first", "random:table=greedy")
    args = ("match", "--game", "reign-of-war", "--melee", *bots, "--games", "8", "--seed", "5", "--quiet", "--json")
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    status, out, _ = run(capsys, *args, "--out", str(whole))
    assert status == 0
    totals = json.loads(out)
    assert [b["bot"] for b in totals["by_bot"]] == list(bots) and totals["sets"] == 2
    assert abs(sum(b["score"] for b in totals["by_bot"]) - 2) < 1e-9  # each game's places sum to 2 (D-melee-3)
    for b in totals["by_bot"]:
        assert 0 <= b["score_low"] <= b["score"] <= b["score_high"] <= 1 and b["win_low"] <= b["win_rate"] <= b["win_high"]
    lines = read_results(whole)
    for line in lines:  # every bot in every seat of a deal once (seat rotation, not seat swap)
        assert line["bot_seats"] == [(j + line["rotation"]) % 4 for j in range(4)]
    kept = whole.read_text().splitlines()[:4]  # the header and three games: a killed run
    cut.write_text("\n".join(kept) + "\n")
    status, resumed, _ = run(capsys, *args, "--out", str(cut), "--resume")
    assert status == 0 and json.loads(resumed) == totals
    args = tuple(a for a in args if a != "--json")
    status, text, _ = run(capsys, *args, "--out", str(cut), "--resume")  # nothing left to play: the summary
    assert status == 0 and "scores sum to 200%, an even share is 50.0%" in text


# ------------------------------------------------------------------ the balance report


def test_the_balance_report_of_a_melee_gives_each_stacks_draft_pick_win_rate():
    from omen_search.balance import balance_report, format_text, render_html
    from omen_search.match import MatchOptions, MatchSetup, run_match

    setup = MatchSetup(bots=("random",) * 4, seed=2, game="reign-of-war-melee", track_cards=True)
    options = MatchOptions(games=8, lines=[])
    run_match(setup, options)
    lines = options.lines
    assert all(len(g["drafted"][s]) == 10 for g in lines for s in range(4))  # 10 stacks each, in pick order
    report = balance_report(setup, lines)
    assert report["seats"] == 4 and report["bots"] == ["random"] * 4
    assert sum(r["wins"] for r in report["by_seat"]) == 8  # one winner a Grand Melee
    drafted = {c["name"]: c["drafted"] for c in report["by_card"]}
    assert sum(d["n"] for d in drafted.values()) == 8 * 40  # 40 stacks drafted a melee (R-melee-4)
    assert sum(d["wins"] for d in drafted.values()) == 8 * 10  # the winner's ten stacks
    for name, d in drafted.items():
        taken = [(g, s) for g in lines for s in range(4) if name in g["drafted"][s]]
        assert d["n"] == len(taken) and d["wins"] == sum(g["winner"] == s for g, s in taken)
        if taken:
            assert d["mean_pick"] == sum(g["drafted"][s].index(name) + 1 for g, s in taken) / len(taken)
            assert d["flag"] == (not d["low"] <= 0.25 <= d["high"])  # against an even 25%
    text = format_text(report)
    assert "Cards when drafted: win rate of the 32 seats that drafted the card" in text and "vs 25" in text
    assert "drafted" in render_html(report) and "vs 25%" in render_html(report)


# ------------------------------------------------------------------ advice for a drafter


def test_advise_ranks_a_drafters_picks_from_their_observation_alone():
    from omen_search.advisor import Advisor
    from omen_search.errors import FormatError

    state = new("core", 3)
    walk(state, 3, until=lambda s: s.ply == 6)
    seat = state.current_player
    observation = state.observation(seat)
    assert [c for q, c in enumerate(observation["match"]) if q != seat] == [None] * 3  # hidden match cards
    advice = Advisor(Limit(iterations=400), seed=1).advise(observation)
    assert advice.pov == seat
    assert sorted(str(m.move) for m in advice.moves) == sorted(str(m) for m in state.legal_moves())
    assert all(m.move.verb == "draft" for m in advice.moves) and sum(m.visits for m in advice.moves) == 400
    again = Advisor(Limit(iterations=400), seed=1).advise(json.dumps(observation))
    assert [str(m.move) for m in again.moves] == [str(m.move) for m in advice.moves]  # reproducible
    with pytest.raises(FormatError, match="observation.player"):
        Advisor(Limit(iterations=50)).advise(state.observation((seat + 1) % 4))
