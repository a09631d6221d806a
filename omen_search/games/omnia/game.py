"""OMNIA as the tools see it: ``omnia`` (two players), ``omnia-3`` and ``omnia-4``, one game per
player count, as OMEGA's (a count is a constant of a game, as its core has one C table per count);
``--game omnia --players-count N`` names them. Both engines play it: the Cython core
(``ext/omnia/_omnia_core.pyx``, the default) and the reference engine."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from omen_search.documents import JsonReader
from omen_search.errors import RecordError, UsageError, shown
from omen_search.game import Game, Option, get_game, register
from omen_search.games.omnia import render
from omen_search.games.omnia.cards import CardSet, default_cards, load_cards
from omen_search.games.omnia.heuristic import evaluate
from omen_search.games.omnia.notation import Move
from omen_search.games.omnia.positions import state_from_observation
from omen_search.games.omnia.reference import OmniaState
from omen_search.games.omnia.rules import (
    DEFAULT_MAX_TURNS,
    GAME,
    MAX_TURNS,
    PLAYER_COUNTS,
    Config,
    default_flavors,
    rotated_flavors,
)

ROTATE = "rotate"  # --flavors rotate: a match deals the flavors by rotation (rules.rotated_flavors)


def _flavors(text: Any, field: str) -> tuple[str, ...]:
    """``ember,tide`` as a tuple of names (checked against the card set when a game is dealt)."""
    if not isinstance(text, str) or not text.strip():
        raise UsageError(f"{field}: flavor names, comma-separated (ember,tide), or {ROTATE}, got {text!r}")
    return tuple(f.strip() for f in text.split(","))


class OmniaGame(Game):
    """``omnia`` / ``omnia-3`` / ``omnia-4`` (``docs/rules/omnia.md``)."""

    engines = ("core", "reference")
    score_unit = "point"  # prestige plus life (N-score-2)

    def __init__(self, players: int):
        self.players = players
        self.name = GAME if players == 2 else f"{GAME}-{players}"
        self.title = f"OMNIA, {players} players"
        seed_flavors = ",".join(default_flavors(players, tuple(f.name for f in default_cards().flavors)))
        self.options = (
            Option("flavors", "each seat's flavor, seat 0 first, comma-separated; without it, the card set's "
                              f"first flavors; '{ROTATE}': a match deals each flavor to each seat in turn, game by "
                              "game, seat 0 first unless --first-player (docs/balance.md)", seed_flavors),
            Option("first_player", "the seat that takes the first turn; without it, drawn from the seed (N-setup-4)",
                   None, tuple(range(players))),
            Option("max_turns", "judge the game after this many turns of all players, ruling D-omnia-1",
                   DEFAULT_MAX_TURNS),
        )

    @property
    def family(self) -> str:
        return GAME

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def config(self, **options: Any) -> Config:
        self.check_options(options)
        flavors = options.get("flavors")
        rotate = flavors == ROTATE
        first = options.get("first_player")
        return Config(players=self.players,
                      flavors=_flavors(flavors, "flavors") if flavors is not None and not rotate else (),
                      first_player=0 if rotate and first is None else first,
                      max_turns=options.get("max_turns", DEFAULT_MAX_TURNS), rotate=rotate)

    def owns(self, config: Any) -> bool:
        return isinstance(config, Config) and config.players == self.players

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: CardSet | None = None,
                          config: Any = None) -> Any:
        if engine not in self.engines:
            raise UsageError(f"engine: unknown engine {engine!r} (expected one of {', '.join(self.engines)})")
        if engine == "core":
            from omen_search._omnia_core import CoreState

            return CoreState.new(seed, cards, self.checked_config(config))
        return OmniaState.new(seed, cards, self.checked_config(config))

    def to_core(self, state: Any) -> Any:
        """The core state of a reference state: every zone, the Flow, the step queue and the
        generator copied, so it has the same future (a position arranged by hand included)."""
        if hasattr(state, "game_handle"):
            return state
        if not isinstance(state, OmniaState):
            raise UsageError(f"search: {self.name} has no core copy of a {type(state).__name__}")
        from omen_search._omnia_core import CoreState

        return CoreState.from_state(state)

    def from_observation(self, observation: Any, cards: Any = None, root: str = "observation") -> tuple[Any, int]:
        return state_from_observation(observation, cards or default_cards(), root)

    def adapter(self, cards: Any = None) -> Any:
        from omen_search.games.omnia.adapter import OmniaAdapter

        return OmniaAdapter(self, cards if cards is not None else default_cards())

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
        return tuple(c.name for c in (cards or default_cards()).cards)

    def public_move(self, state: Any, move: Any, pov: int) -> str:
        """A Prime spell primed is face down (N-hidden-2): others see that a card was primed."""
        if move.verb == "prime" and pov != state.current_player:
            return "prime (a face-down card)"
        return str(move)

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
                "config": {"players": c.players, "flavors": [state.cards.flavors[f].name for f in state.flavor],
                           "first_player": c.first_player, "max_turns": c.max_turns}}

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
        flavors = r.get(config, "flavors", "record.config", [])
        if not isinstance(flavors, list) or not all(isinstance(f, str) for f in flavors):
            raise RecordError(f"record.config.flavors: a list of flavor names, got {shown(flavors)}")
        first = r.get(config, "first_player", "record.config", None)
        try:
            return Config(players=players, flavors=tuple(flavors),
                          first_player=None if first is None else r.integer(first, "record.config.first_player", 0,
                                                                            players - 1),
                          max_turns=r.integer(r.get(config, "max_turns", "record.config", DEFAULT_MAX_TURNS),
                                              "record.config.max_turns", 1, MAX_TURNS))
        except UsageError as exc:
            raise RecordError(f"record.config: {exc}") from None

    def record_totals(self, state: Any) -> dict[str, Any]:
        return {"turns": state.turns}

    # -- matches and balance

    def match_config(self, config: Config, deal_bits: int, deal: int = 0, cards: Any = None) -> Config:
        """The deal's flavors by name: ``--flavors rotate`` deals them by :func:`rotated_flavors`
        (deal ``deal`` of the rotation), else the named ones or the set's first."""
        names = tuple(f.name for f in (cards or default_cards()).flavors)
        if config.rotate:
            return replace(config, flavors=rotated_flavors(self.players, names, deal), rotate=False)
        return replace(config, flavors=config.flavors or default_flavors(self.players, names))

    def seat_labels(self, config: Config) -> tuple[str, ...]:
        """Each seat's flavor (of a match rotating them: every flavor of the built-in set, the
        order of the report's rows by flavor)."""
        names = tuple(f.name for f in default_cards().flavors)
        return config.flavors or (names if config.rotate else default_flavors(self.players, names))

    labels_key = "flavors"

    def card_played(self, move: Any) -> str | None:
        """A card played from hand (a source card too) or a primed spell cast: the balance
        report's "played"."""
        return move.card if move.verb in ("play", "cast", "source") else None

    drawn_means = ("owned: in the starting deck or bought, at some time in the game (a bought card counts "
                   "whether or not it was drawn)")

    def cards_held(self, state: Any, seat: int) -> set[str]:
        return {state.name(c) for c in state.hand[seat]}

    def cards_drawn(self, state: Any, seat: int) -> set[str]:
        """The cards ``seat`` owns (N-score-1: deck, hand, discard stack, playfield, primed), by name."""
        ref = state.view() if hasattr(state, "game_handle") else state
        return {ref.name(c) for zone in (ref.deck, ref.hand, ref.discard, ref.field, ref.primed)
                for c in zone[seat]}

    card_label = "flavor"
    score_means = "prestige + life, N-score-2"

    def balance_cards(self, cards: CardSet | None) -> list[dict[str, Any]]:
        """Every card design of the set, the basic cards first, each with its flavor (``basic``)."""
        return [{"name": c.name, "flavor": c.flavor or "basic", "copies": c.copies, "source": c.source}
                for c in (cards or default_cards()).cards]

    # -- for the tools

    def evaluate(self, state: Any, player: int) -> float:
        """The greedy bot's judgement: deck building's basics (``heuristic``)."""
        return evaluate(state, player)

    # -- for people

    def describe_board(self, state: Any, pov: int | None = None) -> str:
        if pov is not None:
            return render.describe_observation(state.observation(pov))
        board = render.describe_observation(state.observation(0), you=False)  # and every hand:
        return board + "\n    hands: " + "; ".join(
            f"seat {p} {', '.join(state.name(c) for c in state.hand[p]) or '-'}" for p in range(state.n))

    def describe_observation(self, observation: dict[str, Any], cards: Any = None) -> str:
        return render.describe_observation(observation)

    def turn_header(self, state: Any) -> str | None:
        return render.turn_header(state)

    def describe_result(self, state: Any) -> str:
        return render.describe_result(state)

    def decision_name(self, state: Any) -> str:
        return state.todo[0][0] if state.todo else state.phase



OMNIA_GAMES = tuple(register(OmniaGame(players)) for players in PLAYER_COUNTS)
