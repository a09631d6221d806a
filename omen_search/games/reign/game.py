"""Reign of War as the tools see it: ``reign-of-war``, two players, with its variants as options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omen_search.errors import UsageError
from omen_search.game import ENGINES, Game, Option, register
from omen_search.games.reign import positions, render
from omen_search.games.reign.cards import CardSet, default_cards, load_cards
from omen_search.games.reign.heuristic import evaluate
from omen_search.games.reign.notation import Move
from omen_search.games.reign.observe import observe, written_config
from omen_search.games.reign.reference import GameState
from omen_search.games.reign.rules import DECK_HELP, DECKS, DEFAULT_MAX_TURNS, GAME, Config

HIDDEN_CHOICE = "(face down)"  # an opponent's emissary or Simplified-draft pick, as the other seat sees it


def parse_decks(text: str) -> tuple[tuple[str, ...], ...]:
    """``--decks "A,B,…;C,D,…"``: each seat's 10 design names, seat 0's first."""
    if not text:
        return ()
    seats = text.split(";")
    if len(seats) != 2:
        raise UsageError(f"decks: must be two lists of design names separated by ';', got {text!r}")
    return tuple(tuple(name.strip() for name in seat.split(",") if name.strip()) for seat in seats)


def new_game(engine: str, seed: int, cards: CardSet | None, config: Config) -> Any:
    """A new game on the named engine; the same seed deals the same game on both."""
    if engine == "reference":
        return GameState.new(seed=seed, cards=cards, config=config)
    if engine == "core":
        from omen_search._reign_core import CoreState

        return CoreState.new(seed=seed, cards=cards, config=config)
    raise UsageError(f"engine: unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")


class ReignGame(Game):
    """``reign-of-war``: the base two-player game and its variants (``docs/rules/reign-of-war.md``)."""

    name = GAME
    title = "Omen: A Reign of War (second edition), two players"
    short_title = "Omen: A Reign of War"
    identifier = "reign"  # type: ignore[assignment]  # OpenSpiel's omen_reign
    players = 2
    options = (
        Option("first_player", "the seat that takes the first turn", 0, (0, 1)),
        Option("emissary", "play the Emissary of War variant", False, (False, True)),
        Option("beginner", "only the beginner (one-circle) units, R-var-1", False, (False, True)),
        Option("deck", "the deck variant (" + "; ".join(f"{k}: {v}" for k, v in DECK_HELP.items())
               + ")", "shared", DECKS),
        Option("decks", "with --deck build: each seat's 10 design names, 'A,B,...;C,D,...'", ""),
        Option("catch_up", "the optional catch-up wealth actions, R-wealth-4", False, (False, True)),
        Option("max_turns", "end the game after this many turns, ruling D-end-2", DEFAULT_MAX_TURNS),
    )

    def config(self, **options: Any) -> Config:
        self.check_options(options)
        decks = options.get("decks", "")
        return Config(first_player=options.get("first_player", 0), emissary=options.get("emissary", False),
                      beginner=options.get("beginner", False), deck=options.get("deck", "shared"),
                      decks=parse_decks(decks) if isinstance(decks, str) else decks,
                      catch_up=options.get("catch_up", False),
                      max_turns=options.get("max_turns", DEFAULT_MAX_TURNS))

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def owns(self, config: Any) -> bool:
        return isinstance(config, Config)

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: CardSet | None = None,
                          config: Any = None) -> Any:
        if config is None:
            config = self.config()
        elif not self.owns(config):
            raise UsageError(f"config: {config!r} does not set up {self.name}")
        return new_game(engine, seed, cards, config)

    # -- cards

    def default_cards(self) -> CardSet:
        return default_cards()

    def load_cards(self, path: str | Path | None = None) -> CardSet:
        return load_cards(path)

    def describe_cards(self, cards: CardSet) -> str:
        return render.describe_cards(cards)

    def cards_json(self, cards: CardSet) -> dict[str, Any]:
        return render.cards_json(cards)

    def cards_table(self, cards: CardSet) -> str:
        return render.cards_table(cards)

    def card_names(self, cards: CardSet) -> tuple[str, ...]:
        return tuple(c.name for kind in (cards.units, cards.rewards) for c in kind)

    # -- what a player sees

    def observe(self, state: Any, player: int) -> dict[str, Any]:
        return observe(state, player)

    def from_observation(self, observation: Any, cards: Any = None, root: str = "observation") -> tuple[Any, int]:
        return positions.state_from_observation(observation, cards, root)

    def game_of_document(self, data: Any, root: str, cards: Any = None) -> Game:
        return positions.document_game(data, root, cards)

    def describe_observation(self, observation: dict[str, Any], cards: Any = None) -> str:
        state, me = positions.state_from_observation(observation, cards)
        hand = ", ".join(state.units[t].name + (f" x{n}" if n > 1 else "") for t, n in enumerate(state.hands[me]) if n)
        rewards = ", ".join(state.cards.rewards[r].name for r in state.rewards_hand[me])
        return (f"{render.describe_board(state, pov=me)}\n    your hand: {hand or '-'}"
                + (f"\n    your reward cards: {rewards}" if rewards else ""))

    def to_core(self, state: Any) -> Any:
        if hasattr(state, "game_handle"):
            return state
        from omen_search._reign_core import CoreState

        return CoreState.from_state(state)

    def public_move(self, state: Any, move: Any, pov: int) -> str:
        hidden = move.verb in ("emissary", "pick") and state.current_player != pov
        return HIDDEN_CHOICE if hidden else str(move)

    hidden_move = HIDDEN_CHOICE

    # -- positions and records

    def load_position(self, data: Any, cards: Any = None, root: str = "position") -> GameState:
        return positions.load_position(data, cards, root)

    def to_position(self, state: Any) -> dict[str, Any]:
        return positions.to_position(state)

    def record_header(self, state: Any) -> dict[str, Any]:
        return {"ruleset": state.cards.ruleset, "cards": {"name": state.cards.name, "sha256": state.cards.sha256},
                "config": written_config(state.config)}

    def read_record_header(self, record: dict[str, Any], cards: Any) -> Config:
        return positions.read_record_header(record, cards)

    def record_totals(self, state: Any) -> dict[str, Any]:
        return {"turns": state.turn}

    # -- for people

    def describe_board(self, state: Any, pov: int | None = None) -> str:
        return render.describe_board(state, pov)

    def turn_header(self, state: Any) -> str | None:
        return render.turn_header(state)

    def describe_move(self, state: Any, move: Any) -> str:
        return render.describe_move(state, move)

    def describe_result(self, state: Any) -> str:
        return render.describe_result(state)

    def decision_name(self, state: Any) -> str:
        return state.pending.kind if state.pending is not None else "none"

    # -- for the tools

    def evaluate(self, state: Any, player: int) -> float:
        return evaluate(state, player)

    def adapter(self, cards: Any = None) -> Any:
        from omen_search.games.reign.adapter import ReignAdapter

        return ReignAdapter(self, cards if cards is not None else default_cards())

    def card_played(self, move: Any) -> str | None:
        return move.card if move.verb in ("play", "beast") else None

    def cards_held(self, state: Any, seat: int) -> set[str]:
        return {state.units[t].name for t, n in enumerate(state.hands[seat]) if n}


REIGN = register(ReignGame())
