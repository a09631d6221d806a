"""An OMNIA position from what one player sees: :func:`state_from_observation` reads an
``omnia-observation/1`` (what ``observation(player)`` writes, or one written by hand) and deals a
reference state the player sees exactly so, for the advisor to search from.

Every physical card of the game is placed: the ones in sight where the observation puts them, each
seat's ``unseen`` cards into its hidden zones, the flavor cards nobody owns into the Shop deck. What
the player cannot see is then dealt at random by the engine's own determinisation
(``OmniaState.determinized``, docs/rules/omnia.md "For the engine"): each opponent's unseen cards
into his hand, his face-down primed slots (Prime spells only) and his deck; the player's own deck
order; the Shop deck order. Every count must add up and every derived number (Atk, prestige, the
seat to move) must be what the cards give; a mistake is a :class:`~omen_search.errors.FormatError`
naming the field.
"""

from __future__ import annotations

from typing import Any

from omen_search.documents import JsonReader, document
from omen_search.games.omnia.cards import OPERATION_LISTS, CardSet
from omen_search.games.omnia.observe import FORMAT, observe
from omen_search.games.omnia.reference import AUTO_STEPS, Item, OmniaState
from omen_search.games.omnia.rules import DEFAULT_MAX_TURNS, GAME, MAX_TURNS, PLAYER_COUNTS, SHOP_ROW, Config

PHASES = ("action", "cleanup", "draw", "over")
ITEM_KINDS = ("play", "buy", "attack", "activate")
CHOICE_STEPS = ("priority", "trigger", "pay", "cost", "target", "defend", "assign", "attach", "discard", "remove")
MOST = 250  # cards in a zone, items on the Flow, steps in the queue
MOST_NUMBER = 999  # life, source in a pool, damage, an Atk change


class _Reader(JsonReader):
    """A JSON reader that places the game's physical cards: ``take`` hands out a card of a name not
    yet placed, owned by a seat (a basic card: one of that seat's own)."""

    def __init__(self, cards: CardSet, root: str, state: OmniaState):
        super().__init__(root)
        self.cards = cards
        self.state = state
        self.flow = 0  # the actions on the Prime Flow (their uids are 1 to this)
        self.free: dict[tuple[int, int | None], list[int]] = {}  # (design, basic owner) -> cards not placed
        for c, design in enumerate(state.design):
            basic = cards.cards[design].set == "basic"
            self.free.setdefault((design, state.owner[c] if basic else None), []).append(c)

    def design(self, value: Any, path: str) -> int:
        index = self.cards.index(value) if isinstance(value, str) else None
        if index is None:
            self.fail(path, f"unknown card {value!r} (not in {self.cards.name})")
        return index  # type: ignore[return-value]

    def take(self, value: Any, path: str, seat: int | None) -> int:
        """A card of that name, now in a seat's hands (``seat`` None: in the Shop or removed)."""
        design = self.design(value, path)
        basic = self.cards.cards[design].set == "basic"
        if basic and seat is None:
            self.fail(path, f"{value!r} is a basic card: it is never in the Shop")
        free = self.free.get((design, seat if basic else None), [])
        if not free:
            copies = sum(1 for c, d in enumerate(self.state.design) if d == design
                         and (not basic or self.state.owner[c] == seat))
            whose = f"seat {seat}'s {copies}" if basic else f"the {copies} in this game"
            self.fail(path, f"no {value!r} left: {whose} are all elsewhere")
        c = free.pop()
        if not basic:
            self.state.owner[c] = seat
        return c

    def any_of(self, value: Any, path: str, besides: list[int]) -> int:
        """A card of that name outside ``besides`` (a card that has left play, which a step or an
        item still names): only its design matters to the rules from now on."""
        design = self.design(value, path)
        cards = [c for c, d in enumerate(self.state.design) if d == design]
        if not cards:
            self.fail(path, f"no {value!r} in this game: its flavor is no seat's")
        return next((c for c in cards if c not in besides), cards[0])

    def count(self, value: Any, path: str, hi: int = MOST) -> int:
        return self.integer(value, path, 0, hi)

    def names(self, value: Any, path: str) -> list[Any]:
        return self.items(value, path, most=MOST)

    def in_play(self, seat: int, slot: Any, name: Any, path: str, hero: bool = False) -> int:
        """The card at place ``slot`` (``path``) of ``seat``'s playfield, which must be ``name`` (a hero)."""
        field = self.state.field[seat]
        k = self.integer(slot, path, 1, MOST)
        if k > len(field):
            self.fail(path, f"seat {seat} has {len(field)} cards in play")
        c = field[k - 1]
        if name is not None and self.state.name(c) != name:
            self.fail(path, f"seat {seat}'s #{k} is {self.state.name(c)!r}, not {name!r}")
        if hero and self.state.card(c).type != "hero":
            self.fail(path, f"seat {seat}'s #{k} {self.state.name(c)!r} is not a hero")
        return c


def state_from_observation(data: Any, cards: CardSet, root: str = "observation", seed: int = 0
                           ) -> tuple[OmniaState, int]:
    """A reference state that the observing seat sees exactly as ``data`` says, and that seat; the
    unseen cards dealt from ``seed``. Raises :class:`FormatError` naming the field of any mistake or
    any count that does not add up."""
    o = document(data, root)
    check = JsonReader(root)
    if o.get("format") != FORMAT:
        check.fail(f"{root}.format", f"expected {FORMAT!r}, got {o.get('format')!r}")
    if o.get("game", GAME) not in (GAME, *(f"{GAME}-{n}" for n in PLAYER_COUNTS)):
        check.fail(f"{root}.game", f"not an OMNIA observation: {o.get('game')!r}")
    if o.get("cards", cards.name) != cards.name:
        check.fail(f"{root}.cards", f"seen with card set {o.get('cards')!r}, not {cards.name!r}; pass its --cards file")
    n = check.choice(check.get(o, "players_count", root), f"{root}.players_count", PLAYER_COUNTS)
    me = check.integer(check.get(o, "player", root), f"{root}.player", 0, n - 1)
    seats = check.items(check.get(o, "players", root), f"{root}.players", most=4)
    if len(seats) != n:
        check.fail(f"{root}.players", f"{n} seats expected, got {len(seats)}")
    seats = [check.obj(s, f"{root}.players[{q}]") for q, s in enumerate(seats)]
    flavors: list[str] = []
    for q, seat in enumerate(seats):
        path = f"{root}.players[{q}].flavor"
        flavor = check.get(seat, "flavor", f"{root}.players[{q}]")
        if not isinstance(flavor, str) or cards.flavor_index(flavor) is None:
            check.fail(path, f"unknown flavor {flavor!r} (expected one of {', '.join(f.name for f in cards.flavors)})")
        if flavor in flavors:
            check.fail(path, f"{flavor!r} is seat {flavors.index(flavor)}'s flavor too")
        flavors.append(flavor)
    config = Config(players=n, flavors=tuple(flavors),
                    max_turns=check.integer(check.get(o, "max_turns", root, DEFAULT_MAX_TURNS), f"{root}.max_turns",
                                            1, MAX_TURNS))
    state = OmniaState.new(seed, cards, config)  # every physical card, each with its id
    r = _Reader(cards, root, state)
    for zone in (state.deck, state.hand, state.discard, state.field, state.primed):
        for q in range(n):
            zone[q] = []
    state.shop_deck, state.row, state.removed, state.flow, state.todo, state.moves = [], [], [], [], [], []
    state.first_ply = r.integer(r.get(o, "ply", root, 0), f"{root}.ply", 0, 10**7)
    state.turns = r.integer(r.get(o, "turn", root), f"{root}.turn", 0, MAX_TURNS)
    state.active = r.integer(r.get(o, "active", root), f"{root}.active", 0, n - 1)
    state.phase = r.choice(r.get(o, "phase", root), f"{root}.phase", PHASES)
    unseen = [_seat(r, seat, f"{root}.players[{q}]", q, q == me) for q, seat in enumerate(seats)]
    state.row = [r.take(v, f"{root}.shop_row[{i}]", None)
                 for i, v in enumerate(r.items(r.get(o, "shop_row", root), f"{root}.shop_row", most=SHOP_ROW))]
    flow = r.items(r.get(o, "flow", root, []), f"{root}.flow", most=MOST)
    state.uid = r.flow = len(flow)
    state.flow = [_item(r, d, f"{root}.flow[{i}]", i + 1) for i, d in enumerate(flow)]
    queue = r.items(r.get(o, "queue", root, []), f"{root}.queue", most=MOST)
    effects = [isinstance(d, dict) and d.get("kind") == "effect" for d in queue]
    todo = [None if effect else _step(r, d, f"{root}.queue[{i}]") for i, (d, effect) in enumerate(zip(queue, effects))]
    limbo = [s[2] for s in todo if s is not None and s[0] in ("to_discard", "attach")]
    state.todo = [s if s is not None else _effect(r, queue[i], f"{root}.queue[{i}]", limbo) for i, s in enumerate(todo)]
    _removed(r, o, root)
    _shop(r, o, root)
    for q, seat in enumerate(seats):
        _hidden(r, seat, q, unseen[q], q == me)
    if state.phase != "over" and state.todo and state.todo[0][0] in AUTO_STEPS:
        r.fail(f"{root}.queue[0]", f"a {state.todo[0][0]!r} step resolves by itself: no one decides there")
    world = state.determinized(me, seed)
    if state.phase != "over" and not world.legal_moves():
        r.fail(f"{root}.queue", "no legal move in this position")
    _same(r, o, observe(world, me), root)
    return world, me


def _seat(r: _Reader, seat: dict, path: str, q: int, own: bool) -> list[int]:
    """A seat's life, pool, discard stack and playfield, his hand and primed spells if they are the
    observer's; his unseen cards (placed later)."""
    state = r.state
    state.life[q] = r.integer(r.get(seat, "life", path), f"{path}.life", -MOST_NUMBER, MOST_NUMBER)
    letters = state.letters()
    state.pool[q] = [0] * len(letters)
    for letter, amount in r.obj(r.get(seat, "pool", path, {}), f"{path}.pool").items():
        if not isinstance(letter, str) or len(letter) != 1 or letter not in letters:
            r.fail(f"{path}.pool", f"unknown flavor letter {letter!r} (expected one of {', '.join(letters)})")
        state.pool[q][letters.index(letter)] = r.count(amount, f"{path}.pool.{letter}", MOST_NUMBER)
    state.discard[q] = [r.take(v, f"{path}.discard[{i}]", q)
                        for i, v in enumerate(r.names(r.get(seat, "discard", path), f"{path}.discard"))]
    entries = [r.obj(e, f"{path}.field[{i}]") for i, e in enumerate(r.names(r.get(seat, "field", path), f"{path}.field"))]
    state.field[q] = [r.take(r.get(e, "name", f"{path}.field[{i}]"), f"{path}.field[{i}].name", q)
                      for i, e in enumerate(entries)]
    for i, e in enumerate(entries):
        _in_play(r, e, f"{path}.field[{i}]", q, state.field[q][i])
    for i, e in enumerate(entries):  # Atk is known once every Equipment is attached
        c = state.field[q][i]
        if state.card(c).type == "hero":
            at = f"{path}.field[{i}]"
            change = 0
            if "pumped" in e:
                change = r.integer(e["pumped"], f"{at}.pumped", -MOST_NUMBER, MOST_NUMBER)
            elif "atk" in e:  # an Atk of 0 is read as a loss of exactly the card's Atk (give pumped to say more)
                change = r.count(e["atk"], f"{at}.atk", MOST_NUMBER) - state.atk(c)
            if change:
                state.pumped[c] = change
    if own:
        for zone, field in ((state.hand, "hand"), (state.primed, "primed")):
            zone[q] = [r.take(v, f"{path}.{field}[{i}]", q)
                       for i, v in enumerate(r.names(r.get(seat, field, path), f"{path}.{field}"))]
    unseen = r.names(r.get(seat, "unseen", path), f"{path}.unseen")
    zones = ("deck",) if own else ("hand", "primed", "deck")
    held = sum(r.count(r.get(seat, zone, path), f"{path}.{zone}") for zone in zones)
    if len(unseen) != held:
        holds = "the deck holds" if own else "hand, primed spells and deck hold"
        r.fail(f"{path}.unseen", f"{len(unseen)} cards, but {holds} {held}")
    return [r.take(v, f"{path}.unseen[{i}]", q) for i, v in enumerate(unseen)]


def _in_play(r: _Reader, e: dict, path: str, q: int, c: int) -> None:
    """The marks on a card in play: a hero's damage, attack and Atk change, an Equipment's hero, a
    once-per-turn ability used."""
    state = r.state
    card = state.card(c)
    if card.type == "hero":
        damage = r.count(e.get("damage", 0), f"{path}.damage", MOST_NUMBER)
        if damage:
            state.damage[c] = damage
        if r.boolean(e.get("attacked", False), f"{path}.attacked"):
            state.attacked.add(c)
        if r.boolean(e.get("unblockable", False), f"{path}.unblockable"):
            state.unblockable.add(c)
    if e.get("attached_to") is not None:
        if card.type != "equipment":
            r.fail(f"{path}.attached_to", f"{card.name!r} is not an Equipment")
        state.attached[c] = r.in_play(q, e["attached_to"], None, f"{path}.attached_to", hero=True)
    if card.ability is not None and card.ability.once and r.boolean(e.get("used", False), f"{path}.used"):
        state.used.add(c)


def _target(r: _Reader, d: Any, path: str) -> tuple[str, int] | None:
    """``{"player": 1}``, ``{"hero": name, "seat": s, "slot": k}`` or ``{"flow": k}`` (an item of
    the Flow, from 1; None: one that has resolved)."""
    if d is None:
        return None
    state = r.state
    d = r.obj(d, path)
    if "player" in d:
        return ("player", r.integer(d["player"], f"{path}.player", 0, state.n - 1))
    if "flow" in d:
        if d["flow"] is None:
            return ("flow", 0)  # no item has uid 0
        k = r.integer(d["flow"], f"{path}.flow", 1, MOST)
        if k > r.flow:
            r.fail(f"{path}.flow", f"the Flow holds {r.flow} actions")
        return ("flow", k)
    name = r.get(d, "hero", path)
    seat = d.get("seat")
    if seat is None or d.get("slot") is None:  # the hero has left play
        return ("hero", r.any_of(name, f"{path}.hero", [c for f in state.field for c in f]))
    seat = r.integer(seat, f"{path}.seat", 0, state.n - 1)
    return ("hero", r.in_play(seat, d["slot"], name, f"{path}.slot", hero=True))


def _item(r: _Reader, d: Any, path: str, uid: int) -> Item:
    """An action on the Flow or on its way there (``observe.item_json``)."""
    state = r.state
    d = r.obj(d, path)
    kind = r.choice(r.get(d, "kind", path), f"{path}.kind", ITEM_KINDS)
    seat = r.integer(r.get(d, "seat", path), f"{path}.seat", 0, state.n - 1)
    name = r.get(d, "card", path)
    if kind in ("play", "buy"):
        card = r.take(name, f"{path}.card", seat)  # the card itself is on the Flow
    elif d.get("slot") is None:
        card = r.any_of(name, f"{path}.card", state.field[seat])
    else:
        card = r.in_play(seat, d["slot"], name, f"{path}.slot", hero=kind == "attack")
    target = _target(r, d.get("target"), f"{path}.target")
    defenders: tuple[int, ...] = ()
    if kind == "attack":
        if target is None or target[0] != "player":
            r.fail(f"{path}.target", "an attack targets a player")
        defenders = tuple(r.in_play(target[1], k, None, f"{path}.defenders[{i}]", hero=True) for i, k in
                          enumerate(r.items(d.get("defenders", []), f"{path}.defenders", most=MOST)))
    return Item(uid, kind, seat, card, target, defenders, r.boolean(d.get("cast", False), f"{path}.cast"),
                r.boolean(d.get("cancelled", False), f"{path}.cancelled"))


def _step(r: _Reader, d: Any, path: str) -> tuple:
    """One step of ``queue`` back into the reference engine's tuple (``observe.step_json``)."""
    state = r.state
    d = r.obj(d, path)
    kind = r.choice(r.get(d, "kind", path), f"{path}.kind", AUTO_STEPS + CHOICE_STEPS)
    seat = r.integer(r.get(d, "seat", path), f"{path}.seat", 0, state.n - 1)
    if kind == "priority":
        return (kind, seat, r.integer(r.get(d, "passes", path), f"{path}.passes", 0, state.n - 1))
    if kind in ("discard", "remove"):
        return (kind, seat, r.integer(r.get(d, "left", path), f"{path}.left", 1, MOST))
    if kind in ("attach", "to_discard"):  # the card is between the Flow and its place
        return (kind, seat, r.take(r.get(d, "card", path), f"{path}.card", seat))
    if kind in ("pay", "target", "put"):
        state.uid += 1
        return (kind, seat, _item(r, r.get(d, "item", path), f"{path}.item", state.uid))
    if kind == "defend":
        state.uid += 1
        item = _item(r, r.get(d, "item", path), f"{path}.item", state.uid)
        chosen = tuple(r.in_play(seat, k, None, f"{path}.chosen[{i}]", hero=True)
                       for i, k in enumerate(r.items(r.get(d, "chosen", path), f"{path}.chosen", most=MOST)))
        return (kind, seat, item, chosen)
    if kind in ("assign", "strike"):
        attacker = r.in_play(seat, r.get(d, "attacker_slot", path), r.get(d, "attacker", path),
                             f"{path}.attacker_slot", hero=True)
        q = r.integer(r.get(d, "defending", path), f"{path}.defending", 0, state.n - 1)
        defenders = tuple(r.in_play(q, k, None, f"{path}.defenders[{i}]", hero=True) for i, k in
                          enumerate(r.items(r.get(d, "defenders", path), f"{path}.defenders", most=MOST)))
        given = tuple(r.count(v, f"{path}.given[{i}]", MOST_NUMBER) for i, v in
                      enumerate(r.items(r.get(d, "given", path), f"{path}.given", most=max(len(defenders) - 1, 0))))
        return (kind, seat, attacker, q, defenders, given)
    if kind == "trigger":
        names = r.items(r.get(d, "cards", path), f"{path}.cards", most=MOST)
        slots = r.items(d.get("slots", [None] * len(names)), f"{path}.slots", most=len(names))
        if len(slots) != len(names):
            r.fail(f"{path}.slots", f"one place per card ({len(names)}), got {len(slots)}")
        return (kind, seat, tuple(r.any_of(v, f"{path}.cards[{i}]", state.field[seat]) if k is None
                                  else r.in_play(seat, k, v, f"{path}.slots[{i}]")
                                  for i, (v, k) in enumerate(zip(names, slots))))
    return (kind, seat)


def _effect(r: _Reader, d: dict, path: str, limbo: list[int]) -> tuple:
    """An operation of a card's text, ability or trigger still to resolve; its card is the one on
    its way to a discard stack or an Equipment (``limbo``), or one in play (only its design counts)."""
    state = r.state
    seat = r.integer(r.get(d, "seat", path), f"{path}.seat", 0, state.n - 1)
    name = r.get(d, "card", path)
    design = r.design(name, f"{path}.card")
    card = state.cards.cards[design]
    text = r.choice(r.get(d, "text", path), f"{path}.text", OPERATION_LISTS)
    effects = card.operations()[OPERATION_LISTS.index(text)]
    if not effects:
        r.fail(f"{path}.text", f"{name!r} has no {text} operations")
    effect = effects[r.integer(r.get(d, "index", path), f"{path}.index", 0, len(effects) - 1)]
    source = next((c for c in limbo + state.field[seat] if state.design[c] == design), None)
    if source is None:
        source = r.any_of(name, f"{path}.card", [])
    return ("effect", seat, effect, _target(r, d.get("target"), f"{path}.target"), source)


def _removed(r: _Reader, o: dict, root: str) -> None:
    """The cards removed from the game; a basic card is one of the seat's whose basics are short."""
    state = r.state
    for i, v in enumerate(r.names(r.get(o, "removed", root, []), f"{root}.removed")):
        design = r.design(v, f"{root}.removed[{i}]")
        if state.cards.cards[design].set != "basic":
            state.removed.append(r.take(v, f"{root}.removed[{i}]", None))
            continue
        seat = next((q for q in range(state.n) if r.free.get((design, q))), None)
        if seat is None:
            r.fail(f"{root}.removed[{i}]", f"no {v!r} left: every seat's copies are elsewhere")
        state.removed.append(r.take(v, f"{root}.removed[{i}]", seat))


def _shop(r: _Reader, o: dict, root: str) -> None:
    """The source stacks and the Shop deck: the cards of their kind nobody has; no basic card left over."""
    state = r.state
    for (design, seat), free in r.free.items():
        if free and seat is not None:
            r.fail(f"{root}.players[{seat}].unseen", f"{len(free)} of seat {seat}'s {state.cards.cards[design].name!r} "
                                                      "are in no zone: a seat's basic cards are all somewhere")
    stacks = r.obj(r.get(o, "source_stacks", root), f"{root}.source_stacks")
    for f in state.flavor:
        flavor = state.cards.flavors[f].name
        stack = [c for (design, _), free in r.free.items() for c in free
                 if state.cards.cards[design].set == "stack" and state.cards.cards[design].flavor == flavor]
        given = r.count(r.get(stacks, flavor, f"{root}.source_stacks"), f"{root}.source_stacks.{flavor}")
        if given != len(stack):
            r.fail(f"{root}.source_stacks.{flavor}",
                   f"{given} cards, but {len(stack)} of the stack's are in no other place")
        state.stacks[f] = sorted(stack)
    state.shop_deck = sorted(c for (design, _), free in r.free.items() for c in free
                             if state.cards.cards[design].set == "deck")
    given = r.count(r.get(o, "shop_deck", root), f"{root}.shop_deck")
    if given != len(state.shop_deck):
        r.fail(f"{root}.shop_deck", f"{given} cards, but {len(state.shop_deck)} flavor cards are in no other place")


def _hidden(r: _Reader, seat: dict, q: int, unseen: list[int], own: bool) -> None:
    """A seat's unseen cards (counted by ``_seat``) into his deck, and another seat's into his
    face-down primed slots and hand first, in an order the determinisation deals again."""
    state = r.state
    if own:
        state.deck[q] = unseen
        return
    hand, primed = seat["hand"], seat["primed"]
    spells = [c for c in unseen if state.card(c).prime][:primed]
    if len(spells) < primed:
        r.fail(f"{r.root}.players[{q}].primed", f"{primed} face-down spells, but only {len(spells)} Prime spells "
                                                 "are unseen")
    rest = [c for c in unseen if c not in spells]
    state.primed[q], state.hand[q], state.deck[q] = spells, rest[:hand], rest[hand:]


def _same(r: _Reader, given: Any, derived: Any, path: str) -> None:
    """Every field the observation gives is what the position it describes gives (Atk with its
    Equipment, prestige, the seat to move, the step at the front...); ``unseen`` is a multiset."""
    if isinstance(given, dict) and isinstance(derived, dict):
        for key in given:
            if key in derived and key != "unseen":
                _same(r, given[key], derived[key], f"{path}.{key}")
    elif isinstance(given, list) and isinstance(derived, list) and len(given) == len(derived):
        for i, (a, b) in enumerate(zip(given, derived)):
            _same(r, a, b, f"{path}[{i}]")
    elif given != derived or isinstance(given, bool) != isinstance(derived, bool):
        r.fail(path, f"the observation says {given!r}, but the rest of it gives {derived!r}")
