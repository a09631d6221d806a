"""Fuzzing the command line: any argument vector makes ``omen_search.cli.main`` exit 0, or exit 2
with exactly one ``omen-search: error: …`` line on stderr; no exception escapes, nothing hangs.

A case is one argument vector, run in this process (``fuzzlib.run_cli``: stdout and stderr captured,
stdin given, the working directory the case's own folder). It is built from the grammar of the
commands: a subcommand, a random subset of its options, each with a value that is valid, at or
past a bound, of the wrong type or junk; files that are real (the built-in card file, the
``docs/examples`` documents read at test time), mutated, of the wrong kind, missing, folders,
``/dev/null`` or paths with a NUL byte. A third of the vectors are then edited as a list of tokens
(a token dropped, repeated, swapped with the next, or junk inserted). Budgets are kept short so that
no accepted vector runs long: a vector that parses to more than a few games, search iterations or
seconds is drawn again (``is_cheap``); the Ray backend is never started.

Default 60 cases; ``OMEN_FUZZ=long`` 5000.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from omen_search.bots import parse_spec, split_players
from omen_search.cli import build_parser
from omen_search.errors import OmenError

from fuzzlib import EXAMPLES, Case, check_cli_contract, fuzz, mutate_json, mutate_text, run_cli
from process_helper import omen_env
from positions_helper import seed_card_text

UNITS = ("Opal Statuary", "Temple Servant", "Tortured Soul", "Rabid Usurper")
CHEAP_BOTS = ("random", "greedy", "ismcts:iterations=20", "ismcts-mo:iterations=10,c=0.3", "pimc:iterations=5",
              "ismcts:iterations=8,workers=2", "ismcts:iterations=5,c=0")
BAD_BOTS = ("human", "corrupted-heir", "ismcts:iterations=0", "ismcts:iterations=1000000001", "ismcts:c=-1",
            "ismcts:c=nan", "ismcts:c=inf", "pimc:c=1", "ismcts:iterations=abc", "ismcts:iterations", "foo", "",
            "ismcts:iterations=1e3", "ismcts:seconds=0", "ismcts:seconds=3601", "ismcts:workers=65", "RANDOM",
            "ismcts:", "ismcts:,", "greedy:x=1", "ismcts:iterations=10,iterations=20", "ismcts:seconds=nan",
            "ismcts:iterations=-5", "pimc:workers=2", "ismcts:iterations=1_0", "ismcts:iterations=１０")
INTS = ("0", "1", "2", "3", "-1", "65535", "65536", "1e3", "0x10", "abc", "", " 3", "3.5", "nan", "inf", "-0",
        "9" * 30, "１", "1_000", "2147483648", "18446744073709551615", "18446744073709551616", "0b1", "+2", "\x00")
SEEDS = ("0", "1", "7", "0x10", "0b101", "0o7", "18446744073709551615", "18446744073709551616", "-1", "abc", "",
         "1e3", "99999999999999999999999", "０")
SECONDS = ("0.001", "0.01", "0", "-1", "nan", "inf", "3600", "3601", "1e-9", "abc", "", "1e400")


class Files:
    """The files a case may name, made in the case's folder."""

    def __init__(self, case: Case):
        rng = case.rng
        folder = case.path("x").parent
        self.folder = folder
        self.cards = folder / "cards.toml"
        self.cards.write_text(seed_card_text(), encoding="utf-8")
        self.bad_cards = folder / "bad-cards.toml"
        self.bad_cards.write_text(mutate_text(rng, seed_card_text()), encoding="utf-8")
        self.docs: dict[str, Path] = {}
        for name in ("record.json", "observation.json", "position.json", "advice-record.json",
                     "advice-observation.json", "advice-handwritten.json"):
            source = EXAMPLES / name
            if source.exists():
                self.docs[name] = source
        self.mutated = folder / "mutated.json"
        base = rng.choice(sorted(self.docs.values())) if self.docs else None
        if base is not None:
            try:
                doc = json.loads(base.read_text(encoding="utf-8"))
                text = json.dumps(mutate_json(rng, doc))
            except ValueError:
                text = "{}"
            self.mutated.write_text(mutate_text(rng, text) if rng.random() < 0.3 else text, encoding="utf-8")
        self.empty = folder / "empty.json"
        self.empty.write_text("", encoding="utf-8")
        self.binary = folder / "binary.json"
        self.binary.write_bytes(bytes(range(256)))
        self.existing = folder / "existing.out"
        self.existing.write_text("{}\n", encoding="utf-8")
        self.subdir = folder / "sub"
        self.subdir.mkdir(exist_ok=True)

    def odd(self, rng: random.Random) -> str:
        return rng.choice((str(self.folder / "missing.json"), str(self.subdir), "/dev/null", str(self.empty),
                           str(self.binary), str(self.folder / "a\x00b"), "", str(self.mutated), str(self.cards)))

    def doc(self, rng: random.Random, *names: str) -> str:
        """A document file: mostly one of ``names`` (the right kind), else any other or an odd path."""
        r = rng.random()
        good = [str(self.docs[n]) for n in names if n in self.docs]
        if r < 0.55 and good:
            return rng.choice(good)
        if r < 0.75:
            return str(self.mutated)
        if r < 0.85 and self.docs:
            return str(rng.choice(sorted(self.docs.values())))
        return self.odd(rng)

    def card_file(self, rng: random.Random) -> str:
        return rng.choice((str(self.cards), str(self.cards), str(self.bad_cards), self.odd(rng)))

    def output(self, rng: random.Random, name: str) -> str:
        r = rng.random()
        if r < 0.6:
            return str(self.folder / f"{name}-{rng.randrange(1000)}")
        if r < 0.7:
            return str(self.existing)
        return rng.choice((str(self.subdir), "/dev/null", str(self.folder / "missing" / name), str(self.folder / "o\x00"),
                           "", str(self.binary)))


def pick(rng: random.Random, good: tuple, bad: tuple, p_good: float = 0.9) -> str:
    return rng.choice(good) if rng.random() < p_good else rng.choice(bad)


def game_options(rng: random.Random, f: Files, solo_ok: bool = True) -> list[str]:
    out: list[str] = []
    if rng.random() < 0.3:
        out += ["--cards", f.card_file(rng)]
    if solo_ok and rng.random() < 0.25:
        out += ["--game", pick(rng, ("heir-solo", "heir"), ("solo", "HEIR", ""))]
    if rng.random() < 0.2:
        out += ["--level", pick(rng, ("novice", "normal", "hard", "brutal"), ("easy", "impossible", "", "Novice"))]
    if rng.random() < 0.4:
        out += ["--seed", rng.choice(SEEDS)]
    if rng.random() < 0.15:
        out += ["--first-player", pick(rng, ("0", "1"), ("2", "-1", "x"))]
    if rng.random() < 0.15:
        out += ["--gods", pick(rng, ("anubis,horus", "horus,anubis", " Horus , ANUBIS "),
                               ("anubis,anubis", "anubis", "anubis,horus,horus", "", ",", "seth,horus"))]
    if rng.random() < 0.15:
        out.append("--emissary")
    if rng.random() < 0.2:
        out += ["--max-turns", pick(rng, ("1", "3", "12", "200", "65535"), INTS)]
    return out


def flags(rng: random.Random, *names: str) -> list[str]:
    return [n for n in names if rng.random() < 0.3]


def argv_play(rng: random.Random, f: Files) -> list[str]:
    out = ["play"]
    if rng.random() < 0.8:
        n = rng.choice((2, 2, 2, 1, 3))
        out += ["--players", ",".join(pick(rng, CHEAP_BOTS, BAD_BOTS + ("human",), 0.85) for _ in range(n))]
    out += game_options(rng, f)
    if rng.random() < 0.3:
        out += ["--engine", pick(rng, ("core", "reference"), ("Core", "c", ""))]
    if rng.random() < 0.3:
        out += ["--record", f.output(rng, "game.json")]
    return out + flags(rng, "--json")


def argv_match(rng: random.Random, f: Files) -> list[str]:
    out = ["match"]
    for _ in range(rng.choice((2, 2, 2, 1, 3))):
        out.append(pick(rng, CHEAP_BOTS + ("corrupted-heir",), BAD_BOTS, 0.85))
    if rng.random() < 0.25:
        out += ["--game", pick(rng, ("heir-solo", "heir"), ("solo",))]
    if rng.random() < 0.2:
        out += ["--level", pick(rng, ("novice", "brutal"), ("easy",))]
    out += ["--games", pick(rng, ("1", "2", "3", "4"), INTS, 0.85)]
    if rng.random() < 0.3:
        out += ["--seed", rng.choice(SEEDS)]
    if rng.random() < 0.3:
        out += ["--workers", pick(rng, ("1", "2"), ("0", "65", "10001", "-1", "x"))]
    if rng.random() < 0.1:
        out += ["--backend", pick(rng, ("local",), ("Ray", "", "threads"))]
    if rng.random() < 0.1:
        out += ["--address", rng.choice(("auto", "", "127.0.0.1:1"))]
    if rng.random() < 0.4:
        out += ["--out", f.output(rng, "m.jsonl")]
    if rng.random() < 0.3:
        out.append("--resume")
    if rng.random() < 0.2:
        out.append("--sprt")
        if rng.random() < 0.7:
            out.append(rng.choice(("elo0=0,elo1=10", "elo0=0,elo1=10,alpha=0.05,beta=0.05", "elo0=10,elo1=0",
                                   "elo0=0,elo1=1e9", "alpha=0.5", "elo0=nan", "x", "", "elo0=-2000,elo1=2000",
                                   "elo0=0,elo1=10,alpha=0,beta=0.05", "elo1=5", "elo0=0,,elo1=10")))
    if rng.random() < 0.2:
        out += ["--records", rng.choice((str(f.folder / "games"), str(f.existing), "/dev/null/x", str(f.subdir)))]
    if rng.random() < 0.2:
        out += ["--report-every", pick(rng, ("0", "1", "2"), INTS)]
    if rng.random() < 0.2:
        out += ["--cards", f.card_file(rng)]
    if rng.random() < 0.2:
        out += ["--max-turns", pick(rng, ("1", "5", "200"), INTS)]
    return out + flags(rng, "--emissary", "--quiet", "--json")


def budget_options(rng: random.Random, iterations: tuple[str, ...] = ("1", "10", "50")) -> list[str]:
    r = rng.random()
    if r < 0.6:
        return ["--iterations", pick(rng, iterations, INTS, 0.8)]
    if r < 0.8:
        return ["--seconds", pick(rng, ("0.01", "0.05"), SECONDS, 0.7)]
    if r < 0.9:
        return ["--iterations", "10", "--seconds", "0.01"]
    return []


def argv_advise(rng: random.Random, f: Files) -> list[str]:
    out = ["advise"]
    r = rng.random()
    if r < 0.45:
        out += ["--observation", f.doc(rng, "observation.json", "advice-observation.json", "advice-handwritten.json")]
    elif r < 0.9:
        out += ["--record", f.doc(rng, "record.json", "advice-record.json")]
    elif r < 0.95:
        out += ["--observation", f.doc(rng, "observation.json"), "--record", f.doc(rng, "record.json")]
    if rng.random() < 0.4:
        out += ["--ply", pick(rng, ("0", "1", "10", "48", "100", "143", "144"), INTS)]
    out += budget_options(rng)
    if rng.random() < 0.3:
        out += ["--top", pick(rng, ("1", "3", "100"), INTS)]
    if rng.random() < 0.2:
        out += ["--seed", rng.choice(SEEDS)]
    if rng.random() < 0.2:
        out += ["--workers", pick(rng, ("1", "2"), ("0", "65", "x"))]
    if rng.random() < 0.2:
        out += ["--algorithm", pick(rng, ("ismcts", "ismcts-mo"), ("mcts", ""))]
    if rng.random() < 0.2:
        out += ["--cards", f.card_file(rng)]
    return out + flags(rng, "--quiet", "--json")


def argv_analyze(rng: random.Random, f: Files) -> list[str]:
    out = ["analyze"]
    if rng.random() < 0.95:
        out.append(f.doc(rng, "record.json", "advice-record.json"))
    if rng.random() < 0.95:
        out += ["--player", pick(rng, ("0", "1"), ("2", "-1", "x"))]
    out += ["--iterations", pick(rng, ("1", "3"), INTS, 0.85)]
    if rng.random() < 0.2:
        out += ["--workers", pick(rng, ("1", "2"), ("0", "65"))]
    if rng.random() < 0.2:
        out += ["--seed", rng.choice(SEEDS)]
    if rng.random() < 0.2:
        out += ["--thresholds", rng.choice(("5,10,15", "1,1,1", "0,10,15", "15,10,5", "5,10", "a,b,c", "5,10,101",
                                            "nan,nan,nan", "5,10,inf", ""))]
    if rng.random() < 0.2:
        out += ["--html", f.output(rng, "review.html")]
    if rng.random() < 0.2:
        out += ["--cards", f.card_file(rng)]
    return out + flags(rng, "--all", "--quiet", "--json")


def argv_engine(rng: random.Random, f: Files) -> list[str]:
    return ["engine"] + (["--cards", f.card_file(rng)] if rng.random() < 0.5 else [])


def argv_demo(rng: random.Random, f: Files) -> list[str]:
    out = ["demo", "--iterations", pick(rng, ("1", "5", "20"), INTS, 0.85)]
    if rng.random() < 0.3:
        out += ["--seed", rng.choice(SEEDS)]
    if rng.random() < 0.3:
        out += ["--seat", pick(rng, ("0", "1"), ("2", "x"))]
    if rng.random() < 0.4:
        out += ["--opponent", pick(rng, CHEAP_BOTS, BAD_BOTS, 0.7)]
    return out


def argv_balance(rng: random.Random, f: Files) -> list[str]:
    out = ["balance", "--games", pick(rng, ("1", "2", "4"), INTS, 0.85)]
    if rng.random() < 0.4:
        n = rng.choice((1, 2, 3))
        out += ["--bots", ",".join(pick(rng, CHEAP_BOTS, BAD_BOTS, 0.8) for _ in range(n))]
    if rng.random() < 0.3:
        out += ["--seed", rng.choice(SEEDS)]
    if rng.random() < 0.2:
        out += ["--workers", pick(rng, ("1", "2"), ("0", "65"))]
    for _ in range(rng.choice((0, 0, 1, 2))):
        out += ["--ablate", pick(rng, UNITS, ("Opal Statue", "", "opal statuary", "Sandstorm", "Temple of Light"))]
    if rng.random() < 0.2:
        out += ["--cards", f.card_file(rng)]
    if rng.random() < 0.2:
        out += ["--max-turns", pick(rng, ("1", "10"), INTS)]
    if rng.random() < 0.2:
        out += ["--html", f.output(rng, "balance.html")]
    return out + flags(rng, "--emissary", "--json", "--quiet")


def argv_perft(rng: random.Random, f: Files) -> list[str]:
    out = ["perft"] + game_options(rng, f)
    if rng.random() < 0.8:
        out += ["--depth", pick(rng, ("0", "1", "2", "3"), ("-1", "x", "", "1.5"), 0.85)]
    if rng.random() < 0.3:
        out += ["--engine", pick(rng, ("core", "reference"), ("x",))]
    return out + flags(rng, "--json")


def argv_selfcheck(rng: random.Random, f: Files) -> list[str]:
    return ["selfcheck", "--games", pick(rng, ("1", "2"), INTS, 0.85)] + game_options(rng, f) + flags(rng, "--quiet")


def argv_bench(rng: random.Random, f: Files) -> list[str]:
    return ["bench", "--seconds", pick(rng, ("0.001", "0.01"), SECONDS, 0.8)] + flags(rng, "--json")


def argv_cards(rng: random.Random, f: Files) -> list[str]:
    return ["cards"] + (["--cards", f.card_file(rng)] if rng.random() < 0.7 else []) + flags(rng, "--json")


def argv_replay(rng: random.Random, f: Files) -> list[str]:
    out = ["replay"]
    if rng.random() < 0.95:
        out.append(f.doc(rng, "record.json", "advice-record.json"))
    if rng.random() < 0.2:
        out += ["--cards", f.card_file(rng)]
    return out + flags(rng, "--json")


def argv_other(rng: random.Random, f: Files) -> list[str]:
    return rng.choice(([], ["--version"], ["--help"], ["help"], ["Play"], ["play", "-h"], ["--seed", "1"], ["-"],
                       ["--"], ["match"], ["advise"], ["analyze"], ["replay"], ["\x00"], ["é"], ["play", "--players"]))


COMMANDS = {"play": argv_play, "match": argv_match, "advise": argv_advise, "analyze": argv_analyze,
            "engine": argv_engine, "demo": argv_demo, "balance": argv_balance, "perft": argv_perft,
            "selfcheck": argv_selfcheck, "bench": argv_bench, "cards": argv_cards, "replay": argv_replay,
            "other": argv_other}
WEIGHTS = {"play": 3, "match": 3, "advise": 4, "analyze": 2, "engine": 1, "demo": 1, "balance": 2, "perft": 2,
           "selfcheck": 1, "bench": 1, "cards": 2, "replay": 2, "other": 1}
JUNK_TOKENS = ("--", "-", "--json", "--seed", "--iterations", "-x", "--cards=", "--seed=3", "=", "", " ", "\x00",
               "é", "--no-such-option", "play", "--quiet", "--ply", "-1", "--workers", "--games=2", "--iter", "--se")


def edit_tokens(rng: random.Random, argv: list[str]) -> list[str]:
    argv = list(argv)
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(argv) + 1)
        op = rng.randrange(4)
        if op == 0 and i < len(argv):
            del argv[i]
        elif op == 1 and i < len(argv):
            argv.insert(i, argv[i])
        elif op == 2 and i + 1 < len(argv):
            argv[i], argv[i + 1] = argv[i + 1], argv[i]
        else:
            argv.insert(i, rng.choice(JUNK_TOKENS))
    return argv


def _cheap_bot(spec: str, seconds_ok: bool) -> bool:
    try:
        kind, options = parse_spec(spec)
    except OmenError:
        return True  # refused before anything runs
    if (options.get("iterations") or 0) > 50 or (options.get("workers") or 1) > 2:
        return False
    return "seconds" not in options or (seconds_ok and options["seconds"] <= 0.002)


def is_cheap(argv: list[str]) -> bool:
    """Whether ``argv``, if the parser accepts it, asks only for a little work (else: draw again)."""
    try:
        args = build_parser().parse_args(argv)
    except (OmenError, SystemExit):
        return True
    command = getattr(args, "command", None)
    if getattr(args, "backend", "local") == "ray":
        return False
    iterations = getattr(args, "iterations", None)
    seconds = getattr(args, "seconds", None)
    if command in ("advise",) and (iterations is None and seconds is None):
        return False
    if command in ("advise", "analyze", "demo") and iterations is not None and iterations > (10 if command == "analyze" else 50):
        return False
    if seconds is not None and seconds > (0.05 if command != "bench" else 0.01):
        return False
    if getattr(args, "games", 0) > 4 or getattr(args, "workers", 1) > 2 or getattr(args, "depth", 0) > 3:
        return False
    if command == "perft" and args.engine == "reference" and args.depth > 2:
        return False
    if command == "selfcheck" and args.games > 2:
        return False
    specs: list[str] = []
    for name in ("players", "bots", "opponent"):
        if isinstance(getattr(args, name, None), str):
            specs += split_players(getattr(args, name))
    specs += [getattr(args, name) for name in ("bot_a", "bot_b") if isinstance(getattr(args, name, None), str)]
    return all(_cheap_bot(s, command == "play") for s in specs)


STDIN_LINES = ("0", "1", "end", "pass", "junk", "99", "", "wealth draw 2 coin 1", '{"id": 1, "action": "query_version"}',
               '{"id": 2, "observation": {}, "maxIterations": 5}', "[]", '{"id": 3, "action": "terminate", "terminateId": 2}')


def stdin_for(rng: random.Random, argv: list[str], f: Files) -> str:
    lines = [rng.choice(STDIN_LINES) for _ in range(rng.randrange(6))]
    if "engine" in argv and "advice-observation.json" in f.docs and rng.random() < 0.5:
        doc = json.loads(f.docs["advice-observation.json"].read_text(encoding="utf-8"))
        lines.append(json.dumps({"id": "q", "observation": doc, "maxIterations": 20, "top": 1}))
    return "".join(line + "\n" for line in lines)


def cli_case(case: Case) -> str:
    rng = case.rng
    f = Files(case)
    for _ in range(50):
        command = rng.choices(list(COMMANDS), weights=[WEIGHTS[c] for c in COMMANDS])[0]
        argv = COMMANDS[command](rng, f)
        if rng.random() < 0.3:
            argv = edit_tokens(rng, argv)
        if is_cheap(argv):
            break
    else:
        argv = ["cards"]
    case.note("argv", argv)
    stdin = case.note("stdin", stdin_for(rng, argv, f))
    result = run_cli(argv, stdin=stdin, cwd=f.folder)
    check_cli_contract(result, argv)
    return f"{command} {'ok' if result.status == 0 else 'refused'}"


def test_fuzz_cli(tmp_path):
    fuzz("cli", cli_case, tmp_path, default=60, long=5000)


ENCODINGS = ("utf-8", "utf-8:strict", "latin-1", "ascii", "ascii:strict", "cp1252")
STDIN_BYTES = (b"", b"0\n1\nend\n", b"\xff\xfe\n", "é\n".encode("latin-1"), b"\x00\n", "play\u2014\n".encode("utf-8"),
               b'{"id": 1, "action": "query_version"}\n\xc3\x28\n')


def cli_process_case(case: Case) -> str:
    """One argument vector in a real process, with another encoding for stdin, stdout and stderr
    (``PYTHONIOENCODING``: what a Latin-1 or ASCII terminal gives) and stdin bytes that may not be
    in it: exit 0, or 2 with one error line; never a traceback."""
    import subprocess
    import sys

    rng = case.rng
    f = Files(case)
    for _ in range(50):
        command = rng.choices(list(COMMANDS), weights=[WEIGHTS[c] for c in COMMANDS])[0]
        argv = [a for a in COMMANDS[command](rng, f) if "\x00" not in a]  # no real argv holds a NUL
        if is_cheap(argv):
            break
    else:
        argv = ["cards"]
    if rng.random() < 0.3:
        argv = rng.choice((["cards"], ["play", "--players", "human,random"], ["engine"], ["cards", "--json"]))
    encoding = case.note("encoding", rng.choice(ENCODINGS))
    case.note("argv", argv)
    stdin = case.note("stdin", rng.choice(STDIN_BYTES))
    env = omen_env(PYTHONIOENCODING=encoding)
    proc = subprocess.run([sys.executable, "-P", "-m", "omen_search", *argv], input=stdin, capture_output=True,
                          env=env, cwd=f.folder, timeout=120)
    err = proc.stderr.decode(encoding.split(":")[0], errors="replace")
    assert "Traceback" not in err, f"a traceback on stderr: {err[-2000:]}"
    if proc.returncode != 0:
        assert proc.returncode == 2, f"exit status {proc.returncode}: {err[-1000:]!r}"
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("omen-search: error: "), f"stderr {err[-2000:]!r}"
    return f"{encoding} {'ok' if proc.returncode == 0 else 'refused'}"


def test_fuzz_cli_in_a_process_with_other_encodings(tmp_path):
    fuzz("cli-process", cli_process_case, tmp_path, default=2, long=200)
