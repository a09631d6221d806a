"""Matches of N bots: the toy game "tricks" (tests/toy_game) of 3 and 4 players, registered in a
registry of each test's own, played in rotation sets (every bot in every seat of a deal), with
per-bot scores, resumable results files and one-line errors; and two-seat matches of a game that
is not Heir.

The toy games are registered only in this process, so their matches run with one worker (a
worker process would look the game up in a registry without them).
"""

from __future__ import annotations

import json
from collections import defaultdict

import pytest

from cli_helper import assert_one_line_error, run
from omen_search.balance import format_text, render_html, run_balance
from omen_search.errors import RecordError, UsageError
from omen_search.match import (MatchOptions, MatchResult, MatchSetup, RotationResult, play_game, play_match,
                               read_results, run_match)
from toy_game.build import NoCompilerError
from toy_game.game import TOY_GAMES

BOTS = ("random", "greedy", "random")


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    """tricks-2, tricks-3 and tricks-4 in a registry of this test's own, their core built (skips
    without a C compiler)."""
    import omen_search.game as registry

    registry.all_games()  # the package's own games first, into the registry that stays
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    for game in TOY_GAMES:
        registry.register(game)
    try:
        TOY_GAMES[0].new_initial_state(0, engine="core")
    except NoCompilerError as exc:
        pytest.skip(str(exc))


def without_time(line: dict) -> dict:
    return {k: v for k, v in line.items() if k != "seconds"}


def lines_of(setup: MatchSetup, games: int) -> tuple[RotationResult, list[dict]]:
    lines: list[dict] = []
    result = run_match(setup, MatchOptions(games=games, lines=lines))
    assert isinstance(result, RotationResult)
    return result, sorted(lines, key=lambda g: g["index"])


# ----------------------------------------------------------------------------------- rotation


def test_each_bot_sits_in_each_seat_once_a_rotation_set_on_one_deal():
    setup = MatchSetup(bots=BOTS, game="tricks-3", seed=4)
    _, lines = lines_of(setup, 12)  # four sets of three
    sets: dict[int, list[dict]] = defaultdict(list)
    for g in lines:
        sets[g["set"]].append(g)
    assert sorted(sets) == [0, 1, 2, 3]
    for number, games in sets.items():
        assert [g["rotation"] for g in games] == [0, 1, 2]
        assert len({g["game_seed"] for g in games}) == 1, "one deal per set"
        for bot in range(3):
            assert sorted(g["bot_seats"][bot] for g in games) == [0, 1, 2], f"set {number}, bot {bot}"
        for g in games:
            assert g["bot_seats"] == [(bot + g["rotation"]) % 3 for bot in range(3)]
            assert [g["players"][seat] for seat in g["bot_seats"]] == list(BOTS)
    assert len({g["game_seed"] for g in lines}) == 4, "a deal of its own for each set"
    seats = {seat: 0 for seat in range(3)}
    for g in lines:
        for seat in g["bot_seats"]:
            seats[seat] += 1
    assert seats == {0: 12, 1: 12, 2: 12}


def test_every_game_is_fixed_by_the_seed_and_its_index():
    setup = MatchSetup(bots=("greedy", "random", "random", "greedy"), game="tricks-4", seed=9)
    assert without_time(play_game(setup, 6)) == without_time(play_game(setup, 6))
    line = play_game(setup, 6)
    assert (line["set"], line["rotation"], line["bot_seats"]) == (1, 2, [2, 3, 0, 1])
    other = play_game(MatchSetup(bots=("greedy", "random", "random", "greedy"), game="tricks-4", seed=10), 6)
    assert other["game_seed"] != line["game_seed"]


def test_scores_are_mean_returns_that_share_each_game():
    setup = MatchSetup(bots=BOTS, game="tricks-3", seed=2)
    result, lines = lines_of(setup, 15)
    assert (result.games, result.sets, result.bots) == (15, 5, list(BOTS))
    for number in range(5):
        games = [g for g in lines if g["set"] == number]
        means = [sum(g["returns"][g["bot_seats"][bot]] for g in games) / len(games) for bot in range(3)]
        assert sum(means) == pytest.approx(1.0), f"the bots' mean returns over set {number}"
    assert sum(b["score"] for b in result.by_bot) == pytest.approx(1.0)
    for bot, row in enumerate(result.by_bot):
        returns = [g["returns"][g["bot_seats"][bot]] for g in lines]
        assert row["score"] == pytest.approx(sum(returns) / 15)
        assert row["wins"] == sum(g["winner"] == g["bot_seats"][bot] for g in lines)
        assert row["score_low"] <= row["score"] <= row["score_high"]
    assert sum(b["wins"] for b in result.by_bot) + result.shared_games == 15
    assert [s["seat"] for s in result.by_seat] == [0, 1, 2] and all(s["games"] == 15 for s in result.by_seat)
    assert sum(s["score"] for s in result.by_seat) == pytest.approx(1.0)
    assert result.mean_plies == sum(g["plies"] for g in lines) / 15


def test_a_shared_best_is_a_share_of_the_score_and_no_win():
    def line(index: int, returns: list[float]) -> dict:
        best = [s for s, r in enumerate(returns) if r == max(returns)]
        return {"index": index, "set": index // 3, "rotation": index % 3, "returns": returns, "plies": 10,
                "bot_seats": [(b + index % 3) % 3 for b in range(3)], "winner": best[0] if len(best) == 1 else None}

    result = RotationResult.from_lines("tricks-3", BOTS, [line(0, [1 / 3] * 3), line(1, [0.5, 0.5, 0.0]),
                                                           line(2, [0.0, 0.0, 1.0])])
    # game 1: bots A, B, C sit in seats 1, 2, 0 (A and C share the best); game 2: in seats 2, 0, 1 (A wins)
    assert [b["score"] for b in result.by_bot] == pytest.approx([(1 / 3 + 0.5 + 1.0) / 3, (1 / 3 + 0.0 + 0.0) / 3,
                                                                 (1 / 3 + 0.5 + 0.0) / 3])
    assert sum(b["score"] for b in result.by_bot) == pytest.approx(1.0)
    assert [b["wins"] for b in result.by_bot] == [1, 0, 0]
    assert [b["shared"] for b in result.by_bot] == [2, 1, 2]
    assert result.shared_games == 2 and result.sets == 1
    assert [s["wins"] for s in result.by_seat] == [0, 0, 1]


def test_summary_standing_and_json():
    result = play_match(bots=BOTS, game="tricks-3", games=6, seed=1)
    assert isinstance(result, RotationResult)
    text = result.summary()
    first, *rows = text.splitlines()
    assert first == "random vs greedy vs random (tricks-3): 6 games, 2 full rotation sets of 3"
    assert [r.split()[:2] for r in rows[1:4]] == [["A", "random"], ["B", "greedy"], ["C", "random"]]
    assert "wins by seat: seat 0" in text and "Wilson 95%" in text
    assert result.standing().startswith("A ") and result.line() == f"6 games: {result.standing()}"
    data = json.loads(json.dumps(result.to_dict()))
    assert data["games"] == 6 and [b["bot"] for b in data["by_bot"]] == list(BOTS)


# ---------------------------------------------------------------------------- the results file


def test_a_killed_results_file_resumes_to_the_same_totals(tmp_path):
    out = tmp_path / "m.jsonl"
    whole = play_match(bots=BOTS, game="tricks-3", games=9, seed=5, out=str(out))
    header = json.loads(out.read_text().splitlines()[0])
    assert header["match"] == {"game": "tricks-3", "bots": list(BOTS), "seed": 5, "cards": None, "ablate": [],
                               "options": {}, "track_cards": False}
    full = {g["index"]: without_time(g) for g in read_results(out)}
    rows = out.read_text().splitlines()
    out.write_text("\n".join(rows[:4] + rows[6:8]) + "\n" + rows[8][:-12])  # two lost, one cut by the kill
    assert len(read_results(out)) == 5
    resumed = play_match(bots=BOTS, game="tricks-3", games=9, seed=5, out=str(out), resume=True)
    assert resumed.to_dict() == whole.to_dict()
    assert {g["index"]: without_time(g) for g in read_results(out)} == full
    with pytest.raises(RecordError, match=r"m\.jsonl:1: the file is of another match: bots"):
        play_match(bots=("greedy", "random", "random"), game="tricks-3", games=9, seed=5, out=str(out), resume=True)
    with pytest.raises(RecordError, match=r"m\.jsonl:1: the file is of another match: game is 'tricks-3' there, "
                                          r"None here"):
        play_match("random", "random", games=9, seed=5, out=str(out), resume=True)


def test_a_bad_n_bot_line_is_named(tmp_path):
    out = tmp_path / "m.jsonl"
    play_match(bots=BOTS, game="tricks-3", games=3, seed=1, out=str(out))
    rows = out.read_text().splitlines()
    line = json.loads(rows[2])
    line["bot_seats"] = [0, 1, 7]
    rows[2] = json.dumps(line)
    out.write_text("\n".join(rows) + "\n")
    with pytest.raises(RecordError, match=r"m\.jsonl:3: not a game result line"):
        read_results(out)


# ---------------------------------------------------------------------------------- misuse


@pytest.mark.parametrize("call, words", [
    (lambda: play_match(bots=["random", "greedy"], game="tricks-3", games=3), "takes 3 bots"),
    (lambda: play_match(bots=BOTS, game="tricks-4", games=3), "got 3"),
    (lambda: play_match(bots=BOTS, game="tricks-3", games=3, sprt="elo1=10"), "^sprt: "),
    (lambda: play_match(bots=["random", "human", "random"], game="tricks-3", games=3), "^bot 2: .*human"),
    (lambda: play_match(bots=["random", "corrupted-heir", "random"], game="tricks-3", games=3), "heir-solo"),
    (lambda: run_match(MatchSetup(bots=BOTS, game="tricks-3", ablate=("5C",)), MatchOptions(games=3)),
     "^ablate: a card set of tricks-3 cannot leave a card out"),
    (lambda: play_match(bots=BOTS, game="tricks-3", games=3, emissary=True), "^emissary: not an option"),
    (lambda: play_match(bots=BOTS, game="tricks-3", games=3, cards="x.toml"), "^cards: tricks-3 has no card files"),
])
def test_misuse_is_a_usage_error(call, words):
    with pytest.raises(UsageError, match=words):
        call()


@pytest.mark.parametrize("argv, words", [
    (["match", "--game", "tricks-3", "random", "greedy"], ["tricks-3", "3 bots", "got 2"]),
    (["match", "--game", "tricks-4", "random", "greedy", "random"], ["tricks-4", "4 bots", "got 3"]),
    (["match", "random", "greedy", "random"], ["heir", "two bots", "got 3"]),
    (["match", "--game", "tricks-3", "random", "greedy", "random", "--sprt"], ["sprt", "3 bots"]),
    (["match", "--game", "tricks-3", "random", "greedy", "random", "--level", "hard"], ["--level", "tricks-3"]),
    (["balance", "--game", "tricks-3", "--bots", "random,greedy"], ["--bots", "tricks-3", "3 seats", "got"]),
])
def test_cli_misuse_is_one_line_and_status_2(capsys, monkeypatch, argv, words):
    def no_games(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr("omen_search.match.play_game", no_games)
    assert_one_line_error(*run(capsys, *argv, "--games", "3", "--quiet"), *words)


def test_cli_plays_a_three_bot_match(capsys, tmp_path):
    out = tmp_path / "m.jsonl"
    status, text, err = run(capsys, "match", "--game", "tricks-3", *BOTS, "--games", "6", "--seed", "3", "--quiet",
                            "--json", "--out", str(out), "--records", str(tmp_path / "games"))
    assert status == 0 and err == ""
    data = json.loads(text)
    assert data["games"] == 6 and data["bots"] == list(BOTS)
    assert data == play_match(bots=BOTS, game="tricks-3", games=6, seed=3).to_dict()
    assert len(read_results(out)) == 6
    record = json.loads((tmp_path / "games" / "game-000004.json").read_text())
    assert record["game"] == "tricks-3" and record["players"] == read_results(out)[4]["players"]


# ------------------------------------------------------------------------ two seats, not Heir


def test_a_two_player_toy_match_is_seat_swapped_pairs():
    result = play_match("greedy", "random", game="tricks-2", games=8, seed=2)
    assert isinstance(result, MatchResult) and sum(result.pentanomial) == 4
    line = play_game(MatchSetup("greedy", "random", game="tricks-2", seed=2), 3)
    assert (line["pair"], line["a_seat"], line["players"]) == (1, 1, ["random", "greedy"])
    assert line["labels"] == ["seat0", "seat1"] and "gods" not in line and "turns" not in line
    assert line["result"] == (0.5 if line["winner"] is None else float(line["winner"] == 1))


def test_the_balance_report_of_a_game_without_cards_or_labels():
    setup = MatchSetup("greedy", "greedy", game="tricks-2", seed=3)
    report = run_balance(setup, MatchOptions(games=10))
    assert report["game"] == "tricks-2" and report["cards"] is None and report["cards_sha256"] is None
    assert report["by_label"] == [] and report["by_card"] == [] and "by_god" not in report
    assert sum(r["wins"] for r in report["by_seat"]) == 10
    text = format_text(report)
    assert "Games last" in text and "By seat" in text and "Cards when" not in text
    assert "<h2>Win rate by seat and label</h2>" in render_html(report)


def test_the_balance_report_of_three_seats_rates_each_against_a_third():
    report = run_balance(MatchSetup(bots=BOTS, game="tricks-3", seed=3), MatchOptions(games=6))
    assert report["seats"] == 3 and report["bots"] == list(BOTS) and len(report["by_seat"]) == 3
    assert sum(r["wins"] for r in report["by_seat"]) == pytest.approx(6)  # a shared best: 1/k to each
    assert [r["key"] for r in report["by_bot"]] == ["A", "B", "C"]
    assert "! marks an interval that excludes 33.3%." in format_text(report)
