"""OMNIA's rules vocabulary, shared by its engines, formats and tools: the table's numbers
(``docs/rules/omnia.md``, ids ``N-…``) and the set-up (:class:`Config`)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from omen_search.errors import UsageError

GAME = "omnia"
PLAYER_COUNTS = (2, 3, 4)  # N-setup-1, N-players-1
START_LIFE = 20  # N-setup-6
HAND = 5  # N-setup-5, N-draw-1
SHOP_ROW = 5  # N-setup-5
DEFAULT_MAX_TURNS = 200  # turns of all players before the game is judged as it stands (D-omnia-1)
MAX_TURNS = 2000


def default_flavors(players: int, names: tuple[str, ...]) -> tuple[str, ...]:
    """The first ``players`` flavors of the set, one per seat."""
    return names[:players]


def rotated_flavors(players: int, names: tuple[str, ...], deal: int) -> tuple[str, ...]:
    """Each seat's flavor in deal ``deal`` of a match that rotates them (``--flavors rotate``): the
    combinations of ``players`` of the set's flavors, in the set's order, each dealt ``players``
    times in a row, turned one seat further each time. Over a cycle of ``players`` × C(flavors,
    players) deals (12 with 2 or 3 players of the seed edition's 4, 4 with 4) each flavor sits in
    every seat equally often, so the seat's advantage cancels from a flavor's win rate; deal 0 is
    the set's first flavors in seat order, as without ``--flavors``."""
    if len(names) < players:
        raise UsageError(f"flavors: rotate deals {players} flavors a game, the set has {len(names)}: "
                         f"{', '.join(names)}")
    chosen = list(combinations(names, players))
    combo = chosen[deal // players % len(chosen)]
    return tuple(combo[(seat + deal) % players] for seat in range(players))


@dataclass(frozen=True)
class Config:
    """An OMNIA set-up: the number of players, each seat's flavor (names of the card set's flavors;
    empty: the first N), who plays first (``None``: drawn from the seed, N-setup-4) and the turn limit.
    ``rotate``: a match deals the flavors by :func:`rotated_flavors`, deal by deal (its
    :meth:`~omen_search.game.Game.match_config` names them); a game dealt from it alone has the first N."""

    players: int = 2
    flavors: tuple[str, ...] = ()
    first_player: int | None = None
    max_turns: int = DEFAULT_MAX_TURNS
    rotate: bool = False

    def __post_init__(self) -> None:
        if self.players not in PLAYER_COUNTS:
            raise UsageError(f"players_count: OMNIA is played by 2, 3 or 4 players, got {self.players!r}")
        if not isinstance(self.flavors, tuple) or not all(isinstance(f, str) for f in self.flavors):
            raise UsageError(f"flavors: a tuple of flavor names, got {self.flavors!r}")
        if self.flavors and len(self.flavors) != self.players:
            raise UsageError(f"flavors: one flavor per seat ({self.players}), got {len(self.flavors)}: "
                             f"{','.join(self.flavors)}")
        if self.rotate and self.flavors:
            raise UsageError(f"flavors: either rotated or named, got rotate and {','.join(self.flavors)}")
        if len(set(self.flavors)) != len(self.flavors):
            raise UsageError(f"flavors: each seat brings its own flavor, got {','.join(self.flavors)}")
        if self.first_player is not None and (isinstance(self.first_player, bool) or not isinstance(
                self.first_player, int) or not 0 <= self.first_player < self.players):
            raise UsageError(f"first_player: a seat from 0 to {self.players - 1}, got {self.first_player!r}")
        if isinstance(self.max_turns, bool) or not isinstance(self.max_turns, int) \
                or not 1 <= self.max_turns <= MAX_TURNS:
            raise UsageError(f"max_turns: from 1 to {MAX_TURNS}, got {self.max_turns!r}")
