"""OMEGA's one fixed, dense action space for the adapters (:mod:`omen_search.adapters`, through
:mod:`~omen_search.games.omega.adapter`), over the core's packed move ids (``ext/omega/_omega_core.pyx``:
the verb in bits 0-4, a card in 5-10, another card or a stack in 11-16, a rune kind or source in
17-19, a number of runes in 20-23): each verb of :mod:`~omen_search.games.omega.notation` gets a
block of indices sized by its fields, a card or an Arcanum 64 values (``cards.MAX_EGREGORS``,
``cards.MAX_ARCANA``), a rune kind 6, a source 7 (the kinds and the bag), a stack 6 and N runes
of a kind 6 x 11 (N from 0 to 10)."""

from __future__ import annotations

from omen_search.action_space import ActionSpace
from omen_search.games.omega.cards import ARCANA_STACKS, KINDS, MAX_ARCANA, MAX_EGREGORS
from omen_search.games.omega.notation import MAX_RUNES, SOURCES, VERBS

RUNE_COUNTS = MAX_RUNES + 1  # 0 .. 10 of a kind ("runes" packs kind * RUNE_COUNTS + n)
_SIZES = {"card": max(MAX_EGREGORS, MAX_ARCANA), "other": MAX_EGREGORS, "kind": len(KINDS),
          "source": len(SOURCES), "stack": ARCANA_STACKS, "runes": len(KINDS) * RUNE_COUNTS}


def _values(packed: int) -> dict[str, int]:
    kind, n = (packed >> 17) & 7, (packed >> 20) & 15
    other = (packed >> 11) & 63
    return {"card": (packed >> 5) & 63, "other": other, "stack": other, "kind": kind, "source": kind,
            "runes": kind * RUNE_COUNTS + n if kind < len(KINDS) and n < RUNE_COUNTS else _SIZES["runes"]}


def _pack(verb: int, values: dict[str, int]) -> int:
    kind, n = divmod(values["runes"], RUNE_COUNTS) if "runes" in values else (values.get("kind", values.get("source", 0)), 0)
    other = values.get("other", values.get("stack", 0))
    return verb | values.get("card", 0) << 5 | other << 11 | kind << 17 | n << 20


SPACE = ActionSpace(VERBS, _SIZES, _values, _pack, lambda packed: packed & 31)
