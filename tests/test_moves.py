"""Move notation: one text form per move that round-trips, and clear errors for anything else.

The notation is the verb, the quoted card name, ``cityN`` or ``cityA>cityB``, a quoted target, a
bare label, then ``draw N coin M`` (``omen_search.games.heir.notation``; documented in ``docs/formats.md``).
"""

from __future__ import annotations

import string

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from omen_search.errors import NotationError, OmenError
from omen_search.games.heir.notation import VERBS, Move

# One example of every verb, written the way the engine writes it.
EXAMPLES = {
    "emissary": 'emissary "Temple Servant"',
    "reveal": 'reveal "Temple Servant"',
    "wealth": "wealth draw 2 coin 1",
    "play": 'play "Opal Statuary" city2',
    "use": 'use "Sandstorm"',
    "end": "end",
    "reinforce": 'reinforce "Tortured Soul" city0',
    "move": 'move "Rabid Usurper" city0>city2',
    "war": "war city1",
    "keep": 'keep "Moonfall Conscripts"',
    "enduring": 'enduring "Tortured Soul"',
    "discard": 'discard "Fallen Archivist"',
    "choose": "choose draw",
    "entomb": 'entomb "Sunset Marauder" city1',
    "structure": 'structure "Tomb of Oblivion"',
    "take": 'take "Forgotten Pharaoh"',
    "offer": 'offer "Temple Servant" draw 1 coin 1',
    "build": 'build "Gilded Taskmaster" "Temple of Light"',
    "pass": "pass",
    "beast": 'beast "Satyr"',
    "oracle": 'oracle "Pythia of Delphi" city1',
    "enrage": 'enrage "Spartan Warrior" city0',
    "destroy": 'destroy "Maenad (enraged)" city2',
    "return": 'return "Satyr" city0',
}


def test_examples_cover_every_verb():
    assert set(EXAMPLES) == set(VERBS)


@pytest.mark.parametrize("verb", list(VERBS))
def test_every_verb_round_trips(verb):
    text = EXAMPLES[verb]
    move = Move.parse(text)
    assert move.verb == verb
    assert str(move) == text
    assert Move.parse(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move  # repr is Move.parse('…')


@pytest.mark.parametrize("verb", list(VERBS))
def test_every_verb_uses_exactly_its_fields(verb):
    move = Move.parse(EXAMPLES[verb])
    shape = VERBS[verb]
    assert (move.card is not None) == ("card" in shape)
    assert (move.city is not None) == ("city" in shape)
    assert (move.to is not None) == ("to" in shape)
    assert (move.target is not None) == ("target" in shape)
    assert (move.label is not None) == ("label" in shape)
    assert (move.draw is not None) == (move.coin is not None) == ("draw" in shape)


def test_fields_are_read_from_the_notation():
    m = Move.parse('move "Rabid Usurper" city0>city2')
    assert (m.card, m.city, m.to) == ("Rabid Usurper", 0, 2)
    m = Move.parse('build "Gilded Taskmaster" "Temple of Light"')
    assert (m.card, m.target) == ("Gilded Taskmaster", "Temple of Light")
    m = Move.parse('offer "Temple Servant" draw 0 coin 2')
    assert (m.draw, m.coin) == (0, 2)
    assert Move.parse("choose draw").label == "draw"


def test_whitespace_is_not_significant_outside_names():
    assert Move.parse('  play   "Opal Statuary"\tcity2  ') == Move("play", card="Opal Statuary", city=2)
    assert Move.parse('play "Opal Statuary"city2') == Move("play", card="Opal Statuary", city=2)


def test_moves_are_values():
    a, b = Move.parse("war city1"), Move("war", city=1)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.city = 2  # type: ignore[misc]
    assert sorted([Move("pass"), Move("end")]) == [Move("end"), Move("pass")]


# ------------------------------------------------------------------------------ rejections


@pytest.mark.parametrize(
    "text, words",
    [
        ("", ["must start with a verb"]),
        ("   ", ["must start with a verb"]),
        ('"play" city1', ["must start with a verb"]),
        ('fly "Temple Servant"', ["unknown verb 'fly'", "expected one of", "play"]),
        ('Play "Temple Servant" city1', ["unknown verb 'Play'"]),
        ("play", ["'play' needs card"]),
        ('play "Temple Servant"', ["'play' needs city"]),
        ('pass "Temple Servant"', ["'pass' takes no card"]),
        ("end now", ["'end' takes no label"]),
        ('play "Temple Servant" city0>city1', ["'play' takes no to"]),
        ('move "Temple Servant" city0', ["'move' needs to"]),
        ('offer "Temple Servant" draw 1', ["expected 'draw N coin M'"]),
        ('offer "Temple Servant" draw one coin 1', ["expected 'draw N coin M'"]),
        ('offer "Temple Servant" draw 1 coins 1', ["expected 'draw N coin M'"]),
        ("wealth draw 100 coin 0", ["bad number 100"]),
        ('play "" city1', ["bad name ''"]),
        ('play "   " city1', ["bad name '   '"]),
        ('play "Temple Servant city1', ["unexpected", '"Temple']),
        ('build "A" "B" "C"', ["too many quoted names"]),
        ("choose draw coin", ["unexpected 'coin'"]),
        ("war city1 city2", ["unexpected 'city2'"]),
        ("choose 9lives", ["unexpected '9lives'"]),
    ],
)
def test_rejections_say_what_is_wrong(text, words):
    with pytest.raises(NotationError) as info:
        Move.parse(text)
    message = str(info.value)
    for word in words:
        assert word in message, f"{message!r} should mention {word!r}"
    if text.strip() and not text.lstrip().startswith('"'):
        assert repr(text) in message or text in message, "the message quotes the move"


@pytest.mark.parametrize("value", [None, 3, b"pass", ["pass"]])
def test_parse_rejects_non_text(value):
    with pytest.raises(NotationError, match="must be text"):
        Move.parse(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs, words",
    [
        (dict(verb="jump"), "unknown verb 'jump'"),
        (dict(verb="play", card="Temple Servant"), "needs city"),
        (dict(verb="end", city=1), "takes no city"),
        (dict(verb="take", card='Say "hi"'), "bad name"),
        (dict(verb="choose", label="two words"), "bad label"),
        (dict(verb="wealth", draw=-1, coin=3), "bad number -1"),
        (dict(verb="offer", card="Temple Servant", draw=1), "needs draw"),
    ],
)
def test_constructor_validates(kwargs, words):
    with pytest.raises(NotationError, match=words):
        Move(**kwargs)


@pytest.mark.parametrize("text", ['play "Temple Servant" city3', "war city9", 'move "Rabid Usurper" city0>city7'])
def test_city_out_of_range_is_rejected(text):
    with pytest.raises(NotationError, match="city"):
        Move.parse(text)


@pytest.mark.parametrize("text", ["wealth draw \u00b2 coin 0", 'offer "Temple Servant" draw 1 coin \u2075'])
def test_non_ascii_digits_are_a_notation_error(text):
    with pytest.raises(NotationError):
        Move.parse(text)


# ------------------------------------------------------------------------------ fuzzing

_WORDS = [*VERBS, '"Temple Servant"', '"X"', '""', '"', "city0", "city2", "city9", "city1>city2", "city1>",
          "draw", "coin", "0", "7", "99", "100", "-1", "lbl", "a\"b", ">", "\t", "\u00b2", "\u0661"]
_GRAMMARISH = st.lists(st.sampled_from(_WORDS), max_size=8).map(" ".join)
_ASCII_GRAMMARISH = st.lists(st.sampled_from([w for w in _WORDS if w.isascii()]), max_size=8).map(" ".join)
FUZZ = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _parses_or_raises_notation_error(text: str) -> None:
    try:
        move = Move.parse(text)
    except NotationError:
        return
    again = Move.parse(str(move))
    assert again == move and str(again) == str(move), f"{text!r} -> {str(move)!r} does not round-trip"


@FUZZ
@given(text=st.one_of(st.text(alphabet=string.printable), _ASCII_GRAMMARISH))
def test_fuzz_ascii_text_parses_or_raises_notation_error(text):
    """Any ASCII text either parses to a move whose notation re-parses equal, or raises
    NotationError (never another exception)."""
    _parses_or_raises_notation_error(text)


@FUZZ
@given(text=st.one_of(st.text(), _GRAMMARISH))
@example(text="wealth draw \u00b2 coin 0")
def test_fuzz_any_text_parses_or_raises_notation_error(text):
    """The same property over all of Unicode."""
    _parses_or_raises_notation_error(text)


_NAMES = st.text(st.characters(blacklist_characters='"', blacklist_categories=("Cs",)), min_size=1, max_size=12)


@st.composite
def valid_moves(draw, cities=st.integers(0, 2), labels=st.from_regex(r"[a-z_][a-z0-9_]{0,10}", fullmatch=True)):
    verb = draw(st.sampled_from(list(VERBS)))
    shape = VERBS[verb]
    kwargs: dict = {"verb": verb}
    if "card" in shape:
        kwargs["card"] = draw(_NAMES.filter(str.strip))
    if "city" in shape:
        kwargs["city"] = draw(cities)
    if "to" in shape:
        kwargs["to"] = draw(cities)
    if "target" in shape:
        kwargs["target"] = draw(_NAMES.filter(str.strip))
    if "label" in shape:
        kwargs["label"] = draw(labels)
    if "draw" in shape:
        kwargs["draw"], kwargs["coin"] = draw(st.integers(0, 99)), draw(st.integers(0, 99))
    return kwargs


def _constructs_and_round_trips(kwargs: dict) -> None:
    try:
        move = Move(**kwargs)
    except NotationError:
        return
    assert Move.parse(str(move)) == move, f"{kwargs} -> {str(move)!r} does not re-parse"


@FUZZ
@given(kwargs=valid_moves(labels=st.from_regex(r"[a-z_][a-z0-9_]{0,10}", fullmatch=True).filter(
    lambda s: not (s.startswith("city") and s[4:].isdigit()))))
def test_every_valid_move_round_trips(kwargs):
    """Every move built from in-range fields has a notation that parses back to it."""
    move = Move(**kwargs)
    assert Move.parse(str(move)) == move
    assert str(Move.parse(str(move))) == str(move)


@FUZZ
@given(kwargs=valid_moves(cities=st.integers(-3, 12)))
@example(kwargs={"verb": "war", "city": -1})
@example(kwargs={"verb": "choose", "label": "city1"})
def test_every_constructible_move_round_trips(kwargs):
    """Move() either refuses the fields (NotationError) or builds a move whose notation re-parses."""
    _constructs_and_round_trips(kwargs)


def test_notation_error_is_an_omen_error():
    assert issubclass(NotationError, OmenError)
