"""The search's options beyond plain ISMCTS (issue 22): MAST rollouts and tree reuse between one
player's decisions. Each is off by default, validated where it enters, legal and reproducible for a
seed, and tree reuse keeps only the node the player's information leads to."""

from __future__ import annotations

import pytest

from omen_search._search import ROLLOUTS as CORE_ROLLOUTS, Search
from omen_search.bots import make_bot
from omen_search.errors import UsageError
from omen_search.game import get_game
from omen_search.search import ROLLOUTS, Limit, TreeKeeper, ismcts

HEIR = get_game("heir")


def test_bad_rollouts_are_refused_at_every_door():
    state = HEIR.new_initial_state(1)
    with pytest.raises(UsageError, match="rollout"):
        ismcts(state, Limit(iterations=10), rollout="heavy")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="rollout"):
        TreeKeeper(rollout="heavy")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="rollout"):
        Search(state, rollout="heavy")


def test_the_search_and_its_python_face_offer_the_same_rollouts():
    assert CORE_ROLLOUTS == ROLLOUTS == ("random", "mast")


def test_the_bot_names_say_which_techniques_are_on():
    assert make_bot("ismcts:iterations=5").name == "ismcts:iterations=5,c=0.7"
    assert make_bot("ismcts:seconds=0.1,rollout=mast,reuse=1").name == "ismcts:seconds=0.1,c=0.7,rollout=mast,reuse=1"


def test_mast_rollouts_search_legally_and_reproducibly():
    state = HEIR.new_initial_state(9)
    a = ismcts(state, Limit(iterations=600), seed=5, rollout="mast")
    b = ismcts(state, Limit(iterations=600), seed=5, rollout="mast")
    plain = ismcts(state, Limit(iterations=600), seed=5)
    assert a.moves == b.moves and a.iterations == 600 and a.best in state.legal_moves()
    assert {m.move for m in a.moves} == set(state.legal_moves())
    assert a.moves != plain.moves  # the rollouts are not the game's uniform ones


def played_game(spec: str, seed: int) -> tuple[list, TreeKeeper | None]:
    """A game of ``spec`` (seat 0) against random (seat 1) on deal ``seed``: its moves, and seat
    0's tree keeper."""
    bot, other = make_bot(spec, seed, HEIR), make_bot("random", seed, HEIR)
    state = HEIR.new_initial_state(seed)
    while not state.is_terminal():
        state.apply((bot if state.current_player == 0 else other).choose(state))
    return state.moves, getattr(bot, "keeper", None)


@pytest.mark.parametrize("spec", ["ismcts:iterations=60,reuse=1", "ismcts-mo:iterations=60,reuse=1",
                                  "ismcts:iterations=60,rollout=mast,reuse=1"])
def test_a_game_with_tree_reuse_is_legal_and_fixed_by_its_seed(spec):
    moves, keeper = played_game(spec, 4)  # state.apply checks every move
    again, _ = played_game(spec, 4)
    assert moves == again
    assert keeper is not None and keeper.reused > keeper.fresh > 0


def crossing_line(seeds: range) -> tuple:
    """A root, its search and a path along a most-visited line of the search that a real game can
    follow through a move of the other player and back to the searcher: ``(state, search, path,
    next move, its visits)``, the last two being the line's step from the path's end."""
    for seed in seeds:
        state = HEIR.new_initial_state(seed)
        me = state.current_player
        search = Search(state, 0.7, False, seed)
        search.run(4000)
        result = search.result(pv_depth=12)
        for move, *_ in result["children"]:
            after, crossed = state.clone(), False
            path: list[tuple[int, int]] = []
            for step, (m, _, visits) in zip([(move, me, 0)] + result["pv"][move], result["pv"][move]):
                after.apply_id(step[0])
                path.append((step[0], step[1] if path else me))
                crossed |= step[1] != me
                if crossed and after.current_player == me and m in after.legal_move_ids():
                    return after, search, path, m, visits
                if m not in after.legal_move_ids():
                    break
    raise AssertionError("no most-visited line a real game can follow through the other player")


def test_reroot_keeps_the_subtree_the_moves_lead_to():
    after, search, path, next_move, visits = crossing_line(range(8))
    nodes = search.result()["nodes"]
    assert search.reroot(after, path, 3)
    kept = search.result()
    assert kept["iterations"] == 0 and 1 < kept["nodes"] < nodes
    most = max(kept["children"], key=lambda child: child[1])
    assert (most[0], most[1]) == (next_move, visits)  # the line's next step, with its visits
    assert search.run(200) == 200
    assert sum(child[1] for child in search.result()["children"]) >= 200


def test_reroot_refuses_a_node_from_another_information_set():
    config = HEIR.config(emissary=True)
    for seed in range(20):
        state = HEIR.new_initial_state(seed, config=config)  # seat 0 chooses its emissary face down, then seat 1
        search = Search(state, 0.7, False, seed)
        search.run(3000)
        mine = state.legal_move_ids()[0]
        chosen = state.clone()
        chosen.apply_id(mine)
        theirs = search.result(pv_depth=1)["pv"][mine]
        if theirs and theirs[0][0] in chosen.legal_move_ids():
            after = chosen.clone()
            after.apply_id(theirs[0][0])  # a node of seat 0's SO tree, but seat 0 cannot see that emissary
            if after.current_player == 0:
                break
    else:
        raise AssertionError("no deal where the tree holds the other seat's real emissary")
    assert not search.reroot(after, [(mine, 0), (theirs[0][0], 1)], 1)
    assert search.result()["nodes"] > 1 and search.iterations == 3000  # left as it was
    assert not search.reroot(chosen, [(mine, 0)], 1)  # seat 1's decision, not the searcher's
    assert not search.reroot(HEIR.new_initial_state(seed + 1, config=config), [], 1)  # another deal's root
    # MO: seat 0's tree holds every hidden emissary of seat 1 as one node, which it may keep
    multi = Search(state, 0.7, True, seed)
    multi.run(3000)
    assert any(multi.reroot(then, [(mine, 0), (move, 1)], 1) for move in chosen.legal_move_ids()
               for then in [chosen.clone()] if then.apply_id(move) is None and then.current_player == 0)


def test_the_keeper_starts_afresh_on_another_game():
    keeper = TreeKeeper()
    state = HEIR.new_initial_state(2)
    keeper.search(state, Limit(iterations=200), seed=1)
    state.apply(state.legal_moves()[0])
    keeper.search(state, Limit(iterations=200), seed=1)
    assert (keeper.reused, keeper.fresh) == (1, 1)
    other = HEIR.new_initial_state(3)  # the same number of moves played, another deal
    other.apply(other.legal_moves()[0])
    keeper.search(other, Limit(iterations=200), seed=1)
    assert (keeper.reused, keeper.fresh) == (1, 2)


def test_take_mast_carries_the_ratings_over_to_a_new_search():
    state = HEIR.new_initial_state(5)
    later = state.clone()
    later.apply_id(later.legal_move_ids()[0])
    while len(later.legal_move_ids()) < 2:
        later.apply_id(later.legal_move_ids()[0])

    def taken(iterations: int) -> dict:
        """A search of ``later`` that takes the ratings of one of ``state`` run ``iterations``."""
        earlier = Search(state, 0.7, False, 3, rollout="mast")
        if iterations:
            earlier.run(iterations)
        search = Search(later, 0.7, False, 4, rollout="mast")
        search.take_mast(earlier)
        search.run(300)
        return search.result()["children"]

    fresh = Search(later, 0.7, False, 4, rollout="mast")
    fresh.run(300)
    assert taken(2000) == taken(2000)  # the same ratings, the same search
    assert taken(2000) != fresh.result()["children"]  # the ratings steer its rollouts
    assert taken(0) == fresh.result()["children"]  # nothing learnt, nothing carried


def test_take_mast_is_refused_without_mast_or_across_games():
    state = HEIR.new_initial_state(5)
    with pytest.raises(UsageError, match="rollout='mast'"):
        Search(state, rollout="mast").take_mast(Search(state))
    with pytest.raises(UsageError, match="different games"):
        Search(state, rollout="mast").take_mast(Search(get_game("omnia").new_initial_state(5), rollout="mast"))
    with pytest.raises(UsageError, match="ratings"):
        TreeKeeper(ratings=True)


def test_reuse_mast_keeps_the_ratings_and_never_the_tree():
    moves, keeper = played_game("ismcts:iterations=60,rollout=mast,reuse=mast", 4)
    again, _ = played_game("ismcts:iterations=60,rollout=mast,reuse=mast", 4)
    alone, _ = played_game("ismcts:iterations=60,rollout=mast", 4)
    assert moves == again and moves != alone
    assert keeper is not None and keeper.reused == 0 and keeper.fresh > 1
    assert make_bot("omen:seconds=0.1,reuse=mast").name == "omen:seconds=0.1,c=0.7,reuse=mast"


@pytest.mark.parametrize("spec, words", [("ismcts:iterations=9,reuse=mast", "needs rollout=mast"),
                                         ("ismcts:iterations=9,reuse=2", "must be 0, 1 or mast"),
                                         ("omen:seconds=1,reuse=tree", "must be 0, 1 or mast")])
def test_bad_reuse_is_refused_naming_it(spec, words):
    with pytest.raises(UsageError, match=words):
        make_bot(spec)
