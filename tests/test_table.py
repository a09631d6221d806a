"""The table companion (omen_search.table, Heir's omen_search.games.heir.table): rulings D-table-…,
refusals that name the event and the reason, table records, and a fuzz of random events."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_helper import assert_one_line_error, run
from omen_search.errors import FormatError, OmenError, UsageError
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.rules import Config
from omen_search.games.heir.table import witness
from omen_search.table import MissingSeenError, TableEventError, TableGame, is_table_record, load_table

EXAMPLE = Path(__file__).parent.parent / "docs" / "examples" / "table.json"


def seeded(seed: int, plies: int | None = None) -> GameState:
    """A game of random legal moves, to be followed at the table."""
    rnd, state = random.Random(seed), GameState.new(seed=seed)
    while not state.is_terminal() and (plies is None or len(state.moves) < plies):
        state.apply(rnd.choice(state.legal_moves()))
    return state


def followed(seed: int, user: int, plies: int | None = None) -> tuple[GameState, TableGame]:
    """A seeded game and the same game followed from ``user``'s seat, as it saw it."""
    true = seeded(seed, plies)
    hand, seen, events = witness(seed, Config(), user, true.moves)
    table = TableGame.start("heir", {}, user, hand, seen)
    for seat, move, shown in events:
        table.add(seat, move, shown)
    return true, table


def public(observation: dict) -> dict:
    """An observation without what D-table-2 lets differ: the pending decision and the ply count."""
    return {k: v for k, v in observation.items() if k not in ("pending", "ply")}


def start(seed: int = 3, user: int = 0) -> tuple[GameState, TableGame]:
    return followed(seed, user, 0)


# ---------------------------------------------------------------- rulings


@pytest.mark.parametrize("seed", range(6))
def test_D_table_1_a_followed_game_is_seen_exactly_as_the_real_one(seed):
    true, table = followed(seed, seed % 2)
    assert public(table.observation()) == public(true.observation(seed % 2))
    assert table.world.is_terminal() and table.ask().kind == "over"


def test_D_table_1_every_decision_the_real_game_had_is_offered():
    true = seeded(27)
    hand, seen, events = witness(27, Config(), 1, true.moves)
    table = TableGame.start("heir", {}, 1, hand, seen)
    for seat, move, shown in events:
        question = table.ask()
        assert question.seat == seat
        assert move == "pass" or move in {str(m) for m in question.moves}, (move, question.prompt)
        table.add(seat, move, shown)


def test_D_table_1_a_card_with_every_copy_seen_cannot_be_revealed():
    cards = GameState.new().cards
    scarce = min((u for u in cards.units if u.copies <= 4), key=lambda u: u.copies)
    hand = [scarce.name] * scarce.copies + ["Temple Servant"] * (4 - scarce.copies)
    with pytest.raises(TableEventError, match=f"^set-up: turn 1: which card was revealed for Anubis's Wealth: "
                                              f"no {scarce.name} is left unseen$"):
        TableGame.start("heir", {}, 0, hand, [scarce.name])


def _opponent_at(kind: str) -> TableGame:
    """A followed game stopped where the world's opponent (seat 0) starts its Wealth at ``kind``
    (``reveal``: its made-up hand holds a Neutral unit; ``wealth``: none) with hidden cards in hand."""
    for seed in range(40):
        true = seeded(seed)
        hand, seen, events = witness(seed, Config(), 1, true.moves)
        table = TableGame.start("heir", {}, 1, hand, seen)
        for seat, move, shown in events:
            world = table.world
            if world.current_player == 0 and world.pending.kind == kind and not world.reveal_again_used \
                    and world.hand_size(0) > sum(world.known[0]) and (kind == "reveal" or world.phase == "wealth"):
                return table
            table.add(seat, move, shown)
    raise AssertionError(f"no opponent's Wealth at {kind} in 40 games")


def test_D_table_2_the_opponent_s_wealth_passes_a_reveal_the_world_offered():
    table = _opponent_at("reveal")
    wealth = next(str(m) for m in table.ask().moves if m.verb == "wealth")  # offered beside the reveals
    table.add(0, wealth)
    assert table.world.pending.kind != "reveal" and table.world.reveal_again_used is False


def test_D_table_2_the_opponent_s_reveal_opens_one_and_its_pass_changes_nothing():
    table = _opponent_at("wealth")
    before = table.observation()
    table.add(0, "pass")
    assert table.observation() == before
    neutral = next(u.name for u in table.world.units if u.neutral and table.world.hidden_units()[u.index])
    assert f'reveal "{neutral}"' in {str(m) for m in table.ask().moves}
    with pytest.raises(MissingSeenError) as asked:  # the card revealed again shows
        table.add(0, f'reveal "{neutral}"')
    table.add(0, f'reveal "{neutral}"', [asked.value.question.choices[0]])
    assert table.world.reveal_again_used and neutral in table.observation()["discard"]


def test_D_table_3_the_set_up_names_the_first_revealed_card():
    true = seeded(5, 0)
    hand, seen, _ = witness(5, Config(), 0, [])
    with pytest.raises(MissingSeenError, match="set-up: turn 1: which card was revealed") as info:
        TableGame.start("heir", {}, 0, hand, [])
    assert seen[0] in info.value.question.choices and info.value.question.kind == "seen"
    assert TableGame.start("heir", {}, 0, hand, seen).observation()["discard"] == true.observation(0)["discard"]


# ---------------------------------------------------------------- refusals


def test_a_card_not_in_your_hand_is_refused_naming_the_event():
    true, table = followed(3, 0, 3)
    legal = table.ask().moves
    assert table.ask().seat == 0 and any(m.verb == "play" for m in legal)
    hand = table.observation()["players"][0]["hand"]
    absent = next(u.name for u in table.world.units if u.name not in hand)
    before = (list(table.events), table.observation())
    with pytest.raises(TableEventError, match=f"^event 3: {absent} is not in your hand$"):
        table.add(0, f'play "{absent}" city0')
    assert (table.events, table.observation()) == before  # nothing changed


def test_the_wrong_seat_is_refused():
    _, table = followed(3, 0, 3)
    with pytest.raises(TableEventError, match="^event 3: it is your surge decision, not the opponent’s$"):
        table.add(1, "end")


def test_an_unknown_card_and_bad_notation_are_refused():
    _, table = followed(3, 0, 3)
    with pytest.raises(TableEventError, match="event 3: unknown card 'Opal Statue'"):
        table.add(0, 'play "Opal Statue" city0')
    with pytest.raises(TableEventError, match="event 3: "):
        table.add(0, "fly away")


def test_a_draw_not_named_is_asked_for_and_an_extra_name_refused():
    true = seeded(3)
    hand, seen, events = witness(3, Config(), 0, true.moves)
    index = next(i for i, (seat, move, shown) in enumerate(events) if move.startswith("wealth draw") and len(shown) > 1)
    table = TableGame.start("heir", {}, 0, hand, seen)
    for seat, move, shown in events[:index]:
        table.add(seat, move, shown)
    seat, move, shown = events[index]
    with pytest.raises(MissingSeenError, match=rf"^event {index}: turn \d+: which card did you draw "
                                               rf"\({len(shown)} of {len(shown)}\)\? \(not said\)$") as info:
        table.add(seat, move, shown[:-1])
    assert shown[-1] in info.value.question.choices
    with pytest.raises(TableEventError, match=f"event {index}: 1 card.s. named that it did not show you"):
        table.add(seat, move, [*shown, shown[0]])
    table.add(seat, move, shown)


def test_after_the_end_every_event_is_refused():
    _, table = followed(0, 0)
    with pytest.raises(TableEventError, match="the game is over"):
        table.add(0, "end")


def test_undo_takes_the_last_event_back():
    _, table = followed(3, 0, 5)
    seen = table.observation()
    last = table.events[-1]
    table.undo()
    table.add(last.seat, last.move, last.seen)
    assert table.observation() == seen
    empty = TableGame.start("heir", {}, 0, *witness(3, Config(), 0, [])[:2])
    with pytest.raises(TableEventError, match="undo: no event"):
        empty.undo()


@pytest.mark.parametrize("size", [3, 5])
def test_a_starting_hand_of_another_size_is_refused(size):
    with pytest.raises(TableEventError, match=f"^set-up: a starting hand holds 4 cards, got {size}$"):
        TableGame.start("heir", {}, 0, ["Temple Servant"] * size, ["Rabid Usurper"])


def test_a_game_without_a_table_companion_says_so():
    with pytest.raises(UsageError, match="heir-solo has no table companion yet"):
        TableGame.start("heir-solo", {}, 0, [])
    with pytest.raises(TableEventError, match="set-up: the Emissary of War variant"):
        TableGame.start("heir", {"emissary": True}, 0, [])


# ---------------------------------------------------------------- table records


def test_a_table_record_round_trips():
    _, table = followed(7, 1, 40)
    record = json.loads(json.dumps(table.to_record()))
    assert is_table_record(record) and "seed" not in record
    again = load_table(record)
    assert again.observation() == table.observation() and again.events == table.events


@pytest.mark.parametrize("change, where", [
    (lambda r: r.update(format="omen-record/1"), "table.format"),
    (lambda r: r.update(seat=2), "table.seat"),
    (lambda r: r.pop("hand"), "table.hand"),
    (lambda r: r["events"].__setitem__(0, "end"), r"table.events\[0\]"),
    (lambda r: r["events"][1].update(move=3), r"table.events\[1\].move"),
    (lambda r: r["events"][1].update(seen=[1]), r"table.events\[1\].seen\[0\]"),
])
def test_a_malformed_table_record_names_the_field(change, where):
    record = json.loads(EXAMPLE.read_text())
    change(record)
    with pytest.raises(FormatError, match=f"^{where}"):
        load_table(record)


def test_an_impossible_event_in_a_record_names_it():
    record = json.loads(EXAMPLE.read_text())
    record["events"][4]["seat"] = 1 - record["events"][4]["seat"]
    with pytest.raises(TableEventError, match="^event 4: it is "):
        load_table(record)


def test_the_example_replays_and_analyzes(capsys):
    status, out, err = run(capsys, "replay", str(EXAMPLE))
    assert status == 0 and "all 109 events are possible (seat 0's view). the game is over: you have" in out
    status, out, err = run(capsys, "analyze", str(EXAMPLE), "--iterations", "50", "--quiet", "--json")
    review = json.loads(out)
    assert status == 0 and review["player"] == 0 and len(review["decisions"]) > 20


def test_analyze_refuses_the_other_seat_and_a_bad_event(capsys, tmp_path):
    assert_one_line_error(*run(capsys, "analyze", str(EXAMPLE), "--player", "1", "--quiet"),
                          "reviewed from its user's seat (0) only")
    record = json.loads(EXAMPLE.read_text())
    mine = next(i for i, e in enumerate(record["events"]) if e["seat"] == 0 and e["move"].startswith("play"))
    hand = load_table({**record, "events": record["events"][:mine]}).observation()["players"][0]["hand"]
    absent = next(n for n in ("Fallen Archivist", "Opal Statuary", "Temple Servant") if n not in hand)
    record["events"][mine]["move"] = f'play "{absent}" city1'
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert_one_line_error(*run(capsys, "replay", str(bad)), f"event {mine}: {absent} is not in your hand")


# ---------------------------------------------------------------- fuzz


def _random_event(rnd: random.Random, table: TableGame) -> tuple[int, str, list[str]]:
    """A likely event, a possible-looking one or junk: any seat, moves offered or not, names seen or made up."""
    question = table.ask()
    names = [u.name for u in table.world.units] + [r.name for r in table.world.cards.rewards] + ["Nobody"]
    roll = rnd.random()
    move = str(rnd.choice(question.moves)) if question.moves and roll < 0.8 else \
        rnd.choice(["end", "pass", f'play "{rnd.choice(names)}" city{rnd.randrange(4)}', "wealth draw 9 coin 0",
                    f'use "{rnd.choice(names)}"', f'discard "{rnd.choice(names)}"', 'offer "x" draw 1 coin 0'])
    seat = question.seat if rnd.random() < 0.9 else rnd.randrange(3) - (rnd.random() < 0.05)
    return seat, move, [rnd.choice(names) for _ in range(rnd.randrange(3))] if rnd.random() < 0.1 else []


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.integers(0, 1), st.booleans())
def test_random_events_apply_or_are_refused_by_name(seed, user, junk_setup):
    """Events drawn at random (mostly among those offered, seen cards answered at random) either
    apply or are refused with the event's number, changing nothing; no other exception."""
    rnd = random.Random(seed)
    hand, seen, _ = witness(seed, Config(first_player=seed % 2), user, [])
    if junk_setup:
        hand = [rnd.choice([*hand, "Opal Statuary", "Nobody"]) for _ in range(rnd.randrange(3, 6))]
    try:
        table = TableGame.start("heir", {"first_player": seed % 2}, user, hand, seen)
    except OmenError as exc:
        assert junk_setup and str(exc).startswith("set-up: ")
        return
    for _ in range(150):
        seat, move, seen = _random_event(rnd, table)
        before = len(table.events)
        for _ in range(20):
            try:
                table.add(seat, move, seen)
                break
            except MissingSeenError as exc:
                assert str(exc).startswith(f"event {before}: ") and len(table.events) == before
                seen = [*seen, rnd.choice(exc.question.choices)]
            except TableEventError as exc:
                assert str(exc).startswith(f"event {before}: ") and len(table.events) == before
                break
        if table.ask().kind == "over":
            break
    again = load_table(json.loads(json.dumps(table.to_record())))  # what was accepted replays the same
    assert again.observation() == table.observation() and again.events == table.events


def test_a_table_record_of_another_card_set_is_refused():
    record = json.loads(EXAMPLE.read_text())
    assert record["cards"]["name"] == GameState.new().cards.name
    record["cards"] = {**record["cards"], "sha256": "0" * 64}
    with pytest.raises(FormatError, match=r"^table.cards: played with card set .*; pass its --cards file$"):
        load_table(record)
    del record["cards"]
    assert len(load_table(record).events) == 109


@pytest.mark.parametrize("call, message", [
    (lambda: TableGame.start("heir", "gods", 0, []), "^options: must be an object"),
    (lambda: TableGame.start("heir", {}, 2, []), "^set-up: seat must be 0 or 1, got 2$"),
    (lambda: TableGame.start("heir", {}, 0, "Temple Servant"), "^set-up: hand: must be a list of card names"),
    (lambda: TableGame.start("heir", {}, 0, [1, 2, 3, 4]), "^set-up: hand: must be a list of card names"),
    (lambda: TableGame.start("heir", {"gods": "ra,set"}, 0, []), "^gods: "),
    (lambda: followed(3, 0, 2)[1].add(7, "end"), "^event 2: seat must be a seat from 0 to 1, got 7$"),
    (lambda: followed(3, 0, 2)[1].add(0, "end", "Temple Servant"), "^event 2: seen: must be a list of card names"),
])
def test_bad_input_is_refused_by_name(call, message):
    with pytest.raises(OmenError, match=message):
        call()
