"""Type stub of OMEGA's Cython core (ext/omega/_omega_core.pyx): the State interface of the
reference engine, the reference's fields (for observe and the renderers) and the core's fast doors."""

from typing import Any

from omen_search._core_state import CoreStateBase
from omen_search.games.omega.cards import CardSet
from omen_search.games.omega.notation import Move
from omen_search.games.omega.rules import Config
from omen_search.rng import Rng

STEP_NAMES: tuple[str, ...]

class CoreTables:
    cards: CardSet
    def __init__(self, cards: CardSet) -> None: ...
    def decode(self, m: int) -> Move: ...

def tables_for(cards: CardSet) -> CoreTables: ...
def state_size() -> int: ...

class CoreState(CoreStateBase[Move]):
    config: Config
    @staticmethod
    def new(seed: int = 0, cards: CardSet | None = None, config: Config | None = None) -> CoreState: ...
    @staticmethod
    def from_state(state: Any) -> CoreState: ...
    @property
    def cards(self) -> CardSet: ...
    @property
    def rng(self) -> Rng: ...
    def view(self) -> Any: ...
    bag: list[int]
    altar: list[int]
    pyramid: list[list[int]]
    known: list[list[int]]
    controlled: list[list[int]]
    carried: dict[int, list[int]]
    mask: list[int | None]
    pawn: list[int]
    prestige: list[int]
    lost: list[bool]
    taken: list[list[int]]
    gallery: list[int]
    stack: list[int]
    discard: list[int]
    arcana: list[list[int]]
    active: int
    turns: int
    phase: str
    gained: int | None
    disowned: bool
    mask_moved: bool
    used: set[int]
    announcer: int | None
    final: list[int]
    todo: list[tuple[Any, ...]]
