"""Searches off the event loop: one thread pool for every search the web app runs, and a bot's move
that can be stopped.

The search loop runs in C without the GIL (:mod:`omen_search.search`), so threads give the server
real parallel searches while its event loop goes on answering other tabs. A search never touches a
game's live state: it is handed a clone, so a stopped or abandoned search leaves nothing to undo.
"""

from __future__ import annotations

import asyncio
import math
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from omen_search.bots import Bot, ISMCTSBot
from omen_search.game import Game
from omen_search.search import as_core, new_searches, root_result

T = TypeVar("T")

SLICE = 0.25  # seconds: a bot's search runs in slices this long at most, so a stop is never lost for long
MAX_SEARCH_THREADS = 8  # searches at once, whatever the number of games and tabs (each holds a ~56 MB tree)


class Searches:
    """The thread pool that every search of the web app (bot moves, hints, file replays) runs in.

    Its size is the machine's cores, at least two and at most :data:`MAX_SEARCH_THREADS`; more
    searches than threads wait their turn instead of slowing every game down."""

    def __init__(self, threads: int | None = None):
        self.threads = threads or max(2, min(MAX_SEARCH_THREADS, os.cpu_count() or 2))
        self._pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="omen-search")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a search thread, awaited without blocking the event loop."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    def close(self) -> None:
        """Stop taking work; searches waiting for a thread are dropped, running ones finish."""
        self._pool.shutdown(wait=False, cancel_futures=True)


class BotMove:
    """One decision of a bot, made in a search thread on a clone of the game.

    :meth:`stop` ends an ISMCTS bot's search within :data:`SLICE` seconds (this class runs the
    search in slices, as :func:`~omen_search.search.ismcts` would run it whole: for an iteration
    budget the move is the one :meth:`ISMCTSBot.choose` plays with the same seed). Other bots are
    quick or short-lived; a stop only makes their answer unwanted (:attr:`stopped`)."""

    def __init__(self, bot: Bot, game: Game):
        self.bot, self.game = bot, game
        self._stop = threading.Event()
        self._searches: list[Any] = []
        self.iterations = 0  # the iterations run so far, for progress

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    def stop(self) -> None:
        self._stop.set()
        for search in list(self._searches):
            search.stop()

    def choose(self, state: Any) -> Any:
        """The bot's move in ``state`` (a clone the caller gives away)."""
        if not isinstance(self.bot, ISMCTSBot):
            return self.bot.choose(state)
        bot = self.bot
        core = as_core(state, bot.game)
        seed = bot.rng.next64()  # drawn first, as ISMCTSBot.choose does, so seeded games agree
        if len(core.legal_move_ids()) == 1:
            return core.legal_moves()[0]
        seconds = bot.limit.seconds
        if bot.reuse or bot.belief:  # the searches kept from the bot's last decision
            keeper = bot.kept_for(core)
            searches = keeper.searches_for(core, seed)
            seconds = keeper.seconds_left(bot.limit)  # less the time a belief weighting took
        else:
            searches = new_searches(core, bot.c, bot.mo, seed, bot.workers, rollout=bot.rollout,
                                    evaluation=bot.evaluation(core))
        self._searches = searches
        if self.stopped:  # a stop that came while the trees were made
            return core.legal_moves()[0]
        total = bot.limit.iterations
        per = -(-total // len(searches)) if total else 0  # each worker's share, as run_searches splits it
        deadline = time.perf_counter() + seconds if seconds else math.inf
        pool = ThreadPoolExecutor(max_workers=len(searches)) if len(searches) > 1 else None
        try:
            while not self.stopped:
                budget = min(SLICE, deadline - time.perf_counter())
                jobs = [(s, per - s.iterations if per else 0) for s in searches]
                jobs = [(s, n) for s, n in jobs if not per or n > 0]
                if budget <= 0 or not jobs:
                    break
                if pool is None:
                    for s, n in jobs:
                        s.run(n, budget)
                else:
                    list(pool.map(lambda job: job[0].run(job[1], budget), jobs))
                self.iterations = sum(s.iterations for s in searches)
        finally:
            if pool is not None:
                pool.shutdown()
            self._searches = []
        return root_result(core, [s.result(0) for s in searches]).best
