"""What one player can see of a game of Heir to the Dunes: an observation (``omen-observation/1``).

Both engines give :func:`observe` as their ``observation(player)``, the advisor searches from it
and the position format (:mod:`omen_search.games.heir.positions`) writes a whole state as the public view here
plus what no player sees. ``docs/formats.md`` documents the format with examples.
"""

from __future__ import annotations

from typing import Any

from omen_search.errors import FormatError
from omen_search.game import game_of
from omen_search.games.heir.cards import CardSet
from omen_search.games.heir.rules import CITIES, Config, Pending
from omen_search.games.heir.state import State

OBSERVATION_FORMAT = "omen-observation/1"
# The kinds of effect reference whose second entry is a card, written by its name: which kind of card.
NAMED_REFS = {"unit": "unit", "maneuver": "unit", "built": "unit", "reward": "reward", "structure": "structure",
              "ability": "unit"}  # a Reign of War unit's ability, in the heir+reign game


def unit_names(state: State, counts: list[int]) -> list[str]:
    """A count array of units as their names, one per copy, in card order."""
    return [state.units[t].name for t, n in enumerate(counts) for _ in range(n)]


def written_ref(cards: CardSet, ref: tuple) -> list:
    """An effect reference as the formats write it: a card named by its name (:data:`NAMED_REFS`)."""
    out = list(ref)
    if ref and ref[0] in NAMED_REFS and len(ref) > 1:
        kind = NAMED_REFS[ref[0]]
        out[1] = {"unit": cards.units, "reward": cards.rewards, "structure": cards.structures}[kind][ref[1]].name
    return out


def written_pending(state: State, d: Pending | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {
        "kind": d.kind,
        "player": d.player,
        "owner": d.owner,
        "n": d.n,
        "last": d.last,
        "card": state.units[d.card].name if d.card >= 0 else None,
        "city": d.city,
        "ref": written_ref(state.cards, d.ref),
        "index": d.index,
        **({"moved": [[state.units[k % state.T].name, k // state.T] for k in d.moved]} if d.kind == "move" else {}),
    }


def written_config(config: Config) -> dict[str, Any]:
    """A game's configuration as positions, observations and records write it (``level`` only in
    the solo game)."""
    return {
        "first_player": config.first_player,
        "gods": list(config.gods),
        "emissary": config.emissary,
        "max_turns": config.max_turns,
        **({"level": config.level} if config.level is not None else {}),
    }


def public_view(state: State) -> dict[str, Any]:
    """What every player sees: the part an observation and a position share."""
    return {
        "game": game_of(state.config).name,
        "ruleset": state.cards.ruleset,
        "cards": {"name": state.cards.name, "sha256": state.cards.sha256},
        "config": written_config(state.config),
        **({"heir_reserve": state.reserve} if state.config.level is not None else {}),
        "turn": state.turn,
        "active": state.active,
        "first_turn": state.first_turn,
        "phase": state.phase,
        "ply": state.ply,
        "favor": state.favor,
        "discard": [state.units[t].name for t in state.discard],
        "cities": [[unit_names(state, state.cities[c][p]) for p in (0, 1)] for c in range(CITIES)],
        "revealed": unit_names(state, state.revealed),
        "limbo": unit_names(state, state.limbo),
        "flags": {
            "discount_used": state.discount_used,
            "reward_used": state.reward_used,
            "reveal_again_used": state.reveal_again_used,
        },
        "war": {"city": state.war_city, "victor": state.war_victor, "keep_step": state.keep_step},
        "stack": [
            {"ref": written_ref(state.cards, ref), "index": i, "owner": o, "city": c} for ref, i, o, c in state.stack
        ],
        "pending": written_pending(state, state.pending),
    }


def tile_names(state: State, ids: list[int]) -> list[str]:
    """Reward tile ids as their names."""
    return [state.cards.rewards[r].name for r in ids]


def seat_view(state: State, p: int, *, full: bool) -> dict[str, Any]:
    """Seat ``p``'s play area; its hand and unused tiles only if ``full`` (the seat's own view, or
    a position), else their counts alone."""
    slot = state.building[p]
    structures = state.cards.structures_of(state.config.gods[p])
    return {
        "hand": unit_names(state, state.hands[p]) if full else None,
        "hand_size": state.hand_size(p),
        "known": unit_names(state, state.known[p]),
        "coins": state.coins[p],
        "unused_tiles": tile_names(state, state.unused[p]) if full else None,
        "unused_count": len(state.unused[p]),
        "used_tiles": tile_names(state, state.used[p]),
        "building": structures[slot].name if slot >= 0 else None,
        "under_count": sum(state.under[p]),
        "completed": [structures[s].name for s in range(3) if state.completed[p][s]],
        "destroyed": unit_names(state, state.destroyed[p]),
    }


def observe(state: State, player: int) -> dict[str, Any]:
    """What ``player`` knows (format ``omen-observation/1``): nothing hidden from them is in it."""
    if player not in (0, 1):
        raise FormatError(f"player: must be 0 or 1, got {player!r}")
    out = {"format": OBSERVATION_FORMAT, "player": player, **public_view(state)}
    out["deck_size"] = len(state.deck)
    out["city_tiles"] = [len(state.city_tiles[c]) for c in range(CITIES)]
    out["players"] = [seat_view(state, p, full=(p == player)) for p in (0, 1)]
    e = state.emissaries
    out["players"][player]["emissary"] = state.units[e[player]].name if e[player] >= 0 else None
    out["players"][1 - player]["emissary_chosen"] = e[1 - player] >= 0
    return out
