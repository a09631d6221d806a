"""Playing at a terminal: the game log of ``omen-search play`` and ``demo``, and a game with one or
more human seats (:class:`~omen_search.bots.HumanPlayer`) that can be asked for a hint, taken back,
quit and interrupted without losing it.

Everything a human is shown during the game comes from what their seat sees: the board from their
observation (:meth:`Game.describe_observation`), the other seats' moves as the table sees them
(:meth:`Game.public_move`), a hint searched from their observation alone (:class:`Advisor`), what
an automaton seat (the Corrupted Heir) did from its side of their view (:meth:`Game.view`). Only
the finished game's board is shown whole. The tool knows no game: every line comes from the hooks.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from omen_search.advisor import Advisor, describe_advice
from omen_search.bots import Hint, HumanPlayer, InputEnded, Quit, TakeBack
from omen_search.errors import UsageError
from omen_search.files import check_output
from omen_search.game import Game
from omen_search.records import make_record, write_record
from omen_search.search import Limit

HINT_ITERATIONS = 20_000  # a hint's search: well under a second on one core for every game
INTERRUPTED = 130  # the exit status after Ctrl-C, as the shell gives a process killed by SIGINT
CLEAR_SCREEN = "\033[2J\033[H"  # ANSI: erase the terminal and home the cursor (hot seat, before a hand-over)


def log_game(game: Game, state: Any, choose: Callable[[Any], Any], *, out: IO[str] | None = None,
             board: Callable[[Any], str | None] | None = None,
             describe: Callable[[Any, Any], str] | None = None) -> None:
    """Play ``state`` to its end with ``choose``, logging every move (``describe``, by default the
    game's :meth:`~Game.describe_move`) and, when a turn ends, ``board(state)`` (by default the whole
    board; ``None`` prints nothing), then the result. A :class:`TakeBack` from ``choose`` means it
    changed the state: the log goes on from there, the turn announced again."""
    out = out or sys.stdout
    board = board or game.describe_board
    describe = describe or game.describe_move
    header = None
    while not state.is_terminal():
        now = game.turn_header(state)
        if now is not None and now != header:
            shown = board(state) if header is not None else None
            if shown is not None:
                print(shown, file=out)
            header = now
            print(now, file=out)
        try:
            move = choose(state)
        except TakeBack:
            header = None
            continue
        print(describe(state, move), file=out)
        state.apply(move)
    print(board(state) or game.describe_board(state), file=out)
    print(game.describe_result(state), file=out)


def advisor_hint(game: Game, cards: Any, limit: Limit, seed: int) -> Hint:
    """A human's hint: the advisor's three best moves with win % and interval, searched from the
    observation it is given (so from what the seat sees, never from the true state)."""
    advisor = Advisor(limit, seed=seed, cards=cards, game=game)

    def hint(observation: dict[str, Any]) -> tuple[str, list[str]]:
        advice = advisor.advise(observation)
        return describe_advice(advice, 3, indent="    "), [str(m.move) for m in advice.moves[:3]]

    return hint


def save_path(game: Game, seed: int, given: str | None) -> Path:
    """Where a game with humans is saved when they quit or interrupt it: ``given`` (``--record``),
    else ``omen-<game>-seed<N>.json`` in the working folder (``-2``, ``-3`` … beside a file already
    there; the system's temporary folder if the working one cannot be written)."""
    if given:
        return check_output(given, "--record")
    folder = Path.cwd() if os.access(Path.cwd(), os.W_OK) else Path(os.environ.get("TMPDIR", "/tmp"))
    path, n = folder / f"omen-{game.name}-seed{seed}.json", 1
    while path.exists():
        n += 1
        path = folder / f"omen-{game.name}-seed{seed}-{n}.json"
    return path


# ------------------------------------------------------------------ an automaton's side of the table


def _cards_text(cards: list[dict[str, Any]]) -> str:
    return ", ".join(c["name"] + (f" x{c['count']}" if c.get("count", 1) > 1 else "")
                     + (f" ({'; '.join(c['tags'])})" if c.get("tags") else "") for c in cards)


def seat_table(view: dict[str, Any], seat: int) -> dict[str, tuple[str, str]]:
    """What ``seat`` has on the table in a :meth:`Game.view`: its cards in each zone, its facts and
    its piles, by name, each as ``(kind, text)`` (kind ``fact`` or ``pile``)."""
    table: dict[str, tuple[str, str]] = {}
    for zone in view.get("zones", []):
        for side in zone.get("sides", []):
            if side.get("seat") == seat:
                table[str(zone.get("name"))] = ("pile", _cards_text(side.get("cards", [])) or "-")
    for s in view.get("seats", []):
        if s.get("seat") != seat:
            continue
        for fact in s.get("facts", []):
            table[str(fact["label"])] = ("fact", str(fact["value"]))
        for pile in s.get("piles", []):
            text = _cards_text(pile.get("cards", []))
            if pile.get("hidden"):
                text += f"{', ' if text else ''}{pile['hidden']} hidden"
            table[str(pile["name"])] = ("pile", text or "-")
    return table


def table_news(before: dict[str, tuple[str, str]] | None, now: dict[str, tuple[str, str]]) -> list[str]:
    """The lines that tell what changed from ``before`` to ``now`` (:func:`seat_table`); with no
    ``before``, everything there is."""
    changed = {k: v for k, v in now.items() if before is None or before.get(k) != v}
    facts = [f"{k} {text}" if before is None or k not in before else f"{k} {before[k][1]} -> {text}"
             for k, (kind, text) in changed.items() if kind == "fact"]
    piles = [f"{k}: {text}" for k, (kind, text) in changed.items() if kind == "pile" and (before or text != "-")]
    return ([", ".join(facts)] if facts else []) + piles


# ------------------------------------------------------------------ a game with humans


@dataclass
class TerminalGame:
    """A game with human seats at a terminal. ``new_state()`` deals the game afresh (the record of a
    game interrupted halfway through a move is made by replaying the moves completed); ``players``
    names every seat, ``bots`` plays each deciding seat (the humans among them). Every line goes to
    ``out``; ``save_to`` is where ``quit`` and Ctrl-C save the record, ``record`` says a record is
    asked for at the end too. ``moves`` are moves already played (a resumed game): they are applied
    to the fresh deal before play goes on, and saved with the rest.

    With more than one human seat (hot seat) the screen is handed over before each human's decision
    that follows another human's: the terminal is cleared, the seat to decide is named and play waits
    for Enter, so one player's hand is never on the screen when the other sits down; a human's move
    is logged as the other humans see it, and no board is shown between turns.
    """

    game: Game
    new_state: Callable[[], Any]
    players: list[str]
    bots: dict[int, Any]
    save_to: Path
    record: bool = False
    cards: Any = None
    hint: Hint | None = None
    out: IO[str] = field(default_factory=lambda: sys.stdout)
    moves: list[Any] = field(default_factory=list)  # the moves completed, in order

    def __post_init__(self) -> None:
        self.humans = sorted(seat for seat, bot in self.bots.items() if isinstance(bot, HumanPlayer))
        if not self.humans:
            raise UsageError("players: a game at the terminal needs a human player")
        self.viewer = self.humans[0]  # whose view the boards between turns show (one human only)
        self.hot_seat = len(self.humans) > 1
        self._at_screen: int | None = None  # in a hot-seat game, the human whose hand the screen may show
        self._unseen: dict[int, list[str]] = {seat: [] for seat in self.humans}  # hot seat: moves since each one's turn
        self.automata = [seat for seat in range(self.game.players) if seat not in self.game.deciding_seats]
        self._tables: dict[int, dict[int, dict[str, tuple[str, str]]]] = {}
        for seat in self.humans:
            self.bots[seat].hint, self.bots[seat].saves_to = self.hint, str(self.save_to)
        self.state = self.new_state()
        for move in self.moves:
            self.state.apply(move)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> int:
        """Play the game to its end, a quit or an interrupt; returns the exit status. A finished game's
        record is written if asked for; a stopped one's always, where the players were told."""
        if self.moves:
            self.say(f"Resumed after {self.state.ply} plies.")
        self.say(f"You play seat {', '.join(map(str, self.humans))}: type a move's number, or help. "
                 f"quit or Ctrl-C saves the game to {self.save_to}.")
        if self.hot_seat:
            self.say("Hot seat: before each decision the screen is cleared and names the seat to play; "
                     "only that seat's player looks, then presses Enter.")
        try:
            log_game(self.game, self.state, self._choose, out=self.out, board=self._board,
                     describe=self._describe)
        except Quit:
            self._save("stopped")
            return 0
        except KeyboardInterrupt:
            self.say("")
            self._save("interrupted")
            return INTERRUPTED
        except InputEnded as exc:
            if not self.record and not _interactive():  # piped input that ran out: nothing asked to keep
                raise
            self._save("stopped")
            raise InputEnded(f"{exc}; the game so far is saved in {self.save_to}") from None
        if self.record:
            write_record(self.save_to, make_record(self.state, self.players, self.game), "--record")
            self.say(f"record written to {self.save_to}")
        return 0

    def _choose(self, state: Any) -> Any:
        seat = state.current_player
        if seat in self.humans and len(state.legal_moves()) > 1:
            if self.hot_seat and seat != self._at_screen:
                self._hand_over(seat)
            self._automata_news(state, seat)
        try:
            move = self.bots[seat].choose(state)
        except TakeBack:
            self._take_back(state)
            raise
        self.moves.append(move)
        return move

    def _board(self, state: Any) -> str | None:
        """Between turns: the viewer's board, unless a human decides next (their decision shows it);
        once the game is over, the whole board (the result shows every score)."""
        if state.is_terminal():
            return self.game.describe_board(state)
        if state.current_player in self.humans or self.hot_seat:
            return None
        return self.game.describe_observation(self.game.observe(state, self.viewer), self.cards)

    def _describe(self, state: Any, move: Any) -> str:
        """A move as the viewer sees it: another seat's hidden choice stays face down (in a hot-seat
        game, a human's own hidden choice too, as the other humans see it)."""
        mover = state.current_player
        others = [seat for seat in self.humans if seat != mover]
        if mover in self.humans and not self.hot_seat:
            return self.game.describe_move(state, move)
        public = self.game.public_move(state, move, others[0])
        text = self.game.describe_move(state, move if public == str(move) else public)
        if self.hot_seat:
            for seat in others:
                self._unseen[seat].append(text)
        return text

    def _hand_over(self, seat: int) -> None:
        """Hot seat: clear the screen, name the seat to decide and wait for its player's Enter (``quit``
        there stops the game as at a decision)."""
        player = self.bots[seat]
        if _is_terminal(self.out):
            print(CLEAR_SCREEN, end="", file=self.out)
        self.say(f"\n=== seat {seat} to play: pass the screen to seat {seat}'s player, "
                 f"who presses Enter when no one else can see it ===")
        line = player.stdin.readline()
        if not line:
            raise InputEnded("human player: input ended before the game did")
        if line.strip().casefold() in ("quit", "exit", "q"):
            raise Quit()
        self._at_screen = seat
        if self._unseen[seat]:
            self.say("  since your last decision:\n" + "\n".join(f"    {text.strip()}" for text in self._unseen[seat]))
            self._unseen[seat].clear()

    def _automata_news(self, state: Any, seat: int) -> None:
        """What each automaton seat did since this human's last decision, from their view."""
        if not self.automata:
            return
        view = self.game.view(self.game.observe(state, seat), self.cards)
        seen = self._tables.setdefault(seat, {})
        for auto in self.automata:
            table = seat_table(view, auto)
            news = table_news(seen.get(auto), table)
            first = auto not in seen
            seen[auto] = table
            if not news:
                continue
            name = next((s.get("name") for s in view.get("seats", []) if s.get("seat") == auto), f"seat {auto}")
            when = (f"{self.game.automaton} plays seat {auto} ({name}) by the rules; before your first decision"
                    if first else f"since your last decision, seat {auto} ({name})")
            self.say(f"  {when}:\n" + "\n".join(f"      {line}" for line in news))

    def _take_back(self, state: Any) -> None:
        """Undo to the asking seat's previous decision (the other seats' moves since included); at its
        first decision there is nothing to take back and the game stays as it is."""
        seat, undone = state.current_player, []
        while state.ply > 0:
            undone.append(state.undo())
            if self.moves:
                self.moves.pop()
            if state.current_player == seat and len(state.legal_moves()) > 1:
                for seen in self._unseen.values():
                    seen.clear()
                what = ("your last move" if len(undone) == 1
                        else f"{len(undone)} moves (yours and the other seats' since)")
                self.say(f"  took back {what}: back to your previous decision")
                return
        for move in reversed(undone):
            state.apply(move)
            self.moves.append(move)
        self.say("  nothing to take back: this is your first decision")

    def _save(self, how: str) -> None:
        """Write the record of the moves completed (replayed on a fresh deal, so a move cut off by
        Ctrl-C halfway leaves no trace) and tell where."""
        state = self.new_state()
        for move in self.moves:
            state.apply(move)
        write_record(self.save_to, make_record(state, self.players, self.game), "--record")
        self.say(f"Game {how} after {state.ply} plies; saved to {self.save_to} "
                 f"(omen-search replay {self.save_to} checks it).")


def _is_terminal(stream: IO[str]) -> bool:
    """Whether ``stream`` is a terminal (where clearing the screen means something)."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _interactive() -> bool:
    """Whether the input is a person's terminal (an end of input there is Ctrl-D, worth saving for)."""
    return _is_terminal(sys.stdin)
