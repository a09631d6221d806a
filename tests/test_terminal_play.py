"""Playing at a terminal (``omen-search play --players human,…``): what a human is shown before each
decision (their view of the board, their moves grouped and numbered), the commands help, hint, undo
and quit, saving on quit and Ctrl-C, and that nothing printed to the human depends on what their
seat cannot see. Every registered game of the brief is driven through the same code, by scripted
input.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from omen_search.bots import HumanPlayer, RandomBot, bot_seed, format_moves, group_moves, numbered
from omen_search.game import get_game
from omen_search.records import load_record, replay
from omen_search.rng import Rng
from omen_search.search import Limit
from omen_search.terminal import INTERRUPTED, TerminalGame, advisor_hint

from cli_helper import assert_one_line_error, run

GAMES = ("heir", "heir-solo", "reign-of-war")
HINT = Limit(iterations=300)


class Typist:
    """A human's input: each prompt is answered by ``answer(typist)`` (a line, ``None`` for the end of
    input, or an exception to raise, as Ctrl-C raises KeyboardInterrupt), with the game in play at
    hand as ``typist.session.state``; ``plies`` holds the ply of every prompt."""

    def __init__(self, answer: Callable[[Typist], str | BaseException | None]):
        self.answer = answer
        self.session: TerminalGame | None = None
        self.plies: list[int] = []

    @property
    def state(self) -> Any:
        assert self.session is not None
        return self.session.state

    def readline(self) -> str:
        self.plies.append(self.state.ply)
        line = self.answer(self)
        if isinstance(line, BaseException):
            raise line
        return "" if line is None else line + "\n"


def session(name: str, typist: Typist, tmp_path: Path, seed: int = 3, opponent: Any = "random",
            **options: Any) -> tuple[TerminalGame, io.StringIO]:
    """A game of ``name`` with the human in its first deciding seat, typing as ``typist`` does."""
    game = get_game(name)
    config = game.config(**options)
    out = io.StringIO()
    human, *others = game.deciding_seats
    bots: dict[int, Any] = {human: HumanPlayer(typist, out, game)}  # type: ignore[arg-type]
    bots.update({seat: RandomBot(bot_seed(seed, seat)) if opponent == "random" else opponent for seat in others})
    players = ["human" if seat == human else bots[seat].name if seat in bots else str(game.automaton)
               for seat in range(game.players)]
    s = TerminalGame(game, lambda: game.new_initial_state(seed, config=config), players, bots,
                     tmp_path / "saved.json", hint=advisor_hint(game, None, HINT, seed), out=out)
    typist.session = s
    return s, out


def decision(name: str, seed: int = 3, wanted: int = 8) -> Any:
    """A core state of ``name`` at a decision of its first deciding seat with at least ``wanted``
    moves (random moves before it), a few turns in."""
    game = get_game(name)
    human = game.deciding_seats[0]
    state = game.new_initial_state(seed)
    rng = Rng(seed)
    while not state.is_terminal():
        moves = state.legal_moves()
        if state.current_player == human and len(moves) >= wanted and state.ply > 20:
            return state
        state.apply(moves[rng.below(len(moves))])
    raise AssertionError(f"no decision with {wanted} moves in {name} seed {seed}")


def strings(doc: Any) -> set[str]:
    """Every string anywhere in a JSON document (the names an observation shows)."""
    if isinstance(doc, str):
        return {doc}
    if isinstance(doc, dict):
        return set().union(*(strings(v) for v in doc.values())) if doc else set()
    if isinstance(doc, list):
        return set().union(*(strings(v) for v in doc)) if doc else set()
    return set()


# ------------------------------------------------------------------------------ the moves, grouped


@pytest.mark.parametrize("name", GAMES)
def test_the_moves_are_grouped_by_kind_and_numbered_once_each(name):
    game = get_game(name)
    state = decision(name, wanted=10)
    moves = state.legal_moves()
    groups = group_moves(game, moves)
    listed = numbered(groups)
    assert sorted(map(str, listed)) == sorted(map(str, moves)), "every legal move, once"
    text = format_moves(groups)
    assert [int(n) for n in re.findall(r"\[(\d+)\]", text)] == list(range(1, len(moves) + 1))
    assert len(text.splitlines()) < len(moves), "moves that share steps share a line"
    kinds = [game.move_steps(m)[0] for m in listed]
    assert all(k not in kinds[:i] or kinds[i - 1] == k for i, k in enumerate(kinds)), f"kinds come together: {kinds}"
    for label, items in groups:  # a group's label is the steps its moves share
        for leaf, move in items:
            assert " ".join(filter(None, (label, leaf))) == " ".join(game.move_steps(move))


@pytest.mark.parametrize("name", GAMES)
def test_a_number_a_notation_or_the_words_of_a_move_pick_it(name):
    game = get_game(name)
    state = decision(name)
    listed = numbered(group_moves(game, state.legal_moves()))
    last = listed[-1]
    words = " ".join(game.move_steps(last)).upper()
    for typed, expected in (("2", listed[1]), (str(last), last), (words, last)):
        assert HumanPlayer(io.StringIO(typed + "\n"), io.StringIO(), game).choose(state) == expected


def test_help_bad_numbers_and_unknown_cards_are_answered_without_a_traceback():
    game = get_game("heir")
    state = decision("heir")
    while game.decision_name(state) != "surge":
        state.apply(state.legal_moves()[0])
    out = io.StringIO()
    typed = ["help", "0", "999", "fly away", 'play "Opal Statuee" city0', "play opal statuee city0",
             'play "Opal Statuary" city9', "end"]
    move = HumanPlayer(io.StringIO("\n".join(typed) + "\n"), out, game).choose(state)
    text = out.getvalue()
    assert str(move) == "end"
    assert all(c in text for c in ("board", "moves", "hint", "undo", "quit", "help"))
    assert "no move number 0" in text and "no move number 999" in text
    assert "unknown verb 'fly'" in text
    assert text.count("unknown card 'Opal Statuee'; did you mean 'Opal Statuary'?") == 1
    assert "unknown card 'opal statuee'; did you mean 'Opal Statuary'?" in text
    assert "not legal here" not in text and "Traceback" not in text


# ------------------------------------------------------------------------------ nothing hidden leaks


@pytest.mark.parametrize("name", GAMES)
def test_what_a_human_is_shown_at_a_decision_depends_on_their_view_alone(name, tmp_path):
    """The board, the moves and a hint printed at a decision are the same in another world the
    seat cannot tell from this one (its hidden cards dealt again), and name none of the opponent's
    hidden cards."""
    game = get_game(name)
    state = decision(name)
    human = state.current_player
    opponent = next(s for s in range(game.players) if s != human)
    hint = advisor_hint(game, None, HINT, 1)
    shown = []
    worlds = [state] + [state.determinized(human, seed) for seed in (1, 2, 3)]
    if game.automaton is None:  # (the automaton holds no hand: its hidden tiles and the deck are dealt again)
        assert any(game.cards_held(w, opponent) != game.cards_held(state, opponent) for w in worlds), \
            "worlds that differ in the cards the human cannot see"
    for world in worlds:
        assert game.observe(world, human) == game.observe(state, human)
        out = io.StringIO()
        HumanPlayer(io.StringIO("hint\nboard\n1\n"), out, game, hint=hint).choose(world)
        shown.append(out.getvalue())
    assert all(text == shown[0] for text in shown)
    assert "win %" in shown[0] and "95% interval" in shown[0]
    hidden = game.cards_held(state, opponent) - strings(game.observe(state, human))
    assert hidden or name == "heir-solo", "the opponent holds cards the human has not seen"
    for card in hidden:
        assert f"{card}" not in shown[0], f"the opponent's hidden {card} is shown"


def test_heirs_board_between_turns_hides_the_opponents_vp(tmp_path):
    """The board printed when a bot's turn begins is the human's view: the opponent's VP, which count
    its face-down tiles, are not shown (they were, from the true state)."""
    def answer(t: Typist) -> str | None:
        return "1" if t.state.turn < 12 else "quit"

    typist = Typist(answer)
    s, out = session("heir", typist, tmp_path, seed=5)
    assert s.run() == 0
    text = out.getvalue()
    boards = re.findall(r"^    seat1 .*$", text, re.M)
    assert boards and all(line.endswith("VP not known to you") for line in boards), boards[:3]
    assert not re.search(r"^    seat1 .* — \d+ VP$", text, re.M)
    assert replay(load_record(tmp_path / "saved.json")).turn >= 12, "a dozen turns, half of them the bot's"


def test_a_bots_hidden_choice_stays_face_down(tmp_path):
    """In Simplified Drafting the other seat's picks are secret: the log shows them face down."""
    game = get_game("reign-of-war")
    typist = Typist(lambda t: "1" if t.state.ply < 40 else "quit")
    s, out = session("reign-of-war", typist, tmp_path, deck="sdraft")
    assert s.run() == 0
    lines = out.getvalue().splitlines()
    picks = [line for line in lines if line.startswith("  seat 1 sdraft:")]
    assert picks and all(line == f"  seat 1 sdraft: {game.hidden_move}" for line in picks), picks[:3]
    mine = [line for line in lines if line.startswith("  seat 0 sdraft:")]
    assert mine and all(re.fullmatch(r'  seat 0 sdraft: pick ".+"', line) for line in mine), mine[:3]


# ------------------------------------------------------------------------------ hint


def test_a_hint_is_searched_from_the_observation_and_names_the_moves_numbers():
    game = get_game("reign-of-war")
    state = decision("reign-of-war")
    seen: list[Any] = []

    def hint(observation: dict[str, Any]) -> tuple[str, list[str]]:
        seen.append(observation)
        return advisor_hint(game, None, HINT, 1)(observation)

    out = io.StringIO()
    HumanPlayer(io.StringIO("hint\n1\n"), out, game, hint=hint).choose(state)
    assert seen == [game.observe(state, state.current_player)]
    listed = [str(m) for m in numbered(group_moves(game, state.legal_moves()))]
    best = re.search(r"best first: \[(\d+)\] (.+?)(,|$)", out.getvalue(), re.M)
    assert best and listed[int(best.group(1)) - 1] == best.group(2)
    assert "hint: not offered" in _typed(game, state, "hint\n1\n")


def _typed(game: Any, state: Any, text: str) -> str:
    out = io.StringIO()
    HumanPlayer(io.StringIO(text), out, game).choose(state)
    return out.getvalue()


# ------------------------------------------------------------------------------ undo


@pytest.mark.parametrize("name", GAMES)
def test_undo_takes_back_to_the_humans_previous_decision_with_the_bots_moves(name, tmp_path):
    """Once the other seat has had a turn (a bot's moves, or the automaton's turn inside the rules),
    undo goes back to the human's decision before it: the same ply, the same view. The move picked
    then is the one the record keeps."""
    game = get_game(name)
    views: list[dict[str, Any]] = []
    turns: list[int] = []
    script: list[str] = []  # what is typed after the undo (empty until then)

    def answer(t: Typist) -> str:
        views.append(game.observe(t.state, t.state.current_player))
        turns.append(t.state.turn)
        if script:
            return script.pop(0)
        if len(turns) > 1 and turns[-1] - turns[-2] >= 2:  # the other seat's turn came between
            script.extend(["2", "quit"])
            return "undo"
        return "1"

    typist = Typist(answer)
    s, out = session(name, typist, tmp_path)
    assert s.run() == 0
    assert out.getvalue().count("took back") == 1 and not script, "the other seat had a turn between two decisions"
    back = typist.plies[-2]
    assert back == typist.plies[-4] < typist.plies[-3] and views[-2] == views[-4], "back at the decision before"
    took = re.search(r"took back (\d+ moves|your last move)", out.getvalue())
    assert took and (int(took.group(1).split()[0]) if took.group(1)[0].isdigit() else 1) == typist.plies[-3] - back
    record = load_record(tmp_path / "saved.json")
    assert len(record["moves"]) == typist.plies[-1]
    listed = numbered(group_moves(game, replay(record, upto=back).legal_moves()))
    assert record["moves"][back] == str(listed[1]), "the move picked after the undo is in the record"


def test_undo_at_the_first_decision_changes_nothing(tmp_path):
    answers = iter(["undo", "quit"])
    typist = Typist(lambda t: next(answers))
    s, out = session("heir", typist, tmp_path)
    assert s.run() == 0
    assert "nothing to take back" in out.getvalue() and typist.plies == [0, 0]
    assert load_record(tmp_path / "saved.json")["moves"] == []


# ------------------------------------------------------------------------------ quit, Ctrl-C, saving


@pytest.mark.parametrize("name", GAMES)
def test_quit_saves_a_record_that_replay_accepts(name, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n1\nhelp\nquit\n"))
    game = get_game(name)
    players = ",".join(["human", *["random"] * (len(game.deciding_seats) - 1)])
    status, out, err = run(capsys, "play", "--game", name, "--players", players, "--seed", "4",
                           "--hint-iterations", "100")
    path = tmp_path / f"omen-{name}-seed4.json"
    assert status == 0 and err == "" and path.exists()
    assert out.count(str(path)) >= 3, "said at the start, in the help and when saving"
    record = load_record(path)
    assert record["game"] == name and record["players"][game.deciding_seats[0]] == "human"
    assert len(record["moves"]) >= 3
    status, out, err = run(capsys, "replay", str(path))
    assert status == 0 and "unfinished" in out


def test_a_second_game_of_the_same_seed_is_saved_beside_the_first(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
        assert run(capsys, "play", "--players", "human,random", "--seed", "9")[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["omen-heir-seed9-2.json", "omen-heir-seed9.json"]


def test_ctrl_c_at_the_prompt_saves_to_record_and_says_where(capsys, tmp_path, monkeypatch):
    path = tmp_path / "mine.json"
    answers = iter(["1", "1", KeyboardInterrupt()])

    class Keys(io.StringIO):
        def readline(self, *_: Any) -> str:  # type: ignore[override]
            a = next(answers)
            if isinstance(a, BaseException):
                raise a
            return a + "\n"

    monkeypatch.setattr("sys.stdin", Keys())
    status, out, err = run(capsys, "play", "--players", "human,random", "--record", str(path))
    assert status == INTERRUPTED and "Traceback" not in err
    assert f"saved to {path}" in out
    record = load_record(path)
    assert len(record["moves"]) >= 2 and "scores" not in record
    assert replay(record).current_player == 0, "saved at the human's third decision"


def test_ctrl_c_while_a_bot_thinks_saves_the_moves_completed(tmp_path):
    class Interrupted:
        name = "greedy"

        def choose(self, state: Any) -> Any:
            raise KeyboardInterrupt

    typist = Typist(lambda t: "1")
    s, out = session("heir", typist, tmp_path, opponent=Interrupted())  # type: ignore[arg-type]
    assert s.run() == INTERRUPTED
    record = load_record(tmp_path / "saved.json")
    assert record["moves"] == [str(m) for m in s.state.moves] and len(record["moves"]) >= len(typist.plies)
    assert replay(record).current_player == 1, "saved at the bot's decision"
    assert "interrupted" in out.getvalue()


def test_input_that_ends_is_an_error_and_saves_only_where_asked(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert_one_line_error(*run(capsys, "play", "--players", "human,random"), "input ended before the game did")
    assert list(tmp_path.iterdir()) == [], "piped input that ran out writes no file nobody asked for"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert_one_line_error(*run(capsys, "play", "--players", "human,random", "--record", "g.json"),
                          "input ended", "saved in g.json")
    assert len(load_record(tmp_path / "g.json")["moves"]) == 1


def test_a_finished_game_with_a_human_writes_its_record(capsys, tmp_path, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    path = tmp_path / "done.json"
    status, out, _ = run(capsys, "play", "--game", "heir-solo", "--players", "human", "--record", str(path),
                         "--max-turns", "6")
    assert status == 0 and "Game over" in out and f"record written to {path}" in out
    assert replay(load_record(path)).is_terminal()


@pytest.mark.parametrize("argv, words", [
    (["play", "--players", "human,random", "--json"], ["--json", "human"]),
    (["play", "--players", "human,random", "--hint-iterations", "0"], ["--hint-iterations"]),
    (["play", "--players", "human,random", "--record", "/no/such/folder/g.json"], ["--record"]),
])
def test_bad_play_options_with_a_human_are_one_line(capsys, argv, words, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert_one_line_error(*run(capsys, *argv), *words)


# ------------------------------------------------------------------------------ the solo automaton


def test_the_solo_game_shows_what_the_automaton_did_before_the_first_decision(tmp_path):
    game = get_game("heir-solo")
    typist = Typist(lambda t: "quit")
    s, out = session("heir-solo", typist, tmp_path, seed=2)
    first = s.state
    view = game.view(game.observe(first, 0))
    played = [c["name"] for zone in view["zones"] for side in zone["sides"] if side["seat"] == 1
              for c in side["cards"]]
    assert played, "the automaton has played units before the human's first decision"
    assert s.run() == 0
    text = out.getvalue()
    news = text[text.index("before your first decision"):text.index("your moves")]
    assert "corrupted-heir" in text and all(name in news for name in played)


def test_the_solo_game_tells_each_automaton_turn(tmp_path):
    typist = Typist(lambda t: "1" if t.state.turn < 8 else "quit")
    s, out = session("heir-solo", typist, tmp_path, seed=2)
    assert s.run() == 0
    assert out.getvalue().count("since your last decision, seat 1") >= 2


# ------------------------------------------------------------------------------ hot seat


def hot_seat(typist: Typist, tmp_path: Path, seed: int = 3) -> tuple[TerminalGame, io.StringIO]:
    """A Heir game of two humans at one terminal, both typing as ``typist`` does."""
    game = get_game("heir")
    out = io.StringIO()
    bots: dict[int, Any] = {seat: HumanPlayer(typist, out, game) for seat in (0, 1)}  # type: ignore[arg-type]
    s = TerminalGame(game, lambda: game.new_initial_state(seed), ["human", "human"], bots, tmp_path / "saved.json",
                     out=out)
    typist.session = s
    return s, out


HAND_OVER = re.compile(r"=== seat (\d) to play: pass the screen")


def handing_over(t: Typist) -> bool:
    """Whether the prompt ``t`` answers is a hand-over (the screen waits for Enter)."""
    assert t.session is not None
    return t.session.out.getvalue().rstrip().endswith("===")


def test_hot_seat_hands_the_screen_over_before_the_other_humans_decision(tmp_path):
    """Between a hand-over to seat N and the next, only seat N's decisions (and so only seat N's hand)
    are on the screen, and each hand-over first tells what the other seat did since."""
    typist = Typist(lambda t: "" if handing_over(t) else "quit" if t.state.turn > 6 else "1")
    s, out = hot_seat(typist, tmp_path)
    assert s.run() == 0
    text = out.getvalue()
    parts = HAND_OVER.split(text)
    seats = [int(seat) for seat in parts[1::2]]
    assert len(seats) >= 6 and all(a != b for a, b in zip(seats, seats[1:])), "handed over at every change of seat"
    for seat, part in zip(seats, parts[2::2]):
        deciders = set(re.findall(r"seat (\d), your moves", part))
        assert deciders <= {str(seat)}, f"seat {deciders} decided on seat {seat}'s screen"
    for part in parts[4::2]:
        assert "since your last decision:" in part, "the other seat's moves are told after a hand-over"


def test_hot_seat_undo_goes_back_to_the_asking_seats_own_decision(tmp_path):
    state_at: list[tuple[int, int]] = []  # (seat, ply) of every prompt
    script: list[str] = []

    def answer(t: Typist) -> str:
        if handing_over(t):
            return ""
        state_at.append((t.state.current_player, t.state.ply))
        if script:
            return script.pop(0)
        if t.state.current_player == 1 and t.state.turn >= 2:
            script.append("quit")
            return "undo"
        return "1"

    typist = Typist(answer)
    s, out = hot_seat(typist, tmp_path)
    assert s.run() == 0
    assert "took back" in out.getvalue()
    seat, ply = state_at[-1]
    assert seat == 1, "back at a decision of the seat that asked, not the other human's"
    assert (1, ply) in state_at[:-2], "at a decision seat 1 had before"


# ------------------------------------------------------------------------------ resuming a saved game


def test_resume_plays_on_from_a_saved_game_and_saves_it_back(capsys, tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n1\nquit\n"))
    assert run(capsys, "play", "--players", "human,greedy", "--seed", "5", "--record", str(path))[0] == 0
    first = load_record(path)["moves"]
    monkeypatch.setattr("sys.stdin", io.StringIO("2\n2\nquit\n"))
    status, out, err = run(capsys, "play", "--resume", str(path))
    assert status == 0 and err == "" and f"Resumed after {len(first)} plies." in out
    record = load_record(path)
    assert record["moves"][:len(first)] == first and len(record["moves"]) > len(first), "saved back, longer"
    assert record["seed"] == 5 and record["players"] == ["human", "greedy"], "the record's seed and players"
    assert not replay(record).is_terminal()


def test_resume_with_bots_finishes_the_game_on_the_core(capsys, tmp_path, monkeypatch):
    path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nquit\n"))
    assert run(capsys, "play", "--game", "reign-of-war", "--players", "human,random", "--seed", "2",
               "--record", str(path))[0] == 0
    begun = load_record(path)["moves"]
    done = tmp_path / "done.json"
    status, out, _ = run(capsys, "play", "--resume", str(path), "--players", "greedy,random", "--record", str(done))
    assert status == 0
    record = load_record(done)
    assert record["moves"][:len(begun)] == begun and record["players"] == ["greedy", "random"]
    assert replay(record).is_terminal(), "played to the end from where the record stopped"


@pytest.mark.parametrize("extra, words", [
    (["--seed", "3"], ["--seed", "keeps the seed"]),
    (["--emissary"], ["--emissary", "keeps the seed and options"]),
    (["--game", "reign-of-war"], ["--game reign-of-war", "heir"]),
])
def test_resume_refuses_flags_that_would_change_the_record(capsys, tmp_path, monkeypatch, extra, words):
    path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert run(capsys, "play", "--players", "human,random", "--record", str(path))[0] == 0
    assert_one_line_error(*run(capsys, "play", "--resume", str(path), *extra), *words)


def test_resume_refuses_a_finished_game_and_a_record_that_does_not_replay(capsys, tmp_path):
    done = tmp_path / "done.json"
    assert run(capsys, "play", "--players", "random,random", "--record", str(done))[0] == 0
    assert_one_line_error(*run(capsys, "play", "--resume", str(done)), "finished game")
    record = load_record(done)
    del record["scores"], record["winner"]
    record["moves"][3] = "play Nothing city9"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert_one_line_error(*run(capsys, "play", "--resume", str(bad)), "ply 3")
