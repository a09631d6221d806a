"""The numeric encoding of a Heir observation, which the adapters (:mod:`omen_search.adapters`) get
through :mod:`~omen_search.games.heir.adapter`: OpenSpiel's observation tensor and PettingZoo's
``observation`` vector are the same ``float32`` vector.

It encodes one seat's observation (``docs/formats.md``, section 4) and nothing else, so two states
that seat cannot tell apart give the same vector. Every segment is a count, a 0/1 flag or a small
number, in this order (``T`` unit designs, ``R`` reward tiles and ``S`` structures of the card set,
each in card-file order; "mine" is the observing seat, "theirs" the other):

=========================  ======  ================================================================
segment                    length  meaning
=========================  ======  ================================================================
``hand``                   T       my hand, copies of each unit
``my_known``               T       the cards of my hand my opponent knows are there
``their_known``            T       the cards of their hand I know are there
``discard``                T       the discard pile
``revealed``               T       cards revealed from a completed structure, waiting to be unearthed
``limbo``                  T       units after a war, waiting for the keep decision
``my_destroyed``           T       my ENDURING units destroyed in this war
``their_destroyed``        T       theirs
``my_emissary``            T       Emissary variant: the unit I put forward
``city0_tiles``            1       reward tiles left in city 0
``city0_mine``             T       my units in city 0
``city0_theirs``           T       their units in city 0
``city1_…``, ``city2_…``   2(1+2T) the same for cities 1 and 2
``my_unused_tiles``        R       my reward tiles won and not used
``my_used_tiles``          R       my used reward tiles
``their_used_tiles``       R       their used reward tiles
``my_building``            S       the structure I am building (one-hot)
``my_completed``           S       my completed structures
``their_building``         S       theirs
``their_completed``        S       theirs
``phase``                  13      the phase of the turn (one-hot, ``rules.PHASES``)
``decision``               20      the kind of the pending decision (one-hot, ``_core.DECISION_NAMES``)
``decision_city``          3       the city the pending decision is about (one-hot; none: zeros)
``war_city``               3       the city whose war is being resolved (one-hot)
``scalars``                17      see ``SCALARS``
=========================  ======  ================================================================

``SCALARS``: my coins, their coins, my hand size, their hand size, the deck size, their unused
tiles, my and their cards beneath the structure being built, whether my god is favoured, whether
I am the active player, whether I must decide now, whether I won the war being resolved, whether
they did, whether this is the first turn, the turn, the number of effects on the stack, and
whether they have put an emissary forward. The effect stack's contents and the other fields of
the pending decision are not encoded: the action mask (the legal moves) carries the choice.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from omen_search._core import DECISION_NAMES
from omen_search.games.heir.cards import CardSet
from omen_search.games.heir.rules import PHASES
from omen_search.vector_layout import SegmentLayout

SCALARS = ("my_coins", "their_coins", "my_hand_size", "their_hand_size", "deck_size", "their_unused_tiles",
           "my_under", "their_under", "favoured", "active", "to_decide", "war_won", "war_lost", "first_turn",
           "turn", "stack_depth", "their_emissary_chosen")


class ObservationEncoder(SegmentLayout):
    """The encoding for one card set: :attr:`size` numbers, segment ``name`` at
    ``layout[name] = (start, length)``.

    >>> from omen_search.games.heir.cards import default_cards
    >>> from omen_search._core import CoreState
    >>> encoder = ObservationEncoder(default_cards())
    >>> state = CoreState.new(seed=1)
    >>> vector = encoder.encode(state.observation(0))
    >>> vector.shape == (encoder.size,), int(vector[encoder.slice("hand")].sum()) == state.hand_size(0)
    (True, True)
    """

    def __init__(self, cards: CardSet):
        self.cards = cards
        self._units = {u.name: i for i, u in enumerate(cards.units)}
        self._rewards = {r.name: i for i, r in enumerate(cards.rewards)}
        self._structures = {s.name: i for i, s in enumerate(cards.structures)}
        self._phases = {name: i for i, name in enumerate(PHASES)}
        self._decisions = {name: i for i, name in enumerate(DECISION_NAMES)}
        T, R, S = len(cards.units), len(cards.rewards), len(cards.structures)
        segments: list[tuple[str, int]] = [(name, T) for name in (
            "hand", "my_known", "their_known", "discard", "revealed", "limbo", "my_destroyed", "their_destroyed",
            "my_emissary")]
        for c in range(3):
            segments += [(f"city{c}_tiles", 1), (f"city{c}_mine", T), (f"city{c}_theirs", T)]
        segments += [("my_unused_tiles", R), ("my_used_tiles", R), ("their_used_tiles", R),
                     ("my_building", S), ("my_completed", S), ("their_building", S), ("their_completed", S),
                     ("phase", len(PHASES)), ("decision", len(DECISION_NAMES)), ("decision_city", 3),
                     ("war_city", 3), ("scalars", len(SCALARS))]
        super().__init__(segments)

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The vector of ``observation`` (the dict of ``CoreState.observation(p)``), written into
        ``out`` if given (``size`` ``float32`` numbers) and returned."""
        v = np.zeros(self.size, np.float32) if out is None else out
        v[:] = 0
        p = observation["player"]
        me, them = observation["players"][p], observation["players"][1 - p]
        units, rewards, structures = self._units, self._rewards, self._structures

        def count(segment: str, names: list[str] | None, index: dict[str, int]) -> None:
            self.count(v, segment, names, index)

        count("hand", me["hand"], units)
        count("my_known", me["known"], units)
        count("their_known", them["known"], units)
        count("discard", observation["discard"], units)
        count("revealed", observation["revealed"], units)
        count("limbo", observation["limbo"], units)
        count("my_destroyed", me["destroyed"], units)
        count("their_destroyed", them["destroyed"], units)
        count("my_emissary", [me["emissary"]] if me.get("emissary") else [], units)
        for c in range(3):
            v[self.layout[f"city{c}_tiles"][0]] = observation["city_tiles"][c]
            count(f"city{c}_mine", observation["cities"][c][p], units)
            count(f"city{c}_theirs", observation["cities"][c][1 - p], units)
        count("my_unused_tiles", me["unused_tiles"], rewards)
        count("my_used_tiles", me["used_tiles"], rewards)
        count("their_used_tiles", them["used_tiles"], rewards)
        count("my_building", [me["building"]] if me["building"] else [], structures)
        count("my_completed", me["completed"], structures)
        count("their_building", [them["building"]] if them["building"] else [], structures)
        count("their_completed", them["completed"], structures)
        v[self.layout["phase"][0] + self._phases[observation["phase"]]] = 1
        pending = observation["pending"]
        if pending is not None:
            v[self.layout["decision"][0] + self._decisions[pending["kind"]]] = 1
            if 0 <= pending["city"] < 3:
                v[self.layout["decision_city"][0] + pending["city"]] = 1
        war = observation["war"]
        if 0 <= war["city"] < 3:
            v[self.layout["war_city"][0] + war["city"]] = 1
        gods = observation["config"]["gods"]
        scalars = (me["coins"], them["coins"], me["hand_size"], them["hand_size"], observation["deck_size"],
                   them["unused_count"], me["under_count"], them["under_count"], observation["favor"] == gods[p],
                   observation["active"] == p, pending is not None and pending["player"] == p, war["victor"] == p,
                   war["victor"] == 1 - p, observation["first_turn"], observation["turn"], len(observation["stack"]),
                   bool(them.get("emissary_chosen")))
        start = self.layout["scalars"][0]
        v[start:start + len(SCALARS)] = scalars
        return v
