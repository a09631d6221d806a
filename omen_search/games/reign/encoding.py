"""Reign of War moves as packed ``int32`` ids: what the Cython core (``ext/reign/``) generates and the
search stores in its trees, turned back into :class:`~omen_search.games.reign.notation.Move` only at
the edge. An id means a move given the card set (a unit's or reward card's index)::

    bits  0-4   verb      index into notation.VERBS
    bits  5-10  card      unit id; reward card id for ``use``
    bits 11-12  city      0-2 (the source city of ``move``)
    bits 13-14  to        0-2 (``move``)
    bit   15    enraged   the label ``enraged``
    bits 16-21  draw      0-63 (``wealth``, ``offer``)
    bits 22-27  coin      0-63

A field the verb does not take is 0, so every legal move has one id and ids are non-negative.

>>> from omen_search.games.reign.cards import default_cards
>>> codec = MoveCodec(default_cards())
>>> move = Move.parse('move "Spartan Warrior" city0>city2 enraged')
>>> codec.decode(codec.encode(move)) == move
True
"""

from __future__ import annotations

from omen_search.errors import NotationError
from omen_search.games.reign.cards import CardSet
from omen_search.games.reign.notation import ENRAGED, VERBS, Move

VERB_IDS = {verb: i for i, verb in enumerate(VERBS)}
MAX_FIELD = 63  # the largest card id, draw or coin a field holds


def pack(verb: int, card: int = 0, city: int = 0, to: int = 0, enraged: int = 0, draw: int = 0, coin: int = 0) -> int:
    """The id of a move from its fields (see the module's bit layout)."""
    return verb | (card << 5) | (city << 11) | (to << 13) | (enraged << 15) | (draw << 16) | (coin << 22)


class MoveCodec:
    """Move <-> id for one card set."""

    def __init__(self, cards: CardSet):
        self.cards = cards
        self._units = {u.name: u.index for u in cards.units}
        self._rewards = {r.name: r.index for r in cards.rewards}
        self._verbs = tuple(VERBS)

    def encode(self, move: Move) -> int:
        """The id of ``move``; raises :class:`NotationError` for a card the set does not have or a
        number that does not fit its field."""
        fields = VERBS[move.verb]
        card = 0
        if move.card is not None:
            names = self._rewards if move.verb == "use" else self._units
            if move.card not in names:
                raise NotationError(f"move {str(move)!r}: no card {move.card!r} in {self.cards.name!r}")
            card = names[move.card]
        if move.label is not None and move.label != ENRAGED:
            raise NotationError(f"move {str(move)!r}: the only label is {ENRAGED!r}")
        draw, coin = (move.draw, move.coin) if "draw" in fields else (0, 0)
        if draw > MAX_FIELD or coin > MAX_FIELD:  # type: ignore[operator]
            raise NotationError(f"move {str(move)!r}: draw and coin are at most {MAX_FIELD}")
        return pack(VERB_IDS[move.verb], card, move.city or 0, move.to or 0, int(move.label == ENRAGED),
                    draw, coin)  # type: ignore[arg-type]

    def decode(self, m: int) -> Move:
        """The move of id ``m``."""
        verb = self._verbs[m & 31]
        fields = VERBS[verb]
        card = (m >> 5) & 63
        kw: dict = {}
        if "card" in fields:
            kw["card"] = (self.cards.rewards if verb == "use" else self.cards.units)[card].name
        if "city" in fields:
            kw["city"] = (m >> 11) & 3
        if "to" in fields:
            kw["to"] = (m >> 13) & 3
        if "label?" in fields and (m >> 15) & 1:
            kw["label"] = ENRAGED
        if "draw" in fields:
            kw["draw"] = (m >> 16) & 63
            kw["coin"] = (m >> 22) & 63
        return Move(verb, **kw)
