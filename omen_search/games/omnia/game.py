"""OMNIA as the tools see it: ``omnia`` (two players), ``omnia-3`` and ``omnia-4``, one game per
player count, as OMEGA's (a count is a constant of a game, as its core has one C table per count);
``--game omnia --players-count N`` names them. Both engines play it: the Cython core
(``ext/omnia/_omnia_core.pyx``, the default) and the reference engine."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar

from omen_search.errors import RecordError, UsageError, shown
from omen_search.counted_game import CountedGame
from omen_search.game import Option, register
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


class OmniaGame(CountedGame):
    """``omnia`` / ``omnia-3`` / ``omnia-4`` (``docs/rules/omnia.md``)."""

    GAME = GAME
    PLAYER_COUNTS = PLAYER_COUNTS
    MOVE = Move
    CONFIG = Config
    REFERENCE = OmniaState
    CORE = "omen_search._omnia_core"
    RENDER: ClassVar[Any] = render
    DEFAULT_CARDS = staticmethod(default_cards)
    LOAD_CARDS = staticmethod(load_cards)
    READ_OBSERVATION = staticmethod(state_from_observation)
    score_unit = "point"  # prestige plus life (N-score-2)

    def __init__(self, players: int):
        super().__init__(players)
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

    def config(self, **options: Any) -> Config:
        self.check_options(options)
        flavors = options.get("flavors")
        rotate = flavors == ROTATE
        first = options.get("first_player")
        return Config(players=self.players,
                      flavors=_flavors(flavors, "flavors") if flavors is not None and not rotate else (),
                      first_player=0 if rotate and first is None else first,
                      max_turns=options.get("max_turns", DEFAULT_MAX_TURNS), rotate=rotate)

    def adapter(self, cards: Any = None) -> Any:
        from omen_search.games.omnia.adapter import OmniaAdapter

        return OmniaAdapter(self, cards if cards is not None else default_cards())

    # -- cards

    def card_names(self, cards: CardSet | None) -> tuple[str, ...]:
        return tuple(c.name for c in (cards or default_cards()).cards)

    def public_move(self, state: Any, move: Any, pov: int) -> str:
        """A Prime spell primed is face down (N-hidden-2): others see that a card was primed."""
        if move.verb == "prime" and pov != state.current_player:
            return "prime (a face-down card)"
        return str(move)

    # -- records

    def record_header(self, state: Any) -> dict[str, Any]:
        c = state.config
        return {"cards": {"name": state.cards.name, "sha256": state.cards.sha256},
                "config": {"players": c.players, "flavors": [state.cards.flavors[f].name for f in state.flavor],
                           "first_player": c.first_player, "max_turns": c.max_turns}}

    def read_record_header(self, record: dict[str, Any], cards: Any) -> Config:
        r, config = self.record_config(record, cards)
        players = self.players
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


OMNIA_GAMES = tuple(register(OmniaGame(players)) for players in PLAYER_COUNTS)
