"""The engines' limits are checked when a card file is loaded (``cards.MAX_*``, ``docs/cards.md``).

For every limit: a file exactly at it loads and both engines play the same games on it; a file one
beyond it is refused with a ``CardDataError`` naming the file, the card, the field and the limit.
A hypothesis test then generates card files at and around every limit: each either loads, and the
two engines agree move for move, or is refused with such an error. ``OMEN_LIMIT_EXAMPLES`` sets how
many it tries (CI runs a few dozen; ``OMEN_LIMIT_EXAMPLES=2000`` for a long run).
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from omen_search.errors import CardDataError
from omen_search.games.heir import cards as limits
from omen_search.games.heir.cards import CardSet, load_cards
from omen_search.games.heir.rules import Config
from omen_search.selfcheck import compare_game
from positions_helper import card_file_text, seed_card_text

EXAMPLES = int(os.environ.get("OMEN_LIMIT_EXAMPLES", "25"))
SHORT = Config(max_turns=24)  # the differential games: long enough to use most cards, quick to play


def seed_doc() -> dict[str, Any]:
    """The built-in card file as data."""
    return tomllib.loads(seed_card_text())


def write(doc: dict[str, Any], path: Path) -> Path:
    path.write_text(card_file_text(doc), encoding="utf-8")
    return path


def agree(cards: CardSet, games: int = 6) -> None:
    """Both engines play the same seeded games on ``cards``."""
    for seed in range(games):
        mismatch, plies = compare_game(seed, SHORT, cards)
        assert mismatch is None, str(mismatch)
        assert plies > 20


def refused(doc: dict[str, Any], path: Path, *words: str) -> str:
    with pytest.raises(CardDataError) as info:
        load_cards(write(doc, path))
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    for word in words:
        assert word in message, message
    return message


def nested(depth: int, innermost: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """An effect list ``depth`` lists deep: ``if_favored`` inside ``if_favored`` … around ``innermost``."""
    effects = innermost
    for _ in range(depth - 1):
        effects = [{"op": "if_favored", "then": effects}]
    return effects


def unit(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(u for u in doc["unit"] if u["name"] == name)


# ------------------------------------------------------------------------------ one limit at a time


@pytest.mark.parametrize("field", ["cost", "strength", "offering"])
def test_a_stat_of_31_plays_and_32_is_refused(tmp_path: Path, field: str) -> None:
    doc = seed_doc()
    unit(doc, "Temple Servant")[field] = limits.MAX_STAT
    agree(load_cards(write(doc, tmp_path / "at.toml")))
    unit(doc, "Temple Servant")[field] = limits.MAX_STAT + 1
    refused(doc, tmp_path / "over.toml", "unit 'Temple Servant'", f"field '{field}'", "at most 31")


def test_maneuver_63_plays_and_64_is_refused(tmp_path: Path) -> None:
    doc = seed_doc()
    unit(doc, "Rabid Usurper")["maneuver"] = limits.MAX_COUNT
    agree(load_cards(write(doc, tmp_path / "at.toml")))
    unit(doc, "Rabid Usurper")["maneuver"] = limits.MAX_COUNT + 1
    refused(doc, tmp_path / "over.toml", "unit 'Rabid Usurper'", "field 'maneuver'", "at most 63")


def test_an_effect_count_of_63_plays_and_64_is_refused(tmp_path: Path) -> None:
    doc = seed_doc()
    unit(doc, "Fallen Archivist")["labor"] = [{"op": "draw", "n": limits.MAX_COUNT}]
    agree(load_cards(write(doc, tmp_path / "at.toml")))
    unit(doc, "Fallen Archivist")["labor"] = [{"op": "draw", "n": limits.MAX_COUNT + 1}]
    refused(doc, tmp_path / "over.toml", "unit 'Fallen Archivist'", "field 'n'", "at most 63")


def test_build_and_vp_of_255_load_and_256_is_refused(tmp_path: Path) -> None:
    doc = seed_doc()
    doc["structure"][0]["build"] = doc["structure"][0]["vp"] = limits.MAX_BUILD_VP
    agree(load_cards(write(doc, tmp_path / "at.toml")), games=2)
    doc["structure"][0]["vp"] = limits.MAX_BUILD_VP + 1
    refused(doc, tmp_path / "over.toml", f"structure '{doc['structure'][0]['name']}'", "field 'vp'", "at most 255")


def test_an_effect_list_of_64_plays_and_65_is_refused(tmp_path: Path) -> None:
    """Before the limit, a list of 128 effects wrapped the core's signed-byte decision index."""
    doc = seed_doc()
    long_list = [{"op": "gain", "n": 1}] * (limits.MAX_EFFECTS - 1) + [{"op": "opponent_discards", "n": 1}]
    unit(doc, "Forgotten Pharaoh")["labor"] = long_list
    agree(load_cards(write(doc, tmp_path / "at.toml")))
    unit(doc, "Forgotten Pharaoh")["labor"] = long_list + [{"op": "draw", "n": 1}]
    refused(doc, tmp_path / "over.toml", "unit 'Forgotten Pharaoh'", "field 'labor'", "65 effects", "limit is 64")


def test_a_choose_of_4_options_plays_and_5_is_refused(tmp_path: Path) -> None:
    doc = seed_doc()
    options = [{"label": f"opt{i}", "effects": [{"op": "gain", "n": i + 1}]} for i in range(limits.MAX_OPTIONS)]
    unit(doc, "Temple Servant")["invocation"] = [{"op": "choose", "options": options}]
    agree(load_cards(write(doc, tmp_path / "at.toml")))
    options.append({"label": "more", "effects": [{"op": "draw", "n": 1}]})
    refused(doc, tmp_path / "over.toml", "unit 'Temple Servant'", "field 'options'", "from 2 to 4")


def forty_designs() -> dict[str, Any]:
    """The seed set with 40 designs of one copy each (the most a 40-card deck holds), cycling
    through the seed designs."""
    doc = seed_doc()
    doc["unit"] = [{**doc["unit"][i % len(doc["unit"])], "name": f"Design {i}", "copies": 1}
                   for i in range(limits.DECK_SIZE)]
    return doc


def test_forty_designs_play_the_same_on_both_engines(tmp_path: Path) -> None:
    """Before the fix, units 31 and up were missing from the core's 64-bit unit sets (built with a
    32-bit shift): the engines listed different moves."""
    doc = forty_designs()
    cards = load_cards(write(doc, tmp_path / "forty.toml"))
    assert len(cards.units) == limits.DECK_SIZE
    assert any(u.reinforce for u in cards.units[32:]) and any(u.colossal for u in cards.units[32:])
    agree(cards, games=20)


def test_an_effect_stack_of_32_resolves_on_both_engines_and_33_is_refused(tmp_path: Path) -> None:
    """A reward whose effects nest 32 lists deep (the reward's own list, 31 ``if_favored`` inside it,
    the last holding ``gain 1``): used while favored, both engines reach the innermost list. One
    list deeper is refused: the core's stack would have dropped it."""
    from omen_search.games.heir.positions import load_position

    from omen_search._core import CoreState

    doc = seed_doc()
    reward = next(r for r in doc["reward"] if r["name"] == "Royal Treasury")
    reward["effects"] = nested(limits.MAX_STACK, [{"op": "gain", "n": 1}])
    cards = load_cards(write(doc, tmp_path / "at.toml"))
    position = {"active": 0, "phase": "surge", "favor": "anubis", "cities": [[[], []]] * 3, "city_tiles": [3, 3, 2],
                "players": [{"coins": 4, "hand": [], "unused_tiles": ["Royal Treasury"]}, {"coins": 4, "hand": []}]}
    for state in (load_position(position, cards), CoreState.from_state(load_position(position, cards))):
        state.apply('use "Royal Treasury"')
        assert state.coins[0] == 5, "the innermost list resolved"
    reward["effects"] = nested(limits.MAX_STACK + 1, [{"op": "gain", "n": 1}])
    refused(doc, tmp_path / "over.toml", "reward 'Royal Treasury'", "field 'effects'", "needs 33", "limit is 32")


def test_plays_that_can_repeat_without_end_are_refused(tmp_path: Path) -> None:
    """A REINFORCE that plays a unit from hand can be chosen again by the unit it plays: the stack
    of abilities has no bound, so the set is refused rather than cut short."""
    doc = seed_doc()
    unit(doc, "Moonlight Channeller")["reinforce"] = [{"op": "play_free"}, {"op": "draw", "n": 1}]
    refused(doc, tmp_path / "loop.toml", "unit 'Moonlight Channeller'", "field 'reinforce'", "without end")


def test_the_compiled_set_of_1024_effects_plays_and_1025_is_refused(tmp_path: Path) -> None:
    """Counted as the core compiles it: the core's own tables have as many lists."""
    from omen_search._core import tables_for

    doc = forty_designs()
    base = load_cards(write(doc, tmp_path / "base.toml"))
    room = limits.MAX_CODE - limits.compiled_size(base.units, base.rewards, base.structures)[1]
    for u in doc["unit"]:  # LABOR lists of `gain 1` fill the room exactly
        if "labor" not in u and room:
            u["labor"] = [{"op": "gain", "n": 1}] * min(limits.MAX_EFFECTS, room)
            room -= len(u["labor"])
    cards = load_cards(write(doc, tmp_path / "at.toml"))
    lists, code = limits.compiled_size(cards.units, cards.rewards, cards.structures)
    assert code == limits.MAX_CODE and lists == len(tables_for(cards).prog_refs)
    agree(cards, games=2)
    grow = next(u for u in doc["unit"] if 0 < len(u.get("labor", [])) < limits.MAX_EFFECTS)
    grow["labor"] = grow["labor"] + [{"op": "gain", "n": 1}]
    refused(doc, tmp_path / "over.toml", f"{lists} effect lists and 1025 effects; the engines hold at most")


def test_an_offering_list_at_the_move_limit_plays_and_beyond_is_refused(tmp_path: Path) -> None:
    """An Offering lists every split of every unit in hand (and up to 3 builds each), written with
    as many spare entries as the largest offering: the set must fit the 1024-move lists."""
    doc = forty_designs()
    for u in doc["unit"]:
        u["offering"] = 0
    doc["unit"][0]["offering"] = limits.MAX_STAT
    moves = 1 + 4 * len(doc["unit"]) + 2 * limits.MAX_STAT
    for u in doc["unit"][1:]:  # each point of offering is one more move
        u["offering"] = min(limits.MAX_STAT, limits.MAX_MOVES - moves)
        moves += u["offering"]
    assert moves == limits.MAX_MOVES
    agree(load_cards(write(doc, tmp_path / "at.toml")), games=2)
    next(u for u in doc["unit"] if u["offering"] < limits.MAX_STAT)["offering"] += 1
    refused(doc, tmp_path / "over.toml", "field 'offering'", "1025 moves", "limit is 1024")


# ------------------------------------------------------------------------------ around every limit


OVER = ("stat", "maneuver", "count", "options", "effects", "depth", "build")


def _effects(draw: st.DrawFn, depth: int, city: bool, over: str | None) -> list[dict[str, Any]]:
    """A random effect list (nesting up to ``depth``) with counts at and below the limit, and over it
    where ``over`` says; ``city`` allows the ops that need "this city"."""
    ops = ["draw", "gain", "discard", "opponent_discards", "reveal_hand_discard", "entomb", "reclaim", "move",
           "destroy_all", "favor"] + (["choose", "if_favored"] if depth > 1 else [])
    ops += ["steal_unit"] if city else ["play_free", "unearth"]  # plays that could repeat are refused elsewhere
    length = draw(st.integers(0, 3))
    if over == "effects":
        length = draw(st.sampled_from([limits.MAX_EFFECTS, limits.MAX_EFFECTS + 1]))
    out = []
    for _ in range(length):
        op = draw(st.sampled_from(ops))
        count = draw(st.sampled_from([1, 2, 3, limits.MAX_COUNT] + ([limits.MAX_COUNT + 1] if over == "count" else [])))
        e: dict[str, Any] = {"op": op}
        if op in ("draw", "gain", "discard", "opponent_discards", "reveal_hand_discard", "reclaim"):
            e["n"] = count
        if op == "entomb":
            e.update(n=count, side=draw(st.sampled_from(["own", "opposing"])), up_to=draw(st.booleans()))
            if city and draw(st.booleans()):
                e["where"] = "this_city"
        if op == "move":
            e.update(n=count, mode="maneuver" if city and draw(st.booleans()) else "any")
        if op == "destroy_all":
            e.update(filter=draw(st.sampled_from(limits.FILTERS)), draw_each=draw(st.integers(0, 2)))
        if op == "unearth":
            e["take"] = count
        if op == "choose":
            most = limits.MAX_OPTIONS + (1 if over == "options" else 0)
            e["options"] = [{"label": f"o{k}", "effects": _effects(draw, depth - 1, city, None)}
                            for k in range(draw(st.integers(2, most)))]
        if op in ("if_favored", "steal_unit"):
            e["then"] = _effects(draw, depth - 1, city, None)
        out.append(e)
    return out


@st.composite
def card_sets(draw: st.DrawFn) -> dict[str, Any]:
    """The seed set with designs, stats, MANEUVER, abilities, effect stacks and structures drawn at
    the limits, and in some examples one thing over a limit (``OVER``)."""
    doc = seed_doc()
    over = draw(st.sampled_from((None,) * len(OVER) + OVER))
    n = draw(st.sampled_from([len(doc["unit"]), 31, 32, 33, 40]))
    units = []
    for i in range(n):
        u = dict(doc["unit"][i % len(doc["unit"])], name=f"Design {i}", copies=1)
        for field in ("cost", "strength", "offering"):
            u[field] = draw(st.sampled_from([u[field], 0, limits.MAX_STAT]))
        if "maneuver" in u:
            u["maneuver"] = draw(st.sampled_from([1, 2, limits.MAX_COUNT]))
        for field in ("labor", "reinforce", "invocation"):
            if draw(st.integers(0, 3)) == 0:
                u[field] = _effects(draw, draw(st.integers(1, 4)), field != "labor", None)
        units.append(u)
    for k in range(limits.DECK_SIZE - n):  # the rest of the 40 cards as extra copies
        units[k % n]["copies"] += 1
    victim = units[draw(st.integers(0, n - 1))]
    if over == "stat":
        victim[draw(st.sampled_from(["cost", "strength", "offering"]))] = limits.MAX_STAT + 1
    if over == "maneuver":
        victim["maneuver"] = limits.MAX_COUNT + 1
    if over in ("count", "options", "effects"):
        victim["labor"] = _effects(draw, 2, False, over)
    doc["unit"] = units
    for r in doc["reward"]:
        if draw(st.integers(0, 3)) == 0:
            r["effects"] = _effects(draw, draw(st.integers(1, 4)), False, None)
    deep = draw(st.sampled_from([1, limits.MAX_STACK - 1, limits.MAX_STACK] + ([limits.MAX_STACK + 1] if over == "depth" else [])))
    doc["reward"][2]["effects"] = nested(deep, [{"op": "gain", "n": 1}])
    for s in doc["structure"]:
        s["build"] = draw(st.sampled_from([s["build"], 1, limits.MAX_BUILD_VP]))
    if over == "build":
        doc["structure"][draw(st.integers(0, 5))]["vp"] = limits.MAX_BUILD_VP + 1
    return doc


@settings(max_examples=EXAMPLES, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                         HealthCheck.function_scoped_fixture])
@given(doc=card_sets())
def test_card_files_around_every_limit_load_and_agree_or_are_refused(tmp_path: Path, doc: dict[str, Any]) -> None:
    path = write(doc, tmp_path / "generated.toml")
    try:
        cards = load_cards(path)
    except CardDataError as exc:
        assert str(exc).startswith(f"{path}: "), str(exc)
        assert re.search(r"field '|the abilities|: unit", str(exc)), str(exc)
        return
    for seed in range(2):
        mismatch, _ = compare_game(seed, SHORT, cards)
        assert mismatch is None, str(mismatch)
