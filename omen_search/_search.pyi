"""Type stub of the search, written once for every game (ext/search/_search.pyx).

A ``state`` is any game core's state object: it lends the search its C contract through
``state.game_handle()``.
"""

from typing import Any

import numpy as np
import numpy.typing as npt

def search(
    state: Any,
    iterations: int = 1000,
    seconds: float = 0.0,
    c: float = 0.7,
    mo: bool = False,
    seed: int = 0,
    max_nodes: int = 1_000_000,
    pv_depth: int = 0,
    rollout: str = "random",
) -> dict: ...

ROLLOUTS: tuple[str, ...]
MAX_CUTOFF: int

class Search:
    mo: bool
    c: float
    iterations: int
    seconds: float
    player: int
    rollout: str
    value: tuple[float, ...] | None
    def __init__(self, state: Any, c: float = 0.7, mo: bool = False, seed: int = 0,
                 max_nodes: int = 1_000_000, root_move: int | None = None, rollout: str = "random",
                 value: Any = None, cutoff: int = 0) -> None: ...
    def run(self, iterations: int = 0, seconds: float = 0.0) -> int: ...
    def stop(self) -> None: ...
    def reroot(self, state: Any, path: list[tuple[int, int]], seed: int = 0) -> bool: ...
    def result(self, pv_depth: int = 0) -> dict: ...

def state_features(state: Any, player: int) -> npt.NDArray[np.float64]: ...
def best_shares(state: Any, move_ids: list[int], worlds: int, rollouts: int, seed: int = 0) -> list[float]: ...
def perft(state: Any, depth: int) -> int: ...
def state_size(state: Any) -> int: ...
def bench_clone(state: Any, n: int) -> tuple[float, float, int]: ...
def playout_returns(state: Any, seed: int = 0) -> tuple[float, ...]: ...
def run_playouts(state: Any, n: int, seed: int = 0) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
