"""The Cython core against the reference engine: same game, move for move, and its own invariants."""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_search._core import CoreState
from omen_search._search import run_playouts
from omen_search.bots import RandomBot
from omen_search.cli import main
from omen_search.errors import IllegalMoveError, UsageError
from omen_search.games.heir.positions import load_position, to_position
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.rules import Config
from omen_search.perft import perft
from omen_search.rng import Rng
from omen_search.selfcheck import compare_game
from positions_helper import seed_card_text

DIFF_GAMES = int(os.environ.get("OMEN_DIFF_GAMES", "2000"))
CONFIGS = [
    Config(),
    Config(first_player=1),
    Config(gods=("horus", "anubis")),
    Config(emissary=True),
    Config(level="novice"),
    Config(level="normal", gods=("horus", "anubis")),
    Config(level="hard"),
    Config(level="brutal", gods=("horus", "anubis")),
]


def _compare_range(args: tuple[int, int, int]) -> tuple[list[str], int]:
    start, stop, config_index = args
    problems, plies = [], 0
    for seed in range(start, stop):
        mismatch, n = compare_game(seed, CONFIGS[config_index])
        plies += n
        if mismatch is not None:
            problems.append(str(mismatch))
    return problems, plies


def test_differential_core_agrees_with_reference_over_seeded_games():
    """At every ply of DIFF_GAMES seeded random games (four two-player set-ups and the solo game at
    each level): same legal moves, in the same
    order, same observations for both players; at the end the same scores."""
    chunks = []
    per = max(DIFF_GAMES // 40, 1)
    for i, start in enumerate(range(0, DIFF_GAMES, per)):
        chunks.append((start, min(start + per, DIFF_GAMES), i % len(CONFIGS)))
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(_compare_range, chunks))
    problems = [p for found, _ in results for p in found]
    plies = sum(n for _, n in results)
    assert not problems, "\n".join(problems[:3])
    assert plies > DIFF_GAMES * 50  # real games were compared, not empty ones


def test_same_seed_same_deal_on_both_engines():
    for seed in (0, 1, 2**64 - 1):
        assert to_position(CoreState.new(seed=seed)) == to_position(GameState.new(seed=seed))


@pytest.mark.parametrize("seed,depth", [(1, 1), (1, 3), (2, 4), (3, 4), (7, 5)])
def test_perft_counts_agree(seed, depth):
    assert perft(CoreState.new(seed=seed), depth) == perft(GameState.new(seed=seed), depth)


def test_perft_leaves_the_state_unchanged():
    core = CoreState.new(seed=4)
    before = to_position(core)
    perft(core, 4)
    assert to_position(core) == before


def test_run_playouts_replays_the_random_bot_games():
    scores, plies = run_playouts(CoreState.new(), 20, seed=100)
    for i in range(20):
        state = GameState.new(seed=100 + i)
        bot = RandomBot(100 + i)
        while not state.is_terminal():
            state.apply_trusted(bot.choose(state))
        assert list(scores[i]) == list(state.scores())
        assert plies[i] == state.ply


def test_run_playouts_refuses_seeds_past_the_last_one():
    """Game i is dealt with seed + i: a run that would pass 2**64-1 is refused, not wrapped to 0."""
    with pytest.raises(UsageError, match="seed"):
        run_playouts(CoreState.new(), 2, seed=2**64 - 1)
    scores, _ = run_playouts(CoreState.new(), 1, seed=2**64 - 1)
    assert scores.shape == (1, 2)


def test_playout_from_a_midgame_matches_the_reference():
    core = CoreState.new(seed=9)
    ref = GameState.new(seed=9)
    bot = RandomBot(1)
    for _ in range(30):
        move = bot.choose(ref)
        ref.apply(move)
        core.apply(move)
    assert core.playout(seed=55) == _ref_playout(ref, 55)


def _ref_playout(state, seed):
    bot = RandomBot(seed)
    while not state.is_terminal():
        state.apply_trusted(bot.choose(state))
    return state.scores()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), policy=st.integers(0, 2**32))
def test_apply_undo_restores_the_exact_state(seed, policy):
    core = CoreState.new(seed=seed)
    rng = Rng(policy)
    seen = []
    while not core.is_terminal():
        seen.append((to_position(core), core.legal_move_ids()))
        ids = core.legal_move_ids()
        core.apply_id(ids[rng.below(len(ids))])
    for position, ids in reversed(seen):
        core.undo()
        assert to_position(core) == position
        assert core.legal_move_ids() == ids
    with pytest.raises(IndexError):
        core.undo()


def test_clone_is_independent():
    core = CoreState.new(seed=3)
    copy = core.clone()
    before = to_position(core)
    copy.playout(seed=1)
    assert copy.is_terminal()
    assert to_position(core) == before
    assert to_position(core.clone()) == before


def test_core_from_a_loaded_position():
    ref = GameState.new(seed=12)
    bot = RandomBot(12)
    for _ in range(25):
        ref.apply(bot.choose(ref))
    loaded = load_position(json.loads(json.dumps(to_position(ref))))
    core = CoreState.from_state(loaded)
    assert to_position(core) == to_position(ref)
    assert core.legal_moves() == ref.legal_moves()


def test_illegal_move_on_core_names_move_player_and_ply():
    core = CoreState.new(seed=1)
    with pytest.raises(IllegalMoveError, match=r"ply 0: player 0 cannot play 'end'"):
        core.apply("end")


def test_custom_card_file_runs_on_the_core(tmp_path):
    """No card is hard-coded in C: a changed card (here, Temple Servant draws 3) changes the core too."""
    from omen_search.games.heir.cards import load_cards

    original = seed_card_text()
    text = original.replace('effects = [{ op = "draw", n = 2 }] },\n    { label = "coins"',
                        'effects = [{ op = "draw", n = 3 }] },\n    { label = "coins"')
    assert text != original
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    cards = load_cards(path)
    assert cards.unit("Temple Servant").invocation != load_cards(None).unit("Temple Servant").invocation
    for seed in range(30):
        mismatch, _ = compare_game(seed, cards=cards)
        assert mismatch is None, str(mismatch)


def test_core_agrees_on_a_set_with_other_offerings_and_colossal_units(tmp_path):
    """The core's precomputed unit sets and fixed-length move writes follow the card file: offerings
    of 0 and 9 and an extra COLOSSAL unit play the same games on both engines."""
    import re

    from omen_search.games.heir.cards import load_cards

    text = seed_card_text().replace('keywords = ["TREASURED"]', 'keywords = ["TREASURED", "COLOSSAL"]', 1)
    text = re.sub(r"offering = 4", "offering = 9", text)
    text = re.sub(r"offering = 2", "offering = 0", text)
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    cards = load_cards(path)
    assert {u.offering for u in cards.units} >= {0, 9} and sum(u.colossal for u in cards.units) > sum(
        u.colossal for u in load_cards(None).units)
    for seed in range(40):
        mismatch, _ = compare_game(seed, cards=cards)
        assert mismatch is None, str(mismatch)


def test_core_refuses_offerings_too_large_for_its_move_lists():
    """A card set built in Python without the loader (which refuses it first: test_card_limits) is
    refused by the core too, instead of writing past its move buffers."""
    from dataclasses import replace

    from omen_search.games.heir.cards import default_cards
    from omen_search.errors import UsageError

    cards = default_cards()
    units = tuple(replace(u, offering=31) for u in cards.units)
    big = replace(cards, units=units, name="big offerings", sha256="0" * 64)
    units = tuple(replace(u, offering=31, name=f"Copy {i}") for i, u in enumerate(units * 3))[:40]
    big = replace(big, units=tuple(replace(u, index=i, copies=1) for i, u in enumerate(units)), sha256="1" * 64)
    with pytest.raises(UsageError, match="OFFERING values are too large"):
        CoreState.new(seed=0, cards=big)


def test_cli_perft_equal_on_both_engines(capsys):
    counts = {}
    for engine in ("core", "reference"):
        assert main(["perft", "--seed", "5", "--depth", "4", "--engine", engine, "--json"]) == 0
        counts[engine] = json.loads(capsys.readouterr().out)
    assert counts["core"]["nodes"] == counts["reference"]["nodes"] > 0
    assert counts["core"]["moves"] == counts["reference"]["moves"]


def test_cli_selfcheck(capsys):
    assert main(["selfcheck", "--games", "5", "--quiet"]) == 0
    assert "agree" in capsys.readouterr().out


def test_cli_play_same_game_on_both_engines(capsys):
    out = {}
    for engine in ("core", "reference"):
        assert main(["play", "--seed", "31", "--json", "--engine", engine]) == 0
        out[engine] = json.loads(capsys.readouterr().out)
    assert out["core"] == out["reference"]


def test_cli_bench_json_reports_ratios_and_a_stable_signature(capsys):
    from omen_search.bench import signature

    assert main(["bench", "--json", "--seconds", "0.2"]) == 0
    result = json.loads(capsys.readouterr().out)
    for key in ("core_playouts_per_s", "reference_playouts_per_s", "ratio", "plies_per_playout",
                "ismcts_iterations_per_s", "clone_vs_memcpy"):
        assert result[key] > 0, key
    assert result["ratio"] == pytest.approx(result["core_playouts_per_s"] / result["reference_playouts_per_s"])
    assert result["signature"] == signature()  # a count and hash: the same on every run and machine
    assert main(["bench", "--seconds", "0"]) == 2
