"""What one player can see of a combined game: Heir's observation (:mod:`omen_search.games.heir.observe`)
with the feats, the counts the feats read this turn, the Oracles still to resolve in the Portent step
and the configuration's Reign of War cards (all public: R-feat-2, R-enrage-6)."""

from __future__ import annotations

from typing import Any

from omen_search.games.heir.observe import written_pending, observe as heir_observe, unit_names, written_ref
from omen_search.games.heir.rules import CITIES
from omen_search.games.heir.state import State


def _frame(state: State, frame: tuple) -> dict[str, Any]:
    ref, index, owner, city = frame
    if ref[0] == "resume":  # a decision taken up again once a moved Soldier has resolved
        return {"resume": written_pending(state, ref[1]), "owner": owner}
    return {"ref": written_ref(state.cards, ref), "index": index, "owner": owner, "city": city}


def observe(state: Any, player: int) -> dict[str, Any]:
    """What ``player`` knows (``omen-observation/1`` with the combined game's fields)."""
    out = heir_observe(state, player)
    out["config"].update(reign_units=list(state.config.reign_units), feats=state.config.feats)
    out["stack"] = [_frame(state, f) for f in state.stack]
    out["feats"] = [[f.name for f in state.cards.feats if state.feats[p][f.index]] for p in (0, 1)]
    out["hand_discards"] = list(state.hand_discards)
    out["beast_abilities"] = state.beast_abilities
    out["portent_left"] = [unit_names(state, state.portent_left[c]) for c in range(CITIES)]
    return out
