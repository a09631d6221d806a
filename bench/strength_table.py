"""Print the Markdown tables of docs/strength.md from the match results in bench/strength/.

Usage: python3 bench/strength_table.py [DIR]   (DIR defaults to bench/strength next to this file)

Each ``NAME.jsonl`` is a results file written by ``omen-search match --out`` (bench/strength.sh and
bench/solo-ladder.sh run them); the totals are recomputed from its game lines, so the tables never
disagree with the files. The two-player rows come in one table per game
(headed by the game's name, Heir's first; the rows whose bots search for a time, ``seconds=``,
in a table of their own, "at equal time"), the solo ladder after them, then the matches of more
than two bots (the Grand Melee's), one row for each, bot A's score and wins against the others.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from omen_search.match import MatchResult, RotationResult, read_results
from omen_search.stats import wilson


def header(path: Path) -> dict:
    with open(path, encoding="utf-8") as f:
        return json.loads(f.readline())["match"]


def command(name: str, match: dict, games: int) -> str:
    if match.get("level"):
        game = f" --game heir-solo --level {match['level']}"
    else:
        game = f" --game {match['game']}" if match.get("game", "heir") != "heir" else ""
    bots = " ".join(match["bots"]) if "bots" in match else f"{match['a']} {match['b']}"
    return (f"`omen-search match {bots}{game} --games {games} --seed {match['seed']} "
            f"--workers 2 --out bench/strength/{name}.jsonl --resume`")


def percent(x: float) -> str:
    return f"{100 * x:.1f}"


def main(folder: Path) -> None:
    duels: dict[str, list] = {}  # by game, Heir's first
    ladder = []
    rotations = []
    def natural(path: Path) -> list:
        return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path.stem)]

    for path in sorted(folder.glob("*.jsonl"), key=natural):
        match = header(path)
        lines = read_results(path)
        if "bots" in match:
            rotations.append((path.stem, match, RotationResult.from_lines(match["game"], match["bots"], lines)))
            continue
        result = MatchResult.from_lines(match["a"], match["b"], lines, level=match.get("level"))
        if match.get("level"):
            ladder.append((path.stem, match, result))
        else:
            timed = "seconds=" in match["a"] + match["b"]  # a budget in time: the table at equal time
            game = match.get("game", "heir") + (", at equal time" if timed else "")
            duels.setdefault(game, []).append((path.stem, match, result))

    def heir_first(item: tuple) -> tuple:
        return item[0].split(",")[0] != "heir", "," in item[0]

    for number, (game, rows) in enumerate(sorted(duels.items(), key=heir_first)):
        if number:
            print()
        print(f"{game}:")
        print("| A | B | games | A's score % (95%) | Elo of A (95%) | LOS | pairs 0/½/1/1½/2 | reproduce |")
        print("| --- | --- | ---: | --- | --- | ---: | --- | --- |")
        for name, match, r in rows:
            low, high = wilson(r.a_wins + 0.5 * r.ties, r.games)
            print(f"| `{r.a}` | `{r.b}` | {r.games} | {percent(r.score)} ({percent(low)}-{percent(high)}) | "
                  f"{r.elo:+.0f} ({r.elo_low:+.0f} .. {r.elo_high:+.0f}) | {100 * r.los:.1f}% | "
                  f"{'/'.join(map(str, r.pentanomial))} | {command(name, match, r.games)} |")
    if rotations:
        print()
        print("| game | A | the others | games | A's score % (95%) | even | A's wins % (95%) | reproduce |")
        print("| --- | --- | --- | ---: | --- | ---: | --- | --- |")
    for name, match, rot in rotations:
        a = rot.by_bot[0]
        others = ", ".join(f"`{b}`" for b in rot.bots[1:])
        print(f"| {rot.game} | `{rot.bots[0]}` | {others} | {rot.games} | {percent(a['score'])} "
              f"({percent(a['score_low'])}-{percent(a['score_high'])}) | {percent(rot.total / len(rot.bots))} | "
              f"{percent(a['win_rate'])} ({percent(a['win_low'])}-{percent(a['win_high'])}) | "
              f"{command(name, match, rot.games)} |")
    if not ladder:
        return
    print()
    print("| bot | level | games | wins | win % (95%) | reproduce |")
    print("| --- | --- | ---: | ---: | --- | --- |")
    order = {"novice": 0, "normal": 1, "hard": 2, "brutal": 3}
    kinds = ["random", "greedy", "pimc", "ismcts", "ismcts-mo"]  # weakest first

    def cell(row: tuple) -> tuple:
        name, match, _ = row
        return kinds.index(match["a"].split(":")[0]), natural(Path(name.rsplit("-", 1)[0])), order[match["level"]]

    for name, match, r in sorted(ladder, key=cell):
        print(f"| `{r.a}` | {r.level} | {r.games} | {r.a_wins} | {percent(r.seat0_win_rate)} "
              f"({percent(r.seat0_low)}-{percent(r.seat0_high)}) | {command(name, match, r.games)} |")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "strength")
