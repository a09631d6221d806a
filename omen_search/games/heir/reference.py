"""The reference engine for Omen: Heir to the Dunes — the executable rulebook.

Plain, readable Python; each rule cites its ruling id (``H-…`` in ``docs/rules``, ``D-…`` in
``docs/rulings.md``). Speed is the Cython core's job; this engine is what the core is checked against.

How the engine runs. A game is a sequence of *decisions*; every decision, whoever makes it, is a
:class:`~omen_search.games.heir.notation.Move` of the player who makes it. Between decisions the engine resolves
everything automatic: the turn's *phase* machine (Wealth → Surge → War → Offering → end check) and a
stack of *effect frames*. A frame is ``(ref, index, owner, city)``: ``ref`` names a list of
effects in the card data (``("unit", 3, "reinforce")``, nested: ``ref + (i, "then")`` or
``ref + (i, k)`` for option ``k`` of a ``choose``), ``index`` the next effect to resolve, ``owner``
the player it resolves for and ``city`` the city "this city" means. An effect that needs a choice
sets :attr:`pending`; the move that answers it continues the effect.

Zones. Hands, city sides, cards under structures and cards revealed from a structure are multisets:
count arrays indexed by unit id (order never matters there). The deck and the discard pile are lists
with the top at the end. City reward stacks are lists with the top at the end.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from omen_search.games.heir.cards import GODS, CardSet, Effect, Unit, default_cards
from omen_search.games.heir.notation import Move
from omen_search.games.heir.observe import observe
from omen_search.games.heir.rules import (
    CAPACITY,
    DEAL_ATTEMPTS,
    CH,
    CH_COINS,
    CH_START_TREASURY,
    CITIES,
    COIN_LIMIT,
    COINS,
    EMISSARY,
    END_CHECK,
    GAME_OVER,
    HAND_LIMIT,
    OFFERING,
    OFFERING_LIMITS,
    OMEN_CITY,
    START_COINS,
    START_HAND,
    SURGE,
    SURGE_START,
    WAR,
    WAR_ENDURING,
    WAR_KEEP,
    WEALTH,
    WEALTH_AGAIN,
    WEALTH_REVEAL,
    Config,
    Pending,
    program,
    unit_count,
)
from omen_search.decision_engine import DecisionEngine
from omen_search.rng import Rng


class Parts:
    """What a game in progress is made of, as plain data under the State interface's names: the
    zones (count arrays indexed by unit id, piles and tile stacks with the top last), the turn, the
    phase, the effect stack, the pending decision and the generator.

    A new one is the table before the deal, as Setup 3 and 4 leave it: every zone empty, every flag
    clear, the first player to act, the second player's god favored. A format fills one in from a
    document and builds the game with :meth:`GameState.from_parts`; :class:`GameState` adds the rules.
    """

    # The parts that change as the game goes on: what a snapshot (undo, clone) holds and
    # GameState.from_parts copies; the rest (cards, config, units, T, seed) is set when a game is made.
    _FIELDS: ClassVar[tuple[str, ...]] = (
        "deck", "discard", "city_tiles", "hands", "known", "cities", "under", "revealed", "limbo",
        "building", "completed", "unused", "used", "coins", "destroyed", "stack", "pending",
        "emissaries", "active", "turn", "first_turn", "discount_used", "reward_used",
        "reveal_again_used", "war_city", "war_victor", "keep_step", "ply", "favor", "phase", "rng", "reserve",
    )

    def __init__(self, cards: CardSet, config: Config):
        T = len(cards.units)
        self.cards = cards
        self.config = config
        self.units: tuple[Unit, ...] = cards.units
        self.T = T
        self.seed: int | None = None  # the deal's seed, for records; None for a state not dealt from one
        self.rng = Rng(0)
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.city_tiles: list[list[int]] = [[] for _ in range(CITIES)]
        self.hands = [[0] * T, [0] * T]
        self.known = [[0] * T, [0] * T]  # per seat, the hand cards the opponent knows about
        self.cities = [[[0] * T, [0] * T] for _ in range(CITIES)]
        self.under = [[0] * T, [0] * T]
        self.revealed = [0] * T
        self.limbo = [0] * T  # units of a side awaiting the keep decision after a war
        self.building = [-1, -1]
        self.completed = [[False] * 3, [False] * 3]
        self.unused: list[list[int]] = [[], []]  # reward tiles won, face down (sorted ids)
        self.used: list[list[int]] = [[], []]  # reward tiles used, face up (sorted ids)
        self.coins = [0, 0]
        self.reserve = 0  # the Corrupted Heir's coins beside its card; its treasury is coins[CH]
        self.destroyed = [[0] * T, [0] * T]  # ENDURING units destroyed in the current war
        self.stack: list[tuple] = []
        self.pending: Pending | None = None
        self.emissaries = [-1, -1]
        self.active = config.first_player
        self.turn = 1
        self.first_turn = True
        self.discount_used = False
        self.reward_used = False
        self.reveal_again_used = False
        self.war_city = -1
        self.war_victor = -1
        self.keep_step = 0
        self.ply = 0
        self.favor = config.gods[1 - config.first_player]  # Setup 3: the second player's god is favored
        self.phase = EMISSARY if config.emissary else WEALTH_REVEAL  # Setup 4


class GameState(Parts, DecisionEngine):
    """A game of Heir to the Dunes in progress, with the State interface every engine shares.

    >>> s = GameState.new(seed=7)
    >>> s.current_player, len(s.legal_moves()) > 0
    (0, True)
    """

    MOVE = Move
    GAME_OVER = GAME_OVER
    DEAL_ATTEMPTS = DEAL_ATTEMPTS
    AFTER_SURGE = WAR  # the phase ending the Surge leads to (a game with more steps puts its own)

    # ------------------------------------------------------------------ construction

    def __init__(self, cards: CardSet, config: Config):
        """The table before the deal (see :class:`Parts`), with no moves played."""
        super().__init__(cards, config)
        self.history: list[tuple] = []
        self.moves: list[Move] = []

    @classmethod
    def new(cls, seed: int = 0, cards: CardSet | None = None, config: Config | None = None) -> GameState:
        """Set up a game (rules Setup 1–4); ``seed`` fixes every shuffle of the game."""
        state = cls(cards or default_cards(), config or Config())
        state._setup(Rng(seed))
        state.seed = seed
        state.run_to_decision()
        return state

    @classmethod
    def from_parts(cls, parts: Parts) -> GameState:
        """A game laid out exactly as ``parts`` (copied), with no moves played: how a format builds
        the position it has read and checked. Nothing is checked or resolved here;
        :meth:`run_to_decision` goes on from an automatic phase."""
        state = cls(parts.cards, parts.config)
        state._restore(tuple(getattr(parts, f) for f in cls._FIELDS))
        state.seed = parts.seed
        return state

    def _setup(self, rng: Rng) -> None:
        """Deal onto the empty table: reward tiles, the deck, hands and coins (Setup 1–3)."""
        self.rng = rng
        tiles = list(range(len(self.cards.rewards)))
        rng.shuffle(tiles)  # Setup 1: tiles[0:3] to city 0, [3:6] to city 1, [6:9] to city 2
        self.city_tiles = [tiles[3 * c : 3 * c + 3] for c in range(CITIES)]
        self.deck = self.cards.shuffled_deck(rng.shuffle)  # Setup 2; the top of the deck is the end of the list
        if self.config.solo:
            self.coins[CH] = CH_START_TREASURY[self.config.level]  # type: ignore[index]
            self.reserve = CH_COINS - self.coins[CH]
            self._draw(0, START_HAND)
            self._gain(0, START_COINS)
            self.favor = self._god(0)  # the player's god starts favored
            self.active = CH  # the Corrupted Heir plays first
            self.phase = WEALTH_REVEAL
            return
        for p in (0, 1):
            self._draw(p, START_HAND)
            self._gain(p, START_COINS)

    # ------------------------------------------------------------------ the State interface

    def _deal_unseen(self, player: int, rng: Rng) -> GameState:
        """One deal of everything ``player`` cannot see (:meth:`determinized`), drawn from ``rng``:
        the opponent's hand beyond its publicly known cards, the deck order, the cards beneath both
        structures, the opponent's undisclosed emissary, the reward tiles still in the cities and the
        opponent's unused tiles; the game's own generator is reseeded too, so future reshuffles are
        as unknown as the deck."""
        world = type(self).from_parts(self)
        opp = 1 - player
        hidden_hand = [t for t in range(self.T) for _ in range(self.hands[opp][t] - self.known[opp][t])]
        world.hands[opp] = list(self.known[opp])
        beneath = [[t for t in range(self.T) for _ in range(self.under[q][t])] for q in (0, 1)]
        world.under = [[0] * self.T, [0] * self.T]
        emissary = [self.emissaries[opp]] if self.phase == EMISSARY and self.emissaries[opp] >= 0 else []
        pool = hidden_hand + beneath[0] + beneath[1] + emissary + self.deck
        rng.shuffle(pool)
        deal = iter(pool)
        for _ in hidden_hand:
            world.hands[opp][next(deal)] += 1
        for q in (0, 1):
            for _ in beneath[q]:
                world.under[q][next(deal)] += 1
        if emissary:
            world.emissaries[opp] = next(deal)
        world.deck = [next(deal) for _ in self.deck]
        tiles = [tile for city in self.city_tiles for tile in city] + sorted(self.unused[opp])
        rng.shuffle(tiles)
        dealt = iter(tiles)
        world.city_tiles = [[next(dealt) for _ in city] for city in self.city_tiles]
        world.unused[opp] = sorted(dealt)
        world.rng = Rng.from_state([rng.next64() for _ in range(4)])
        return world

    def scores(self) -> tuple[int, int]:
        """Victory points of each seat now (H-score-1)."""
        return (self._score(0), self._score(1))

    def winner(self) -> int | None:
        """The winning seat once the game is over (H-score-1 tie-breaks always decide one)."""
        if not self.is_terminal():
            return None
        key = [self._tiebreak_key(p) for p in (0, 1)]
        return 0 if key[0] > key[1] else 1

    def returns(self) -> tuple[float, float]:
        """1 for the winner, 0 for the loser (0 each while the game goes on)."""
        w = self.winner()
        return (0.0, 0.0) if w is None else (float(w == 0), float(w == 1))

    def observation(self, player: int) -> dict[str, Any]:
        """Exactly what ``player`` knows, as a JSON-ready dict (see ``docs/formats.md``)."""
        return observe(self, player)

    # ------------------------------------------------------------------ small helpers

    def _god(self, player: int) -> str:
        return self.config.gods[player]

    def _favored(self, player: int) -> bool:
        return self.favor == self._god(player)

    def supply(self) -> int:
        """Coins left in the supply (coins are conserved: 20 in all, the Corrupted Heir's reserve
        included)."""
        return COINS - self.coins[0] - self.coins[1] - self.reserve

    def _heir_active(self) -> bool:
        """Whether the Corrupted Heir's procedure runs this turn (no decisions are asked of it)."""
        return self.config.solo and self.active == CH

    def side_count(self, city: int, player: int) -> int:
        """Unit-count of a side (COLOSSAL counts 2)."""
        return unit_count(self.units, self.cities[city][player])

    def _fits(self, city: int, player: int, t: int) -> bool:
        return self.side_count(city, player) + self.units[t].size <= CAPACITY  # H-surge-2

    def hand_size(self, player: int) -> int:
        return sum(self.hands[player])

    def _take_top(self) -> int | None:
        """Take the top card of the deck, reshuffling the discard pile if it is empty (H-deck-1)."""
        if not self.deck:
            if not self.discard:
                return None
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def _draw(self, player: int, n: int) -> None:
        for _ in range(n):
            t = self._take_top()
            if t is None:
                return
            self.hands[player][t] += 1

    def _gain(self, player: int, n: int) -> None:
        self.coins[player] += min(n, self.supply())  # no player gains more than the supply holds

    def _to_hand_public(self, player: int, t: int) -> None:
        """A card enters a hand from a public place: both players know it is there (H-hidden-1)."""
        self.hands[player][t] += 1
        self.known[player][t] += 1

    def _leave_hand(self, player: int, t: int) -> None:
        """A card leaves a hand (always face up): the opponent can no longer count on one known copy."""
        self.hands[player][t] -= 1
        if self.known[player][t] > 0:
            self.known[player][t] -= 1

    def _discard_card(self, t: int) -> None:
        self.discard.append(t)

    def _take_from_discard(self, t: int) -> None:
        """Remove the copy of ``t`` nearest the top of the discard pile."""
        for i in range(len(self.discard) - 1, -1, -1):
            if self.discard[i] == t:
                del self.discard[i]
                return
        raise AssertionError(f"unit {t} not in the discard pile")

    def _counts(self, cards: list[int]) -> list[int]:
        counts = [0] * self.T
        for t in cards:
            counts[t] += 1
        return counts

    def _name(self, t: int) -> str:
        return self.units[t].name

    def _id(self, name: str) -> int:
        return self.cards.unit(name).index

    def _structure(self, player: int, slot: int):
        return self.cards.structures_of(self._god(player))[slot]

    def _incomplete(self, player: int) -> list[int]:
        return [s for s in range(3) if not self.completed[player][s]]

    def _push(self, ref: tuple, owner: int, city: int = -1) -> None:
        self.stack.append((ref, 0, owner, city))

    # ------------------------------------------------------------------ the driver

    def run_to_decision(self) -> None:
        """Resolve everything automatic until a decision is pending or the game is over (a state
        loaded in an automatic phase, ``load_position(..., settle=False)``, goes on from there)."""
        while self.pending is None and self.phase != GAME_OVER:
            if self.stack:
                self._step_effect()
            else:
                getattr(self, "_phase_" + self.phase)()

    def _step_effect(self) -> None:
        ref, index, owner, city = self.stack[-1]
        effects = program(self.cards, ref)
        if index >= len(effects):
            self.stack.pop()
            return
        self.stack[-1] = (ref, index + 1, owner, city)
        getattr(self, "_op_" + effects[index].op)(effects[index], ref, index, owner, city)

    # ------------------------------------------------------------------ phases

    def _phase_emissary(self) -> None:
        """Emissary variant (Setup 4): each seat puts forward a unit, seat 0 first, unseen by the other."""
        p = 0 if self.emissaries[0] < 0 else 1
        if self.emissaries[p] < 0 and self.hand_size(p) > 0:
            self.pending = Pending("emissary", p)
            return
        e = self.emissaries
        if e[0] < 0 or e[1] < 0:  # D-emissary-1: an empty hand cannot put one forward
            first = 0 if e[1] < 0 else 1
        else:
            u = [self.units[t] for t in e]
            key = [(x.cost + x.strength + x.offering, x.strength) for x in u]
            # a full tie goes to the oldest player: the configured first player (Setup 4)
            first = self.config.first_player if key[0] == key[1] else (0 if key[0] > key[1] else 1)
        self.active = first
        self.favor = self._god(1 - first)
        for p in (0, 1):
            if e[p] >= 0:
                if p == first:
                    self._discard_card(e[p])
                else:
                    self._to_hand_public(p, e[p])
        self.emissaries = [-1, -1]
        self.phase = WEALTH_REVEAL

    def _phase_wealth_reveal(self) -> None:
        if self._heir_active():
            self._heir_wealth()
            return
        self._god_reveal()  # H-wealth-1
        self.phase = WEALTH_AGAIN

    def _god_reveal(self) -> None:
        t = self._take_top()
        if t is None:
            return
        if self.units[t].devoted_to(self._god(self.active)):
            self._to_hand_public(self.active, t)
        else:
            self._discard_card(t)

    def _phase_wealth_again(self) -> None:
        self.phase = WEALTH
        if not self.reveal_again_used and any(
            n and self.units[t].neutral for t, n in enumerate(self.hands[self.active])
        ):
            self.pending = Pending("reveal", self.active)

    def _phase_wealth(self) -> None:
        self.pending = Pending("wealth", self.active, n=self._wealth_actions())

    def _wealth_actions(self) -> int:
        return 2 if self.first_turn else 3  # H-wealth-2: the first player's first turn has 2

    def _phase_surge_start(self) -> None:
        """H-surge-1: a structure with enough cards beneath it completes at the start of Surge."""
        if self._heir_active():
            self._heir_surge()
            return
        p = self.active
        self.phase = SURGE
        slot = self.building[p]
        if slot >= 0 and sum(self.under[p]) >= self._structure(p, slot).build:
            self.completed[p][slot] = True
            self.building[p] = -1
            self.revealed = self.under[p]
            self.under[p] = [0] * self.T
            self._push(("structure", self._structure(p, slot).index), p)

    def _phase_surge(self) -> None:
        self.pending = Pending("surge", self.active)

    def _phase_war(self) -> None:
        torn = self.war_torn_cities()
        if not torn:
            self.phase = OFFERING
        elif len(torn) == 1 or self._heir_active():
            self._resolve_war(torn[0])  # D-solo-war-1: the Corrupted Heir resolves left to right
        else:
            self.pending = Pending("war", self.active)  # H-war-2

    def war_torn_cities(self) -> list[int]:
        """H-war-1: cities with reward tiles where the non-active side has ≥ 3 or both sides ≥ 5."""
        other = 1 - self.active
        return [
            c
            for c in range(CITIES)
            if self.city_tiles[c]
            and (
                self.side_count(c, other) >= 3
                or self.side_count(c, other) + self.side_count(c, self.active) >= 5
            )
        ]

    def strength(self, city: int, player: int) -> int:
        """H-war-3 and H-surge-6: printed strength, +1 for each INVOCATION unit while favored (never
        for the Corrupted Heir, which uses no unit abilities: S-invocation-1)."""
        bonus = 1 if self._favored(player) and not (self.config.solo and player == CH) else 0
        return sum(
            n * (self.units[t].strength + (bonus if self.units[t].invocation else 0))
            for t, n in enumerate(self.cities[city][player])
        )

    def _printed_cost(self, city: int, player: int) -> int:
        return sum(n * self.units[t].cost for t, n in enumerate(self.cities[city][player]))

    def _resolve_war(self, city: int) -> None:
        """H-war-3, H-war-4: strength decides, then printed cost; the victor takes the top tile."""
        a, b = self.active, 1 - self.active
        key = [(self.strength(city, p), self._printed_cost(city, p)) for p in (0, 1)]
        victor = -1 if key[a] == key[b] else (0 if key[0] > key[1] else 1)
        if victor >= 0:
            tile = self.city_tiles[city].pop()
            self.unused[victor].append(tile)
            self.unused[victor].sort()
        self.war_city, self.war_victor, self.keep_step = city, victor, 0
        self.phase = WAR_KEEP

    def _phase_war_keep(self) -> None:
        """H-war-4: the active player chooses what to keep first, then the other player."""
        if self.keep_step == 2:
            self.keep_step = 0
            self.phase = WAR_ENDURING
            return
        p = self.active if self.keep_step == 0 else 1 - self.active
        self.keep_step += 1
        limit = 1 if p == self.war_victor else 2
        if self.side_count(self.war_city, p) <= limit:
            return
        self.limbo = self.cities[self.war_city][p]
        self.cities[self.war_city][p] = [0] * self.T
        if self.config.solo and p == CH:
            self._heir_keep(limit)
            return
        self.pending = Pending("keep", p, n=limit, city=self.war_city)
        if not self._moves_keep(self.pending):  # nothing fits (a victor with only COLOSSAL units)
            self.pending = None
            self._destroy_limbo(p)

    def _destroy_limbo(self, p: int) -> None:
        """Units not kept after a war are destroyed; ENDURING ones are remembered for their owner."""
        for t, n in enumerate(self.limbo):
            for _ in range(n):
                self._discard_card(t)
            if n and self.units[t].enduring and self.units[t].resolves_for(self._god(p)):
                self.destroyed[p][t] += n  # D-enduring-1
        self.limbo = [0] * self.T

    def _phase_war_enduring(self) -> None:
        """ENDURING: each owner, the active player first, may return destroyed units (H-enduring-1)."""
        for p in (self.active, 1 - self.active):
            if any(self.destroyed[p]):
                if self.hand_size(p) >= 1:
                    self.pending = Pending("enduring", p)
                    return
                self.destroyed[p] = [0] * self.T
        self.war_city = self.war_victor = -1
        self.phase = WAR

    def _phase_offering(self) -> None:
        if self._heir_active():
            self._heir_offering()
            return
        if self.hand_size(self.active) == 0:  # D-decision-1: `pass` would be the only move
            self.phase = OFFERING_LIMITS
            return
        self.pending = Pending("offering", self.active)

    def _phase_offering_limits(self) -> None:
        """H-offer-2: discard down to 5 cards (your choice), return coins above 10."""
        p = self.active
        excess = self.hand_size(p) - HAND_LIMIT
        self.phase = END_CHECK
        if excess > 0:
            self.pending = Pending("discard", p, owner=p, n=excess)
        # coins are returned after the discards, in END_CHECK

    def _phase_end_check(self) -> None:
        """H-end-1 (and D-end-2, the turn limit): end the game or pass the turn."""
        p = self.active
        self.coins[p] = min(self.coins[p], COIN_LIMIT)
        if self._game_ends():
            self.phase = GAME_OVER
            return
        self.active = 1 - p
        self.turn += 1
        self.first_turn = False
        self.discount_used = self.reward_used = self.reveal_again_used = False
        self.phase = WEALTH_REVEAL

    def _game_ends(self) -> bool:
        """H-end-1: two cities without tiles, or a player's three structures complete; D-end-2: the turn limit."""
        empty = sum(1 for c in range(CITIES) if not self.city_tiles[c])
        return empty >= 2 or any(all(done) for done in self.completed) or self.turn >= self.config.max_turns

    # ------------------------------------------------------------------ scoring

    def _treasured_in_hand(self, p: int) -> int:
        return sum(n for t, n in enumerate(self.hands[p]) if self.units[t].treasured)

    def _score(self, p: int) -> int:
        vp = 2 * len(self.unused[p]) + len(self.used[p]) + self._treasured_in_hand(p)
        return vp + sum(self._structure(p, s).vp for s in range(3) if self.completed[p][s])

    def _tiebreak_key(self, p: int) -> tuple:
        return (self._score(p), len(self.unused[p]), self._treasured_in_hand(p), self._favored(p))

    # ------------------------------------------------------------------ playing a unit

    def _play_unit(self, p: int, t: int, city: int, paid: bool, from_hand: bool) -> None:
        """Put a unit into a city and trigger what playing it triggers (H-surge-2 … H-surge-7).

        The caller has taken the card from where it was. ``paid`` plays at cost. The first unit
        devoted to your god played ``from_hand`` each turn gets the discount and uses it up, even when
        the play is free (H-surge-3, H-card-8: Divine Mandate); a completed structure's free play is
        not from hand and leaves the discount alone (H-surge-1).
        """
        u = self.units[t]
        god = self._god(p)
        discount = 0
        if from_hand and u.devoted_to(god) and not self.discount_used:
            discount = 1
            self.discount_used = True
        if paid:
            self.coins[p] -= max(0, u.cost - discount)
        self.cities[city][p][t] += 1
        self._flip_favor(u)
        if not u.resolves_for(god):
            return
        # D-play-1: REINFORCE, then INVOCATION, then MANEUVER (pushed in reverse: a stack).
        if u.maneuver:
            self._push(("maneuver", t), p, city)
        if u.invocation and self._favored(p):  # H-surge-6, checked after the favor flip
            self._push(("unit", t, "invocation"), p, city)
        if u.devoted_to(god):  # H-surge-5
            self._push(("reinforce",), p, city)

    def _flip_favor(self, u: Unit) -> None:
        """H-surge-4: favor flips before abilities when the unit is devoted to the god not favored."""
        if u.devotion == "both":
            self.favor = GODS[1 - GODS.index(self.favor)]
        elif u.devotion in GODS and u.devotion != self.favor:
            self.favor = u.devotion

    # ------------------------------------------------------------------ the Corrupted Heir (S-…)

    def _heir_place(self, t: int, city: int) -> int:
        """Put a unit into ``city`` for the Corrupted Heir, or the next city to the right that has
        reward tiles and room (S-place-1); returns the city, or -1 when none has (the unit is
        discarded). Its abilities never resolve; favor flips as usual."""
        for k in range(CITIES):
            c = (city + k) % CITIES
            if self.city_tiles[c] and self._fits(c, CH, t):
                self.cities[c][CH][t] += 1
                self._flip_favor(self.units[t])
                return c
        self._discard_card(t)
        return -1

    def _heir_wealth(self) -> None:
        """Wealth: a coin from the reserve to the treasury (none on a novice's first turn), then the
        top card: a unit of the Heir's god goes free into the Omen city, anything else is discarded."""
        if self.reserve > 0 and self.coins[CH] < CH_COINS and not (self.config.level == "novice" and self.first_turn):
            self.reserve -= 1
            self.coins[CH] += 1
        t = self._take_top()
        if t is not None:
            if self.units[t].devoted_to(self._god(CH)):
                self._heir_place(t, OMEN_CITY)
            else:
                self._discard_card(t)
        self.phase = SURGE_START

    def _heir_surge(self) -> None:
        """Surge: reveal and place units, the first into the Omen city and each next one city to the
        right, until the running total of their costs exceeds the treasury: the card that takes it
        over is placed too, then the Surge ends (S-surge-1, S-surge-2); then complete a structure."""
        budget, paid, city, god = self.coins[CH], 0, OMEN_CITY, self._god(CH)
        while (t := self._take_top()) is not None:
            u = self.units[t]
            discounted = u.devoted_to(god) and not self.discount_used
            paid += max(0, u.cost - 1) if discounted else u.cost
            self.discount_used = self.discount_used or discounted
            placed = self._heir_place(t, city)  # discarded if no city can take it; its cost counts
            if paid > budget or placed < 0:  # D-solo-surge-1: with no city, no further units
                break
            city = (placed + 1) % CITIES
        slot = self.building[CH]
        if slot >= 0 and sum(self.under[CH]) >= self._structure(CH, slot).build:
            self.completed[CH][slot] = True
            self.building[CH] = -1
            beneath, self.under[CH] = self.under[CH], [0] * self.T
            keys = [(self.units[t].strength, self.units[t].cost) for t in range(self.T)]
            best = max(keys[t] for t in range(self.T) if beneath[t])
            tied = [t for t in range(self.T) if beneath[t] and keys[t] == best]
            t = tied[self.rng.below(len(tied))] if len(tied) > 1 else tied[0]
            beneath[t] -= 1
            for other, n in enumerate(beneath):
                for _ in range(n):
                    self._discard_card(other)
            self._heir_place(t, OMEN_CITY)
        self.phase = WAR

    def _heir_keep(self, limit: int) -> None:
        """War: of the legal (maximal, H-war-4) sets of its units, the Heir keeps the one with the
        greatest printed strength, then cost, and one at random among equal sets (D-solo-keep-1)."""
        options: list[tuple[int, ...]] = [()]
        for t in range(self.T):
            if self.limbo[t]:
                options = [o + (t,) * k for o in options for k in range(self.limbo[t] + 1)]

        def legal(o: tuple[int, ...]) -> bool:
            room = limit - sum(self.units[t].size for t in o)
            return room >= 0 and not any(
                self.limbo[t] > o.count(t) and self.units[t].size <= room for t in range(self.T))

        legal_sets = [o for o in options if legal(o)]

        def key(o: tuple[int, ...]) -> tuple[int, int]:
            return (sum(self.units[t].strength for t in o), sum(self.units[t].cost for t in o))

        best = max(map(key, legal_sets))
        tied = [o for o in legal_sets if key(o) == best]
        kept = tied[self.rng.below(len(tied))] if len(tied) > 1 else tied[0]
        for t in kept:
            self.limbo[t] -= 1
            self.cities[self.war_city][CH][t] += 1
        self._destroy_limbo(CH)

    def _heir_offering(self) -> None:
        """Offering: discard the top card and put that many cards (its printed strength) from the
        top of the deck beneath the Heir's smallest incomplete structure, extra cards too."""
        self.phase = END_CHECK
        if self.building[CH] < 0 and not self._incomplete(CH):
            return  # D-solo-offer-1: every structure is complete (the game ends this turn)
        t = self._take_top()
        if t is None:
            return
        self._discard_card(t)
        if self.building[CH] < 0:
            self.building[CH] = self._incomplete(CH)[0]
        for _ in range(self.units[t].strength):
            card = self._take_top()
            if card is None:
                break
            self.under[CH][card] += 1

    def _play_cost(self, p: int, t: int) -> int:
        u = self.units[t]
        if u.devoted_to(self._god(p)) and not self.discount_used:
            return max(0, u.cost - 1)
        return u.cost

    def _play_moves(self, p: int, counts: list[int], paid: bool, only_god: bool = False) -> list[Move]:
        moves = []
        for t, n in enumerate(counts):
            if not n or (only_god and not self.units[t].devoted_to(self._god(p))):
                continue
            if paid and self._play_cost(p, t) > self.coins[p]:
                continue
            for c in range(CITIES):
                if self._fits(c, p, t):
                    moves.append(Move("play", card=self._name(t), city=c))
        return moves

    # ------------------------------------------------------------------ choosing several cards

    # ------------------------------------------------------------------ decisions: moves and effects
    # For each decision kind X: _moves_X lists the legal moves, _do_X plays one.
    # A Move's fields are typed optional, but Move.__post_init__ guarantees the fields its verb takes
    # are set, and _do_X only receives moves of its decision's verbs: the `type: ignore`s on its
    # reads of m.card, m.city, ... say so to mypy.

    def _moves_emissary(self, d: Pending) -> list[Move]:
        return [Move("emissary", card=self._name(t)) for t, n in enumerate(self.hands[d.player]) if n]

    def _do_emissary(self, d: Pending, m: Move) -> None:
        t = self._id(m.card)  # type: ignore[arg-type]
        self.hands[d.player][t] -= 1  # set aside face down: its known status is kept
        if self.known[d.player][t] > self.hands[d.player][t]:
            self.known[d.player][t] = self.hands[d.player][t]
        self.emissaries[d.player] = t

    def _moves_reveal(self, d: Pending) -> list[Move]:
        hand = self.hands[d.player]
        return [Move("reveal", card=self._name(t)) for t, n in enumerate(hand) if n and self.units[t].neutral] + [
            Move("pass")
        ]

    def _do_reveal(self, d: Pending, m: Move) -> None:
        if m.verb == "pass":
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self._leave_hand(d.player, t)
        self._discard_card(t)
        self.reveal_again_used = True
        self._god_reveal()

    def _moves_wealth(self, d: Pending) -> list[Move]:
        return [Move("wealth", draw=k, coin=d.n - k) for k in range(d.n, -1, -1)]

    def _do_wealth(self, d: Pending, m: Move) -> None:
        """H-wealth-2: all actions chosen at once; all draws or all coins earn one more."""
        draws = m.draw + (1 if m.draw == d.n else 0)  # type: ignore[operator]
        coins = m.coin + (1 if m.draw == 0 else 0)  # type: ignore[operator]
        self._draw(d.player, draws)
        self._gain(d.player, coins)
        self.phase = SURGE_START

    def _moves_surge(self, d: Pending) -> list[Move]:
        p = d.player
        moves = self._play_moves(p, self.hands[p], paid=True)
        if not self.reward_used:
            moves += [Move("use", card=self.cards.rewards[r].name) for r in self.unused[p]]
        return moves + [Move("end")]

    def _do_surge(self, d: Pending, m: Move) -> None:
        p = d.player
        if m.verb == "end":
            self.phase = self.AFTER_SURGE
        elif m.verb == "use":
            r = self.cards.reward(m.card).index  # type: ignore[arg-type]
            self.unused[p].remove(r)
            self.used[p].append(r)
            self.used[p].sort()
            self.reward_used = True
            self._push(("reward", r), p)
        else:
            t = self._id(m.card)  # type: ignore[arg-type]
            self._leave_hand(p, t)
            self._play_unit(p, t, m.city, paid=True, from_hand=True)  # type: ignore[arg-type]

    def _op_reinforce_choice(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        if self._moves_reinforce(Pending("reinforce", owner))[:-1]:
            self.pending = Pending("reinforce", owner)

    def _moves_reinforce(self, d: Pending) -> list[Move]:
        p, god = d.player, self._god(d.player)
        moves = [
            Move("reinforce", card=self._name(t), city=c)
            for c in range(CITIES)
            for t, n in enumerate(self.cities[c][p])
            if n and self.units[t].reinforce and self.units[t].devoted_to(god)
        ]
        return moves + [Move("pass")]

    def _do_reinforce(self, d: Pending, m: Move) -> None:
        if m.verb == "reinforce":
            self._push(("unit", self._id(m.card), "reinforce"), d.player, m.city)  # type: ignore[arg-type]

    def _moves_war(self, d: Pending) -> list[Move]:
        return [Move("war", city=c) for c in self.war_torn_cities()]

    def _do_war(self, d: Pending, m: Move) -> None:
        self._resolve_war(m.city)  # type: ignore[arg-type]

    def _moves_keep(self, d: Pending) -> list[Move]:
        """H-war-4: keep one unit at a time, in card order (D-pick-1), until the kept set is maximal:
        only units after which a maximal set can still be reached; no `pass`."""
        keys = [
            t for t in range(d.last, self.T)
            if self.limbo[t] and self.units[t].size <= d.n
            and self._keep_completes(self.limbo, t, d.n - self.units[t].size)
        ]
        return [Move("keep", card=self._name(t)) for t in keys]

    def _keep_completes(self, counts: list[int], t: int, room: int) -> bool:
        """Whether, once ``t`` is taken from ``counts`` with ``room`` unit-counts left, the kept set
        is maximal or can be made maximal with units at or after ``t`` in card order."""
        left = list(counts)
        left[t] -= 1
        fitting = [u for u in range(self.T) if left[u] and self.units[u].size <= room]
        return not fitting or any(self._keep_completes(left, u, room - self.units[u].size) for u in fitting if u >= t)

    def _do_keep(self, d: Pending, m: Move) -> None:
        p = d.player
        t = self._id(m.card)  # type: ignore[arg-type]
        self.limbo[t] -= 1
        self.cities[d.city][p][t] += 1
        nxt = replace(d, n=d.n - self.units[t].size, last=t)
        if self._moves_keep(nxt):
            self.pending = nxt
            return
        self._destroy_limbo(p)

    def _moves_enduring(self, d: Pending) -> list[Move]:
        return [Move("enduring", card=self._name(t)) for t, n in enumerate(self.destroyed[d.player]) if n] + [
            Move("pass")
        ]

    def _do_enduring(self, d: Pending, m: Move) -> None:
        p = d.player
        if m.verb == "pass":
            self.destroyed[p] = [0] * self.T
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self.destroyed[p][t] -= 1
        self._take_from_discard(t)
        self._to_hand_public(p, t)
        self.pending = Pending("discard", p, owner=p, n=1, card=t)  # "then discard 1 other card"

    def _moves_discard(self, d: Pending) -> list[Move]:
        """Discard from your own hand: hand limit, an effect's discard, ENDURING's "other card",
        and "an opponent discards" (decided by the opponent, whose hand it is)."""
        hand = list(self.hands[d.player])
        if d.card >= 0:
            hand[d.card] -= 1  # ENDURING: "1 other card"
        keys = self._pick_keys(hand, d.last, d.n, mandatory=True)
        return [Move("discard", card=self._name(t)) for t in keys]

    def _do_discard(self, d: Pending, m: Move) -> None:
        p = d.player
        t = self._id(m.card)  # type: ignore[arg-type]
        self._leave_hand(p, t)
        if d.ref and program(self.cards, d.ref)[d.index].steal_if and self.units[t].devoted_to(
            program(self.cards, d.ref)[d.index].steal_if  # type: ignore[arg-type]  # not None: tested just above
        ):
            self._to_hand_public(d.owner, t)  # "If it is an Anubis card, add it to your hand."
        else:
            self._discard_card(t)
        if d.n > 1:
            self.pending = replace(d, n=d.n - 1, last=t)

    # -- effect ops

    def _op_draw(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        self._draw(owner, e.n)

    def _op_gain(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        self._gain(owner, e.n)

    def _op_favor(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        self.favor = self._god(owner)  # H-card-9: even if it already is

    def _op_if_favored(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        if self._favored(owner):
            self._push(ref + (index, "then"), owner, city)

    def _op_discard(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        n = min(e.n, self.hand_size(owner))
        if n:
            self.pending = Pending("discard", owner, owner=owner, n=n)

    def _op_opponent_discards(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """H-card-1: the opponent chooses which cards; fewer if they have fewer."""
        opp = 1 - owner
        n = min(e.n, self.hand_size(opp))
        if n:
            self.pending = Pending("discard", opp, owner=owner, n=n, ref=ref, index=index)

    def _op_reveal_hand_discard(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """H-card-1: the hand becomes known; the active player picks up to N matching cards."""
        opp = 1 - owner
        self.known[opp] = list(self.hands[opp])
        d = Pending("trash", owner, owner=owner, n=e.n, ref=ref, index=index)
        if self._moves_trash(d)[:-1]:
            self.pending = d

    def _moves_trash(self, d: Pending) -> list[Move]:
        e = program(self.cards, d.ref)[d.index]
        hand = self.hands[1 - d.player]
        keys = [t for t in range(d.last, self.T) if hand[t] and self.units[t].matches(e.filter)]
        return [Move("discard", card=self._name(t)) for t in keys] + [Move("pass")]

    def _do_trash(self, d: Pending, m: Move) -> None:
        if m.verb == "pass":
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self._leave_hand(1 - d.player, t)
        self._discard_card(t)
        nxt = replace(d, n=d.n - 1, last=t)
        if nxt.n and self._moves_trash(nxt)[:-1]:
            self.pending = nxt

    def _op_entomb(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        if not self._incomplete(owner):
            return  # H-entomb-1
        d = Pending("entomb", owner, owner=owner, n=e.n, city=city, ref=ref, index=index)
        total = sum(self._units_in_cities(d))
        if total:
            self.pending = replace(d, n=e.n if e.up_to else min(e.n, total))

    def _units_in_cities(self, d: Pending) -> list[int]:
        """The units an effect picks from (its side, ``where`` and ``filter``: ENTOMB, and in the combined
        game the Reign of War picks), keyed ``city * T + unit`` (the key order of the picks)."""
        e = program(self.cards, d.ref)[d.index]
        side = d.owner if e.side == "own" else 1 - d.owner
        counts = [0] * (CITIES * self.T)
        for c in range(CITIES):
            if e.where == "this_city" and c != d.city:
                continue
            for t, n in enumerate(self.cities[c][side]):
                if n and self.units[t].matches(e.filter):
                    counts[c * self.T + t] = n
        return counts

    def _moves_entomb(self, d: Pending) -> list[Move]:
        e = program(self.cards, d.ref)[d.index]
        keys = self._pick_keys(self._units_in_cities(d), d.last, d.n, mandatory=not e.up_to)
        moves = [Move("entomb", card=self._name(k % self.T), city=k // self.T) for k in keys]
        return moves + ([Move("pass")] if e.up_to else [])

    def _do_entomb(self, d: Pending, m: Move) -> None:
        if m.verb == "pass":
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        rest = replace(d, n=d.n - 1, last=m.city * self.T + t)  # type: ignore[operator]
        choices = self._incomplete(d.owner)
        if self.building[d.owner] < 0 and len(choices) > 1:
            # the unit stays in its city until the structure is chosen; ``last`` says which it is
            self.pending = replace(rest, kind="structure", player=d.owner)
            return
        self._entomb_under(rest, self.building[d.owner] if self.building[d.owner] >= 0 else choices[0])

    def _entomb_under(self, d: Pending, slot: int) -> None:
        """ENTOMB: beneath the structure being built, else the chosen incomplete one, which starts it.

        ``d.last`` is the entombed unit's key (``city * T + unit``); then the next pick, if any."""
        e = program(self.cards, d.ref)[d.index]
        city, t = divmod(d.last, self.T)
        self.cities[city][d.owner if e.side == "own" else 1 - d.owner][t] -= 1
        self.under[d.owner][t] += 1
        self.building[d.owner] = slot
        if d.n > 0 and self._moves_entomb(d)[: (-1 if e.up_to else None)]:
            self.pending = replace(d, kind="entomb")

    def _moves_structure(self, d: Pending) -> list[Move]:
        return [Move("structure", card=self._structure(d.player, s).name) for s in self._incomplete(d.player)]

    def _do_structure(self, d: Pending, m: Move) -> None:
        self._entomb_under(d, self.cards.structure(m.card).slot)  # type: ignore[arg-type]

    def _op_reclaim(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """H-card-2: up to N units of your choice from the discard pile into your hand."""
        if self.discard:
            self.pending = Pending("reclaim", owner, owner=owner, n=e.n)

    def _moves_reclaim(self, d: Pending) -> list[Move]:
        counts = self._counts(self.discard)
        return [Move("take", card=self._name(t)) for t in range(d.last, self.T) if counts[t]] + [Move("pass")]

    def _do_reclaim(self, d: Pending, m: Move) -> None:
        if m.verb == "pass":
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self._take_from_discard(t)
        self._to_hand_public(d.player, t)
        nxt = replace(d, n=d.n - 1, last=t)
        if nxt.n and self._moves_reclaim(nxt)[:-1]:
            self.pending = nxt

    def _op_move(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        d = Pending("move", owner, owner=owner, n=e.n, city=city, ref=ref, index=index)
        if self._moves_move(d)[:-1]:
            self.pending = d

    def _moves_move(self, d: Pending) -> list[Move]:
        """MANEUVER (H-surge-7): units without MANEUVER into or out of this city; Sandstorm
        (H-card-7): any unit of yours to another city. Capacity applies to both, and each counts
        units, not moves: a unit already moved (``d.moved``) stays where it went (H-surge-7, D-move-2)."""
        e = program(self.cards, d.ref)[d.index]
        p = d.player
        moves = []
        for src in range(CITIES):
            for t, n in enumerate(self.cities[src][p]):
                if n <= d.moved.count(src * self.T + t) or (e.mode == "maneuver" and self.units[t].maneuver):
                    continue
                for dst in range(CITIES):
                    if dst == src or not self._fits(dst, p, t):
                        continue
                    if e.mode == "maneuver" and d.city not in (src, dst):
                        continue
                    moves.append(Move("move", card=self._name(t), city=src, to=dst))
        return moves + [Move("pass")]

    def _do_move(self, d: Pending, m: Move) -> None:
        if m.verb == "pass":
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self.cities[m.city][d.player][t] -= 1  # type: ignore[index]
        self.cities[m.to][d.player][t] += 1  # type: ignore[index]  # moved units resolve no abilities
        nxt = replace(d, n=d.n - 1, moved=tuple(sorted(d.moved + (m.to * self.T + t,))))  # type: ignore[operator]
        if nxt.n and self._moves_move(nxt)[:-1]:
            self.pending = nxt

    def _op_destroy_all(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """Great Scouring (H-card-6): not a war, so ENDURING does not trigger."""
        destroyed = 0
        for c in range(CITIES):
            for p in (0, 1):
                side = self.cities[c][p]
                for t in range(self.T):
                    if side[t] and self.units[t].matches(e.filter):
                        for _ in range(side[t]):
                            self._discard_card(t)
                        destroyed += side[t]
                        side[t] = 0
        self._draw(owner, destroyed * e.draw_each)

    def _op_steal_unit(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """H-card-3: you choose the opposing unit in this city; it goes to your hand, known."""
        d = Pending("steal", owner, owner=owner, city=city, ref=ref, index=index)
        if self._moves_steal(d):
            self.pending = d

    def _moves_steal(self, d: Pending) -> list[Move]:
        e = program(self.cards, d.ref)[d.index]
        side = self.cities[d.city][1 - d.player]
        return [Move("take", card=self._name(t)) for t, n in enumerate(side) if n and self.units[t].matches(e.filter)]

    def _do_steal(self, d: Pending, m: Move) -> None:
        t = self._id(m.card)  # type: ignore[arg-type]
        self.cities[d.city][1 - d.player][t] -= 1
        self._to_hand_public(d.player, t)
        self._push(d.ref + (d.index, "then"), d.player, d.city)  # "If you do, …"

    def _op_play_free(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """Divine Mandate (H-card-8): a normal play from hand without cost (it can use up the
        first-unit discount: H-surge-3)."""
        if self._play_moves(owner, self.hands[owner], paid=False):
            self.pending = Pending("play_free", owner)

    def _moves_play_free(self, d: Pending) -> list[Move]:
        return self._play_moves(d.player, self.hands[d.player], paid=False)

    def _do_play_free(self, d: Pending, m: Move) -> None:
        t = self._id(m.card)  # type: ignore[arg-type]
        self._leave_hand(d.player, t)
        self._play_unit(d.player, t, m.city, paid=False, from_hand=True)  # type: ignore[arg-type]

    def _op_unearth(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """A completed structure (H-surge-1, H-card-10): play 1 revealed god card at no cost, or add
        exactly K of the revealed cards to your hand (all of them if fewer)."""
        d = Pending("unearth", owner, owner=owner, n=min(e.take, sum(self.revealed)))
        if self._moves_unearth(d) != [Move("pass")]:  # no play and nothing to take: no choice
            self.pending = d
        else:
            self._unearth_rest()

    def _moves_unearth(self, d: Pending) -> list[Move]:
        """Before any card is taken: the free plays, then the first takes; then the takes in card
        order (D-pick-1) until K are taken. ``pass`` only takes nothing when K is 0."""
        moves = []
        if d.card < 0:  # before any card is taken
            moves = self._play_moves(d.player, self.revealed, paid=False, only_god=True)
        keys = self._pick_keys(self.revealed, d.last, d.n, mandatory=True) if d.n else []
        moves += [Move("take", card=self._name(t)) for t in keys]
        return moves + ([Move("pass")] if d.card < 0 and d.n == 0 else [])

    def _do_unearth(self, d: Pending, m: Move) -> None:
        p = d.player
        if m.verb == "take":
            t = self._id(m.card)  # type: ignore[arg-type]
            self.revealed[t] -= 1
            self._to_hand_public(p, t)
            if d.n > 1:
                self.pending = replace(d, n=d.n - 1, last=t, card=t)
                return
        elif m.verb == "play":
            t = self._id(m.card)  # type: ignore[arg-type]
            self.revealed[t] -= 1
            self._unearth_rest()
            self._play_unit(p, t, m.city, paid=False, from_hand=False)  # type: ignore[arg-type]
            return
        self._unearth_rest()

    def _unearth_rest(self) -> None:
        """Cards not taken from a completed structure go to the discard pile (unit id order)."""
        for t, n in enumerate(self.revealed):
            for _ in range(n):
                self._discard_card(t)
        self.revealed = [0] * self.T

    def _op_choose(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        self.pending = Pending("choose", owner, owner=owner, city=city, ref=ref, index=index)

    def _moves_choose(self, d: Pending) -> list[Move]:
        return [Move("choose", label=o.label) for o in program(self.cards, d.ref)[d.index].options]

    def _do_choose(self, d: Pending, m: Move) -> None:
        options = program(self.cards, d.ref)[d.index].options
        k = next(i for i, o in enumerate(options) if o.label == m.label)
        self._push(d.ref + (d.index, k), d.owner, d.city)

    def _op_discard_built(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        self._discard_card(e.n)

    # -- offering

    def _moves_offering(self, d: Pending) -> list[Move]:
        """H-offer-1: pass, offer a unit for cards and coins, or BUILD with it."""
        p = d.player
        moves = [Move("pass")]
        slots = [self.building[p]] if self.building[p] >= 0 else self._incomplete(p)
        for t, n in enumerate(self.hands[p]):
            if not n:
                continue
            v = self.units[t].offering
            moves += [Move("offer", card=self._name(t), draw=k, coin=v - k) for k in range(v, -1, -1)]
            moves += [Move("build", card=self._name(t), target=self._structure(p, s).name) for s in slots]
        return moves

    def _do_offering(self, d: Pending, m: Move) -> None:
        p = d.player
        self.phase = OFFERING_LIMITS
        if m.verb == "pass":
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self._leave_hand(p, t)
        if m.verb == "offer":
            self._discard_card(t)
            self._draw(p, m.draw)  # type: ignore[arg-type]
            self._gain(p, m.coin)  # type: ignore[arg-type]
            return
        slot = self.cards.structure(m.target).slot  # type: ignore[arg-type]
        self.building[p] = slot
        for _ in range(self.units[t].strength):  # face down from the top of the deck
            c = self._take_top()
            if c is None:
                break
            self.under[p][c] += 1
        self._push(("built", t), p)  # then the unit goes to the discard pile …
        if self.units[t].labor:
            self._push(("unit", t, "labor"), p)  # … after its LABOR resolves

