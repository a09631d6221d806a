"""The combined game as the tools see it: ``heir+reign``, Heir to the Dunes with up to 10 Reign of War
unit cards shuffled in (C-1 to C-15), registered by name. Both engines play it: the reference engine
(:mod:`omen_search.games.combined.reference`) and the core (``ext/combined/``), equal move for move."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from omen_search.errors import UsageError
from omen_search.game import Game, Option, register
from omen_search.games.combined.cards import Pool, RULESET, default_pool, load_pool, pool_of, random_reign_cards
from omen_search.games.combined.reference import GameState
from omen_search.games.combined.rules import Config
from omen_search.games.heir import render
from omen_search.games.heir.game import FEATURE_NAMES, HEIR
from omen_search.games.heir.heuristic import evaluate
from omen_search.games.heir.notation import Move
from omen_search.games.heir.observe import written_config
from omen_search.games.reign import render as reign_render

RANDOM = "random"


class CombinedGame(Game):
    """``heir+reign``: Heir's game, set-up options and board, with Reign of War units and feats."""

    name = "heir+reign"
    title = "Omen: Heir to the Dunes with Reign of War units, two players"
    short_title = "Omen: Heir to the Dunes + Reign of War units"
    players = 2
    engines = ("core", "reference")
    options = HEIR.options + (
        Option("reign_units", "the Reign of War unit cards shuffled into the Heir deck (C-2): names, "
               "comma-separated (a name twice is two copies), or random:K for K cards drawn with --reign-seed",
               f"{RANDOM}:10"),
        Option("reign_seed", "the seed of a random choice of Reign of War cards", 0),
        Option("no_feats", "play without the Reign of War feats (C-4: they are on by default)", False, (False, True)),
    )
    feature_names = FEATURE_NAMES  # the combined core is built on Heir's files, features included
    family = "heir+reign"  # type: ignore[assignment]

    def config(self, **options: Any) -> Config:
        self.check_options(options)
        heir_options = {o.name: options[o.name] for o in HEIR.options if o.name in options}
        base = HEIR.config(**heir_options)
        units = options.get("reign_units", f"{RANDOM}:10")
        seed = options.get("reign_seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**64:
            raise UsageError(f"reign_seed: must be an integer from 0 to 2**64-1, got {seed!r}")
        no_feats = options.get("no_feats", False)
        if not isinstance(no_feats, bool):
            raise UsageError(f"no_feats: must be true or false, got {no_feats!r}")
        return Config(first_player=base.first_player, gods=base.gods, emissary=base.emissary,
                      max_turns=base.max_turns, reign_units=self._reign_cards(units, seed), feats=not no_feats)

    @staticmethod
    def _reign_cards(value: Any, seed: int) -> tuple[str, ...]:
        """``random:K`` (K cards of the built-in pool, drawn with ``seed``), or names."""
        if isinstance(value, (tuple, list)):
            return tuple(value)
        if not isinstance(value, str):
            raise UsageError(f"reign_units: must be card names or {RANDOM}:K, got {value!r}")
        if value == RANDOM or value.startswith(RANDOM + ":"):
            count = value.partition(":")[2] or "10"
            if not count.isdigit():
                raise UsageError(f"reign_units: {RANDOM}:K takes a number of cards, got {value!r}")
            return random_reign_cards(default_pool(), int(count), seed)
        return tuple(n.strip() for n in value.split(",") if n.strip())

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def owns(self, config: Any) -> bool:
        return isinstance(config, Config)

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: Any = None,
                          config: Any = None) -> Any:
        if engine == "core":
            from omen_search._combined_core import CombinedCoreState

            return CombinedCoreState.new(seed, pool_of(cards), self.checked_config(config))
        if engine != "reference":
            raise UsageError(f"engine: unknown engine {engine!r} (expected one of {', '.join(self.engines)})")
        return GameState.new(seed, pool_of(cards), self.checked_config(config))

    def from_observation(self, observation: Any, cards: Any = None, root: str = "observation") -> tuple[Any, int]:
        raise UsageError(f"{root}: {self.name} reads no observations yet, so the advisor (advise, demo) cannot search "
                         f"from one; play, match and balance search it on its core")

    def to_core(self, state: Any) -> Any:
        if hasattr(state, "game_handle"):
            return state
        from omen_search._combined_core import CombinedCoreState

        return CombinedCoreState.from_state(state)

    # -- cards

    def default_cards(self) -> Pool:
        return default_pool()

    def load_cards(self, path: str | Path | None = None) -> Pool:
        return load_pool(path)

    def describe_cards(self, cards: Pool) -> str:
        return f"{render.describe_cards(cards.heir)}; Reign of War units from {cards.reign.name} (all designed)"

    def cards_json(self, cards: Pool) -> dict[str, Any]:
        reign = reign_render.cards_json(cards.reign)
        return {"name": cards.name, "sha256": cards.sha256, "ruleset": RULESET, "heir": render.cards_json(cards.heir),
                "reign_units": reign["units"], "feats": reign["feats"]}

    def cards_table(self, cards: Pool) -> str:
        return (render.cards_table(cards.heir) + "\n\nReign of War units to shuffle in (up to 10 cards, C-2) "
                "and the feats (C-4); its reward cards are not used (C-10)\n"
                + reign_render.cards_table(replace(cards.reign, rewards=())).replace("\n\nReward cards (0)", ""))

    def card_names(self, cards: Pool) -> tuple[str, ...]:
        return HEIR.card_names(cards.heir) + tuple(u.name for u in cards.reign.units)

    # -- records

    def record_header(self, state: Any) -> dict[str, Any]:
        config = {**written_config(state.config), "reign_units": list(state.config.reign_units),
                  "feats": state.config.feats}
        return {"ruleset": RULESET, "cards": {"name": state.cards.name, "sha256": state.cards.sha256}, "config": config}

    def record_totals(self, state: Any) -> dict[str, Any]:
        return {"turns": state.turn}

    # -- for people

    def describe_board(self, state: Any, pov: int | None = None) -> str:
        feats = "; ".join(f"seat{p} feats {', '.join(f.name for f in state.cards.feats if state.feats[p][f.index]) or '-'}"
                          for p in (0, 1))
        return render.describe_board(state, pov) + (f"\n    {feats}" if state.cards.feats else "")

    def describe_seats(self, state: Any, players: list[str]) -> str:
        return render.describe_seats(state, players)

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

    @property
    def match_options(self) -> tuple[str, ...]:
        """As Heir's: a match deals the gods pair by pair (:meth:`match_config`)."""
        return tuple(o.name for o in self.options if o.name not in ("gods", "first_player"))

    def match_config(self, config: Config, deal_bits: int, deal: int = 0, cards: Any = None) -> Config:
        return HEIR.match_config(config, deal_bits)  # type: ignore[return-value]

    def card_played(self, move: Any) -> str | None:
        return move.card if move.verb == "play" else None

    def cards_held(self, state: Any, seat: int) -> set[str]:
        return {state.units[t].name for t, n in enumerate(state.hands[seat]) if n}


COMBINED = register(CombinedGame())
