"""OMNIA's fixed, dense action space for the adapters (:mod:`omen_search.adapters`, through
:mod:`~omen_search.games.omnia.adapter`), over the core's packed move ids
(``ext/omnia/_omnia_core.pyx``: the verb in bits 0-4, a card design in 5-12, a place in 13-20, a
seat in 21-22, a zone in bit 23; an amount of damage in bits 5-20).

Each verb of :mod:`~omen_search.games.omnia.notation` gets a block of indices sized by its fields,
and each field counts only the values the verb can take in a game of this card set and player
count, so the space depends on both (an adapter is made for one card set and one count):

* a card design counts among the designs the verb can name: ``source`` a source card, ``play``
  and ``counter`` any other card, ``prime`` and ``cast`` a Prime spell, ``buy`` a card with a cost,
  ``activate`` a card with an ability, ``attack``, ``defend``, ``hero`` and ``attach`` a hero,
  ``trigger`` an Enchantment with a trigger, ``discard`` and ``remove`` any card;
* a place in a playfield (``#N``), from 1 to the most permanents (heroes, Items, Equipment,
  Enchantments) one player can have in play: his starting cards' permanents plus those of the
  ``players`` flavor decks with the most of them (nobody takes another's cards into play);
* a place on the Prime Flow, from 1 to the core's ``MAX_FLOW`` (64): nothing in a card file bounds
  the Flow (a repeatable ability can answer itself while its controller has source), the core does;
* a seat, ``players`` values; a zone, 2;
* an amount of damage put on a defender, from 0 to the most it can take: the largest Def of a hero
  plus every Def bonus of the set's Equipment (Atk has no bound, Def does, and an assignment never
  exceeds the defender's lethal damage).

A card set whose space would exceed :data:`MAX_ACTIONS` is refused with
:class:`~omen_search.errors.UsageError` naming the biggest blocks.

>>> from omen_search.games.omnia.cards import default_cards
>>> space = action_space(default_cards(), 2)
>>> attack = 6 | 0 << 5 | 3 << 13 | 1 << 21  # attack "Squire" #3 seat1: verb 6, design 0, place 3, seat 1
>>> space.size, space.action_of(18), space.action_of(attack), space.packed_of(336) == attack
(5070, 5069, 336, True)
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable

from omen_search._omnia_core import limits
from omen_search.action_space import ActionSpace
from omen_search.errors import UsageError
from omen_search.games.omnia.cards import Card, CardSet
from omen_search.games.omnia.notation import VERBS, ZONES

MAX_ACTIONS = 1 << 16  # the adapters' limit: a mask and a policy of this many numbers a decision

# the designs each kind of card field can name (see the module docstring)
_DESIGNS: dict[str, Callable[[Card], bool]] = {
    "card": lambda c: True,
    "source": lambda c: c.type == "source",
    "play": lambda c: c.type != "source",
    "prime": lambda c: c.prime,
    "buy": lambda c: c.cost is not None,
    "able": lambda c: c.ability is not None,
    "hero": lambda c: c.type == "hero",
    "trigger": lambda c: bool(c.trigger),
}
# each verb's fields, in notation.VERBS's order (the core's verb ids)
_FIELDS: dict[str, tuple[str, ...]] = {
    "source": ("source",), "play": ("play",), "prime": ("prime",), "buy": ("buy",),
    "activate": ("able", "place"), "cast": ("prime",), "attack": ("hero", "place", "seat"),
    "defend": ("hero", "place"), "done": (), "player": ("seat",), "hero": ("hero", "seat", "place"),
    "counter": ("play", "flow"), "assign": ("amount",), "discard": ("card",), "remove": ("card", "zone"),
    "attach": ("hero", "place"), "trigger": ("trigger",), "pass": (), "end": (),
}
assert tuple(_FIELDS) == tuple(VERBS)


def places(cards: CardSet, players: int) -> int:
    """The most cards one player can have in play (see the module docstring), at most the
    core's ``MAX_IDS``."""
    basic = sum(c.copies for c in cards.cards if c.set == "basic" and c.stays)
    decks = [sum(c.copies for c in cards.cards if c.set == "deck" and c.flavor == f.name and c.stays)
             for f in cards.flavors]
    return min(basic + sum(heapq.nlargest(players, decks)), limits()["MAX_IDS"])


def most_damage(cards: CardSet) -> int:
    """The most damage one assignment can put on a defender (see the module docstring), below
    the core's ``MAX_MOVES`` (the core offers no more)."""
    defense = max((c.defense for c in cards.cards if c.type == "hero"), default=0)
    bonus = sum(c.equip.get("def", 0) * c.copies for c in cards.cards if c.type == "equipment")
    return min(defense + bonus, limits()["MAX_MOVES"] - 1)


def action_space(cards: CardSet, players: int) -> ActionSpace:
    """The dense actions of OMNIA for ``players`` players with ``cards``; raises
    :class:`UsageError` for a set whose space would exceed :data:`MAX_ACTIONS`."""
    designs = {kind: [i for i, c in enumerate(cards.cards) if keep(c)] for kind, keep in _DESIGNS.items()}
    rank = {kind: {d: r for r, d in enumerate(ds)} for kind, ds in designs.items()}
    sizes = {kind: len(ds) for kind, ds in designs.items()}
    sizes.update(place=places(cards, players), flow=limits()["MAX_FLOW"], seat=players, zone=len(ZONES),
                 amount=most_damage(cards) + 1)

    def values(packed: int) -> dict[str, int]:
        card, slot = (packed >> 5) & 255, (packed >> 13) & 255
        out = {kind: rank[kind].get(card, sizes[kind]) for kind in designs}  # not one of them: outside
        out.update(place=slot - 1 if slot else sizes["place"], flow=slot - 1 if slot else sizes["flow"],
                   seat=(packed >> 21) & 3, zone=(packed >> 23) & 1, amount=(packed >> 5) & 65535)
        return out

    def pack(verb: int, v: dict[str, int]) -> int:
        if "amount" in v:
            return verb | v["amount"] << 5
        card = next((designs[kind][v[kind]] for kind in designs if kind in v), 0)
        slot = v["place"] + 1 if "place" in v else v["flow"] + 1 if "flow" in v else 0
        return verb | card << 5 | slot << 13 | v.get("seat", 0) << 21 | v.get("zone", 0) << 23

    space = ActionSpace(_FIELDS, sizes, values, pack, lambda packed: packed & 31)
    if space.size > MAX_ACTIONS:
        blocks = sorted(((math.prod(sizes[f] for f in fields), verb) for verb, fields in _FIELDS.items()),
                        reverse=True)[:3]
        raise UsageError(f"adapters: card set {cards.name!r} gives OMNIA for {players} players {space.size:,} "
                         f"actions, more than the {MAX_ACTIONS:,} the adapters number (the biggest blocks: "
                         + ", ".join(f"{verb} {n:,}" for n, verb in blocks) + ")")
    return space
