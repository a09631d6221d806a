"""The ``omen-search`` command: demo, advise, analyze, engine, serve, play, match, balance, list
cards, replay records, perft, selfcheck, bench, suite.

Every error a user can cause is an :class:`~omen_search.errors.OmenError`; the command prints it as
one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from importlib import metadata
from typing import Any, NoReturn

from omen_search import __version__, limits
from omen_search._search import MAX_CUTOFF
from omen_search.advisor import DEFAULT_ITERATIONS as ADVICE_ITERATIONS
from omen_search.advisor import DEFAULT_SETTLE as ADVICE_SETTLE
from omen_search.analysis import LABELS, THRESHOLDS
from omen_search.bots import BOT_KINDS, bot_seed, make_bot, parse_spec, split_players
from omen_search.errors import OmenError, UsageError
from omen_search.files import check_output
from omen_search.game import (
    DEFAULT_GAME,
    ENGINES,
    Game,
    Option,
    all_games,
    game_with_players,
    get_game,
    named_game,
)
from omen_search.jsonio import read_json_file
from omen_search.records import RECORD_FORMAT, load_record, make_record, replay, winner_of, write_record
from omen_search.rng import MASK64
from omen_search.search import Limit
from omen_search.suite import DEFAULT_DIR as DEFAULT_SUITE_DIR
from omen_search.table import is_table_record, load_table
from omen_search.terminal import HINT_ITERATIONS, log_game

PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line on stderr, exit status 2
        raise UsageError(f"{self.prog}: {message}")


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
    if not 0 <= value <= MASK64:
        raise argparse.ArgumentTypeError(f"must be from 0 to 2**64-1, got {value}")
    return value


def _within(bounds: tuple[int, int]) -> Callable[[str], int]:
    """An argparse type: an integer within ``bounds`` (:mod:`omen_search.limits`)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text[:40]!r}") from None
        problem = limits.int_problem(value, bounds)
        if problem:
            raise argparse.ArgumentTypeError(problem)
        return value
    return parse


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text[:40]!r}") from None
    problem = limits.seconds_problem(value)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return value


_positive = _within((1, 2**31 - 1))  # a count with no resource behind it (--top)
_iterations, _workers, _games = _within(limits.ITERATIONS), _within(limits.WORKERS), _within(limits.GAMES)
_max_turns = _within(limits.TURNS)


def _version() -> str:
    """The installed distribution's version, or the package's own when it is not installed."""
    try:
        return metadata.version("omen-search")
    except metadata.PackageNotFoundError:
        return __version__


def _add_cards(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cards", metavar="FILE", help="card file (TOML) to use instead of the built-in seed edition")


def _add_rollout(p: argparse.ArgumentParser) -> None:
    """The advisor's search options beyond its budget: its playouts, and searching on until settled."""
    from omen_search.evaluation import EVALS
    from omen_search.search import ROLLOUTS

    p.add_argument("--rollout", choices=ROLLOUTS, default="random",
                   help="the searches' playouts: uniform random moves, or MAST (docs/strength.md) (default random)")
    p.add_argument("--eval", choices=EVALS, default="none",
                   help="end the playouts with the game's learned evaluation (learned, where the game ships one; "
                        "docs/strength.md) or play them out (default none)")
    _add_settle(p)


def _add_settle(p: argparse.ArgumentParser) -> None:
    p.add_argument("--settle", type=_iterations, metavar="N",
                   help="with an iteration budget: search on, doubling, up to N iterations until the best move is "
                        "told apart from the next or both are within a point (docs/advice.md; the default "
                        f"advice: {ADVICE_ITERATIONS} settling up to {ADVICE_SETTLE})")


def _flag(option: str) -> str:
    """The command-line flag of a game option: ``first_player`` is ``--first-player``."""
    return "--" + option.replace("_", "-")


def _game_options() -> dict[str, Option]:
    """Every option of every registered game, by name (as the first game that has it words it)."""
    options: dict[str, Option] = {}
    for game in all_games():
        for option in game.options:
            options.setdefault(option.name, option)
    return options


def _add_game_flag(p: argparse.ArgumentParser, help: str | None = None, default: str | None = DEFAULT_GAME) -> None:
    """``--game NAME``, a registered game (``omen-search games`` lists them), default :data:`DEFAULT_GAME`
    (``default=None``: the command resolves it, knowing whether it was given)."""
    p.add_argument("--game", choices=[g.name for g in all_games()], default=default,
                   help=help or "; ".join(f"{g.name}: {g.title}" for g in all_games()) + f" (default {DEFAULT_GAME})")
    p.add_argument("--players-count", type=_within((1, 99)), metavar="N",
                   help="the number of players of a game played by several counts: --game omega "
                        "--players-count 4 is omega-4 (default: the count --game names)")
    for game in all_games():
        if game.variant_of is not None:
            base, flag = game.variant_of
            p.add_argument(f"--{flag}", dest=f"variant_{flag}", action="store_true",
                           help=f"with --game {base}: {game.title} (the same as --game {game.name})")


def _variant(args: argparse.Namespace) -> None:
    """``--game BASE --FLAG`` as the variant's own name (:attr:`Game.variant_of`); the flag with another
    game is a :class:`UsageError` naming both."""
    for game in all_games():
        if game.variant_of is not None and getattr(args, f"variant_{game.variant_of[1]}", False):
            base, flag = game.variant_of
            if args.game not in (None, base, game.name):  # None: a command that resolves --game itself
                raise UsageError(f"--{flag}: a variant of --game {base}, not of --game {args.game}")
            args.game = game.name


def _add_options(p: argparse.ArgumentParser, only: Sequence[str] | None = None) -> None:
    """A flag for each option of the registered games (those named in ``only``, if given)."""
    names = [g.name for g in all_games()]
    for name, option in _game_options().items():
        if only is not None and name not in only:
            continue
        owners = [g.name for g in all_games() if any(o.name == name for o in g.options)]
        where = "" if len(owners) == len(names) else f"{', '.join(owners)}: "
        if isinstance(option.default, bool):
            p.add_argument(_flag(name), action="store_const", const=True, default=None, help=where + option.help)
            continue
        choices = f"one of {' | '.join(map(str, option.choices))}; " if option.choices else ""
        p.add_argument(_flag(name), type=type(option.default), default=None, metavar=name.upper(),
                       help=f"{where}{option.help} ({choices}default {option.default})")


def _add_game(p: argparse.ArgumentParser, resumable: bool = False) -> None:
    """``--cards``, ``--game``, ``--seed`` and a flag for each registered game's options (``resumable``:
    ``--game`` and ``--seed`` default to ``None``, so that a command resuming a record can tell them given)."""
    _add_cards(p)
    _add_game_flag(p, default=None if resumable else DEFAULT_GAME)
    p.add_argument("--seed", type=_seed, default=None if resumable else 1,
                   help="game seed: fixes every shuffle (default 1)")
    _add_options(p)


def _config(args: argparse.Namespace) -> Any:
    """The configuration of ``--game`` from the option flags given; a flag of another game, or a bad
    value, is a :class:`UsageError` naming the flag."""
    game = get_game(args.game)
    given = {name: getattr(args, name) for name in _game_options() if getattr(args, name, None) is not None}
    own = [o.name for o in game.options if hasattr(args, o.name)]  # the game's options this command takes
    for name in given:
        if name not in own:
            raise UsageError(f"{_flag(name)}: not an option of --game {game.name} "
                             f"({'its options: ' + ', '.join(_flag(n) for n in own) if own else 'it has none here'})")
    try:
        return game.config(**given)
    except UsageError as exc:
        name, _, rest = str(exc).partition(":")
        raise UsageError(f"{_flag(name)}:{rest}" if name in own else str(exc)) from None


def _add_document_game(p: argparse.ArgumentParser, document: str) -> None:
    """``--game`` for a command that reads a document naming its own game."""
    p.add_argument("--game", choices=[g.name for g in all_games()],
                   help=f"refuse a {document} of another game (default: the {document}'s own game, any of them)")


def _document_game(args: argparse.Namespace, document: Any, root: str) -> Game:
    """The game of a document (``root``: record, observation), as it names it; with ``--game``, a
    document of another game is refused, naming both."""
    family_game = named_game(document, root)
    if args.game is None:
        return family_game
    game = family_game.game_of_document(document, root, family_game.load_cards(args.cards)).name
    if game != args.game:
        raise UsageError(f"--game {args.game}: the {root} is a game of {game}")
    return get_game(game)


def _bots(game: Game, players: str, seed: int) -> tuple[list[str], dict[int, Any]]:
    """The players of ``--players`` (one per deciding seat, in seat order) as every seat's name
    (the game's automaton in its own seat) and the bots by seat."""
    specs = split_players(players)
    seats = game.deciding_seats
    if len(specs) != len(seats):
        automaton = f"; {game.automaton} plays the other seat by itself" if game.automaton else ""
        raise UsageError(f"--players: {game.name} needs {len(seats)} player{'s' if len(seats) > 1 else ''}, seat "
                         f"{seats[0]} first, separated by commas{automaton}; got {players!r}")
    bots = {seat: make_bot(spec, bot_seed(seed, seat), game) for seat, spec in zip(seats, specs)}
    names = iter(specs)
    return [next(names) if seat in bots else str(game.automaton) for seat in range(game.players)], bots


def _banner(game: Game, seed: int, cards: Any) -> str:
    return " · ".join(filter(None, (game.short_title, f"seed {seed}", game.describe_cards(cards))))


def _engine(args: argparse.Namespace, game: Game) -> str:
    """``--engine``, or the game's first rules engine (the core, for a game that has one)."""
    engine = args.engine or game.engines[0]
    if engine not in game.engines:
        raise UsageError(f"--engine: {game.name} is played by {' and '.join(game.engines)} only, not {engine}")
    return engine


def _play_setup(args: argparse.Namespace) -> tuple[Game, Any, Any, list[Any], str]:
    """``play``'s game, cards, configuration, the moves already played and the players: from the flags
    for a new game; with ``--resume``, from the record (its game, seed, options, moves and, unless
    ``--players`` is given, players; every move checked). Sets ``args.game`` and ``args.seed``."""
    if args.resume is None:
        args.game, args.seed = args.game or DEFAULT_GAME, 1 if args.seed is None else args.seed
        game = get_game(args.game)
        default = ",".join("random" for _ in game.deciding_seats)
        return game, game.load_cards(args.cards), _config(args), [], args.players or default
    given = [_flag(name) for name in _game_options() if getattr(args, name, None) is not None]
    if args.seed is not None or given:
        raise UsageError(f"{'--seed' if args.seed is not None else given[0]}: a resumed game keeps the seed and "
                         f"options of its record ({args.resume})")
    record = load_record(args.resume)
    game = _document_game(args, record, "record")
    cards = game.load_cards(args.cards)
    played = replay(record, cards, game=game)
    if played.is_terminal():
        raise UsageError(f"--resume: {args.resume} is a finished game ({game.describe_result(played)})")
    args.game, args.seed = game.name, played.seed
    players = args.players
    if players is None:
        names = record.get("players")
        if not (isinstance(names, list) and len(names) == game.players and all(isinstance(n, str) for n in names)):
            raise UsageError(f"--resume: {args.resume} names no players for its {game.players} seats: give --players")
        players = ",".join(names[seat] for seat in game.deciding_seats)
    return game, cards, played.config, list(played.moves), players


def cmd_play(args: argparse.Namespace) -> int:
    game, cards, config, played, specs = _play_setup(args)
    args.engine = _engine(args, game)
    players, bots = _bots(game, specs, args.seed)
    humans = [seat for seat, spec in zip(game.deciding_seats, split_players(specs)) if parse_spec(spec)[0] == "human"]
    if humans and args.json:
        raise UsageError("--json: a game with a human player is played in text (leave out --json)")
    if args.record:
        check_output(args.record, "--record")
    if humans:
        from omen_search.terminal import TerminalGame, advisor_hint, save_path

        print(_banner(game, args.seed, cards))
        session = TerminalGame(
            game, lambda: game.new_initial_state(args.seed, engine=args.engine, cards=cards, config=config),
            players, bots, save_path(game, args.seed, args.record or args.resume), record=bool(args.record),
            cards=cards, hint=advisor_hint(game, cards, Limit(iterations=args.hint_iterations), args.seed),
            moves=played)
        print(game.describe_seats(session.state, players))
        return session.run()
    state = game.new_initial_state(args.seed, engine=args.engine, cards=cards, config=config)
    for move in played:
        state.apply(move)
    if args.json:
        while not state.is_terminal():
            state.apply(bots[state.current_player].choose(state))
    else:
        print(_banner(game, args.seed, cards))
        print(game.describe_seats(state, players))
        if played:
            print(f"Resumed after {state.ply} plies.")
        log_game(game, state, lambda s: bots[s.current_player].choose(s))
    record = make_record(state, players, game)
    if args.record:
        write_record(args.record, record, "--record")
        if not args.json:
            print(f"record written to {args.record}")
    if args.json:
        print(json.dumps({
            "winner": winner_of(state),
            "scores": list(state.scores()),
            **game.record_totals(state),
            "plies": state.ply,
            "seed": args.seed,
            "players": players,
            **({"cards": game.cards_json(cards)["name"]} if cards is not None else {}),
        }))
    return 0


def cmd_cards(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    cards = game.load_cards(args.cards)
    print(json.dumps(game.cards_json(cards), indent=1) if args.json else game.cards_table(cards))
    return 0


def _table_game(args: argparse.Namespace, record: Any) -> Game:
    """The game of a table record, as it names it; with ``--game``, another game's is refused."""
    game = named_game(record, "table")
    if args.game is not None and args.game != game.name:
        raise UsageError(f"--game {args.game}: the table record is a game of {game.name}")
    return game


def cmd_replay(args: argparse.Namespace) -> int:
    record = load_record(args.record)
    if is_table_record(record):
        return _replay_table(args, record)
    game = _document_game(args, record, "record")
    state = replay(record, game.load_cards(args.cards))
    result = {"ok": True, "plies": state.ply, "finished": state.is_terminal(),
              "scores": list(state.scores()), "winner": winner_of(state)}
    if args.json:
        print(json.dumps(result))
    else:
        status = game.describe_result(state) if state.is_terminal() else f"unfinished after {state.ply} plies"
        print(f"{args.record}: all {state.ply} moves are legal. {status}")
    return 0


def _replay_table(args: argparse.Namespace, record: dict[str, Any]) -> int:
    game = _table_game(args, record)
    table = load_table(record, game.load_cards(args.cards))
    now = table.ask()
    if args.json:
        print(json.dumps({"ok": True, "events": len(table.events), "finished": now.kind == "over", "seat": table.seat,
                          "next": now.prompt}))
    else:
        print(f"{args.record}: all {len(table.events)} events are possible (seat {table.seat}'s view). {now.prompt}.")
    return 0


def cmd_perft(args: argparse.Namespace) -> int:
    from omen_search.perft import divide

    game = get_game(args.game)
    args.engine = _engine(args, game)
    state = game.new_initial_state(args.seed, engine=args.engine, cards=game.load_cards(args.cards),
                                   config=_config(args))
    if args.depth == 0:
        rows, total = [], 1
    else:
        rows = divide(state, args.depth)
        total = sum(n for _, n in rows)
    if args.json:
        print(json.dumps({"seed": args.seed, "depth": args.depth, "engine": args.engine, "nodes": total,
                          "moves": dict(rows)}))
    else:
        for move, n in rows:
            print(f"{move}: {n}")
        print(f"\nnodes {total}  (seed {args.seed}, depth {args.depth}, engine {args.engine})")
    return 0


def cmd_selfcheck(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from omen_search.selfcheck import compare_game

    game = get_game(args.game)
    cards = game.load_cards(args.cards)
    config = _config(args)
    plies = 0
    for i in tqdm(range(args.games), desc="selfcheck", unit="game", disable=args.quiet or None, file=sys.stderr):
        mismatch, n = compare_game((args.seed + i) & MASK64, config, cards, game)  # seeds past 2**64-1 wrap to 0
        plies += n
        if mismatch is not None:
            print(f"MISMATCH {mismatch}")
            return 1
    print(f"{args.games} games, {plies} plies: the core and the reference engine agree at every ply")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from omen_search.bench import format_bench, run_bench

    result = run_bench(args.seconds, get_game(args.game))
    print(json.dumps(result) if args.json else format_bench(result))
    return 0


def cmd_train_value(args: argparse.Namespace) -> int:
    from omen_search.evaluation import write_evaluation
    from omen_search.value_training import train

    command = "omen-search train-value " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["train-value"] else ""
    target = "policy" if args.policy else "value"
    evaluation = train(args.records, get_game(args.game), target=target, cutoff=args.cutoff, folds=args.folds,
                       command=command)
    write_evaluation(args.out, evaluation)
    fitted, cv = evaluation.trained, evaluation.trained.get("cross_validated")
    if target == "value":
        what, chance, hit = "positions", f"a coin: {fitted['log_loss_of_a_coin']}", "the favourite won"
    else:
        what, chance, hit = "decisions", f"uniform: {fitted['log_loss_of_uniform']}", "the likeliest move was played"
    print(f"{evaluation.game}: {fitted[what]} {what} of {fitted['games']} games"
          + (f"; cross-validated over {cv['folds']} folds of games: log loss {cv['log_loss']} a {what[:-1]} "
             f"({chance}), {hit} {100 * cv['accuracy']:.1f}%" if cv else "")
          + f"; weights in {args.out}")
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    """List the registered games with their players and options."""
    if args.json:
        print(json.dumps([g.describe() for g in all_games()]))
        return 0
    for game in all_games():
        print(f"{game.name}: {game.title} ({game.players} players)")
        for o in game.options:
            values = f"{' | '.join(map(str, o.choices))}; " if o.choices and not isinstance(o.default, bool) else ""
            print(f"    {_flag(o.name):16} {o.help} ({values}default {o.default})")
    return 0


def _option_values(args: argparse.Namespace) -> dict[str, Any]:
    """The option flags of ``--game`` given, by option name, checked against the game (:func:`_config`)."""
    game = get_game(args.game)
    _config(args)
    return {o.name: getattr(args, o.name) for o in game.options if getattr(args, o.name, None) is not None}


def cmd_match(args: argparse.Namespace) -> int:
    from omen_search.match import MatchOptions, MatchSetup, run_match
    from omen_search.stats import Sprt

    values = _option_values(args)  # the game's options a match takes: --level, --emissary, --max-turns
    setup = MatchSetup(bots=[args.bot_a, args.bot_b, *args.more_bots], seed=args.seed, cards=args.cards,
                       records=args.records, game=args.game, options=values)
    options = MatchOptions(games=args.games, workers=args.workers, backend=args.backend, address=args.address,
                           out=args.out, resume=args.resume, sprt=Sprt.parse(args.sprt) if args.sprt else None,
                           progress=not args.quiet, report_every=0 if args.quiet else args.report_every)
    result = run_match(setup, options)
    print(json.dumps(result.to_dict()) if args.json else result.summary())
    return 0


def _advice_budget(args: argparse.Namespace) -> tuple[Limit | None, int | None]:
    """The advisor's budget from ``--iterations``/``--seconds``/``--settle``: none of them is the
    default advice (adaptive); a budget given is searched as given, settling only with ``--settle``."""
    if args.iterations is None and args.seconds is None:
        return None, args.settle
    return Limit(iterations=args.iterations, seconds=args.seconds), args.settle


def cmd_advise(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from omen_search.advisor import Advice, Advisor, describe_advice

    if args.observation is not None:
        if args.ply is not None:
            raise UsageError("--ply: goes with --record, not --observation")
        source, ply = read_json_file(args.observation, "observation"), None
        if isinstance(source, dict) and source.get("format") == RECORD_FORMAT:
            raise UsageError(f"--observation: {args.observation} is a game record; use --record FILE [--ply N]")
        game = _document_game(args, source, "observation")
    else:
        source = load_record(args.record)
        game = _document_game(args, source, "record")
        moves = source.get("moves", [])  # not a list: replaying the record names the field
        ply = args.ply if args.ply is not None else len(moves) if isinstance(moves, list) else 0
    limit, settle = _advice_budget(args)
    advisor = Advisor(limit, args.algorithm, args.seed, args.workers, cards=game.load_cards(args.cards),
                      rollout=args.rollout, settle=settle, evaluation=args.eval)
    budget = advisor.limit
    total = (advisor.settle or budget.iterations) if budget.iterations is not None else budget.seconds
    unit = "it" if budget.iterations is not None else "s"
    with tqdm(total=total, unit=unit, desc="searching", file=sys.stderr, delay=1.0, disable=args.quiet or None,
              bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f} {unit} [{elapsed}<{remaining}]") as bar:
        def progress(advice: Advice) -> bool:
            bar.update((advice.iterations if unit == "it" else advice.elapsed) - bar.n)
            return False

        advice = advisor.advise(source, ply, on_progress=progress, report_every=0.25)
    if args.json:
        print(json.dumps(advice.to_dict(args.top)))
    else:
        print(f"seat {advice.pov} to move; {advice.iterations} iterations, {advice.determinizations} "
              f"determinisations, {advice.elapsed:.1f} s")
        print(describe_advice(advice, args.top))
        best = advice.best
        if best.pv and len(best.pv) > 1:
            print("principal line: " + "; ".join(f"seat {step.seat} {step.move}" for step in best.pv))
    return 0


def _thresholds(text: str) -> tuple[float, float, float]:
    try:
        values = tuple(float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be three numbers like 5,10,15, got {text!r}") from None
    if len(values) != 3 or not 0 < values[0] <= values[1] <= values[2] <= 100:
        raise argparse.ArgumentTypeError(f"must be three increasing points of win % (0-100), got {text!r}")
    return values  # type: ignore[return-value]


def cmd_analyze(args: argparse.Namespace) -> int:
    from omen_search.analysis import analyze_game
    from omen_search.review_html import write_html

    record = load_record(args.record)
    if is_table_record(record):
        game = _table_game(args, record)
        if args.player is None:
            args.player = record.get("seat")
    else:
        game = _document_game(args, record, "record")
    if args.player is None:
        raise UsageError("--player: say which seat to review (a table record is reviewed from its own seat)")
    if not isinstance(args.player, int) or not 0 <= args.player < game.players:
        raise UsageError(f"--player: must be a seat of {game.name}, from 0 to {game.players - 1}, got {args.player}")
    if args.html:
        check_output(args.html, "--html")
    limit = None if args.iterations is None else Limit(iterations=args.iterations)
    review = analyze_game(record, args.player, limit, cards=game.load_cards(args.cards), workers=args.workers,
                          seed=args.seed, thresholds=args.thresholds, progress=not args.quiet, settle=args.settle)
    if args.html:
        write_html(review, args.html, title=f"Omen game review: {args.record}, seat {args.player}")
    if args.json:
        print(json.dumps(review.to_dict()))
        return 0
    print(f"seat {args.player}: accuracy {review.accuracy:.1f}% over {len(review.decisions)} decisions "
          f"({review.stake:.0f} points of win % at stake; {review.budget}, {review.elapsed:.1f} s)")
    shown = [d for d in review.decisions if d.label or args.all]
    width = max([len(str(m)) for d in shown for m in (d.played, d.better or "")] + [6])
    print(f"{'ply':>4}  {'played':{width}}  {'better':{width}}  {'before':>6}  {'after':>6}  {'stake':>5}  "
          f"{'acc.':>4}  label")
    for d in shown:
        print(f"{d.ply:>4}  {str(d.played):{width}}  {str(d.better or ''):{width}}  {100 * d.before.win_prob:5.1f}%  "
              f"{100 * d.after.win_prob:5.1f}%  {d.stake:5.1f}  {d.accuracy:4.0f}  {d.label or ''}")
    counts = {label: sum(1 for d in review.decisions if d.label == label) for label in LABELS}
    print(", ".join(f"{n} {label if n == 1 else PLURALS[label]}" for label, n in counts.items()))
    for d in review.costliest():
        print(f"  - {d.explain()}")
    if args.html:
        print(f"report written to {args.html}")
    return 0


def cmd_engine(args: argparse.Namespace) -> int:
    from omen_search.engine_protocol import EngineServer

    game = get_game(args.game)
    return EngineServer(sys.stdin, sys.stdout, cards=game.load_cards(args.cards), game=game).serve()


def cmd_suite(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from omen_search.suite import (describe_references, describe_results, load_suite, parse_budgets, references,
                                   run_suite, suite_files)

    limits: list[Limit | None]
    if args.budgets is not None:
        limits = list(parse_budgets(args.budgets))
    else:
        limits = [_advice_budget(args)[0]]
    suites = [(path, load_suite(path)[:args.first]) for path in suite_files(args.positions, args.game)]
    report = []
    with tqdm(total=sum(len(p) for _, p in suites) * len(limits), unit="position", desc="advising", file=sys.stderr,
              delay=1.0, disable=args.quiet or None) as bar:
        for path, positions in suites:
            results = run_suite(positions, limits, args.seed, args.workers, on_position=lambda: bar.update(1),
                                rollout=args.rollout, settle=args.settle, evaluation=args.eval)
            report.append((path, positions, results))
    if args.json:
        print(json.dumps({"games": [{"game": positions[0].game, "file": str(path), "positions": len(positions),
                                     "references": references(positions), "budgets": [r.to_dict() for r in results]}
                                    for path, positions, results in report]}))
        return 0
    for path, positions, results in report:
        print(f"{positions[0].game}: {len(positions)} positions of {path.name} (reference: "
              f"{describe_references(positions)}); regret in win-% points")
        print(describe_results(results))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from omen_search.web.server import serve

    serve(args.host, args.port, open_browser=args.open, threads=args.threads)
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from omen_search.advisor import Advisor, describe_advice

    game = get_game(args.game)
    if "core" not in game.engines:
        raise UsageError(f"--game: {game.name} has no core yet, and the advisor searches a game's core")
    advised = args.seat
    if advised not in game.deciding_seats:
        raise UsageError(f"--seat: {game.name}'s players sit in seat {' or '.join(map(str, game.deciding_seats))}, "
                         f"not {advised}")
    others = {seat: make_bot(args.opponent, bot_seed(args.seed, seat), game)
              for seat in game.deciding_seats if seat != advised}
    limit = None if args.iterations is None else Limit(iterations=args.iterations)  # None: the default advice
    advisor = Advisor(limit, seed=args.seed, game=game)
    state = game.new_initial_state(args.seed)
    rest = " and ".join(f"seat {seat}" for seat in others) or "no other seat"
    budget = f"{advisor.limit.iterations} iterations a move" + (
        f", up to {advisor.settle} until settled" if advisor.settle else "")
    print(f"{game.short_title} · seed {args.seed} · the engine ({budget}) advises "
          f"and plays seat {advised}; {rest} {'is' if len(others) < 2 else 'are'} {args.opponent}")

    def choose(state: Any) -> Any:
        if state.current_player != advised:
            return others[state.current_player].choose(state)
        if len(state.legal_move_ids()) == 1:
            return state.legal_moves()[0]
        advice = advisor.advise(state)
        print(describe_advice(advice, 3, indent="      "))
        return advice.best.move

    log_game(game, state, choose)
    return 0


def cmd_balance(args: argparse.Namespace) -> int:
    from omen_search.balance import format_text, run_balance, write_html
    from omen_search.match import MatchOptions, MatchSetup

    specs = split_players(args.bots)
    seats = len(get_game(args.game).deciding_seats)
    if seats > 2:  # a game of N seats: N bots, rotated through the seats
        if len(specs) not in (1, seats):
            raise UsageError(f"--bots: {args.game} has {seats} seats: one bot spec for all, or {seats} separated "
                             f"by commas, got {args.bots!r}")
        bots = tuple(specs * seats if len(specs) == 1 else specs)
    elif len(specs) in (1, 2):
        bots = (specs[0], specs[-1])
    else:
        raise UsageError(f"--bots: one bot spec, or two separated by a comma, got {args.bots!r}")
    if args.html:
        check_output(args.html, "--html")
    setup = MatchSetup(bots=bots, seed=args.seed, cards=args.cards, game=args.game, options=_option_values(args))
    report = run_balance(setup, MatchOptions(games=args.games, workers=args.workers, progress=not args.quiet),
                         args.ablate)
    if args.html:
        write_html(report, args.html)
    print(json.dumps(report) if args.json else format_text(report))
    if args.html and not args.json:
        print(f"report written to {args.html}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="omen-search", description="Play and analyse the Omen card games (omen-search games lists them).")
    parser.add_argument("--version", action="version", version=f"omen-search {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser(
        "play", help="play a game between bots (or you) and print it turn by turn",
        description="Plays a game and prints it turn by turn. A human player (--players human,greedy) is "
                    "shown, before each decision, the board as their seat sees it (their hand and coins; "
                    "nothing they cannot see) and their moves grouped and numbered, and types a number, a "
                    "move, or a command: help, board, moves, hint (the engine's three best moves with win % "
                    "and 95% interval, searched from what the player sees), undo (back to their previous "
                    "decision, the bots' moves since included), quit. quit and Ctrl-C save the game to "
                    "--record FILE, or to omen-GAME-seedN.json in this folder (said at the start); "
                    "`omen-search replay FILE` checks it, `omen-search analyze FILE` reviews it and "
                    "`omen-search play --resume FILE` plays on from it. With two human players (hot seat) "
                    "the screen is cleared and handed over before each one's decision.")
    p.add_argument("--players", default=None,
                   help=f"one player per seat, seat 0 first, comma-separated; kinds: {', '.join(BOT_KINDS)}; options "
                        "after a colon, e.g. ismcts:iterations=2000,c=0.7 or pimc:seconds=1 (ismcts also takes "
                        "rollout=random|mast, reuse=0|1|mast, eval=none|learned with cutoff=K and belief=B with "
                        "worlds=N; omen is ismcts with "
                        "rollout=mast,reuse=1: docs/strength.md); table=random|first|greedy "
                        "makes a bot only draft, e.g. ismcts:iterations=500,table=greedy (default random in every "
                        "seat; with --resume, the record's players)")
    p.add_argument("--resume", metavar="FILE",
                   help="play on from a saved game (a record: quit, Ctrl-C or --record wrote it); its game, seed, "
                        "options and moves are the record's, and quitting saves it back to FILE (or --record)")
    _add_game(p, resumable=True)
    p.add_argument("--engine", choices=ENGINES, help="rules engine (default: core, or the game's only engine)")
    p.add_argument("--record", metavar="FILE", help="write the game record (JSON) to FILE (with a human player: "
                                                    "also where quit and Ctrl-C save it)")
    p.add_argument("--hint-iterations", type=_iterations, default=HINT_ITERATIONS, metavar="N",
                   help=f"search iterations of a human player's hint (default {HINT_ITERATIONS})")
    p.add_argument("--json", action="store_true", help="print one JSON object with the result instead of the game")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("match", help="play a seat-swapped match between two bots and report Elo, intervals, SPRT",
                       description="Games are played in pairs on the same deal with the seats swapped; game i is "
                                   "fixed by --seed and i. A game of N > 2 players takes N bots and plays "
                                   "rotation sets of N games on a deal, every bot in every seat, and reports each "
                                   "bot's score (mean return) and wins. Each game is a task of its own: with --out, "
                                   "it is a JSON line in FILE the moment it ends (a kill loses only the games in "
                                   "play), and --resume finishes a killed run. The progress bar shows the score "
                                   "(and Elo) after every game.")
    p.add_argument("bot_a", metavar="BOT_A", help="player spec, e.g. ismcts:iterations=2000 (kinds: "
                                                  f"{', '.join(k for k in BOT_KINDS if k != 'human')})")
    automata = [f"{g.automaton} with --game {g.name}" for g in all_games() if g.automaton]
    p.add_argument("bot_b", metavar="BOT_B", help=f"the opponent's spec, e.g. greedy ({'; '.join(automata)})")
    p.add_argument("more_bots", metavar="BOT", nargs="*",
                   help="the third and further bots of a game of more than two players, one per seat (all the "
                        "bot specs together: BOT_A BOT_B BOT for three)")
    _add_game_flag(p, "the game; a game with an automaton seat (" + ", ".join(
        g.name for g in all_games() if g.automaton) + ") puts BOT_A in the other seat against it, each game its "
        f"own deal (default {DEFAULT_GAME})")
    p.add_argument("--games", type=_games, default=100,
                   help="games to play, in seat-swapped pairs (rotation sets of N for N bots) (default 100)")
    p.add_argument("--seed", type=_seed, default=1, help="match seed: fixes every deal and bot (default 1)")
    p.add_argument("--workers", type=_within(limits.RAY_TASKS), default=1,
                   help=f"processes, at most {limits.MAX_WORKERS} (or Ray tasks at once) (default 1)")
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help='local process pool (default) or ray (pip install "omen-search[ray]")')
    p.add_argument("--address", help="Ray cluster address for --backend ray (default: start Ray locally)")
    p.add_argument("--out", metavar="FILE", help="write one JSON line per finished game to FILE")
    p.add_argument("--resume", action="store_true", help="continue the match in --out, playing only missing games")
    p.add_argument("--sprt", metavar="SPEC", nargs="?", const="elo0=0,elo1=10,alpha=0.05,beta=0.05",
                   help="stop when the SPRT decides, e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05 (those are the "
                        "defaults of a bare --sprt; elo0 < elo1 within +-2000, alpha and beta in (0, 0.5)); "
                        "two bots only")
    p.add_argument("--records", metavar="DIR", help="write each game's record to DIR/game-NNNNNN.json")
    p.add_argument("--report-every", type=_within((0, limits.MAX_GAMES)), default=100, metavar="K",
                   help="print a summary line on stderr every K games (default 100; 0 for none)")
    _add_cards(p)
    _add_options(p, [name for g in all_games() for name in g.match_options])
    p.add_argument("--quiet", action="store_true", help="no progress bar or summary lines")
    p.add_argument("--json", action="store_true", help="print the totals as one JSON object")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser("advise", help="rank the moves of the player to move, from what that player sees",
                       description="Searches from the observation of the player to move (a record is first "
                                   "turned into it), so the advice never uses cards the player cannot see.")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--observation", metavar="FILE", help="what the player sees (JSON; docs/advice.md)")
    source.add_argument("--record", metavar="FILE", help="a game record (JSON), with --ply")
    p.add_argument("--ply", type=int, help="advise after this many moves of the record (default: all of them)")
    _add_document_game(p, "record or observation")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=_iterations,
                        help=f"search iterations (default {ADVICE_ITERATIONS}, then on up to {ADVICE_SETTLE} while the "
                             "best move is not settled: docs/advice.md)")
    budget.add_argument("--seconds", type=_seconds, help="search time in seconds instead")
    p.add_argument("--top", type=_positive, help="show only the K best moves")
    p.add_argument("--seed", type=_seed, default=0, help="search seed (default 0)")
    p.add_argument("--workers", type=_workers, default=1,
                   help="threads for the 8 independent searches (W searches if W > 8) (default 1)")
    p.add_argument("--algorithm", choices=("ismcts", "ismcts-mo"), default="ismcts", help="SO- or MO-ISMCTS")
    _add_rollout(p)
    _add_cards(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_advise)

    p = sub.add_parser("analyze", help="review one seat's decisions in a game record: mistakes, accuracy, a graph",
                       description="Each decision is judged from what the seat could see at that moment; a "
                                   "forced move is not a decision. A move is worse than the best only beyond the "
                                   "search error (its 95% interval wholly below the best's). Accuracy: the share of "
                                   "what was at stake (best minus the mean of the legal moves) that the moves kept, "
                                   "weighted by the stake (docs/analysis.md). Labels: inaccuracy, mistake, blunder "
                                   "for a loss beyond the search error of at least 5, 10, 15 points of win %.")
    p.add_argument("record", metavar="RECORD", help="game record (JSON) written by `play --record`, or a table "
                   "record (omen-table/1) saved by the table companion of `serve`")
    p.add_argument("--player", type=int, help="the seat to review (0 first); a table record: its own seat, the default")
    _add_document_game(p, "record")
    p.add_argument("--iterations", type=_iterations,
                   help=f"search iterations per decision (default {ADVICE_ITERATIONS}, searching on until the best "
                        f"move is settled up to {ADVICE_SETTLE}, as the default advice)")
    _add_settle(p)
    p.add_argument("--workers", type=_workers, default=1, help="searches side by side (threads) (default 1)")
    p.add_argument("--seed", type=_seed, default=0, help="search seed (default 0)")
    p.add_argument("--thresholds", type=_thresholds, default=THRESHOLDS, metavar="A,B,C",
                   help="points of win %% lost (beyond the search error) for inaccuracy, mistake, blunder "
                        "(default 5,10,15)")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML report with the evaluation graph")
    p.add_argument("--all", action="store_true", help="list every decision, not only the labelled ones")
    _add_cards(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_analyze)

    p = sub.add_parser("engine", help="serve advice over JSON Lines on stdin/stdout (docs/engine-protocol.md)")
    _add_cards(p)
    _add_game_flag(p, f"the game whose card set --cards is (default {DEFAULT_GAME}); each query names its own game")
    p.set_defaults(func=cmd_engine)

    p = sub.add_parser("suite", help="measure the advisor on the reference suite of positions: agreement and regret",
                       description="For each budget, the advisor's best move in every position of the suite "
                                   "(bench/positions/GAME.jsonl: observations with every legal move valued by a deep "
                                   "search; docs/formats.md) against the reference best: top-1 agreement, mean and "
                                   "95th-percentile regret (win-% points the chosen move loses), top-1 agreement "
                                   "where the best move is known to be more than 1 point ahead of the second (its lead "
                                   "less the reference runs' spread), and time per position. "
                                   "bench/suite_positions.py regenerates the suite.")
    p.add_argument("--game", choices=[g.name for g in all_games()], help="only this game's suite (default: every file)")
    budget = p.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=_iterations,
                        help=f"the advisor's iterations (default: the default advice, {ADVICE_ITERATIONS} settling up "
                             f"to {ADVICE_SETTLE})")
    budget.add_argument("--seconds", type=_seconds, help="the advisor's seconds per position instead")
    budget.add_argument("--budgets", metavar="LIST", help="several budgets, one row each: iterations or seconds with "
                                                          "an s, e.g. 1000,3000,10000,0.5s")
    p.add_argument("--positions", metavar="DIR", default=str(DEFAULT_SUITE_DIR),
                   help="the suite folder (default bench/positions of the source checkout)")
    p.add_argument("--first", type=_positive, metavar="K", help="only the first K positions of each file")
    p.add_argument("--seed", type=_seed, default=0, help="the advisor's seed (default 0)")
    p.add_argument("--workers", type=_workers, default=1, help="threads of each advice (default 1)")
    _add_rollout(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_suite)

    p = sub.add_parser("serve", help="play the games against the engine in your web browser (a local web app)",
                       description="Starts a web app on this computer (http://127.0.0.1:8000/ by default) in which "
                                   "you play any of the games against a bot of your choice, from your own view of "
                                   "the board, with hints (the advisor's best three moves, win % and interval), "
                                   "undo, resign, and saving and loading game records. Several games and tabs can "
                                   "run at once. Needs the web extra: python3 -m pip install \"omen-search[web]\". "
                                   "See docs/web.md.")
    p.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (default 127.0.0.1: this computer only; any other address opens "
                        "the app to the network, with a warning, since it has no password)")
    p.add_argument("--port", type=_within((0, 65535)), default=8000, help="TCP port (default 8000; 0: any free one)")
    p.add_argument("--open", action="store_true", help="open the app in your web browser once it listens")
    p.add_argument("--threads", type=_workers, help="searches (bot moves, hints) at once (default: the cores, 2 to 8)")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("demo", help="a game in which the engine shows its advice for one seat and plays it")
    _add_game_flag(p)
    p.add_argument("--seed", type=_seed, default=1, help="game seed (default 1)")
    p.add_argument("--iterations", type=_iterations,
                   help=f"search iterations per decision (default {ADVICE_ITERATIONS}, then on up to {ADVICE_SETTLE} "
                        "while the best move is not settled)")
    p.add_argument("--seat", type=int, default=0, help="the seat the engine advises (default 0)")
    p.add_argument("--opponent", default="greedy", help="the other seats' player spec (default greedy)")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser(
        "balance", help="win rates by seat, seat label and card over bot games; --ablate measures a card's effect",
        description="Plays a seat-swapped match (as `match` does) noting the cards each seat played and drew, and "
                    "reports win rates by seat, by the game's seat labels (heir: the gods; omnia: the flavors, dealt to "
                    "each seat in turn with --flavors rotate) and by card, with Wilson "
                    "95% intervals (a tie counts half a win). A card's win rate when played is a correlation. "
                    "--ablate NAME plays the same seeds again without NAME's copies and reports the change "
                    "(without - with) in the win rate of the card's label (heir: its god, Anubis for a Neutral "
                    "card), of seat 0, in the game's totals (heir: turns) and points, with a 95% interval over the "
                    "games paired by seed; the interval's half-width is about 1.96*sqrt(0.5/GAMES) for a win "
                    "rate (10 points for 200 games, 3 for 2000). See docs/balance.md.")
    p.add_argument("--games", type=_games, default=200, help="games to play, in seat-swapped pairs (default 200)")
    p.add_argument("--bots", default="greedy",
                   help="one bot spec for both seats, or two (A,B) separated by a comma, e.g. greedy or "
                        "ismcts:iterations=500,greedy; a game of N > 2 seats takes one for every seat or N, "
                        "rotated through the seats (default greedy)")
    p.add_argument("--seed", type=_seed, default=1, help="match seed: fixes every deal and bot (default 1)")
    p.add_argument("--workers", type=_workers, default=1, help="processes (default 1)")
    p.add_argument("--ablate", action="append", default=[], metavar="NAME",
                   help="also play the same seeds without this unit's copies (omega: this Egregor, or every token "
                        "of this Arcanum; omnia: every copy of this flavor-deck card) and report the change (repeatable; "
                        "each card is removed on its own)")
    _add_cards(p)
    _add_game_flag(p)
    _add_options(p, [name for g in all_games() for name in g.match_options])
    p.add_argument("--html", metavar="FILE", help="also write the report with charts as one self-contained HTML file")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_balance)

    p = sub.add_parser("perft", help="count the leaves of the move tree from a seeded deal, per first move")
    _add_game(p)
    p.add_argument("--depth", type=int, default=3, help="plies to search (default 3)")
    p.add_argument("--engine", choices=ENGINES, help="rules engine (default: core, or the game's only engine)")
    p.add_argument("--json", action="store_true", help="print the counts as JSON")
    p.set_defaults(func=cmd_perft)

    p = sub.add_parser("selfcheck", help="play random games on both engines and check they agree at every ply")
    _add_game(p)
    p.add_argument("--games", type=_games, default=100, help="games to compare, seeds SEED.. (default 100)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_selfcheck)

    p = sub.add_parser("bench", help="measure the core against the reference engine (rates and ratios)")
    _add_game_flag(p)
    p.add_argument("--seconds", type=_seconds, default=2.0, help="time per measurement (default 2, at least 0.05)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("train-value", help="fit a learned evaluation to self-play game records (docs/strength.md)",
                       description="Every position of the records in RECORDS (a folder, e.g. match --records) "
                                   "is a sample: each player's features and their result. The weights of the "
                                   "search's evaluation (bots' eval=learned) are fitted to them and written "
                                   "to --out; the package ships them as omen_search/data/value-GAME.json. With "
                                   "--policy, every decision is a sample instead: the move played among the legal "
                                   "ones; the weights are then the model of play of bots' belief=B, shipped as "
                                   "omen_search/data/policy-GAME.json.")
    p.add_argument("records", metavar="RECORDS", help="a folder of game records (*.json) of --game")
    _add_game_flag(p)
    p.add_argument("--out", required=True, help="the evaluation file to write")
    p.add_argument("--cutoff", type=_within((0, MAX_CUTOFF)), default=0,
                   help="playout plies before the evaluation, written with the weights (default 0: at once)")
    p.add_argument("--folds", type=int, default=5,
                   help="cross-validate over this many parts of the games, each predicted by the weights fitted "
                        "to the others (0: do not; default 5)")
    p.add_argument("--policy", action="store_true",
                   help="fit the model of play (which move is played) instead of the evaluation (who wins)")
    p.set_defaults(func=cmd_train_value)

    p = sub.add_parser("games", help="list the games, their players and their options (--game NAME)")
    p.add_argument("--json", action="store_true", help="print one JSON list")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("cards", help="list the card set (designed cards are marked *)")
    _add_cards(p)
    _add_game_flag(p)
    p.add_argument("--json", action="store_true", help="print the set as JSON")
    p.set_defaults(func=cmd_cards)

    p = sub.add_parser("replay", help="re-play a game record (or a table record) and check every move")
    p.add_argument("record", metavar="FILE", help="game record (JSON) written by `play --record`, or a table record "
                   "(omen-table/1)")
    _add_document_game(p, "record")
    _add_cards(p)
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_replay)
    return parser


def _tolerant_streams() -> None:
    """Text the terminal's encoding cannot show (the em dash of the built-in set's name on a
    Latin-1 terminal, a custom card's name in another script) is escaped instead of failing with a
    UnicodeEncodeError, and bytes on stdin that are not in its encoding (a human player's input)
    read as U+FFFD instead of failing with a UnicodeDecodeError."""
    for stream, errors in ((sys.stdout, "backslashreplace"), (sys.stderr, "backslashreplace"), (sys.stdin, "replace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors=errors)
            except (ValueError, OSError):  # a stream that cannot change (already read from, closed)
                pass


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``omen-search`` console script; returns the exit status."""
    _tolerant_streams()
    try:
        args = build_parser().parse_args(argv)
        if getattr(args, "players_count", None) is not None:
            args.game = game_with_players(args.game or DEFAULT_GAME, args.players_count).name
        _variant(args)
        return args.func(args)
    except OmenError as exc:
        print(f"omen-search: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("omen-search: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
