"""The reference engine of the combined game: Heir to the Dunes with Reign of War units shuffled in
(``C-…`` in ``docs/rules/reign-of-war.md``; ``D-combined-…`` in ``docs/rulings.md``).

It is Heir's reference engine (:mod:`omen_search.games.heir.reference`: C-1, everything of Heir
applies) with what the Reign of War units bring:

- the Portent and Feat steps between Surge and War (C-3), and the feats (C-4, C-12);
- a Soldier's ability each time it enters a city, played or moved, MANEUVER and Sandstorm included
  (R-unit-3, C-7), depth first (R-surge-7);
- a Beast discarded from hand for its ability (R-surge-4), and Oracles in the Portent step;
- Enraged units (C-9), which are unit designs of their own (:mod:`omen_search.games.combined.cards`),
  so that Heir's counting, war and keep rules apply to them as they are;
- the abilities, in Reign of War's effect vocabulary, resolved with Heir's words (C-11).

A stack frame is Heir's ``(ref, index, owner, city)``; a Reign of War ability's ``ref`` is
``("ability", unit)``. A frame whose ``ref`` is ``("resume", pending)`` takes up a decision of several
moves again once the Soldier that one of them moved into a city has resolved (R-surge-7).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from omen_search.games.combined.cards import CombinedSet, is_reign
from omen_search.games.combined.observe import observe
from omen_search.games.combined.rules import FEAT, FEATS_TO_END, MAX_CHAIN, PORTENT, PORTENT_START, Config, deal_args
from omen_search.games.heir.notation import Move
from omen_search.games.heir.reference import GameState as HeirState
from omen_search.games.heir.rules import CAPACITY, CITIES, WAR, Pending, program
from omen_search.games.reign.rules import enrage_keys, enrage_reach

# A Reign of War effect op -> the method that resolves it. The ops Heir has with the same meaning
# are Heir's own (C-11); the others are written here (``_rop_…``).
REIGN_OPS = {
    "draw": "_op_draw", "gain": "_op_gain", "discard": "_op_discard", "play_free": "_op_play_free",
    "reveal_hand_discard": "_op_reveal_hand_discard", "opponent_discards": "_rop_opponent_discards",
    "reclaim": "_rop_reclaim", "move": "_rop_move", "enrage": "_rop_enrage", "destroy": "_rop_destroy",
    "return_unit": "_rop_return_unit", "take_coins": "_rop_take_coins", "reveal_take": "_rop_reveal_take",
}


class GameState(HeirState):
    """A combined game in progress, with the State interface every engine shares.

    >>> s = GameState.new(seed=3, config=Config(reign_units=("Satyr", "Hoplite Recruit")))
    >>> s.current_player, [u.name for u in s.units[-3:]]
    (0, ['Hoplite Recruit', 'Satyr', 'Hoplite Recruit (enraged)'])
    """

    _FIELDS = HeirState._FIELDS + ("feats", "hand_discards", "beast_abilities", "portent_left")
    AFTER_SURGE = PORTENT_START
    cards: CombinedSet
    config: Config

    def __init__(self, cards: CombinedSet, config: Config):
        super().__init__(cards, config)
        self.feats = [[False] * len(cards.feats), [False] * len(cards.feats)]  # face down: done (R-feat-2)
        self.hand_discards = [0, 0]  # unit cards discarded from each hand this turn (R-card-12, C-13)
        self.beast_abilities = 0  # Beasts the active player discarded for their abilities this turn
        self.portent_left = [[0] * self.T for _ in range(CITIES)]  # the active player's Oracles still to resolve

    @classmethod
    def new(cls, seed: int = 0, cards: Any = None, config: Config | None = None) -> GameState:  # type: ignore[override]
        """Set up a game: ``cards`` is a :class:`~omen_search.games.combined.cards.Pool` (``None``:
        the built-in one) or the set :func:`~omen_search.games.combined.cards.combine` made of one
        for ``config``."""
        cards, config = deal_args(cards, config)
        return super().new(seed, cards, config)  # type: ignore[return-value]

    def observation(self, player: int) -> dict[str, Any]:
        return observe(self, player)

    def feats_done(self, player: int) -> int:
        return sum(self.feats[player])

    # ------------------------------------------------------------------ the driver

    def _step_effect(self) -> None:
        ref, index, owner, city = self.stack[-1]
        if ref[0] == "resume":
            self.stack.pop()
            d = ref[1]
            if any(m.verb != "pass" for m in getattr(self, "_moves_" + d.kind)(d)):
                self.pending = d
            return
        if ref[0] != "ability":
            super()._step_effect()
            return
        effects = program(self.cards, ref)
        if index >= len(effects):
            self.stack.pop()
            return
        self.stack[-1] = (ref, index + 1, owner, city)
        e = effects[index]
        getattr(self, REIGN_OPS[e.op])(e, ref, index, owner, city)

    def _resume_later(self, d: Pending | None) -> None:
        if d is not None:
            self.stack.append((("resume", d), 0, d.player, -1))

    def _enter(self, player: int, t: int, city: int) -> None:
        """A unit of ``player`` has entered ``city``: a Soldier's ability resolves for its owner at once
        (R-unit-3, R-surge-8), unless :data:`MAX_CHAIN` Soldier triggers are already resolving (R-surge-7)."""
        u = self.units[t]
        if not is_reign(u, "soldier") or not u.own_lists():
            return
        depth = sum(1 for f in self.stack if f[0][0] == "ability" and is_reign(self.units[f[0][1]], "soldier"))
        if depth < MAX_CHAIN:
            self._push(("ability", t), player, city)

    # ------------------------------------------------------------------ zones: an Enraged unit leaves as its card

    def _discard_card(self, t: int) -> None:
        super()._discard_card(self.cards.base(t))  # R-enrage-6

    def _to_hand_public(self, player: int, t: int) -> None:
        super()._to_hand_public(player, self.cards.base(t))

    def _entomb_under(self, d: Pending, slot: int) -> None:
        super()._entomb_under(d, slot)
        under = self.under[d.owner]
        for t, n in enumerate(under):
            if n and is_reign(self.units[t], "enraged"):
                under[self.cards.base(t)] += n
                under[t] = 0

    # ------------------------------------------------------------------ the turn

    def _phase_wealth_reveal(self) -> None:
        self.hand_discards = [0, 0]  # "this turn" counts from the start of the turn (R-feat-3)
        self.beast_abilities = 0
        super()._phase_wealth_reveal()

    def _play_unit(self, p: int, t: int, city: int, paid: bool, from_hand: bool) -> None:
        super()._play_unit(p, t, city, paid, from_hand)
        self._enter(p, t, city)

    def _moves_surge(self, d: Pending) -> list[Move]:
        """Heir's Surge moves with, after the plays, each Beast in hand that can be discarded for its
        ability (R-surge-4: its cost paid, no discount: it is Neutral, C-5)."""
        moves = super()._moves_surge(d)
        p = d.player
        beasts = [Move("beast", card=self._name(t)) for t, n in enumerate(self.hands[p])
                  if n and is_reign(self.units[t], "beast") and self.units[t].cost <= self.coins[p]]
        k = next(i for i, m in enumerate(moves) if m.verb != "play")
        return moves[:k] + beasts + moves[k:]

    def _do_surge(self, d: Pending, m: Move) -> None:
        if m.verb != "beast":
            super()._do_surge(d, m)
            return
        p, t = d.player, self._id(m.card)  # type: ignore[arg-type]
        self.coins[p] -= self.units[t].cost
        self._leave_hand(p, t)
        self.hand_discards[p] += 1
        self.beast_abilities += 1
        self._push(("built", t), p)  # the Beast goes to the discard pile after its ability (R-surge-4)
        if self.units[t].own_lists():
            self._push(("ability", t), p)

    def _phase_portent_start(self) -> None:
        a = self.active
        self.portent_left = [[n if is_reign(self.units[t], "oracle") else 0 for t, n in enumerate(self.cities[c][a])]
                             for c in range(CITIES)]
        self.phase = PORTENT

    def _portent_candidates(self) -> list[tuple[int, int]]:
        """R-portent-1, R-portent-2, D-combined-1: the Oracles still to resolve, never more in a city
        than the active player's face-up copies there now (copies in one city are one choice)."""
        a = self.active
        for c in range(CITIES):
            for t, n in enumerate(self.portent_left[c]):
                self.portent_left[c][t] = min(n, self.cities[c][a][t])
        return [(c, t) for c in range(CITIES) for t in range(self.T) if self.portent_left[c][t]]

    def _phase_portent(self) -> None:
        """R-portent-1: the Oracles resolve one at a time, in the order the active player chooses
        (asked only when two or more could go next)."""
        todo = self._portent_candidates()
        if not todo:
            self.phase = FEAT
        elif len(todo) == 1:
            self._resolve_oracle(*todo[0])
        else:
            self.pending = Pending("portent", self.active)

    def _resolve_oracle(self, city: int, t: int) -> None:
        self.portent_left[city][t] -= 1
        if self.units[t].own_lists():
            self._push(("ability", t), self.active, city)

    def _moves_portent(self, d: Pending) -> list[Move]:
        return [Move("oracle", card=self._name(t), city=c) for c, t in self._portent_candidates()]

    def _do_portent(self, d: Pending, m: Move) -> None:
        self._resolve_oracle(m.city, self._id(m.card))  # type: ignore[arg-type]

    def _carry_portent(self, side: int, t: int, src: int, dst: int) -> None:
        """An Oracle of the active player moved before its turn came takes its turn along (R-portent-2)."""
        if side == self.active and self.portent_left[src][t] > self.cities[src][side][t]:
            self.portent_left[src][t] -= 1
            self.portent_left[dst][t] += 1

    def _phase_feat(self) -> None:
        """R-feat-1: each of the active player's face-up feats whose condition holds now flips face down."""
        p = self.active
        for f in self.cards.feats:
            if not self.feats[p][f.index] and self.feat_holds(p, f.index):
                self.feats[p][f.index] = True
        self.phase = WAR

    def feat_holds(self, p: int, f: int) -> bool:
        """Whether feat ``f``'s condition holds for ``p`` now (R-feat-3, R-card-12, C-13)."""
        cond = self.cards.feats[f].condition
        if cond.kind == "in_every_city":
            return all(any(n and self.units[t].matches(cond.filter) for t, n in enumerate(self.cities[c][p]))
                       for c in range(CITIES))
        if cond.kind == "units_in_one_city":
            return any(self.side_count(c, p) >= cond.n for c in range(CITIES))
        if cond.kind == "opponent_hand_discards":
            return self.hand_discards[1 - p] >= cond.n
        return self.beast_abilities >= cond.n  # beast_abilities

    def _phase_end_check(self) -> None:
        """C-9: the active side's Enraged units flip face up (after the limits, before the end check;
        flipping up is not entering, R-enrage-5); then the end check, C-4's fifth feat included."""
        a = self.active
        for c in range(CITIES):
            side = self.cities[c][a]
            for t, n in enumerate(side):
                if n and is_reign(self.units[t], "enraged"):
                    side[self.cards.base(t)] += n
                    side[t] = 0
        super()._phase_end_check()

    def _game_ends(self) -> bool:
        return super()._game_ends() or self.feats_done(1 - self.active) >= FEATS_TO_END  # R-end-1, R-end-2

    # ------------------------------------------------------------------ scoring

    def _score(self, p: int) -> int:
        return super()._score(p) + 2 * self.feats_done(p)  # C-12

    def _tiebreak_key(self, p: int) -> tuple:
        """C-12: VP, unused reward tiles, TREASURED units in hand, face-down feats, favor."""
        vp, unused, treasured, favored = super()._tiebreak_key(p)
        return (vp, unused, treasured, self.feats_done(p), favored)

    # ------------------------------------------------------------------ discards from hand, counted (C-13)

    def _do_discard(self, d: Pending, m: Move) -> None:
        self.hand_discards[d.player] += 1  # a stolen card counts too: it is discarded face up first
        super()._do_discard(d, m)

    def _do_trash(self, d: Pending, m: Move) -> None:
        if m.verb != "pass":
            self.hand_discards[1 - d.player] += 1
        super()._do_trash(d, m)

    def _do_reveal(self, d: Pending, m: Move) -> None:
        if m.verb != "pass":
            self.hand_discards[d.player] += 1
        super()._do_reveal(d, m)

    # ------------------------------------------------------------------ Heir's moves of units (C-7)

    def _do_move(self, d: Pending, m: Move) -> None:
        """MANEUVER and Sandstorm: a Reign of War Soldier moved resolves its ability before the rest
        of the moves (C-7, R-surge-7); moved Heir units still resolve nothing."""
        super()._do_move(d, m)
        if m.verb == "pass":
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self._carry_portent(d.player, t, m.city, m.to)  # type: ignore[arg-type]
        if is_reign(self.units[t], "soldier"):
            rest, self.pending = self.pending, None
            self._resume_later(rest)
            self._enter(d.player, t, m.to)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ Reign of War's ops

    def _effect(self, d: Pending) -> Any:
        return program(self.cards, d.ref)[d.index]

    def _side(self, d: Pending) -> int:
        return d.owner if self._effect(d).side == "own" else 1 - d.owner

    def _rop_opponent_discards(self, e: Any, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-2: the opponent chooses; fewer if they have fewer."""
        n = min(e.n, self.hand_size(1 - owner))
        if n:
            self.pending = Pending("discard", 1 - owner, owner=owner, n=n)

    def _rop_take_coins(self, e: Any, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-6: from the opponent, not through the supply; fewer if they have fewer."""
        k = min(e.n, self.coins[1 - owner])
        self.coins[1 - owner] -= k
        self.coins[owner] += k

    def _rop_reclaim(self, e: Any, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-5: up to N unit cards of the filter's type from the discard pile to your hand."""
        d = Pending("reclaim", owner, owner=owner, n=e.n, ref=ref, index=index)
        if len(self._moves_reclaim(d)) > 1:
            self.pending = d

    def _moves_reclaim(self, d: Pending) -> list[Move]:
        moves = super()._moves_reclaim(d)
        if not d.ref:  # Heir's reclaim takes any unit
            return moves
        f = self._effect(d).filter
        return [m for m in moves if m.verb == "pass" or self.units[self._id(m.card)].matches(f)]  # type: ignore[arg-type]

    def _rop_destroy(self, e: Any, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-1, C-11: "discard a unit from a City" is Heir's destroy (not a war: ENDURING sleeps)."""
        self._start_city_pick("destroy", e, ref, index, owner, city)

    def _rop_return_unit(self, e: Any, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-8: return chosen units to their owner's hand, known to both."""
        self._start_city_pick("return_unit", e, ref, index, owner, city)

    def _start_city_pick(self, kind: str, e: Any, ref: tuple, index: int, owner: int, city: int) -> None:
        """All that can be, up to N, unless "up to" (R-unit-2); a Beast is one pick (R-beast-2)."""
        d = Pending(kind, owner, owner=owner, n=e.n, city=city, ref=ref, index=index)
        total = sum(self._units_in_cities(d))
        if total:
            self.pending = replace(d, n=e.n if e.up_to else min(e.n, total))

    def _city_pick_moves(self, d: Pending, verb: str) -> list[Move]:
        up_to = self._effect(d).up_to
        keys = self._pick_keys(self._units_in_cities(d), d.last, d.n, mandatory=not up_to)
        return [Move(verb, card=self._name(k % self.T), city=k // self.T) for k in keys] + (
            [Move("pass")] if up_to else [])

    def _moves_destroy(self, d: Pending) -> list[Move]:
        return self._city_pick_moves(d, "destroy")

    def _moves_return_unit(self, d: Pending) -> list[Move]:
        return self._city_pick_moves(d, "return")

    def _do_destroy(self, d: Pending, m: Move) -> None:
        self._do_city_pick(d, m)

    def _do_return_unit(self, d: Pending, m: Move) -> None:
        self._do_city_pick(d, m)

    def _do_city_pick(self, d: Pending, m: Move) -> None:
        if m.verb == "pass":
            return
        side, t = self._side(d), self._id(m.card)  # type: ignore[arg-type]
        self.cities[m.city][side][t] -= 1  # type: ignore[index]
        if d.kind == "destroy":
            self._discard_card(t)
        else:
            self._to_hand_public(side, t)
        nxt = replace(d, n=d.n - 1, last=m.city * self.T + t)  # type: ignore[operator]
        if nxt.n and any(mv.verb != "pass" for mv in self._city_pick_moves(nxt, m.verb)):
            self.pending = nxt

    def _rop_enrage(self, e: Any, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-enrage-1 to R-enrage-3: flip face-up Soldiers or Oracles face down, each within the
        capacity of its side (it counts 2 then); without "up to", as many as can be, up to N."""
        d = Pending("enrage", owner, owner=owner, n=e.n, city=city, ref=ref, index=index)
        if not e.up_to:
            counts, room = self._enrage_counts(d)
            d = replace(d, n=min(e.n, enrage_reach(counts, room, 0, self.T)))
        if d.n and any(m.verb != "pass" for m in self._moves_enrage(d)):
            self.pending = d

    def _enrage_counts(self, d: Pending) -> tuple[list[int], list[int]]:
        """The candidates keyed ``city * T + unit``, and each city's room on that side."""
        e, side = self._effect(d), self._side(d)
        counts = [0] * (CITIES * self.T)
        for c in range(CITIES):
            if e.where == "this_city" and c != d.city:
                continue
            for t, n in enumerate(self.cities[c][side]):
                u = self.units[t]
                if n and is_reign(u) and u.enrageable(e.filter):  # type: ignore[attr-defined]
                    counts[c * self.T + t] = n
        return counts, [CAPACITY - self.side_count(c, side) for c in range(CITIES)]

    def _moves_enrage(self, d: Pending) -> list[Move]:
        """One unit at a time in key order (D-pick-1); a mandatory pick only if the rest can follow."""
        up_to = self._effect(d).up_to
        counts, room = self._enrage_counts(d)
        keys = enrage_keys(counts, room, d.last, d.n, up_to, self.T)
        return [Move("enrage", card=self._name(k % self.T), city=k // self.T) for k in keys] + (
            [Move("pass")] if up_to else [])

    def _do_enrage(self, d: Pending, m: Move) -> None:
        if m.verb == "pass":
            return
        side, t = self._side(d), self._id(m.card)  # type: ignore[arg-type]
        self.cities[m.city][side][t] -= 1  # type: ignore[index]
        self.cities[m.city][side][self.cards.enraged(t)] += 1  # type: ignore[index]
        nxt = replace(d, n=d.n - 1, last=m.city * self.T + t)  # type: ignore[operator]
        if nxt.n and any(mv.verb != "pass" for mv in self._moves_enrage(nxt)):
            self.pending = nxt

    def _rop_move(self, e: Any, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-7: up to N moves, each one unit of the side to another city within capacity."""
        d = Pending("unit_move", owner, owner=owner, n=e.n, city=city, ref=ref, index=index)
        if len(self._moves_unit_move(d)) > 1:
            self.pending = d

    def _moves_unit_move(self, d: Pending) -> list[Move]:
        e, side = self._effect(d), self._side(d)
        moves = []
        for src in range(CITIES):
            if e.mode == "out_of_this_city" and src != d.city:
                continue
            for t, n in enumerate(self.cities[src][side]):
                if n and self.units[t].matches(e.filter):
                    moves += [Move("move", card=self._name(t), city=src, to=dst) for dst in range(CITIES)
                              if dst != src and self._fits(dst, side, t)]
        return moves + [Move("pass")]

    def _do_unit_move(self, d: Pending, m: Move) -> None:
        """A moved Soldier resolves its ability for its owner before the next move (R-surge-8)."""
        if m.verb == "pass":
            return
        side, t = self._side(d), self._id(m.card)  # type: ignore[arg-type]
        self.cities[m.city][side][t] -= 1  # type: ignore[index]
        self.cities[m.to][side][t] += 1  # type: ignore[index]
        self._carry_portent(side, t, m.city, m.to)  # type: ignore[arg-type]
        if d.n > 1:
            self._resume_later(replace(d, n=d.n - 1))
        self._enter(side, t, m.to)  # type: ignore[arg-type]

    def _rop_reveal_take(self, e: Any, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-4: reveal the top N cards; take K that pass the filter into your hand, or play one
        free into this city; the rest go to the discard pile in card order (R-deck-2)."""
        for _ in range(e.n):
            t = self._take_top()
            if t is None:
                break
            self.revealed[t] += 1
        fitting = sum(n for t, n in enumerate(self.revealed) if self.units[t].matches(e.filter))
        d = Pending("reveal_take", owner, owner=owner, city=city, ref=ref, index=index,
                    n=e.take if e.up_to else min(e.take, fitting))
        if d.n and any(m.verb != "pass" for m in self._moves_reveal_take(d)):
            self.pending = d
        else:
            self._unearth_rest()

    def _moves_reveal_take(self, d: Pending) -> list[Move]:
        e = self._effect(d)
        counts = [n if self.units[t].matches(e.filter) else 0 for t, n in enumerate(self.revealed)]
        if e.to == "this_city":
            moves = [Move("play", card=self._name(t), city=d.city) for t, n in enumerate(counts)
                     if n and self._fits(d.city, d.player, t)]
        else:
            moves = [Move("take", card=self._name(t)) for t in self._pick_keys(counts, d.last, d.n, not e.up_to)]
        return moves + ([Move("pass")] if e.up_to else [])

    def _do_reveal_take(self, d: Pending, m: Move) -> None:
        p = d.player
        if m.verb == "pass":
            self._unearth_rest()
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self.revealed[t] -= 1
        if m.verb == "take":
            self._to_hand_public(p, t)  # R-deck-3: not drawing
            nxt = replace(d, n=d.n - 1, last=t)
            if nxt.n and any(mv.verb != "pass" for mv in self._moves_reveal_take(nxt)):
                self.pending = nxt
            else:
                self._unearth_rest()
            return
        self._unearth_rest()  # a free play takes one card: the rest go first
        self._play_unit(p, t, m.city, paid=False, from_hand=False)  # type: ignore[arg-type]
