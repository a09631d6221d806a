"""The card loader: the built-in set, the printed stats, and one test per kind of mistake in a file.

Bad files are made by editing the text of the built-in file (``omen_search/data/heir-seed.toml``),
so each test changes exactly one thing. Every mistake must raise :class:`CardDataError` whose
message starts with the file's path and names the card and the field (``docs/cards.md``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from omen_search.errors import CardDataError, OmenError
from omen_search.games.heir.cards import (
    DECK_SIZE,
    KEYWORDS,
    OPS,
    REWARD_COUNT,
    SOURCES,
    CardSet,
    Effect,
    Option,
    default_cards,
    load_cards,
    parse_cards,
)

WriteCards = Callable[..., Path]


def edit_card(text: str, name: str, old: str, new: str) -> str:
    """Replace ``old`` by ``new`` inside the block of the card called ``name`` (exactly once)."""
    start = text.index(f'\nname = "{name}"\n')
    end = text.find("\n[[", start)
    end = len(text) if end < 0 else end
    block = text[start:end]
    assert block.count(old) == 1, f"{old!r} must occur once in the block of {name!r}"
    return text[:start] + block.replace(old, new) + text[end:]


def load_error(path: Path) -> str:
    """Load ``path``, expect :class:`CardDataError`, check it names the file, return its message."""
    with pytest.raises(CardDataError) as info:
        load_cards(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    return message


# ------------------------------------------------------------------------- the built-in set


def test_builtin_set_has_40_cards_9_tiles_6_structures() -> None:
    cards = default_cards()
    assert cards.name == "Heir to the Dunes — seed edition"
    assert cards.ruleset == "heir"
    assert sum(u.copies for u in cards.units) == DECK_SIZE == 40
    assert len(cards.deck_list()) == 40
    assert len(cards.rewards) == REWARD_COUNT == 9
    assert len(cards.structures) == 6
    assert [len(cards.structures_of(god)) for god in ("anubis", "horus")] == [3, 3]


def test_builtin_set_every_card_says_printed_or_designed() -> None:
    cards = default_cards()
    assert SOURCES == ("printed", "designed")
    for group in (cards.units, cards.rewards, cards.structures):
        for card in group:
            assert card.source in SOURCES, card.name


# What the rulebook prints (docs/rules/heir-to-the-dunes-cards.md): 11 unit designs, 2 reward tiles and
# 2 structures. Everything else in the built-in set is designed and must say so.
PRINTED_UNITS = {
    # name: (type, devotion, cost, strength, offering, keywords, copies)
    "Forgotten Pharaoh": ("embalmed", "both", 1, 1, 4, {"TREASURED"}, 3),
    "Fallen Archivist": ("embalmed", "both", 1, 1, 4, {"TREASURED"}, 3),
    "Tortured Soul": ("follower", "anubis", 3, 2, 2, {"ENDURING"}, 2),
    "Moonfall Conscripts": ("follower", "anubis", 3, 3, 3, {"COLOSSAL"}, 2),
    "Moonlight Channeller": ("follower", "anubis", 1, 2, 3, {"TREASURED"}, 2),
    "Gifted Taskmaster": ("follower", "anubis", 4, 2, 2, {"TREASURED"}, 2),
    "Remembered Soul": ("follower", "horus", 3, 2, 2, {"ENDURING"}, 2),
    "Opal Statuary": ("follower", "horus", 3, 3, 4, {"ENDURING"}, 2),
    "Temple Servant": ("initiate", "neutral", 2, 1, 2, set(), 5),
    "Sunset Marauder": ("initiate", "neutral", 3, 2, 2, set(), 5),
    "Rabid Usurper": ("vizier", "neutral", 3, 3, 4, {"COLOSSAL"}, 4),
}
PRINTED_REWARDS = {"Great Scouring", "Condemned to Toil"}
PRINTED_STRUCTURES = {"Monument to the Moon": ("anubis", 5, 3), "Tomb of Oblivion": ("anubis", 9, 7)}


def test_builtin_set_marks_as_printed_only_the_rulebook_cards() -> None:
    cards = default_cards()
    assert {u.name for u in cards.units if u.source == "printed"} == set(PRINTED_UNITS)
    assert {r.name for r in cards.rewards if r.source == "printed"} == PRINTED_REWARDS
    assert {s.name for s in cards.structures if s.source == "printed"} == set(PRINTED_STRUCTURES)


@pytest.mark.parametrize("name", sorted(PRINTED_UNITS))
def test_printed_unit_has_the_rulebook_stats(name: str) -> None:
    unit = default_cards().unit(name)
    kind, devotion, cost, strength, offering, keywords, copies = PRINTED_UNITS[name]
    assert (unit.type, unit.devotion) == (kind, devotion)
    assert (unit.cost, unit.strength, unit.offering) == (cost, strength, offering)
    assert unit.keywords == frozenset(keywords)
    assert unit.copies == copies


@pytest.mark.parametrize("name", sorted(PRINTED_STRUCTURES))
def test_printed_structure_has_the_rulebook_build_and_vp(name: str) -> None:
    s = default_cards().structure(name)
    assert (s.god, s.build, s.vp) == PRINTED_STRUCTURES[name]


def test_moonlight_channeller_is_cost_1_strength_2_offering_3() -> None:
    # The rulebook's example that fixes the order of the printed stats.
    u = default_cards().unit("Moonlight Channeller")
    assert (u.cost, u.strength, u.offering) == (1, 2, 3)
    assert u.treasured and not u.colossal and not u.enduring
    assert u.reinforce == (Effect("reclaim", n=1),)


def test_rabid_usurper_is_colossal_with_maneuver_2() -> None:
    u = default_cards().unit("Rabid Usurper")
    assert (u.cost, u.strength, u.offering) == (3, 3, 4)
    assert u.colossal and u.size == 2
    assert u.maneuver == 2
    assert u.labor == u.reinforce == u.invocation == ()


def test_tortured_soul_is_enduring_and_steals_an_anubis_discard() -> None:
    u = default_cards().unit("Tortured Soul")
    assert (u.cost, u.strength, u.offering) == (3, 2, 2)
    assert u.enduring and u.size == 1
    assert u.reinforce == (Effect("opponent_discards", n=1, steal_if="anubis"),)


def test_temple_servant_invocation_is_a_choice_of_draw_or_coins() -> None:
    u = default_cards().unit("Temple Servant")
    assert u.invocation == (
        Effect(
            "choose",
            options=(
                Option("draw", (Effect("draw", n=2),)),
                Option("coins", (Effect("gain", n=2),)),
            ),
        ),
    )


def test_filter_anubis_includes_units_devoted_to_both_gods() -> None:
    cards = default_cards()
    pharaoh = cards.unit("Forgotten Pharaoh")  # devoted to both
    assert pharaoh.matches("anubis") and pharaoh.matches("horus")
    assert not pharaoh.matches("neutral") and pharaoh.matches("treasured")
    assert cards.unit("Tortured Soul").matches("anubis")
    assert not cards.unit("Tortured Soul").matches("horus")
    servant = cards.unit("Temple Servant")
    assert servant.matches("neutral") and servant.matches("any")
    assert not servant.matches("anubis") and not servant.matches("horus")


def test_structures_are_slotted_by_build_within_each_god() -> None:
    cards = default_cards()
    for god in ("anubis", "horus"):
        mine = cards.structures_of(god)
        assert [s.slot for s in mine] == [0, 1, 2]
        assert [s.build for s in mine] == sorted(s.build for s in mine)
    assert [s.index for s in cards.structures] == list(range(6))


def test_card_indexes_follow_file_order_and_deck_list_repeats_copies() -> None:
    cards = default_cards()
    assert [u.index for u in cards.units] == list(range(len(cards.units)))
    assert [r.index for r in cards.rewards] == list(range(len(cards.rewards)))
    deck = cards.deck_list()
    assert all(deck.count(u.index) == u.copies for u in cards.units)
    assert deck == sorted(deck)


def test_unknown_card_name_raises_key_error() -> None:
    with pytest.raises(KeyError):
        default_cards().unit("Opal Statue")


def test_load_cards_none_is_the_builtin_set() -> None:
    assert load_cards() is default_cards()
    assert load_cards(None) is default_cards()


def test_load_cards_from_a_file_equals_the_builtin_set(seed_toml: str, write_cards: WriteCards) -> None:
    path = write_cards(seed_toml)
    cards = load_cards(path)
    builtin = default_cards()
    assert isinstance(cards, CardSet)
    assert cards.path == str(path)
    assert (cards.units, cards.rewards, cards.structures) == (
        builtin.units,
        builtin.rewards,
        builtin.structures,
    )
    assert cards.sha256 == builtin.sha256 == hashlib.sha256(seed_toml.encode()).hexdigest()
    assert load_cards(str(path)) == cards  # a str path works too


def test_parse_cards_names_its_path_in_errors(seed_toml: str) -> None:
    with pytest.raises(CardDataError, match=r"^my-set\.toml: top level, field 'name': missing"):
        parse_cards(seed_toml.replace('name = "Heir to the Dunes — seed edition"\n', ""), "my-set.toml")


def test_card_data_error_is_an_omen_error() -> None:
    assert issubclass(CardDataError, OmenError)


def test_every_op_of_the_vocabulary_is_documented() -> None:
    doc = Path(__file__).resolve().parents[1] / "docs" / "cards.md"
    if not doc.exists():
        pytest.skip("docs/cards.md is not beside the tests")
    text = doc.read_text(encoding="utf-8")
    for op, params in OPS.items():
        assert f"`{op}`" in text, op
        for param in params:
            assert f"`{param}`" in text, (op, param)
    for keyword in KEYWORDS:
        assert keyword in text


# ------------------------------------------------------------------------- one test per mistake


def test_unknown_keyword_names_the_card_and_field(seed_toml: str, write_cards: WriteCards) -> None:
    path = write_cards(edit_card(seed_toml, "Tortured Soul", '["ENDURING"]', '["ENDURNG"]'))
    message = load_error(path)
    assert "unit 'Tortured Soul', field 'keywords'" in message
    assert "unknown keyword 'ENDURNG'" in message


@pytest.mark.parametrize("stat", ["cost", "strength", "offering"])
def test_negative_stat_names_the_card_and_field(seed_toml: str, write_cards: WriteCards, stat: str) -> None:
    text = edit_card(seed_toml, "Moonlight Channeller", f"\n{stat} = ", f"\n{stat} = -")
    message = load_error(write_cards(text))
    assert f"unit 'Moonlight Channeller', field '{stat}'" in message
    assert "must not be negative" in message


def test_stat_that_is_not_an_integer_names_the_card_and_field(seed_toml: str, write_cards: WriteCards) -> None:
    message = load_error(write_cards(edit_card(seed_toml, "Rabid Usurper", "cost = 3", 'cost = "3"')))
    assert "unit 'Rabid Usurper', field 'cost': must be an integer" in message


def test_deck_that_is_not_40_cards_names_the_copies_field(seed_toml: str, write_cards: WriteCards) -> None:
    # No single card is at fault, so the message names the unit table and its 'copies' field.
    message = load_error(write_cards(edit_card(seed_toml, "Rabid Usurper", "copies = 4", "copies = 5")))
    assert "unit, field 'copies'" in message
    assert "must be 40 cards, got 41" in message


def test_duplicate_name_names_the_card_and_field(seed_toml: str, write_cards: WriteCards) -> None:
    text = edit_card(seed_toml, "Fallen Archivist", 'name = "Fallen Archivist"', 'name = "Forgotten Pharaoh"')
    message = load_error(write_cards(text))
    assert "unit 'Forgotten Pharaoh', field 'name': duplicate name" in message


def test_unknown_op_names_the_card_and_ability(seed_toml: str, write_cards: WriteCards) -> None:
    text = edit_card(seed_toml, "Fallen Archivist", 'op = "draw"', 'op = "scry"')
    message = load_error(write_cards(text))
    assert "unit 'Fallen Archivist', field 'labor[0]'" in message
    assert "unknown op 'scry'" in message


def test_missing_required_op_parameter_names_the_card_and_parameter(
    seed_toml: str, write_cards: WriteCards
) -> None:
    text = edit_card(seed_toml, "Fallen Archivist", '{ op = "draw", n = 2 }', '{ op = "draw" }')
    message = load_error(write_cards(text))
    assert "unit 'Fallen Archivist', field 'labor[0]', field 'n': missing (op 'draw' needs it)" in message


def test_unknown_op_parameter_names_the_card_and_parameter(seed_toml: str, write_cards: WriteCards) -> None:
    text = edit_card(seed_toml, "Sunset Marauder", 'filter = "treasured"', 'filtr = "treasured"')
    message = load_error(write_cards(text))
    assert "unit 'Sunset Marauder', field 'invocation[0]', field 'filtr': unknown field" in message


def test_unknown_op_parameter_value_names_the_card_and_parameter(seed_toml: str, write_cards: WriteCards) -> None:
    text = edit_card(seed_toml, "Opal Statuary", 'filter = "anubis"', 'filter = "seth"')
    message = load_error(write_cards(text))
    assert "unit 'Opal Statuary', field 'reinforce[0]', field 'filter': unknown value 'seth'" in message


def test_mistake_inside_a_choice_names_the_option(seed_toml: str, write_cards: WriteCards) -> None:
    text = edit_card(seed_toml, "Temple Servant", '{ op = "gain", n = 2 }', '{ op = "gain", n = 0 }')
    message = load_error(write_cards(text))
    assert (
        "unit 'Temple Servant', field 'invocation[0]', option 1, field 'effects[0]', field 'n': "
        "must be at least 1, got 0"
    ) in message


def test_unknown_unit_field_names_the_card_and_field(seed_toml: str, write_cards: WriteCards) -> None:
    text = edit_card(seed_toml, "Rabid Usurper", "maneuver = 2\n", 'maneuver = 2\ncolour = "red"\n')
    message = load_error(write_cards(text))
    assert "unit 'Rabid Usurper', field 'colour': unknown field" in message


def test_unknown_top_level_field_names_the_field(seed_toml: str, write_cards: WriteCards) -> None:
    text = seed_toml.replace('ruleset = "heir"\n', 'ruleset = "heir"\nedition = 2\n', 1)
    message = load_error(write_cards(text))
    assert "top level, field 'edition': unknown field" in message


def test_unknown_ruleset_names_the_field(seed_toml: str, write_cards: WriteCards) -> None:
    message = load_error(write_cards(seed_toml.replace('ruleset = "heir"', 'ruleset = "corrupted"', 1)))
    assert "top level, field 'ruleset': unknown value 'corrupted'" in message


def test_invalid_toml_names_the_file_and_line(seed_toml: str, write_cards: WriteCards) -> None:
    text = edit_card(seed_toml, "Tortured Soul", "cost = 3\n", "cost = \n")
    line = text[: text.index("cost = \n")].count("\n") + 1
    message = load_error(write_cards(text))
    assert "not valid TOML" in message
    assert f"line {line}" in message


def test_unreadable_file_names_the_file(tmp_path: Path) -> None:
    message = load_error(tmp_path / "no-such-cards.toml")
    assert "cannot read card file" in message


def test_directory_instead_of_file_names_the_file(tmp_path: Path) -> None:
    assert "cannot read card file" in load_error(tmp_path)


def test_file_that_is_not_utf8_names_the_file(seed_toml: str, tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(seed_toml.replace("—", "-").replace("Tortured", "Tortur\xe9d").encode("latin-1"))
    assert "cannot read card file" in load_error(path)


def test_wrong_structure_count_names_the_god(seed_toml: str, write_cards: WriteCards) -> None:
    text = edit_card(seed_toml, "Temple of Darkness", 'god = "anubis"', 'god = "horus"')
    message = load_error(write_cards(text))
    assert "structure, field 'god': anubis must have 3 structures, got 2" in message


def test_wrong_reward_count_names_the_reward_table(seed_toml: str, write_cards: WriteCards) -> None:
    start = seed_toml.index('[[reward]]\nname = "Divine Mandate"')
    end = seed_toml.index("\n[[", start + 1)
    message = load_error(write_cards(seed_toml[:start] + seed_toml[end + 1 :]))
    assert "reward: there must be 9 reward tiles, got 8" in message


def test_unknown_source_names_the_card_and_field(seed_toml: str, write_cards: WriteCards) -> None:
    text = edit_card(seed_toml, "Royal Treasury", 'source = "designed"', 'source = "official"')
    message = load_error(write_cards(text))
    assert "reward 'Royal Treasury', field 'source': unknown value 'official'" in message


# ------------------------------------------------------------------------- known loader bugs
# Each is a mistake in a file that escapes as another exception instead of CardDataError.
# Strict: when cards.py is fixed these xpass and fail; then delete the marker.


def test_op_that_is_a_list_raises_card_data_error(seed_toml: str) -> None:
    text = edit_card(seed_toml, "Fallen Archivist", 'op = "draw"', 'op = ["draw"]')
    with pytest.raises(CardDataError, match="field 'labor\\[0\\]'"):
        parse_cards(text, "bad.toml")


def test_deeply_nested_toml_raises_card_data_error(seed_toml: str) -> None:
    with pytest.raises(CardDataError, match="^deep.toml: "):
        parse_cards(seed_toml + "\nx = " + "[" * 1000 + "]" * 1000 + "\n", "deep.toml")


def test_text_with_a_lone_surrogate_raises_card_data_error(seed_toml: str) -> None:
    with pytest.raises(CardDataError, match="^bad.toml: "):
        parse_cards(seed_toml + "# \ud800\n", "bad.toml")


def test_path_with_a_nul_byte_raises_card_data_error() -> None:
    with pytest.raises(CardDataError, match="cannot read card file"):
        load_cards("cards\0.toml")


# ------------------------------------------------------------------------- fuzz

_WORD = re.compile(r"[A-Za-z_]+|-?\d+")
_TOML_CHARS = st.sampled_from(list('[]{}=",.#-_ \n0123456789abcnoprstuTRE\'') + ["true", "op", "n"])


@st.composite
def mutated(draw: st.DrawFn, text: str) -> str:
    """The seed file with one to three random edits: cut, insert, swap a word or a line."""
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["cut", "insert", "word", "line"]))
        if kind == "cut":
            i = draw(st.integers(0, len(text)))
            text = text[:i] + text[i + draw(st.integers(1, 40)) :]
        elif kind == "insert":
            i = draw(st.integers(0, len(text)))
            junk = draw(st.one_of(st.text(max_size=8), st.lists(_TOML_CHARS, max_size=8).map("".join)))
            text = text[:i] + junk + text[i:]
        elif kind == "word":
            words = list(_WORD.finditer(text))
            if words:
                m = draw(st.sampled_from(words))
                new = draw(
                    st.one_of(
                        st.sampled_from([w.group() for w in words]),
                        st.integers(-3, 100).map(str),
                        st.text(max_size=5),
                    )
                )
                text = text[: m.start()] + new + text[m.end() :]
        else:
            lines = text.split("\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines[i] = draw(st.sampled_from(lines + [""]))
            text = "\n".join(lines)
    return text


@given(data=st.data())
def test_fuzz_mutated_text_loads_or_raises_card_data_error(seed_toml: str, data: st.DataObject) -> None:
    text = data.draw(mutated(seed_toml))
    try:
        cards = parse_cards(text, "fuzz.toml")
    except CardDataError as exc:
        assert str(exc).startswith("fuzz.toml: "), str(exc)
    else:
        assert sum(u.copies for u in cards.units) == DECK_SIZE
        assert len(cards.rewards) == REWARD_COUNT and len(cards.structures) == 6


@pytest.fixture(scope="module")
def fuzz_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("fuzz") / "cards.toml"


@given(data=st.data())
def test_fuzz_mutated_bytes_load_or_raise_card_data_error(
    seed_toml: str, fuzz_file: Path, data: st.DataObject
) -> None:
    raw = bytearray(seed_toml.encode("utf-8"))
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(raw) - 1))
        raw[i] = data.draw(st.integers(0, 255))
    fuzz_file.write_bytes(bytes(raw))
    try:
        load_cards(fuzz_file)
    except CardDataError as exc:
        assert str(exc).startswith(f"{fuzz_file}: "), str(exc)
