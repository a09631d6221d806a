"""The Grand Melee's Simplified draft: four players pick from packs passed round the table.

R-melee-4 allows the Simplified draft (R-sdraft-*) instead of the Card Drafting one; ruling D-melee-4
fixes it for four: 3 rounds of packs of 10 cards, dealt to seats 0 to 3 from the top of the shuffled
unit cards, each player picking one card a step in seat order (the picks are simultaneous and face
down, R-sdraft-2), after which every pack passes to the player on the left, the next seat down (as
D-melee-1's clockwise order: seat 0 passes to seat 3). 120 cards are picked, 30 each.

Both engines keep the same history, from which everything else follows: the dealt packs (``dealt``:
round ``r``'s pack for seat ``j`` is ``dealt[40 r + 10 j:][:10]``, sorted), and each player's picks
in order (``drafted[q][10 r + t]``: the card ``q`` took at step ``t`` of round ``r``). At step ``t``
seat ``q`` holds the pack dealt to seat ``(q + t) % 4``; the pack dealt to ``j`` is picked at step
``t`` by seat ``(j - t) % 4``.

What a player knows is every pack they held, as they held it (:func:`held`), and their own picks;
:func:`deal_unseen` deals the rest again, consistently with that (see it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from omen_search.games.melee.rules import PLAYERS, SDRAFT_PICKS_A_ROUND
from omen_search.games.reign.rules import SDRAFT_PACK

ROUND = SDRAFT_PICKS_A_ROUND  # 40 picks a round


def position(picks: int) -> tuple[int, int, int]:
    """The round, step and seat of pick number ``picks`` (0 first)."""
    return picks // ROUND, picks % ROUND // PLAYERS, picks % PLAYERS


def pack_dealt(dealt: Sequence[int], r: int, j: int) -> list[int]:
    """The pack dealt to seat ``j`` in round ``r``, sorted."""
    start = ROUND * r + SDRAFT_PACK * j
    return list(dealt[start:start + SDRAFT_PACK])


def picked(drafted: Sequence[Sequence[int]], r: int, t: int, q: int) -> int | None:
    """The card ``q`` took at step ``t`` of round ``r``, or None if not yet."""
    i = SDRAFT_PACK * r + t
    return drafted[q][i] if i < len(drafted[q]) else None


def pack_at(dealt: Sequence[int], drafted: Sequence[Sequence[int]], r: int, j: int, t: int) -> list[int]:
    """Pack ``j`` of round ``r`` at step ``t``, before that step's pick from it: sorted."""
    pack = Counter(pack_dealt(dealt, r, j))
    for s in range(t):
        pack[picked(drafted, r, s, (j - s) % PLAYERS)] -= 1  # type: ignore[index]
    return sorted(pack.elements())


def held(dealt: Sequence[int], drafted: Sequence[Sequence[int]], picks: int, q: int) -> list[list[int]]:
    """Every pack ``q`` has held, step by step (the current step's included), as they got it."""
    r_now, t_now, _ = position(picks)
    return [pack_at(dealt, drafted, r, (q + t) % PLAYERS, t)
            for r in range(r_now + 1) for t in range(SDRAFT_PACK if r < r_now else t_now + 1)]


def pack_now(dealt: Sequence[int], drafted: Sequence[Sequence[int]], picks: int, q: int) -> list[int]:
    """The cards ``q`` holds now: the current step's pack, without ``q``'s pick if made."""
    r, t, _ = position(picks)
    pack = Counter(pack_at(dealt, drafted, r, (q + t) % PLAYERS, t))
    mine = picked(drafted, r, t, q)
    if mine is not None:
        pack[mine] -= 1
    return sorted(pack.elements())


def deal_unseen(cards: Sequence[int], held_by_me: Sequence[Sequence[int]], mine: Sequence[int], me: int,
                picks: int, shuffle: Callable[[list[int]], None]) -> tuple[list[int], list[list[int]], list[int]]:
    """The draft's history dealt again for player ``me``, who held the packs ``held_by_me`` (as
    :func:`held`) and picked ``mine``: returns the dealt packs, every player's picks and the undealt
    cards (their last card is dealt first). ``cards`` is every unit card in play, each once.

    The cards ``me`` never saw are shuffled once (sorted first), and given out in this order: for
    each round and each pack, the picks made from it before ``me`` first held it, then, if ``me``
    never held it, the cards left in it; the rest are the undealt cards. Between two of ``me``'s
    looks at a pack, the three cards that left it went to the three players in between, in an order
    ``me`` cannot know: shuffled. After ``me``'s last look, the picks made since are the cards left
    then, shuffled, the first of them to the pickers in order; what remains is the pack now. So
    every pack ``me`` held is as they held it, and only what they could not see is dealt again."""
    r_now, t_now, seat_now = position(picks)
    seen: Counter[int] = Counter()
    first_looks = {}
    for s, looked in enumerate(held_by_me):
        r, t = divmod(s, SDRAFT_PACK)
        j = (me + t) % PLAYERS
        if (r, j) not in first_looks:
            first_looks[r, j] = t
            seen.update(looked)
    unseen = sorted((Counter(cards) - seen).elements())
    shuffle(unseen)
    deal: Iterator[int] = iter(unseen)
    dealt: list[int] = []
    slots: dict[tuple[int, int], int] = {}  # (round, step, seat) as (round, 4 * step + seat) -> card
    for r in range(r_now + 1):
        for j in range(PLAYERS):
            made = SDRAFT_PACK if r < r_now else t_now + (((j - t_now) % PLAYERS) < seat_now)
            pack: list[int] = []

            def give(t: int, card: int) -> None:
                slots[r, PLAYERS * t + (j - t) % PLAYERS] = card
                pack.append(card)

            t0 = first_looks.get((r, j))
            if t0 is None:
                for t in range(made):
                    give(t, next(deal))
                pack += [next(deal) for _ in range(SDRAFT_PACK - made)]
            else:
                for t in range(t0):
                    give(t, next(deal))
                looks = list(range(t0, made if r < r_now else t_now + 1, PLAYERS))
                for a in looks:
                    left = Counter(held_by_me[SDRAFT_PACK * r + a])
                    if a < made:
                        give(a, mine[SDRAFT_PACK * r + a])
                        left[mine[SDRAFT_PACK * r + a]] -= 1
                    after = a + PLAYERS
                    if after in looks:
                        left -= Counter(held_by_me[SDRAFT_PACK * r + after])
                    gone = sorted(left.elements())
                    shuffle(gone)
                    for t in range(a + 1, min(after, made)):
                        give(t, gone.pop(0))
                    if after not in looks:
                        pack += gone
            dealt += sorted(pack)
    drafted = [[slots[r, PLAYERS * t + q] for r in range(r_now + 1) for t in range(SDRAFT_PACK)
                if (r, PLAYERS * t + q) in slots] for q in range(PLAYERS)]
    return dealt, drafted, list(deal)
