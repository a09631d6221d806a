"""An OMEGA position from what one player sees: :func:`state_from_observation` reads an
``omega-observation/1`` (what ``observation(player)`` writes, or one written by hand) and deals a
reference state the player sees exactly so, for the advisor to search from.

What the player cannot see is dealt at random, as a determinisation does (docs/rules/omega-the-
ritual.md, "For the engine"): the runes unaccounted for into the other players' hidden Pyramid
slots and the bag, the Egregors not on the table as the stack, the Arcana not on the table under
the stacks' tops. Every count the observation gives must add up; a mistake is a
:class:`~omen_search.errors.FormatError` naming the field.
"""

from __future__ import annotations

from typing import Any

from omen_search.documents import JsonReader, document
from omen_search.games.omega.cards import KINDS, CardSet
from omen_search.games.omega.observe import FORMAT
from omen_search.games.omega.reference import ARCANA_STACKS, OmegaState
from omen_search.games.omega.rules import CARRY, GAME, MAX_TURNS, PLAYER_COUNTS, Config
from omen_search.rng import Rng

PHASES = ("draw", "main", "end", "over")
ACTIONS = ("summon", "capture")
HOWS = ("capture", "disown", "summon")


class _Reader(JsonReader):
    """A JSON reader that knows the card set: Egregor and Arcanum names, rune counts."""

    def __init__(self, cards: CardSet, root: str):
        super().__init__(root)
        self.cards = cards

    def egregor(self, value: Any, path: str) -> int:
        index = self.cards.egregor_index(value) if isinstance(value, str) else None
        if index is None:
            self.fail(path, f"unknown Egregor {value!r}")
        return index  # type: ignore[return-value]

    def arcanum(self, value: Any, path: str) -> int:
        index = self.cards.arcanum_index(value) if isinstance(value, str) else None
        if index is None:
            self.fail(path, f"unknown Arcanum {value!r}")
        return index  # type: ignore[return-value]

    def kind(self, value: Any, path: str) -> int:
        return KINDS.index(self.choice(value, path, KINDS))

    def runes(self, value: Any, path: str) -> list[int]:
        counts = [0] * len(KINDS)
        for kind, n in self.obj(value, path).items():
            counts[self.kind(kind, f"{path} key")] = self.integer(n, f"{path}.{kind}", 0, max(self.cards.runes))
        return counts


def _step(r: _Reader, d: Any, path: str, players: int) -> tuple:
    """One step of ``queue`` back into the reference engine's tuple (``observe.step_json``)."""
    d = r.obj(d, path)
    kind = r.choice(r.get(d, "kind", path), f"{path}.kind",
                    ("turn", "main", "draw", "end_phase", "endings", "arcana", "gain", "lose", "bag_rest",
                     "coloured_draw", "proliferate", "lightning", "keep", "cycle", "key", "reveal"))
    if kind == "bag_rest":
        return (kind, r.egregor(r.get(d, "egregor", path), f"{path}.egregor"),
                r.choice(r.get(d, "how", path), f"{path}.how", HOWS))
    seat = r.integer(r.get(d, "seat", path), f"{path}.seat", 0, players - 1)
    card = lambda: r.egregor(r.get(d, "egregor", path), f"{path}.egregor")  # noqa: E731
    if kind in ("proliferate", "lightning"):
        return (kind, seat, card())
    if kind == "keep":
        return (kind, seat, card(), r.integer(r.get(d, "left", path), f"{path}.left", 1, CARRY),
                r.kind(r.get(d, "from_kind", path), f"{path}.from_kind"))
    if kind == "cycle":
        colour = r.get(d, "colour", path, None)
        after = r.items(r.get(d, "after", path), f"{path}.after", most=2)
        if len(after) != 2:
            r.fail(f"{path}.after", "must be [position, kind index]")
        return (kind, seat, r.integer(r.get(d, "left", path), f"{path}.left", 1, 4 * CARRY),
                None if colour is None else r.kind(colour, f"{path}.colour"),
                (r.integer(after[0], f"{path}.after[0]", 0, 4), r.integer(after[1], f"{path}.after[1]", 0, 5)))
    if kind == "key":
        names = lambda field: tuple(r.egregor(v, f"{path}.{field}[{i}]")  # noqa: E731
                                    for i, v in enumerate(r.items(r.get(d, field, path), f"{path}.{field}", most=64)))
        return (kind, seat, names("keys"), names("revealed"), frozenset(names("chosen")))
    if kind == "reveal":
        first = r.get(d, "first", path, None)
        if first is not None:
            first = r.items(first, f"{path}.first", most=2)
            if len(first) != 2:
                r.fail(f"{path}.first", "must be [kind, count]")
            first = (r.kind(first[0], f"{path}.first[0]"), r.integer(first[1], f"{path}.first[1]", 1, CARRY))
        return (kind, seat, r.choice(r.get(d, "action", path), f"{path}.action", ACTIONS), card(), first)
    if kind == "gain":
        runes = r.runes(r.get(d, "runes", path), f"{path}.runes")
        return (kind, seat, card(), tuple(runes), r.choice(r.get(d, "how", path), f"{path}.how", HOWS))
    if kind == "lose":
        return (kind, seat, card(), r.choice(r.get(d, "how", path), f"{path}.how", HOWS))
    if kind == "coloured_draw":
        return (kind, seat, r.kind(r.get(d, "colour", path), f"{path}.colour"))
    return (kind, seat)


def state_from_observation(data: Any, cards: CardSet, root: str = "observation", seed: int = 0
                           ) -> tuple[OmegaState, int]:
    """A reference state that the observing seat sees exactly as ``data`` says, and that seat; the
    unseen runes, Egregors and Arcana dealt from ``seed``. Raises :class:`FormatError` naming the
    field of any mistake or any count that does not add up."""
    o = document(data, root)
    r = _Reader(cards, root)
    if o.get("format") != FORMAT:
        r.fail(f"{root}.format", f"expected {FORMAT!r}, got {o.get('format')!r}")
    if o.get("game", GAME) not in (GAME, *(f"{GAME}-{n}" for n in PLAYER_COUNTS)):
        r.fail(f"{root}.game", f"not an OMEGA observation: {o.get('game')!r}")
    n = r.choice(r.get(o, "players_count", root), f"{root}.players_count", PLAYER_COUNTS)
    config = Config(players=n, first_player=r.integer(r.get(o, "first_player", root, 0), f"{root}.first_player", 0, n - 1),
                    max_turns=r.integer(r.get(o, "max_turns", root, 400), f"{root}.max_turns", 1, MAX_TURNS))
    me = r.integer(r.get(o, "player", root), f"{root}.player", 0, n - 1)
    state = OmegaState(cards, config, seed)
    state.first_ply = r.integer(r.get(o, "ply", root, 0), f"{root}.ply", 0, 10**7)
    state.turns = r.integer(r.get(o, "turn", root), f"{root}.turn", 0, MAX_TURNS)
    state.active = r.integer(r.get(o, "active", root), f"{root}.active", 0, n - 1)
    state.phase = r.choice(r.get(o, "phase", root), f"{root}.phase", PHASES)
    announcer = r.get(o, "announcer", root, None)
    state.announcer = None if announcer is None else r.integer(announcer, f"{root}.announcer", 0, n - 1)
    state.final = [r.integer(v, f"{root}.final_turns[{i}]", 0, n - 1)
                   for i, v in enumerate(r.items(r.get(o, "final_turns", root, []), f"{root}.final_turns", most=3))]
    turn = r.obj(r.get(o, "this_turn", root), f"{root}.this_turn")
    gained = r.get(turn, "gained", f"{root}.this_turn", None)
    state.gained = None if gained is None else r.egregor(gained, f"{root}.this_turn.gained")
    state.disowned = r.boolean(r.get(turn, "disowned", f"{root}.this_turn", False), f"{root}.this_turn.disowned")
    state.mask_moved = r.boolean(r.get(turn, "mask_moved", f"{root}.this_turn", False), f"{root}.this_turn.mask_moved")
    state.used = {r.egregor(v, f"{root}.this_turn.powers_used[{i}]") for i, v in enumerate(
        r.items(r.get(turn, "powers_used", f"{root}.this_turn", []), f"{root}.this_turn.powers_used", most=64))}
    state.altar = r.runes(r.get(o, "altar", root), f"{root}.altar")
    state.gallery = [r.egregor(v, f"{root}.gallery[{i}]")
                     for i, v in enumerate(r.items(r.get(o, "gallery", root), f"{root}.gallery", most=64))]
    state.discard = [r.egregor(v, f"{root}.discard[{i}]")
                     for i, v in enumerate(r.items(r.get(o, "discard", root), f"{root}.discard", most=64))]
    state.todo = [_step(r, d, f"{root}.queue[{i}]", n)
                  for i, d in enumerate(r.items(r.get(o, "queue", root), f"{root}.queue", most=64))]
    seats = r.items(r.get(o, "players", root), f"{root}.players", most=4)
    if len(seats) != n:
        r.fail(f"{root}.players", f"{n} seats expected, got {len(seats)}")
    hidden = [0] * n
    for q, raw in enumerate(seats):
        path = f"{root}.players[{q}]"
        seat = r.obj(raw, path)
        pyramid = r.obj(r.get(seat, "pyramid", path), f"{path}.pyramid")
        if q == me:
            state.pyramid[q] = r.runes(r.get(pyramid, "runes", f"{path}.pyramid"), f"{path}.pyramid.runes")
            # the runes of his the others have seen (D-omega-11 reads them), none if not said
            state.known[q] = r.runes(r.get(pyramid, "known", f"{path}.pyramid", {}), f"{path}.pyramid.known")
            if any(k > n for k, n in zip(state.known[q], state.pyramid[q])):
                r.fail(f"{path}.pyramid.known", "more known runes of a kind than the Pyramid holds")
        else:
            state.known[q] = r.runes(r.get(pyramid, "known", f"{path}.pyramid"), f"{path}.pyramid.known")
            hidden[q] = r.integer(r.get(pyramid, "hidden", f"{path}.pyramid"), f"{path}.pyramid.hidden", 0, sum(cards.runes))
            state.pyramid[q] = list(state.known[q])
        for i, e in enumerate(r.items(r.get(seat, "egregors", path), f"{path}.egregors", most=5)):
            e = r.obj(e, f"{path}.egregors[{i}]")
            c = r.egregor(r.get(e, "name", f"{path}.egregors[{i}]"), f"{path}.egregors[{i}].name")
            state.controlled[q].append(c)
            state.carried[c] = r.runes(r.get(e, "runes", f"{path}.egregors[{i}]"), f"{path}.egregors[{i}].runes")
        mask = r.get(seat, "mask", path, None)
        state.mask[q] = None if mask is None else r.egregor(mask, f"{path}.mask")
        state.pawn[q] = r.integer(r.get(seat, "pawn", path), f"{path}.pawn", 1, cards.squares) - 1
        state.prestige[q] = r.integer(r.get(seat, "prestige", path), f"{path}.prestige", 0, 10**4)
        state.taken[q] = [r.arcanum(v, f"{path}.arcana[{i}]")
                          for i, v in enumerate(r.items(r.get(seat, "arcana", path), f"{path}.arcana", most=64))]
        state.lost[q] = r.boolean(r.get(seat, "lost_an_egregor", path, False), f"{path}.lost_an_egregor")
    for i, step in enumerate(state.todo):  # an Egregor being lost still carries runes
        if step[0] in ("keep", "bag_rest"):
            on = r.get(r.obj(r.items(o["queue"], f"{root}.queue")[i], f"{root}.queue[{i}]"), "runes", f"{root}.queue[{i}]")
            state.carried[step[2] if step[0] == "keep" else step[1]] = r.runes(on, f"{root}.queue[{i}].runes")
    rng = Rng(seed)
    _deal_runes(r, o, state, hidden, rng, root)
    _deal_egregors(r, o, state, rng, root)
    _deal_arcana(r, o, state, rng, root)
    if state.current_player != r.integer(r.get(o, "to_move", root), f"{root}.to_move", -1, n - 1):
        r.fail(f"{root}.to_move", f"the queue and the phase give seat {state.current_player} the move")
    if state.phase != "over" and not state.legal_moves():
        r.fail(f"{root}.queue", "no legal move in this position")
    return state, me


def _deal_runes(r: _Reader, o: dict, state: OmegaState, hidden: list[int], rng: Rng, root: str) -> None:
    """The runes nobody has seen, 155 less every rune placed, into the hidden Pyramid slots; the
    rest are the bag, whose size the observation gives."""
    unseen = list(state.cards.runes)
    zones = [state.altar, *state.pyramid, *state.carried.values()]
    for k in range(len(KINDS)):
        unseen[k] -= sum(zone[k] for zone in zones)
        if unseen[k] < 0:
            r.fail(root, f"more {KINDS[k]} runes are in sight than the set has ({state.cards.runes[k]})")
    bag = r.integer(r.get(o, "bag", root), f"{root}.bag", 0, sum(state.cards.runes))
    if sum(unseen) != bag + sum(hidden):
        r.fail(f"{root}.bag", f"{bag} runes in the bag and {sum(hidden)} hidden in Pyramids, but "
                              f"{sum(unseen)} runes are not in sight")
    for q, h in enumerate(hidden):
        for _ in range(h):
            pick = rng.below(sum(unseen))
            k = 0
            while pick >= unseen[k]:
                pick -= unseen[k]
                k += 1
            unseen[k] -= 1
            state.pyramid[q][k] += 1
    state.bag = unseen


def _deal_egregors(r: _Reader, o: dict, state: OmegaState, rng: Rng, root: str) -> None:
    """Every Egregor not on the table (nor revealed by a Key, nor being lost) is in the stack."""
    placed = [*state.gallery, *state.discard, *(c for own in state.controlled for c in own)]
    leaving = set()  # a lost Egregor's keep and bag_rest steps name it twice
    for step in state.todo:
        if step[0] == "key":
            placed += [c for c in step[3] if c not in step[4]]
        elif step[0] in ("keep", "bag_rest"):
            leaving.add(step[2] if step[0] == "keep" else step[1])
    placed += sorted(leaving)
    seen = set()
    for c in placed:
        if c in seen:
            r.fail(root, f"Egregor {state.cards.egregors[c].name!r} is in two places")
        seen.add(c)
    state.stack = [c for c in range(len(state.cards.egregors)) if c not in seen]
    expected = r.integer(r.get(o, "stack", root), f"{root}.stack", 0, len(state.cards.egregors))
    if len(state.stack) != expected:
        r.fail(f"{root}.stack", f"{expected} Egregors in the stack, but {len(state.stack)} are not on the table")
    rng.shuffle(state.stack)


def _deal_arcana(r: _Reader, o: dict, state: OmegaState, rng: Rng, root: str) -> None:
    """The tokens neither on top of a stack nor taken, shuffled under the tops to the heights given."""
    stacks = r.items(r.get(o, "arcana", root), f"{root}.arcana", most=ARCANA_STACKS)
    if len(stacks) != ARCANA_STACKS:
        r.fail(f"{root}.arcana", f"{ARCANA_STACKS} stacks expected, got {len(stacks)}")
    left = list(state.cards.tokens)
    for token in (t for taken in state.taken for t in taken):
        if token not in left:
            r.fail(root, f"more {state.cards.arcana[token].name!r} tokens taken than the set has")
        left.remove(token)
    tops, heights = [], []
    for i, raw in enumerate(stacks):
        path = f"{root}.arcana[{i}]"
        stack = r.obj(raw, path)
        top = r.get(stack, "top", path, None)
        height = r.integer(r.get(stack, "height", path), f"{path}.height", 0, len(left))
        if (top is None) != (height == 0):
            r.fail(path, "a stack has a top exactly when it is not empty")
        tops.append(None if top is None else r.arcanum(top, f"{path}.top"))
        heights.append(height)
    for token in (t for t in tops if t is not None):
        if token not in left:
            r.fail(f"{root}.arcana", f"more {state.cards.arcana[token].name!r} tokens in sight than the set has")
        left.remove(token)
    if len(left) != sum(max(h - 1, 0) for h in heights):
        r.fail(f"{root}.arcana", f"the stacks are {sum(heights)} high, but {len(left)} tokens are not in sight "
                                 f"besides their tops")
    rng.shuffle(left)
    state.arcana = []
    for top, height in zip(tops, heights):
        under, left = left[:max(height - 1, 0)], left[max(height - 1, 0):]
        state.arcana.append(under + ([top] if top is not None else []))
