"""Type stub of the combined game's Cython core (ext/combined/_combined_core.pyx): Heir's core's
State interface (its CoreState is compiled into this module too) with the combined game's attributes."""

from omen_search._core import CoreState, CoreTables
from omen_search.games.combined.cards import CombinedSet
from omen_search.games.combined.rules import Config

class CombinedTables(CoreTables):
    cards: CombinedSet  # type: ignore[assignment]
    def __init__(self, cards: CombinedSet) -> None: ...

class CombinedCoreState(CoreState):
    @property
    def cards(self) -> CombinedSet: ...  # type: ignore[override]
    @property
    def config(self) -> Config: ...  # type: ignore[override]
    def feats_done(self, player: int) -> int: ...
    def feat_holds(self, p: int, f: int) -> bool: ...
    feats: list[list[bool]]
    hand_discards: list[int]
    beast_abilities: int
    portent_left: list[list[int]]
