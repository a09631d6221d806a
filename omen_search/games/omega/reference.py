"""OMEGA's reference engine: readable Python that implements every rule of
``docs/rules/omega-the-ritual.md`` (ids ``O-…``) and the project's decisions (``D-omega-…`` in
``docs/rulings.md``). It is the executable rulebook a core is checked against move for move.

Rune zones are counts by kind (``cards.KINDS``: blue, gold, red, green, white, black): the bag, the
Altar, each Pyramid (with the part every player knows, O-hidden-2) and each Egregor in play. A turn
runs through a queue of *steps* (``self.todo``): what the rules do next, in order. A step that needs
a choice waits for a move of the player who makes it (the victim chooses the runes he keeps during
the capturer's turn, O-lose-1); a step whose choice has a single outcome is played for him
(D-omega-2); the rest resolve by themselves. With the queue empty in a Main phase, the active
player picks the next small move (summon, capture, place, pair, black, mask, power, disown, end).
"""

from __future__ import annotations

from typing import Any

from omen_search.games.omega.cards import (
    BLACK,
    BLUE,
    COLOURS,
    GREEN,
    KINDS,
    RED,
    WHITE,
    CardSet,
    default_cards,
)
from omen_search.games.omega.notation import Move
from omen_search.games.omega.observe import observe
from omen_search.games.omega.rules import (
    ALTAR,
    AUTO_STEPS,
    BLUE_SQUARES,
    CARRY,
    COLOURS_ON_ONE,
    CONTROL,
    GALLERY,
    GOLD_POINTS,
    PRESTIGE_BONUS,
    RUNES_TABLE,
    START_RUNES,
    WHITES_AGAINST_BLACK,
    Config,
    arcanic_end,
)
from omen_search.rng import Rng
from omen_search.step_queue import StepQueueState

N_COLOURS = len(COLOURS)
ARCANA_STACKS = 6


class OmegaState(StepQueueState):
    """A game of OMEGA on the reference engine. ``OmegaState.new(seed, cards, config)`` deals one."""

    MOVE = Move
    AUTO_STEPS = AUTO_STEPS
    DEFAULT_CARDS = staticmethod(default_cards)
    CONFIG = Config
    cards: CardSet
    config: Config

    def __init__(self, cards: CardSet, config: Config, seed: int):
        super().__init__(cards, config, seed)
        self.bag = list(cards.runes)
        self.altar = [0] * 6
        self.pyramid = [[0] * 6 for _ in range(self.n)]
        self.known = [[0] * 6 for _ in range(self.n)]  # the part of each Pyramid every player knows
        self.gallery: list[int] = []
        self.stack: list[int] = []  # the Egregor stack, top last
        self.discard: list[int] = []
        self.controlled: list[list[int]] = [[] for _ in range(self.n)]
        self.carried: dict[int, list[int]] = {}  # runes on each Egregor in play (and one being lost)
        self.mask: list[int | None] = [None] * self.n
        self.pawn = [0] * self.n
        self.prestige = [0] * self.n
        self.arcana: list[list[int]] = [[] for _ in range(ARCANA_STACKS)]  # token kinds, top last
        self.taken: list[list[int]] = [[] for _ in range(self.n)]
        self.lost = [False] * self.n  # lost an Egregor by capture since his own last turn ended (O-capture-2 d)
        self.active = config.first_player
        self.turns = 0
        self.gained: int | None = None
        self.disowned = False
        self.mask_moved = False
        self.used: set[int] = set()  # Egregors whose power was used this turn
        self.announcer: int | None = None
        self.final: list[int] = []  # the players still to play their final turn (O-end-2)

    # ------------------------------------------------------------------ set-up

    def _setup(self) -> None:
        """Deal the game (O-setup-1 to O-setup-6) and run to the first decision."""
        for _ in range(ALTAR):  # O-setup-2
            self._bag_to(self.altar)
        self.stack = list(range(len(self.cards.egregors)))  # O-setup-3
        self.rng.shuffle(self.stack)
        for _ in range(GALLERY):
            self.gallery.append(self.stack.pop())
        tokens = list(self.cards.tokens)  # O-setup-4
        self.rng.shuffle(tokens)
        for i, token in enumerate(tokens):
            self.arcana[i % ARCANA_STACKS].append(token)
        for place, count in enumerate(START_RUNES[self.n]):  # O-setup-6, in turn order
            seat = (self.config.first_player + place) % self.n
            for _ in range(count):
                kind = self._bag_to(self.pyramid[seat])
                assert kind is not None
        self.todo = [("turn", self.config.first_player)]
        self._run()

    # ------------------------------------------------------------------ the State interface

    @property
    def players(self) -> int:
        return self.n

    def _snapshot(self) -> dict[str, Any]:
        """A copy of everything a move can change (steps are tuples of numbers and frozensets)."""
        return {
            "rng": Rng.from_state(list(self.rng.s)), "bag": list(self.bag), "altar": list(self.altar),
            "pyramid": [list(x) for x in self.pyramid], "known": [list(x) for x in self.known],
            "gallery": list(self.gallery), "stack": list(self.stack), "discard": list(self.discard),
            "controlled": [list(x) for x in self.controlled],
            "carried": {c: list(r) for c, r in self.carried.items()}, "mask": list(self.mask),
            "pawn": list(self.pawn), "prestige": list(self.prestige), "arcana": [list(x) for x in self.arcana],
            "taken": [list(x) for x in self.taken], "lost": list(self.lost), "active": self.active,
            "turns": self.turns, "gained": self.gained, "disowned": self.disowned, "mask_moved": self.mask_moved,
            "used": set(self.used), "announcer": self.announcer, "final": list(self.final), "phase": self.phase,
            "todo": list(self.todo),
        }

    def scores(self) -> tuple[int, ...]:
        """Each player's Judgment total (O-judge-1) on the board as it stands."""
        return tuple(self.score(p) for p in range(self.n))

    def returns(self) -> tuple[float, ...]:
        """1 for a sole winner, 1/k for each of k sharing the win, 0 for the others (O-judge-2)."""
        keys = [(self.score(p), self.runes_carried(p), len(self.taken[p])) for p in range(self.n)]
        best = max(keys)
        winners = [p for p in range(self.n) if keys[p] == best]
        return tuple(1.0 / len(winners) if p in winners else 0.0 for p in range(self.n))

    def observation(self, player: int) -> dict[str, Any]:
        return observe(self, player)

    # ------------------------------------------------------------------ judgment

    def runes_on(self, card: int) -> int:
        return sum(self.carried[card])

    def runes_carried(self, player: int) -> int:
        return sum(self.runes_on(c) for c in self.controlled[player])

    def score(self, player: int) -> int:
        """Arcana points + Runes Table points + the Prestige bonus + the gold bonus (O-judge-1)."""
        egregors = [self.carried[c] for c in self.controlled[player]]
        runes = sum(RUNES_TABLE[sum(r)] for r in egregors)
        gold = GOLD_POINTS * sum(r[1] for r in egregors)
        best = max(self.prestige)
        bonus = PRESTIGE_BONUS if self.prestige[player] >= 1 and self.prestige[player] == best else 0
        return self.arcana_points(player) + runes + bonus + gold

    def arcana_points(self, player: int) -> int:
        """The Arcana a player holds, read on the board as it stands (O-arcana-3, O-card-3 to O-card-5)."""
        on = [sum(self.carried[c][k] for c in self.controlled[player]) for k in range(6)]
        counts = {
            "white": on[WHITE], "blue": on[BLUE], "green": on[GREEN], "gold": on[1],
            "prestige": 2 * self.prestige[player],
            "arcana": len(self.taken[player]) // 2,
            "pyramid_black": self.pyramid[player][BLACK],
            "full_egregors": 3 * sum(1 for c in self.controlled[player] if self.runes_on(c) == CARRY),
            "kinds": sum(1 for k in range(6) if on[k] > 0),
        }
        total = 0
        for token in self.taken[player]:
            arcanum = self.cards.arcana[token]
            total += arcanum.points if arcanum.points is not None else counts[arcanum.counts or ""]
        return total

    # ------------------------------------------------------------------ rune zones

    def _bag_to(self, zone: list[int]) -> int | None:
        """Draw one rune at random from the bag into ``zone``; its kind, or None from an empty bag."""
        total = sum(self.bag)
        if total == 0:
            return None
        r = self.rng.below(total)
        for kind in range(6):
            if r < self.bag[kind]:
                self.bag[kind] -= 1
                zone[kind] += 1
                return kind
            r -= self.bag[kind]
        raise AssertionError("bag counts")

    def _to_pyramid(self, player: int, kind: int, known: bool, n: int = 1) -> None:
        self.pyramid[player][kind] += n
        if known:
            self.known[player][kind] += n

    def _from_pyramid(self, player: int, kind: int, n: int = 1) -> None:
        """Runes leave a Pyramid from its known part first (O-hidden-2)."""
        assert self.pyramid[player][kind] >= n
        self.pyramid[player][kind] -= n
        self.known[player][kind] -= min(n, self.known[player][kind])

    def colours_on(self, card: int) -> set[int]:
        return {k for k in range(N_COLOURS) if self.carried[card][k] > 0}

    def accepts(self, card: int, kind: int, n: int) -> bool:
        """Whether ``n`` runes of colour ``kind`` may go on an Egregor of its controller: 10 runes,
        2 colours, 1 on a Primitive (O-place-1, O-place-3)."""
        if self.runes_on(card) + n > CARRY:
            return False
        colours = self.colours_on(card)
        limit = 1 if self.cards.egregors[card].primitive else COLOURS_ON_ONE
        return kind in colours or len(colours) < limit

    def owner(self, card: int) -> int | None:
        return next((p for p in range(self.n) if card in self.controlled[p]), None)

    # ------------------------------------------------------------------ the step queue

    def _step_turn(self, player: int) -> None:
        """A turn begins: its Upkeep (O-upkeep-1), then the Draw (O-draw-1) and the Main phase."""
        self.active, self.turns = player, self.turns + 1
        self.gained, self.disowned, self.mask_moved, self.used = None, False, False, set()
        self.lost[player] = False
        self.phase = "draw"
        while sum(self.altar) < ALTAR and self._bag_to(self.altar) is not None:
            pass
        while len(self.gallery) < GALLERY:
            card = self._top_of_stack()
            if card is None:
                break
            self.gallery.append(card)
        self._push(("draw", player), ("main", player))

    def _top_of_stack(self) -> int | None:
        """The top Egregor of the stack, the discard pile shuffled into a new stack if it is empty."""
        if not self.stack and self.discard:
            self.stack, self.discard = self.discard, []
            self.rng.shuffle(self.stack)
        return self.stack.pop() if self.stack else None

    def _step_main(self, player: int) -> None:
        self.phase = "main"

    def _step_end_phase(self, player: int) -> None:
        """O-endturn-1: the pawn moves by the Time Thrust of the Egregors controlled."""
        self.phase = "end"
        thrust = sum(self.cards.egregors[c].thrust for c in self.controlled[player])
        self._push(*self._advance(player, thrust), ("endings", player))

    def _step_endings(self, player: int) -> None:
        """O-end-1 to O-end-3: announce the end, or play on; Judgment after the final turns."""
        if self.announcer is None:
            arcanic = len(self.taken[player]) >= arcanic_end(self.n)
            runic = len(self.controlled[player]) == CONTROL and all(
                self.runes_on(c) == CARRY for c in self.controlled[player])
            if arcanic or runic or sum(self.bag) == 0:
                self.announcer = player
                self.final = [(player + i) % self.n for i in range(1, self.n)]
        elif self.final and self.final[0] == player:
            self.final.pop(0)
        if self.announcer is not None and not self.final or self.turns >= self.config.max_turns:
            self.phase = "over"  # Judgment (O-judge-1); the turn limit judges the board as it stands (D-omega-1)
            self.todo.clear()
            return
        following = self.final[0] if self.announcer is not None else (player + 1) % self.n
        self._push(("turn", following))

    def _advance(self, player: int, squares: int) -> list[tuple]:
        """Move a pawn; one Arcanum step per crossing of the Eye (O-disc-2, O-arcana-1)."""
        total = self.pawn[player] + squares
        self.pawn[player] = total % self.cards.squares
        return [("arcana", player)] * (total // self.cards.squares)

    def _placed(self, player: int, card: int, runes: list[int]) -> list[tuple]:
        """Runes placed on an Egregor trigger their powers: blue moves the pawn at once, then each
        red may proliferate, then each pair of greens draws (O-rune-1 to O-rune-5; order D-omega-3)."""
        for kind in range(6):
            self.carried[card][kind] += runes[kind]
        steps = self._advance(player, BLUE_SQUARES * runes[BLUE])
        steps += [("proliferate", player, card)] * runes[RED]
        steps += [("draw", player)] * (runes[GREEN] // 2)
        return steps

    def _step_gain(self, player: int, card: int, runes: tuple[int, ...], how: str) -> None:
        """A summon (O-summon-1 to 3) or the capturer's part of a capture (O-capture-3, 2 to 5)."""
        if how == "summon":
            self.gallery.remove(card)
        first = not self.controlled[player]
        self.controlled[player].append(card)
        self.carried[card] = [0] * 6
        if first and self.mask[player] is None and not self.cards.egregors[card].renegade:
            self.mask[player] = card  # O-summon-3, O-mask-1
        self.gained = card
        for kind in range(6):
            self._from_pyramid(player, kind, runes[kind])
        steps = self._placed(player, card, list(runes))
        if how == "capture":
            self.prestige[player] += 1
        steps.append(("lightning", player, card))
        self._push(*steps)

    def _step_lose(self, player: int, card: int, how: str) -> None:
        """An Egregor leaves its controller (O-lose-1, O-lose-2): all its whites back to his
        Pyramid, then min(Snake Number, the others) runes of his choice, then the rest to the bag."""
        self.controlled[player].remove(card)
        runes = self.carried[card]
        self._to_pyramid(player, WHITE, True, runes[WHITE])
        runes[WHITE] = 0
        if self.mask[player] == card:
            self.mask[player] = None
        if how == "capture":
            self.lost[player] = True
        keep = min(self.cards.egregors[card].snake, sum(runes))
        self._push(*([("keep", player, card, keep, 0)] if keep else []), ("bag_rest", card, how))

    def _step_bag_rest(self, card: int, how: str) -> None:
        for kind in range(6):
            self.bag[kind] += self.carried[card][kind]
        del self.carried[card]
        if how == "disown":
            self.discard.append(card)  # O-disown-3

    # ------------------------------------------------------------------ choices inside the queue

    def _step_moves(self, step: tuple) -> list[Move]:
        name, player = step[0], step[1]
        if name == "draw":
            moves = [Move("draw", source=KINDS[k]) for k in range(6) if self.altar[k]]
            return moves + ([Move("draw", source="bag")] if sum(self.bag) else [])
        if name == "arcana":
            return [Move("arcana", card=self.cards.arcana[s[-1]].name, stack=i + 1)
                    for i, s in enumerate(self.arcana) if s]
        if name == "proliferate":
            card = step[2]
            if self.altar[RED] and self.runes_on(card) < CARRY:
                return [Move("proliferate"), Move("skip")]
            return []
        if name == "lightning":
            card = step[2]
            egregor = self.cards.egregors[card]
            if egregor.trigger == "lightning" and self._power_does_something(player, card):
                return [Move("power", card=egregor.name), Move("skip")]
            return []
        if name == "keep":
            _, _, card, left, least = step
            runes = self.carried[card]
            return [Move("keep", kind=KINDS[k]) for k in range(least, 6)
                    if runes[k] and sum(runes[k:]) >= left]
        if name == "cycle":
            _, _, left, colour, after = step
            spots = self._cycle_spots(player, colour)
            firsts = {(pos, c, k): i for i, (pos, c, k) in reversed(list(enumerate(spots)))}
            return [Move("cycle", card=self.cards.egregors[c].name, kind=KINDS[k])
                    for (pos, c, k), i in sorted(firsts.items(), key=lambda item: item[1])
                    if (pos, k) >= after and len(spots) - i >= left]
        if name == "key":
            _, _, keys, revealed, chosen = step
            key = keys[0]
            colours = len(self.colours_on(key))
            fits = [c for c in revealed if c not in chosen and self.cards.egregors[c].power != "key"
                    and (not self.cards.egregors[c].primitive or colours <= 1)]
            return [Move("replace", card=self.cards.egregors[key].name, other=self.cards.egregors[c].name)
                    for c in fits] + [Move("retain", card=self.cards.egregors[key].name)]
        if name == "reveal":
            return self._reveal_moves(step)
        raise AssertionError(f"unknown step {name}")

    def _cycle_spots(self, player: int, colour: int | None) -> list[tuple[int, int, int]]:
        """Every rune Runic Cycling may take, one entry per rune: (position, Egregor, kind), in order."""
        return [(pos, c, k) for pos, c in enumerate(self.controlled[player]) for k in range(6)
                if colour in (None, k) for _ in range(self.carried[c][k])]

    def _resolve(self, step: tuple, move: Move) -> None:
        name, player = step[0], step[1]
        if name == "draw":
            if move.source == "bag":
                self._bag_to(self.pyramid[player])
            else:
                kind = KINDS.index(move.source or "")
                self.altar[kind] -= 1
                self._to_pyramid(player, kind, True)
        elif name == "arcana":
            token = self.arcana[(move.stack or 0) - 1].pop()
            self.taken[player].append(token)
        elif name == "proliferate":
            if move.verb == "proliferate":
                self.altar[RED] -= 1
                self.carried[step[2]][RED] += 1
        elif name == "lightning":
            if move.verb == "power":
                self._use_power(player, step[2])
        elif name == "keep":
            _, _, card, left, _ = step
            kind = KINDS.index(move.kind or "")
            self.carried[card][kind] -= 1
            self._to_pyramid(player, kind, True)
            if left > 1:
                self._push(("keep", player, card, left - 1, kind))
        elif name == "cycle":
            _, _, left, colour, _ = step
            card, kind = self._card(move.card), KINDS.index(move.kind or "")
            self.carried[card][kind] -= 1
            self._to_pyramid(player, kind, True)
            if left > 1:
                self._push(("cycle", player, left - 1, colour, (self.controlled[player].index(card), kind)))
        elif name == "key":
            _, _, keys, revealed, chosen = step
            if move.verb == "replace":
                new = self._card(move.other)
                self._replace_key(player, keys[0], new)
                chosen = chosen | {new}
            if len(keys) > 1:
                self._push(("key", player, keys[1:], revealed, chosen))
            else:
                self.discard.extend(c for c in revealed if c not in chosen)  # O-power-7
        elif name == "reveal":
            self._resolve_reveal(step, move)
        else:
            raise AssertionError(f"unknown step {name}")

    def _card(self, name: str | None) -> int:
        index = self.cards.egregor_index(name or "")
        assert index is not None
        return index

    # ------------------------------------------------------------------ summon and capture runes

    def _reveal_moves(self, step: tuple) -> list[Move]:
        """The runes of a summon or capture, first colour then second (colours in kind order so that
        one set of runes is one line of moves; D-omega-4): at most 10, 2 colours (1 on a Primitive),
        no black; a capture reveals more than the target carries (O-summon-1, O-capture-1)."""
        _, player, action, card, first = step
        pyramid = self.pyramid[player]
        primitive = self.cards.egregors[card].primitive
        need = self.runes_on(card) + 1 if action == "capture" else 1
        if first is None:
            moves = []
            for a in range(N_COLOURS):
                for n in range(1, min(pyramid[a], CARRY) + 1):
                    best = 0 if primitive else max((min(pyramid[b], CARRY - n) for b in range(a + 1, N_COLOURS)), default=0)
                    if n + best >= need:
                        moves.append(Move("with", runes=(KINDS[a], n)))
            return moves
        a, n = first
        if primitive:
            return [Move("done")]
        moves = [Move("add", runes=(KINDS[b], m)) for b in range(a + 1, N_COLOURS)
                 for m in range(1, min(pyramid[b], CARRY - n) + 1) if n + m >= need]
        return ([Move("done")] if n >= need else []) + moves

    def _resolve_reveal(self, step: tuple, move: Move) -> None:
        _, player, action, card, first = step
        if move.verb == "with":
            kind, n = move.runes or ("", 0)
            self._push(("reveal", player, action, card, (KINDS.index(kind), n)))
            return
        runes = [0] * 6
        runes[first[0]] = first[1]
        if move.verb == "add":
            kind, m = move.runes or ("", 0)
            runes[KINDS.index(kind)] = m
        if action == "summon":
            self._push(("gain", player, card, tuple(runes), "summon"))
        else:
            victim = self.owner(card)
            assert victim is not None
            self._push(("lose", victim, card, "capture"), ("gain", player, card, tuple(runes), "capture"))

    # ------------------------------------------------------------------ powers

    def _power_does_something(self, player: int, card: int) -> bool:
        """Whether using the power changes anything (a power that would do nothing is not offered, D-omega-5)."""
        egregor = self.cards.egregors[card]
        if egregor.power == "cycle":
            return bool(self._cycle_spots(player, egregor.colour))
        if egregor.power == "fate":
            if egregor.colour is None:
                return sum(self.altar) + sum(self.bag) > 0
            return self.altar[egregor.colour] + self.bag[egregor.colour] > 0
        if egregor.power == "key":
            return bool(self.stack or self.discard)
        return egregor.power == "thrust" and egregor.n > 0

    def _use_power(self, player: int, card: int) -> None:
        egregor = self.cards.egregors[card]
        self.used.add(card)
        if egregor.power == "cycle":  # O-power-3, O-card-1
            spots = len(self._cycle_spots(player, egregor.colour))
            if spots:
                self._push(("cycle", player, min(egregor.n, spots), egregor.colour, (0, 0)))
        elif egregor.power == "thrust":  # O-power-4, O-card-7
            self._push(*self._advance(player, egregor.n))
        elif egregor.power == "fate":  # O-power-5, O-card-2
            draw = ("draw", player) if egregor.colour is None else ("coloured_draw", player, egregor.colour)
            self._push(*[draw] * egregor.n)
        elif egregor.power == "key":  # O-power-6, O-card-6
            keys = [c for c in self.controlled[player] if self.cards.egregors[c].power == "key"
                    and (c == card or (self.cards.egregors[c].trigger == "book" and c not in self.used))]
            self.used.update(keys)
            revealed = []
            for _ in range(sum(self.cards.egregors[c].n for c in keys)):
                top = self._top_of_stack()
                if top is None:
                    break
                revealed.append(top)
            self._push(("key", player, tuple(keys), tuple(revealed), frozenset()))

    def _replace_key(self, player: int, key: int, new: int) -> None:
        """O-power-7: the runes move without triggering, the Key goes to the discard pile, the Mask
        follows (or returns unplaced from a Renegade); the new Egregor's Book may be used this turn."""
        at = self.controlled[player].index(key)
        self.controlled[player][at] = new
        self.carried[new] = self.carried.pop(key)
        self.discard.append(key)
        if self.mask[player] == key:
            self.mask[player] = None if self.cards.egregors[new].renegade else new
        if self.gained == key:
            self.gained = new

    # ------------------------------------------------------------------ coloured draws

    def _step_coloured_draw(self, player: int, colour: int) -> None:
        """A coloured draw: from the Altar while it has that colour, else searched from the bag
        (public), else nothing (O-power-5)."""
        if self.altar[colour]:
            self.altar[colour] -= 1
            self._to_pyramid(player, colour, True)
        elif self.bag[colour]:
            self.bag[colour] -= 1
            self._to_pyramid(player, colour, True)

    # ------------------------------------------------------------------ the Main phase

    @property
    def final_turn(self) -> bool:
        """Whether the active player is playing a final turn (O-end-2): no captures then (O-end-4)."""
        return self.announcer is not None

    def can_capture(self, player: int, card: int) -> bool:
        """O-capture-2: not carrying 10, not masked, not its controller's only Egregor, not from a
        player who lost one by capture since his last turn, not in the final turn."""
        victim = self.owner(card)
        if victim is None or victim == player or self.final_turn or self.lost[victim]:
            return False
        return self.runes_on(card) < CARRY and self.mask[victim] != card and len(self.controlled[victim]) > 1

    def _turn_moves(self) -> list[Move]:
        """The active player's Main-phase moves, in this order: summon, capture, place, pair, black,
        mask, power, disown, end."""
        p = self.active
        names = self.cards.egregors
        pyramid = self.pyramid[p]
        own = self.controlled[p]
        moves: list[Move] = []
        colour_runes = sum(pyramid[:N_COLOURS])
        if self.gained is None and colour_runes:
            moves += [Move("summon", card=names[c].name) for c in self.gallery]
            for q in [(p + i) % self.n for i in range(1, self.n)]:
                for c in self.controlled[q]:
                    if self.can_capture(p, c) and self._reveal_moves(("reveal", p, "capture", c, None)):
                        moves.append(Move("capture", card=names[c].name))
        for c in own:
            for k in range(N_COLOURS):
                moves += [Move("place", card=names[c].name, runes=(KINDS[k], n))
                          for n in range(1, min(pyramid[k], CARRY) + 1) if self.accepts(c, k, n)]
        if pyramid[GREEN] >= 2:
            moves += [Move("pair", card=names[c].name, other=names[d].name)
                      for i, c in enumerate(own) for d in own[i + 1:]
                      if self.accepts(c, GREEN, 1) and self.accepts(d, GREEN, 1)]
        if pyramid[BLACK]:
            for q in [(p + i) % self.n for i in range(1, self.n)]:
                for c in self.controlled[q]:
                    runes = self.carried[c]
                    if runes[WHITE] < WHITES_AGAINST_BLACK:  # O-rune-7, O-rune-11
                        moves += [Move("black", card=names[c].name, kind=KINDS[k]) for k in range(6)
                                  if k != WHITE and runes[k]
                                  and not (k == BLACK and self.known[p][BLACK])]  # D-omega-11: no null move
        if not self.mask_moved:  # D-omega-6: once a turn reaches every end position
            moves += [Move("mask", card=names[c].name) for c in own
                      if not names[c].renegade and self.mask[p] != c]
        moves += [Move("power", card=names[c].name) for c in own
                  if names[c].trigger == "book" and c not in self.used and self._power_does_something(p, c)]
        if self.gained is not None and not self.disowned:
            moves += [Move("disown", card=names[c].name) for c in own if c != self.gained]
        if len(own) <= CONTROL:
            moves.append(Move("end"))
        return moves

    def _turn_move(self, move: Move) -> None:
        p = self.active
        verb = move.verb
        if verb in ("summon", "capture"):
            self._push(("reveal", p, verb, self._card(move.card), None))
        elif verb == "place":
            card = self._card(move.card)
            kind, n = move.runes or ("", 0)
            runes = [0] * 6
            runes[KINDS.index(kind)] = n
            self._from_pyramid(p, KINDS.index(kind), n)
            self._push(*self._placed(p, card, runes))
        elif verb == "pair":
            self._from_pyramid(p, GREEN, 2)
            for name in (move.card, move.other):
                self.carried[self._card(name)][GREEN] += 1
            self._push(("draw", p))
        elif verb == "black":  # O-rune-9: the black stays, the rune taken goes to the placer's Pyramid
            target, taken = self._card(move.card), KINDS.index(move.kind or "")
            self._from_pyramid(p, BLACK)
            self.carried[target][BLACK] += 1
            self.carried[target][taken] -= 1
            self._to_pyramid(p, taken, True)
        elif verb == "mask":
            self.mask[p], self.mask_moved = self._card(move.card), True
        elif verb == "power":
            self._use_power(p, self._card(move.card))
        elif verb == "disown":
            self.disowned = True
            self._push(("lose", p, self._card(move.card), "disown"))
        elif verb == "end":
            self._push(("end_phase", p))
        else:
            raise AssertionError(f"not a Main-phase move: {move}")
