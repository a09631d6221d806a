"""What one player can see of a Grand Melee: an observation (``omen-melee-observation/1``).

Both engines give :func:`observe` as their ``observation(player)``. Hidden from a player: the other
players' match cards until the draft is over (R-melee-2, R-melee-5); the table game being played at
the other table, and its result until the round is over (D-melee-2); in the player's own table game,
what Reign of War hides (its observation, under ``table``). The Card Drafting draft is public: the
stacks are face up (R-draft-1). In a Simplified draft (D-melee-4) the picks are face down until the
draft ends (R-sdraft-3, then D-given-1): a player sees their own picks and, under ``sdraft``, every
pack they have held as they got it (``held``, step by step) and the cards they hold now (``pack``).
"""

from __future__ import annotations

from typing import Any

from omen_search.errors import FormatError
from omen_search.games.melee import sdraft
from omen_search.games.melee.rules import DRAFT, GAME, PLAYERS

OBSERVATION_FORMAT = "omen-melee-observation/1"


def observe(state: Any, player: int) -> dict[str, Any]:
    """What ``player`` knows: nothing hidden from them is in it."""
    if player not in range(PLAYERS) or isinstance(player, bool):
        raise FormatError(f"player: must be 0 to {PLAYERS - 1}, got {player!r}")
    names = state.units
    table = None
    if state.table is not None and player in state.table_seats:
        table = state.table.observation(state.table_seats.index(player))
    simplified = state.config.draft == "simplified"
    hidden = simplified and state.phase == DRAFT  # face-down picks (R-sdraft-3)
    out = {
        "format": OBSERVATION_FORMAT,
        "game": GAME,
        "player": player,
        "ruleset": state.cards.ruleset,
        "cards": {"name": state.cards.name, "sha256": state.cards.sha256},
        "config": written_config(state.config),
        "phase": state.phase,
        "match": [card if (p == player or state.phase != DRAFT) else None for p, card in enumerate(state.match)],
        "stacks": [names[t].name for t in state.pool] if not simplified else [],  # the undealt cards: unseen
        "drafted": [[names[t].name for t in d] if p == player or not hidden else None
                    for p, d in enumerate(state.drafted)],
        "results": [
            {"seats": list(r.seats), "winner": r.winner, "drawn": r.drawn, "scores": list(r.scores)}
            if state.result_seen(i, player) else {"seats": list(r.seats), "winner": None}
            for i, r in enumerate(state.results)
        ],
        "table_seats": list(state.table_seats) if table is not None else None,
        "table": table,
    }
    if hidden:
        out["sdraft"] = {
            "picks": state.picks,
            "held": [[names[t].name for t in pack] for pack in sdraft.held(state.dealt, state.drafted, state.picks,
                                                                            player)],
            "pack": [names[t].name for t in sdraft.pack_now(state.dealt, state.drafted, state.picks, player)],
        }
    return out


def written_config(config: Any) -> dict[str, Any]:
    """A Grand Melee's set-up as observations and records write it."""
    return {"emissary": config.emissary, "catch_up": config.catch_up, "max_turns": config.max_turns,
            **({"draft": config.draft} if config.draft != "card" else {})}
