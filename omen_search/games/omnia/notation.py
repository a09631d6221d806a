"""OMNIA's moves and their one text notation: a verb, then as the verb takes them a quoted card
name, ``seatN`` (a player), ``#N`` (a place: a card in a seat's playfield, or an item on the Prime
Flow, counted from 1), a zone (``hand`` or ``discard``) or an amount::

    >>> str(Move("attack", card="Pyre Knight", slot=2, seat=1))
    'attack "Pyre Knight" #2 seat1'
    >>> Move.parse('hero "Squire" seat0 #1') == Move("hero", card="Squire", seat=0, slot=1)
    True

A turn is a sequence of small moves (``docs/formats.md``): an attack is ``attack …``, then the
defender's ``defend …`` moves and ``done``; a spell's target follows its ``play`` or ``cast``.
"""

from __future__ import annotations

from dataclasses import dataclass

from omen_search.errors import NotationError
from omen_search.move_notation import FieldNotation, check_shape

# verb -> the fields it takes, in the order they are written
VERBS: dict[str, tuple[str, ...]] = {
    "source": ("card",),  # play a source card from hand (N-source-1)
    "play": ("card",),  # play a card from hand (N-play-1)
    "prime": ("card",),  # prime a Prime spell face down (N-prime-1)
    "buy": ("card",),  # purchase from the Shop Row or the top of a source stack (N-buy-1)
    "activate": ("card", "slot"),  # a hero's, Item's or Equipment's ability (N-activate-1)
    "cast": ("card",),  # Activate a primed spell (N-prime-2)
    "attack": ("card", "slot", "seat"),  # N-attack-1
    "defend": ("card", "slot"),  # a defending hero (N-attack-1)
    "done": (),  # no more defenders, no more cards to remove
    "player": ("seat",),  # a target player
    "hero": ("card", "seat", "slot"),  # a target hero
    "counter": ("card", "slot"),  # a target action on the Prime Flow (Countercurrent)
    "assign": ("n",),  # damage on the next defender (N-attack-3)
    "discard": ("card",),  # a card discarded from hand
    "remove": ("card", "zone"),  # a card removed from the game (Purge)
    "attach": ("card", "slot"),  # the hero an Equipment enters attached to (N-play-2)
    "trigger": ("card",),  # the next start-of-Action-phase trigger to resolve (N-card-8)
    "pass": (),  # pass priority (N-flow-2)
    "end": (),  # end the Action phase
}
ZONES = ("hand", "discard")
MAX_NUMBER = 999
_PREFIX = {"slot": "#", "seat": "seat", "n": ""}  # the numbers' fields, each written as prefix + number



@dataclass(frozen=True, repr=False)
class Move(FieldNotation):
    """One decision of OMNIA. Fields the verb does not take are ``None``."""

    VERBS = VERBS
    QUOTED = frozenset({"card"})

    verb: str
    card: str | None = None
    slot: int | None = None
    seat: int | None = None
    zone: str | None = None
    n: int | None = None

    def __post_init__(self) -> None:
        check_shape(self, VERBS, ("card", "slot", "seat", "zone", "n"))
        if self.card is not None and (not isinstance(self.card, str) or '"' in self.card or not self.card.strip()):
            raise NotationError(f"bad name {self.card!r} in a {self.verb!r} move")
        for name, least in (("slot", 1), ("seat", 0), ("n", 0)):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not least <= value <= MAX_NUMBER):
                raise NotationError(f"bad {name} {value!r} in a {self.verb!r} move")
        if self.zone is not None and self.zone not in ZONES:
            raise NotationError(f"unknown zone {self.zone!r} (expected one of {', '.join(ZONES)})")

    @classmethod
    def write_field(cls, name: str, value: object) -> str:
        return f"{_PREFIX.get(name, '')}{value}"

    @classmethod
    def read_field(cls, name: str, token: str, text: str) -> object:
        prefix = _PREFIX.get(name)
        if prefix is None:
            return token
        if not token.startswith(prefix) or not token[len(prefix):].isdigit():
            raise NotationError(f"move {text!r}: expected {name} like {prefix}1, got {token!r}")
        return int(token[len(prefix):])
