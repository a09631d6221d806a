"""Reign of War observations read back (omen_search.games.reign.positions.state_from_observation):
the advisor searches from the state it builds, so that state must show its seat exactly the
observation it was read from, and offer the same moves, at every decision of every variant."""

from __future__ import annotations

import pytest

from omen_search.games.reign.observe import observe
from omen_search.games.reign.positions import state_from_observation
from omen_search.games.reign.reference import GameState
from omen_search.games.reign.rules import Config
from omen_search.rng import Rng
from reign_helper import BUILD_DECKS, dealt_decks, stack_decks

VARIANTS = {
    "base": Config(),
    "beginner": Config(beginner=True),
    "emissary": Config(emissary=True),
    "skill": Config(deck="skill"),
    "draft": Config(deck="draft"),
    "build": Config(deck="build", decks=BUILD_DECKS),
    "sdraft": Config(deck="sdraft"),
    "given": Config(deck="given", decks=dealt_decks(4)),
    "given_stacks_20_coins": Config(deck="given", decks=stack_decks(), coin_supply=20, emissary=True),
}


def _round_trip(state: GameState, player: int) -> None:
    seen = observe(state, player)
    rebuilt, me = state_from_observation(seen, state.cards)
    where = f"ply {state.ply}, phase {state.phase}, seat {player}"
    assert me == player, where
    assert observe(rebuilt, player) == seen, where
    assert rebuilt.current_player == state.current_player, where
    if state.current_player == player:
        assert [str(m) for m in rebuilt.legal_moves()] == [str(m) for m in state.legal_moves()], where
    world = rebuilt.determinized(player, seed=state.ply)
    assert observe(world, player) == seen, where


@pytest.mark.parametrize("name", list(VARIANTS))
@pytest.mark.parametrize("seed", range(1, 4))
def test_an_observation_read_back_is_the_same_observation_at_every_decision(name, seed):
    state = GameState.new(seed, config=VARIANTS[name])
    rng = Rng(seed)
    while not state.is_terminal():
        for player in (0, 1):
            _round_trip(state, player)
        moves = state.legal_moves()
        state.apply_trusted(moves[rng.below(len(moves))])


def _mid_draft(picks: int, player: int) -> dict:
    state = GameState.new(5, config=VARIANTS["sdraft"])
    for _ in range(picks):
        state.apply_trusted(state.legal_moves()[0])
    assert state.phase == "sdraft"
    return observe(state, player)


def test_a_simplified_draft_observation_names_what_does_not_add_up():
    """Bad mid-draft observations are refused with the field that is wrong."""
    from omen_search.errors import FormatError

    seen = _mid_draft(3, 1)  # seat 1 to pick at the second step of round one: seat 0 has picked
    seen["sdraft"]["pack"] = seen["sdraft"]["pack"][1:]
    with pytest.raises(FormatError, match=r"observation\.sdraft\.pack: at pick 2 of a round each pack holds 9"):
        state_from_observation(seen)
    seen = _mid_draft(3, 1)
    seen["sdraft"]["opponent_chosen"] = False
    with pytest.raises(FormatError, match=r"observation\.sdraft\.chosen: seat 0 picks first"):
        state_from_observation(seen)
    seen = _mid_draft(22, 0)  # round two: seat 0 holds a card it cannot have
    seen["sdraft"]["pack"][0] = "Tiresias the Blind Seer"
    seen["players"][0]["deck_list"] += ["Tiresias the Blind Seer"] * 3
    with pytest.raises(FormatError, match=r"observation\.sdraft"):
        state_from_observation(seen)


def test_advice_in_the_middle_of_a_simplified_draft(tmp_path, capsys):
    """The advisor ranks the picks from what the drafter sees (it used to refuse the observation)."""
    import json

    from cli_helper import run

    path = tmp_path / "seen.json"
    path.write_text(json.dumps(_mid_draft(4, 0)))
    status, out, err = run(capsys, "advise", "--observation", str(path), "--iterations", "300", "--json")
    assert status == 0, err
    moves = json.loads(out)["moves"]
    assert moves and all(m["move"].startswith("pick ") for m in moves)
