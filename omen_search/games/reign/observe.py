"""What one player can see of a game of Reign of War: an observation (``omen-observation/1``).

Both engines give :func:`observe` as their ``observation(player)``; the advisor searches from it.
Hidden from a player (R-hidden-1 to R-hidden-3, R-sdraft-3): the opponent's unit cards in hand beyond
those known, the identity of the opponent's reward cards in hand, every reward card still in a city,
the order of every deck, the opponent's emissary until both are shown, and in a Simplified draft the
opponent's picks and pack that this player has not seen. ``docs/formats.md`` documents the format.
"""

from __future__ import annotations

from typing import Any

from omen_search.errors import FormatError
from omen_search.games.reign.rules import CITIES, COINS, GAME, SDRAFT_PACK, Config, Pending

OBSERVATION_FORMAT = "omen-observation/1"


def unit_names(state: Any, counts: list[int]) -> list[str]:
    """A count array of units as their names, one per copy, in card order."""
    return [state.units[t].name for t, n in enumerate(counts) for _ in range(n)]


def reward_names(state: Any, ids: list[int]) -> list[str]:
    return [state.cards.rewards[r].name for r in ids]


def written_ref(state: Any, ref: tuple) -> list:
    """An effect reference as the formats write it: the card by its name."""
    if not ref:
        return []
    cards = state.cards.units if ref[0] == "unit" else state.cards.rewards
    return [ref[0], cards[ref[1]].name]


def written_config(config: Config) -> dict[str, Any]:
    """A game's configuration as positions, observations and records write it."""
    return {
        "first_player": config.first_player,
        "emissary": config.emissary,
        "beginner": config.beginner,
        "deck": config.deck,
        **({"decks": [list(d) for d in config.decks]} if config.decks else {}),
        "catch_up": config.catch_up,
        "max_turns": config.max_turns,
        **({"coin_supply": config.coin_supply} if config.coin_supply != COINS else {}),
    }


def _pending_out(state: Any, d: Pending | None) -> dict[str, Any] | None:
    if d is None:
        return None
    return {"kind": d.kind, "player": d.player, "owner": d.owner, "n": d.n, "last": d.last, "city": d.city,
            "ref": written_ref(state, d.ref), "index": d.index}


def _stack_out(state: Any, entry: tuple) -> dict[str, Any]:
    if entry[0] == "effects":
        _, ref, index, owner, city = entry
        return {"effects": written_ref(state, ref), "index": index, "owner": owner, "city": city}
    if entry[0] == "resume":
        return {"resume": _pending_out(state, entry[1])}
    return {"beast": state.units[state.beast].name}


def public_view(state: Any) -> dict[str, Any]:
    """What every player sees: the part an observation and a position share."""
    return {
        "game": GAME,
        "ruleset": state.cards.ruleset,
        "cards": {"name": state.cards.name, "sha256": state.cards.sha256},
        "config": written_config(state.config),
        "turn": state.turn,
        "active": state.active,
        "first_turn": state.first_turn,
        "phase": state.phase,
        "ply": state.ply,
        "supply": state.supply(),
        "pot": state.pot,
        "discards": [[state.units[t].name for t in pile] for pile in state.discards],
        "cities": [
            {
                "rewards": len(state.city_rewards[c]),
                "sides": [unit_names(state, state.cities[c][p]) for p in (0, 1)],
                "enraged": [unit_names(state, state.enraged[c][p]) for p in (0, 1)],
            }
            for c in range(CITIES)
        ],
        "revealed": unit_names(state, state.revealed),
        "limbo": unit_names(state, state.limbo),
        "limbo_enraged": unit_names(state, state.limbo_enraged),
        "beast": state.units[state.beast].name if state.beast >= 0 else None,
        "turn_counts": {"hand_discards": list(state.hand_discards), "beast_abilities": state.beast_abilities,
                        "reward_used": state.reward_used},
        "war": {"city": state.war_city, "victor": state.war_victor, "keep_step": state.keep_step},
        "portent_left": [unit_names(state, state.portent_left[c]) for c in range(CITIES)],
        "draft": {
            "picks": state.draft_picks,
            "stacks": [state.units[t].name for t in state.pool] if state.config.deck == "draft" else None,
            "drafted": [[state.units[t].name for t in state.drafted[p]] for p in (0, 1)],
        },
        "stack": [_stack_out(state, e) for e in state.stack],
        "pending": _pending_out(state, state.pending),
    }


def seat_view(state: Any, p: int, *, full: bool) -> dict[str, Any]:
    """Seat ``p``'s play area; its hand and reward cards only if ``full`` (the seat's own view, or
    a position), else their counts alone."""
    return {
        "hand": unit_names(state, state.hands[p]) if full else None,
        "hand_size": state.hand_size(p),
        "known": unit_names(state, state.known[p]),
        "coins": state.coins[p],
        "rewards": reward_names(state, state.rewards_hand[p]) if full else None,
        "reward_count": len(state.rewards_hand[p]),
        "rewards_used": reward_names(state, state.rewards_used[p]),
        "feats": [f.name for f in state.cards.feats if state.feats[p][f.index]],
    }


def observe(state: Any, player: int) -> dict[str, Any]:
    """What ``player`` knows (format ``omen-observation/1``): nothing hidden from them is in it."""
    if player not in (0, 1) or isinstance(player, bool):
        raise FormatError(f"player: must be 0 or 1, got {player!r}")
    opp = 1 - player
    out = {"format": OBSERVATION_FORMAT, "player": player, **public_view(state)}
    out["deck_sizes"] = [len(d) for d in state.decks]
    out["players"] = [seat_view(state, p, full=(p == player)) for p in (0, 1)]
    me, them = out["players"][player], out["players"][opp]
    me["emissary"] = state.units[state.emissaries[player]].name if state.emissaries[player] >= 0 else None
    them["emissary_chosen"] = state.emissaries[opp] >= 0
    if state.config.own_decks:
        me["deck_list"] = unit_names(state, state.deck_lists[player])
        them["deck_list"] = unit_names(state, state.deck_known[opp])
        them["deck_list_unknown"] = sum(state.deck_lists[opp]) - sum(state.deck_known[opp])
    if state.phase == "sdraft":
        out["sdraft"] = _sdraft_view(state, player)
    return out


def _sdraft_view(state: Any, player: int) -> dict[str, Any]:
    """R-sdraft-3: your pack and this step's pick; the opponent's pack once you have held it (from
    the second pick of a round on), as you passed it, and whether they have picked this step."""
    opp = 1 - player
    step = (state.draft_picks % (2 * SDRAFT_PACK)) // 2
    seen = list(state.packs[opp])
    if state.chosen[opp] >= 0:
        seen[state.chosen[opp]] += 1  # what they pick is face down until the packs pass
    return {
        "pack": unit_names(state, state.packs[player]),
        "chosen": state.units[state.chosen[player]].name if state.chosen[player] >= 0 else None,
        "opponent_pack": unit_names(state, seen) if step > 0 else None,
        "opponent_pack_size": sum(seen),
        "opponent_chosen": state.chosen[opp] >= 0,
    }
