"""OMNIA's reference engine: readable Python that implements every rule of ``docs/rules/omnia.md``
(ids ``N-…``), every card text of the seed edition (``N-card-…``) and the project's decisions
(``D-omnia-…`` in ``docs/rulings.md``). It is the executable rulebook a core will be checked against.

Every physical card has an id (``self.design[id]`` is its card design, ``self.owner[id]`` its owner
once bought). A turn runs through a queue of *steps* (``self.todo``): what the rules do next, in
order. A step that needs a choice waits for a move of the player who makes it (the defending player
declares defenders in the attacker's turn, a player with priority answers out of turn); a step whose
choice has a single outcome is played for him, so a priority window where a player has nothing to
answer with passes by itself (N-flow-7, D-omnia-2); the rest resolve by themselves. With the queue
empty in an Action phase, the active player picks the next action.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from omen_search.errors import UsageError
from omen_search.games.omnia.cards import Card, CardSet, Cost, default_cards
from omen_search.games.omnia.notation import Move
from omen_search.games.omnia.observe import observe
from omen_search.games.omnia.rules import HAND, SHOP_ROW, START_LIFE, Config, default_flavors
from omen_search.rng import Rng
from omen_search.step_queue import StepQueueState

# Steps that resolve by themselves (the others wait for a choice).
AUTO_STEPS = ("turn", "window", "put", "resolve", "strike", "effect", "settle", "to_discard", "cleanup", "draw_phase")


@dataclass(frozen=True)
class Item:
    """An action on the Prime Flow (or being put there): a Play (``card`` is the card played), a
    Purchase (the card bought), an Attack (``card`` is the attacker, ``target`` the defending
    player) or an Activate (``card`` has the ability); ``target`` is ``("player", seat)``,
    ``("hero", id)`` or ``("flow", uid)``."""

    uid: int
    kind: str  # "play", "buy", "attack", "activate"
    player: int
    card: int
    target: tuple[str, int] | None = None
    defenders: tuple[int, ...] = ()
    cast: bool = False  # a primed spell Activated (N-prime-2)
    cancelled: bool = False


def seat_flavors(cards: CardSet, config: Config) -> tuple[int, ...]:
    """Each seat's flavor as an index into the card set's flavors (the set's first ones by
    default); raises :class:`UsageError` for a flavor the set does not have."""
    n = config.players
    names = tuple(f.name for f in cards.flavors)
    flavors = config.flavors or default_flavors(n, names)
    unknown = [f for f in flavors if f not in names]
    if unknown or len(flavors) < n:
        raise UsageError(f"flavors: {cards.name} has the flavors {', '.join(names)}; "
                         f"{'unknown ' + repr(unknown[0]) if unknown else f'{n} players need {n}'}")
    return tuple(cards.flavor_index(f) or 0 for f in flavors)


class OmniaState(StepQueueState):
    """A game of OMNIA on the reference engine. ``OmniaState.new(seed, cards, config)`` deals one."""

    MOVE = Move
    AUTO_STEPS = AUTO_STEPS
    DEFAULT_CARDS = staticmethod(default_cards)
    CONFIG = Config
    cards: CardSet
    config: Config

    def __init__(self, cards: CardSet, config: Config, seed: int):
        super().__init__(cards, config, seed)
        self.flavor = seat_flavors(cards, config)  # each seat's flavor, by index
        self.design: list[int] = []  # card id -> its design
        self.owner: list[int | None] = []
        self.deck: list[list[int]] = [[] for _ in range(self.n)]  # top last
        self.hand: list[list[int]] = [[] for _ in range(self.n)]
        self.discard: list[list[int]] = [[] for _ in range(self.n)]
        self.field: list[list[int]] = [[] for _ in range(self.n)]  # face up in play, in the order they entered
        self.primed: list[list[int]] = [[] for _ in range(self.n)]
        self.shop_deck: list[int] = []
        self.row: list[int] = []
        self.stacks: dict[int, list[int]] = {}  # flavor index -> its source stack, top last
        self.removed: list[int] = []
        self.flow: list[Item] = []  # bottom first
        self.life = [START_LIFE] * self.n
        self.pool = [[0] * len(cards.flavors) for _ in range(self.n)]
        self.damage: dict[int, int] = {}
        self.pumped: dict[int, int] = {}  # Atk changes until end of turn (N-card-1)
        self.unblockable: set[int] = set()  # heroes that cannot be defended against this turn
        self.attached: dict[int, int] = {}  # Equipment -> its hero
        self.attacked: set[int] = set()
        self.used: set[int] = set()  # cards whose once-per-turn ability was used this turn
        self.uid = 0
        self.active = 0
        self.turns = 0

    # ------------------------------------------------------------------ set-up

    def _make(self, design: int, owner: int | None) -> int:
        self.design.append(design)
        self.owner.append(owner)
        return len(self.design) - 1

    def _setup(self) -> None:
        """Deal the game (N-setup-1 to N-setup-6) and run to the first decision."""
        cards = self.cards
        for f in self.flavor:  # N-setup-2
            name = cards.flavors[f].name
            self.shop_deck += [self._make(d, None) for d in cards.deck_of(name)]
            self.stacks[f] = [self._make(d, None) for d in cards.stack_of(name)]
        self.rng.shuffle(self.shop_deck)
        for p in range(self.n):  # N-setup-3
            self.deck[p] = [self._make(d, p) for d in cards.basics()]
            self.rng.shuffle(self.deck[p])
        first = self.config.first_player  # N-setup-4
        self.active = self.rng.below(self.n) if first is None else first
        self._refill()  # N-setup-5
        for p in range(self.n):
            self._draw(p, HAND)
        self.todo = [("turn", self.active)]
        self._run()

    # ------------------------------------------------------------------ the State interface

    @property
    def players(self) -> int:
        return self.n

    def determinized(self, player: int, seed: int) -> OmniaState:
        """A copy with everything ``player`` cannot see dealt again from ``seed`` (docs/rules/omnia.md,
        "For the engine"): each opponent's unseen cards (his hand, face-down primed spells and deck)
        dealt into his primed slots (Prime spells only), his hand and his deck; the player's own deck
        order; the Shop deck's order; and the chance to come. Every count stays as it is."""
        world = self.clone()
        world._history = []  # the past is not for taking back in a world
        rng = Rng(seed)
        for q in range(self.n):
            if q == player:
                continue
            unseen = world.hand[q] + world.primed[q] + world.deck[q]
            rng.shuffle(unseen)
            primes = [c for c in unseen if self.card(c).prime][:len(world.primed[q])]
            rest = [c for c in unseen if c not in primes]
            size = len(world.hand[q])
            world.primed[q], world.hand[q], world.deck[q] = primes, rest[:size], rest[size:]
        rng.shuffle(world.deck[player])
        rng.shuffle(world.shop_deck)
        world.rng = Rng(rng.next64())
        return world

    def _snapshot(self) -> dict[str, Any]:
        """A copy of everything a move can change (items and steps are immutable)."""
        lists = lambda xs: [list(x) for x in xs]  # noqa: E731
        return {
            "rng": Rng.from_state(list(self.rng.s)), "owner": list(self.owner), "deck": lists(self.deck),
            "hand": lists(self.hand), "discard": lists(self.discard), "field": lists(self.field),
            "primed": lists(self.primed), "shop_deck": list(self.shop_deck), "row": list(self.row),
            "stacks": {f: list(s) for f, s in self.stacks.items()}, "removed": list(self.removed),
            "flow": list(self.flow), "life": list(self.life), "pool": lists(self.pool),
            "damage": dict(self.damage), "pumped": dict(self.pumped), "unblockable": set(self.unblockable),
            "attached": dict(self.attached), "attacked": set(self.attacked), "used": set(self.used),
            "uid": self.uid, "active": self.active, "turns": self.turns, "phase": self.phase,
            "todo": list(self.todo),
        }

    def observation(self, player: int) -> dict[str, Any]:
        return observe(self, player)

    # ------------------------------------------------------------------ scoring

    def prestige(self, player: int) -> int:
        """N-score-1: the prestige of the cards a player owns, wherever they are but removed."""
        removed = set(self.removed)
        return sum(self.card(c).prestige for c in range(len(self.design))
                   if self.owner[c] == player and c not in removed)

    def score(self, player: int) -> int:
        """N-score-2: prestige plus remaining life (below 0 counts as 0)."""
        return self.prestige(player) + max(self.life[player], 0)

    def scores(self) -> tuple[int, ...]:
        return tuple(self.score(p) for p in range(self.n))

    def returns(self) -> tuple[float, ...]:
        """1 for a sole winner, 1/k for each of k sharing the win, 0 for the others (N-score-3)."""
        keys = [(self.score(p), self.life[p]) for p in range(self.n)]
        best = max(keys)
        winners = [p for p in range(self.n) if keys[p] == best]
        return tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(self.n))

    # ------------------------------------------------------------------ cards in play

    def card(self, c: int) -> Card:
        return self.cards.cards[self.design[c]]

    def name(self, c: int) -> str:
        return self.card(c).name

    def controller(self, c: int) -> int | None:
        return next((p for p in range(self.n) if c in self.field[p]), None)

    def heroes(self, player: int) -> list[int]:
        return [c for c in self.field[player] if self.card(c).type == "hero"]

    def equipment_on(self, hero: int) -> list[int]:
        return [e for e, h in self.attached.items() if h == hero]

    def atk(self, hero: int) -> int:
        """Atk with Equipment and until-end-of-turn changes, never below 0."""
        bonus = sum(self.card(e).equip.get("atk", 0) for e in self.equipment_on(hero))
        return max(0, self.card(hero).atk + bonus + self.pumped.get(hero, 0))

    def defense(self, hero: int) -> int:
        return self.card(hero).defense + sum(self.card(e).equip.get("def", 0) for e in self.equipment_on(hero))

    def can_be_defended(self, hero: int) -> bool:
        """N-card-4: Shadow Cloak and Night Blade's ability."""
        return hero not in self.unblockable and not any(self.card(e).equip.get("unblockable")
                                                        for e in self.equipment_on(hero))

    def lethal(self, hero: int) -> int:
        return max(0, self.defense(hero) - self.damage.get(hero, 0))

    def slot(self, c: int) -> int:
        """A card's place in its controller's playfield, from 1 (how moves name it)."""
        owner = self.controller(c)
        assert owner is not None
        return self.field[owner].index(c) + 1

    # ------------------------------------------------------------------ zones

    def _draw(self, player: int, count: int) -> None:
        """N-deck-1: an empty deck is the discard stack shuffled; with both empty, fewer are drawn."""
        for _ in range(count):
            if not self.deck[player] and self.discard[player]:
                self.deck[player], self.discard[player] = self.discard[player], []
                self.rng.shuffle(self.deck[player])
            if not self.deck[player]:
                return
            self.hand[player].append(self.deck[player].pop())

    def _refill(self) -> None:
        """N-buy-2: the Shop Row is refilled at once from the Shop deck, never rebuilt."""
        while len(self.row) < SHOP_ROW and self.shop_deck:
            self.row.append(self.shop_deck.pop())

    def _to_discard(self, c: int) -> None:
        owner = self.owner[c]
        assert owner is not None
        self.discard[owner].append(c)

    def _leave_play(self, c: int) -> None:
        """A card leaves the playfield for its owner's discard stack; Equipment on a hero that
        leaves becomes unattached (N-play-2)."""
        holder = self.controller(c)
        assert holder is not None
        self.field[holder].remove(c)
        for e in self.equipment_on(c):
            del self.attached[e]
        self.attached.pop(c, None)
        for marks in (self.damage, self.pumped):
            marks.pop(c, None)
        self.unblockable.discard(c)
        self._to_discard(c)

    def _take_from_hand(self, player: int, name: str) -> int:
        """The first card of that name in a hand (copies are alike, so which one is no choice)."""
        c = next(c for c in self.hand[player] if self.name(c) == name)
        self.hand[player].remove(c)
        return c

    def _distinct(self, cards: list[int], keep: Any = None) -> list[str]:
        """The names among ``cards`` (those ``keep`` accepts), each once, in first-seen order."""
        out: list[str] = []
        for c in cards:
            name = self.name(c)
            if name not in out and (keep is None or keep(c)):
                out.append(name)
        return out

    # ------------------------------------------------------------------ source

    def letters(self) -> str:
        return "".join(f.letter for f in self.cards.flavors)

    def _gains(self, c: int) -> list[tuple[int, int]]:
        """What a source card adds to its owner's pool: (flavor index, amount); Basic Source makes
        its owner's flavor (N-card-7)."""
        out = []
        for e in self.card(c).effects:
            if e["op"] == "gain_source":
                owner = self.owner[c]
                f = self.flavor[owner] if e["flavor"] == "owner" and owner is not None else self.letters().find(e["flavor"])
                out.append((f, e["n"]))
        return out

    def _gain_source(self, player: int, c: int) -> None:
        for f, n in self._gains(c):
            self.pool[player][f] += n

    def _short(self, pool: list[int], cost: Cost) -> tuple[set[int], bool]:
        """What a pool lacks for a cost: the flavors short, and whether the total is short."""
        letters = self.letters()
        need = [0] * len(pool)
        for letter in cost.flavored:
            need[letters.index(letter)] += 1
        return {f for f in range(len(pool)) if pool[f] < need[f]}, sum(pool) < cost.total

    def can_pay(self, player: int, cost: Cost, with_hand: bool) -> bool:
        """Whether the pool (and, paying an Activate cost, every source card in hand) covers ``cost``."""
        pool = list(self.pool[player])
        if with_hand:
            for c in self.hand[player]:
                for f, n in self._gains(c) if self.card(c).type == "source" else ():
                    pool[f] += n
        flavors, total = self._short(pool, cost)
        return not flavors and not total

    def _pay(self, player: int, cost: Cost) -> None:
        """Flavored source first; the rest from the flavor with the most left, the first on a tie (D-omnia-3)."""
        pool = self.pool[player]
        letters = self.letters()
        for letter in cost.flavored:
            pool[letters.index(letter)] -= 1
        for _ in range(cost.generic):
            f = max(range(len(pool)), key=lambda i: (pool[i], -i))
            pool[f] -= 1
        assert min(pool) >= 0, "paid more than the pool held"

    # ------------------------------------------------------------------ the step queue

    def _new_item(self, kind: str, player: int, card: int, **fields: Any) -> Item:
        self.uid += 1
        return Item(self.uid, kind, player, card, **fields)

    def _step_turn(self, player: int) -> None:
        """A turn begins (N-turn-1): once-per-turn abilities and attacks are new; the start-of-
        Action-phase triggers resolve at once (N-flow-5), in the order the player chooses (N-card-8)."""
        if self.turns >= self.config.max_turns:  # D-omnia-1
            self.phase = "over"
            return
        self.active, self.turns, self.phase = player, self.turns + 1, "action"
        self.used, self.attacked = set(), set()
        triggers = tuple(c for c in self.field[player] if self.card(c).trigger)
        if triggers:
            self._push(("trigger", player, triggers))

    def _step_window(self, player: int) -> None:
        """N-flow-2: priority goes round from the active player."""
        self._push(("priority", self.active, 0))

    def _step_put(self, player: int, item: Item) -> None:
        """The action goes on top of the Flow (its Activate cost paid now), and a window opens."""
        if item.kind == "activate":
            ability = self.card(item.card).ability
            assert ability is not None
            self._pay(player, ability.cost)
            if ability.once:
                self.used.add(item.card)
        self.flow.append(item)
        self._push(("window", player))

    def _step_resolve(self, player: int) -> None:
        """N-flow-3: the whole Flow resolves, newest first, with no priority in between; destroyed
        heroes and the end of the game are checked after each item (N-attack-4, N-flow-6)."""
        if not self.flow:
            return
        item = self.flow.pop()
        self._push(*self._resolution(item), ("settle", player), ("resolve", player))

    def _step_settle(self, player: int) -> None:
        for p in range(self.n):
            for hero in self.heroes(p):
                if self.damage.get(hero, 0) >= self.defense(hero):
                    self._leave_play(hero)
        if any(life <= 0 for life in self.life):  # N-end-1
            self.phase = "over"

    def _step_to_discard(self, player: int, c: int) -> None:
        self._to_discard(c)

    def _step_cleanup(self, player: int) -> None:
        """N-clean-1 steps 2 to 5 (step 1 is the priority window before)."""
        self.phase = "cleanup"
        self.pool = [[0] * len(self.cards.flavors) for _ in range(self.n)]
        for p in range(self.n):
            for c in list(self.field[p]):
                if self.card(c).type == "equipment" and c not in self.attached:
                    self._leave_play(c)
        self.damage, self.pumped, self.unblockable = {}, {}, set()
        self.discard[player] += self.hand[player]
        self.hand[player] = []

    def _step_draw_phase(self, player: int) -> None:
        """N-draw-1: the active player draws 5, then the turn passes to the left."""
        self.phase = "draw"
        self._draw(player, HAND)
        self._push(("turn", (player + 1) % self.n))

    # ------------------------------------------------------------------ resolving an item

    def _resolution(self, item: Item) -> list[tuple]:
        """The steps that resolve one item of the Flow."""
        p, c = item.player, item.card
        if item.kind == "buy":  # N-buy-1
            return [("to_discard", p, c)]
        if item.kind == "attack":
            return self._attack(item)
        card = self.card(c)
        if item.cancelled:  # N-card-2
            return [("to_discard", p, c)] if item.kind == "play" else []
        if item.kind == "activate":
            ability = card.ability
            assert ability is not None
            return [("effect", p, e, item.target, c) for e in ability.effects]
        if card.stays:  # N-play-1
            if card.type == "equipment" and self.heroes(p):
                return [("attach", p, c)]
            self.field[p].append(c)
            return []
        return [*(("effect", p, e, item.target, c) for e in card.effects), ("to_discard", p, c)]

    def _attack(self, item: Item) -> list[tuple]:
        """N-attack-3: the attack's damage."""
        p, attacker = item.player, item.card
        if attacker not in self.field[p]:
            return []
        assert item.target is not None
        q = item.target[1]
        if not self.can_be_defended(attacker):  # N-card-4
            return [("strike", p, attacker, q, (), ())]
        defenders = tuple(h for h in item.defenders if h in self.field[q])
        if item.defenders and defenders:
            for h in defenders:  # every defender deals its Atk to the attacker, at once with the rest
                self.damage[attacker] = self.damage.get(attacker, 0) + self.atk(h)
        return [("strike", p, attacker, q, defenders, ())]

    def _step_strike(self, player: int, attacker: int, q: int, defenders: tuple[int, ...],
                     given: tuple[int, ...]) -> None:
        """The attacker's Atk split among the defenders, one at a time in their order; the last one
        takes the rest (D-omnia-4)."""
        if len(given) < len(defenders) - 1:
            self._push(("assign", player, attacker, q, defenders, given))
        else:
            self._deal_attack(attacker, q, defenders, given)

    def _deal_attack(self, attacker: int, q: int, defenders: tuple[int, ...], given: tuple[int, ...]) -> None:
        """Damage as assigned; only the excess over every defender's lethal damage carries over to
        the defending player (D-omnia-4), and an attacker that dealt damage to him cycles (N-attack-5)."""
        left = self.atk(attacker) - sum(given)
        amounts = list(given)
        if defenders:
            amounts.append(left)  # the last defender takes the rest
        carry = left if not defenders else 0
        if defenders and all(a >= self.lethal(h) for h, a in zip(defenders, amounts)):
            carry = left - self.lethal(defenders[-1]) if left > self.lethal(defenders[-1]) else 0
        for h, a in zip(defenders, amounts):
            self.damage[h] = self.damage.get(h, 0) + a
        if carry > 0:
            self.life[q] -= carry
            self._leave_play(attacker)

    def _step_effect(self, player: int, effect: dict[str, Any], target: tuple[str, int] | None, source: int) -> None:
        """One operation of a card text (docs/rules/omnia-cards.md, "Effect operations")."""
        op, n = effect["op"], effect.get("n", 0)
        opponents = [(player + i) % self.n for i in range(1, self.n)]
        if op == "gain_source":
            f = self.flavor[player] if effect["flavor"] == "owner" else self.letters().find(effect["flavor"])
            self.pool[player][f] += n
        elif op == "draw":
            self._draw(player, n)
        elif op == "discard":
            self._push(("discard", player, n))
        elif op == "opponents_discard":  # N-card-3
            self._push(*(("discard", q, n) for q in opponents))
        elif op == "damage_each":
            for p in range(self.n):
                for hero in self.heroes(p):
                    self.damage[hero] = self.damage.get(hero, 0) + n
            for q in opponents:
                self.life[q] -= n
        elif op in ("damage_opponents", "lose_life"):
            for q in opponents:
                self.life[q] -= n
        elif op == "gain_life":
            self.life[player] += n
        elif op == "destroy_all":
            for p in range(self.n):
                for hero in self.heroes(p):
                    self._leave_play(hero)
        elif op == "remove":
            self._push(("remove", player, n))
        else:
            self._targeted(player, op, n, target, source)

    def _targeted(self, player: int, op: str, n: int, target: tuple[str, int] | None, source: int) -> None:
        """An operation on the target; a target gone or no longer legal is ignored (N-play-3)."""
        assert target is not None
        kind, value = target
        if kind == "player":
            if op == "damage":
                self.life[value] -= n
            return
        if kind == "flow":
            for i, item in enumerate(self.flow):
                if item.uid == value and op == "cancel":
                    self.flow[i] = replace(item, cancelled=True)
            return
        if self.controller(value) is None or self.card(value).type != "hero":
            return
        limit = self.card(source).target_def
        if op == "damage":
            self.damage[value] = self.damage.get(value, 0) + n
        elif op == "destroy" and (limit is None or self.defense(value) <= limit):
            self._leave_play(value)
        elif op == "pump":
            self.pumped[value] = self.pumped.get(value, 0) + n
        elif op == "weaken":
            self.pumped[value] = self.pumped.get(value, 0) - n
        elif op == "unblockable":
            self.unblockable.add(value)

    # ------------------------------------------------------------------ choices inside the queue

    def _step_moves(self, step: tuple) -> list[Move]:
        name, player = step[0], step[1]
        if name == "priority":
            return [Move("pass"), *self._activations(player)]
        if name == "trigger":
            return [Move("trigger", card=n) for n in self._distinct(list(step[2]))]
        if name == "pay":
            return self._pay_moves(player, step[2])
        if name == "cost":
            return [Move("discard", card=n) for n in self._distinct(self.hand[player])]
        if name == "target":
            return self._target_moves(player, step[2])
        if name == "defend":
            _, _, item, chosen = step
            q = player
            last = self.field[q].index(chosen[-1]) if chosen else -1
            return [Move("done")] + [Move("defend", card=self.name(h), slot=i + 1)
                                     for i, h in enumerate(self.field[q])
                                     if i > last and self.card(h).type == "hero"]
        if name == "assign":
            _, _, attacker, q, defenders, given = step
            left = self.atk(attacker) - sum(given)
            return [Move("assign", n=a) for a in range(min(left, self.lethal(defenders[len(given)])) + 1)]
        if name == "attach":
            return [Move("attach", card=self.name(h), slot=self.slot(h)) for h in self.heroes(player)]
        if name == "discard":
            return [Move("discard", card=n) for n in self._distinct(self.hand[player])]
        if name == "remove":
            return ([Move("remove", card=n, zone="hand") for n in self._distinct(self.hand[player])]
                    + [Move("remove", card=n, zone="discard") for n in self._distinct(self.discard[player])]
                    + [Move("done")])
        raise AssertionError(f"unknown step {name}")

    def _resolve(self, step: tuple, move: Move) -> None:
        name, player = step[0], step[1]
        if name == "priority":
            passes = step[2]
            if move.verb == "pass":
                if passes + 1 >= self.n:  # everyone passed in succession: the whole Flow resolves
                    self._push(("resolve", self.active))
                else:
                    self._push(("priority", (player + 1) % self.n, passes + 1))
            else:
                self._activate(player, move)
        elif name == "trigger":
            c = next(c for c in step[2] if self.name(c) == move.card)
            rest = tuple(x for x in step[2] if x != c)
            self._push(*(("effect", player, e, None, c) for e in self.card(c).trigger), ("settle", player),
                       *([("trigger", player, rest)] if rest else []))
        elif name == "pay":
            self._pay_source(player, move)
            self._push(step)
        elif name == "cost":
            self._to_discard(self._take_from_hand(player, move.card or ""))
        elif name == "target":
            self._push(("put", player, replace(step[2], target=self._target_of(move))))
        elif name == "defend":
            _, _, item, chosen = step
            if move.verb == "done":
                self._push(("put", item.player, replace(item, defenders=chosen)))
            else:
                self._push(("defend", player, item, chosen + (self.field[player][(move.slot or 1) - 1],)))
        elif name == "assign":
            _, _, attacker, q, defenders, given = step
            self._push(("strike", player, attacker, q, defenders, given + (move.n or 0,)))
        elif name == "attach":
            c = step[2]
            self.field[player].append(c)
            self.attached[c] = self.field[player][(move.slot or 1) - 1]
        elif name == "discard":
            self._to_discard(self._take_from_hand(player, move.card or ""))
            if step[2] > 1:
                self._push(("discard", player, step[2] - 1))
        elif name == "remove":
            if move.verb == "done":
                return
            zone = self.hand[player] if move.zone == "hand" else self.discard[player]
            c = next(c for c in zone if self.name(c) == move.card)
            zone.remove(c)
            self.removed.append(c)
            if step[2] > 1:
                self._push(("remove", player, step[2] - 1))
        else:
            raise AssertionError(f"unknown step {name}")

    # ------------------------------------------------------------------ targets

    def _target_moves(self, player: int, item: Item) -> list[Move]:
        """The legal targets of a Play or Activate (N-play-3)."""
        kind, limit = self._aim(item)
        if kind == "flow":
            return [Move("counter", card=self.name(it.card), slot=i + 1) for i, it in enumerate(self.flow)
                    if it.kind in ("play", "activate") and not it.cancelled]
        moves = []
        if kind in ("combatant", "player"):
            moves += [Move("player", seat=q) for q in range(self.n)]
        if kind in ("combatant", "hero", "own_hero"):
            for q in range(self.n):
                if kind == "own_hero" and q != player:
                    continue
                moves += [Move("hero", card=self.name(h), seat=q, slot=i + 1) for i, h in enumerate(self.field[q])
                          if self.card(h).type == "hero" and (limit is None or self.defense(h) <= limit)]
        return moves

    def _aim(self, item: Item) -> tuple[str | None, int | None]:
        card = self.card(item.card)
        if item.kind == "activate":
            assert card.ability is not None
            return card.ability.target, None
        return card.target, card.target_def

    def _target_of(self, move: Move) -> tuple[str, int]:
        if move.verb == "player":
            return ("player", move.seat or 0)
        if move.verb == "counter":
            return ("flow", self.flow[(move.slot or 1) - 1].uid)
        return ("hero", self.field[move.seat or 0][(move.slot or 1) - 1])

    def _after_cost(self, player: int, item: Item) -> tuple:
        """The next step of an action whose cost is paid: its target, or straight onto the Flow."""
        kind, _ = self._aim(item)
        if kind == "self":
            return ("put", player, replace(item, target=("hero", item.card)))
        if kind is None:
            return ("put", player, item)
        return ("target", player, item)

    # ------------------------------------------------------------------ Activate (N-activate-1, N-prime-2)

    def _activations(self, player: int) -> list[Move]:
        """The Activate actions a player can take now: abilities of his cards in play whose cost he
        can pay (source cards in hand included, N-source-1) and that have a target, and his primed
        spells, with a card in hand to discard and a target."""
        moves = []
        for i, c in enumerate(self.field[player]):
            ability = self.card(c).ability
            if ability is None or (ability.once and c in self.used):
                continue
            if not self.can_pay(player, ability.cost, True):
                continue
            item = Item(0, "activate", player, c)
            if ability.target in (None, "self") or self._target_moves(player, item):
                moves.append(Move("activate", card=self.name(c), slot=i + 1))
        if self.hand[player]:
            for name in self._distinct(self.primed[player]):
                c = next(c for c in self.primed[player] if self.name(c) == name)
                item = Item(0, "play", player, c, cast=True)
                if self.card(c).target is None or self._target_moves(player, item):
                    moves.append(Move("cast", card=name))
        return moves

    def _activate(self, player: int, move: Move) -> None:
        if move.verb == "cast":  # N-prime-2: discard a card, turn the spell up, it is Played
            c = next(c for c in self.primed[player] if self.name(c) == move.card)
            self.primed[player].remove(c)
            item = self._new_item("play", player, c, cast=True)
            self._push(("cost", player), self._after_cost(player, item))
            return
        c = self.field[player][(move.slot or 1) - 1]
        item = self._new_item("activate", player, c)
        self._push(("pay", player, item), self._after_cost(player, item))

    def _pay_moves(self, player: int, item: Item) -> list[Move]:
        """Source cards played to pay an Activate cost, while the pool is short (N-source-1); only
        those that make a flavor or an amount still missing."""
        ability = self.card(item.card).ability
        assert ability is not None
        flavors, total = self._short(self.pool[player], ability.cost)
        if not flavors and not total:
            return []
        return [Move("source", card=n) for n in self._distinct(
            self.hand[player], lambda c: self.card(c).type == "source"
            and (total or any(f in flavors for f, _ in self._gains(c))))]

    def _pay_source(self, player: int, move: Move) -> None:
        c = self._take_from_hand(player, move.card or "")
        self._gain_source(player, c)
        self._to_discard(c)

    # ------------------------------------------------------------------ the Action phase

    def _turn_moves(self) -> list[Move]:
        """The active player's actions with the Flow empty, in this order: source, play, prime, buy,
        activate and cast, attack, end."""
        p = self.active
        hand = self.hand[p]
        moves = [Move("source", card=n) for n in self._distinct(hand, lambda c: self.card(c).type == "source")]
        moves += [Move("play", card=n) for n in self._distinct(hand, lambda c: self.card(c).type != "source")
                  if self._playable(p, n)]
        moves += [Move("prime", card=n) for n in self._distinct(hand, lambda c: self.card(c).prime)]
        offer = self._distinct(self.row) + [self.name(s[-1]) for s in self.stacks.values() if s]
        moves += [Move("buy", card=n) for n in dict.fromkeys(offer) if self._buyable(p, n)]
        moves += self._activations(p)
        for i, h in enumerate(self.field[p]):
            if self.card(h).type == "hero" and h not in self.attacked:
                moves += [Move("attack", card=self.name(h), slot=i + 1, seat=q)
                          for q in [(p + k) % self.n for k in range(1, self.n)]]
        moves.append(Move("end"))
        return moves

    def _playable(self, player: int, name: str) -> bool:
        c = next(c for c in self.hand[player] if self.name(c) == name)
        return self.card(c).target is None or bool(self._target_moves(player, Item(0, "play", player, c)))

    def _offered(self, name: str) -> int | None:
        """The card of that name a player may buy: in the Shop Row, or on top of a source stack."""
        for c in self.row:
            if self.name(c) == name:
                return c
        return next((s[-1] for s in self.stacks.values() if s and self.name(s[-1]) == name), None)

    def _buyable(self, player: int, name: str) -> bool:
        c = self._offered(name)
        cost = self.card(c).cost if c is not None else None
        return cost is not None and self.can_pay(player, cost, False)

    def _turn_move(self, move: Move) -> None:
        p = self.active
        verb = move.verb
        if verb == "source":  # N-source-1: a special action, off the Flow
            self._pay_source(p, move)
        elif verb == "play":
            c = self._take_from_hand(p, move.card or "")
            self._push(self._after_cost(p, self._new_item("play", p, c)))
        elif verb == "prime":  # N-prime-1
            self.primed[p].append(self._take_from_hand(p, move.card or ""))
        elif verb == "buy":  # N-buy-1, N-buy-2
            bought = self._offered(move.card or "")
            assert bought is not None
            cost = self.card(bought).cost
            assert cost is not None
            self._pay(p, cost)
            if bought in self.row:
                self.row.remove(bought)
                self._refill()
            else:
                for stack in self.stacks.values():
                    if stack and stack[-1] == bought:
                        stack.pop()
            self.owner[bought] = p
            self._push(("put", p, self._new_item("buy", p, bought)))
        elif verb in ("activate", "cast"):
            self._activate(p, move)
        elif verb == "attack":  # N-attack-1
            h = self.field[p][(move.slot or 1) - 1]
            self.attacked.add(h)
            item = self._new_item("attack", p, h, target=("player", move.seat or 0))
            q = move.seat or 0
            if self.can_be_defended(h) and self.heroes(q):
                self._push(("defend", q, item, ()))
            else:
                self._push(("put", p, item))
        elif verb == "end":  # N-clean-1
            self._push(("window", p), ("cleanup", p), ("draw_phase", p))
        else:
            raise AssertionError(f"not an Action-phase move: {move}")
