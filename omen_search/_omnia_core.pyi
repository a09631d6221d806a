"""Type stub of OMNIA's Cython core (ext/omnia/_omnia_core.pyx): the State interface of the
reference engine, the fields the tools read, a reference view of the position and the core's fast
doors."""

from typing import Any

from omen_search._core_state import CoreStateBase
from omen_search.games.omnia.cards import CardSet
from omen_search.games.omnia.notation import Move
from omen_search.games.omnia.reference import OmniaState
from omen_search.games.omnia.rules import Config

STEP_NAMES: tuple[str, ...]
KINDS: tuple[str, ...]
PHASES: tuple[str, ...]

class CoreTables:
    cards: CardSet
    def __init__(self, cards: CardSet) -> None: ...
    def ids_in_game(self, flavor: tuple[int, ...]) -> int: ...
    def decode(self, m: int) -> Move: ...

def tables_for(cards: CardSet) -> CoreTables: ...
def state_size() -> int: ...
def limits() -> dict[str, int]: ...

class CoreState(CoreStateBase[Move]):
    config: Config
    @staticmethod
    def new(seed: int = 0, cards: CardSet | None = None, config: Config | None = None) -> CoreState: ...
    @staticmethod
    def from_state(state: Any) -> CoreState: ...
    @property
    def cards(self) -> CardSet: ...
    def prestige(self, player: int) -> int: ...
    def name(self, c: int) -> str: ...
    def view(self) -> OmniaState: ...
    life: list[int]
    hand: list[list[int]]
    active: int
    turns: int
    phase: str
    todo: list[tuple[Any, ...]]
    flavor: tuple[int, ...]
