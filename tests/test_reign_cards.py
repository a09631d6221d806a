"""Reign of War's card loader: the seed edition as ``docs/rules/reign-of-war-cards.md`` gives it, its
effects in the game's vocabulary, and one refused file per kind of mistake.

Bad files are the built-in file (``omen_search/data/reign-seed.toml``) with one edit, loaded from
disk as a user's own file is (``load_cards(path)``): each must raise :class:`CardDataError` whose
message starts with the file's path and names the card and the field (``docs/cards.md``).
"""

from __future__ import annotations

import copy
import fnmatch
import hashlib
import tomllib
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from omen_search.cardfiles import builtin_card_text
from omen_search.errors import CardDataError
from omen_search.games.heir import cards as heir_cards
from omen_search.games.reign.cards import (
    CHOICES,
    CONDITIONS,
    FEATS,
    MAX_COUNT,
    MAX_EFFECTS,
    MAX_STAT,
    MAX_UNIT_CARDS,
    MAX_UNIT_DESIGNS,
    MIN_UNIT_CARDS,
    OPS,
    REWARD_CARDS,
    CardSet,
    Condition,
    Effect,
    default_cards,
    load_cards,
    parse_cards,
)
from positions_helper import card_file_text

ROOT = Path(__file__).resolve().parents[1]
SEED_TEXT = builtin_card_text("reign-seed.toml")
SEED_DOC = tomllib.loads(SEED_TEXT)


def doc_page(name: str) -> str:
    """A page of ``docs/`` (the test is skipped where the docs are not beside the tests)."""
    page = ROOT / "docs" / name
    if not page.exists():
        pytest.skip(f"docs/{name} is not beside the tests")
    return page.read_text(encoding="utf-8")


def page_table(page: str, header: str) -> list[list[str]]:
    """The rows of the Markdown table whose header line starts with ``header``, as cells."""
    lines = page.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split(" | ")])
    return rows


def toml_cell(cell: str) -> list[dict[str, Any]]:
    """The inline TOML tables of a table cell (`` `{op="draw", n=1}, {op="gain", n=1}` ``)."""
    return tomllib.loads(f"x = [{cell.strip('`')}]")["x"]


# ------------------------------------------------------------------------- the seed edition


def test_seed_edition_loads_as_ruleset_reign() -> None:
    cards = default_cards()
    assert cards.name == "Reign of War — seed edition"
    assert cards.ruleset == "reign"
    assert cards.path == "reign-seed.toml"
    assert load_cards() is cards and load_cards(None) is cards


def test_seed_edition_has_174_unit_cards_in_50_designs() -> None:
    units = default_cards().units
    assert len(units) == MAX_UNIT_DESIGNS == 50
    assert sum(u.copies for u in units) == MAX_UNIT_CARDS == 174
    beginner = [u for u in units if u.beginner]
    others = [u for u in units if not u.beginner]
    assert (len(beginner), {u.copies for u in beginner}) == (24, {4})  # R-var-1: the beginner deck, 96 cards
    assert (len(others), {u.copies for u in others}) == (26, {3})
    assert {u.circles for u in beginner} == {1} and {u.circles for u in others} == {2}
    by_type = {t: sum(u.copies for u in units if u.type == t) for t in ("soldier", "beast", "oracle")}
    assert by_type == {"soldier": 77, "beast": 48, "oracle": 49}
    assert [u.index for u in units] == list(range(50))


def test_seed_edition_has_12_reward_cards_in_6_designs_and_12_more_for_the_grand_melee() -> None:
    rewards = default_cards().rewards
    assert len(rewards) == 6
    assert sum(r.copies for r in rewards) == REWARD_CARDS == 12  # R-comp-2
    assert sum(r.melee_copies for r in rewards) == 12  # R-melee-3


def test_seed_edition_has_6_feats_and_4_match_cards() -> None:
    cards = default_cards()
    assert len(cards.feats) == FEATS == 6
    assert sorted((m.number, m.copies) for m in cards.match_cards) == [(1, 2), (2, 2)]  # R-melee-2


def test_every_card_is_designed_and_a_reported_name_or_condition_says_so() -> None:
    # No card of this edition is published (docs/rules/reign-of-war-cards.md): none may say printed.
    cards = default_cards()
    for group in (cards.units, cards.rewards, cards.feats, cards.match_cards):
        for card in group:
            assert card.source == "designed", card.name
    reported = {u.name for u in cards.units if "reported" in u.note}
    assert reported == {"Grizzled Veteran", "Seaside Guardian", "Satyr", "Minotaur", "Phoenix"}
    assert {f.name for f in cards.feats if "reported" in f.note} == {
        "Garrison", "Voice of the Gods", "Lord of Beasts", "Humiliation"}


def test_seed_edition_is_the_card_pages_tables_in_order() -> None:
    page = doc_page("rules/reign-of-war-cards.md")
    cards = default_cards()
    units = page_table(page, "| # | name | type | set |")
    assert [int(row[0]) for row in units] == list(range(1, 51))  # D-pick-1: numbered in table order
    for row, unit in zip(units, cards.units, strict=True):
        _, name, kind, circles, stats, text, effects, copies, source = row
        assert (unit.name, unit.type, unit.circles) == (name, kind.lower(), {"○": 1, "○○": 2}[circles])
        assert (unit.cost, unit.strength, unit.offering) == tuple(map(int, stats.split("/")))
        assert (unit.text, unit.copies) == (text, int(copies))
        assert unit.ability == tuple(Effect(**e) for e in toml_cell(effects))
        written, _, note = source.partition("; ")  # "designed; name reported (…)"
        assert unit.source == written, name
        assert unit.note.lower().startswith(note.lower()) and bool(unit.note) == bool(note), name
    rewards = page_table(page, "| name | ability | effects (TOML) | copies | Grand Melee copies |")
    for row, reward in zip(rewards, cards.rewards, strict=True):
        name, text, effects, copies, melee, source = row
        assert (reward.name, reward.text, reward.copies, reward.melee_copies) == (name, text, int(copies), int(melee))
        assert reward.effects == tuple(Effect(**e) for e in toml_cell(effects))
        assert reward.source == source
    feats = page_table(page, "| name | condition | condition (TOML) | source |")
    for row, feat in zip(feats, cards.feats, strict=True):
        name, text, condition, source = row
        assert (feat.name, feat.text) == (name, text)
        assert (feat.condition,) == tuple(Condition(**c) for c in toml_cell(condition))
        note = "" if source == "designed" else source  # "designed wording; condition reported …"
        assert feat.source == "designed" and source.startswith("designed"), name
        assert feat.note.lower().startswith(note.lower()) and bool(feat.note) == bool(note), name


def test_every_effect_is_an_op_of_the_vocabulary_with_valid_parameters() -> None:
    cards = default_cards()
    effects = [e for u in cards.units for e in u.ability] + [e for r in cards.rewards for e in r.effects]
    blank = {f.name for f in fields(Effect)} - {"op"}
    for e in effects:
        spec = OPS[e.op]
        unset = Effect(e.op)
        assert all(getattr(e, f) == getattr(unset, f) for f in blank - set(spec)), e  # only its own parameters
        for param, (required, kind) in spec.items():
            value = getattr(e, param)
            if kind == "count":
                assert 1 <= value <= MAX_COUNT, e
            elif kind == "bool":
                assert isinstance(value, bool)
            else:
                assert value in CHOICES[kind], e
    assert {e.op for e in effects} == set(OPS)  # every op is used by the seed edition


def test_no_beast_and_no_reward_card_names_this_city() -> None:
    # A Beast discarded for its ability and a reward card have no city (docs/rules/reign-of-war-cards.md).
    cards = default_cards()
    cityless = [e for u in cards.units if u.type == "beast" for e in u.ability]
    cityless += [e for r in cards.rewards for e in r.effects]
    assert all("this_city" not in (e.where, e.mode, e.to) and e.mode != "out_of_this_city" for e in cityless)


def test_every_op_and_condition_of_the_vocabulary_is_documented() -> None:
    page = doc_page("cards.md")
    reign = page[page.index("## Reign of War's card file"):]
    for table in (OPS, CONDITIONS):
        for tag, params in table.items():
            assert f"`{tag}`" in reign, tag
            for param in params:
                assert f"`{param}`" in reign, (tag, param)


def test_the_seed_file_ships_as_package_data() -> None:
    pyproject = ROOT / "pyproject.toml"
    if not pyproject.exists():
        pytest.skip("pyproject.toml is not beside the tests")
    patterns = tomllib.loads(pyproject.read_text(encoding="utf-8"))["tool"]["setuptools"]["package-data"]["omen_search"]
    assert any(fnmatch.fnmatch("data/reign-seed.toml", p) for p in patterns)


# ------------------------------------------------------------------------- a user's own file


@pytest.fixture
def write(tmp_path: Path) -> Callable[[dict[str, Any]], Path]:
    """Write a card file (as data) to ``tmp_path/my-set.toml`` and return its path."""

    def write_doc(doc: dict[str, Any]) -> Path:
        path = tmp_path / "my-set.toml"
        path.write_text(card_file_text(doc), encoding="utf-8")
        return path

    return write_doc


def test_a_users_file_loads_with_the_same_validation(tmp_path: Path) -> None:
    path = tmp_path / "my-set.toml"
    path.write_text(SEED_TEXT, encoding="utf-8")
    cards = load_cards(path)
    assert isinstance(cards, CardSet) and cards.path == str(path)
    builtin = default_cards()
    assert (cards.units, cards.rewards, cards.feats, cards.match_cards) == (
        builtin.units, builtin.rewards, builtin.feats, builtin.match_cards)
    assert cards.sha256 == builtin.sha256 == hashlib.sha256(SEED_TEXT.encode()).hexdigest()


def test_a_file_without_match_cards_or_a_grand_melee_set_loads(write: Callable[[dict[str, Any]], Path]) -> None:
    # Both came from the Kickstarter-only Grand Melee expansion: a two-player set may leave them out.
    doc = copy.deepcopy(SEED_DOC)
    del doc["match"]
    for reward in doc["reward"]:
        del reward["melee_copies"]
    cards = load_cards(write(doc))
    assert cards.match_cards == () and {r.melee_copies for r in cards.rewards} == {0}


def named(doc: dict[str, Any], kind: str, name: str) -> dict[str, Any]:
    """The table of the card of ``kind`` called ``name``."""
    return next(card for card in doc[kind] if card["name"] == name)


def unit(name: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda doc: named(doc, "unit", name)


def more_designs(doc: dict[str, Any]) -> None:
    doc["unit"][-1]["copies"] = 2  # room in the deck for one more design
    doc["unit"].append(dict(doc["unit"][-1], name="Oracle of Siwa", copies=1))


# (what is wrong, the edit, what the message must say after the file's path)
BAD_FILES: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("missing field", lambda d: unit("Satyr")(d).pop("cost"), "unit 'Satyr', field 'cost': missing"),
    ("unknown field", lambda d: unit("Satyr")(d).update(devotion="neutral"),
     "unit 'Satyr', field 'devotion': unknown field"),
    ("unknown unit type", lambda d: unit("Hoplite Recruit")(d).update(type="hero"),
     "unit 'Hoplite Recruit', field 'type': unknown value 'hero' (expected one of soldier, beast, oracle)"),
    ("stat not an integer", lambda d: unit("Myrmidon")(d).update(cost="4"),
     "unit 'Myrmidon', field 'cost': must be an integer, got '4'"),
    ("negative stat", lambda d: unit("Myrmidon")(d).update(strength=-1),
     "unit 'Myrmidon', field 'strength': must not be negative"),
    ("stat beyond the limit", lambda d: unit("Cyclops")(d).update(strength=MAX_STAT + 1),
     f"unit 'Cyclops', field 'strength': must be at most {MAX_STAT}"),
    ("circles neither 1 nor 2", lambda d: unit("Satyr")(d).update(circles=3),
     "unit 'Satyr', field 'circles': unknown value 3 (expected one of 1, 2)"),
    ("too many copies", lambda d: unit("Oracle of Ammon")(d).update(copies=4),
     f"unit 'Oracle of Ammon', field 'copies': brings the deck to 175 unit cards, the limit is {MAX_UNIT_CARDS}"),
    ("no copies", lambda d: unit("Satyr")(d).update(copies=0), "unit 'Satyr', field 'copies': must be at least 1"),
    ("too many designs", more_designs,
     f"unit 'Oracle of Siwa': one unit design too many, the limit is {MAX_UNIT_DESIGNS}"),
    ("deck too small", lambda d: d.update(unit=d["unit"][:9]),
     f"unit, field 'copies': the deck must have at least {MIN_UNIT_CARDS} unit cards, got 36"),
    ("duplicate name", lambda d: unit("Grizzled Veteran")(d).update(name="Hoplite Recruit"),
     "unit 'Hoplite Recruit', field 'name': duplicate name"),
    ("unknown source", lambda d: unit("Satyr")(d).update(source="official"),
     "unit 'Satyr', field 'source': unknown value 'official' (expected one of printed, designed)"),
    ("unknown op", lambda d: unit("Satyr")(d)["ability"][0].update(op="scry"),
     "unit 'Satyr', field 'ability[0]': unknown op 'scry'"),
    ("missing op parameter", lambda d: unit("Myrmidon")(d)["ability"][0].pop("side"),
     "unit 'Myrmidon', field 'ability[0]', field 'side': missing (op 'destroy' needs it)"),
    ("unknown op parameter", lambda d: unit("Satyr")(d)["ability"][0].update(steal_if="anubis"),
     "unit 'Satyr', field 'ability[0]', field 'steal_if': unknown field"),
    ("count of 0", lambda d: unit("Temple Guard")(d)["ability"][1].update(n=0),
     "unit 'Temple Guard', field 'ability[1]', field 'n': must be at least 1, got 0"),
    ("count beyond the limit", lambda d: unit("Satyr")(d)["ability"][0].update(n=MAX_COUNT + 1),
     f"unit 'Satyr', field 'ability[0]', field 'n': must be at most {MAX_COUNT}"),
    ("a Heir filter", lambda d: unit("Cyclops")(d)["ability"][0].update(filter="neutral"),
     "unit 'Cyclops', field 'ability[0]', field 'filter': unknown value 'neutral'"),
    ("enraging a Beast", lambda d: unit("Chimera")(d)["ability"][0].update(filter="beast"),
     "unit 'Chimera', field 'ability[0]', field 'filter': unknown value 'beast' (expected one of any, soldier, oracle)"),
    ("a Heir move mode", lambda d: unit("Centaur")(d)["ability"][0].update(mode="maneuver"),
     "unit 'Centaur', field 'ability[0]', field 'mode': unknown value 'maneuver'"),
    ("this city in a Beast's ability", lambda d: unit("Minotaur")(d)["ability"][0].update(where="this_city"),
     "unit 'Minotaur', field 'ability[0]', field 'where': 'this_city' needs a city"),
    ("this city in a reward card", lambda d: named(d, "reward", "Trojan Horse")["effects"][0].update(
        mode="out_of_this_city"),
     "reward 'Trojan Horse', field 'effects[0]', field 'mode': 'out_of_this_city' needs a city"),
    ("taking more than revealed", lambda d: unit("Argive Scout")(d)["ability"][0].update(take=3),
     "unit 'Argive Scout', field 'ability[0]', field 'take': must be at most n (2, the cards revealed), got 3"),
    ("a free play of two revealed cards", lambda d: unit("Recruiting Sergeant")(d)["ability"][0].update(take=2),
     "unit 'Recruiting Sergeant', field 'ability[0]', field 'take': a free play into this City takes 1 card at "
     "most, got 2"),
    ("too many effects", lambda d: unit("Satyr")(d).update(ability=[{"op": "draw", "n": 1}] * (MAX_EFFECTS + 1)),
     f"unit 'Satyr', field 'ability': {MAX_EFFECTS + 1} effects, the limit is {MAX_EFFECTS}"),
    ("an effect that is not a table", lambda d: unit("Satyr")(d).update(ability=["draw"]),
     "unit 'Satyr', field 'ability[0]': an effect must be a table"),
    ("too many reward cards", lambda d: named(d, "reward", "Tribute of Athens").update(copies=3),
     f"reward, field 'copies': there must be {REWARD_CARDS} reward cards, got 13"),
    ("a Grand Melee set of 11", lambda d: named(d, "reward", "Call to Arms").update(melee_copies=1),
     "reward, field 'melee_copies': the Grand Melee's set must be 0 or 12 reward cards, got 11"),
    ("a reward without effects", lambda d: named(d, "reward", "Curse of Hades").pop("effects"),
     "reward 'Curse of Hades', field 'effects': missing"),
    ("five feats", lambda d: d["feat"].pop(), f"feat: there must be {FEATS} feats, got 5"),
    ("a feat without a condition", lambda d: named(d, "feat", "Garrison").pop("condition"),
     "feat 'Garrison', field 'condition': missing"),
    ("unknown condition kind", lambda d: named(d, "feat", "Garrison")["condition"].update(kind="in_each_city"),
     "feat 'Garrison', field 'condition': unknown kind 'in_each_city'"),
    ("condition without its n", lambda d: named(d, "feat", "Full Ranks")["condition"].pop("n"),
     "feat 'Full Ranks', field 'condition', field 'n': missing (kind 'units_in_one_city' needs it)"),
    ("duplicate feat", lambda d: named(d, "feat", "Wild Hunt").update(name="Garrison"),
     "feat 'Garrison', field 'name': duplicate name"),
    ("match number 3", lambda d: named(d, "match", "Match 2").update(number=3),
     "match 'Match 2', field 'number': must be at most 2"),
    ("one match number on 4 cards", lambda d: named(d, "match", "Match 2").update(number=1),
     "match, field 'copies': match number 1 must be on 2 cards"),
    ("another game's file", lambda d: d.update(ruleset="heir"),
     "top level, field 'ruleset': unknown value 'heir' (expected one of reign)"),
    ("unknown top-level field", lambda d: d.update(structure=[]), "top level, field 'structure': unknown field"),
]


@pytest.mark.parametrize("edit, expected", [case[1:] for case in BAD_FILES], ids=[case[0] for case in BAD_FILES])
def test_bad_file_is_refused_naming_the_file_the_card_and_the_field(
    write: Callable[[dict[str, Any]], Path], edit: Callable[[dict[str, Any]], None], expected: str
) -> None:
    doc = copy.deepcopy(SEED_DOC)
    edit(doc)
    path = write(doc)
    with pytest.raises(CardDataError) as info:
        load_cards(path)
    assert str(info.value).startswith(f"{path}: {expected}"), str(info.value)


def test_unreadable_and_malformed_files_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(CardDataError, match="no-such.toml: cannot read card file"):
        load_cards(tmp_path / "no-such.toml")
    with pytest.raises(CardDataError, match=r"^bad.toml: not valid TOML: .*line 1"):
        parse_cards("name = \n", "bad.toml")


def test_each_games_loader_refuses_the_others_file() -> None:
    with pytest.raises(CardDataError, match="^heir-seed.toml: top level, field 'ruleset': unknown value 'heir'"):
        parse_cards(builtin_card_text("heir-seed.toml"), "heir-seed.toml")
    with pytest.raises(CardDataError, match="^reign-seed.toml: "):
        heir_cards.parse_cards(SEED_TEXT, "reign-seed.toml")
