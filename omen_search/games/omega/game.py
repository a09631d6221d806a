"""OMEGA as the tools see it: ``omega`` (two players), ``omega-3`` and ``omega-4``, one game per
player count (a count is a constant of a game, as its core has one C table per count);
``--game omega --players-count N`` names them. Both engines play it: the Cython core
(``ext/omega/_omega_core.pyx``, the default) and the reference engine."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from omen_search.counted_game import CountedGame
from omen_search.game import Option, register
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


class OmegaGame(CountedGame):
    """``omega`` / ``omega-3`` / ``omega-4`` (``docs/rules/omega-the-ritual.md``)."""

    GAME = GAME
    PLAYER_COUNTS = PLAYER_COUNTS
    MOVE = Move
    CONFIG = Config
    REFERENCE = OmegaState
    CORE = "omen_search._omega_core"
    RENDER: ClassVar[Any] = render
    DEFAULT_CARDS = staticmethod(default_cards)
    LOAD_CARDS = staticmethod(load_cards)
    READ_OBSERVATION = staticmethod(state_from_observation)
    score_unit = "point"  # a Judgment total (O-judge-1)

    def __init__(self, players: int):
        super().__init__(players)
        self.title = f"OMEGA: the ritual, {players} players"
        self.options = (
            Option("first_player", "the seat that takes the first turn", 0, tuple(range(players))),
            Option("max_turns", "judge the game after this many turns of all players, ruling D-omega-1",
                   DEFAULT_MAX_TURNS),
        )

    def config(self, **options: Any) -> Config:
        self.check_options(options)
        return Config(players=self.players, first_player=options.get("first_player", 0),
                      max_turns=options.get("max_turns", DEFAULT_MAX_TURNS))

    def adapter(self, cards: Any = None) -> Any:
        from omen_search.games.omega.adapter import OmegaAdapter

        return OmegaAdapter(self, cards if cards is not None else default_cards())

    # -- cards

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

    card_label = "kind"  # an Egregor or an Arcanum

    def balance_cards(self, cards: CardSet | None) -> list[dict[str, Any]]:
        """Every Egregor of the set, then every Arcanum kind (its tokens the copies), whether the
        games met it or not."""
        cards = cards or default_cards()
        return ([{"name": e.name, "kind": "egregor", "copies": 1, "source": e.source} for e in cards.egregors]
                + [{"name": a.name, "kind": "arcanum", "copies": a.copies, "source": a.source} for a in cards.arcana])

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

    def record_header(self, state: Any) -> dict[str, Any]:
        c = state.config
        return {"cards": {"name": state.cards.name, "sha256": state.cards.sha256},
                "config": {"players": c.players, "first_player": c.first_player, "max_turns": c.max_turns}}

    def read_record_header(self, record: dict[str, Any], cards: Any) -> Config:
        r, config = self.record_config(record, cards)
        players = self.players
        return Config(players=players,
                      first_player=r.integer(r.get(config, "first_player", "record.config", 0),
                                             "record.config.first_player", 0, players - 1),
                      max_turns=r.integer(r.get(config, "max_turns", "record.config", DEFAULT_MAX_TURNS),
                                          "record.config.max_turns", 1, MAX_TURNS))

    # -- for people

    def describe_board(self, state: Any, pov: int | None = None) -> str:
        if pov is not None:
            return render.describe_observation(state.observation(pov))
        board = render.describe_observation(state.observation(0), you=False)  # and every Pyramid:
        return board + "\n    pyramids: " + "; ".join(
            f"seat {p} {render.describe_runes(state.pyramid[p])}" for p in range(state.n))

    # -- for a user interface

    def view(self, observation: dict[str, Any], cards: Any = None) -> dict[str, Any]:
        return omega_view.view(observation, cards or default_cards())

    def move_steps(self, move: Any) -> tuple[str, ...]:
        return omega_view.move_steps(move)


OMEGA_GAMES = tuple(register(OmegaGame(players)) for players in PLAYER_COUNTS)
