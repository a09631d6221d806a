"""Positions and observations as JSON: what a whole game state is, and what one player knows of it.

A *position* is the full state (for tests, puzzles and debugging): :func:`to_position` writes it as
the public view of :mod:`omen_search.games.heir.observe` plus what no player sees. An *observation* is
exactly what one player knows (:func:`~omen_search.games.heir.observe.observe` writes it): their own
hand, every public thing, and counts of the hidden things. Both load here, with
validation that names the JSON path of a bad field (``observation.hand[2]: unknown card 'Opal
Statue'``) and rejects impossible situations. ``docs/formats.md`` documents both with examples.

Hand-written positions may leave out what the engine can fill in: flags default to false, ``deck``
defaults to every unit not placed elsewhere (shuffled with ``seed``), ``pending`` to none (the
engine then runs on to the next decision).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any, NamedTuple

from omen_search.errors import FormatError, OmenError, RecordError, UsageError, shown
from omen_search.documents import JsonReader, document
from omen_search.game import Game, game_of, get_game
from omen_search.games.heir.cards import DECK_SIZE, GODS, MAX_STACK, CardSet, default_cards, load_cards
from omen_search.games.heir.observe import (
    NAMED_REFS,
    OBSERVATION_FORMAT,
    observe,
    public_view,
    seat_view,
    tile_names,
    unit_names,
)
from omen_search.games.heir.reference import GameState, Parts
from omen_search.games.heir.rules import (
    CAPACITY,
    CH,
    CH_COINS,
    CITIES,
    COINS,
    DECISIONS,
    GAME_OVER,
    LEVELS,
    PHASES,
    SURGE,
    WAR_ENDURING,
    WAR_KEEP,
    WEALTH,
    WEALTH_AGAIN,
    Config,
    Pending,
    programs,
    unit_count,
)
from omen_search.jsonio import read_json_file
from omen_search.limits import TURNS
from omen_search.rng import MASK64, Rng
from omen_search.games.heir.state import State

POSITION_FORMAT = "omen-position/1"


class _Shape(NamedTuple):
    """What a pending decision of one kind holds, as the engine makes it: ``op`` the effect its
    ``ref`` points at (None: no ``ref``; ``optional``: with or without one), ``n`` the range of
    ``n`` (an upper end ``"effect"`` is the effect's own N, ``"effect-1"`` one less, ``"revealed"``
    the revealed cards), ``last`` what ``last`` keys (a unit id, or ``city × units + unit``),
    ``card`` whether it may name a unit, ``owner`` whether an effect resolves for an owner,
    ``city`` what ``city`` is: the war's city, or the frame's (a city when the effect resolves in
    one). Fields a kind does not use keep their defaults."""

    op: str | None = None
    optional: bool = False
    n: tuple[int, int | str] = (0, 0)
    last: str | None = None
    card: bool = False
    owner: bool = False
    city: str | None = None


_SHAPES = {
    "emissary": _Shape(), "reveal": _Shape(), "surge": _Shape(), "reinforce": _Shape(), "war": _Shape(),
    "enduring": _Shape(), "play_free": _Shape(), "offering": _Shape(),
    "wealth": _Shape(n=(2, 3)),
    "keep": _Shape(n=(1, 2), last="unit", city="war"),
    "discard": _Shape("opponent_discards", optional=True, n=(1, DECK_SIZE), last="unit", card=True, owner=True),
    "trash": _Shape("reveal_hand_discard", n=(1, "effect"), last="unit", owner=True),
    "entomb": _Shape("entomb", n=(1, "effect"), last="key", owner=True, city="frame"),
    "structure": _Shape("entomb", n=(0, "effect-1"), last="key", owner=True, city="frame"),
    "reclaim": _Shape(n=(1, DECK_SIZE), last="unit", owner=True),
    "move": _Shape("move", n=(1, "effect"), owner=True, city="frame"),
    "steal": _Shape("steal_unit", owner=True, city="frame"),
    "unearth": _Shape(n=(0, "revealed"), last="unit", card=True, owner=True),
    "choose": _Shape("choose", owner=True, city="frame"),
}


def _in_a_city(ref: tuple) -> bool:
    """Whether the effects under ``ref`` resolve in a city ("this city"): a unit's REINFORCE or
    INVOCATION, its MANEUVER, the REINFORCE choice."""
    return ref[0] in ("maneuver", "reinforce") or (ref[0] == "unit" and ref[2] in ("reinforce", "invocation"))


# ------------------------------------------------------------------------------ writing


def to_position(state: State) -> dict[str, Any]:
    """The full state as a JSON-ready dict (format ``omen-position/1``)."""
    out = {"format": POSITION_FORMAT, **public_view(state)}
    out["rng"] = [f"{w:016x}" for w in state.rng.s]
    out["deck"] = [state.units[t].name for t in state.deck]
    out["city_tiles"] = [tile_names(state, state.city_tiles[c]) for c in range(CITIES)]
    out["players"] = []
    for p in (0, 1):
        player = seat_view(state, p, full=True)
        player["under"] = unit_names(state, state.under[p])
        player["emissary"] = state.units[state.emissaries[p]].name if state.emissaries[p] >= 0 else None
        out["players"].append(player)
    return out


# ------------------------------------------------------------------------------ reading


class DocumentReader(JsonReader):
    """A :class:`JsonReader` that reads names of cards of ``cards`` as their ids."""

    def __init__(self, cards: CardSet, root: str):
        super().__init__(root)
        self.cards = cards
        self.unit_ids = {u.name: u.index for u in cards.units}
        self.tile_ids = {r.name: r.index for r in cards.rewards}

    def unit(self, name: Any, path: str) -> int:
        """One unit name, as its unit id."""
        if not isinstance(name, str) or name not in self.unit_ids:
            self.fail(path, f"unknown card {shown(name)}")
        return self.unit_ids[name]

    def units(self, value: Any, path: str) -> list[int]:
        """A list of unit names, as unit ids."""
        return [self.unit(name, f"{path}[{i}]") for i, name in enumerate(self.items(value, path))]

    def counts(self, value: Any, path: str) -> list[int]:
        counts = [0] * len(self.cards.units)
        for t in self.units(value, path):
            counts[t] += 1
        return counts

    def tiles(self, value: Any, path: str) -> list[int]:
        out = []
        for i, name in enumerate(self.items(value, path)):
            if not isinstance(name, str) or name not in self.tile_ids:
                self.fail(f"{path}[{i}]", f"unknown reward tile {shown(name)}")
            out.append(self.tile_ids[name])
        return out

    def structure_slot(self, value: Any, path: str, god: str) -> int:
        for s in self.cards.structures_of(god):
            if s.name == value:
                return s.slot
        self.fail(path, f"not a structure of {god}: {shown(value)}")

    def ref(self, value: Any, path: str) -> tuple:
        """An effect reference with its names turned into ids: a key of :func:`~omen_search.games.heir.rules.programs`, or ``()``."""
        ref = list(self.items(value, path, most=16))
        if not ref:
            return ()
        if not all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in ref):
            self.fail(path, f"must list names and numbers, got {shown(value)}")
        if ref[0] in NAMED_REFS and len(ref) > 1:
            table = {"unit": self.unit_ids, "reward": self.tile_ids,
                     "structure": {s.name: s.index for s in self.cards.structures}}[NAMED_REFS[ref[0]]]
            if ref[1] not in table:
                self.fail(f"{path}[1]", f"unknown {NAMED_REFS[ref[0]]} {shown(ref[1])}")
            ref[1] = table[ref[1]]
        out = tuple(ref)
        if out not in programs(self.cards):
            ability = "MANEUVER" if ref[0] == "maneuver" else ref[2] if ref[0] == "unit" and len(ref) > 2 else None
            root = out[:3] if ref[0] == "unit" else out[:2]
            lacks = (f" ({self.cards.units[ref[1]].name!r} has no {ability})"
                     if ability is not None and len(ref) > 1 and isinstance(ref[1], int)
                     and root not in programs(self.cards) else "")
            self.fail(path, f"does not name an ability of the card set: {shown(value)}{lacks}")
        return out


def _check_cards(doc: dict, cards: CardSet, root: str) -> None:
    meta = doc.get("cards")
    if isinstance(meta, dict) and meta.get("sha256") not in (None, cards.sha256):
        raise FormatError(
            f"{root}.cards.sha256: made with card set {shown(meta.get('name'))} ({shown(meta.get('sha256'))[:13]}…), "
            f"but the cards in use are {cards.name!r} ({cards.sha256[:12]}…); pass the same --cards file"
        )


def read_config(r: DocumentReader, doc: dict, root: str) -> Config:
    """``config`` of a document (every field optional), as the :class:`Config` it sets up; the
    document's ``game``, if given, must be the game that configuration sets up."""
    raw = r.obj(r.get(doc, "config", root, {}), f"{root}.config")
    gods = r.items(raw.get("gods", list(GODS)), f"{root}.config.gods", most=2)
    if len(gods) != 2:
        r.fail(f"{root}.config.gods", "must name two gods")
    for i, g in enumerate(gods):
        r.choice(g, f"{root}.config.gods[{i}]", GODS)
    if gods[0] == gods[1]:
        r.fail(f"{root}.config.gods", "the two seats must have different gods")
    if raw.get("level") is not None and raw.get("emissary"):
        r.fail(f"{root}.config.emissary", "the Emissary variant is for two players, not the solo game")
    config = Config(
        first_player=r.integer(raw.get("first_player", 0), f"{root}.config.first_player", 0, 1),
        gods=(gods[0], gods[1]),
        emissary=r.boolean(raw.get("emissary", False), f"{root}.config.emissary"),
        max_turns=r.integer(raw.get("max_turns", Config().max_turns), f"{root}.config.max_turns", *TURNS),
        level=r.choice(raw["level"], f"{root}.config.level", LEVELS) if raw.get("level") is not None else None,
    )
    _check_game(r, doc, root, config)
    return config


def read_record_header(record: dict, cards: CardSet) -> Config:
    """The set-up of a game record, checking that it was played with ``cards``; raises
    :class:`RecordError` naming another card set, :class:`FormatError` for a bad field."""
    r = DocumentReader(cards, "record")
    meta = r.obj(r.get(record, "cards", "record"), "record.cards")
    if meta.get("sha256") != cards.sha256:
        raise RecordError(
            f"record.cards: played with card set {shown(meta.get('name'))}, not {cards.name!r}; pass its --cards file"
        )
    return read_config(r, record, "record")


def _check_game(r: DocumentReader, doc: dict, root: str, config: Config) -> None:
    """A document's ``game``, if it names one, must be a registered game and the one its ``config``
    sets up (a document without ``game`` is of the game its ``config`` sets up)."""
    if "game" not in doc:
        return
    try:
        game = get_game(doc["game"], field=f"{root}.game")
    except UsageError as exc:
        raise FormatError(str(exc)) from None
    if not game.owns(config):
        r.fail(f"{root}.game", f"is {game.name!r}, but {root}.config sets up {game_of(config).name!r}")


def document_game(data: Any, root: str, cards: CardSet | None = None) -> Game:
    """The registered game a position, observation or record (a dict or JSON text) is of: the one
    its ``config`` sets up, which its ``game``, if given, must name.

    Raises :class:`FormatError` naming the JSON path of a bad ``game`` or ``config`` field."""
    return game_of(read_config(DocumentReader(cards or default_cards(), root), document(data, root), root))


def _open(data: Any, cards: CardSet, root: str, fmt: str) -> tuple[dict, DocumentReader, Parts]:
    """The document, a reader for it and the parts of its game: its ``format`` (``fmt`` if absent),
    its card set and its set-up checked first, as every position and observation begins."""
    doc = document(data, root)
    r = DocumentReader(cards, root)
    if doc.get("format", fmt) != fmt:
        r.fail(f"{root}.format", f"expected {fmt!r}, got {shown(doc.get('format'))}")
    _check_cards(doc, cards, root)
    return doc, r, Parts(cards, read_config(r, doc, root))


def _read_public(r: DocumentReader, doc: dict, root: str, parts: Parts) -> None:
    """Fields shared by positions and observations, into ``parts``."""
    parts.turn = r.integer(r.get(doc, "turn", root, 1), f"{root}.turn", 1, parts.config.max_turns)
    parts.active = r.integer(r.get(doc, "active", root), f"{root}.active", 0, 1)
    parts.first_turn = r.boolean(r.get(doc, "first_turn", root, parts.turn == 1), f"{root}.first_turn")
    parts.phase = r.choice(r.get(doc, "phase", root), f"{root}.phase", PHASES)
    parts.ply = r.integer(r.get(doc, "ply", root, 0), f"{root}.ply", 0, 10**7)
    parts.favor = r.choice(r.get(doc, "favor", root), f"{root}.favor", GODS)
    if parts.config.solo:
        parts.reserve = r.integer(r.get(doc, "heir_reserve", root), f"{root}.heir_reserve", 0, CH_COINS)
        if parts.active == CH and parts.phase in (WEALTH_AGAIN, WEALTH, SURGE):
            r.fail(f"{root}.phase", f"the Corrupted Heir's turn never is in phase {parts.phase!r}: its procedure "
                                    "runs from 'wealth_reveal' to 'surge_start' and then to 'war'")
    parts.discard = r.units(r.get(doc, "discard", root, []), f"{root}.discard")
    cities = r.items(r.get(doc, "cities", root), f"{root}.cities", most=CITIES)
    if len(cities) != CITIES:
        r.fail(f"{root}.cities", f"must list {CITIES} cities, got {len(cities)}")
    parts.cities = []
    for c, sides in enumerate(cities):
        sides = r.items(sides, f"{root}.cities[{c}]", most=2)
        if len(sides) != 2:
            r.fail(f"{root}.cities[{c}]", "must list the two sides (seat 0, seat 1)")
        parts.cities.append([r.counts(sides[p], f"{root}.cities[{c}][{p}]") for p in (0, 1)])
        for p in (0, 1):
            if unit_count(parts.units, parts.cities[c][p]) > CAPACITY:
                r.fail(f"{root}.cities[{c}][{p}]",
                       f"capacity exceeded: {unit_count(parts.units, parts.cities[c][p])} unit-counts > {CAPACITY}")
    parts.revealed = r.counts(r.get(doc, "revealed", root, []), f"{root}.revealed")
    parts.limbo = r.counts(r.get(doc, "limbo", root, []), f"{root}.limbo")
    flags = r.obj(r.get(doc, "flags", root, {}), f"{root}.flags")
    for flag in ("discount_used", "reward_used", "reveal_again_used"):
        setattr(parts, flag, r.boolean(flags.get(flag, False), f"{root}.flags.{flag}"))
    war = r.obj(r.get(doc, "war", root, {}), f"{root}.war")
    parts.war_city = r.integer(war.get("city", -1), f"{root}.war.city", -1, CITIES - 1)
    parts.war_victor = r.integer(war.get("victor", -1), f"{root}.war.victor", -1, 1)
    parts.keep_step = r.integer(war.get("keep_step", 0), f"{root}.war.keep_step", 0, 2)
    if parts.phase in (WAR_KEEP, WAR_ENDURING) and parts.war_city < 0:
        r.fail(f"{root}.war.city", f"must be the city of the war being resolved in phase {parts.phase!r}, got -1")
    parts.stack = []
    for i, f in enumerate(r.items(r.get(doc, "stack", root, []), f"{root}.stack", most=MAX_STACK)):
        path = f"{root}.stack[{i}]"
        f = r.obj(f, path)
        ref = r.ref(r.get(f, "ref", path), f"{path}.ref")
        if not ref:
            r.fail(f"{path}.ref", "must name the effect list the frame runs")
        owner = r.integer(r.get(f, "owner", path), f"{path}.owner", 0, 1)
        if parts.config.solo and owner == CH:
            r.fail(f"{path}.owner", "the Corrupted Heir's cards resolve no abilities")
        parts.stack.append((
            ref,
            r.integer(r.get(f, "index", path, 0), f"{path}.index", 0, len(programs(r.cards)[ref])),
            owner,
            r.integer(r.get(f, "city", path, -1), f"{path}.city", 0 if _in_a_city(ref) else -1, CITIES - 1),
        ))


def _read_pending(r: DocumentReader, doc: dict, root: str, parts: Parts) -> None:
    """The pending decision (read after the cities, hands and revealed cards it is about); units in
    limbo wait for a keep decision."""
    parts.pending = _decision(r, doc, root, parts)
    if any(parts.limbo) and (parts.pending is None or parts.pending.kind != "keep"):
        r.fail(f"{root}.limbo", "units wait in limbo only while a 'keep' decision is pending")


def _decision(r: DocumentReader, doc: dict, root: str, parts: Parts) -> Pending | None:
    """``pending``, checked against what a decision of its kind holds (:data:`_SHAPES`) and the
    effect it points at."""
    if r.get(doc, "pending", root, None) is None:
        return None
    path = f"{root}.pending"
    d = r.obj(doc["pending"], path)
    kind = r.choice(r.get(d, "kind", path), f"{path}.kind", DECISIONS)
    shape = _SHAPES[kind]

    def unused(name: str, default: Any) -> Any:
        if d.get(name, default) != default:
            r.fail(f"{path}.{name}", f"a {kind!r} decision does not use it: must be {shown(default)} or left out, "
                                     f"got {shown(d[name])}")
        return default

    player = r.integer(r.get(d, "player", path), f"{path}.player", 0, 1)
    if parts.config.solo and player == CH:
        r.fail(f"{path}.player", "the Corrupted Heir makes no decisions")
    ref = r.ref(d.get("ref", []), f"{path}.ref")
    effect = None
    if ref and shape.op is None:
        r.fail(f"{path}.ref", f"a {kind!r} decision resolves no effect: must be [] or left out")
    if ref:
        effects = programs(r.cards)[ref]
        index = r.integer(d.get("index", -1), f"{path}.index", -1)
        if not 0 <= index < len(effects):
            r.fail(f"{path}.index", f"does not point at an effect of pending.ref ({len(effects)} effects), got {index}")
        effect = effects[index]
        if effect.op != shape.op:
            r.fail(f"{path}.index", f"points at a {effect.op!r} effect; a {kind!r} decision resolves {shape.op!r}")
    elif shape.op is not None and not shape.optional:
        r.fail(f"{path}.ref", f"missing: a {kind!r} decision resolves a {shape.op!r} effect")
    else:
        index = unused("index", -1)
    expected = (1 - player if kind == "discard" and ref else player) if shape.owner else -1
    owner = r.integer(d.get("owner", -1), f"{path}.owner", -1, 1)
    if owner != expected:
        r.fail(f"{path}.owner", f"must be {expected} in a {kind!r} decision of seat {player}")
    low, high = shape.n
    if high == "revealed":
        high = sum(parts.revealed)
    elif isinstance(high, str):  # the effect's N, or one less once a pick is made
        high = (effect.n if effect else 0) - (high == "effect-1")
    n = unused("n", 0) if shape.n == (0, 0) else r.integer(d.get("n", 0), f"{path}.n", low, high)
    last = unused("last", 0) if shape.last is None else r.integer(
        d.get("last", 0), f"{path}.last", 0, parts.T - 1 if shape.last == "unit" else CITIES * parts.T - 1)
    if shape.card:
        card = r.unit(d["card"], f"{path}.card") if d.get("card") is not None else -1
    else:
        unused("card", None)
        card = -1
    if shape.city is None:
        city = unused("city", -1)
    else:
        city = r.integer(d.get("city", -1), f"{path}.city", 0 if shape.city == "war" or _in_a_city(ref) else -1,
                         CITIES - 1)
    if shape.city == "war" and city != parts.war_city:
        r.fail(f"{path}.city", f"must be the city of the war being resolved (war.city {parts.war_city})")
    if kind == "discard" and card >= 0 and parts.known[player][card] < 1:
        r.fail(f"{path}.card", f"the ENDURING unit returned to seat {player}'s hand must be among its known cards")
    if kind == "structure" and effect is not None:
        at, t = divmod(last, parts.T)
        if parts.cities[at][owner if effect.side == "own" else 1 - owner][t] < 1:
            r.fail(f"{path}.last", f"the unit being entombed ({parts.units[t].name!r} in city {at}) is not there")
    return Pending(kind=kind, player=player, owner=owner, n=n, last=last, card=card, city=city, ref=ref, index=index,
                   moved=_read_moved(r, d, path, parts))


def _read_moved(r: DocumentReader, d: dict, path: str, parts: Parts) -> tuple[int, ...]:
    """``pending.moved``: the units a MANEUVER or Sandstorm has moved, as ``[card, city]`` pairs;
    each must be one of the mover's units in that city (checked against the cities, read before)."""
    raw = r.items(d.get("moved", []), f"{path}.moved", most=CITIES * CAPACITY)
    if raw and d.get("kind") != "move":
        r.fail(f"{path}.moved", "only a 'move' decision has moved units")
    keys = []
    for i, pair in enumerate(raw):
        pair = r.items(pair, f"{path}.moved[{i}]", most=2)
        if len(pair) != 2:
            r.fail(f"{path}.moved[{i}]", "must be a [card, city] pair")
        t = r.unit(pair[0], f"{path}.moved[{i}][0]")
        city = r.integer(pair[1], f"{path}.moved[{i}][1]", 0, CITIES - 1)
        keys.append(city * parts.T + t)
    player = d.get("player")
    for k in set(keys):
        city, t = divmod(k, parts.T)
        if player in (0, 1) and keys.count(k) > parts.cities[city][player][t]:
            r.fail(f"{path}.moved", f"{parts.units[t].name!r} moved into city {city} more often than it is there")
    return tuple(sorted(keys))


def _read_players(r: DocumentReader, doc: dict, root: str, parts: Parts, full: tuple[bool, bool]) -> list[dict]:
    players = r.items(r.get(doc, "players", root), f"{root}.players", most=2)
    if len(players) != 2:
        r.fail(f"{root}.players", "must list the two seats")
    raws = []
    for p in (0, 1):
        path = f"{root}.players[{p}]"
        raw = r.obj(players[p], path)
        raws.append(raw)
        god = parts.config.gods[p]
        parts.coins[p] = r.integer(r.get(raw, "coins", path), f"{path}.coins", 0, COINS)
        parts.known[p] = r.counts(raw.get("known", []), f"{path}.known")
        if full[p]:
            parts.hands[p] = r.counts(r.get(raw, "hand", path), f"{path}.hand")
            if "hand_size" in raw and r.integer(raw["hand_size"], f"{path}.hand_size", 0, 40) != sum(parts.hands[p]):
                r.fail(f"{path}.hand_size", f"is {raw['hand_size']} but hand lists {sum(parts.hands[p])} cards")
            for t in range(parts.T):
                if parts.known[p][t] > parts.hands[p][t]:
                    r.fail(f"{path}.known", f"lists {parts.units[t].name!r} more often than the hand holds it")
            parts.unused[p] = sorted(r.tiles(r.get(raw, "unused_tiles", path, []), f"{path}.unused_tiles"))
        else:
            size = r.integer(r.get(raw, "hand_size", path), f"{path}.hand_size", 0, 40)
            if sum(parts.known[p]) > size:
                r.fail(f"{path}.known", f"lists {sum(parts.known[p])} cards but hand_size is {size}")
        parts.used[p] = sorted(r.tiles(raw.get("used_tiles", []), f"{path}.used_tiles"))
        building = raw.get("building")
        if building is not None:
            parts.building[p] = r.structure_slot(building, f"{path}.building", god)
        for i, name in enumerate(r.items(raw.get("completed", []), f"{path}.completed", most=3)):
            slot = r.structure_slot(name, f"{path}.completed[{i}]", god)
            if parts.completed[p][slot]:
                r.fail(f"{path}.completed[{i}]", f"{name!r} listed twice")
            parts.completed[p][slot] = True
        if parts.building[p] >= 0 and parts.completed[p][parts.building[p]]:
            r.fail(f"{path}.building", "a completed structure cannot be being built")
        parts.destroyed[p] = r.counts(raw.get("destroyed", []), f"{path}.destroyed")
        _check_destroyed(r, parts, p, f"{path}.destroyed")
    return raws


def _check_destroyed(r: DocumentReader, parts: Parts, p: int, path: str) -> None:
    """Seat ``p``'s destroyed units are what a war leaves for its ENDURING decision: ENDURING units
    whose abilities resolve for the seat, lying in the discard pile (beside the other seat's), and
    only while the war's keeps and ENDURING decisions are being made."""
    if not any(parts.destroyed[p]):
        return
    if parts.phase not in (WAR_KEEP, WAR_ENDURING):
        r.fail(path, f"destroyed units wait only in phases 'war_keep' and 'war_enduring', not {parts.phase!r}")
    for t, n in enumerate(parts.destroyed[p]):
        unit = parts.units[t]
        if n and not (unit.enduring and unit.resolves_for(parts.config.gods[p])):
            r.fail(path, f"{unit.name!r} is not an ENDURING unit whose abilities resolve for seat {p}")
        if n and parts.destroyed[0][t] + (parts.destroyed[1][t] if p == 1 else 0) > parts.discard.count(t):
            r.fail(path, f"{unit.name!r} is listed more often than the discard pile holds it")


def _built(parts: Parts) -> Counter:
    """Units revealed to BUILD whose LABOR is still resolving: each is named by its ``built`` frame on
    the stack (the discard that has not happened yet), in no zone until then."""
    return Counter(ref[1] for ref, index, _, _ in parts.stack if ref[0] == "built" and index == 0)


def _placed(parts: Parts) -> Counter:
    """Copies of each unit the document places (a hand counts at least its known cards)."""
    seen = Counter(parts.discard) + _built(parts)
    for t in range(parts.T):
        seen[t] += parts.revealed[t] + parts.limbo[t] + sum(parts.cities[c][p][t] for c in range(CITIES) for p in (0, 1))
        for p in (0, 1):
            seen[t] += max(parts.hands[p][t], parts.known[p][t]) + parts.under[p][t]
        seen[t] += sum(1 for e in parts.emissaries if e == t)
    return seen


def _check_conservation(r: DocumentReader, parts: Parts, root: str) -> None:
    """No more copies of a card than the set has; 40 cards, 9 tiles and 20 coins in all."""
    seen = _placed(parts)
    for t, n in seen.items():
        if n > parts.units[t].copies:
            r.fail(root, f"{n} copies of {parts.units[t].name!r} are placed but the set has {parts.units[t].copies}")
    if sum(parts.coins) + parts.reserve > COINS:
        r.fail(f"{root}.players", f"{sum(parts.coins) + parts.reserve} coins in play but there are only {COINS}")
    if parts.config.solo:
        if parts.coins[CH] + parts.reserve != CH_COINS:
            r.fail(f"{root}.heir_reserve", f"the Corrupted Heir's reserve and treasury must hold {CH_COINS} coins, "
                                           f"not {parts.coins[CH] + parts.reserve}")
        if sum(parts.hands[CH]):
            r.fail(f"{root}.players[{CH}].hand_size", "the Corrupted Heir has no hand")


def load_position(data: Any, cards: CardSet | None = None, root: str = "position", settle: bool = True) -> GameState:
    """Build a :class:`GameState` from a position document (a dict, or JSON text).

    With no pending decision the engine runs on from ``phase`` to the next decision; ``settle=False``
    leaves that to the caller (``run_to_decision()``, or another engine: ``CoreState.from_state``
    runs the core's own rules from there). Raises :class:`FormatError` naming the JSON path of the
    first bad field.
    """
    cards = cards or default_cards()
    doc, r, parts = _open(data, cards, root, POSITION_FORMAT)
    seed = r.integer(doc.get("seed", 0), f"{root}.seed", 0, MASK64)
    parts.seed = seed
    if "rng" in doc:
        words = r.items(doc["rng"], f"{root}.rng", most=4)
        try:
            parts.rng = Rng.from_state([int(w, 16) & MASK64 for w in words])
        except (TypeError, ValueError):
            r.fail(f"{root}.rng", "must be four hexadecimal state words")
        if len(words) != 4 or not any(parts.rng.s):
            r.fail(f"{root}.rng", "must be four hexadecimal state words, not all zero")
    else:
        parts.rng = Rng(seed)
    _read_public(r, doc, root, parts)
    raws = _read_players(r, doc, root, parts, (True, True))
    _read_pending(r, doc, root, parts)
    for p in (0, 1):
        path = f"{root}.players[{p}]"
        parts.under[p] = r.counts(raws[p].get("under", []), f"{path}.under")
        if sum(parts.under[p]) and parts.building[p] < 0:
            r.fail(f"{path}.under", "cards beneath a structure need 'building' to say which")
        e = raws[p].get("emissary")
        parts.emissaries[p] = r.unit(e, f"{path}.emissary") if e is not None else -1
    city_tiles = r.items(r.get(doc, "city_tiles", root), f"{root}.city_tiles", most=CITIES)
    if len(city_tiles) != CITIES:
        r.fail(f"{root}.city_tiles", f"must list {CITIES} stacks")
    placed = parts.unused[0] + parts.unused[1] + parts.used[0] + parts.used[1]
    named = [r.tiles(s, f"{root}.city_tiles[{c}]") if isinstance(s, list) else None for c, s in enumerate(city_tiles)]
    placed += [t for s in named if s for t in s]
    if len(set(placed)) != len(placed):
        r.fail(f"{root}.city_tiles", "a reward tile is placed twice")
    spare = [t for t in range(len(cards.rewards)) if t not in placed]
    parts.rng.shuffle(spare)
    parts.city_tiles = []
    for c, s in enumerate(city_tiles):
        if s is None or isinstance(s, list):
            parts.city_tiles.append(named[c] or [])
        else:
            n = r.integer(s, f"{root}.city_tiles[{c}]", 0, 3)
            parts.city_tiles.append([spare.pop() for _ in range(min(n, len(spare)))])
    if sum(map(len, parts.city_tiles)) + len(placed) - sum(len(s) for s in named if s) != len(cards.rewards):
        r.fail(f"{root}.city_tiles", f"the {len(cards.rewards)} reward tiles must all be placed")
    _check_conservation(r, parts, root)
    if "deck" in doc:
        parts.deck = r.units(doc["deck"], f"{root}.deck")
    else:
        seen = _placed(parts)  # hands hold at least their known cards (checked above)
        parts.deck = [t for t in range(parts.T) for _ in range(parts.units[t].copies - seen[t])]
        parts.rng.shuffle(parts.deck)
    total = Counter(parts.deck)
    _check_exact(r, parts, root, total)
    state = GameState.from_parts(parts)
    _check_decision(r, state, root, settle)
    return state


def _check_decision(r: DocumentReader, state: GameState, root: str, settle: bool, seats: tuple[int, ...] = (0, 1)) -> None:
    """Run on to the next decision if ``settle``; a pending decision of one of ``seats`` must offer
    a move (either engine would stall on one that offers none). An observation names the observer
    alone: the cards dealt to the other seat's hidden hand need not fit its decision's picks."""
    if state.phase == GAME_OVER and state.pending is not None:
        r.fail(f"{root}.pending", "a finished game has no pending decision")
    try:
        if settle:
            state.run_to_decision()
        moves = state.legal_moves()
    except OmenError:
        raise
    except Exception as exc:  # an inconsistent pending decision or stack that the checks above missed
        r.fail(root, f"inconsistent game state ({type(exc).__name__}: {exc})")
    if state.pending is not None and state.pending.player in seats and not moves:
        r.fail(f"{root}.pending", f"the {state.pending.kind!r} decision has no legal move in this position")


def _check_exact(r: DocumentReader, parts: Parts, root: str, deck: Counter) -> None:
    built = _built(parts)
    for t in range(parts.T):
        n = deck[t] + parts.discard.count(t) + parts.revealed[t] + parts.limbo[t] + built[t]
        n += sum(parts.cities[c][p][t] for c in range(CITIES) for p in (0, 1))
        n += sum(parts.hands[p][t] + parts.under[p][t] for p in (0, 1))
        n += sum(1 for e in parts.emissaries if e == t)
        if n != parts.units[t].copies:
            r.fail(root, f"{parts.units[t].name!r}: {n} copies placed, the set has {parts.units[t].copies}")


def load_observation(data: Any, cards: CardSet | None = None, root: str = "observation") -> dict[str, Any]:
    """Validate an observation document and return it normalised (as :func:`observe` writes it).

    Checks every name, count and capacity, and that the hidden counts add up to the 40 cards and 9
    tiles of the set. Raises :class:`FormatError` naming the JSON path of the first bad field.
    """
    state, me = state_from_observation(data, cards, root)
    return observe(state, me)


def state_from_observation(
    data: Any, cards: CardSet | None = None, root: str = "observation"
) -> tuple[GameState, int]:
    """A full state that the observing player would observe exactly as ``data``, and that player.

    What the player cannot see is dealt from exactly the unseen cards and tiles in card order
    (a determinisation then shuffles it: ``CoreState.determinized``). Validates as
    :func:`load_observation` does.
    """
    cards = cards or default_cards()
    doc, r, parts = _open(data, cards, root, OBSERVATION_FORMAT)
    me = r.integer(r.get(doc, "player", root), f"{root}.player", 0, 1)
    _read_public(r, doc, root, parts)
    raws = _read_players(r, doc, root, parts, (me == 0, me == 1))
    _read_pending(r, doc, root, parts)
    opp = 1 - me
    opp_unused = r.integer(r.get(raws[opp], "unused_count", f"{root}.players[{opp}]"), f"{root}.players[{opp}].unused_count", 0, 9)
    under = [r.integer(raws[p].get("under_count", 0), f"{root}.players[{p}].under_count", 0, 40) for p in (0, 1)]
    for p in (0, 1):
        if under[p] and parts.building[p] < 0:
            r.fail(f"{root}.players[{p}].under_count", "cards beneath a structure need 'building' to say which")
    e = raws[me].get("emissary")
    parts.emissaries[me] = r.unit(e, f"{root}.players[{me}].emissary") if e is not None else -1
    opp_emissary = r.boolean(raws[opp].get("emissary_chosen", False), f"{root}.players[{opp}].emissary_chosen")
    city_tiles = [r.integer(n, f"{root}.city_tiles[{c}]", 0, 3) for c, n in
                  enumerate(r.items(r.get(doc, "city_tiles", root), f"{root}.city_tiles", most=CITIES))]
    if len(city_tiles) != CITIES:
        r.fail(f"{root}.city_tiles", f"must list {CITIES} counts")
    named = parts.unused[me] + parts.used[0] + parts.used[1]
    if len(set(named)) != len(named):
        r.fail(f"{root}.players", "a reward tile is listed twice")
    if sum(city_tiles) + len(named) + opp_unused != len(cards.rewards):
        r.fail(f"{root}.city_tiles", f"tiles in cities and play areas must add up to {len(cards.rewards)}")
    _check_conservation(r, parts, root)
    deck_size = r.integer(r.get(doc, "deck_size", root), f"{root}.deck_size", 0, 40)
    opp_hand = r.integer(raws[opp]["hand_size"], f"{root}.players[{opp}].hand_size", 0, 40)
    visible = len(parts.discard) + sum(parts.revealed) + sum(parts.limbo) + sum(parts.hands[me]) + sum(_built(parts).values())
    visible += sum(sum(parts.cities[c][p]) for c in range(CITIES) for p in (0, 1))
    total = visible + deck_size + opp_hand + sum(under) + (parts.emissaries[me] >= 0) + opp_emissary
    if total != sum(u.copies for u in cards.units):
        r.fail(f"{root}.deck_size", f"the cards add up to {total}, not {sum(u.copies for u in cards.units)}")
    # Deal the unseen cards and tiles into the hidden places, in card order.
    seen = _placed(parts)
    pool = [t for t in range(parts.T) for _ in range(parts.units[t].copies - seen[t])]
    parts.hands[opp] = list(parts.known[opp])
    for _ in range(opp_hand - sum(parts.known[opp])):
        parts.hands[opp][pool.pop(0)] += 1
    for p in (0, 1):
        for _ in range(under[p]):
            parts.under[p][pool.pop(0)] += 1
    if opp_emissary:
        parts.emissaries[opp] = pool.pop(0)
    parts.deck = pool
    listed = set(named)
    tiles = [i for i in range(len(cards.rewards)) if i not in listed]
    parts.city_tiles = []
    for n in city_tiles:
        parts.city_tiles.append(tiles[:n])
        tiles = tiles[n:]
    parts.unused[opp] = tiles
    parts.rng = Rng(0)
    state = GameState.from_parts(parts)
    _check_decision(r, state, root, settle=False, seats=(me,))
    return state, me


# ------------------------------------------------------------------------------ files


def load_position_file(path: str | Path, cards_path: str | Path | None = None) -> GameState:
    return load_position(read_json_file(path, "position"), load_cards(cards_path), root=str(path))


# ------------------------------------------------------------------------------ a hand-written observation


def _fingerprint(state: GameState) -> tuple:
    """What the rules may not touch while running on from a hand-written observation: the hands, and
    how much the deck, the structures, the cities' tile stacks and the unused tiles hold."""
    return (len(state.deck), [list(h) for h in state.hands], [sum(u) for u in state.under],
            [len(t) for t in state.city_tiles], [len(u) for u in state.unused], list(state.emissaries))


def reach_decision(state: GameState, root: str) -> None:
    """A hand-written observation may leave out the pending decision (as a position may): run the
    rules on to it, provided that only public things happen on the way (nothing is drawn,
    revealed or dealt from a hidden place, which the observation could not say)."""
    if state.pending is not None or state.is_terminal():
        return
    before, phase = _fingerprint(state), state.phase
    try:
        state.run_to_decision()
    except OmenError:
        raise
    except Exception as exc:  # an inconsistent stack that loading did not catch
        raise FormatError(f"{root}: inconsistent game state ({type(exc).__name__}: {exc})") from None
    if _fingerprint(state) != before:
        raise FormatError(f"{root}.pending: missing, and the game cannot go on from phase {phase!r} to the "
                          "next decision without hidden cards: give the pending decision")

