"""The numeric encoding of an OMEGA observation for the adapters (:mod:`omen_search.adapters`):
OpenSpiel's observation tensor and PettingZoo's ``observation`` vector are the same ``float32`` vector.

It encodes one seat's observation (``omega-observation/1``, :mod:`~omen_search.games.omega.observe`)
and nothing else, so two states that seat cannot tell apart give the same vector. Seats are counted
from the observer: seat slot 0 is "mine", slot 1 the next seat in turn order, and so on; the vector
has ``S = 4`` slots whatever the player count (the unused ones stay 0). With ``E`` Egregors and
``A`` Arcanum kinds (card-file order; 42 and 42 in the seed edition) and the 6 rune kinds
(``cards.KINDS``):

=====================  =======  ====================================================================
segment                length   meaning
=====================  =======  ====================================================================
``my_pyramid``         6        the runes of my Pyramid, by kind
``known``              S x 6    per seat, the runes of its Pyramid everyone knows (mine: 0)
``hidden``             S        per seat, the runes of its Pyramid I cannot see (mine: 0)
``pyramid_size``       S        per seat, the runes in its Pyramid
``controlled``         S x E    per seat, the Egregors it controls
``carried``            E x 6    the runes on each Egregor in play, by kind
``mask``               S x E    per seat, the Egregor its Mask is on (one-hot)
``taken``              S x A    per seat, its Arcana tokens by kind
``gallery``            E        the Egregors of the Gallery
``discard``            E        the Egregor discard pile
``altar``              6        the runes on the Altar, by kind
``arcana_top``         6 x A    the Arcanum on top of each stack (one-hot)
``arcana_height``      6        the tokens in each stack
``phase``              4        the phase (one-hot, ``positions.PHASES``)
``step``               16       the kind of the step in front of the queue (one-hot, the core's
                                ``STEP_NAMES``)
``queue``              16       the steps in the queue, by kind
``step_seat``          S        the seat of the step in front (one-hot)
``step_egregor``       E        the Egregor that step names (one-hot)
``gained``             E        the Egregor gained this turn (one-hot)
``powers_used``        E        the Egregors whose power was used this turn
``to_move``            S        the seat to move (one-hot)
``active``             S        the seat whose turn it is (one-hot)
``announcer``          S        the seat that announced the end (one-hot)
``final_turns``        S        the seats with a final turn still to play
``seat_scalars``       S x 4    per seat: its pawn's square (1-based), its prestige, it lost an
                                Egregor, it plays (the slot is used)
``scalars``            5        runes in the bag, Egregors in the stack, the turn, this turn's
                                disown and Mask move done
=====================  =======  ====================================================================

The rest of the queue's steps (what each one carries) is not encoded: the action mask (the legal
moves) carries the choice.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from omen_search._omega_core import STEP_NAMES
from omen_search.games.omega.cards import ARCANA_STACKS, KINDS, CardSet
from omen_search.games.omega.positions import PHASES
from omen_search.games.omega.rules import PLAYER_COUNTS
from omen_search.vector_layout import SegmentLayout

SEATS = max(PLAYER_COUNTS)
SEAT_SCALARS = ("pawn", "prestige", "lost_an_egregor", "plays")
SCALARS = ("bag", "stack", "turn", "disowned", "mask_moved")


class ObservationVector(SegmentLayout):
    """The encoding for one card set: :attr:`size` numbers, segment ``name`` at
    ``layout[name] = (start, length)``.

    >>> from omen_search._omega_core import CoreState
    >>> from omen_search.games.omega.cards import default_cards
    >>> encoder, state = ObservationVector(default_cards()), CoreState.new(seed=1)
    >>> vector = encoder.encode(state.observation(0))
    >>> vector.shape == (encoder.size,), int(vector[encoder.slice("my_pyramid")].sum()) == sum(state.pyramid[0])
    (True, True)
    """

    def __init__(self, cards: CardSet):
        self.cards = cards
        self._egregors = {e.name: i for i, e in enumerate(cards.egregors)}
        self._arcana = {a.name: i for i, a in enumerate(cards.arcana)}
        E, A, K, S = len(cards.egregors), len(cards.arcana), len(KINDS), SEATS
        super().__init__([
            ("my_pyramid", K), ("known", S * K), ("hidden", S), ("pyramid_size", S), ("controlled", S * E),
            ("carried", E * K), ("mask", S * E), ("taken", S * A), ("gallery", E), ("discard", E), ("altar", K),
            ("arcana_top", ARCANA_STACKS * A), ("arcana_height", ARCANA_STACKS), ("phase", len(PHASES)),
            ("step", len(STEP_NAMES)), ("queue", len(STEP_NAMES)), ("step_seat", S), ("step_egregor", E),
            ("gained", E), ("powers_used", E), ("to_move", S), ("active", S), ("announcer", S),
            ("final_turns", S), ("seat_scalars", S * len(SEAT_SCALARS)), ("scalars", len(SCALARS))])

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The vector of ``observation`` (the dict of ``observation(p)``), written into ``out`` if
        given (``size`` ``float32`` numbers) and returned."""
        o = observation
        w = self.writer(out, o["player"], o["players_count"])
        v, at, slot, one_hot = w.v, w.at, w.slot, w.one_hot
        E, A, K = len(self._egregors), len(self._arcana), len(KINDS)
        egregors, kinds = self._egregors, {k: i for i, k in enumerate(KINDS)}

        def runes(segment: str, counts: dict[str, int], offset: int = 0) -> None:
            for kind, count in counts.items():
                at(segment, offset + kinds[kind], count)

        for seat in o["players"]:
            r = slot(seat["seat"])
            assert r is not None
            pyramid = seat["pyramid"]
            if r == 0:
                runes("my_pyramid", pyramid.get("runes", {}))
            else:
                runes("known", pyramid.get("known", {}), r * K)
                at("hidden", r, pyramid.get("hidden", 0))
            at("pyramid_size", r, pyramid["size"])
            for egregor in seat["egregors"]:
                c = egregors[egregor["name"]]
                at("controlled", r * E + c)
                runes("carried", egregor["runes"], c * K)
            if seat["mask"] is not None:
                at("mask", r * E + egregors[seat["mask"]])
            self.count(v, "taken", seat["arcana"], self._arcana, r * A)
            for i, value in enumerate((seat["pawn"], seat["prestige"], seat["lost_an_egregor"], 1)):
                at("seat_scalars", r * len(SEAT_SCALARS) + i, value)
        self.count(v, "gallery", o["gallery"], egregors)
        self.count(v, "discard", o["discard"], egregors)
        runes("altar", o["altar"])
        for i, stack in enumerate(o["arcana"]):
            if stack["top"] is not None:
                at("arcana_top", i * A + self._arcana[stack["top"]])
            at("arcana_height", i, stack["height"])
        at("phase", PHASES.index(o["phase"]))
        for step in o["queue"]:
            at("queue", STEP_NAMES.index(step["kind"]))
        step = o["step"]
        if step is not None:
            at("step", STEP_NAMES.index(step["kind"]))
            one_hot("step_seat", step.get("seat"))
            if step.get("egregor") is not None:
                at("step_egregor", egregors[step["egregor"]])
        this_turn = o["this_turn"]
        if this_turn["gained"] is not None:
            at("gained", egregors[this_turn["gained"]])
        self.count(v, "powers_used", this_turn["powers_used"], egregors)
        one_hot("to_move", o["to_move"])
        one_hot("active", o["active"])
        one_hot("announcer", o["announcer"])
        for seat in o["final_turns"]:
            one_hot("final_turns", seat)
        for i, value in enumerate((o["bag"], o["stack"], o["turn"], this_turn["disowned"], this_turn["mask_moved"])):
            at("scalars", i, value)
        return v
