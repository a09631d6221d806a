"""The numeric encoding of an OMNIA observation for the adapters (:mod:`omen_search.adapters`):
OpenSpiel's observation tensor and PettingZoo's ``observation`` vector are the same ``float32`` vector.

It encodes one seat's observation (``omnia-observation/1``, :mod:`~omen_search.games.omnia.observe`)
and nothing else, so two states that seat cannot tell apart give the same vector: the observer's
hand and primed spells by design, everyone else's as counts, every deck and the Shop deck as counts.
Seats are counted from the observer: seat slot 0 is "mine", slot 1 the next seat in turn order, and
so on; the vector has ``S = 4`` slots whatever the player count (the unused ones stay 0). With
``D`` card designs and ``K`` flavors (card-file order; 46 and 4 in the seed edition, 1,955 numbers):

=====================  =======  ====================================================================
segment                length   meaning
=====================  =======  ====================================================================
``my_hand``            D        the cards in my hand, by design
``my_primed``          D        my face-down primed spells, by design
``discard``            S x D    per seat, its discard stack by design
``field``              S x D    per seat, its cards in play by design
``field_atk``          S x D    per seat and design, the Atk of its heroes in play (Equipment and
                                this turn's changes counted)
``field_def``          S x D    the same for Def
``field_damage``       S x D    the damage on them
``field_attacked``     S x D    its heroes in play that attacked this turn
``field_used``         S x D    its cards whose once-a-turn ability was used this turn
``field_attached``     S x D    its Equipment attached to a hero
``flavor``             S x K    per seat, its flavor (one-hot)
``pool``               S x K    per seat, its source pool by flavor
``shop_row``           D        the Shop Row by design
``source_stacks``      K        the cards left in each flavor's source stack
``removed``            D        the cards removed from the game by design
``flow``               D        the cards of the actions on the Prime Flow by design
``flow_top``           D        the card of the action on top of the Flow (one-hot)
``flow_top_kind``      4        that action's kind (one-hot: play, buy, attack, activate)
``flow_top_seat``      S        its seat (one-hot)
``flow_top_target``    S        the seat it aims at, a player or a hero's controller (one-hot)
``phase``              5        the phase (one-hot, the core's ``PHASES``)
``step``               20       the kind of the choice in front of the queue (one-hot, the core's
                                ``STEP_NAMES``)
``step_seat``          S        the seat that choice is for (one-hot)
``step_card``          D        the card it is about: the card paid for, aimed or attached, the
                                attacker (one-hot)
``step_cards``         D        the triggers to order, by design
``to_move``            S        the seat to move (one-hot)
``active``             S        the seat whose turn it is (one-hot)
``seat_scalars``       S x 6    per seat: its life (0 when below), its prestige, the cards in its
                                hand, primed, in its deck, it plays (the slot is used)
``scalars``            6        the Shop deck's cards, the turn, the actions on the Flow, the
                                cancelled ones, the cards still to discard or remove, the defenders
                                chosen or damaged so far
=====================  =======  ====================================================================

The rest of the Flow and of the choice (targets below the top, which defender took how much) is not
encoded: the action mask (the legal moves) carries the choice.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from omen_search._omnia_core import KINDS, PHASES, STEP_NAMES
from omen_search.games.omnia.cards import CardSet
from omen_search.games.omnia.rules import PLAYER_COUNTS
from omen_search.vector_layout import SegmentLayout

SEATS = max(PLAYER_COUNTS)
SEAT_SCALARS = ("life", "prestige", "hand", "primed", "deck", "plays")
SCALARS = ("shop_deck", "turn", "flow", "cancelled", "left", "defenders")
_PER_DESIGN = ("discard", "field", "field_atk", "field_def", "field_damage", "field_attacked", "field_used",
               "field_attached")


class ObservationVector(SegmentLayout):
    """OMNIA's vector for one card set, whose designs and flavors fix the segments' lengths.

    >>> from omen_search._omnia_core import CoreState
    >>> from omen_search.games.omnia.cards import default_cards
    >>> game = CoreState.new(seed=1)
    >>> seen = ObservationVector(default_cards())
    >>> hand = seen.encode(game.observation(0))[seen.slice("my_hand")]
    >>> seen.size, int(hand.sum()) == len(game.hand[0])
    (1955, True)
    """

    def __init__(self, cards: CardSet):
        self.cards = cards
        self._designs = {c.name: i for i, c in enumerate(cards.cards)}
        self._flavors = {f.name: i for i, f in enumerate(cards.flavors)}
        self._letters = {f.letter: i for i, f in enumerate(cards.flavors)}
        D, K, S = len(cards.cards), len(cards.flavors), SEATS
        super().__init__([
            ("my_hand", D), ("my_primed", D), *((name, S * D) for name in _PER_DESIGN), ("flavor", S * K),
            ("pool", S * K), ("shop_row", D), ("source_stacks", K), ("removed", D), ("flow", D), ("flow_top", D),
            ("flow_top_kind", len(KINDS)), ("flow_top_seat", S), ("flow_top_target", S), ("phase", len(PHASES)),
            ("step", len(STEP_NAMES)), ("step_seat", S), ("step_card", D), ("step_cards", D), ("to_move", S),
            ("active", S), ("seat_scalars", S * len(SEAT_SCALARS)), ("scalars", len(SCALARS))])

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """One seat's ``observation(p)`` as numbers, in ``out`` (cleared first) or a new vector."""
        o = observation
        w = self.writer(out, o["player"], o["players_count"])
        v, at, slot, one_hot = w.v, w.at, w.slot, w.one_hot
        D, K = len(self._designs), len(self._flavors)
        designs = self._designs

        def size(cards: list[str] | int) -> int:
            return cards if isinstance(cards, int) else len(cards)

        for seat in o["players"]:
            r = slot(seat["seat"])
            assert r is not None
            if r == 0:  # a list in a seat's own observation, a count in a public view
                self.count(v, "my_hand", seat["hand"] if isinstance(seat["hand"], list) else (), designs)
                self.count(v, "my_primed", seat["primed"] if isinstance(seat["primed"], list) else (), designs)
            self.count(v, "discard", seat["discard"], designs, r * D)
            for card in seat["field"]:
                c = r * D + designs[card["name"]]
                at("field", c)
                at("field_atk", c, card.get("atk", 0))
                at("field_def", c, card.get("defense", 0))
                at("field_damage", c, card.get("damage", 0))
                at("field_attacked", c, card.get("attacked", False))
                at("field_used", c, card.get("used", False))
                at("field_attached", c, card.get("attached_to") is not None)
            at("flavor", r * K + self._flavors[seat["flavor"]])
            for letter, amount in seat["pool"].items():
                at("pool", r * K + self._letters[letter], amount)
            for i, value in enumerate((max(seat["life"], 0), seat["prestige"], size(seat["hand"]),
                                       size(seat["primed"]), seat["deck"], 1)):
                at("seat_scalars", r * len(SEAT_SCALARS) + i, value)
        self.count(v, "shop_row", o["shop_row"], designs)
        for flavor, height in o["source_stacks"].items():
            at("source_stacks", self._flavors[flavor], height)
        self.count(v, "removed", o["removed"], designs)
        flow = o["flow"]
        self.count(v, "flow", [item["card"] for item in flow], designs)
        if flow:
            top = flow[-1]
            at("flow_top", designs[top["card"]])
            at("flow_top_kind", KINDS.index(top["kind"]))
            one_hot("flow_top_seat", top["seat"])
            target = top["target"] or {}
            one_hot("flow_top_target", target.get("player", target.get("seat")))
        at("phase", PHASES.index(o["phase"]))
        step = o["step"]
        left = chosen = 0
        if step is not None:
            at("step", STEP_NAMES.index(step["kind"]))
            one_hot("step_seat", step["seat"])
            card = step.get("card", step.get("attacker"))
            if card is not None:
                at("step_card", designs[card])
            self.count(v, "step_cards", step.get("cards"), designs)
            left = step.get("left", 0)
            chosen = len(step.get("chosen", step.get("given", ())))
        one_hot("to_move", o["to_move"])
        one_hot("active", o["active"])
        for i, value in enumerate((o["shop_deck"], o["turn"], len(flow), sum(item["cancelled"] for item in flow),
                                   left, chosen)):
            at("scalars", i, value)
        return v
