"""What one seat of a "tricks" game knows, built the same way from either engine.

Public: the seat count, whose turn it is, every card played and who played it, who has discarded,
the size of every hand and the points. Private: the seat's own hand and own discard. Hidden from
the seat: the other hands, the other discards and the undealt cards.
"""

from __future__ import annotations

from typing import Any

from toy_game.vocabulary import TricksView, card_name, check_seat

HIDDEN_DISCARD = "discard ?"  # another seat's discard, as the history shows it


def observe(state: TricksView, player: int) -> dict[str, Any]:
    """Exactly what ``player`` knows, as a JSON-ready dict; raises :class:`UsageError` for a bad seat.

    ``history`` lists ``[seat, move]`` in order of play, another seat's discard as ``"discard ?"``.
    """
    check_seat(state.players, player)
    own_discard = state.discards[player]
    return {
        "game": f"tricks-{state.players}",  # the game's registered name, as the tools look it up
        "players": state.players,
        "seat": player,
        "to_move": state.current_player,
        "ply": state.ply,
        "hand": [card_name(c) for c in state.hands[player]],
        "discard": None if own_discard is None else card_name(own_discard),
        "hand_sizes": [len(hand) for hand in state.hands],
        "history": [[seat, HIDDEN_DISCARD if move.discard and seat != player else str(move)]
                    for seat, move in state.history],
        "points": list(state.scores()),
    }
