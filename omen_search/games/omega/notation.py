"""OMEGA's moves and their one text notation: a verb, then quoted Egregor or Arcanum names, a rune
kind, ``kindN`` (N runes of a kind) or a stack number, as the verb takes them::

    >>> str(Move("with", runes=("green", 2)))
    'with green2'
    >>> Move.parse('black "Khep" red') == Move("black", card="Khep", kind="red")
    True
    >>> str(Move.parse('arcana "The Hermit" 3'))
    'arcana "The Hermit" 3'

A turn's Main phase is a sequence of small moves (``docs/rules/omega-the-ritual.md``, "For the
engine"): a summon is ``summon "Khep"``, then ``with green2``, then ``add red1`` or ``done``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from omen_search.errors import NotationError
from omen_search.games.omega.cards import KINDS
from omen_search.move_notation import FieldNotation, check_shape

# verb -> the fields it takes, in the order they are written
VERBS: dict[str, tuple[str, ...]] = {
    "draw": ("source",),  # a rune from the Altar (its kind) or from the bag ("bag")
    "summon": ("card",),  # an Egregor of the Gallery (O-summon-1); the runes follow
    "capture": ("card",),  # an opponent's Egregor (O-capture-1); the runes follow
    "with": ("runes",),  # the first colour of a summon or capture: N runes of one kind
    "add": ("runes",),  # its second colour
    "done": (),  # no second colour
    "place": ("card", "runes"),  # N runes of one colour on one of your Egregors (O-place-2)
    "pair": ("card", "other"),  # a green on each of two of your Egregors (O-rune-5)
    "black": ("card", "kind"),  # a black rune on an opponent's Egregor, taking a rune of that kind (O-rune-9)
    "mask": ("card",),  # move your Mask (O-mask-2)
    "power": ("card",),  # use an Egregor's power (a Book's, or a Lightning's when offered)
    "skip": (),  # decline: a Lightning power, a red's proliferation
    "proliferate": (),  # take a red rune from the Altar onto the Egregor (O-rune-2)
    "disown": ("card",),  # O-disown-1
    "end": (),  # end the Main phase
    "keep": ("kind",),  # a rune kept from a lost Egregor (O-lose-1)
    "cycle": ("card", "kind"),  # a rune taken by Runic Cycling (O-power-3)
    "replace": ("card", "other"),  # a Summoning Key replaced by a revealed Egregor (O-power-7)
    "retain": ("card",),  # a Summoning Key kept
    "arcana": ("card", "stack"),  # the Arcanum on top of a stack (O-arcana-1)
}
SOURCES = (*KINDS, "bag")
MAX_RUNES = 10  # of one kind in one move: an Egregor carries 10 at most

_RUNES = re.compile(r"([a-z]+)([0-9]+)$")


@dataclass(frozen=True, repr=False)
class Move(FieldNotation):
    """One decision of OMEGA. Fields the verb does not take are ``None``."""

    VERBS = VERBS
    QUOTED = frozenset({"card", "other"})

    verb: str
    card: str | None = None
    other: str | None = None
    kind: str | None = None
    runes: tuple[str, int] | None = None
    source: str | None = None
    stack: int | None = None

    def __post_init__(self) -> None:
        check_shape(self, VERBS, ("card", "other", "kind", "runes", "source", "stack"))
        for text in (self.card, self.other):
            if text is not None and (not isinstance(text, str) or '"' in text or not text.strip()):
                raise NotationError(f"bad name {text!r} in a {self.verb!r} move")
        if self.kind is not None and self.kind not in KINDS:
            raise NotationError(f"unknown rune kind {self.kind!r} (expected one of {', '.join(KINDS)})")
        if self.source is not None and self.source not in SOURCES:
            raise NotationError(f"unknown source {self.source!r} (a rune kind of the Altar, or bag)")
        if self.runes is not None:
            kind, n = self.runes
            if kind not in KINDS or isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= MAX_RUNES:
                raise NotationError(f"bad runes {self.runes!r}: a rune kind and 1 to {MAX_RUNES}")
        if self.stack is not None and (isinstance(self.stack, bool) or not isinstance(self.stack, int)
                                       or not 1 <= self.stack <= 99):
            raise NotationError(f"bad stack {self.stack!r}")

    @classmethod
    def write_field(cls, name: str, value: object) -> str:
        if name == "runes" and isinstance(value, tuple):
            return f"{value[0]}{value[1]}"
        return str(value)

    @classmethod
    def read_field(cls, name: str, token: str, text: str) -> object:
        if name == "runes":
            m = _RUNES.match(token)
            if m is None:
                raise NotationError(f"move {text!r}: expected runes like green2, got {token!r}")
            return (m.group(1), int(m.group(2)))
        if name == "stack":
            if not token.isdigit():
                raise NotationError(f"move {text!r}: expected a stack number, got {token!r}")
            return int(token)
        return token
