# cython: language_level=3
"""The Cython core of the combined game: Heir to the Dunes with Reign of War units (``heir+reign``, C-…).

Heir's core compiled a second time: the same ``.pxi`` files (``ext/heir/``), with the sizes and
the added fields of ``core_state.pxd`` here and the rules the Reign of War units bring in
``hooks.pxi`` (Soldiers entering cities, Beasts discarded for their abilities, the Portent and Feat
steps, Enraged units, the Reign of War effects, the feats in scoring and the tie order). It is
equal to the reference engine (``omen_search/games/combined/reference.py``) move for move; the
differential tests check it. Moves are packed as in Heir's core, with the verbs after ``pass``.
"""

from core_state cimport *  # this core's sizes and layout (its folder's core_state.pxd)
include "../heir/cimports.pxi"

from omen_search.games.heir import cards as _limits
from omen_search.games.heir.cards import GODS, play_depth
from omen_search.errors import CoreLimitError, IllegalMoveError, UsageError
from omen_search.games.combined import cards as _combined_cards
from omen_search.games.combined.cards import ReignUnit
from omen_search.games.combined.observe import observe
from omen_search.games.combined.reference import REIGN_OPS
from omen_search.games.combined import rules as _combined_rules
from omen_search.games.combined.rules import DECISIONS, PHASES, deal_args
from omen_search.games.heir import rules as _rules
from omen_search.games.heir.rules import LEVELS, Pending, program
from omen_search.games.heir.notation import VERBS, Move
from omen_search.games.reign import cards as _reign_cards
from omen_search.games.reign.cards import Effect as ReignEffect
from omen_search.rng import Rng

include "../heir/codes.pxi"

cdef enum:
    # the Reign of War ops without an Heir op of the same meaning (C-11)
    OP_R_OPP_DISCARDS = 32
    OP_R_RECLAIM
    OP_R_MOVE
    OP_R_ENRAGE
    OP_R_DESTROY
    OP_R_RETURN_UNIT
    OP_R_TAKE_COINS
    OP_R_REVEAL_TAKE
    # decision kinds after Heir's (rules.DECISIONS)
    DK_PORTENT = DK_OFFERING + 1
    DK_ENRAGE
    DK_UNIT_MOVE
    DK_DESTROY
    DK_RETURN_UNIT
    DK_REVEAL_TAKE
    # verbs after Heir's (notation.VERBS)
    V_BEAST = V_PASS + 1
    V_ORACLE
    V_ENRAGE
    V_DESTROY
    V_RETURN
    # phases after Heir's (rules.PHASES)
    PH_PORTENT_START = PH_GAME_OVER + 1
    PH_PORTENT
    PH_FEAT
    # unit kinds (TablesMore.kind)
    KIND_HEIR = 0
    KIND_SOLDIER
    KIND_BEAST
    KIND_ORACLE
    KIND_ENRAGED
    # feat conditions (reign cards.CONDITIONS)
    FEAT_IN_EVERY_CITY = 0
    FEAT_UNITS_IN_ONE_CITY
    FEAT_OPP_HAND_DISCARDS
    FEAT_BEAST_ABILITIES
    MODE_OUT_OF_THIS_CITY = 2  # Instr.mode of a Reign of War move (Heir's: 0 any, 1 maneuver)
    TO_THIS_CITY = 1           # Instr.to of a reveal_take
    FEATS_TO_END = 5           # R-end-1

_REIGN_OP_CODES = {
    "draw": OP_DRAW, "gain": OP_GAIN, "discard": OP_DISCARD, "play_free": OP_PLAY_FREE,
    "reveal_hand_discard": OP_REVEAL_HAND_DISCARD, "opponent_discards": OP_R_OPP_DISCARDS,
    "reclaim": OP_R_RECLAIM, "move": OP_R_MOVE, "enrage": OP_R_ENRAGE, "destroy": OP_R_DESTROY,
    "return_unit": OP_R_RETURN_UNIT, "take_coins": OP_R_TAKE_COINS, "reveal_take": OP_R_REVEAL_TAKE,
}
_KINDS = {"soldier": KIND_SOLDIER, "beast": KIND_BEAST, "oracle": KIND_ORACLE, "enraged": KIND_ENRAGED}
_FEAT_KINDS = {"in_every_city": FEAT_IN_EVERY_CITY, "units_in_one_city": FEAT_UNITS_IN_ONE_CITY,
               "opponent_hand_discards": FEAT_OPP_HAND_DISCARDS, "beast_abilities": FEAT_BEAST_ABILITIES}
_FILTERS = {**_FILTERS, "soldier": 5, "beast": 6, "oracle": 7}
cdef uint8_t FILTER_OF_KIND[5]
FILTER_OF_KIND[:] = [255, 5, 6, 7, 255]  # the filter naming each kind (an Heir unit's and an Enraged one's: none)

assert set(_REIGN_OP_CODES) == set(REIGN_OPS) and len(_FILTERS) == NFILTERS
assert PHASES[PH_FEAT] == "feat" and len(PHASES) == PH_FEAT + 1
assert DECISION_NAMES[DK_REVEAL_TAKE] == "reveal_take" and len(DECISION_NAMES) == DK_REVEAL_TAKE + 1
assert tuple(VERBS)[V_RETURN] == "return" and len(VERBS) == V_RETURN + 1
assert (MAX_T, NCARDS, MAX_STACK) == (_combined_cards.CORE_UNIT_DESIGNS, _combined_cards.CORE_DECK,
                                     _combined_cards.CORE_STACK)
assert (NTILES, MAX_CODE, MAX_PROGS, MAX_OPTIONS, MAX_MOVES) == (
    _limits.REWARD_COUNT, _limits.MAX_CODE, _limits.MAX_LISTS, _limits.MAX_OPTIONS, _limits.MAX_MOVES)
assert NCARDS >= _limits.DECK_SIZE + _combined_cards.MAX_REIGN_CARDS
assert (MAX_CHAIN, FEATS_TO_END, MAX_FEATS) == (_combined_rules.MAX_CHAIN, _combined_rules.FEATS_TO_END, _reign_cards.FEATS)

include "../heir/primitives.pxi"   # packed moves, the trail, zones and unit sets
include "hooks.pxi"                # what the Reign of War units add to Heir's rules
include "../heir/core.pxi"         # Heir's rules, contract with the search and Python edge


cdef class CombinedTables(CoreTables):
    """A combined card set compiled for the core: Heir's tables, and the Reign of War units' kinds,
    Enraged forms, abilities and filters and the feats (``TablesMore``). Refuses, with a
    :class:`CoreLimitError`, a set beyond the core's limits."""

    def __init__(self, cards):
        T = len(cards.units)
        deck = sum(u.copies for u in cards.units) + sum(n for _, n in cards.ablated)
        if T > MAX_T:
            raise CoreLimitError(f"cards: {T} unit designs with the Reign of War units and their Enraged forms; "
                                 f"the heir+reign core holds at most {MAX_T}")
        if deck > NCARDS:
            raise CoreLimitError(f"cards: a deck of {deck} cards; the heir+reign core holds at most {NCARDS}")
        if len(cards.feats) > MAX_FEATS:
            raise CoreLimitError(f"cards: {len(cards.feats)} feats; the heir+reign core holds at most {MAX_FEATS}")
        # the frames that can resolve at once: Heir's (its loader's limit), and in each of MAX_CHAIN
        # nested Soldier triggers a Soldier's ability, a decision waiting beneath it, and a play
        # (a Reign of War free play or an Heir unit's abilities); a Beast's ability and its card below all
        stack = _limits.MAX_STACK + MAX_CHAIN * (2 + max(1, play_depth(cards.units))) + 2
        if stack > MAX_STACK:
            raise CoreLimitError(f"cards: a play can need {play_depth(cards.units)} effect lists resolving at once, so "
                                 f"nested Soldier triggers up to {stack}; the heir+reign core holds at most {MAX_STACK}")
        super().__init__(cards)

    def _compile_more(self):
        cdef int t, f
        cdef uint64_t bit
        cards = self.cards
        for u in cards.units:
            t = u.index
            bit = <uint64_t>1 << t
            self.tb.more.base[t] = t
            self.tb.more.enraged[t] = -1
            self.tb.more.prog_ability[t] = -1
            if not isinstance(u, ReignUnit):
                continue
            kind = _KINDS[u.kind]
            self.tb.more.kind[t] = kind
            self.tb.more.base[t] = cards.base(t)
            self.tb.more.enraged[t] = cards.enraged(t)
            self.tb.more.beast_set |= bit if kind == KIND_BEAST else 0
            self.tb.more.enraged_set |= bit if kind == KIND_ENRAGED else 0
            for name, code in _FILTERS.items():  # D-combined-3
                self.tb.passes[code][t] = u.matches(name)
                self.tb.filter_set[code] = (self.tb.filter_set[code] & ~bit) | (bit if u.matches(name) else 0)
            if u.ability:
                prog = self._compile(("ability", t))
                self.tb.more.prog_ability[t] = prog
                self.tb.more.soldier_prog[prog] = kind == KIND_SOLDIER
        self.tb.more.n_feats = len(cards.feats)
        for feat in cards.feats:
            f = feat.index
            self.tb.more.feat_kind[f] = _FEAT_KINDS[feat.condition.kind]
            self.tb.more.feat_n[f] = feat.condition.n
            self.tb.more.feat_filter[f] = _FILTERS[feat.condition.filter]

    def _instr(self, int at, ref, int i, e):
        """A Reign of War effect (C-11) as an instruction; an Heir effect as Heir's core compiles it."""
        cdef Instr* x = &self.tb.code[at]
        if not isinstance(e, ReignEffect):
            return super()._instr(at, ref, i, e)
        for name, value in (("n", e.n), ("take", e.take)):
            if value > 63:
                raise CoreLimitError(f"cards: an effect's {name} of {value} is above the core's limit of 63")
        x.op = _REIGN_OP_CODES[e.op]
        x.n = e.n
        x.take = e.take
        x.filter = _FILTERS[e.filter]
        x.side = 0 if e.side == "own" else 1
        x.where = 1 if e.where == "this_city" else 0
        x.up_to = e.up_to
        x.mode = MODE_OUT_OF_THIS_CITY if e.mode == "out_of_this_city" else 0
        x.to = TO_THIS_CITY if e.to == "this_city" else 0
        x.then_prog = -1


TABLES = CombinedTables
DEAL = deal_args


cdef class CombinedCoreState(CoreState):
    """A combined game on the core, with the reference engine's State interface and its
    attributes (the feats, the counts the feats read, the Oracles still to resolve)."""

    def _load_frame(self, int k, frame):
        cdef int slot
        ref, index, owner, city = frame
        if ref[0] != "resume":
            return super()._load_frame(k, frame)
        slot = self.s.more.resume_n
        if slot >= MAX_RESUME:
            raise CoreLimitError(f"state: more than {MAX_RESUME} decisions waiting for a moved Soldier")
        self._load_decision(&self.s.more.resume[slot], &self.s.more.resume_moved[slot][0][0], ref[1])
        self.s.more.resume_n += 1
        self.s.stack[k].prog = PROG_RESUME
        self.s.stack[k].pc = 0
        self.s.stack[k].owner = owner
        self.s.stack[k].city = -1

    def _load_more(self, state):
        cdef int p, f, c, t
        for p in range(2):
            self.s.more.feats[p] = sum(1 << f for f, done in enumerate(state.feats[p]) if done)
            self.s.more.hand_discards[p] = state.hand_discards[p]
        self.s.more.beast_abilities = state.beast_abilities
        for c in range(NCITIES):
            for t, n in enumerate(state.portent_left[c]):
                self.s.more.portent_left[c][t] = n

    @property
    def feats(self):
        cdef int n = self.tables.tb.more.n_feats
        return [[bool(self.s.more.feats[p] >> f & 1) for f in range(n)] for p in range(2)]

    def feats_done(self, int player) -> int:
        return popcount8(self.s.more.feats[player])

    @property
    def hand_discards(self):
        return [self.s.more.hand_discards[0], self.s.more.hand_discards[1]]

    @property
    def beast_abilities(self):
        return self.s.more.beast_abilities

    @property
    def portent_left(self):
        cdef int T = self.tables.tb.T
        return [[self.s.more.portent_left[c][t] for t in range(T)] for c in range(NCITIES)]

    def feat_holds(self, int p, int f) -> bool:
        if not 0 <= f < self.tables.tb.more.n_feats or p not in (0, 1):
            raise UsageError(f"feat_holds: no feat {f!r} of player {p!r}")
        return bool(feat_holds(&self.tables.tb, &self.s, p, f))

    @property
    def stack(self):
        """The frames, a waiting decision's as ``(("resume", pending), 0, player, -1)``."""
        frames = []
        cdef int k, slot = 0
        for k in range(self.s.stack_n):
            f = self.s.stack[k]
            if f.prog == PROG_RESUME:
                frames.append((("resume", self._pending(&self.s.more.resume[slot], &self.s.more.resume_moved[slot][0][0])),
                               0, f.owner, -1))
                slot += 1
            else:
                frames.append((self.tables.prog_refs[f.prog], f.pc, f.owner, f.city))
        return frames
