"""The numeric encoding of a Reign of War observation for the adapters (:mod:`omen_search.adapters`):
OpenSpiel's observation tensor and PettingZoo's ``observation`` vector are the same ``float32`` vector.

It encodes one seat's observation (``docs/formats.md``) and nothing else, so two states that seat
cannot tell apart give the same vector. Every segment is a count, a 0/1 flag or a small number, in
this order (``T`` unit designs, ``R`` reward designs, ``F`` feats of the card set, in card-file
order; "mine" is the observing seat, "theirs" the other):

==========================  =======  ===============================================================
segment                     length   meaning
==========================  =======  ===============================================================
``hand``                    T        my hand, copies of each unit
``my_known``                T        the cards of my hand my opponent knows are there
``their_known``             T        the cards of their hand I know are there
``my_discard``              T        my discard pile (the shared one with one deck)
``their_discard``           T        theirs (own decks only)
``my_deck_list``            T        own decks: every card of my deck
``their_deck_list``         T        own decks: the cards of theirs I know of
``revealed``                T        cards revealed by an ability, waiting for the choice
``limbo``                   T        units after a war, waiting for the keep decision (Enraged too)
``my_emissary``             T        Emissary variant: the unit card I put forward
``pack``                    T        Simplified draft: the pack I hold
``their_pack``              T        Simplified draft: the pack they hold, once I have seen it
``stacks``                  T        Card Drafting: the stacks left
``my_drafted``              T        Card Drafting: my stacks
``their_drafted``           T        Card Drafting: theirs
``cityC_mine``              T        (C = 0, 1, 2) my face-up units in city C
``cityC_mine_enraged``      T        my Enraged units in city C
``cityC_theirs``            T        their face-up units in city C
``cityC_theirs_enraged``    T        their Enraged units in city C
``portent_left``            3T       my Oracles still to resolve this Portent step, per city
``my_rewards``              R        my reward cards in hand
``my_rewards_used``         R        my used reward cards
``their_rewards_used``      R        theirs
``my_feats``                F        my feats done
``their_feats``             F        theirs
``city_rewards``            3        reward cards left in each city
``phase``                   13       the phase (one-hot, ``rules.PHASES``)
``decision``                18       the kind of the pending decision (one-hot, ``rules.DECISIONS``)
``decision_city``           3        the city the pending decision is about (one-hot)
``war_city``                3        the city whose war is being resolved (one-hot)
``scalars``                 16       see :data:`SCALARS`
==========================  =======  ===============================================================

The effect stack and the other fields of the pending decision are not encoded: the action mask (the
legal moves) carries the choice.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from omen_search.games.reign.cards import CardSet
from omen_search.games.reign.rules import CITIES, DECISIONS, PHASES
from omen_search.vector_layout import SegmentLayout

SCALARS = ("my_coins", "their_coins", "my_hand_size", "their_hand_size", "my_deck_size", "their_deck_size",
           "their_reward_count", "supply", "active", "to_decide", "war_won", "war_lost", "first_turn", "turn",
           "their_hand_discards", "beast_abilities")
UNIT_SEGMENTS = ("hand", "my_known", "their_known", "my_discard", "their_discard", "my_deck_list", "their_deck_list",
                 "revealed", "limbo", "my_emissary", "pack", "their_pack", "stacks", "my_drafted", "their_drafted")


class ObservationVector(SegmentLayout):
    """The encoding for one card set: :attr:`size` numbers, segment ``name`` at
    ``layout[name] = (start, length)``.

    >>> from omen_search.games.reign.cards import default_cards
    >>> from omen_search.games.reign.reference import GameState
    >>> encoder, state = ObservationVector(default_cards()), GameState.new(seed=1)
    >>> vector = encoder.encode(state.observation(0))
    >>> vector.shape == (encoder.size,), int(vector[encoder.slice("hand")].sum()) == state.hand_size(0)
    (True, True)
    """

    def __init__(self, cards: CardSet):
        self.cards = cards
        self._units = {u.name: i for i, u in enumerate(cards.units)}
        self._rewards = {r.name: i for i, r in enumerate(cards.rewards)}
        self._feats = {f.name: i for i, f in enumerate(cards.feats)}
        T, R, F = len(cards.units), len(cards.rewards), len(cards.feats)
        segments: list[tuple[str, int]] = [(name, T) for name in UNIT_SEGMENTS]
        for c in range(CITIES):
            segments += [(f"city{c}_{side}", T) for side in ("mine", "mine_enraged", "theirs", "theirs_enraged")]
        segments += [("portent_left", CITIES * T), ("my_rewards", R), ("my_rewards_used", R),
                     ("their_rewards_used", R), ("my_feats", F), ("their_feats", F), ("city_rewards", CITIES),
                     ("phase", len(PHASES)), ("decision", len(DECISIONS)), ("decision_city", CITIES),
                     ("war_city", CITIES), ("scalars", len(SCALARS))]
        super().__init__(segments)

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The vector of ``observation`` (the dict of ``observation(p)``), written into ``out`` if
        given (``size`` ``float32`` numbers) and returned."""
        v = np.zeros(self.size, np.float32) if out is None else out
        v[:] = 0
        p = observation["player"]
        me, them = observation["players"][p], observation["players"][1 - p]
        own = observation["config"]["deck"] != "shared"

        def count(segment: str, names: list[str] | None, index: dict[str, int], offset: int = 0) -> None:
            self.count(v, segment, names, index, offset)

        units = self._units
        count("hand", me["hand"], units)
        count("my_known", me["known"], units)
        count("their_known", them["known"], units)
        count("my_discard", observation["discards"][p if own else 0], units)
        if own:
            count("their_discard", observation["discards"][1 - p], units)
            count("my_deck_list", me["deck_list"], units)
            count("their_deck_list", them["deck_list"], units)
        count("revealed", observation["revealed"], units)
        count("limbo", observation["limbo"] + observation["limbo_enraged"], units)
        count("my_emissary", [me["emissary"]] if me.get("emissary") else [], units)
        sdraft = observation.get("sdraft")
        if sdraft is not None:
            count("pack", sdraft["pack"], units)
            count("their_pack", sdraft["opponent_pack"], units)
        draft = observation["draft"]
        count("stacks", draft["stacks"], units)
        count("my_drafted", draft["drafted"][p], units)
        count("their_drafted", draft["drafted"][1 - p], units)
        for c, city in enumerate(observation["cities"]):
            count(f"city{c}_mine", city["sides"][p], units)
            count(f"city{c}_mine_enraged", city["enraged"][p], units)
            count(f"city{c}_theirs", city["sides"][1 - p], units)
            count(f"city{c}_theirs_enraged", city["enraged"][1 - p], units)
            count("portent_left", observation["portent_left"][c] if observation["active"] == p else [], units,
                  c * len(units))
            v[self.layout["city_rewards"][0] + c] = city["rewards"]
        count("my_rewards", me["rewards"], self._rewards)
        count("my_rewards_used", me["rewards_used"], self._rewards)
        count("their_rewards_used", them["rewards_used"], self._rewards)
        count("my_feats", me["feats"], self._feats)
        count("their_feats", them["feats"], self._feats)
        v[self.layout["phase"][0] + PHASES.index(observation["phase"])] = 1
        pending, war = observation["pending"], observation["war"]
        if pending is not None:
            v[self.layout["decision"][0] + DECISIONS.index(pending["kind"])] = 1
            if 0 <= pending["city"] < CITIES:
                v[self.layout["decision_city"][0] + pending["city"]] = 1
        if 0 <= war["city"] < CITIES:
            v[self.layout["war_city"][0] + war["city"]] = 1
        sizes = observation["deck_sizes"]
        counts = observation["turn_counts"]
        scalars = (me["coins"], them["coins"], me["hand_size"], them["hand_size"], sizes[p if own else 0],
                   sizes[1 - p] if own else sizes[0], them["reward_count"], observation["supply"],
                   observation["active"] == p, pending is not None and pending["player"] == p, war["victor"] == p,
                   war["victor"] == 1 - p, observation["first_turn"], observation["turn"],
                   counts["hand_discards"][1 - p], counts["beast_abilities"])
        start = self.layout["scalars"][0]
        v[start:start + len(SCALARS)] = scalars
        return v
