"""Heir to the Dunes at the table (:mod:`omen_search.table_rules`): two players, followed from one
seat.

The world is the reference engine (:class:`TableState`) with the user's view of chance: wherever a
hidden card shows itself to the user (a card the user draws, the card revealed for a Wealth, the
reward tile the user wins, the cards of a completed structure, the opponent's hand shown by an
effect) the engine asks for its name and moves that card there from the places the user cannot see
(the deck, the opponent's unknown hand cards, the cards beneath the structures, the face-down
tiles), swapping it with what was there. A card the opponent plays from its hidden hand is moved
into that hand the same way. What the user sees never changes by a swap (ruling D-table-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from omen_search.errors import NotationError
from omen_search.games.heir.cards import CardSet, default_cards
from omen_search.games.heir.notation import Move
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.render import god_name
from omen_search.games.heir.rules import START_HAND, Config, Pending
from omen_search.rng import Rng
from omen_search.table_rules import MissingSeenError, TableEventError, TableQuestion, TableRules

# the decisions in which the opponent may name a card of its hidden hand (or a face-down tile)
_FROM_HAND = ("reveal", "surge", "play_free", "offering", "discard")


class TableState(GameState):
    """The reference engine as the user at seat :attr:`user` sees chance (see the module)."""

    user: int = 0
    seen: Sequence[str] = ()  # the names the move being applied showed the user, in order
    said: int = 0  # how many of them were used
    witnessed: list[str] | None = None  # set: a true game, noting what the user sees instead of asking

    @classmethod
    def dealt(cls, cards: CardSet, config: Config, user: int, seen: Sequence[str]) -> TableState:
        """The deal: the user's hand and the first revealed card as ``seen`` names them."""
        state = cls(cards, config)
        state.user, state.seen, state.said = user, seen, 0
        state._setup(Rng(0))  # D-table-1: the hidden cards' places are made up, then moved as events show them
        state.run_to_decision()
        state._all_said()
        return state

    def clone(self) -> TableState:
        other = super().clone()
        other.user = self.user
        return other

    # ------------------------------------------------------------------ asking

    def _ask(self, prompt: str, choices: list[str], truth: str) -> str:
        """The name the user gives for a hidden card that shows (``truth``: what the world holds
        there; a witnessing game notes it)."""
        if self.witnessed is not None:
            self.witnessed.append(truth)
            return truth
        if self.said < len(self.seen):
            name = self.seen[self.said]
            self.said += 1
            if name not in choices:
                if name in self._names:
                    raise TableEventError(f"{prompt.rstrip('?')}: no {name} is left unseen")
                raise TableEventError(f"{prompt.rstrip('?')}: unknown card {name!r}")
            return name
        raise MissingSeenError(f"{prompt} (not said)",
                               TableQuestion("seen", self.user, prompt, choices=tuple(choices)))

    @property
    def _names(self) -> set[str]:
        return {u.name for u in self.units} | {r.name for r in self.cards.rewards}

    def _all_said(self) -> None:
        if self.said < len(self.seen):
            raise TableEventError(f"{len(self.seen) - self.said} card(s) named that it did not show you: "
                                  f"{', '.join(map(repr, self.seen[self.said:]))}")

    # ------------------------------------------------------------------ the hidden cards

    def hidden_units(self) -> list[int]:
        """Unit counts of the cards the user has not seen: the deck, the opponent's unknown hand
        cards and the cards beneath both structures."""
        opp = 1 - self.user
        counts = [self.hands[opp][t] - self.known[opp][t] + self.under[0][t] + self.under[1][t] for t in range(self.T)]
        for t in self.deck:
            counts[t] += 1
        return counts

    def hidden_tiles(self) -> list[int]:
        """The reward tiles the user has not seen: those in the cities and the opponent's unused ones."""
        return sorted([r for city in self.city_tiles for r in city] + self.unused[1 - self.user])

    def _unit_choices(self) -> list[str]:
        return [self.units[t].name for t, n in enumerate(self.hidden_units()) if n]

    def _swap_hidden(self, t: int, x: int, skip: str) -> bool:
        """Put ``x`` where a hidden copy of ``t`` lies (anywhere but ``skip``); False if none does."""
        if skip != "deck" and t in self.deck:
            self.deck[self.deck.index(t)] = x
            return True
        opp = 1 - self.user
        if skip != "hand" and self.hands[opp][t] > self.known[opp][t]:
            self.hands[opp][t] -= 1
            self.hands[opp][x] += 1
            return True
        for q in (0, 1):
            if skip != f"under{q}" and self.under[q][t]:
                self.under[q][t] -= 1
                self.under[q][x] += 1
                return True
        return False

    def _refill(self) -> None:
        if not self.deck and self.discard:  # H-deck-1, as _take_top does it
            self.deck, self.discard = self.discard, []
            self.rng.shuffle(self.deck)

    def _top_named(self, prompt: str) -> None:
        """The top card of the deck becomes the one the user names."""
        self._refill()
        if not self.deck:
            return
        t = self._id(self._ask(prompt, self._unit_choices(), self.units[self.deck[-1]].name))
        if self.deck[-1] == t:
            return
        if t in self.deck:
            i = self.deck.index(t)
            self.deck[i], self.deck[-1] = self.deck[-1], t
        elif self._swap_hidden(t, self.deck[-1], "deck"):
            self.deck[-1] = t
        else:  # pragma: no cover - the choices hold only hidden cards
            raise AssertionError(t)

    def _hold(self, counts: list[int], wanted: list[int], skip: str) -> None:
        """Make the hidden zone ``counts`` (the place ``skip`` names) hold ``wanted`` (named cards
        shown to the user), swapping with the other hidden places."""
        for t in range(self.T):
            while counts[t] < wanted[t]:
                x = next(u for u in range(self.T) if counts[u] > wanted[u])
                if not self._swap_hidden(t, x, skip):
                    raise TableEventError(f"no {self.units[t].name} is left unseen")
                counts[x] -= 1
                counts[t] += 1

    def _named_cards(self, prompt: str, pool: list[int], zone: list[int]) -> list[int]:
        """The cards of the hidden ``zone``, shown to the user, as they name them from ``pool``."""
        truth = [self.units[t].name for t, n in enumerate(zone) for _ in range(n)]
        wanted = [0] * self.T
        for k, true in enumerate(truth):
            choices = [self.units[t].name for t in range(self.T) if pool[t] > wanted[t]]
            wanted[self._id(self._ask(f"{prompt} (card {k + 1} of {len(truth)})?", choices, true))] += 1
        return wanted

    # ------------------------------------------------------------------ where hidden cards show

    def _draw(self, player: int, n: int) -> None:
        if player != self.user:
            super()._draw(player, n)
            return
        for k in range(n):
            self._top_named(f"turn {self.turn}: which card did you draw ({k + 1} of {n})?")
            super()._draw(player, 1)

    def _god_reveal(self) -> None:
        self._top_named(f"turn {self.turn}: which card was revealed for {god_name(self._god(self.active))}'s Wealth?")
        super()._god_reveal()

    def _resolve_war(self, city: int) -> None:
        before = list(self.unused[self.user])
        super()._resolve_war(city)
        if self.war_victor != self.user:
            return
        won = self.unused[self.user]
        drawn = next(r for r in won if r not in before)
        choices = sorted({self.cards.rewards[r].name for r in self.hidden_tiles() + [drawn]})
        name = self._ask(f"turn {self.turn}: which reward tile did you win in city{city}?", choices,
                         self.cards.rewards[drawn].name)
        r = self.cards.reward(name).index
        if r != drawn:
            for stack in (*self.city_tiles, self.unused[1 - self.user]):
                if r in stack:
                    stack[stack.index(r)] = drawn
                    break
            won.remove(drawn)
            won.append(r)
            won.sort()
            self.unused[1 - self.user].sort()

    def _phase_surge_start(self) -> None:
        p, slot = self.active, self.building[self.active]
        if slot >= 0 and sum(self.under[p]) >= self._structure(p, slot).build:  # it completes: its cards show
            pool = self.hidden_units()
            wanted = self._named_cards(f"turn {self.turn}: which cards were beneath {self._structure(p, slot).name}",
                                       pool, self.under[p])
            self._hold(self.under[p], wanted, f"under{p}")
        super()._phase_surge_start()

    def _op_reveal_hand_discard(self, e: Any, ref: tuple, index: int, owner: int, city: int) -> None:
        opp = 1 - owner
        if opp != self.user:
            pool = [n + k for n, k in zip(self.hidden_units(), self.known[opp])]
            wanted = self._named_cards(f"turn {self.turn}: which cards are in the opponent's hand", pool,
                                       self.hands[opp])
            if any(w < k for w, k in zip(wanted, self.known[opp])):
                raise TableEventError("the opponent's hand must hold the cards you know are in it")
            self._hold(self.hands[opp], wanted, "hand")
        super()._op_reveal_hand_discard(e, ref, index, owner, city)

    # ------------------------------------------------------------------ the opponent's hidden cards

    def bring(self, move: Move) -> None:
        """Before the opponent's ``move``: the card it names from its hand (or its face-down tile)
        is moved there if the user's world placed it elsewhere (a hidden card for a hidden card)."""
        opp = 1 - self.user
        if self.pending is None or self.pending.kind not in _FROM_HAND or move.card is None:
            return
        if move.verb == "use":
            self._bring_tile(move.card)
            return
        if self.pending.kind == "surge" and move.verb != "play" or move.card not in {u.name for u in self.units}:
            return
        t = self._id(move.card)
        if not self.hands[opp][t]:
            hidden = [x for x in range(self.T) if self.hands[opp][x] > self.known[opp][x]]
            if not hidden:
                raise TableEventError(f"{move.card} is not in the opponent's hand (every card in it is known)")
            if not self._into_hand(t, hidden[0]):
                raise TableEventError(f"{move.card} cannot be in the opponent's hand: no {move.card} is left unseen")
        if self.pending.kind == "discard":  # D-pick-1: the cards still to discard come at or after it
            self._after_in_hand(t, self.pending.n)

    def _into_hand(self, t: int, x: int) -> bool:
        """The opponent's hidden ``x`` changes places with a hidden ``t`` outside its hand."""
        if not self._swap_hidden(t, x, "hand"):
            return False
        opp = 1 - self.user
        self.hands[opp][x] -= 1
        self.hands[opp][t] += 1
        return True

    def _after_in_hand(self, t: int, n: int) -> None:
        """Make the opponent's hand hold ``n`` cards at or after ``t`` in card order, changing hidden
        cards before it for hidden ones after it, while there are any."""
        opp = 1 - self.user
        while sum(self.hands[opp][t:]) < n:
            low = [x for x in range(t) if self.hands[opp][x] > self.known[opp][x]]
            high = [y for y, k in enumerate(self.hidden_units()) if y >= t and k > self.hands[opp][y] - self.known[opp][y]]
            if not low or not high or not self._into_hand(high[0], low[0]):
                return

    def _bring_tile(self, name: str) -> None:
        opp = 1 - self.user
        try:
            r = self.cards.reward(name).index
        except KeyError:
            return  # not a tile: the legality check names it
        if r in self.unused[opp] or not self.unused[opp]:
            return
        for stack in self.city_tiles:
            if r in stack:
                stack[stack.index(r)] = self.unused[opp][0]
                self.unused[opp][0] = r
                self.unused[opp].sort()
                return


def witness(seed: int, config: Config, user: int, moves: Sequence[Move], cards: CardSet | None = None
            ) -> tuple[list[str], list[str], list[tuple[int, str, list[str]]]]:
    """A seeded game's set-up and moves as the user at seat ``user`` saw them: the starting hand,
    what the set-up showed beyond it, and each move as ``(seat, move, seen)`` (a table record's
    events; how a record of a game played here becomes a table record)."""
    state = TableState(cards if cards is not None else default_cards(), config)
    state.user, state.witnessed = user, []
    state._setup(Rng(seed))
    hand, state.witnessed = state.witnessed, []
    state.run_to_decision()
    seen = list(state.witnessed)
    events = []
    for move in moves:
        seat = state.current_player
        state.witnessed = []
        state.apply(move)
        events.append((seat, str(move), list(state.witnessed)))
    return hand, seen, events


class HeirTable(TableRules):
    """:class:`TableRules` of two-player Heir (not the solo game, not the Emissary variant)."""

    HAND_VERBS: ClassVar[tuple[str, ...]] = ("play", "offer", "build", "discard", "reveal")

    def hand_choices(self, config: Any, cards: Any) -> tuple[int, tuple[str, ...]]:
        return START_HAND, tuple(u.name for u in (cards if cards is not None else default_cards()).units)

    def start(self, config: Any, cards: Any, seat: int, hand: Sequence[str], seen: Sequence[str]) -> TableState:
        if config.emissary:
            raise TableEventError("the Emissary of War variant cannot be followed at the table yet")
        if len(hand) != START_HAND:
            raise TableEventError(f"a starting hand holds {START_HAND} cards, got {len(hand)}")
        cards = cards if cards is not None else default_cards()
        return TableState.dealt(cards, config, seat, [*hand, *seen])

    def apply(self, world: Any, seat: int, move: Any, seen: Sequence[str]) -> TableState:
        if world.is_terminal():
            raise TableEventError("the game is over")
        you = world.user
        if seat != world.current_player:
            kind = world.pending.kind
            raise TableEventError(f"it is {'your' if world.current_player == you else 'the opponent’s'} "
                                  f"{kind} decision, not {'yours' if seat == you else 'the opponent’s'}")
        if isinstance(move, str):
            try:
                move = Move.parse(move)
            except NotationError as exc:
                raise TableEventError(str(exc)) from None
        after = world.clone()
        after.seen, after.said = seen, 0
        if seat != you:
            if self._reveal_or_not(after, move):
                return after
            after.bring(move)
        if move not in after.legal_moves():
            raise TableEventError(self._why_not(after, move))
        after.apply_trusted(move)
        after._all_said()
        return after

    @staticmethod
    def _reveal_or_not(world: TableState, move: Move) -> bool:
        """D-table-2: whether the opponent may reveal again (H-wealth-1) depends on its hidden hand:
        its Wealth without a reveal passes the reveal, its reveal opens one, and its ``pass`` where
        the world had no reveal to pass is all done (True: nothing is left to apply)."""
        kind = world.pending.kind if world.pending is not None else None
        if kind == "reveal" and move.verb == "wealth":
            world.apply(Move("pass"))
        elif kind == "wealth" and not world.reveal_again_used:
            if move.verb == "reveal":
                world.pending = Pending("reveal", world.current_player)
            return move.verb == "pass"
        return False

    def _why_not(self, world: TableState, move: Move) -> str:
        assert world.pending is not None  # the game is not over
        kind = world.pending.kind
        names = {u.name for u in world.units} | {r.name for r in world.cards.rewards} | \
            {s.name for s in world.cards.structures}
        for name in (move.card, move.target):
            if name is not None and name not in names:
                return f"unknown card {name!r}"
        you = world.current_player == world.user
        units = {u.name: u.index for u in world.units}
        if you and move.verb in self.HAND_VERBS and kind in _FROM_HAND and move.card is not None:
            if move.card not in units:
                return f"{move.card} is not a unit"
            if not world.hands[world.user][units[move.card]]:
                return f"{move.card} is not in your hand"
        if you and move.verb == "use" and move.card not in [world.cards.rewards[r].name for r in world.unused[world.user]]:
            return f"{move.card} is not one of your unused reward tiles"
        who = "you" if you else "the opponent"
        return f"{who} cannot {move} now ({kind} decision)"

    def ask(self, world: Any) -> TableQuestion:
        if world.is_terminal():
            # the opponent's VP counts TREASURED cards in its hand, which the user has not seen
            return TableQuestion("over", world.user, f"the game is over: you have {world.scores()[world.user]} VP")
        seat, kind = world.current_player, world.pending.kind
        if seat == world.user:
            return TableQuestion("decision", seat, f"turn {world.turn}: your decision ({kind})",
                                 tuple(world.legal_moves()))
        return TableQuestion("decision", seat, f"turn {world.turn}: the opponent's decision ({kind})",
                             tuple(self._opponent_moves(world)))

    def _opponent_moves(self, world: TableState) -> list[Move]:
        """Every move the opponent could make: legal in a world where its hand (and its unused tiles)
        held one more of every card the user has not seen (as many more as it has cards to discard)."""
        opp = 1 - world.user
        wide = world.clone()
        assert world.pending is not None
        if world.pending.kind in _FROM_HAND and world.hand_size(opp) > sum(world.known[opp]):
            more = world.pending.n if world.pending.kind == "discard" else 1  # D-pick-1: the picks after it too
            wide.hands[opp] = [n + min(h, more) for n, h in zip(wide.hands[opp], world.hidden_units())]
        if world.unused[opp]:
            wide.unused[opp] = sorted(set(world.hidden_tiles()))
        moves = set(wide.legal_moves())
        if world.pending.kind == "wealth" and not world.reveal_again_used and world.hand_size(opp) > sum(world.known[opp]):
            hidden = world.hidden_units()
            moves |= {Move("reveal", card=u.name) for t, u in enumerate(world.units) if hidden[t] and u.neutral}
        if world.pending.kind == "reveal":  # its Wealth passes the reveal (D-table-2)
            passed = world.clone()
            passed.apply(Move("pass"))
            moves |= set(passed.legal_moves())
        return sorted(moves, key=lambda m: (m.verb, str(m)))

    def observation(self, world: Any) -> dict[str, Any]:
        return world.observation(world.user)
