"""The combined game's Cython core (``ext/combined/``) against its reference engine: the same game move
for move over three choices of Reign of War cards, undo and clone byte-exact, the same perft trees,
the same positions through ``to_core``, its limits refused where a card set enters, and the search
and the tools running on it.

``OMEN_COMBINED_CORE_GAMES`` sets the seeded random games of the differential test per choice of
cards (default 12, a default run stays short; ``.ci/run`` runs 700 per choice: 2,100 games).
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ProcessPoolExecutor

import pytest
from hypothesis import given, settings, strategies as st

from cli_helper import assert_one_line_error, run
from omen_search._combined_core import CombinedCoreState
from omen_search.bots import RandomBot
from omen_search.errors import CoreLimitError
from omen_search.game import get_game
from omen_search.games.combined.cards import combine, parse_pool
from omen_search.games.combined.reference import GameState
from omen_search.games.combined.rules import Config
from omen_search.perft import perft
from omen_search.rng import Rng
from omen_search.search import Limit, ismcts
from omen_search.selfcheck import compare_game

GAME = get_game("heir+reign")
GAMES = int(os.environ.get("OMEN_COMBINED_CORE_GAMES", "12"))
# The choices of Reign of War cards the differential test plays (--reign-units): a seeded random
# ten (a new draw for each game), every kind of unit (Soldiers, Beasts, Oracles, and Enraged ones),
# and the units with the most complex abilities (free plays into a city that chain Soldier triggers,
# moves that wait for a moved Soldier, Enrage, returns, destroys of several, reveals).
CHOICES = {
    "random:10": "random:10",
    "every kind": "Hoplite Recruit,Spartan Warrior,Herald of Hermes,Satyr,Centaur,Chimera,Priestess of Ares,"
                  "Maenad,Oracle of Hermes,Pythia of Delphi",
    "most complex": "Recruiting Sergeant,Recruiting Sergeant,Thessalian Horseman,Herald of Hermes,Seaside Guardian,"
                    "Sphinx,Hydra,Chimera,Oracle of Hermes,Maenad",
}


def _config(choice: str, seed: int) -> Config:
    return GAME.config(reign_units=CHOICES[choice], reign_seed=seed)


def _compare_range(args: tuple[str, int, int]) -> tuple[list[str], int]:
    choice, start, stop = args
    problems, plies = [], 0
    for seed in range(start, stop):
        mismatch, n = compare_game(seed, _config(choice, seed), game=GAME)
        plies += n
        if mismatch is not None:
            problems.append(f"{choice}: {mismatch}")
    return problems, plies


def test_differential_core_agrees_with_reference_over_seeded_games():
    """At every ply of GAMES seeded random games per choice of cards: the same legal moves in the
    same order, the same observations for both players, at the end the same scores."""
    per = max(GAMES // 4, 1)
    chunks = [(choice, start, min(start + per, GAMES)) for choice in CHOICES for start in range(0, GAMES, per)]
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(_compare_range, chunks))
    problems = [p for found, _ in results for p in found]
    assert not problems, "\n".join(problems[:3])
    assert sum(n for _, n in results) > len(CHOICES) * GAMES * 50  # real games were compared


def test_the_feats_off_and_no_reign_units_play_as_the_reference():
    for config in (Config(feats=False, reign_units=("Satyr", "Maenad", "Spartan Warrior")), Config()):
        for seed in range(3):
            mismatch, plies = compare_game(seed, config, game=GAME)
            assert mismatch is None and plies > 50, mismatch


@pytest.mark.parametrize("choice", list(CHOICES))
def test_undo_restores_every_byte_and_a_clone_is_the_same_game(choice: str) -> None:
    core = GAME.new_initial_state(4, config=_config(choice, 4))
    rng = Rng(9)
    start = core.state_bytes()
    plies = 0
    while not core.is_terminal():
        before = core.state_bytes()
        moves = core.legal_moves()
        move = moves[rng.below(len(moves))]
        core.apply(move)
        twin = core.clone()
        assert core.undo() == move
        assert core.state_bytes() == before
        core.apply(move)
        assert core.state_bytes() == twin.state_bytes()
        plies += 1
    for _ in range(plies):
        core.undo()
    assert core.state_bytes() == start


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), choice=st.sampled_from(list(CHOICES)), steps=st.integers(0, 200))
def test_a_clone_and_an_undone_move_leave_the_same_bytes(seed: int, choice: str, steps: int) -> None:
    core = GAME.new_initial_state(seed, config=_config(choice, seed))
    rng = Rng(seed)
    for _ in range(steps):
        if core.is_terminal():
            break
        moves = core.legal_moves()
        core.apply(moves[rng.below(len(moves))])
    before, twin = core.state_bytes(), core.clone()
    if not core.is_terminal():
        core.apply(core.legal_moves()[-1])
        core.undo()
    assert core.state_bytes() == before == twin.state_bytes()
    assert core.observation(0) == twin.observation(0)


@pytest.mark.parametrize("choice,seed,depth", [("random:10", 1, 3), ("every kind", 2, 4), ("most complex", 3, 4)])
def test_perft_counts_agree(choice: str, seed: int, depth: int) -> None:
    core, ref = (GAME.new_initial_state(seed, engine=e, config=_config(choice, seed)) for e in ("core", "reference"))
    bot = RandomBot(seed)
    for _ in range(60):  # into the game, where the Reign of War units are in play
        move = bot.choose(ref)
        ref.apply(move)
        core.apply(move)
    assert perft(core, depth) == perft(ref, depth)


def test_to_core_is_the_same_position_at_every_ply():
    """A reference state carried onto the core (the search's ``to_core``), waiting decisions and
    all: the same observations and legal moves."""
    ref = GAME.new_initial_state(5, engine="reference", config=_config("most complex", 5))
    bot = RandomBot(3)
    while not ref.is_terminal():
        core = GAME.to_core(ref)
        assert isinstance(core, CombinedCoreState)
        assert [core.observation(p) for p in (0, 1)] == [ref.observation(p) for p in (0, 1)]
        assert core.legal_moves() == ref.legal_moves()
        ref.apply(bot.choose(ref))


def _sandstorm(s):
    s.unused[0] = [next(r.index for r in s.cards.rewards if r.name == "Sandstorm")]


def _great_scouring(s):
    s.unused[0] = [next(r.index for r in s.cards.rewards if r.name == "Great Scouring")]


def _four_feats_done(s):
    s.city_tiles[0] = []  # no war there
    s.feats[0] = [f.name not in ("Full Ranks", "Garrison") for f in s.cards.feats]


def _tie_on_feats(s):
    s.city_tiles = [[], [], s.city_tiles[2]]
    s.used[0] = [0, 1]
    s.feats[1][0] = True
    s.favor = "anubis"


# The ruling tests' tables (tests/test_combined.py), with their moves: each played on both engines.
RULING_TABLES = {
    "C-3": (dict(units=("Priestess of Demeter", "Priestess of Demeter", "Pythia of Delphi"),
                 hands=(("Temple Servant",), ()),
                 cities=[(["Priestess of Demeter"], ["Priestess of Demeter"]), (["Pythia of Delphi"], []), ([], [])]),
            None, ["end", 'oracle "Pythia of Delphi" city1', "pass"]),
    "C-4": (dict(units=("Satyr",), hands=(("Temple Servant",), ("Temple Servant",)),
                 cities=[(["Temple Servant"] * 5, []), ([], []), ([], [])]),
            _four_feats_done, ["end", "pass"]),
    "C-5": (dict(units=("Hoplite Recruit",), hands=(("Hoplite Recruit",), ())),
            None, ['play "Hoplite Recruit" city0', "end"]),
    "R-surge-4": (dict(units=("Phoenix",), hands=(("Phoenix",), ()), discard=("Temple Servant",)),
                  None, ['beast "Phoenix"', 'take "Temple Servant"', "end"]),
    "C-12": (dict(units=("Satyr",), hands=(("Temple Servant",), ())), _tie_on_feats, ["end", "pass"]),
    "C-7": (dict(units=("Hoplite Recruit",), cities=[(["Hoplite Recruit"], []), (["Temple Servant"], []), ([], [])]),
            _sandstorm, ['use "Sandstorm"', 'move "Hoplite Recruit" city0>city2', 'move "Temple Servant" city1>city0']),
    "C-7 twice": (dict(units=("Hoplite Recruit", "Hoplite Recruit"),
                       cities=[(["Hoplite Recruit", "Hoplite Recruit"], []), (["Temple Servant"], []), ([], [])]),
                  _sandstorm, ['use "Sandstorm"', 'move "Hoplite Recruit" city0>city1', 'move "Hoplite Recruit" city0>city2']),
    "C-9": (dict(units=("Spartan Warrior", "Maenad"), hands=(("Temple Servant",), ()),
                 cities=[(["Spartan Warrior (enraged)"], ["Maenad (enraged)"]), ([], []), ([], [])]),
            None, ["end", "pass"]),
    "R-enrage-3": (dict(units=("Spartan Warrior", "Spartan Warrior"), hands=(("Spartan Warrior",), ()),
                        cities=[(["Spartan Warrior"], []), (["Spartan Warrior", "Temple Servant", "Temple Servant",
                                                             "Temple Servant"], []), ([], [])]),
                   None, ['play "Spartan Warrior" city0', 'enrage "Spartan Warrior" city0', "end"]),
    "C-11": (dict(units=("Cyclops",), hands=(("Cyclops",), ("Temple Servant",)),
                  cities=[([], ["Opal Statuary"]), ([], []), ([], [])]),
             None, ['beast "Cyclops"', 'destroy "Opal Statuary" city0', "end"]),
    "R-enrage-6": (dict(units=("Seaside Guardian", "Maenad"), hands=(("Seaside Guardian",), ()),
                        cities=[([], ["Maenad (enraged)"]), ([], []), ([], [])]),
                   None, ['play "Seaside Guardian" city0', 'return "Maenad (enraged)" city0']),
    "C-13": (dict(units=("Harpy", "Athenian Spearman"), hands=(("Harpy", "Athenian Spearman"), ("Temple Servant",) * 4)),
             None, ['beast "Harpy"', 'discard "Temple Servant"', 'discard "Temple Servant"',
                    'play "Athenian Spearman" city0', 'discard "Temple Servant"', "end"]),
    "C-14": (dict(units=("Satyr", "Hoplite Recruit"), cities=[(["Satyr"], ["Hoplite Recruit (enraged)"]), ([], []), ([], [])]),
             _great_scouring, ['use "Great Scouring"', "end"]),
}


@pytest.mark.parametrize("ruling", list(RULING_TABLES))
def test_the_ruling_tables_play_the_same_on_the_core(ruling: str) -> None:
    """Each ruling test's table, carried onto the core, and its moves: after each move both engines
    show both players the same and list the same moves (a Soldier moved first by Sandstorm waits
    the other move, with the unit it moved, H-surge-7, on the core too)."""
    from test_combined import table

    layout, prepare, played = RULING_TABLES[ruling]
    layout = dict(layout)
    ref = table(layout.pop("units"), **layout)
    if prepare:
        prepare(ref)
    core = GAME.to_core(ref)
    for move in played:
        assert core.legal_moves() == ref.legal_moves()
        ref.apply(move)
        core.apply(move)
        assert [core.observation(p) for p in (0, 1)] == [ref.observation(p) for p in (0, 1)], move
    assert (core.scores(), core.winner(), core.is_terminal()) == (ref.scores(), ref.winner(), ref.is_terminal())


def test_determinized_deals_show_the_player_what_it_sees():
    core = GAME.new_initial_state(6, config=_config("every kind", 6))
    rng = Rng(6)
    while not core.is_terminal():
        p = core.current_player
        world = core.determinized(p, seed=core.ply)
        assert world.observation(p) == core.observation(p)
        assert world.legal_moves() == core.legal_moves()
        moves = core.legal_moves()
        core.apply(moves[rng.below(len(moves))])


def test_card_sets_beyond_the_cores_limits_are_refused_naming_the_limit():
    """MAX_T: Heir's designs, the chosen Reign of War ones and their Enraged forms; a set past it is
    refused when a game is dealt on the core (the reference engine plays it)."""
    text = _combined_file_with_heir_designs(25)
    pool = parse_pool(text, "big.toml")
    units = ("Hoplite Recruit", "Spartan Warrior", "Herald of Hermes", "Maenad", "Priestess of Ares",
             "Oracle of Hermes", "Pythia of Delphi", "Theban Slinger", "Myrmidon", "Argive Scout")
    config = Config(reign_units=units)
    assert len(combine(pool, units).units) == 40 + 10 + 10 > 48
    GameState.new(seed=1, cards=pool, config=config)  # the reference engine plays it
    with pytest.raises(CoreLimitError, match="60 unit designs .* at most 48"):
        GAME.new_initial_state(1, cards=pool, config=config)
    GAME.new_initial_state(1, cards=pool, config=Config(reign_units=units[:4]))  # 40 + 4 + 4 designs fit


def test_a_set_whose_plays_could_nest_past_the_stack_is_refused(monkeypatch):
    """MAX_STACK: Heir's 32 frames and, in each of 8 nested Soldier triggers, a play as deep as the
    set's deepest; a set whose plays could need more is refused, not played with frames dropped."""
    import omen_search._combined_core as combined_core

    monkeypatch.setattr(combined_core, "play_depth", lambda units: 12)
    pool = parse_pool(_combined_file_with_heir_designs(1), "deep.toml")
    with pytest.raises(CoreLimitError, match="up to 146; the heir\\+reign core holds at most 128"):
        GAME.new_initial_state(1, cards=pool, config=Config(reign_units=("Satyr",)))


def _combined_file_with_heir_designs(extra: int) -> str:
    """The built-in combined card file with ``extra`` more Heir designs of one card each (the
    Heir deck keeps 40 cards: as many copies of the first designs are taken out)."""
    from test_combined import _combined_file

    text = _combined_file()
    more = "".join(f'\n[[unit]]\nname = "Extra {k}"\ntype = "follower"\ndevotion = "neutral"\ncost = 1\nstrength = 1\n'
                   f'offering = 1\ncopies = 1\nsource = "designed"\ntext = "-"\n' for k in range(extra))
    heir_end = text.index("[[reign_unit]]")
    return _fewer_heir_copies(text[:heir_end], extra) + more + "\n" + text[heir_end:]


def _fewer_heir_copies(heir: str, n: int) -> str:
    """Heir's sections with ``n`` copies taken out of its units, from the most copied ones."""
    import re

    counts = [int(m) for m in re.findall(r"(?m)^copies = (\d+)$", heir)]
    for _ in range(n):
        counts[counts.index(max(counts))] -= 1
    it = iter(counts)
    return re.sub(r"(?m)^copies = \d+$", lambda _: f"copies = {next(it)}", heir)


@pytest.mark.parametrize("mo", [False, True])
def test_ismcts_plays_a_game_on_the_core(mo: bool) -> None:
    state = GAME.new_initial_state(7, config=_config("every kind", 7))
    bot = RandomBot(7)
    while not state.is_terminal():
        if state.current_player == 0:
            state.apply(ismcts(state, Limit(iterations=60), seed=state.ply, mo=mo).best)
        else:
            state.apply(bot.choose(state))
    assert state.winner() in (0, 1)


def test_play_and_perft_run_on_the_core_from_the_command_line(capsys):
    code, out, _ = run(capsys, "play", "--game", "heir+reign", "--players", "ismcts:iterations=30,random",
                       "--seed", "2", "--json")
    assert code == 0 and json.loads(out)["winner"] in (0, 1)
    code, out, _ = run(capsys, "perft", "--game", "heir+reign", "--seed", "2", "--depth", "3", "--json")
    core = json.loads(out)
    assert code == 0 and core["engine"] == "core"
    code, out, _ = run(capsys, "perft", "--game", "heir+reign", "--seed", "2", "--depth", "3", "--engine", "reference",
                       "--json")
    assert code == 0 and {**json.loads(out), "engine": "core"} == core


def test_the_advisor_is_refused_in_one_line_it_reads_no_observations_of_this_game(capsys):
    assert_one_line_error(*run(capsys, "demo", "--game", "heir+reign", "--iterations", "20"),
                          "heir+reign reads no observations yet")
