"""The balance report: its numbers from hand-made result lines, a real run, the CLI and the HTML.

The HTML is parsed with :mod:`html.parser` and its charts are checked against the JSON report; where
Chromium is installed, a headless screenshot shows that the page draws. The core and the reference
engine are compared move for move on ablated decks, since ablation plays games with fewer than 40
cards.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import shutil
import statistics
import struct
import subprocess
import zlib
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from omen_search.balance import (balance_report, format_text, paired_difference, render_html, run_balance,
                                 seat_score, win_rate)
from omen_search.cli import main
from omen_search.errors import UsageError
from omen_search.game import get_game
from omen_search.games.heir.cards import GODS, default_cards
from omen_search.games.heir.rules import Config
from omen_search.match import MatchOptions, MatchSetup, run_match
from omen_search.selfcheck import compare_game
from omen_search.stats import Z95, wilson

CARD_NAMES = [u.name for u in default_cards().units]


def game(index: int, winner: int | None, gods: tuple[str, str] = ("anubis", "horus"), a_seat: int | None = None,
         played: tuple[list[str], list[str]] = ([], []), drawn: tuple[list[str], list[str]] | None = None,
         turns: int = 10, scores: tuple[int, int] = (6, 4)) -> dict[str, Any]:
    """A result line as the match runner writes it with ``track_cards``."""
    a_seat = index % 2 if a_seat is None else a_seat
    return {"index": index, "pair": index // 2, "game_seed": 1000 + index // 2, "gods": list(gods), "a_seat": a_seat,
            "players": ["x", "y"], "winner": winner,
            "result": 0.5 if winner is None else float(winner == a_seat), "scores": list(scores),
            "turns": turns, "plies": 8 * turns, "seconds": 0.01,
            "played": [sorted(p) for p in played], "drawn": [sorted(d) for d in (drawn or played)]}


SAME = MatchSetup(a="greedy", b="greedy", seed=5)


# ---------------------------------------------------------------------------------- the numbers


def test_seat_score_counts_a_tie_as_half():
    assert [seat_score(game(0, 1), s) for s in (0, 1)] == [0.0, 1.0]
    assert [seat_score(game(0, None), s) for s in (0, 1)] == [0.5, 0.5]


def test_win_rate_uses_wilson_and_flags_intervals_that_exclude_half():
    half = win_rate(5, 10)
    assert half["rate"] == 0.5 and half["n"] == 10 and not half["flag"]
    assert half["low"] == pytest.approx(0.2366, abs=1e-4) and half["high"] == pytest.approx(0.7634, abs=1e-4)
    none = win_rate(0, 10)
    assert none["low"] == pytest.approx(0.0, abs=1e-12) and none["high"] == pytest.approx(0.2775, abs=1e-4)
    assert none["flag"]
    empty = win_rate(0, 0)
    assert empty["rate"] is None and not empty["flag"]


def test_by_seat_and_by_god_from_hand_made_lines():
    lines = [game(0, 0), game(1, 0, gods=("horus", "anubis")), game(2, 1, scores=(3, 7)), game(3, None, scores=(5, 5))]
    report = balance_report(SAME, lines)
    seat0, seat1 = report["by_seat"]
    assert (seat0["n"], seat0["wins"], seat0["rate"]) == (4, 2.5, 0.625)
    assert (seat1["wins"], seat1["rate"]) == (1.5, 0.375)
    assert (seat0["low"], seat0["high"]) == pytest.approx(wilson(2.5, 4))
    anubis, horus = report["by_god"]
    assert (anubis["key"], horus["key"]) == GODS
    assert anubis["wins"] == 1 + 0 + 0 + 0.5 and horus["wins"] == 0 + 1 + 1 + 0.5
    assert report["games"] == 4 and report["ties"] == 1 and report["by_bot"] == []
    assert report["mean_turns"] == 10 and report["mean_plies"] == 80
    assert report["mean_winner_vp"] == pytest.approx(19 / 3) and report["mean_loser_vp"] == pytest.approx(11 / 3)


def test_two_bots_get_a_row_each_from_bot_a_side():
    lines = [game(0, 0), game(1, 0), game(2, 1), game(3, 1)]  # A sits in seat 0 in even games: A wins 0 and 3
    report = balance_report(MatchSetup(a="random", b="greedy"), lines)
    a, b = report["by_bot"]
    assert (a["label"], a["wins"], b["label"], b["wins"]) == ("A: random", 2.0, "B: greedy", 2.0)
    lines = [game(0, 0), game(1, 1), game(2, 0), game(3, 1)]  # A wins all four
    assert balance_report(MatchSetup(a="random", b="greedy"), lines)["by_bot"][0]["rate"] == 1.0


def test_card_rates_when_played_and_drawn():
    opal, usurper = "Opal Statuary", "Rabid Usurper"
    lines = [
        game(0, 0, played=([opal], []), drawn=([opal], [opal])),
        game(1, 1, played=([usurper], [opal]), drawn=([usurper], [opal])),
        game(2, 1, played=([opal], [])),
        game(3, None, played=([], [opal]), drawn=([], [opal])),
    ]
    report = balance_report(SAME, lines)
    cards = {c["name"]: c for c in report["by_card"]}
    assert [c["name"] for c in report["by_card"]] == CARD_NAMES, "the card file's order"
    played = cards[opal]["played"]
    # seats that played Opal: g0 s0 (won), g1 s1 (won), g2 s0 (lost), g3 s1 (tie)
    assert (played["n"], played["wins"], played["rate"]) == (4, 2.5, 0.625)
    assert played["share"] == 4 / 8 and played["delta"] == pytest.approx(0.125)
    assert (played["low"], played["high"]) == pytest.approx(wilson(2.5, 4))
    assert played["rest_n"] == 4 and played["rest_rate"] == pytest.approx(1.5 / 4)  # 0 + 0 + 1 + 0.5
    assert played["gap"] == pytest.approx(0.625 - 0.375)
    drawn = cards[opal]["drawn"]
    assert (drawn["n"], drawn["wins"]) == (5, 2.5)  # g0 both seats (1 + 0), g1 s1 (1), g2 s0 (0), g3 s1 (½)
    assert cards[usurper]["played"]["rate"] == 0.0 and cards[usurper]["played"]["n"] == 1
    never = cards["Temple Servant"]["played"]
    assert never["n"] == 0 and never["rate"] is None and never["delta"] is None and never["gap"] is None
    assert not never["flag"] and never["rest_rate"] == 0.5


def test_a_card_that_always_wins_is_flagged_in_the_text():
    lines = [game(i, i % 2, played=(["Opal Statuary"] if i % 2 == 0 else [], ["Opal Statuary"] if i % 2 else []))
             for i in range(20)]
    report = balance_report(SAME, lines)
    opal = next(c for c in report["by_card"] if c["name"] == "Opal Statuary")
    assert opal["played"]["rate"] == 1.0 and opal["played"]["flag"]
    text = format_text(report)
    row = next(line for line in text.splitlines() if line.strip().startswith("Opal Statuary"))
    assert "100.0%!" in row and "83.9 .. 100.0" in row  # Wilson for 20 of 20
    assert not any("!" in line for line in text.splitlines() if line.strip().startswith("Temple Servant"))
    assert text.splitlines()[-1].startswith("  These are correlations")


def test_paired_difference_matches_the_paired_t_formula_for_single_games():
    rows = [(0, 1.0, 0.0), (1, 0.0, 1.0), (2, 1.0, 1.0), (3, 0.0, 1.0), (4, 1.0, 1.0)]
    diffs = [w - b for _, b, w in rows]
    result = paired_difference(rows)
    assert result["n"] == 5 and result["with"] == 0.6 and result["without"] == 0.8
    assert result["change"] == pytest.approx(0.2)
    half = Z95 * statistics.stdev(diffs) / math.sqrt(5)
    assert (result["low"], result["high"]) == pytest.approx((0.2 - half, 0.2 + half))
    assert not result["flag"]


def test_paired_difference_counts_a_pair_of_games_as_one_cluster():
    # pair 0: differences -1 and 0; pair 1: 0 and +1 -> mean 0; cluster sums -1, +1
    result = paired_difference([(0, 1.0, 0.0), (0, 0.0, 0.0), (1, 1.0, 1.0), (1, 0.0, 1.0)])
    half = Z95 * math.sqrt(2 / 1 * (1 + 1) / 16)
    assert result["change"] == 0 and (result["low"], result["high"]) == pytest.approx((-half, half))
    many = paired_difference([(i // 2, 0.0, 1.0) if i % 3 else (i // 2, 0.0, 0.5) for i in range(40)])
    assert many["flag"] and many["low"] > 0
    one = paired_difference([(0, 1.0, 0.0), (0, 0.0, 1.0)])
    assert one["low"] is None and not one["flag"], "one cluster has no interval"
    assert paired_difference([])["change"] is None


def test_ablation_from_hand_made_lines():
    base = [game(i, 0 if i < 6 else 1, turns=10, scores=(6, 4)) for i in range(8)]  # anubis in seat 0
    gone = [game(i, 1, turns=12, scores=(3, 5)) for i in range(8)]
    report = balance_report(SAME, base, {"Opal Statuary": gone, "Rabid Usurper": gone[:6]})
    opal, usurper = report["ablations"]
    assert (opal["card"], opal["devotion"], opal["god"], opal["games"]) == ("Opal Statuary", "horus", "horus", 8)
    metrics = {m["key"]: m for m in opal["metrics"]}
    assert list(metrics) == ["god", "seat0", "turns", "vp", "margin"], "no bot A metric with one bot"
    assert (metrics["god"]["with"], metrics["god"]["without"]) == (0.25, 1.0)
    assert metrics["god"]["change"] == pytest.approx(0.75) and metrics["god"]["label"] == "Horus win rate"
    assert metrics["seat0"]["change"] == pytest.approx(-0.75)
    assert (metrics["turns"]["change"], metrics["vp"]["change"], metrics["margin"]["change"]) == (2, -2, 0)
    assert metrics["turns"]["kind"] == "number" and metrics["god"]["kind"] == "rate"
    assert usurper["god"] == "anubis" and usurper["games"] == 6, "neutral -> Anubis; only the paired games"
    assert {m["key"]: m for m in usurper["metrics"]}["god"]["with"] == 1.0
    two = balance_report(MatchSetup(a="random", b="greedy"), base, {"Opal Statuary": gone})
    assert "bot_a" in [m["key"] for m in two["ablations"][0]["metrics"]]
    text = format_text(report)
    assert "Ablation: without Opal Statuary (horus, 2 copies" in text
    assert "Horus win rate" in text and "+75.0 pts!" in text


def test_bad_input_to_the_report():
    with pytest.raises(UsageError, match="Opal Statue"):
        balance_report(SAME, [game(0, 0)], {"Opal Statue": [game(0, 1)]})
    untracked = game(0, 0)
    del untracked["played"]
    with pytest.raises(UsageError, match="track_cards"):
        balance_report(SAME, [untracked])


def test_the_report_holds_the_games_match_options():
    lines = [game(i, i % 2) for i in range(4)]
    report = balance_report(MatchSetup(a="greedy", b="greedy", emissary=True, max_turns=30), lines)
    assert "game" not in report and (report["emissary"], report["max_turns"]) == (True, 30)
    assert ", with emissary, max_turns 30. Games last 10.0 turns;" in render_html(report)
    assert ". Games last 10.0 turns;" in render_html(balance_report(SAME, lines)), "defaults are not named"
    solo = balance_report(MatchSetup(a="greedy", b="corrupted-heir", level="hard"), lines)
    assert (solo["game"], solo["level"], solo["max_turns"]) == ("heir-solo", "hard", 200) and "emissary" not in solo
    assert [r["key"] for r in solo["by_god"]] == list(GODS)
    assert format_text(solo).splitlines()[:3] == format_text(balance_report(MatchSetup(a="greedy", b="corrupted-heir"),
                                                                            lines)).splitlines()[:3]


# ------------------------------------------------------------------------------------- real games


def test_a_small_real_run_is_the_report_of_its_result_lines():
    setup = MatchSetup(a="greedy", b="greedy", seed=11, track_cards=True)
    report = run_balance(replace(setup, track_cards=False), MatchOptions(games=40), ["Opal Statuary"])
    base, gone = MatchOptions(games=40), MatchOptions(games=40)
    run_match(setup, base)
    run_match(replace(setup, ablate=("Opal Statuary",)), gone)
    assert report == balance_report(setup, base.lines, {"Opal Statuary": gone.lines})
    assert all("Opal Statuary" not in g[k][s] for g in gone.lines for k in ("played", "drawn") for s in (0, 1))
    assert any("Opal Statuary" in g["played"][s] for g in base.lines for s in (0, 1))
    assert sum(r["wins"] for r in report["by_seat"]) == 40 and sum(r["wins"] for r in report["by_god"]) == 40
    for c in report["by_card"]:
        for k in ("played", "drawn"):
            assert c[k]["n"] + c[k]["rest_n"] == 80
    ablation = report["ablations"][0]
    god = {m["key"]: m for m in ablation["metrics"]}["god"]
    assert god["with"] == pytest.approx(report["by_god"][GODS.index("horus")]["rate"])
    assert ablation["games"] == 40 and god["low"] <= god["change"] <= god["high"]


@pytest.mark.parametrize("name", ["Opal Statuary", "Rabid Usurper", "Temple Servant"])
def test_core_and_reference_agree_on_ablated_decks(name):
    cards = default_cards().without(name)
    assert sum(u.copies for u in cards.units) == 40 - default_cards().unit(name).copies
    for seed in range(1, 5):
        mismatch, plies = compare_game(seed, Config(gods=GODS if seed % 2 else GODS[::-1]), cards)
        assert mismatch is None, str(mismatch)
        assert plies > 0


# ------------------------------------------------------------------------------------------- CLI


def run_cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(argv))
    return status, out.getvalue()


@pytest.fixture(scope="module")
def cli_run(tmp_path_factory) -> tuple[dict[str, Any], str, Path]:
    """One CLI run with --json and --html: the report, the HTML text and its path."""
    path = tmp_path_factory.mktemp("balance") / "report.html"
    status, out = run_cli("balance", "--games", "40", "--bots", "greedy", "--seed", "3", "--ablate", "Opal Statuary",
                          "--ablate", "Rabid Usurper", "--json", "--html", str(path), "--quiet")
    assert status == 0 and len(out.splitlines()) == 1
    return json.loads(out), path.read_text(encoding="utf-8"), path


def test_cli_json(cli_run):
    report, _, _ = cli_run
    assert report["format"] == "omen-balance/1" and report["bots"] == ["greedy", "greedy"]
    assert report["games"] == 40 and report["seed"] == 3
    assert [a["card"] for a in report["ablations"]] == ["Opal Statuary", "Rabid Usurper"]
    assert [c["name"] for c in report["by_card"]] == CARD_NAMES


def test_cli_text_with_two_bots(capsys, tmp_path):
    html = tmp_path / "r.html"
    status = main(["balance", "--games", "20", "--bots", "random,greedy", "--seed", "3", "--quiet", "--html",
                   str(html)])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    assert out.startswith("Balance report: random vs greedy, 20 games (seed 3)")
    for heading in ("By seat", "By god", "By bot", "Cards when played", "Cards when drawn"):
        assert f"\n{heading}" in out
    greedy = next(line for line in out.splitlines() if "B: greedy" in line)
    assert "!" in greedy, "greedy beats random clearly even in 20 games"
    assert "Ablation" not in out and out.rstrip().endswith(f"report written to {html}")
    assert html.exists()


def test_cli_shows_progress_on_stderr(capsys):
    assert main(["balance", "--games", "2", "--ablate", "Opal Statuary"]) == 0
    _, err = capsys.readouterr()
    assert "game" in err and "without Opal Statuary:" in err


def one_line_error(capsys, argv: list[str], *words: str) -> None:
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("omen-search: error: ")
    for word in words:
        assert word in err


@pytest.mark.parametrize("argv, words", [
    (["--ablate", "Opal Statue"], ["ablate", "Opal Statue"]),
    (["--ablate", "Opal Statuary", "--ablate", "Nobody"], ["Nobody"]),
    (["--bots", "grredy"], ["grredy"]),
    (["--bots", "greedy,random,greedy"], ["--bots"]),
    (["--bots", "human"], ["human"]),
    (["--html", "/nonexistent/folder/report.html"], ["--html", "/nonexistent/folder/report.html"]),
    (["--html", "/"], ["--html"]),
    (["--games", "0"], ["--games"]),
])
def test_bad_input_fails_before_any_game(capsys, monkeypatch, argv, words):
    def no_games(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr("omen_search.match.play_game", no_games)
    games = [] if "--games" in argv else ["--games", "10"]
    one_line_error(capsys, ["balance", "--quiet", *games, *argv], *words)


# ------------------------------------------------------------------------------------------ HTML


class Node:
    def __init__(self, tag: str, attrs: dict[str, str], parent: Node | None):
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node] = []
        self.text = ""

    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def all(self, tag: str, cls: str | None = None) -> list[Node]:
        found = []
        for child in self.children:
            if child.tag == tag and (cls is None or cls in child.classes()):
                found.append(child)
            found += child.all(tag, cls)
        return found

    def by_id(self, ident: str) -> Node:
        matches = [n for n in self.all_nodes() if n.attrs.get("id") == ident]
        assert len(matches) == 1, f"one element with id {ident!r}, got {len(matches)}"
        return matches[0]

    def all_nodes(self) -> list[Node]:
        return [n for c in self.children for n in (c, *c.all_nodes())]

    def full_text(self) -> str:
        return self.text + "".join(c.full_text() for c in self.children)


class TreeBuilder(HTMLParser):
    VOID = {"meta", "br", "hr", "img", "input", "link"}

    def __init__(self) -> None:
        super().__init__()
        self.root = Node("#root", {}, None)
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in self.VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, {k: v or "" for k, v in attrs}, self.current))

    def handle_endtag(self, tag):
        assert self.current.tag == tag, f"</{tag}> closes <{self.current.tag}>"
        assert self.current.parent is not None
        self.current = self.current.parent

    def handle_data(self, data):
        self.current.text += data


def parse(text: str) -> Node:
    builder = TreeBuilder()
    builder.feed(text)
    builder.close()
    assert builder.current is builder.root, "every element is closed"
    return builder.root


def chart_rows(root: Node, chart_id: str) -> list[Node]:
    svg = root.by_id(chart_id)
    assert svg.tag == "svg"
    return svg.all("g", "row")


def check_geometry(svg: Node) -> None:
    """Every bar runs from the reference line to its value on one linear scale, inside its whisker."""
    lo, hi, ref = (float(svg.attrs[k]) for k in ("data-lo", "data-hi", "data-ref"))
    assert lo <= ref <= hi
    (ref_line,) = svg.all("line", "ref")
    ref_x = float(ref_line.attrs["x1"])
    scales = []
    for row in svg.all("g", "row"):
        for bar in row.all("rect", "bar"):
            value = float(bar.attrs["data-value"])
            x, width = float(bar.attrs["x"]), float(bar.attrs["width"])
            end = x + width if value >= ref else x
            assert (x if value >= ref else x + width) == pytest.approx(ref_x, abs=0.02)
            assert ("up" in bar.classes()) == (value >= ref)
            if abs(value - ref) > 0.01:
                scales.append((end - ref_x) / (value - ref))
            for whisker in row.all("line", "whisker"):
                assert float(whisker.attrs["x1"]) - 0.02 <= end <= float(whisker.attrs["x2"]) + 0.02
    assert scales and max(scales) - min(scales) < 0.01 * max(scales), "one linear scale"


def test_html_has_no_external_reference_and_no_script(cli_run):
    _, text, _ = cli_run
    root = parse(text)
    assert "http://" not in text and "https://" not in text
    for node in root.all_nodes():
        assert node.tag not in ("script", "link", "img", "iframe", "object")
        for attr in ("src", "href"):
            assert attr not in node.attrs
    assert root.all("title")[0].full_text() == "Balance report: greedy vs greedy"


def test_html_overview_chart_matches_the_json(cli_run):
    report, text, _ = cli_run
    root = parse(text)
    rows = chart_rows(root, "chart-overview")
    expected = report["by_seat"] + report["by_god"]
    assert [r.attrs["data-key"] for r in rows] == ["seat 0", "seat 1", "anubis", "horus"]
    for row, stats in zip(rows, expected):
        (bar,) = row.all("rect", "bar")
        (whisker,) = row.all("line", "whisker")
        assert float(bar.attrs["data-value"]) == pytest.approx(stats["rate"], abs=1e-6)
        assert float(whisker.attrs["data-low"]) == pytest.approx(stats["low"], abs=1e-6)
        assert float(whisker.attrs["data-high"]) == pytest.approx(stats["high"], abs=1e-6)
        assert ("flag" in row.classes()) == stats["flag"]
        assert row.all("text", "label")[0].full_text() == stats["label"]
    check_geometry(root.by_id("chart-overview"))
    table = root.by_id("table-overview")
    cells = [[td.full_text() for td in tr.all("td")] for tr in table.all("tbody")[0].all("tr")]
    assert [c[0] for c in cells] == [r["label"] for r in expected]
    assert [c[3] for c in cells] == [f"{100 * r['rate']:.1f}%" for r in expected]


@pytest.mark.parametrize("key", ["played", "drawn"])
def test_html_card_charts_are_sorted_and_match_the_json(cli_run, key):
    report, text, _ = cli_run
    root = parse(text)
    cards = {c["name"]: c[key] for c in report["by_card"]}
    rows = chart_rows(root, f"chart-{key}")
    names = [r.attrs["data-key"] for r in rows]
    assert sorted(names) == sorted(cards), "one row per card"
    rates = [cards[n]["rate"] for n in names if cards[n]["rate"] is not None]
    assert rates == sorted(rates, reverse=True), "best first"
    for row in rows:
        stats = cards[row.attrs["data-key"]]
        bars, whiskers, rest = row.all("rect", "bar"), row.all("line", "whisker"), row.all("circle", "rest")
        if stats["n"] == 0:
            assert not bars and not whiskers
            continue
        assert len(bars) == 1 and len(whiskers) == 1 and len(rest) == 1
        assert float(bars[0].attrs["data-value"]) == pytest.approx(stats["rate"], abs=1e-6)
        assert float(whiskers[0].attrs["data-low"]) == pytest.approx(stats["low"], abs=1e-6)
        assert float(whiskers[0].attrs["data-high"]) == pytest.approx(stats["high"], abs=1e-6)
        assert float(rest[0].attrs["data-value"]) == pytest.approx(stats["rest_rate"], abs=1e-6)
        assert row.all("text", "note")[0].full_text() == f"{100 * stats['rate']:.1f}%  n={stats['n']}"
    check_geometry(root.by_id(f"chart-{key}"))
    table = root.by_id(f"table-{key}")
    cells = [[td.full_text() for td in tr.all("td")] for tr in table.all("tbody")[0].all("tr")]
    assert [c[0] for c in cells] == names
    assert [c[3] for c in cells] == [str(cards[n]["n"]) for n in names]


def test_html_ablation_chart_matches_the_json(cli_run):
    report, text, _ = cli_run
    root = parse(text)
    rows = chart_rows(root, "chart-ablation")
    expected = [(f"{a['card']}|{m['key']}", m) for a in report["ablations"] for m in a["metrics"]
                if m["kind"] == "rate"]
    assert [r.attrs["data-key"] for r in rows] == [k for k, _ in expected]
    assert [k for k, _ in expected] == ["Opal Statuary|god", "Opal Statuary|seat0", "Rabid Usurper|god",
                                        "Rabid Usurper|seat0"]
    for row, (_, m) in zip(rows, expected):
        assert float(row.all("rect", "bar")[0].attrs["data-value"]) == pytest.approx(m["change"], abs=1e-6)
        (whisker,) = row.all("line", "whisker")
        assert float(whisker.attrs["data-low"]) == pytest.approx(m["low"], abs=1e-6)
    svg = root.by_id("chart-ablation")
    assert float(svg.attrs["data-ref"]) == 0.0
    table = root.by_id("table-ablation")
    assert len(table.all("tbody")[0].all("tr")) == sum(len(a["metrics"]) for a in report["ablations"])


def test_html_escapes_card_names(write_cards, seed_toml):
    path = write_cards(seed_toml.replace('name = "Opal Statuary"', 'name = "Sun & <Moon>"'))
    setup = MatchSetup(a="greedy", b="greedy", cards=str(path))
    lines = [game(i, i % 2, played=(["Sun & <Moon>"], [])) for i in range(4)]
    text = render_html(balance_report(setup, lines, {"Sun & <Moon>": lines}))
    assert "Sun &amp; &lt;Moon&gt;" in text and "<Moon>" not in text
    root = parse(text)
    labels = [r.all("text", "label")[0].full_text() for r in chart_rows(root, "chart-played")]
    assert "Sun & <Moon>" in labels
    assert "Sun & <Moon>|god" in [r.attrs["data-key"] for r in chart_rows(root, "chart-ablation")]
    assert "Sun & <Moon>" in [td.full_text() for td in root.by_id("table-played").all("td")]


# ---------------------------------------------------------------------------------- in a browser


def png_pixels(data: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Width, height and the RGB pixels, row by row, of an 8-bit RGB or RGBA PNG (enough of the
    format for a browser's screenshot)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        header = chunk if kind == b"IHDR" else header
        idat += chunk if kind == b"IDAT" else b""
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, "8-bit RGB(A), not interlaced"
    bpp = 3 if colour == 2 else 4
    raw, stride, pixels = zlib.decompress(idat), width * bpp, []
    prev = bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        pixels += [(line[i], line[i + 1], line[i + 2]) for i in range(0, stride, bpp)]
        prev = line
    return width, height, pixels


CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed")
def test_the_report_draws_in_headless_chromium(cli_run, tmp_path):
    report, _, path = cli_run
    png = tmp_path / "report.png"
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync",
                    f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={png}", "--window-size=1200,1600",
                    path.resolve().as_uri()], capture_output=True, timeout=120, check=False)
    assert png.exists(), "Chromium wrote no screenshot"
    width, height, pixels = png_pixels(png.read_bytes())
    assert (width, height) == (1200, 1600)
    assert len(set(pixels)) > 50, "text, bars and lines, not a blank page"
    white = sum(1 for p in pixels if p == (255, 255, 255))
    assert 0.3 < white / len(pixels) < 0.99
    # the overview chart, at the top, has a green bar for the seat above 50% and a red one for the other
    seat0 = report["by_seat"][0]["rate"]
    assert seat0 != 0.5, "the seed gives a match that is not exactly even"
    green = sum(1 for r, g, b in pixels if g > r + 25 and g > b + 25)
    red = sum(1 for r, g, b in pixels if r > g + 40 and r > b + 40)
    assert green > 200 and red > 200, (green, red)


# ------------------------------------------------------------------------------- OMEGA and OMNIA


def _omega_names() -> set[str]:
    from omen_search.games.omega.cards import default_cards as omega_cards

    return {e.name for e in omega_cards().egregors} | {a.name for a in omega_cards().arcana}


def _omnia_names() -> set[str]:
    from omen_search.games.omnia.cards import default_cards as omnia_cards

    return {c.name for c in omnia_cards().cards}


# a game of N seats, what a report of it rates, what "drawn" means there, and its options
N_SEAT_GAMES = [
    ("omega-3", _omega_names, "Drawn: controlled (an Egregor) or taken (an Arcana token)", {}),
    ("omega-4", _omega_names, "Drawn: controlled (an Egregor) or taken (an Arcana token)", {}),
    ("omnia", _omnia_names, "Drawn: owned: in the starting deck or bought", {"flavors": "rotate"}),
    ("omnia-3", _omnia_names, "Drawn: owned: in the starting deck or bought", {"flavors": "rotate"}),
    ("omnia-4", _omnia_names, "Drawn: owned: in the starting deck or bought", {}),
]


@pytest.mark.parametrize("name, names, drawn, options", N_SEAT_GAMES, ids=[g[0] for g in N_SEAT_GAMES])
def test_n_seat_balance_by_seat_and_card(name, names, drawn, options):
    """Each seat's win rate of N (the seat scores of a game add up to one win), each card's when
    played and drawn, and what "drawn" means in the game (OMEGA: held; OMNIA: owned)."""
    players = get_game(name).players
    setup = MatchSetup(bots=("random",) * players, seed=4, game=name, track_cards=True, options=options)
    options_ = MatchOptions(games=2 * players)
    run_match(setup, options_)
    report = balance_report(setup, options_.lines)
    assert report.get("seats", 2) == players and [r["key"] for r in report["by_seat"]] == [f"seat {s}" for s in
                                                                                          range(players)]
    assert sum(r["wins"] for r in report["by_seat"]) == pytest.approx(2 * players)
    assert all(r["low"] <= r["rate"] <= r["high"] for r in report["by_seat"])
    rows = {c["name"]: c for c in report["by_card"]}
    assert rows and set(rows) <= names()
    for g in options_.lines:
        for s in range(players):
            assert set(g["played"][s]) <= set(g["drawn"][s])  # a card played was held (owned) then
    for row in rows.values():
        assert row["played"]["n"] <= row["drawn"]["n"]
        assert row["drawn"]["n"] + row["drawn"]["rest_n"] == players * len(options_.lines)
    assert drawn in format_text(report)


@pytest.mark.parametrize("name, card", [("omega-3", "Nodo"), ("omega-3", "The Magician"), ("omnia", "Tide Sentinel"),
                                        ("omnia-3", "Ember Duelist")])
def test_ablation_takes_a_card_out(name, card):
    players = get_game(name).players
    setup = MatchSetup(bots=("random",) * players, seed=2, game=name)
    report = run_balance(setup, MatchOptions(games=2 * players), [card])
    ablation = report["ablations"][0]
    assert ablation["card"] == card and ablation["games"] == 2 * players
    seat0 = {m["key"]: m for m in ablation["metrics"]}["seat0"]
    assert seat0["with"] == pytest.approx(report["by_seat"][0]["rate"])
    gone = MatchOptions(games=2 * players)
    run_match(replace(setup, ablate=(card,), track_cards=True), gone)
    assert all(card not in g[k][s] for g in gone.lines for k in ("played", "drawn") for s in range(players))


def test_omega_ablation_refuses_an_unknown_card_and_a_set_too_small():
    from omen_search.games.omega.cards import MIN_EGREGORS
    from omen_search.games.omega.cards import default_cards as omega_cards

    cards = omega_cards()
    with pytest.raises(UsageError, match="ablate: no Egregor or Arcanum called 'Nobody'"):
        cards.without("Nobody")
    smaller = cards.without("Nodo")
    assert len(smaller.egregors) == len(cards.egregors) - 1 and smaller.sha256 != cards.sha256
    assert smaller.name == f"{cards.name} without Nodo"
    for egregor in cards.egregors[1:len(cards.egregors) - MIN_EGREGORS]:
        smaller = smaller.without(egregor.name)
    assert len(smaller.egregors) == MIN_EGREGORS
    with pytest.raises(UsageError, match=f"would have {MIN_EGREGORS - 1} Egregors"):
        smaller.without(smaller.egregors[0].name)


def _omega_without() -> Any:
    from omen_search.games.omega.cards import default_cards as omega_cards

    return omega_cards().without("Nodo").without("The Magician")


def _omnia_without() -> Any:
    from omen_search.games.omnia.cards import default_cards as omnia_cards

    return omnia_cards().without("Tide Sentinel").without("Eclipse").without("Flame Lance")


@pytest.mark.parametrize("family, cards", [("omega", _omega_without), ("omnia", _omnia_without)])
def test_core_and_reference_agree_on_an_ablated_set(family, cards):
    from omen_search.bots import RandomBot

    for seed, name in enumerate((family, f"{family}-3", f"{family}-4")):
        game_, smaller = get_game(name), cards()
        reference = game_.new_initial_state(seed, engine="reference", cards=smaller)
        core = game_.new_initial_state(seed, engine="core", cards=smaller)
        bot = RandomBot(seed)
        while not reference.is_terminal():
            assert core.legal_moves() == reference.legal_moves()
            move = bot.choose(reference)
            reference.apply(move)
            core.apply(move)
        assert core.is_terminal() and core.scores() == reference.scores()


# ------------------------------------------------------------------------------------------ OMNIA


@pytest.mark.parametrize("players", [2, 3, 4])
def test_omnia_rotation_deals_each_flavor_to_each_seat_equally_often(players):
    """``--flavors rotate``: over a cycle of N × C(4, N) deals each flavor sits in every seat the same
    number of times (so a flavor's win rate carries no seat advantage), deal 0 is the first flavors."""
    from collections import Counter
    from itertools import combinations

    from omen_search.games.omnia.rules import rotated_flavors

    names = ("ember", "tide", "grove", "dusk")
    cycle = players * len(list(combinations(names, players)))
    deals = [rotated_flavors(players, names, deal) for deal in range(cycle)]
    assert deals[0] == names[:players] and rotated_flavors(players, names, cycle) == deals[0]
    assert all(len(set(d)) == players for d in deals)
    seats = Counter((seat, flavor) for d in deals for seat, flavor in enumerate(d))
    assert set(seats.values()) == {cycle // len(names)} and len(seats) == players * len(names)
    with pytest.raises(UsageError, match="flavors: rotate deals 4 flavors a game, the set has 3"):
        rotated_flavors(4, names[:3], 0)


def test_omnia_report_by_flavor_over_the_games_each_flavor_was_dealt():
    """A rotated match deals the flavors by deal number with seat 0 first; each flavor's row counts
    the games it was in (a win shared out over the flavors of a game), and the labels fit OMNIA."""
    from omen_search.games.omnia.rules import rotated_flavors

    names = ("ember", "tide", "grove", "dusk")
    setup = MatchSetup("random", "random", seed=3, game="omnia", options={"flavors": "rotate"}, track_cards=True)
    options = MatchOptions(games=24)
    run_match(setup, options)
    for g in options.lines:
        assert tuple(g["flavors"]) == rotated_flavors(2, names, g["pair"])
    report = balance_report(setup, options.lines)
    rows = {r["key"]: r for r in report["by_flavor"]}
    assert list(rows) == list(names) and all(r["n"] == 12 for r in rows.values())
    assert sum(r["wins"] for r in rows.values()) == pytest.approx(24)
    assert report["by_seat"][0]["label"] == "seat 0 (first)"
    text = format_text(report)
    assert "points (prestige + life, N-score-2)" in text and " flavor " in text
    assert "VP" not in text and "devotion" not in text
    page = render_html(report)
    assert "VP" not in page and "devotion" not in page and "<th>flavor</th>" in page
    assert {c["name"]: c["flavor"] for c in report["by_card"]}["Squire"] == "basic"


def test_omnia_report_without_a_fixed_first_seat_names_none_first():
    """Without ``--first-player`` (or ``--flavors rotate``) OMNIA draws the first player game by game
    (N-setup-4), so no seat is called first; the flavors named stay in their seats."""
    setup = MatchSetup("random", "random", seed=3, game="omnia", options={"flavors": "grove,dusk"},
                       track_cards=True)
    options = MatchOptions(games=4)
    run_match(setup, options)
    report = balance_report(setup, options.lines)
    assert [r["label"] for r in report["by_seat"]] == ["seat 0", "seat 1"]
    assert [r["key"] for r in report["by_flavor"]] == ["grove", "dusk"]
    assert all(g["flavors"] == ["grove", "dusk"] for g in options.lines)


def test_d_omnia_11_only_a_flavor_deck_card_is_left_out_and_its_deck_shrinks():
    """D-omnia-11: ``without`` takes every copy of a flavor-deck card out, so the Shop deck is that
    much smaller (no basic card replaces it); a basic card, a source stack's card and a flavor deck
    left with fewer than the Shop Row's cards are refused."""
    from omen_search.games.omnia.cards import SHOP_ROW
    from omen_search.games.omnia.cards import default_cards as omnia_cards

    cards = omnia_cards()
    smaller = cards.without("Tide Sentinel")
    assert smaller.name == f"{cards.name} without Tide Sentinel" and smaller.sha256 != cards.sha256
    assert len(smaller.deck_of("tide")) == 17 and smaller.basics() == cards.basics()
    state = get_game("omnia").new_initial_state(1, engine="reference", cards=smaller)
    assert len(state.shop_deck) + len(state.row) == 20 + 17
    with pytest.raises(UsageError, match="ablate: no card called 'Nobody'"):
        cards.without("Nobody")
    with pytest.raises(UsageError, match="'Squire' is a basic card"):
        cards.without("Squire")
    with pytest.raises(UsageError, match="'Tide Wellspring' is in tide's source stack"):
        cards.without("Tide Wellspring")
    for card in [c for c in cards.cards if c.flavor == "tide" and c.set == "deck"]:
        left = len(smaller.deck_of("tide")) - (card.copies if smaller.index(card.name) is not None else 0)
        if left < SHOP_ROW:
            with pytest.raises(UsageError, match=f"the tide flavor deck .* would have {left} cards"):
                smaller.without(card.name)
            break
        if smaller.index(card.name) is not None:
            smaller = smaller.without(card.name)
    else:
        raise AssertionError("the tide deck never got too small")


def test_cli_balance_omnia_ablates_a_flavor_card_and_refuses_a_basic_one(capsys):
    assert main(["balance", "--game", "omnia", "--flavors", "rotate", "--games", "4", "--quiet", "--json",
                 "--ablate", "Tide Sentinel"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ablations"][0]["card"] == "Tide Sentinel" and report["ablations"][0]["flavor"] == "tide"
    assert report["flavors"] == "rotate" and report["score_unit"] == "point"
    assert main(["balance", "--game", "omnia", "--games", "2", "--quiet", "--ablate", "Squire"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "only a flavor deck's card can be left out" in err
