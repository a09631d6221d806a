"""The text notation of Omen moves, shared by the Omen games: a verb, then the quoted card name, the
city or ``cityA>cityB``, a second quoted name, a bare label and ``draw N coin M``.

Each game lists its verbs and the fields each takes (a field name ending in ``?`` is optional) and
subclasses :class:`CardMove` with them; the notation, its checks and its parser are written once
here, so every Omen game reads and writes moves the same way::

    >>> class Toy(CardMove):
    ...     VERBS = {"play": ("card", "city"), "keep": ("card", "label?"), "pass": ()}
    >>> str(Toy.parse('keep "Opal Statuary" enraged'))
    'keep "Opal Statuary" enraged'
    >>> Toy.parse('play "Opal Statuary" city2').city
    2
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, Self

from omen_search.errors import NotationError

CITIES = 3
FIELDS = ("card", "city", "to", "target", "label", "draw")

_TOKEN = re.compile(r'\s*(?:"([^"]*)"|(\S+))')
_CITY = re.compile(r"city([0-2])(?:>city([0-2]))?$")
_NUMBER = re.compile(r"[0-9]+$")
_CITY_LIKE = re.compile(r"city[0-9]*$")


def read_tokens(text: object) -> list[tuple[bool, str]]:
    """A move's text as its tokens, each ``(quoted, token)``: a name in double quotes, or a bare
    word. Raises :class:`NotationError` for text that is not a string or cannot be read.

    >>> read_tokens('play "Opal Statuary" city2')
    [(False, 'play'), (True, 'Opal Statuary'), (False, 'city2')]
    """
    if not isinstance(text, str):
        raise NotationError(f"a move must be text, got {type(text).__name__}")
    tokens: list[tuple[bool, str]] = []
    stripped, pos = text.strip(), 0
    while pos < len(stripped):
        m = _TOKEN.match(stripped, pos)
        if m is None or m.end() == pos:
            raise NotationError(f"cannot read move {text!r} at character {pos}")
        quoted = m.group(1) is not None
        tokens.append((quoted, m.group(1) if quoted else m.group(2)))
        pos = m.end()
    return tokens


def read_fields(text: str, verbs: dict[str, tuple[str, ...]]) -> tuple[str, list[tuple[str, bool, str]]]:
    """A move written as a verb then exactly the fields ``verbs`` says it takes, in order: the verb
    and each field as ``(name, quoted, token)``; raises :class:`NotationError` for another verb or
    another number of fields."""
    tokens = read_tokens(text)
    if not tokens or tokens[0][0] or tokens[0][1] not in verbs:
        raise NotationError(f"move {text!r} must start with a verb (one of {', '.join(verbs)})")
    verb, rest = tokens[0][1], tokens[1:]
    shape = verbs[verb]
    if len(rest) != len(shape):
        raise NotationError(f"move {text!r}: {verb!r} takes {len(shape)} field{'s' if len(shape) != 1 else ''} "
                            f"({', '.join(shape) or 'none'})")
    return verb, [(name, quoted, token) for name, (quoted, token) in zip(shape, rest)]


def check_shape(move: object, verbs: dict[str, tuple[str, ...]], fields: tuple[str, ...]) -> None:
    """Refuse a move (a value with a ``verb`` and the attributes ``fields``) whose verb is not in
    ``verbs`` or whose fields set are not exactly those its verb takes."""
    verb = getattr(move, "verb")
    if verb not in verbs:
        raise NotationError(f"unknown verb {verb!r} (expected one of {', '.join(verbs)})")
    for name in fields:
        there = getattr(move, name) is not None
        if there != (name in verbs[verb]):
            raise NotationError(f"move {verb!r} {'takes no' if there else 'needs'} {name}")


class FieldNotation:
    """The notation of a move that is a verb and the fields ``VERBS`` says it takes (OMEGA's and
    OMNIA's ``Move``): the fields in ``QUOTED`` are names written in quotes, every other one is
    written and read by the game's :meth:`write_field` and :meth:`read_field`. A subclass is a
    frozen dataclass with ``repr=False`` (its repr is the notation's)."""

    VERBS: ClassVar[dict[str, tuple[str, ...]]]
    QUOTED: ClassVar[frozenset[str]]
    verb: str

    @classmethod
    def write_field(cls, name: str, value: object) -> str:
        return str(value)

    @classmethod
    def read_field(cls, name: str, token: str, text: str) -> object:
        """A field's value from its token; raises :class:`NotationError` naming ``text``."""
        return token

    def __str__(self) -> str:
        return " ".join([self.verb, *(f'"{getattr(self, name)}"' if name in self.QUOTED
                                      else self.write_field(name, getattr(self, name))
                                      for name in self.VERBS[self.verb])])

    def __repr__(self) -> str:
        return f"{type(self).__name__}.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Self:
        """A move from its notation; raises :class:`NotationError` saying what is wrong."""
        verb, rest = read_fields(text, cls.VERBS)
        fields: dict[str, object] = {}
        for name, quoted, token in rest:
            if (name in cls.QUOTED) != quoted:
                raise NotationError(f"move {text!r}: {name} {'must' if not quoted else 'must not'} be in quotes")
            fields[name] = token if quoted else cls.read_field(name, token, text)
        try:
            return cls(verb=verb, **fields)  # type: ignore[call-arg]
        except NotationError as exc:
            raise NotationError(f"move {text!r}: {exc}") from None


def is_label(text: str) -> bool:
    """Whether ``text`` can be a label: one ASCII word that does not read as a city (so the notation
    always parses back; ``draw`` is a label after a verb that takes no ``draw N coin M``)."""
    return text.isascii() and text.isidentifier() and not _CITY_LIKE.match(text)


@dataclass(frozen=True, order=True)
class CardMove:
    """A decision of an Omen game. Fields that the verb does not use are ``None``.

    ``city``/``to`` are city indexes 0–2 (left to right); ``draw``/``coin`` split wealth actions or
    an offering value between cards drawn and coins taken. A subclass sets :attr:`VERBS`.
    """

    VERBS: ClassVar[dict[str, tuple[str, ...]]] = {}

    verb: str
    card: str | None = None
    city: int | None = None
    to: int | None = None
    target: str | None = None
    label: str | None = None
    draw: int | None = None
    coin: int | None = None

    def __post_init__(self) -> None:
        if self.verb not in self.VERBS:
            raise NotationError(f"unknown verb {self.verb!r} (expected one of {', '.join(self.VERBS)})")
        shape = self.VERBS[self.verb]
        present = {
            "card": self.card is not None,
            "city": self.city is not None,
            "to": self.to is not None,
            "target": self.target is not None,
            "label": self.label is not None,
            "draw": self.draw is not None and self.coin is not None,
        }
        for field_name, there in present.items():
            if there and field_name not in shape and field_name + "?" not in shape:
                raise NotationError(f"move {self.verb!r} takes no {field_name}")
            if not there and field_name in shape:
                raise NotationError(f"move {self.verb!r} needs {field_name}")
        for name in (self.card, self.target):
            if name is not None and ('"' in name or not name.strip()):
                raise NotationError(f"bad name {name!r} in a {self.verb!r} move")
        if self.label is not None and not (isinstance(self.label, str) and is_label(self.label)):
            raise NotationError(f"bad label {self.label!r}")
        for c in (self.city, self.to):
            if c is not None and not (isinstance(c, int) and 0 <= c < CITIES):
                raise NotationError(f"bad city {c!r} in a {self.verb!r} move (cities are 0 to {CITIES - 1})")
        for n in (self.draw, self.coin):
            if n is not None and not 0 <= n <= 99:
                raise NotationError(f"bad number {n} in a {self.verb!r} move")

    def __str__(self) -> str:
        parts = [self.verb]
        if self.card is not None:
            parts.append(f'"{self.card}"')
        if self.city is not None:
            parts.append(f"city{self.city}" + (f">city{self.to}" if self.to is not None else ""))
        if self.target is not None:
            parts.append(f'"{self.target}"')
        if self.label is not None:
            parts.append(self.label)
        if self.draw is not None:
            parts.append(f"draw {self.draw} coin {self.coin}")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Self:
        """Parse a move's notation; raises :class:`NotationError` saying what is wrong."""
        tokens = read_tokens(text)
        if not tokens or tokens[0][0]:
            raise NotationError(f"move {text!r} must start with a verb")
        verb = tokens[0][1]
        if verb not in cls.VERBS:
            raise NotationError(f"unknown verb {verb!r} in {text!r} (expected one of {', '.join(cls.VERBS)})")
        fields: dict[str, object] = {}
        names: list[str] = []
        rest = tokens[1:]
        i = 0
        while i < len(rest):
            quoted, tok = rest[i]
            i += 1
            city = _CITY.match(tok) if not quoted else None
            if quoted:
                names.append(tok)
            elif city and "city" not in fields:
                fields["city"] = int(city.group(1))
                if city.group(2) is not None:
                    fields["to"] = int(city.group(2))
            elif tok == "draw" and "draw" in cls.VERBS[verb] and "draw" not in fields:
                tail = rest[i : i + 3]
                if (
                    len(tail) != 3
                    or tail[0][0]
                    or not _NUMBER.match(tail[0][1])
                    or tail[1] != (False, "coin")
                    or tail[2][0]
                    or not _NUMBER.match(tail[2][1])
                ):
                    raise NotationError(f"move {text!r}: expected 'draw N coin M'")
                fields["draw"], fields["coin"] = int(tail[0][1]), int(tail[2][1])
                i += 3
            elif is_label(tok) and "label" not in fields:
                fields["label"] = tok
            else:
                raise NotationError(f"move {text!r}: unexpected {tok!r}")
        if len(names) > 2:
            raise NotationError(f"move {text!r}: too many quoted names")
        if names:
            fields["card"] = names[0]
        if len(names) == 2:
            fields["target"] = names[1]
        try:
            return cls(verb=verb, **fields)  # type: ignore[arg-type]
        except NotationError as exc:
            raise NotationError(f"move {text!r}: {exc}") from None
