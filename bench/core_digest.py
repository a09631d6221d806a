"""Digest seeded random games on the core that is importable, one line a game, so that two builds of
a core (before and after a speed change, say) can be compared game by game without the slow
reference engine: build the old one in a scratch worktree and diff the two outputs.

Each line is ``seed plies digest``: the sha256 (16 hex digits) of every ply's player to move and
legal moves in order, and of the returns at the end; the moves are chosen by a generator seeded from
the game's seed, so two cores that agree play the same games.

    PYTHONPATH=/path/to/old/checkout python3 -P bench/core_digest.py --game omnia-4 --games 2000 > old.txt
    PYTHONPATH=. python3 -P bench/core_digest.py --game omnia-4 --games 2000 > new.txt && cmp old.txt new.txt
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

from omen_search.game import get_game
from omen_search.rng import Rng


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="heir", help="a game as `omen-search games` names it (default heir)")
    parser.add_argument("--games", type=int, default=200, help="seeds 0 to N-1 (default 200)")
    args = parser.parse_args()
    game = get_game(args.game)
    for seed in range(args.games):
        state = game.new_initial_state(seed=seed, engine="core")
        rng = Rng(seed ^ 0x5EED)
        digest = hashlib.sha256()
        while not state.is_terminal():
            legal = state.legal_moves()
            digest.update(f"{state.current_player}|{'|'.join(map(str, legal))}\n".encode())
            state.apply(legal[rng.below(len(legal))])
        digest.update(json.dumps(list(state.returns())).encode())
        print(seed, state.ply, digest.hexdigest()[:16])
    return 0


if __name__ == "__main__":
    sys.exit(main())
