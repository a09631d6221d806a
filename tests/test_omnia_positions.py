"""OMNIA's observations read back (``games/omnia/positions.py``): a position dealt from what one seat
sees shows that seat the same observation, keeps every card in one place and plays on; the
hand-written example advises; each mistake is a FormatError naming its field; and the tools that
search from an observation (advise, analyze, a human's seat at ``play``) work on OMNIA."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_search.advisor import Advisor, describe_advice
from omen_search.errors import FormatError, OmenError
from omen_search.game import get_game
from omen_search.games.omnia.cards import default_cards
from omen_search.games.omnia.positions import state_from_observation
from omen_search.records import load_record, replay
from omen_search.rng import Rng
from omen_search.search import Limit

from cli_helper import assert_one_line_error, run
from omnia_helper import places

EXAMPLE = Path(__file__).parent.parent / "docs" / "examples" / "omnia-observation.json"
NAMES = {2: "omnia", 3: "omnia-3", 4: "omnia-4"}


def example() -> dict:
    return json.loads(EXAMPLE.read_text())


# ------------------------------------------------------------------------------ read back


@settings(max_examples=6, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), engine=st.sampled_from(["reference", "core"]),
       every=st.integers(3, 9))
def test_an_observation_reads_back_as_a_position_the_seat_sees_the_same(players, seed, engine, every):
    """At every ``every``-th ply of a random game, each seat's observation (as JSON text) is read back
    to a reference state whose observation for that seat is the same, with every card in exactly one
    place; the seat to move has the same legal moves, and so has the core copy, which shows the same."""
    game = get_game(NAMES[players])
    state = game.new_initial_state(seed, engine=engine)
    rng = Rng(seed)
    while not state.is_terminal():
        if state.ply % every == 0:
            for seat in range(players):
                seen = json.loads(json.dumps(game.observe(state, seat)))
                rebuilt, me = game.from_observation(json.dumps(seen), root="obs")
                assert me == seat and game.observe(rebuilt, seat) == seen, f"ply {state.ply} seat {seat}"
                assert sorted(places(rebuilt)) == list(range(len(rebuilt.design)))
                if seat == state.current_player:
                    assert rebuilt.legal_moves() == state.legal_moves()
                    core = game.to_core(rebuilt)
                    assert core.legal_moves() == state.legal_moves() and game.observe(core, seat) == seen
        legal = state.legal_moves()
        state.apply_trusted(legal[rng.below(len(legal))])


@settings(max_examples=4, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), cut=st.integers(20, 250))
def test_a_position_read_back_plays_on_to_the_end(players, seed, cut):
    """What the search does with it: random games from the core copy of a position read back end
    legally, each with one return per seat."""
    game = get_game(NAMES[players])
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    while not state.is_terminal() and state.ply < cut:
        legal = state.legal_moves()
        state.apply_trusted(legal[rng.below(len(legal))])
    if state.is_terminal():
        return
    core = game.to_core(game.from_observation(game.observe(state, state.current_player))[0])
    while not core.is_terminal():
        legal = core.legal_moves()
        core.apply(legal[rng.below(len(legal))])
    assert len(core.returns()) == players and sum(core.returns()) == pytest.approx(1.0)


def test_what_the_seat_cannot_see_is_dealt_at_random_and_face_down_spells_are_prime():
    """The hand-written example: the opponent's five cards in hand and one face-down spell come from
    his six unseen cards, the spell always the one Prime spell (Undertow); the hands differ between
    seeds, the seat's own hand never does."""
    cards = default_cards()
    hands = set()
    for seed in range(8):
        state, me = state_from_observation(example(), cards, seed=seed)
        assert [state.name(c) for c in state.primed[1]] == ["Undertow"]
        assert sorted(state.name(c) for c in state.hand[1] + state.deck[1]) == [
            "Basic Source", "Ember Wellspring", "Pearl Shield", "Squire", "Tide Sentinel"]
        assert [state.name(c) for c in state.hand[me]] == ["Kindle", "Basic Source", "Basic Source"]
        hands.add(tuple(state.name(c) for c in state.deck[0]))
    assert len(hands) > 1, "the seat's own deck order is dealt again"


# ------------------------------------------------------------------------------ mistakes


def _seat(o: dict, q: int) -> dict:
    return o["players"][q]


@pytest.mark.parametrize("edit, words", [
    (lambda o: o.update(format="omega-observation/1"), "obs.format"),
    (lambda o: o.update(cards="Another set"), "obs.cards"),
    (lambda o: o.update(players_count=5), "obs.players_count"),
    (lambda o: o.update(player=2), "obs.player"),
    (lambda o: o.update(phase="upkeep"), "obs.phase"),
    (lambda o: _seat(o, 0).update(flavor="fire"), "obs.players[0].flavor: unknown flavor 'fire'"),
    (lambda o: _seat(o, 1).update(flavor="ember"), "obs.players[1].flavor"),
    (lambda o: _seat(o, 0).update(life="nine"), "obs.players[0].life: must be an integer"),
    (lambda o: _seat(o, 0).update(pool={"Q": 1}), "obs.players[0].pool: unknown flavor letter 'Q'"),
    (lambda o: o["shop_row"].__setitem__(0, "Nobody"), "obs.shop_row[0]: unknown card 'Nobody'"),
    (lambda o: o["shop_row"].__setitem__(0, "Squire"), "obs.shop_row[0]"),
    (lambda o: o.update(shop_deck=o["shop_deck"] + 1), "obs.shop_deck"),
    (lambda o: o["source_stacks"].update(ember=7), "obs.source_stacks.ember"),
    (lambda o: _seat(o, 0)["unseen"].pop(), "obs.players[0].unseen"),
    (lambda o: _seat(o, 1)["unseen"].remove("Undertow"), "obs.players[1].unseen"),
    (lambda o: _seat(o, 1)["unseen"].__setitem__(5, "Leviathan"), "obs.players[1].primed"),
    (lambda o: _seat(o, 1)["unseen"].__setitem__(0, "Mend"), "obs.players[1].unseen[0]: no 'Mend' left"),
    (lambda o: _seat(o, 1).update(hand=-1), "obs.players[1].hand"),
    (lambda o: _seat(o, 1).update(prestige=9), "obs.players[1].prestige"),
    (lambda o: _seat(o, 0)["field"][1].update(atk=5, pumped=0), "obs.players[0].field[1].atk"),
    (lambda o: _seat(o, 0)["field"][0].update(attached_to=2), "obs.players[0].field[0].attached_to"),
    (lambda o: _seat(o, 0)["field"][0].update(name="Nobody"), "obs.players[0].field[0].name: unknown card"),
    (lambda o: o.update(to_move=1), "obs.to_move"),
    (lambda o: o.update(removed=["Nobody"]), "obs.removed[0]"),
    (lambda o: o.update(queue=[{"kind": "fly", "seat": 0}]), "obs.queue[0].kind"),
    (lambda o: o.update(queue=[{"kind": "resolve", "seat": 0}]), "obs.queue[0]: a 'resolve' step"),
    (lambda o: o.update(flow=[{"kind": "attack", "seat": 0, "card": "Squire", "slot": 2, "target": {"player": 1}}]),
     "obs.flow[0].slot: seat 0's #2 is 'Ember Duelist'"),
    (lambda o: o.update(flow=[{"kind": "play", "seat": 0, "card": "Kindle", "target": {"hero": "Squire", "seat": 1,
                                                                                       "slot": 1}}]),
     "obs.flow[0].target.slot: seat 1 has 0 cards in play"),
    (lambda o: o.update(flow=[{"kind": "activate", "seat": 0, "card": "Mend", "slot": None}]),
     "obs.flow[0].card: no 'Mend' in this game"),
    (lambda o: o.update(flow=[{"kind": "play", "seat": 0, "card": "Kindle", "target": {"flow": 2}}]),
     "obs.flow[0].target.flow: the Flow holds 1 actions"),
])
def test_an_observation_that_does_not_add_up_is_refused_naming_the_field(edit, words):
    observation = example()
    edit(observation)
    with pytest.raises(FormatError) as refused:
        get_game("omnia").from_observation(observation, root="obs")
    assert str(refused.value).startswith(words)


def _places(doc: object, path: tuple = ()) -> list[tuple]:
    """The path of every value in a JSON document, but the document itself."""
    inner: list = list(doc.items()) if isinstance(doc, dict) else list(enumerate(doc)) if isinstance(doc, list) else []
    return [path] * bool(path) + [p for key, value in inner for p in _places(value, path + (key,))]


@settings(max_examples=40, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), cut=st.integers(0, 200),
       pick=st.integers(0, 10**6), junk=st.sampled_from([None, -1, 0, 1, 3, 999, 10**9, "x", "Squire", "Undertow", "Mend",
                                                         "ember", True, [], {}, [1], {"player": 0}, {"flow": 1}]))
def test_a_damaged_observation_is_refused_by_name_or_plays_on(players, seed, cut, pick, junk):
    """Any value of an observation replaced by another: an OmenError, or a position whose core copy
    plays a random game to its end (the core never sees what the reader did not check)."""
    game = get_game(NAMES[players])
    state = game.new_initial_state(seed, engine="reference")
    rng = Rng(seed)
    while not state.is_terminal() and state.ply < cut:
        legal = state.legal_moves()
        state.apply_trusted(legal[rng.below(len(legal))])
    observation = game.observe(state, max(state.current_player, 0))
    *where, last = (paths := _places(observation))[pick % len(paths)]
    holder = observation
    for key in where:
        holder = holder[key]
    holder[last] = junk
    try:
        core = game.to_core(game.from_observation(observation)[0])
    except OmenError:
        return
    while not core.is_terminal():
        legal = core.legal_moves()
        core.apply(legal[rng.below(len(legal))])


# ------------------------------------------------------------------------------ the command line


def test_advise_ranks_buying_playing_and_attacking_in_the_hand_written_example(capsys):
    status, out, err = run(capsys, "advise", "--observation", str(EXAMPLE), "--iterations", "1500", "--json")
    advice = json.loads(out)
    assert status == 0 and advice["pov"] == 0
    legal = {str(m) for m in get_game("omnia").from_observation(example())[0].legal_moves()}
    ranked = [m["move"] for m in advice["moves"]]
    assert set(ranked) == legal and {m.split()[0] for m in ranked} >= {"buy", "play", "attack"}
    assert all(0 <= m["win_prob"] <= 1 for m in advice["moves"])
    status, out, err = run(capsys, "advise", "--observation", str(EXAMPLE), "--iterations", "300")
    assert status == 0 and "seat 0 to move" in out and 'play "Kindle"' in out


def test_the_advice_page_shows_what_advise_prints_for_the_example():
    """docs/advice.md's OMNIA output is `advise --observation docs/examples/omnia-observation.json
    --top 5` (30,000 iterations, seed 0): after a change of rules, cards or search, paste it anew."""
    page = (EXAMPLE.parent.parent / "advice.md").read_text(encoding="utf-8")
    advice = Advisor(Limit(iterations=30_000), seed=0).advise(example())
    assert describe_advice(advice, top=5, indent="    ") in page
    assert "principal line: " + "; ".join(f"seat {s.seat} {s.move}" for s in advice.best.pv) in page


def test_advise_refuses_a_bad_observation_in_one_line(capsys, tmp_path):
    observation = example()
    observation["players"][1]["unseen"][0] = "Mend"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(observation))
    assert_one_line_error(*run(capsys, "advise", "--observation", str(path)), "observation.players[1].unseen[0]",
                          "Mend")


def test_advise_and_analyze_a_record_of_a_short_seeded_game(capsys, tmp_path):
    path = tmp_path / "om3.json"
    status, _, _ = run(capsys, "play", "--game", "omnia", "--players-count", "3", "--players", "random,random,random",
                       "--seed", "3", "--max-turns", "6", "--record", str(path))
    assert status == 0
    record = load_record(path)
    ply = next(i for i in range(10, len(record["moves"])) if replay(record, upto=i).current_player == 1)
    status, out, _ = run(capsys, "advise", "--record", str(path), "--ply", str(ply), "--iterations", "200", "--json")
    assert status == 0 and json.loads(out)["pov"] == 1
    for seat in ("0", "2"):
        status, out, _ = run(capsys, "analyze", str(path), "--player", seat, "--iterations", "50", "--quiet")
        assert status == 0 and f"seat {seat}: accuracy" in out


def test_a_human_seat_plays_omnia_at_the_terminal(capsys, tmp_path, monkeypatch):
    """``play --players human,random``: the human is shown OMNIA's moves by kind, help works, and a
    game of typed numbers ends with a record that replays."""
    monkeypatch.setattr("sys.stdin", io.StringIO("help\n" + "1\n" * 3000))
    path = tmp_path / "h.json"
    status, out, err = run(capsys, "play", "--game", "omnia", "--players", "human,random", "--seed", "3",
                           "--max-turns", "8", "--record", str(path))
    assert status == 0 and "Traceback" not in err
    assert "your moves (action)" in out and "source  [1] Basic Source" in out and "end  " in out
    assert "show your moves again" in out and "Game over" in out
    assert replay(load_record(path)).is_terminal()


def test_the_board_names_the_choice_waiting_inside_the_turn():
    """A human deciding inside the turn (a defence, a target, priority...) is told what about."""
    game = get_game("omnia")
    told = set()
    for seed in range(6):
        state = game.new_initial_state(seed, engine="reference")
        rng = Rng(seed)
        while not state.is_terminal():
            step = state.observation(state.current_player)["step"]
            board = game.describe_board(state, state.current_player)
            assert ("    now: seat " in board) == (step is not None)
            if step is not None:
                told.add(step["kind"])
            legal = state.legal_moves()
            state.apply_trusted(legal[rng.below(len(legal))])
    assert {"priority", "defend", "target"} <= told
