"""Moves: small immutable values with one text notation that a player can read and type.

Every decision of the game, whoever makes it, is a :class:`Move`. The notation is the verb, then the
quoted card (or tile, or structure) name, then the city or ``cityA>cityB``, then a quoted target,
then a bare label, then ``draw N coin M``::

    >>> m = Move.parse('play "Opal Statuary" city2')
    >>> m.verb, m.card, m.city
    ('play', 'Opal Statuary', 2)
    >>> str(Move.parse('offer "Temple Servant" draw 1 coin 1'))
    'offer "Temple Servant" draw 1 coin 1'

``Move.parse(str(m)) == m`` for every move; the full list of verbs is in ``docs/formats.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from omen_search.errors import NotationError

# verb -> the fields it takes, in notation order. "card" is a quoted unit/tile/structure name,
# "city" is city0..city2, "to" the destination of a move, "target" a second quoted name,
# "label" a bare word, "draw" the pair "draw N coin M".
VERBS: dict[str, tuple[str, ...]] = {
    "emissary": ("card",),  # Emissary variant: the unit you put forward
    "reveal": ("card",),  # Wealth: discard this Neutral unit to reveal again
    "wealth": ("draw",),  # Wealth actions: how many draws and coins
    "play": ("card", "city"),  # play a unit (from hand, or from revealed cards at no cost)
    "use": ("card",),  # use an unused reward tile
    "end": (),  # end the Surge
    "reinforce": ("card", "city"),  # resolve the REINFORCE of this unit of yours
    "move": ("card", "city", "to"),  # MANEUVER / Sandstorm
    "war": ("city",),  # resolve this war-torn city next
    "keep": ("card",),  # keep this unit after a war
    "enduring": ("card",),  # return this ENDURING unit from the discard pile
    "discard": ("card",),  # discard this card (from the hand the decision is about)
    "choose": ("label",),  # pick a branch of "choose one"
    "entomb": ("card", "city"),  # ENTOMB this unit from this city
    "structure": ("card",),  # start building this structure
    "take": ("card",),  # take this card into your hand
    "offer": ("card", "draw"),  # Offering: discard for cards and coins
    "build": ("card", "target"),  # Offering: BUILD with this unit on this structure
    "pass": (),  # decline an optional choice / stop choosing
}

_TOKEN = re.compile(r'\s*(?:"([^"]*)"|(\S+))')
_CITY = re.compile(r"city([0-2])(?:>city([0-2]))?$")
_NUMBER = re.compile(r"[0-9]+$")
_CITY_LIKE = re.compile(r"city[0-9]*$")
CITIES = 3


def is_label(text: str) -> bool:
    """Whether ``text`` can be a ``choose`` label: one ASCII word that does not read as a city
    (so the notation always parses back; ``draw`` is a label after ``choose``)."""
    return text.isascii() and text.isidentifier() and not _CITY_LIKE.match(text)


@dataclass(frozen=True, order=True)
class Move:
    """A decision. Fields that the verb does not use are ``None``.

    ``city``/``to`` are city indexes 0–2 (left to right); ``draw``/``coin`` split wealth actions or
    an offering value between cards drawn and coins taken.
    """

    verb: str
    card: str | None = None
    city: int | None = None
    to: int | None = None
    target: str | None = None
    label: str | None = None
    draw: int | None = None
    coin: int | None = None

    def __post_init__(self) -> None:
        if self.verb not in VERBS:
            raise NotationError(f"unknown verb {self.verb!r} (expected one of {', '.join(VERBS)})")
        shape = VERBS[self.verb]
        present = {
            "card": self.card is not None,
            "city": self.city is not None,
            "to": self.to is not None,
            "target": self.target is not None,
            "label": self.label is not None,
            "draw": self.draw is not None and self.coin is not None,
        }
        for field_name, there in present.items():
            if there != (field_name in shape):
                need = "needs" if field_name in shape else "takes no"
                raise NotationError(f"move {self.verb!r} {need} {field_name}")
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
    def parse(cls, text: str) -> Move:
        """Parse a move's notation; raises :class:`NotationError` saying what is wrong."""
        if not isinstance(text, str):
            raise NotationError(f"a move must be text, got {type(text).__name__}")
        tokens: list[tuple[bool, str]] = []
        pos = 0
        stripped = text.strip()
        while pos < len(stripped):
            m = _TOKEN.match(stripped, pos)
            if m is None or m.end() == pos:
                raise NotationError(f"cannot read move {text!r} at character {pos}")
            quoted = m.group(1) is not None
            tokens.append((quoted, m.group(1) if quoted else m.group(2)))
            pos = m.end()
        if not tokens or tokens[0][0]:
            raise NotationError(f"move {text!r} must start with a verb")
        verb = tokens[0][1]
        if verb not in VERBS:
            raise NotationError(f"unknown verb {verb!r} in {text!r} (expected one of {', '.join(VERBS)})")
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
            elif tok == "draw" and "draw" in VERBS[verb] and "draw" not in fields:
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
