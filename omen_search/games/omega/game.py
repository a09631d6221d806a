"""OMEGA as the tools see it: ``omega`` (two players), ``omega-3`` and ``omega-4``, one game per
player count (a count is a constant of a game, as its core has one C table per count);
``--game omega --players-count N`` names them. Both engines play it: the Cython core
(``ext/omega/_omega_core.pyx``, the default) and the reference engine."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from omen_search.documents import JsonReader
from omen_search.errors import RecordError, UsageError, shown
from omen_search.game import Game, Option, get_game, register
from omen_search.games.omega import render
from omen_search.games.omega import view as omega_view
from omen_search.games.omega.cards import CardSet, default_cards, load_cards
from omen_search.games.omega.notation import Move
from omen_search.games.omega.positions import state_from_observation
from omen_search.games.omega.reference import OmegaState
from omen_search.games.omega.rules import DEFAULT_MAX_TURNS, GAME, MAX_TURNS, PLAYER_COUNTS, Config


@dataclass(frozen=True)
class ScoreOutlook:
    """The end of the game ahead, if the best move is played (the advice's ``score_outlook``): the
    means over the best move's iterations, each a game played to its Judgment."""

    score: float  # the player's Judgment total (O-judge-1)
    best_opponent: float  # the best of the other players' totals
    turns_left: float  # turns of all players until the game ends

    def to_dict(self) -> dict[str, Any]:
        return {"score": self.score, "best_opponent": self.best_opponent, "turns_left": self.turns_left}


class OmegaGame(Game):
    """``omega`` / ``omega-3`` / ``omega-4`` (``docs/rules/omega-the-ritual.md``)."""

    engines = ("core", "reference")
    score_unit = "point"  # a Judgment total (O-judge-1)

    def __init__(self, players: int):
        self.players = players
        self.name = GAME if players == 2 else f"{GAME}-{players}"
        self.title = f"OMEGA: the ritual, {players} players"
        self.options = (
            Option("first_player", "the seat that takes the first turn", 0, tuple(range(players))),
            Option("max_turns", "judge the game after this many turns of all players, ruling D-omega-1",
                   DEFAULT_MAX_TURNS),
        )

    @property
    def family(self) -> str:
        return GAME

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def config(self, **options: Any) -> Config:
        self.check_options(options)
        return Config(players=self.players, first_player=options.get("first_player", 0),
                      max_turns=options.get("max_turns", DEFAULT_MAX_TURNS))

    def owns(self, config: Any) -> bool:
        return isinstance(config, Config) and config.players == self.players

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: CardSet | None = None,
                          config: Any = None) -> Any:
        if engine not in self.engines:
            raise UsageError(f"engine: unknown engine {engine!r} (expected one of {', '.join(self.engines)})")
        if engine == "core":
            from omen_search._omega_core import CoreState

            return CoreState.new(seed, cards, self.checked_config(config))
        return OmegaState.new(seed, cards, self.checked_config(config))

    def to_core(self, state: Any) -> Any:
        """The core state of a reference state: every zone, the step queue and the generator copied,
        so it has the same future (a position arranged by hand included)."""
        if hasattr(state, "game_handle"):
            return state
        if not isinstance(state, OmegaState):
            raise UsageError(f"search: {self.name} has no core copy of a {type(state).__name__}")
        from omen_search._omega_core import CoreState

        return CoreState.from_state(state)

    def from_observation(self, observation: Any, cards: Any = None, root: str = "observation") -> tuple[Any, int]:
        return state_from_observation(observation, cards or default_cards(), root)

    def adapter(self, cards: Any = None) -> Any:
        from omen_search.games.omega.adapter import OmegaAdapter

        return OmegaAdapter(self, cards if cards is not None else default_cards())

    # -- cards

    def default_cards(self) -> CardSet:
        return default_cards()

    def load_cards(self, path: str | Path | None = None) -> CardSet:
        return default_cards() if path is None else load_cards(path)

    def describe_cards(self, cards: CardSet | None) -> str:
        return render.describe_cards(cards or default_cards())

    def cards_json(self, cards: CardSet | None) -> dict[str, Any]:
        return render.cards_json(cards or default_cards())

    def cards_table(self, cards: CardSet | None) -> str:
        return render.cards_table(cards or default_cards())

    def card_names(self, cards: CardSet | None) -> tuple[str, ...]:
        cards = cards or default_cards()
        return tuple(e.name for e in cards.egregors) + tuple(a.name for a in cards.arcana)

    # -- advice

    outlook_key = "score_outlook"

    def outlook(self, state: Any, stats: tuple[float, ...], visits: int) -> tuple[ScoreOutlook, ...]:
        """The mean final totals and game length over the best move's iterations (the core's
        statistics: the player's total, the best opponent's, the turns left)."""
        if not visits or len(stats) < 3:
            return ()
        return (ScoreOutlook(stats[0] / visits, stats[1] / visits, stats[2] / visits),)

    def describe_outlook(self, items: tuple[Any, ...]) -> str:
        if not items:
            return ""
        (o,) = items
        return (f"after the best move: final total {o.score:.1f} against the best opponent's "
                f"{o.best_opponent:.1f}, the game over in {o.turns_left:.1f} turns (means)")

    # -- balance

    def card_played(self, move: Any) -> str | None:
        """An Egregor summoned or captured, an Arcanum taken: the balance report's "played"."""
        return move.card if move.verb in ("summon", "capture", "arcana") else None

    drawn_means = "controlled (an Egregor) or taken (an Arcana token) at some time in the game"

    def cards_held(self, state: Any, seat: int) -> set[str]:
        """The Egregors ``seat`` controls and its Arcana tokens: the balance report's "held"."""
        cards = state.cards
        return {cards.egregors[c].name for c in state.controlled[seat]} | {cards.arcana[t].name
                                                                          for t in state.taken[seat]}

    # -- records

    def game_of_document(self, data: Any, root: str, cards: Any = None) -> Game:
        """The member of the family a document's ``config.players`` names."""
        r = JsonReader(root)
        config = r.obj(r.get(r.obj(data, root), "config", root, {}), f"{root}.config")
        players = r.choice(r.get(config, "players", f"{root}.config", self.players), f"{root}.config.players",
                           PLAYER_COUNTS)
        return get_game(GAME if players == 2 else f"{GAME}-{players}")

    def record_header(self, state: Any) -> dict[str, Any]:
        c = state.config
        return {"cards": {"name": state.cards.name, "sha256": state.cards.sha256},
                "config": {"players": c.players, "first_player": c.first_player, "max_turns": c.max_turns}}

    def read_record_header(self, record: dict[str, Any], cards: Any) -> Config:
        r = JsonReader("record")
        meta = r.obj(r.get(record, "cards", "record"), "record.cards")
        if meta.get("sha256") != cards.sha256:
            raise RecordError(f"record.cards: played with card set {shown(meta.get('name'))}, not {cards.name!r}; "
                              "pass its --cards file")
        config = r.obj(r.get(record, "config", "record"), "record.config")
        players = r.choice(r.get(config, "players", "record.config"), "record.config.players", PLAYER_COUNTS)
        if players != self.players:
            raise RecordError(f"record.config.players: a game of {players} players, not {self.players}")
        return Config(players=players,
                      first_player=r.integer(r.get(config, "first_player", "record.config", 0),
                                             "record.config.first_player", 0, players - 1),
                      max_turns=r.integer(r.get(config, "max_turns", "record.config", DEFAULT_MAX_TURNS),
                                          "record.config.max_turns", 1, MAX_TURNS))

    def record_totals(self, state: Any) -> dict[str, Any]:
        return {"turns": state.turns}

    # -- for people

    def describe_board(self, state: Any, pov: int | None = None) -> str:
        if pov is not None:
            return render.describe_observation(state.observation(pov))
        board = render.describe_observation(state.observation(0), you=False)  # and every Pyramid:
        return board + "\n    pyramids: " + "; ".join(
            f"seat {p} {render.describe_runes(state.pyramid[p])}" for p in range(state.n))

    def describe_observation(self, observation: dict[str, Any], cards: Any = None) -> str:
        return render.describe_observation(observation)

    def turn_header(self, state: Any) -> str | None:
        return render.turn_header(state)

    def describe_result(self, state: Any) -> str:
        return render.describe_result(state)

    def decision_name(self, state: Any) -> str:
        return state.todo[0][0] if state.todo else state.phase

    # -- for a user interface

    def view(self, observation: dict[str, Any], cards: Any = None) -> dict[str, Any]:
        return omega_view.view(observation, cards or default_cards())

    def move_steps(self, move: Any) -> tuple[str, ...]:
        return omega_view.move_steps(move)


OMEGA_GAMES = tuple(register(OmegaGame(players)) for players in PLAYER_COUNTS)
