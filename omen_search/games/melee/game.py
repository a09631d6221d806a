"""The Grand Melee as the tools see it: ``reign-of-war-melee``, four players (R-melee-*)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from omen_search.errors import FormatError, UsageError
from omen_search.game import ENGINES, Game, Option, register
from omen_search.games.melee.observe import written_config
from omen_search.games.melee.reference import MeleeState
from omen_search.games.melee import sdraft
from omen_search.games.melee.rules import DRAFT, DRAFTS, GAME, MATCH_CARDS, PLAYERS, MeleeConfig, TableResult
from omen_search.games.reign import positions as reign_positions
from omen_search.games.reign import render as reign_render
from omen_search.games.reign.game import ReignCards, ReignGame
from omen_search.games.reign.cards import CardSet, default_cards
from omen_search.games.reign.heuristic import evaluate as table_evaluate
from omen_search.games.reign.rules import DEFAULT_MAX_TURNS, GAME as REIGN_GAME
from omen_search.rng import Rng

HIDDEN_MOVE = "(hidden move)"  # a move at the other table, or a face-down choice, as a seat sees it
DRAFT_VERBS = ("draft", "pick")  # a design stack (R-melee-4), a card of a pack (R-sdraft-1)
WIN_VALUE = 100.0  # the greedy bot's worth of a Victory card, above any table game's evaluation


def new_game(engine: str, seed: int, cards: CardSet | None, config: MeleeConfig) -> Any:
    """A new Grand Melee on the named engine; the same seed deals the same match on both."""
    if engine == "reference":
        return MeleeState.new(seed=seed, cards=cards, config=config)
    if engine == "core":
        from omen_search._reign_core import MeleeCore

        return MeleeCore.new(seed=seed, cards=cards, config=config)
    raise UsageError(f"engine: unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")


class MeleeGame(ReignCards, Game):
    """``reign-of-war-melee``: four players draft design stacks together, then play knockout table
    games of Reign of War (``docs/rules/reign-of-war.md``, Grand Melee)."""

    name = GAME
    title = "Omen: A Reign of War, the Grand Melee: four players, a shared draft, knockout table games"
    short_title = "Omen: A Reign of War — Grand Melee"
    identifier = "reign_melee"  # type: ignore[assignment]
    players = PLAYERS
    variant_of = (REIGN_GAME, "melee")  # omen-search play --game reign-of-war --melee
    options = (
        Option("emissary", "play the Emissary of War variant", False, (False, True)),
        Option("catch_up", "the optional catch-up wealth actions, R-wealth-4", False, (False, True)),
        Option("max_turns", "end the game after this many turns, ruling D-end-2", DEFAULT_MAX_TURNS),
        Option("draft", "the draft: card (Card Drafting: design stacks, R-melee-4) or simplified (packs of cards "
               "passed round the table, D-melee-4)", "card", DRAFTS),
    )

    def config(self, **options: Any) -> MeleeConfig:
        self.check_options(options)
        return MeleeConfig(emissary=options.get("emissary", False), catch_up=options.get("catch_up", False),
                           max_turns=options.get("max_turns", DEFAULT_MAX_TURNS), draft=options.get("draft", "card"))

    def owns(self, config: Any) -> bool:
        return isinstance(config, MeleeConfig)

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: CardSet | None = None,
                          config: Any = None) -> Any:
        return new_game(engine, seed, cards, self.checked_config(config))

    # -- what a player sees

    def from_observation(self, observation: Any, cards: Any = None, root: str = "observation") -> tuple[Any, int]:
        return state_from_observation(observation, cards if cards is not None else default_cards(), root)

    def to_core(self, state: Any) -> Any:
        if hasattr(state, "game_handle"):
            return state
        from omen_search._reign_core import MeleeCore

        return MeleeCore.from_state(state)

    def public_move(self, state: Any, move: Any, pov: int) -> str:
        """A stack drafted is public, a card picked face down (R-sdraft-3); a table move only at its
        table, where an emissary is face down."""
        if state.phase == DRAFT:
            return str(move) if move.verb == "draft" or state.current_player == pov else HIDDEN_MOVE
        seats = state.table_seats
        if pov not in seats or (move.verb in ("emissary", "pick") and state.current_player != pov):
            return HIDDEN_MOVE
        return str(move)

    hidden_move = HIDDEN_MOVE

    # -- records

    def record_header(self, state: Any) -> dict[str, Any]:
        return {"ruleset": state.cards.ruleset, "cards": {"name": state.cards.name, "sha256": state.cards.sha256},
                "config": written_config(state.config)}

    def read_record_header(self, record: dict[str, Any], cards: Any) -> MeleeConfig:
        config = record.get("config", {})
        if not isinstance(config, dict):
            raise FormatError("record.config: must be an object")
        unknown = set(config) - {f.name for f in fields(MeleeConfig)}
        if unknown:
            raise FormatError(f"record.config: unknown fields {sorted(unknown)}")
        return MeleeConfig(**config)

    # -- for people

    def describe_board(self, state: Any, pov: int | None = None) -> str:
        lines = [f"  draft: {state.phase}, stacks left {len(state.pool)}"] if state.phase == DRAFT else []
        for i, r in enumerate(state.results):
            if pov is None or state.result_seen(i, pov):
                lines.append(f"  table game {i + 1}: seats {r.seats[0]} and {r.seats[1]}, seat {r.winner} won "
                             f"{r.scores[0]}-{r.scores[1]}" + (" (a draw, R-melee-7)" if r.drawn else ""))
        table = state.table
        if table is not None and (pov is None or pov in state.table_seats):
            a, b = state.table_seats
            lines.append(f"  table game {len(state.results) + 1}: seat {a} (table seat 0) against seat {b}")
            lines.append(reign_render.describe_board(table, None if pov is None else state.table_seats.index(pov)))
        return "\n".join(lines)

    def describe_result(self, state: Any) -> str:
        wins = state.scores()
        order = sorted(range(PLAYERS), key=lambda p: -wins[p])
        return "Grand Melee over: " + ", ".join(f"seat {p} {wins[p]} Victory card{'s' if wins[p] != 1 else ''}"
                                                for p in order)

    def decision_name(self, state: Any) -> str:
        if state.phase == DRAFT:
            return "draft"
        table = state.table
        return table.pending.kind if table is not None and table.pending is not None else "none"

    # -- for the tools

    card_played = ReignGame.card_played  # a table move plays a card as in Reign of War

    def card_drafted(self, move: Any) -> str | None:
        return move.card if move.verb in DRAFT_VERBS else None

    def cards_held(self, state: Any, seat: int) -> set[str]:
        """The unit cards in ``seat``'s hand at the table game in play (none away from it)."""
        table = state.table
        if table is None or seat not in state.table_seats:
            return set()
        return {state.units[t].name for t, n in enumerate(table.hands[state.table_seats.index(seat)]) if n}

    def evaluate(self, state: Any, player: int) -> float:
        """Victory cards first; at the player's own table, Reign of War's evaluation of it."""
        value = WIN_VALUE * state.scores()[player]
        table = state.table
        if table is not None and player in state.table_seats:
            value += table_evaluate(table, state.table_seats.index(player))
        return value


def state_from_observation(data: Any, cards: CardSet, root: str = "observation") -> tuple[MeleeState, int]:
    """A Grand Melee that the observing player would observe exactly as ``data``, and that player.

    What the player cannot see is made up: the other match cards (in seat order), in a Simplified
    draft what the player has not seen of the packs and picks (dealt from seed 0), the winners of
    the table games whose result they do not see (the older player), the generator (seed 0); a
    determinisation deals them again. Raises :class:`FormatError` naming a bad field."""
    if not isinstance(data, dict):
        raise FormatError(f"{root}: must be a JSON object")
    if data.get("game") != GAME:
        raise FormatError(f"{root}.game: must be {GAME!r}, got {data.get('game')!r}")
    try:
        config = MeleeConfig(**data.get("config", {}))
        me = data["player"]
        if me not in range(PLAYERS) or isinstance(me, bool):
            raise FormatError(f"{root}.player: must be 0 to {PLAYERS - 1}, got {me!r}")
        state = MeleeState(cards, config)
        state.rng = Rng(0)
        state.phase = data["phase"]
        state.pool = [cards.unit(name).index for name in data["stacks"]]
        if "sdraft" in data:  # R-sdraft-3: the other players' picks face down
            view = data["sdraft"]
            state.picks = view["picks"]
            mine = [cards.unit(name).index for name in data["drafted"][me]]
            held = [[cards.unit(name).index for name in pack] for pack in view["held"]]
            r, t, seat = sdraft.position(state.picks)
            if not 0 <= state.picks < config.picks or len(mine) != 10 * r + t + (me < seat) \
                    or len(held) != 10 * r + t + 1:
                raise FormatError(f"{root}.sdraft: {len(mine)} picks and {len(held)} packs held do not fit pick "
                                  f"{state.picks} of player {me}")
            state.dealt, state.drafted, state.pool = sdraft.deal_unseen(state.unit_cards(), held, mine, me,
                                                                        state.picks, Rng(0).shuffle)
        else:
            state.drafted = [[cards.unit(name).index for name in d] for d in data["drafted"]]
            state.picks = sum(len(d) for d in state.drafted)
        match = data["match"]
        left = list(MATCH_CARDS)
        left.remove(match[me])
        state.match = [card if card is not None else left.pop(0) for card in match]
        state.results = [TableResult(tuple(r["seats"]), r["winner"] if r["winner"] is not None else min(r["seats"]),
                                     bool(r.get("drawn", False)), tuple(r.get("scores", (0, 0))))
                         for r in data["results"]]
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise FormatError(f"{root}: not a Grand Melee observation ({exc})") from None
    if data["table"] is not None:
        table, seat = reign_positions.state_from_observation(data["table"], cards, f"{root}.table")
        state.table, state.table_seats = table, tuple(data["table_seats"])
        if state.table_seats[seat] != me:
            raise FormatError(f"{root}.table_seats: player {me} is not at table seat {seat}")
    return state, me


MELEE = register(MeleeGame())
