"""The rules vocabulary of the combined game (Heir to the Dunes with Reign of War units, ``C-…``):
Heir's (:mod:`omen_search.games.heir.rules`) plus the Portent and Feat steps (C-3), the feats option
(C-4) and the choice of Reign of War cards (C-2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from omen_search.errors import UsageError, shown
from omen_search.games.combined.cards import MAX_REIGN_CARDS, CombinedSet, combine, pool_of
from omen_search.games.heir.rules import DECISIONS as HEIR_DECISIONS, PHASES as HEIR_PHASES, Config as HeirConfig
from omen_search.games.reign.rules import FEATS_TO_END, MAX_CHAIN

__all__ = ["DECISIONS", "FEAT", "FEATS_TO_END", "MAX_CHAIN", "PHASES", "PORTENT", "PORTENT_START", "Config", "deal_args"]

# C-3: Wealth -> Surge -> Portent -> Feat -> War -> Offering; the two new steps' phases.
PORTENT_START, PORTENT, FEAT = "portent_start", "portent", "feat"
PHASES = HEIR_PHASES + (PORTENT_START, PORTENT, FEAT)
# The kinds of decision the Reign of War units bring, after Heir's.
DECISIONS = HEIR_DECISIONS + ("portent", "enrage", "unit_move", "destroy", "return_unit", "reveal_take")


@dataclass(frozen=True)
class Config(HeirConfig):
    """An Heir game's set-up (two players: the solo game is not combined, C-15) with the Reign of War
    unit cards shuffled into the deck, by name (a name twice is two copies; at most 10, C-2), and
    whether the feats are played (C-4, on by default)."""

    reign_units: tuple[str, ...] = ()
    feats: bool = True

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.level is not None:
            raise UsageError("level: the Corrupted Heir solo game is not played with Reign of War units (C-15)")
        if not isinstance(self.reign_units, tuple) or not all(isinstance(n, str) for n in self.reign_units):
            raise UsageError(f"reign_units: must be a tuple of card names, got {shown(self.reign_units)}")
        if len(self.reign_units) > MAX_REIGN_CARDS:
            raise UsageError(f"reign_units: at most {MAX_REIGN_CARDS} Reign of War unit cards (C-2), "
                             f"got {len(self.reign_units)}")
        if not isinstance(self.feats, bool):
            raise UsageError(f"feats: must be true or false, got {shown(self.feats)}")


def deal_args(cards: Any, config: Config | None) -> tuple[CombinedSet, Config]:
    """The set and configuration a game is dealt with, on either engine: ``cards`` is a
    :class:`~omen_search.games.combined.cards.Pool` (``None``: the built-in one) or the set
    :func:`~omen_search.games.combined.cards.combine` made of one for ``config``."""
    config = config if config is not None else Config()
    if not isinstance(config, Config):
        raise UsageError(f"config: {config!r} does not set up the heir+reign game")
    if not isinstance(cards, CombinedSet):
        cards = combine(pool_of(cards), config.reign_units, config.feats)
    elif sorted(cards.reign_cards) != sorted(config.reign_units) or bool(cards.feats) != config.feats:
        raise UsageError(f"cards: {cards.name!r} is not the set of this configuration's reign_units and feats")
    return cards, config
