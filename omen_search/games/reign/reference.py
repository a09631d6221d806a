"""The reference engine for Omen: A Reign of War — the executable rulebook.

Plain, readable Python; each rule cites its ruling id (``R-…`` in ``docs/rules/reign-of-war.md``,
``R-card-…`` in ``docs/rules/reign-of-war-cards.md``, ``D-…`` in ``docs/rulings.md``).

How the engine runs. A game is a sequence of *decisions*; every decision, whoever makes it, is a
:class:`~omen_search.games.reign.notation.Move` of the player who makes it. Between decisions the
engine resolves everything automatic: the drafts, then the turn's *phase* machine (Wealth → Surge →
Portent → Feat → War → Offering → end check) and a *stack*. A stack entry is one of:

- ``("effects", ref, index, owner, city)``: an ability being resolved; ``ref`` names its effect list
  (:func:`~omen_search.games.reign.rules.program`), ``index`` the next effect, ``owner`` the player
  it resolves for and ``city`` the city "this City" means (-1: none);
- ``("resume", pending)``: a decision of several picks to take up again once a Soldier that one
  of its picks moved into a city has resolved (R-surge-7: depth first);
- ``("beast",)``: the Beast discarded for its ability goes to the discard pile (R-surge-4).

An effect that needs a choice sets :attr:`pending`; the move that answers it continues the effect.

Zones. Hands and city sides are count arrays indexed by unit id; a city side has face-up units
(``cities``) and Enraged ones (``enraged``). Decks, discard piles and reward stacks are lists with the
top at the end. With one shared deck only ``decks[0]``/``discards[0]`` are used; with own decks
(R-own-1) each player's are ``decks[p]``/``discards[p]``, and a card always goes to the pile of the
player whose hand or side it left: units never change sides and return to their owner's hand.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from omen_search.games.reign.cards import CardSet, Effect, default_cards
from omen_search.games.reign.notation import ENRAGED, Move
from omen_search.games.reign.rules import (
    CITIES,
    CITY_LIMIT,
    DEAL_ATTEMPTS,
    DRAFT,
    DRAFT_COINS,
    DRAFT_STACKS,
    EMISSARY,
    END_CHECK,
    ENRAGED_STRENGTH,
    FEAT,
    FEATS_TO_END,
    GAME_OVER,
    LOSER_KEEPS,
    MAX_CHAIN,
    OFFERING,
    PORTENT,
    PORTENT_START,
    REWARDS_PER_CITY,
    SDRAFT,
    SDRAFT_PACK,
    SDRAFT_ROUNDS,
    START_COINS,
    START_HAND,
    SURGE,
    WAR,
    WAR_KEEP,
    WEALTH,
    WINNER_KEEPS,
    Config,
    Pending,
    check_decks,
    draftable,
    enrage_keys,
    enrage_reach,
    enrageable,
    matches,
    program,
    side_units,
    size,
)
from omen_search.decision_engine import DecisionEngine
from omen_search.rng import Rng


class Parts:
    """What a game in progress is made of, as plain data: the zones, the turn, the phase, the stack,
    the pending decision and the generator. A new one is the table before the deal."""

    # The parts that change as the game goes on: what a snapshot (undo, clone) holds.
    _FIELDS: ClassVar[tuple[str, ...]] = (
        "decks", "discards", "city_rewards", "hands", "known", "rewards_hand", "rewards_used", "cities",
        "enraged", "revealed", "limbo", "limbo_enraged", "beast", "coins", "pot", "feats", "hand_discards",
        "beast_abilities", "stack", "pending", "emissaries", "active", "turn", "first_turn", "reward_used",
        "war_city", "war_victor", "keep_step", "portent_left", "pool", "drafted", "packs", "chosen",
        "draft_picks", "deck_lists", "deck_known", "ply", "phase", "rng",
    )

    def __init__(self, cards: CardSet, config: Config):
        T = len(cards.units)
        self.cards = cards
        self.config = config
        self.units = cards.units
        self.T = T
        self.seed: int | None = None
        self.rng = Rng(0)
        self.decks: list[list[int]] = [[], []]
        self.discards: list[list[int]] = [[], []]
        self.city_rewards: list[list[int]] = [[] for _ in range(CITIES)]
        self.hands = [[0] * T, [0] * T]
        self.known = [[0] * T, [0] * T]  # per seat, the hand cards the opponent knows about
        self.rewards_hand: list[list[int]] = [[], []]  # reward cards won, in hand (sorted ids; R-hidden-2)
        self.rewards_used: list[list[int]] = [[], []]  # used, face down in the play area (sorted ids)
        self.cities = [[[0] * T, [0] * T] for _ in range(CITIES)]
        self.enraged = [[[0] * T, [0] * T] for _ in range(CITIES)]
        self.revealed = [0] * T  # cards revealed by an ability, awaiting the choice (R-card-4)
        self.limbo = [0] * T  # a side's units awaiting the keep decision after a war
        self.limbo_enraged = [0] * T
        self.beast = -1  # the Beast discarded for its ability while the ability resolves
        self.coins = [0, 0]
        self.pot = 0  # the drafting coins in the middle (R-draft-2)
        self.feats = [[False] * len(cards.feats), [False] * len(cards.feats)]
        self.hand_discards = [0, 0]  # unit cards discarded from each hand this turn (R-card-12)
        self.beast_abilities = 0  # Beasts the active player discarded for their abilities this turn
        self.stack: list[tuple] = []
        self.pending: Pending | None = None
        self.emissaries = [-1, -1]
        self.active = config.first_player
        self.turn = 1
        self.first_turn = True
        self.reward_used = False
        self.war_city = -1
        self.war_victor = -1
        self.keep_step = 0
        self.portent_left = [[0] * T for _ in range(CITIES)]  # the active player's Oracles still to resolve
        self.pool: list[int] = []  # Card Drafting: the stacks left (design ids); Simplified: the undealt cards
        self.drafted: list[list[int]] = [[], []]  # Card Drafting: each player's stacks, in pick order
        self.packs = [[0] * T, [0] * T]  # Simplified Drafting: the pack each player holds
        self.chosen = [-1, -1]  # Simplified Drafting: this step's pick, face down until both have picked
        self.draft_picks = 0  # picks made in the draft so far
        self.deck_lists = [[0] * T, [0] * T]  # own decks: every card each player's deck holds (R-own-1)
        self.deck_known = [[0] * T, [0] * T]  # own decks: what the opponent knows of each list (R-sdraft-3)
        self.ply = 0
        self.phase = DRAFT if config.deck == "draft" else SDRAFT if config.deck == "sdraft" else WEALTH


class GameState(Parts, DecisionEngine):
    """A game of Reign of War in progress, with the State interface every engine shares.

    >>> s = GameState.new(seed=7)
    >>> s.current_player, len(s.legal_moves()) > 0
    (0, True)
    """

    MOVE = Move
    GAME_OVER = GAME_OVER
    DEAL_ATTEMPTS = DEAL_ATTEMPTS

    # ------------------------------------------------------------------ construction

    def __init__(self, cards: CardSet, config: Config):
        super().__init__(cards, config)
        self.history: list[tuple] = []
        self.moves: list[Move] = []

    @classmethod
    def new(cls, seed: int = 0, cards: CardSet | None = None, config: Config | None = None) -> GameState:
        """Set up a game (R-setup-*, and the variant's own set-up); ``seed`` fixes every shuffle.

        Raises :class:`UsageError` if the card set cannot hold the variant (``check_decks``)."""
        state = cls(cards or default_cards(), config or Config())
        check_decks(state.cards, state.config)
        state._setup(Rng(seed))
        state.seed = seed
        state.run_to_decision()
        return state

    @classmethod
    def from_parts(cls, parts: Parts) -> GameState:
        """A game laid out exactly as ``parts`` (copied), with no moves played."""
        state = cls(parts.cards, parts.config)
        state._restore(tuple(getattr(parts, f) for f in cls._FIELDS))
        state.seed = parts.seed
        return state

    def designs(self) -> list[int]:
        """The unit designs in play: all of them, or the beginner set (R-var-1). A design the card
        set leaves out (``CardSet.without``, D-ablate-1) is listed, with no copies."""
        return [u.index for u in self.units if u.beginner or not self.config.beginner]

    def _copies(self, designs: list[int]) -> list[int]:
        """Every card of the given designs (all the copies of each), in card order."""
        return [t for t in sorted(designs) for _ in range(self.units[t].copies)]

    def _full_deck(self) -> list[int]:
        """Every card of the designs in play as the full card set has them, a design left out with
        the copies it had (D-ablate-1: shuffled in, then taken out by ``CardSet.shuffled_without``)."""
        return [t for t in self.designs() for _ in range(self.cards.dealt_copies(t))]

    def _setup(self, rng: Rng) -> None:
        """Deal the reward cards (R-setup-1), then the deck or decks of the variant. A design left out
        (D-ablate-1) is shuffled in with the full set's cards and then taken out, so that the other
        cards lie as in the full set's game of the same seed."""
        self.rng = rng
        rewards = [r.index for r in self.cards.rewards for _ in range(r.copies)]
        rng.shuffle(rewards)  # rewards[0:4] to city 0, [4:8] to city 1, [8:12] to city 2
        self.city_rewards = [rewards[REWARDS_PER_CITY * c: REWARDS_PER_CITY * (c + 1)] for c in range(CITIES)]
        deck = self.config.deck
        if deck == "shared":
            self.decks[0] = self.cards.shuffled_without(self._full_deck(), rng.shuffle)
            self._deal()
        elif deck == "skill":  # R-skill-1: one card of each design
            self._own_decks([self.designs(), self.designs()])
        elif deck == "build":  # R-build-1: all the copies of 10 designs
            self._own_decks([self._copies([self._id(name) for name in names]) for names in self.config.decks])
        elif deck == "given":  # D-given-1: each deck card by card, as the config lists it
            self._own_decks([[self._id(name) for name in names] for names in self.config.decks])
        elif deck == "draft":  # R-draft-1: a design left out has no stack
            self.pool = [t for t in self.designs() if self.units[t].copies]
            self.coins = [DRAFT_COINS, DRAFT_COINS]
        else:  # sdraft, R-sdraft-1
            self.pool = self.cards.shuffled_without(self._full_deck(), rng.shuffle)

    def _own_decks(self, lists: list[list[int]]) -> None:
        """Each player's deck from their cards (R-own-1), shuffled seat 0 first; then the deal. A card
        of a design left out (Test of Skill's) is shuffled in and then taken out (D-ablate-1)."""
        for p in (0, 1):
            self.decks[p] = self.cards.shuffled_without(sorted(lists[p]), self.rng.shuffle)
            self.deck_lists[p] = self._counts(self.decks[p])
            if self.config.deck != "sdraft":
                self.deck_known[p] = list(self.deck_lists[p])  # R-hidden-3: what each deck holds is public
        self._deal()

    def _deal(self) -> None:
        """R-setup-2: 4 unit cards and 4 coins each, seat 0 first; then the Emissary or the first turn."""
        for p in (0, 1):
            self._draw(p, START_HAND)
            self._gain(p, START_COINS)
        self.phase = EMISSARY if self.config.emissary else WEALTH

    # ------------------------------------------------------------------ the State interface

    def _deal_unseen(self, player: int, rng: Rng) -> GameState:
        """One deal of everything ``player`` cannot see (:meth:`determinized`), drawn from ``rng``:
        the opponent's hidden unit cards in hand and undisclosed emissary with the deck they draw
        from, ``player``'s own deck order, the reward cards in the cities with the opponent's in hand,
        and in a Simplified draft the picks and pack of the opponent that ``player`` has not seen
        (R-sdraft-3); the game's generator is reseeded too."""
        world = GameState.from_parts(self)
        opp = 1 - player
        if self.phase == SDRAFT:
            world._deal_sdraft(player, rng)
        elif self.config.deck == "sdraft":
            world._deal_unknown_picks(player, rng)  # the cards left over have left the game
        hidden = [t for t in range(self.T) for _ in range(world.hands[opp][t] - world.known[opp][t])]
        emissary = [world.emissaries[opp]] if world.emissaries[opp] >= 0 else []
        own = self.config.own_decks
        pool = hidden + emissary + world.decks[self.pile(opp)]
        if self.config.deck == "sdraft" and self.phase != SDRAFT:  # the opponent's cards from their new list
            pool = [t for t in range(self.T) for _ in range(world.deck_lists[opp][t] - self._public(opp, t))]
        rng.shuffle(pool)
        deal = iter(pool)
        world.hands[opp] = list(world.known[opp])
        for _ in hidden:
            world.hands[opp][next(deal)] += 1
        if emissary:
            world.emissaries[opp] = next(deal)
        world.decks[self.pile(opp)] = list(deal)
        if own:
            rng.shuffle(world.decks[player])
        rewards = [r for city in self.city_rewards for r in city] + self.rewards_hand[opp]
        rng.shuffle(rewards)
        dealt = iter(rewards)
        world.city_rewards = [[next(dealt) for _ in city] for city in self.city_rewards]
        world.rewards_hand[opp] = sorted(dealt)
        world.rng = Rng.from_state([rng.next64() for _ in range(4)])
        return world

    def _public(self, p: int, t: int) -> int:
        """Copies of ``t`` of ``p``'s that are where both players see them (and so not re-dealt)."""
        n = self.known[p][t] + self.discards[self.pile(p)].count(t)
        n += sum(self.cities[c][p][t] + self.enraged[c][p][t] for c in range(CITIES))
        d = self.pending
        if d is not None and d.kind == "keep" and d.player == p:
            n += self.limbo[t] + self.limbo_enraged[t]
        if d is not None and d.kind == "reveal_take" and d.owner == p:
            n += self.revealed[t]
        return n + (self.beast == t and self.active == p)

    def sdraft_seen(self, player: int) -> list[int]:
        """The copies of each design ``player`` has seen in a Simplified draft (R-sdraft-3): their
        own picks, their pack and pick of this step, the opponent's picks they know and, after a
        round's first pick, the opponent's pack (with the pick made from it)."""
        opp = 1 - player
        seen = [self.deck_lists[player][t] + self.deck_known[opp][t] for t in range(self.T)]
        if self.phase == SDRAFT:
            for t in range(self.T):
                seen[t] += self.packs[player][t] + (self.chosen[player] == t)
                if self._sdraft_step() > 0:
                    seen[t] += self.packs[opp][t] + (self.chosen[opp] == t)
        return seen

    def _unseen_cards(self, player: int) -> list[int]:
        """The cards in play that ``player`` has not seen in a Simplified draft, in card order."""
        seen = self.sdraft_seen(player)
        return [t for t in self.designs() for _ in range(self.units[t].copies - seen[t])]

    def _sdraft_step(self) -> int:
        """The pick of the round a Simplified draft is at (0 to 9)."""
        return (self.draft_picks % (2 * SDRAFT_PACK)) // 2

    def _deal_unknown_picks(self, player: int, rng: Rng) -> list[int]:
        """The opponent's picks that ``player`` never saw, dealt again from the cards ``player``
        never saw; returns those cards left over, shuffled."""
        opp = 1 - player
        unseen = self._unseen_cards(player)
        rng.shuffle(unseen)
        k = sum(self.deck_lists[opp]) - sum(self.deck_known[opp])
        self.deck_lists[opp] = list(self.deck_known[opp])
        for t in unseen[:k]:
            self.deck_lists[opp][t] += 1
        return unseen[k:]

    def _deal_sdraft(self, player: int, rng: Rng) -> None:
        """During a Simplified draft: the opponent's unseen picks; at a round's first pick their pack
        (and its pick, if made) from the cards ``player`` never saw, later in a round their pick of
        this step from the pack ``player`` passed them; the undealt cards from the rest."""
        opp = 1 - player
        rest = self._deal_unknown_picks(player, rng)
        if self._sdraft_step() == 0:
            k = sum(self.packs[opp]) + (self.chosen[opp] >= 0)
            pack, rest = rest[:k], rest[k:]
            if self.chosen[opp] >= 0:
                self.chosen[opp] = pack.pop()
            self.packs[opp] = self._counts(pack)
        elif self.chosen[opp] >= 0:
            pack = [t for t in range(self.T) for _ in range(self.packs[opp][t] + (self.chosen[opp] == t))]
            self.chosen[opp] = pack.pop(rng.below(len(pack)))
            self.packs[opp] = self._counts(pack)
        self.pool = rest

    def scores(self) -> tuple[int, int]:
        """Victory points of each seat now (R-score-1)."""
        return (self._score(0), self._score(1))

    def winner(self) -> int | None:
        """The winning seat once the game is over; ``None`` before, and for a draw (R-score-2)."""
        if not self.is_terminal():
            return None
        key = [(self._score(p), self.feats_done(p)) for p in (0, 1)]
        return None if key[0] == key[1] else (0 if key[0] > key[1] else 1)

    def returns(self) -> tuple[float, float]:
        """1 for the winner and 0 for the loser, a half each for a draw; 0 each while the game goes on."""
        if not self.is_terminal():
            return (0.0, 0.0)
        w = self.winner()
        return (0.5, 0.5) if w is None else (float(w == 0), float(w == 1))

    def observation(self, player: int) -> dict[str, Any]:
        """Exactly what ``player`` knows, as a JSON-ready dict (see ``docs/formats.md``)."""
        from omen_search.games.reign.observe import observe

        return observe(self, player)

    # ------------------------------------------------------------------ small helpers

    def supply(self) -> int:
        """Coins left in the supply: the table's ``coin_supply`` (R-comp-4: 40; R-melee-3: 20) less the
        players' coins and the drafting pot."""
        return self.config.coin_supply - self.coins[0] - self.coins[1] - self.pot

    @property
    def first_player(self) -> int | None:
        """The seat that took the first turn (the oldest player, R-setup-3, or the Emissary's winner);
        ``None`` before the first turn is decided. A Grand Melee needs it once a game is over: a drawn
        table game goes to the player who took the second turn (R-melee-7)."""
        if self.phase in (DRAFT, SDRAFT, EMISSARY):
            return None
        return self.active if self.turn % 2 == 1 else 1 - self.active

    def pile(self, player: int) -> int:
        """Which deck and discard pile are ``player``'s: their own (R-own-1) or the shared one."""
        return player if self.config.own_decks else 0

    def feats_done(self, player: int) -> int:
        return sum(self.feats[player])

    def hand_size(self, player: int) -> int:
        """Unit cards in hand (reward cards are counted apart: R-hidden-1)."""
        return sum(self.hands[player])

    def side_count(self, city: int, player: int) -> int:
        """Units on a side, Beasts and Enraged units counting 2 (R-beast-1)."""
        return side_units(self.units, self.cities[city][player], self.enraged[city][player])

    def _fits(self, city: int, player: int, t: int, enraged: bool = False) -> bool:
        return self.side_count(city, player) + size(self.units[t], enraged) <= CITY_LIMIT  # R-surge-2

    def _take_top(self, player: int) -> int | None:
        """The top card of the player's deck, reshuffling its discard pile if it is empty (R-deck-1)."""
        i = self.pile(player)
        if not self.decks[i]:
            if not self.discards[i]:
                return None
            self.decks[i], self.discards[i] = self.discards[i], []
            self.rng.shuffle(self.decks[i])
        return self.decks[i].pop()

    def _draw(self, player: int, n: int) -> None:
        for _ in range(n):
            t = self._take_top(player)
            if t is None:
                return
            self.hands[player][t] += 1

    def _gain(self, player: int, n: int) -> None:
        self.coins[player] += min(n, self.supply())  # R-comp-4: no more than the supply holds

    def _to_pile(self, player: int, t: int) -> None:
        """A unit card of ``player``'s goes to their discard pile, face up (R-own-1, R-deck-4)."""
        self.discards[self.pile(player)].append(t)
        self._seen(player, t)

    def _to_hand_public(self, player: int, t: int) -> None:
        """A card enters a hand from a public place: both players know it is there (R-hidden-1)."""
        self.hands[player][t] += 1
        self.known[player][t] += 1
        self._seen(player, t)

    def _leave_hand(self, player: int, t: int) -> None:
        """A card leaves a hand (always face up): one known copy fewer, if any was known (D-known-1)."""
        self.hands[player][t] -= 1
        if self.known[player][t] > 0:
            self.known[player][t] -= 1

    def _discard_from_hand(self, player: int, t: int) -> None:
        """A unit card discarded from a hand: to its pile, counted for the feats (R-card-12)."""
        self._leave_hand(player, t)
        self._to_pile(player, t)
        self.hand_discards[player] += 1

    def _seen(self, player: int, t: int, extra: int = 0) -> None:
        """After a Simplified draft the opponent knows only part of a deck (R-sdraft-3): a card of it
        seen in public now is known to be in it, as many copies as are in public places at once
        (:meth:`_public`, the Beast set aside included: D-sdraft-2; ``extra``: cards just revealed,
        which no decision holds yet)."""
        if self.config.deck != "sdraft" or self.deck_known[player][t] >= self.deck_lists[player][t]:
            return
        public = extra + self._public(player, t)
        self.deck_known[player][t] = max(self.deck_known[player][t], min(public, self.deck_lists[player][t]))

    def _take_from_discard(self, player: int, t: int) -> None:
        """Remove the copy of ``t`` nearest the top of the player's discard pile (D-discard-1)."""
        pile = self.discards[self.pile(player)]
        for i in range(len(pile) - 1, -1, -1):
            if pile[i] == t:
                del pile[i]
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

    def _key(self, city: int, enraged: bool, t: int) -> int:
        """A unit in a city as a pick key: city first, face-up before Enraged, then card order."""
        return (city * 2 + int(enraged)) * self.T + t

    def _unit_move(self, verb: str, key: int, **fields: Any) -> Move:
        """A move naming the unit in a city that ``key`` is (``enraged`` labelled)."""
        city, rest = divmod(key, 2 * self.T)
        enraged, t = divmod(rest, self.T)
        return Move(verb, card=self._name(t), city=city, label=ENRAGED if enraged else None, **fields)

    def _move_key(self, m: Move) -> int:
        return self._key(m.city, m.enraged, self._id(m.card))  # type: ignore[arg-type]

    def _side_zone(self, city: int, player: int, enraged: bool) -> list[int]:
        return (self.enraged if enraged else self.cities)[city][player]

    def _remove_unit(self, city: int, player: int, t: int, enraged: bool) -> None:
        """Take a unit off its side. In the Portent step, of the active player's copies of one Oracle
        in one city, one that has resolved leaves first (D-portent-1)."""
        self._side_zone(city, player, enraged)[t] -= 1
        if player == self.active:
            self.portent_left[city][t] = min(self.portent_left[city][t], self.cities[city][player][t])

    # ------------------------------------------------------------------ the driver

    def run_to_decision(self) -> None:
        """Resolve everything automatic until a decision is pending or the game is over."""
        while self.pending is None and self.phase != GAME_OVER:
            if self.stack:
                self._step_stack()
            else:
                getattr(self, "_phase_" + self.phase)()

    def _step_stack(self) -> None:
        top = self.stack[-1]
        if top[0] == "resume":
            self.stack.pop()
            if any(m.verb != "pass" for m in self._moves_move(top[1])):  # only moves resume
                self.pending = top[1]
            return
        if top[0] == "beast":
            self.stack.pop()
            t, self.beast = self.beast, -1  # no longer set aside (D-beast-1) ...
            self._to_pile(self.active, t)  # ... but on the pile, after its ability (R-surge-4)
            return
        _, ref, index, owner, city = top
        effects = program(self.cards, ref)
        if index >= len(effects):
            self.stack.pop()
            return
        self.stack[-1] = ("effects", ref, index + 1, owner, city)
        getattr(self, "_op_" + effects[index].op)(effects[index], ref, index, owner, city)

    def _push(self, ref: tuple, owner: int, city: int = -1) -> None:
        self.stack.append(("effects", ref, 0, owner, city))

    def _enter(self, player: int, t: int, city: int) -> None:
        """A face-up unit of ``player`` has entered ``city`` (played or moved): a Soldier's ability
        resolves for its owner at once, before anything else (R-unit-3, R-surge-7, R-surge-8); a
        chain deeper than :data:`MAX_CHAIN` Soldier triggers stops."""
        self._seen(player, t)
        if self.units[t].type != "soldier":
            return
        depth = sum(1 for e in self.stack if e[0] == "effects" and e[1][0] == "unit"
                    and self.units[e[1][1]].type == "soldier")
        if depth < MAX_CHAIN:
            self._push(("unit", t), player, city)

    # ------------------------------------------------------------------ drafts and set-up phases

    def _phase_draft(self) -> None:
        """Card Drafting (R-draft-2): the youngest player (not the first player) picks first."""
        if self.draft_picks == 2 * DRAFT_STACKS:
            self.coins, self.pot = [0, 0], 0  # R-draft-4: the drafting coins go back to the supply
            self.pool = []  # undrafted stacks leave the game
            self._own_decks([self._copies(self.drafted[p]) for p in (0, 1)])
            return
        young = 1 - self.config.first_player
        self.pending = Pending("draft", young if self.draft_picks % 2 == 0 else 1 - young)

    def _moves_draft(self, d: Pending) -> list[Move]:
        """A stack within the type limits (R-draft-3); any stack if none is (the escape)."""
        return [Move("draft", card=self._name(t)) for t in draftable(self.units, self.drafted[d.player], self.pool)]

    def _do_draft(self, d: Pending, m: Move) -> None:
        t = self._id(m.card)  # type: ignore[arg-type]
        self.pool.remove(t)
        self.drafted[d.player].append(t)
        self.coins[d.player] -= 1  # R-draft-2: one coin to the middle
        self.pot += 1
        self.draft_picks += 1

    def _phase_sdraft(self) -> None:
        """Simplified Drafting (R-sdraft-1, R-sdraft-2): deal a round's packs, ask seat 0 then seat 1
        for a hidden pick, then pass the packs; after 3 rounds each player's picks are their deck."""
        if self.draft_picks == 2 * SDRAFT_ROUNDS * SDRAFT_PACK:
            self.pool = []  # undealt cards leave the game
            self._own_decks([[t for t in range(self.T) for _ in range(self.deck_lists[p][t])] for p in (0, 1)])
            return
        if self.draft_picks % (2 * SDRAFT_PACK) == 0:
            for p in (0, 1):  # deal 10 to each, seat 0 first, from the top
                for _ in range(SDRAFT_PACK):
                    self.packs[p][self.pool.pop()] += 1
        self.pending = Pending("sdraft", self.draft_picks % 2)

    def _moves_sdraft(self, d: Pending) -> list[Move]:
        return [Move("pick", card=self._name(t)) for t, n in enumerate(self.packs[d.player]) if n]

    def _do_sdraft(self, d: Pending, m: Move) -> None:
        p = d.player
        t = self._id(m.card)  # type: ignore[arg-type]
        self.packs[p][t] -= 1
        self.chosen[p] = t
        self.draft_picks += 1
        if p == 1:  # both have picked: the picks join the decks, and the packs pass left
            first_step = self.draft_picks % (2 * SDRAFT_PACK) == 2
            for q in (0, 1):
                self.deck_lists[q][self.chosen[q]] += 1
                if not first_step:  # R-sdraft-3: the opponent held this pack before, so sees what left it
                    self.deck_known[q][self.chosen[q]] += 1
            self.chosen = [-1, -1]
            self.packs = [self.packs[1], self.packs[0]]

    def _phase_emissary(self) -> None:
        """R-emissary-1: each seat puts a unit card forward, in seat order, unseen by the other; a seat
        with no unit card in hand puts none forward and the next is still asked (D-emissary-2)."""
        for p in (0, 1):
            if self.emissaries[p] < 0 and self.hand_size(p) > 0:
                self.pending = Pending("emissary", p)
                return
        e = self.emissaries
        if e[0] < 0 and e[1] < 0:  # D-emissary-2: nobody put one forward, the oldest goes first
            first = self.config.first_player
        elif e[0] < 0 or e[1] < 0:  # D-emissary-2: the one who put one forward goes first
            first = 0 if e[0] >= 0 else 1
        else:
            u = [self.units[t] for t in e]
            key = [(x.cost + x.strength + x.offering, x.strength) for x in u]
            first = self.config.first_player if key[0] == key[1] else (0 if key[0] > key[1] else 1)
        self.active = first
        for p in (0, 1):
            if e[p] >= 0:
                if p == first:
                    self._to_pile(p, e[p])
                else:
                    self._to_hand_public(p, e[p])
        self.emissaries = [-1, -1]
        self.phase = WEALTH

    def _moves_emissary(self, d: Pending) -> list[Move]:
        return [Move("emissary", card=self._name(t)) for t, n in enumerate(self.hands[d.player]) if n]

    def _do_emissary(self, d: Pending, m: Move) -> None:
        t = self._id(m.card)  # type: ignore[arg-type]
        self.hands[d.player][t] -= 1  # set aside face down: its known status is kept
        self.known[d.player][t] = min(self.known[d.player][t], self.hands[d.player][t])
        self.emissaries[d.player] = t

    # ------------------------------------------------------------------ the turn

    def _phase_wealth(self) -> None:
        self.pending = Pending("wealth", self.active, n=self._wealth_actions())

    def _wealth_actions(self) -> int:
        """R-wealth-1: 3 actions, 2 on the first player's first turn; R-wealth-4's catch-up if on."""
        n = 2 if self.first_turn else 3
        if self.config.catch_up:
            n += (self.hand_size(self.active) == 0) + (self.coins[self.active] == 0)
        return n

    def _moves_wealth(self, d: Pending) -> list[Move]:
        return [Move("wealth", draw=k, coin=d.n - k) for k in range(d.n, -1, -1)]

    def _do_wealth(self, d: Pending, m: Move) -> None:
        """R-wealth-1, R-wealth-2: the split is chosen first, cards before coins; all of one kind
        earns one more."""
        self._draw(d.player, m.draw + (m.draw == d.n))  # type: ignore[operator]
        self._gain(d.player, m.coin + (m.draw == 0))  # type: ignore[operator]
        self.phase = SURGE

    def _phase_surge(self) -> None:
        self.pending = Pending("surge", self.active)

    def _play_moves(self, p: int, counts: list[int], paid: bool, cities: range | tuple = range(CITIES),
                    only: str = "any") -> list[Move]:
        return [
            Move("play", card=self._name(t), city=c)
            for t, n in enumerate(counts)
            if n and (not paid or self.units[t].cost <= self.coins[p]) and only in ("any", self.units[t].type)
            for c in cities
            if self._fits(c, p, t)
        ]

    def _moves_surge(self, d: Pending) -> list[Move]:
        """R-surge-1 to R-surge-6: play a unit, discard a Beast for its ability, use one reward card
        (once a turn), end the Surge."""
        p, hand = d.player, self.hands[d.player]
        moves = self._play_moves(p, hand, paid=True)
        moves += [Move("beast", card=self._name(t)) for t, n in enumerate(hand)
                  if n and self.units[t].type == "beast" and self.units[t].cost <= self.coins[p]]
        if not self.reward_used:
            moves += [Move("use", card=self.cards.rewards[r].name) for r in sorted(set(self.rewards_hand[p]))]
        return moves + [Move("end")]

    def _do_surge(self, d: Pending, m: Move) -> None:
        p = d.player
        if m.verb == "end":
            self.phase = PORTENT_START
            return
        if m.verb == "use":  # R-surge-5
            r = self.cards.reward(m.card).index  # type: ignore[arg-type]
            self.rewards_hand[p].remove(r)
            self.rewards_used[p] = sorted(self.rewards_used[p] + [r])
            self.reward_used = True
            self._push(("reward", r), p)
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self.coins[p] -= self.units[t].cost
        if m.verb == "beast":  # R-surge-4: pay, resolve the ability, then discard
            self._leave_hand(p, t)
            self.beast = t  # set aside face up, in public (D-beast-1)
            self._seen(p, t)
            self.hand_discards[p] += 1
            self.beast_abilities += 1
            self.stack.append(("beast",))
            self._push(("unit", t), p)
            return
        self._leave_hand(p, t)
        self._place(p, t, m.city)  # type: ignore[arg-type]

    def _place(self, p: int, t: int, city: int) -> None:
        """Put a unit card from wherever it was onto ``p``'s side of ``city`` (R-surge-1)."""
        self.cities[city][p][t] += 1
        self._enter(p, t, city)

    def _phase_portent_start(self) -> None:
        p = self.active
        self.portent_left = [[n if self.units[t].type == "oracle" else 0 for t, n in enumerate(self.cities[c][p])]
                             for c in range(CITIES)]
        self.phase = PORTENT

    def _portent_candidates(self) -> list[tuple[int, int]]:
        """R-portent-2: Oracles still face up on the active side that have not resolved (copies of a
        design in one city are one choice)."""
        return [(c, t) for c in range(CITIES) for t in range(self.T) if self.portent_left[c][t]]

    def _phase_portent(self) -> None:
        """R-portent-1: the active player's Oracles resolve one at a time, in the order they choose
        (asked only when two or more could go next, as D-decision-2)."""
        todo = self._portent_candidates()
        if not todo:
            self.portent_left = [[0] * self.T for _ in range(CITIES)]
            self.phase = FEAT
        elif len(todo) == 1:
            self._resolve_oracle(*todo[0])
        else:
            self.pending = Pending("portent", self.active)

    def _resolve_oracle(self, city: int, t: int) -> None:
        self.portent_left[city][t] -= 1
        self._push(("unit", t), self.active, city)

    def _moves_portent(self, d: Pending) -> list[Move]:
        return [Move("oracle", card=self._name(t), city=c) for c, t in self._portent_candidates()]

    def _do_portent(self, d: Pending, m: Move) -> None:
        self._resolve_oracle(m.city, self._id(m.card))  # type: ignore[arg-type]

    def _phase_feat(self) -> None:
        """R-feat-1: each face-up feat whose condition holds now flips face down."""
        p = self.active
        for f in self.cards.feats:
            if not self.feats[p][f.index] and self.feat_holds(p, f.index):
                self.feats[p][f.index] = True
        self.phase = WAR

    def feat_holds(self, p: int, f: int) -> bool:
        """Whether feat ``f``'s condition holds for ``p`` now (R-feat-3, R-card-12)."""
        cond = self.cards.feats[f].condition
        if cond.kind == "in_every_city":
            return all(self._side_has(c, p, cond.filter) for c in range(CITIES))
        if cond.kind == "units_in_one_city":
            return any(self.side_count(c, p) >= cond.n for c in range(CITIES))
        if cond.kind == "opponent_hand_discards":
            return self.hand_discards[1 - p] >= cond.n
        return self.beast_abilities >= cond.n  # beast_abilities

    def _side_has(self, c: int, p: int, filter: str) -> bool:
        """Whether ``p``'s side of ``c`` has a unit matching ``filter`` (an Enraged one is a Beast)."""
        return any(n and matches(self.units[t], enraged, filter)
                   for enraged in (False, True) for t, n in enumerate(self._side_zone(c, p, enraged)))

    def war_torn_cities(self) -> list[int]:
        """R-war-1: cities with reward cards where the opposing side has 3 units or both sides 5."""
        a, o = self.active, 1 - self.active
        return [c for c in range(CITIES) if self.city_rewards[c]
                and (self.side_count(c, o) >= 3 or self.side_count(c, o) + self.side_count(c, a) >= 5)]

    def strength(self, city: int, player: int) -> int:
        """R-war-3: printed strength of face-up units, 4 for each Enraged one."""
        side = self.cities[city][player]
        return sum(n * self.units[t].strength for t, n in enumerate(side)) + ENRAGED_STRENGTH * sum(
            self.enraged[city][player])

    def soldiers(self, city: int, player: int) -> int:
        """Face-up Soldiers on a side: the war tie-break (R-war-3)."""
        return sum(n for t, n in enumerate(self.cities[city][player]) if self.units[t].type == "soldier")

    def _phase_war(self) -> None:
        torn = self.war_torn_cities()
        if not torn:
            self.phase = OFFERING
        elif len(torn) == 1:
            self._resolve_war(torn[0])
        else:
            self.pending = Pending("war", self.active)  # R-war-2

    def _moves_war(self, d: Pending) -> list[Move]:
        return [Move("war", city=c) for c in self.war_torn_cities()]

    def _do_war(self, d: Pending, m: Move) -> None:
        self._resolve_war(m.city)  # type: ignore[arg-type]

    def _resolve_war(self, city: int) -> None:
        """R-war-3, R-war-4: strength, then Soldiers; the winner takes the top reward card into hand."""
        key = [(self.strength(city, p), self.soldiers(city, p)) for p in (0, 1)]
        victor = -1 if key[0] == key[1] else (0 if key[0] > key[1] else 1)
        if victor >= 0:
            self.rewards_hand[victor] = sorted(self.rewards_hand[victor] + [self.city_rewards[city].pop()])
        self.war_city, self.war_victor, self.keep_step = city, victor, 0
        self.phase = WAR_KEEP

    def _phase_war_keep(self) -> None:
        """R-war-4, R-war-5: the active player keeps at most their limit first, then the other."""
        if self.keep_step == 2:
            self.keep_step, self.war_city, self.war_victor = 0, -1, -1
            self.phase = WAR
            return
        p = self.active if self.keep_step == 0 else 1 - self.active
        self.keep_step += 1
        limit = WINNER_KEEPS if p == self.war_victor else LOSER_KEEPS
        if self.side_count(self.war_city, p) <= limit:
            return
        c = self.war_city
        self.limbo, self.cities[c][p] = self.cities[c][p], [0] * self.T
        self.limbo_enraged, self.enraged[c][p] = self.enraged[c][p], [0] * self.T
        d = Pending("keep", p, n=limit, city=c)
        if len(self._moves_keep(d)) > 1:
            self.pending = d
        else:  # nothing fits (a winner with only Beasts): no choice
            self._discard_limbo(p)

    def _moves_keep(self, d: Pending) -> list[Move]:
        """Keep one unit at a time in key order (D-pick-1), face-up before Enraged; ``pass`` keeps no
        more (R-war-5: at most the limit)."""
        moves = []
        for k in range(d.last, 2 * self.T):
            enraged, t = divmod(k, self.T)
            if (self.limbo_enraged if enraged else self.limbo)[t] and size(self.units[t], bool(enraged)) <= d.n:
                moves.append(Move("keep", card=self._name(t), label=ENRAGED if enraged else None))
        return moves + [Move("pass")]

    def _do_keep(self, d: Pending, m: Move) -> None:
        p = d.player
        if m.verb == "pass":
            self._discard_limbo(p)
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        zone = self.limbo_enraged if m.enraged else self.limbo
        zone[t] -= 1
        self._side_zone(d.city, p, m.enraged)[t] += 1
        nxt = replace(d, n=d.n - size(self.units[t], m.enraged), last=int(m.enraged) * self.T + t)
        if len(self._moves_keep(nxt)) > 1:
            self.pending = nxt
        else:
            self._discard_limbo(p)

    def _discard_limbo(self, p: int) -> None:
        """The units not kept go to their owner's discard pile, in card order (D-discard-1, R-war-6)."""
        for t in range(self.T):
            for _ in range(self.limbo[t] + self.limbo_enraged[t]):
                self._to_pile(p, t)
        self.limbo, self.limbo_enraged = [0] * self.T, [0] * self.T

    def _phase_offering(self) -> None:
        if self.hand_size(self.active) == 0:  # D-decision-1: `pass` would be the only move
            self.phase = END_CHECK
            return
        self.pending = Pending("offering", self.active)

    def _moves_offering(self, d: Pending) -> list[Move]:
        """R-offer-1: pass, or discard one unit card for its offering as any split of cards and coins."""
        moves = [Move("pass")]
        for t, n in enumerate(self.hands[d.player]):
            if n:
                v = self.units[t].offering
                moves += [Move("offer", card=self._name(t), draw=k, coin=v - k) for k in range(v, -1, -1)]
        return moves

    def _do_offering(self, d: Pending, m: Move) -> None:
        p = d.player
        self.phase = END_CHECK
        if m.verb == "pass":
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self._leave_hand(p, t)
        self._to_pile(p, t)
        self._draw(p, m.draw)  # type: ignore[arg-type]
        self._gain(p, m.coin)  # type: ignore[arg-type]

    def _phase_end_check(self) -> None:
        """R-offer-3 (the active side's Enraged units flip face up), then R-end-1 to R-end-4."""
        a = self.active
        for c in range(CITIES):
            for t, n in enumerate(self.enraged[c][a]):
                self.cities[c][a][t] += n
            self.enraged[c][a] = [0] * self.T
        empty = sum(1 for c in range(CITIES) if not self.city_rewards[c])
        if empty >= 2 or self.feats_done(1 - a) >= FEATS_TO_END or self.turn >= self.config.max_turns:
            self.phase = GAME_OVER
            return
        self.active = 1 - a
        self.turn += 1
        self.first_turn = False
        self.reward_used = False
        self.hand_discards = [0, 0]
        self.beast_abilities = 0
        self.phase = WEALTH

    # ------------------------------------------------------------------ scoring

    def _score(self, p: int) -> int:
        """R-score-1: 2 per feat done, 2 per reward card in hand, 1 per used reward card."""
        return 2 * self.feats_done(p) + 2 * len(self.rewards_hand[p]) + len(self.rewards_used[p])

    # ------------------------------------------------------------------ choosing several cards

    def _units_in_cities(self, side: int, where: str, city: int, filter: str) -> list[int]:
        """Counts keyed :meth:`_key` of ``side``'s units matching an effect's ``where``/``filter``."""
        counts = [0] * (CITIES * 2 * self.T)
        for c in range(CITIES):
            if where == "this_city" and c != city:
                continue
            for enraged in (False, True):
                for t, n in enumerate(self._side_zone(c, side, enraged)):
                    if n and matches(self.units[t], enraged, filter):
                        counts[self._key(c, enraged, t)] = n
        return counts

    # ------------------------------------------------------------------ effect ops and their decisions
    # For each decision kind X: _moves_X lists the legal moves, _do_X plays one. A Move's fields are
    # typed optional, but Move.__post_init__ guarantees the fields its verb takes are set: the
    # `type: ignore`s on reads of m.card, m.city, ... say so to mypy.

    def _effect(self, d: Pending) -> Effect:
        return program(self.cards, d.ref)[d.index]

    def _op_draw(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        self._draw(owner, e.n)

    def _op_gain(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        self._gain(owner, e.n)

    def _op_take_coins(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-6: from the opponent to you, not through the supply; fewer if they have fewer."""
        k = min(e.n, self.coins[1 - owner])
        self.coins[1 - owner] -= k
        self.coins[owner] += k

    def _op_discard(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-3: you choose among your unit cards; fewer if you have fewer."""
        n = min(e.n, self.hand_size(owner))
        if n:
            self.pending = Pending("discard", owner, owner=owner, n=n)

    def _op_opponent_discards(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-2: the opponent chooses among their unit cards; fewer if they have fewer."""
        n = min(e.n, self.hand_size(1 - owner))
        if n:
            self.pending = Pending("discard", 1 - owner, owner=owner, n=n)

    def _moves_discard(self, d: Pending) -> list[Move]:
        keys = self._pick_keys(self.hands[d.player], d.last, d.n, mandatory=True)
        return [Move("discard", card=self._name(t)) for t in keys]

    def _do_discard(self, d: Pending, m: Move) -> None:
        t = self._id(m.card)  # type: ignore[arg-type]
        self._discard_from_hand(d.player, t)
        if d.n > 1:
            self.pending = replace(d, n=d.n - 1, last=t)

    def _op_reveal_hand_discard(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-11: the opponent's hand becomes known; you pick up to N unit cards to discard."""
        opp = 1 - owner
        self.known[opp] = list(self.hands[opp])
        for t, n in enumerate(self.hands[opp]):
            if n:
                self._seen(opp, t)
        d = Pending("trash", owner, owner=owner, n=e.n, ref=ref, index=index)
        if len(self._moves_trash(d)) > 1:
            self.pending = d

    def _moves_trash(self, d: Pending) -> list[Move]:
        e, hand = self._effect(d), self.hands[1 - d.player]
        keys = [t for t in range(d.last, self.T) if hand[t] and matches(self.units[t], False, e.filter)]
        return [Move("discard", card=self._name(t)) for t in keys] + [Move("pass")]

    def _do_trash(self, d: Pending, m: Move) -> None:
        if m.verb == "pass":
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self._discard_from_hand(1 - d.player, t)
        nxt = replace(d, n=d.n - 1, last=t)
        if nxt.n and len(self._moves_trash(nxt)) > 1:
            self.pending = nxt

    def _op_reclaim(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-5: up to N unit cards (of the filter's type) from your discard pile to your hand."""
        d = Pending("reclaim", owner, owner=owner, n=e.n, ref=ref, index=index)
        if len(self._moves_reclaim(d)) > 1:
            self.pending = d

    def _moves_reclaim(self, d: Pending) -> list[Move]:
        e, counts = self._effect(d), self._counts(self.discards[self.pile(d.player)])
        keys = [t for t in range(d.last, self.T) if counts[t] and matches(self.units[t], False, e.filter)]
        return [Move("take", card=self._name(t)) for t in keys] + [Move("pass")]

    def _do_reclaim(self, d: Pending, m: Move) -> None:
        if m.verb == "pass":
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self._take_from_discard(d.player, t)
        self._to_hand_public(d.player, t)
        nxt = replace(d, n=d.n - 1, last=t)
        if nxt.n and len(self._moves_reclaim(nxt)) > 1:
            self.pending = nxt

    def _op_destroy(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-1: discard chosen units from cities to their owner's pile; all that can be, up to
        N, unless "up to"."""
        self._start_city_pick("destroy", e, ref, index, owner, city)

    def _op_return_unit(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-8: return chosen units from cities to their owner's hand, known to both."""
        self._start_city_pick("return_unit", e, ref, index, owner, city)

    def _start_city_pick(self, kind: str, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        side = owner if e.side == "own" else 1 - owner
        total = sum(self._units_in_cities(side, e.where, city, e.filter))
        if total:
            self.pending = Pending(kind, owner, owner=owner, n=e.n if e.up_to else min(e.n, total), city=city,
                                   ref=ref, index=index)

    def _city_pick_moves(self, d: Pending, verb: str) -> list[Move]:
        e = self._effect(d)
        side = d.owner if e.side == "own" else 1 - d.owner
        keys = self._pick_keys(self._units_in_cities(side, e.where, d.city, e.filter), d.last, d.n, not e.up_to)
        return [self._unit_move(verb, k) for k in keys] + ([Move("pass")] if e.up_to else [])

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
        e = self._effect(d)
        side = d.owner if e.side == "own" else 1 - d.owner
        t = self._id(m.card)  # type: ignore[arg-type]
        self._remove_unit(m.city, side, t, m.enraged)  # type: ignore[arg-type]
        if d.kind == "destroy":
            self._to_pile(side, t)
        else:
            self._to_hand_public(side, t)  # R-enrage-6: an Enraged unit returns as its card
        nxt = replace(d, n=d.n - 1, last=self._move_key(m))
        if nxt.n and any(mv.verb != "pass" for mv in self._city_pick_moves(nxt, m.verb)):
            self.pending = nxt

    def _op_enrage(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-enrage-1 to R-enrage-3, R-card-9: flip face-up Soldiers or Oracles face down; each must
        fit the City Limit. Without "up to", as many as can be, up to N."""
        d = Pending("enrage", owner, owner=owner, n=e.n, city=city, ref=ref, index=index)
        if not e.up_to:
            _, counts, room = self._enrage_counts(d)
            d = replace(d, n=min(e.n, enrage_reach(counts, room, 0, self.T)))
        if d.n and any(m.verb != "pass" for m in self._moves_enrage(d)):
            self.pending = d

    def _enrage_counts(self, d: Pending) -> tuple[int, list[int], list[int]]:
        """The side, the candidates keyed ``city * T + unit``, and each city's room (R-enrage-3)."""
        e = self._effect(d)
        side = d.owner if e.side == "own" else 1 - d.owner
        counts = [0] * (CITIES * self.T)
        for c in range(CITIES):
            if e.where == "this_city" and c != d.city:
                continue
            for t, n in enumerate(self.cities[c][side]):
                if n and enrageable(self.units[t], e.filter):
                    counts[c * self.T + t] = n
        return side, counts, [CITY_LIMIT - self.side_count(c, side) for c in range(CITIES)]

    def _moves_enrage(self, d: Pending) -> list[Move]:
        """One unit at a time in key order (D-pick-1); a mandatory pick is offered only if the rest
        can still be Enraged after it."""
        e = self._effect(d)
        _, counts, room = self._enrage_counts(d)
        keys = enrage_keys(counts, room, d.last, d.n, e.up_to, self.T)
        return [Move("enrage", card=self._name(k % self.T), city=k // self.T) for k in keys] + (
            [Move("pass")] if e.up_to else [])

    def _do_enrage(self, d: Pending, m: Move) -> None:
        if m.verb == "pass":
            return
        side, _, _ = self._enrage_counts(d)
        t = self._id(m.card)  # type: ignore[arg-type]
        self._remove_unit(m.city, side, t, False)  # type: ignore[arg-type]
        self.enraged[m.city][side][t] += 1  # type: ignore[index]
        nxt = replace(d, n=d.n - 1, last=m.city * self.T + t)  # type: ignore[operator]
        if nxt.n and any(mv.verb != "pass" for mv in self._moves_enrage(nxt)):
            self.pending = nxt

    def _op_move(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-7: up to N moves, each one unit to another city within the City Limit."""
        d = Pending("move", owner, owner=owner, n=e.n, city=city, ref=ref, index=index)
        if len(self._moves_move(d)) > 1:
            self.pending = d

    def _moves_move(self, d: Pending) -> list[Move]:
        e = self._effect(d)
        side = d.owner if e.side == "own" else 1 - d.owner
        moves = []
        for src in range(CITIES):
            if e.mode == "out_of_this_city" and src != d.city:
                continue
            for enraged in (False, True):
                for t, n in enumerate(self._side_zone(src, side, enraged)):
                    if not n or not matches(self.units[t], enraged, e.filter):
                        continue
                    for dst in range(CITIES):
                        if dst != src and self._fits(dst, side, t, enraged):
                            moves.append(self._unit_move("move", self._key(src, enraged, t), to=dst))
        return moves + [Move("pass")]

    def _do_move(self, d: Pending, m: Move) -> None:
        """A moved face-up Soldier resolves its ability for its owner before the next move (R-card-7,
        R-surge-8); an Oracle of the active player still to resolve takes its turn along (R-portent-2)."""
        if m.verb == "pass":
            return
        e = self._effect(d)
        side = d.owner if e.side == "own" else 1 - d.owner
        t = self._id(m.card)  # type: ignore[arg-type]
        src, dst = m.city, m.to
        left = self.portent_left[src][t] if side == self.active and not m.enraged else 0  # type: ignore[index]
        self._remove_unit(src, side, t, m.enraged)  # type: ignore[arg-type]
        self._side_zone(dst, side, m.enraged)[t] += 1  # type: ignore[arg-type]
        if left > self.portent_left[src][t]:  # type: ignore[index]  # an Oracle still to resolve moved
            self.portent_left[dst][t] += 1  # type: ignore[index]
        if d.n > 1:
            self.stack.append(("resume", replace(d, n=d.n - 1)))
        if not m.enraged:
            self._enter(side, t, dst)  # type: ignore[arg-type]

    def _op_play_free(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-10: a normal play from hand at no cost (a Soldier's ability resolves)."""
        if self._play_moves(owner, self.hands[owner], paid=False):
            self.pending = Pending("play_free", owner, owner=owner)

    def _moves_play_free(self, d: Pending) -> list[Move]:
        return self._play_moves(d.player, self.hands[d.player], paid=False)

    def _do_play_free(self, d: Pending, m: Move) -> None:
        t = self._id(m.card)  # type: ignore[arg-type]
        self._leave_hand(d.player, t)
        self._place(d.player, t, m.city)  # type: ignore[arg-type]

    def _op_reveal_take(self, e: Effect, ref: tuple, index: int, owner: int, city: int) -> None:
        """R-card-4: reveal the top N cards one at a time (reshuffling as needed); take K of those
        that pass the filter into your hand, or play them free into this City; the rest are discarded."""
        for _ in range(e.n):
            t = self._take_top(owner)
            if t is None:
                break
            self.revealed[t] += 1
        d = Pending("reveal_take", owner, owner=owner, city=city, ref=ref, index=index)
        fitting = sum(n for t, n in enumerate(self.revealed) if matches(self.units[t], False, e.filter))
        d = replace(d, n=e.take if e.up_to else min(e.take, fitting))
        for t, n in enumerate(self.revealed):
            if n:
                self._seen(owner, t, extra=n)
        if d.n and any(m.verb != "pass" for m in self._moves_reveal_take(d)):
            self.pending = d
        else:
            self._end_reveal(owner)

    def _moves_reveal_take(self, d: Pending) -> list[Move]:
        e = self._effect(d)
        counts = [n if matches(self.units[t], False, e.filter) else 0 for t, n in enumerate(self.revealed)]
        if e.to == "this_city":
            moves = self._play_moves(d.player, counts, paid=False, cities=(d.city,))
        else:
            moves = [Move("take", card=self._name(t)) for t in self._pick_keys(counts, d.last, d.n, not e.up_to)]
        return moves + ([Move("pass")] if e.up_to else [])

    def _do_reveal_take(self, d: Pending, m: Move) -> None:
        p = d.player
        if m.verb == "pass":
            self._end_reveal(p)
            return
        t = self._id(m.card)  # type: ignore[arg-type]
        self.revealed[t] -= 1
        nxt = replace(d, n=d.n - 1, last=t)
        if m.verb == "take":
            self._to_hand_public(p, t)  # R-deck-3: not drawing
            if nxt.n and any(mv.verb != "pass" for mv in self._moves_reveal_take(nxt)):
                self.pending = nxt
            else:
                self._end_reveal(p)
            return
        self._end_reveal(p)  # a free play takes 1 at most (the loader's rule): the rest go first
        self._place(p, t, m.city)  # type: ignore[arg-type]

    def _end_reveal(self, owner: int) -> None:
        """Revealed cards not taken go to the owner's discard pile in card order (R-deck-2, R-card-4)."""
        for t in range(self.T):
            for _ in range(self.revealed[t]):
                self._to_pile(owner, t)
        self.revealed = [0] * self.T

