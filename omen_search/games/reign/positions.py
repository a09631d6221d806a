"""Reign of War positions and observations as JSON, read back with the path of every bad field.

A *position* (``omen-position/1``) is the whole state: the public view of
:mod:`omen_search.games.reign.observe`, both seats in full, and what no player sees (deck orders,
the reward stacks, the drafts' hidden cards, the generator). An *observation* is what one player
knows (:func:`~omen_search.games.reign.observe.observe`); :func:`state_from_observation` rebuilds a
state that player sees exactly so, dealing the unseen cards into the hidden places. Hand-written
documents may leave out what is empty (discard piles, limbo, the stack, the pending decision: the
rules then run on to it). ``docs/formats.md`` documents both.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from omen_search.documents import JsonReader, document
from omen_search.errors import FormatError, OmenError, RecordError, UsageError, shown
from omen_search.game import Game, get_game
from omen_search.games.reign.cards import MAX_UNIT_CARDS, CardSet, default_cards
from omen_search.games.reign.observe import OBSERVATION_FORMAT, observe, public_view, seat_view, unit_names
from omen_search.games.reign.reference import GameState, Parts
from omen_search.games.reign.rules import (
    CITIES,
    CITY_LIMIT,
    COIN_SUPPLY,
    COINS,
    DECISIONS,
    DECKS,
    GAME,
    MAX_CHAIN,
    PHASES,
    REWARDS_PER_CITY,
    SDRAFT,
    SDRAFT_PACK,
    Config,
    Pending,
    check_decks,
    program,
    side_units,
)
from omen_search.limits import TURNS
from omen_search.rng import MASK64, Rng

POSITION_FORMAT = "omen-position/1"
MAX_STACK = 4 * MAX_CHAIN  # stack entries a position may hold: far more than any game reaches


class DocumentReader(JsonReader):
    """A :class:`JsonReader` that reads names of cards of ``cards`` as their ids."""

    def __init__(self, cards: CardSet, root: str):
        super().__init__(root)
        self.cards = cards
        self.T = len(cards.units)
        self.unit_ids = {u.name: u.index for u in cards.units}
        self.reward_ids = {r.name: r.index for r in cards.rewards}

    def unit(self, name: Any, path: str) -> int:
        if not isinstance(name, str) or name not in self.unit_ids:
            self.fail(path, f"unknown unit card {shown(name)}")
        return self.unit_ids[name]

    def units(self, value: Any, path: str) -> list[int]:
        return [self.unit(n, f"{path}[{i}]") for i, n in enumerate(self.items(value, path, most=400))]

    def counts(self, value: Any, path: str) -> list[int]:
        counts = [0] * self.T
        for t in self.units(value, path):
            counts[t] += 1
        return counts

    def rewards(self, value: Any, path: str) -> list[int]:
        out = []
        for i, name in enumerate(self.items(value, path, most=24)):
            if not isinstance(name, str) or name not in self.reward_ids:
                self.fail(f"{path}[{i}]", f"unknown reward card {shown(name)}")
            out.append(self.reward_ids[name])
        return out

    def pair(self, value: Any, path: str) -> list:
        pair = self.items(value, path, most=2)
        if len(pair) != 2:
            self.fail(path, "must list seat 0's and seat 1's")
        return pair

    def ref(self, value: Any, path: str) -> tuple:
        """``["unit", name]`` or ``["reward", name]``: an ability, as the engines' ``ref``."""
        ref = self.items(value, path, most=2)
        if not ref:
            return ()
        if len(ref) != 2 or ref[0] not in ("unit", "reward"):
            self.fail(path, f"must be [\"unit\", name] or [\"reward\", name], got {shown(value)}")
        return ("unit", self.unit(ref[1], f"{path}[1]")) if ref[0] == "unit" else (
            "reward", self.rewards([ref[1]], path)[0])


def read_config(r: DocumentReader, doc: dict, root: str) -> Config:
    """``config`` of a document (every field optional); its ``game``, if given, must be this game."""
    raw = r.obj(r.get(doc, "config", root, {}), f"{root}.config")
    at = f"{root}.config"
    decks = raw.get("decks", [])
    decks = tuple(tuple(r.items(d, f"{at}.decks[{i}]", most=MAX_UNIT_CARDS))
                  for i, d in enumerate(r.items(decks, f"{at}.decks", most=2)))
    try:
        config = Config(
            first_player=r.integer(raw.get("first_player", 0), f"{at}.first_player", 0, 1),
            emissary=r.boolean(raw.get("emissary", False), f"{at}.emissary"),
            beginner=r.boolean(raw.get("beginner", False), f"{at}.beginner"),
            deck=r.choice(raw.get("deck", "shared"), f"{at}.deck", DECKS),
            decks=decks,
            catch_up=r.boolean(raw.get("catch_up", False), f"{at}.catch_up"),
            max_turns=r.integer(raw.get("max_turns", Config().max_turns), f"{at}.max_turns", *TURNS),
            coin_supply=r.integer(raw.get("coin_supply", COINS), f"{at}.coin_supply", *COIN_SUPPLY),
        )
        check_decks(r.cards, config)
    except UsageError as exc:
        raise FormatError(f"{at}.{exc}") from None
    if "game" in doc and doc["game"] != GAME:
        try:
            other = get_game(doc["game"], field=f"{root}.game").name
        except UsageError as exc:
            raise FormatError(str(exc)) from None
        r.fail(f"{root}.game", f"is {other!r}, but this is a {GAME!r} document")
    return config


def read_record_header(record: dict, cards: CardSet) -> Config:
    """The set-up of a game record, checking that it was played with ``cards``."""
    r = DocumentReader(cards, "record")
    meta = r.obj(r.get(record, "cards", "record"), "record.cards")
    if meta.get("sha256") != cards.sha256:
        raise RecordError(
            f"record.cards: played with card set {shown(meta.get('name'))}, not {cards.name!r}; pass its --cards file")
    return read_config(r, record, "record")


def document_game(data: Any, root: str, cards: CardSet | None = None) -> Game:
    """The game a document is of (there is one Reign of War game), its ``config`` checked."""
    read_config(DocumentReader(cards or default_cards(), root), document(data, root), root)
    return get_game(GAME)


# ------------------------------------------------------------------------------ writing


def to_position(state: Any) -> dict[str, Any]:
    """The full state as a JSON-ready dict (format ``omen-position/1``)."""
    out = {"format": POSITION_FORMAT, **public_view(state)}
    out["seed"] = state.seed
    out["rng"] = [f"{w:016x}" for w in state.rng.s]
    out["decks"] = [[state.units[t].name for t in deck] for deck in state.decks]
    out["city_rewards"] = [[state.cards.rewards[r].name for r in city] for city in state.city_rewards]
    out["players"] = []
    for p in (0, 1):
        seat = seat_view(state, p, full=True)
        seat["emissary"] = state.units[state.emissaries[p]].name if state.emissaries[p] >= 0 else None
        seat["deck_list"] = unit_names(state, state.deck_lists[p])
        seat["deck_known"] = unit_names(state, state.deck_known[p])
        seat["pack"] = unit_names(state, state.packs[p])
        seat["chosen"] = state.units[state.chosen[p]].name if state.chosen[p] >= 0 else None
        out["players"].append(seat)
    out["pool"] = [state.units[t].name for t in state.pool] if state.config.deck == "sdraft" else []
    return out


# ------------------------------------------------------------------------------ reading


def _open(data: Any, cards: CardSet | None, root: str, fmt: str) -> tuple[dict, DocumentReader, Parts]:
    cards = cards or default_cards()
    doc = document(data, root)
    r = DocumentReader(cards, root)
    if doc.get("format", fmt) != fmt:
        r.fail(f"{root}.format", f"expected {fmt!r}, got {shown(doc.get('format'))}")
    meta = doc.get("cards")
    if isinstance(meta, dict) and meta.get("sha256") not in (None, cards.sha256):
        r.fail(f"{root}.cards.sha256", f"made with card set {shown(meta.get('name'))}, but the cards in use are "
                                       f"{cards.name!r}; pass the same --cards file")
    return doc, r, Parts(cards, read_config(r, doc, root))


def _read_public(r: DocumentReader, doc: dict, root: str, parts: Parts) -> None:
    """The fields a position and an observation share, into ``parts``."""
    parts.turn = r.integer(r.get(doc, "turn", root, 1), f"{root}.turn", 1, parts.config.max_turns)
    parts.active = r.integer(r.get(doc, "active", root, parts.config.first_player), f"{root}.active", 0, 1)
    parts.first_turn = r.boolean(r.get(doc, "first_turn", root, parts.turn == 1), f"{root}.first_turn")
    parts.phase = r.choice(r.get(doc, "phase", root), f"{root}.phase", PHASES)
    parts.ply = r.integer(r.get(doc, "ply", root, 0), f"{root}.ply", 0, 10**7)
    parts.pot = r.integer(r.get(doc, "pot", root, 0), f"{root}.pot", 0, parts.config.coin_supply)
    piles = r.pair(r.get(doc, "discards", root, [[], []]), f"{root}.discards")
    parts.discards = [r.units(piles[i], f"{root}.discards[{i}]") for i in (0, 1)]
    if not parts.config.own_decks and parts.discards[1]:
        r.fail(f"{root}.discards[1]", "with one shared deck there is one discard pile, discards[0]")
    cities = r.items(r.get(doc, "cities", root), f"{root}.cities", most=CITIES)
    if len(cities) != CITIES:
        r.fail(f"{root}.cities", f"must list {CITIES} cities, got {len(cities)}")
    for c, city in enumerate(cities):
        at = f"{root}.cities[{c}]"
        city = r.obj(city, at)
        sides = r.pair(r.get(city, "sides", at), f"{at}.sides")
        raged = r.pair(city.get("enraged", [[], []]), f"{at}.enraged")
        for p in (0, 1):
            parts.cities[c][p] = r.counts(sides[p], f"{at}.sides[{p}]")
            parts.enraged[c][p] = r.counts(raged[p], f"{at}.enraged[{p}]")
            for t, n in enumerate(parts.enraged[c][p]):
                if n and parts.units[t].type == "beast":
                    r.fail(f"{at}.enraged[{p}]", f"{parts.units[t].name!r} is a Beast, which cannot be Enraged")
            count = side_units(parts.units, parts.cities[c][p], parts.enraged[c][p])
            if count > CITY_LIMIT:
                r.fail(f"{at}.sides[{p}]", f"the City Limit is {CITY_LIMIT} units (Beasts and Enraged units 2), "
                                           f"got {count}")
    parts.revealed = r.counts(r.get(doc, "revealed", root, []), f"{root}.revealed")
    parts.limbo = r.counts(r.get(doc, "limbo", root, []), f"{root}.limbo")
    parts.limbo_enraged = r.counts(r.get(doc, "limbo_enraged", root, []), f"{root}.limbo_enraged")
    beast = r.get(doc, "beast", root, None)
    parts.beast = r.unit(beast, f"{root}.beast") if beast is not None else -1
    counts = r.obj(r.get(doc, "turn_counts", root, {}), f"{root}.turn_counts")
    parts.hand_discards = [r.integer(n, f"{root}.turn_counts.hand_discards[{i}]", 0, 400)
                           for i, n in enumerate(r.pair(counts.get("hand_discards", [0, 0]),
                                                        f"{root}.turn_counts.hand_discards"))]
    parts.beast_abilities = r.integer(counts.get("beast_abilities", 0), f"{root}.turn_counts.beast_abilities", 0, 400)
    parts.reward_used = r.boolean(counts.get("reward_used", False), f"{root}.turn_counts.reward_used")
    war = r.obj(r.get(doc, "war", root, {}), f"{root}.war")
    parts.war_city = r.integer(war.get("city", -1), f"{root}.war.city", -1, CITIES - 1)
    parts.war_victor = r.integer(war.get("victor", -1), f"{root}.war.victor", -1, 1)
    parts.keep_step = r.integer(war.get("keep_step", 0), f"{root}.war.keep_step", 0, 2)
    left = r.items(r.get(doc, "portent_left", root, [[], [], []]), f"{root}.portent_left", most=CITIES)
    if len(left) != CITIES:
        r.fail(f"{root}.portent_left", f"must list {CITIES} cities")
    parts.portent_left = [r.counts(left[c], f"{root}.portent_left[{c}]") for c in range(CITIES)]
    for c in range(CITIES):
        for t, n in enumerate(parts.portent_left[c]):
            if n > parts.cities[c][parts.active][t] or (n and parts.units[t].type != "oracle"):
                r.fail(f"{root}.portent_left[{c}]", f"{parts.units[t].name!r}: only face-up Oracles of the active "
                                                    "player's side can be still to resolve")
    draft = r.obj(r.get(doc, "draft", root, {}), f"{root}.draft")
    parts.draft_picks = r.integer(draft.get("picks", 0), f"{root}.draft.picks", 0, 60)
    if parts.config.deck == "draft":
        parts.pool = sorted(r.units(draft.get("stacks", []), f"{root}.draft.stacks"))
    drafted = r.pair(draft.get("drafted", [[], []]), f"{root}.draft.drafted")
    parts.drafted = [r.units(drafted[p], f"{root}.draft.drafted[{p}]") for p in (0, 1)]
    parts.stack = [_stack_entry(r, e, f"{root}.stack[{i}]", parts)
                   for i, e in enumerate(r.items(r.get(doc, "stack", root, []), f"{root}.stack", most=MAX_STACK))]
    parts.pending = _pending(r, r.get(doc, "pending", root, None), f"{root}.pending", parts)


def _stack_entry(r: DocumentReader, e: Any, path: str, parts: Parts) -> tuple:
    e = r.obj(e, path)
    if "resume" in e:
        d = _pending(r, e["resume"], f"{path}.resume", parts)
        if d is None:
            r.fail(f"{path}.resume", "must be the decision to take up again")
        return ("resume", d)
    if "beast" in e:
        if parts.beast < 0:
            r.fail(f"{path}.beast", "no Beast is set aside (the document's 'beast' is null)")
        return ("beast",)
    ref = r.ref(r.get(e, "effects", path), f"{path}.effects")
    if not ref:
        r.fail(f"{path}.effects", "must name the ability the entry resolves")
    return ("effects", ref, r.integer(e.get("index", 0), f"{path}.index", 0, len(program(r.cards, ref))),
            r.integer(r.get(e, "owner", path), f"{path}.owner", 0, 1),
            r.integer(e.get("city", -1), f"{path}.city", -1, CITIES - 1))


def _pending(r: DocumentReader, d: Any, path: str, parts: Parts) -> Pending | None:
    """A decision; one that names an effect must name an effect of its card that could raise it."""
    if d is None:
        return None
    d = r.obj(d, path)
    kind = r.choice(r.get(d, "kind", path), f"{path}.kind", DECISIONS)
    ref = r.ref(d.get("ref", []), f"{path}.ref")
    index = r.integer(d.get("index", -1), f"{path}.index", -1, 15)
    if ref and not 0 <= index < len(program(r.cards, ref)):
        r.fail(f"{path}.index", f"must be an effect of {shown(d.get('ref'))}, got {index}")
    return Pending(kind, r.integer(r.get(d, "player", path), f"{path}.player", 0, 1),
                   owner=r.integer(d.get("owner", -1), f"{path}.owner", -1, 1),
                   n=r.integer(d.get("n", 0), f"{path}.n", 0, 400),
                   last=r.integer(d.get("last", 0), f"{path}.last", 0, CITIES * 2 * r.T),
                   city=r.integer(d.get("city", -1), f"{path}.city", -1, CITIES - 1), ref=ref, index=index)


def _read_seats(r: DocumentReader, doc: dict, root: str, parts: Parts, full: tuple[bool, bool]) -> list[dict]:
    seats = r.pair(r.get(doc, "players", root), f"{root}.players")
    raws = []
    for p in (0, 1):
        at = f"{root}.players[{p}]"
        raw = r.obj(seats[p], at)
        raws.append(raw)
        parts.known[p] = r.counts(raw.get("known", []), f"{at}.known")
        if full[p]:
            parts.hands[p] = r.counts(r.get(raw, "hand", at), f"{at}.hand")
            parts.rewards_hand[p] = sorted(r.rewards(r.get(raw, "rewards", at), f"{at}.rewards"))
            if any(k > h for k, h in zip(parts.known[p], parts.hands[p])):
                r.fail(f"{at}.known", "lists a card that is not in the hand")
        parts.coins[p] = r.integer(r.get(raw, "coins", at), f"{at}.coins", 0, parts.config.coin_supply)
        parts.rewards_used[p] = sorted(r.rewards(raw.get("rewards_used", []), f"{at}.rewards_used"))
        done = r.items(raw.get("feats", []), f"{at}.feats", most=len(r.cards.feats))
        names = [f.name for f in r.cards.feats]
        for i, name in enumerate(done):
            r.choice(name, f"{at}.feats[{i}]", tuple(names))
        parts.feats[p] = [f.name in done for f in r.cards.feats]
    if sum(parts.coins) + parts.pot > parts.config.coin_supply:
        r.fail(f"{root}.players", f"the players hold {sum(parts.coins) + parts.pot} coins, the game has "
                                  f"{parts.config.coin_supply} (config.coin_supply)")
    return raws


def _placed(parts: Parts, seat: int | None = None) -> Counter:
    """The unit cards in places a document lists by name (of one seat's, or all)."""
    out: Counter = Counter()
    seats = (0, 1) if seat is None else (seat,)
    for p in seats:
        out.update({t: n for t, n in enumerate(parts.hands[p]) if n})
        for c in range(CITIES):
            out.update({t: n for t, n in enumerate(parts.cities[c][p]) if n})
            out.update({t: n for t, n in enumerate(parts.enraged[c][p]) if n})
        if parts.emissaries[p] >= 0:
            out[parts.emissaries[p]] += 1
    for i in ((0, 1) if seat is None else (seat,)):  # a seat's own pile (own decks, R-own-1)
        out.update(parts.discards[i])
    return out


def _check_universe(r: DocumentReader, parts: Parts, root: str, placed: Counter, universe: Counter) -> None:
    for t, n in placed.items():
        if n > universe[t]:
            r.fail(root, f"{parts.units[t].name!r}: {n} cards placed, the game has {universe[t]}")


def load_position(data: Any, cards: CardSet | None = None, root: str = "position") -> GameState:
    """A full state from a position document; raises :class:`FormatError` naming a bad field."""
    doc, r, parts = _open(data, cards, root, POSITION_FORMAT)
    _read_public(r, doc, root, parts)
    raws = _read_seats(r, doc, root, parts, (True, True))
    for p in (0, 1):
        at = f"{root}.players[{p}]"
        e = raws[p].get("emissary")
        parts.emissaries[p] = r.unit(e, f"{at}.emissary") if e is not None else -1
        parts.deck_lists[p] = r.counts(raws[p].get("deck_list", []), f"{at}.deck_list")
        parts.deck_known[p] = r.counts(raws[p].get("deck_known", []), f"{at}.deck_known")
        parts.packs[p] = r.counts(raws[p].get("pack", []), f"{at}.pack")
        chosen = raws[p].get("chosen")
        parts.chosen[p] = r.unit(chosen, f"{at}.chosen") if chosen is not None else -1
    decks = r.pair(r.get(doc, "decks", root), f"{root}.decks")
    parts.decks = [r.units(decks[i], f"{root}.decks[{i}]") for i in (0, 1)]
    city = r.items(r.get(doc, "city_rewards", root), f"{root}.city_rewards", most=CITIES)
    if len(city) != CITIES:
        r.fail(f"{root}.city_rewards", f"must list {CITIES} stacks")
    parts.city_rewards = [r.rewards(city[c], f"{root}.city_rewards[{c}]") for c in range(CITIES)]
    if parts.config.deck == "sdraft":
        parts.pool = r.units(doc.get("pool", []), f"{root}.pool")
    words = r.items(r.get(doc, "rng", root), f"{root}.rng", most=4)
    try:
        state = [int(w, 16) for w in words]
    except (TypeError, ValueError):
        r.fail(f"{root}.rng", "must be 4 words of 16 hex digits")
    if len(state) != 4 or not all(0 <= w <= MASK64 for w in state) or not any(state):
        r.fail(f"{root}.rng", "must be 4 words of 16 hex digits, not all zero")
    parts.rng = Rng.from_state(state)
    seed = doc.get("seed")
    parts.seed = r.integer(seed, f"{root}.seed", 0, MASK64) if seed is not None else None
    rewards = Counter(x for stack in parts.city_rewards for x in stack)
    for p in (0, 1):
        rewards.update(parts.rewards_hand[p] + parts.rewards_used[p])
    if rewards != Counter({rc.index: rc.copies for rc in r.cards.rewards}):
        r.fail(f"{root}.city_rewards", "the reward cards in cities, hands and play areas must be the set's "
                                       f"{sum(rc.copies for rc in r.cards.rewards)}, each design as often as it has copies")
    return GameState.from_parts(parts)


def load_observation(data: Any, cards: CardSet | None = None, root: str = "observation") -> dict[str, Any]:
    """Validate an observation document and return it normalised (as :func:`observe` writes it)."""
    state, me = state_from_observation(data, cards, root)
    return observe(state, me)


def state_from_observation(data: Any, cards: CardSet | None = None,
                           root: str = "observation") -> tuple[GameState, int]:
    """A full state that the observing player would observe exactly as ``data``, and that player.

    What the player cannot see is dealt from exactly the cards they have not seen, in card order
    (a determinisation then shuffles it). Raises :class:`FormatError` naming a bad field, or the
    document as a whole when its counts cannot add up."""
    doc, r, parts = _open(data, cards, root, OBSERVATION_FORMAT)
    me = r.integer(r.get(doc, "player", root), f"{root}.player", 0, 1)
    opp = 1 - me
    _read_public(r, doc, root, parts)
    raws = _read_seats(r, doc, root, parts, (me == 0, me == 1))
    at_me, at_opp = f"{root}.players[{me}]", f"{root}.players[{opp}]"
    e = raws[me].get("emissary")
    parts.emissaries[me] = r.unit(e, f"{at_me}.emissary") if e is not None else -1
    opp_emissary = r.boolean(raws[opp].get("emissary_chosen", False), f"{at_opp}.emissary_chosen")
    opp_hand = r.integer(r.get(raws[opp], "hand_size", at_opp), f"{at_opp}.hand_size", sum(parts.known[opp]), 400)
    opp_rewards = r.integer(r.get(raws[opp], "reward_count", at_opp), f"{at_opp}.reward_count", 0, 24)
    sizes = [r.integer(n, f"{root}.deck_sizes[{i}]", 0, 400)
             for i, n in enumerate(r.pair(r.get(doc, "deck_sizes", root), f"{root}.deck_sizes"))]
    stacks = [r.integer(r.get(r.obj(doc["cities"][c], f"{root}.cities[{c}]"), "rewards", f"{root}.cities[{c}]"),
                        f"{root}.cities[{c}].rewards", 0, REWARDS_PER_CITY) for c in range(CITIES)]
    own = parts.config.own_decks
    if own:
        parts.deck_lists[me] = r.counts(r.get(raws[me], "deck_list", at_me), f"{at_me}.deck_list")
        parts.deck_known[opp] = r.counts(r.get(raws[opp], "deck_list", at_opp), f"{at_opp}.deck_list")
        unknown = r.integer(raws[opp].get("deck_list_unknown", 0), f"{at_opp}.deck_list_unknown", 0, 400)
        if parts.config.deck != "sdraft":
            parts.deck_known[me] = list(parts.deck_lists[me])
            if unknown:
                r.fail(f"{at_opp}.deck_list_unknown", "only a Simplified draft leaves part of a deck unknown")
    # the cards of each hidden place, dealt from the unseen ones in card order
    hidden_hand = opp_hand - sum(parts.known[opp])
    parts.hands[opp] = list(parts.known[opp])
    if parts.phase == SDRAFT:
        if hidden_hand or opp_emissary or any(sizes):
            r.fail(root, "in the middle of a Simplified draft no one has a hand, an emissary or a deck yet")
        _deal_sdraft(r, doc, root, parts, me, unknown)
    elif not own:
        universe = Counter({t: parts.units[t].copies for t in GameState.from_parts(parts).designs()})
        placed = _placed(parts)
        _check_universe(r, parts, root, placed, universe)
        placed += _aside(parts)
        _check_universe(r, parts, root, placed, universe)
        unseen = sorted((universe - placed).elements())
        need = hidden_hand + opp_emissary + sizes[0]
        if len(unseen) != need:
            r.fail(f"{root}.deck_sizes", f"the unit cards add up to {sum(universe.values()) - len(unseen) + need}, "
                                         f"the game has {sum(universe.values())}")
        _deal(parts, opp, hidden_hand, opp_emissary, unseen, 0)
    else:
        universe_me = Counter({t: n for t, n in enumerate(parts.deck_lists[me]) if n})
        placed_me = _placed(parts, me) + _aside(parts, me)
        _check_universe(r, parts, at_me + ".deck_list", placed_me, universe_me)
        parts.decks[me] = sorted((universe_me - placed_me).elements())
        if len(parts.decks[me]) != sizes[me]:
            r.fail(f"{root}.deck_sizes[{me}]", f"your deck list leaves {len(parts.decks[me])} cards for your deck")
        known_opp = Counter({t: n for t, n in enumerate(parts.deck_known[opp]) if n})
        placed_opp = _placed(parts, opp) + _aside(parts, opp)
        if unknown:  # R-sdraft-3: the opponent's unseen picks, from the cards never seen
            seen = Counter(universe_me) + known_opp
            everything = Counter({t: parts.units[t].copies for t in GameState.from_parts(parts).designs()})
            _check_universe(r, parts, root, seen, everything)
            known_opp += Counter(sorted((everything - seen).elements())[:unknown])
        parts.deck_lists[opp] = [known_opp[t] for t in range(parts.T)]
        _check_universe(r, parts, at_opp + ".deck_list", placed_opp, known_opp)
        unseen = sorted((known_opp - placed_opp).elements())
        if len(unseen) != hidden_hand + opp_emissary + sizes[opp]:
            r.fail(f"{root}.deck_sizes[{opp}]", "the opponent's hand, emissary and deck do not add up to their "
                                                "deck list")
        _deal(parts, opp, hidden_hand, opp_emissary, unseen, opp)
    rewards = Counter({rc.index: rc.copies for rc in r.cards.rewards})
    named = Counter(parts.rewards_hand[me] + parts.rewards_used[0] + parts.rewards_used[1])
    if named - rewards or sum(rewards.values()) - sum(named.values()) != sum(stacks) + opp_rewards:
        r.fail(f"{root}.cities", "the reward cards in the cities, hands and play areas must add up to the set's "
                                 f"{sum(rewards.values())}")
    pool = sorted((rewards - named).elements())
    parts.city_rewards = [[pool.pop(0) for _ in range(n)] for n in stacks]
    parts.rewards_hand[opp] = pool
    state = GameState.from_parts(parts)
    reach_decision(state, root)
    return state, me


def _deal_sdraft(r: DocumentReader, doc: dict[str, Any], root: str, parts: Parts, me: int, unknown: int) -> None:
    """In the middle of a Simplified draft (R-sdraft-3): ``me``'s pack and pick as shown; from the
    cards ``me`` has never seen, in card order, the opponent's unseen picks, then their pack at a
    round's first pick (its pick, if made, the last of it), then the undealt cards. Later in a round
    the opponent's pack is the one ``me`` passed them, less the pick they have made from it."""
    opp = 1 - me
    at = f"{root}.sdraft"
    view = r.obj(r.get(doc, "sdraft", root), at)
    parts.packs[me] = r.counts(r.get(view, "pack", at), f"{at}.pack")
    chosen = view.get("chosen")
    parts.chosen[me] = r.unit(chosen, f"{at}.chosen") if chosen is not None else -1
    opp_size = r.integer(r.get(view, "opponent_pack_size", at), f"{at}.opponent_pack_size", 0, SDRAFT_PACK)
    opp_chosen = r.boolean(r.get(view, "opponent_chosen", at), f"{at}.opponent_chosen")
    step = (parts.draft_picks % (2 * SDRAFT_PACK)) // 2
    if sum(parts.packs[me]) + (parts.chosen[me] >= 0) != SDRAFT_PACK - step or opp_size != SDRAFT_PACK - step:
        r.fail(f"{at}.pack", f"at pick {step + 1} of a round each pack holds {SDRAFT_PACK - step} cards")
    picked = parts.draft_picks % 2 == 1  # seat 0 has picked this step and seat 1 is to pick
    if (parts.chosen[me] >= 0) != (picked and me == 0) or opp_chosen != (picked and opp == 0):
        r.fail(f"{at}.chosen", "seat 0 picks first: at an odd number of picks seat 0's pick is made, else none is")
    opp_pack: list[int] = []
    if step > 0:  # the pack ``me`` passed them, its pick among it (which one is settled below)
        opp_pack = r.units(r.get(view, "opponent_pack", at), f"{at}.opponent_pack")
        if len(opp_pack) != opp_size:
            r.fail(f"{at}.opponent_pack", f"must hold opponent_pack_size ({opp_size}) cards")
        parts.packs[opp] = [opp_pack.count(t) for t in range(parts.T)]
    state = GameState.from_parts(parts)
    seen = Counter({t: n for t, n in enumerate(state.sdraft_seen(me)) if n})
    everything = Counter({t: parts.units[t].copies for t in state.designs()})
    _check_universe(r, parts, at, seen, everything)
    unseen = sorted((everything - seen).elements())
    if len(unseen) < unknown + (opp_size if step == 0 else 0):
        r.fail(f"{root}.draft.picks", "more cards are picked and dealt than the game has")
    parts.deck_lists[opp] = list(parts.deck_known[opp])
    for t in unseen[:unknown]:
        parts.deck_lists[opp][t] += 1
    rest = unseen[unknown:]
    if step == 0:
        opp_pack, rest = rest[:opp_size], rest[opp_size:]
    parts.chosen[opp] = opp_pack.pop() if opp_chosen else -1
    parts.packs[opp] = [opp_pack.count(t) for t in range(parts.T)]
    parts.pool = rest
    dealt = 2 * SDRAFT_PACK * (parts.draft_picks // (2 * SDRAFT_PACK) + 1)
    if len(rest) != sum(everything.values()) - dealt:
        r.fail(f"{root}.draft.picks", f"after {parts.draft_picks} picks {sum(everything.values()) - dealt} cards are "
                                      f"still to deal, the cards seen leave {len(rest)}")


def _aside(parts: Parts, seat: int | None = None) -> Counter:
    """Unit cards out of every zone a document names by hand or city (revealed, limbo, the Beast
    set aside), of the seat whose they are (``None``: all)."""
    d = parts.pending
    out: Counter = Counter()
    owner_revealed = d.owner if d is not None and d.kind == "reveal_take" else parts.active
    owner_limbo = d.player if d is not None and d.kind == "keep" else parts.active
    if seat in (None, owner_revealed):
        out.update({t: n for t, n in enumerate(parts.revealed) if n})
    if seat in (None, owner_limbo):
        out.update({t: n + m for t, (n, m) in enumerate(zip(parts.limbo, parts.limbo_enraged)) if n + m})
    if parts.beast >= 0 and seat in (None, parts.active):
        out[parts.beast] += 1
    return out


def _deal(parts: Parts, opp: int, hidden_hand: int, emissary: bool, unseen: list[int], pile: int) -> None:
    for _ in range(hidden_hand):
        parts.hands[opp][unseen.pop(0)] += 1
    if emissary:
        parts.emissaries[opp] = unseen.pop(0)
    parts.decks[pile] = unseen


def _fingerprint(state: GameState) -> tuple:
    """What the rules may not touch while running on from a hand-written observation."""
    return ([len(d) for d in state.decks], [list(h) for h in state.hands], [list(x) for x in state.rewards_hand],
            [len(c) for c in state.city_rewards], list(state.emissaries))


def reach_decision(state: GameState, root: str) -> None:
    """A hand-written observation may leave out the pending decision: run the rules on to it,
    provided that only public things happen on the way (nothing is drawn, revealed or dealt)."""
    if state.pending is not None or state.is_terminal():
        return
    before, phase = _fingerprint(state), state.phase
    try:
        state.run_to_decision()
    except OmenError:
        raise
    except Exception as exc:  # an inconsistent stack or phase that reading did not catch
        raise FormatError(f"{root}: inconsistent game state ({type(exc).__name__}: {exc})") from None
    if _fingerprint(state) != before:
        raise FormatError(f"{root}.pending: missing, and the game cannot go on from phase {phase!r} to the "
                          "next decision without hidden cards: give the pending decision")
