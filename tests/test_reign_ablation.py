"""Reign of War with a unit design left out (``omen-search balance --ablate``), ruling D-ablate-1 of
``docs/rulings.md``: the card set's ``without``, the deal of each deck variant on both engines (the
full set's deal minus the design, in the same order), the variants that refuse it, and the CLI.

The engines' move-for-move agreement and the determinised worlds of ablated games are checked with
the other differential tests, in ``tests/test_reign_core.py`` (``ABLATED``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from omen_search._reign_core import CoreState
from omen_search.cardfiles import AblatableSet
from omen_search.cli import main
from omen_search.errors import OmenError, UsageError
from omen_search.games.heir import cards as heir_cards
from omen_search.games.reign.cards import MIN_UNIT_CARDS, CardSet, default_cards
from omen_search.games.reign.reference import GameState
from omen_search.games.reign.rules import DRAFT_STACKS, Config
from omen_search.rng import Rng

CARDS = default_cards()
ENGINES: dict[str, Callable[..., Any]] = {"reference": GameState.new, "core": CoreState.new}


def _build_decks(extra: str) -> tuple[tuple[str, ...], ...]:
    """Two legal Deck Building decks (R-build-1), seat 1's ending with ``extra`` (a Soldier)."""
    soldiers = [u.name for u in CARDS.units if u.type == "soldier" and u.name != extra]
    oracles = [u.name for u in CARDS.units if u.type == "oracle"]
    return (tuple(soldiers[:6] + oracles[:4]), tuple(soldiers[6:11] + oracles[4:8] + [extra]))


# ---------------------------------------------------------------------------------- the card set


def test_ruling_d_ablate_1_without_keeps_the_design_with_no_copies_under_a_new_name_and_digest() -> None:
    satyr = CARDS.unit("Satyr")
    cards = CARDS.without("Satyr")
    assert cards.unit("Satyr") == replace(satyr, copies=0) and cards.ablated == ((satyr.index, satyr.copies),)
    assert [u.name for u in cards.units] == [u.name for u in CARDS.units]  # card ids and move ids unchanged
    assert sum(u.copies for u in cards.units) == sum(u.copies for u in CARDS.units) - satyr.copies
    assert cards.name == f"{CARDS.name} without Satyr"
    assert cards.sha256 not in (CARDS.sha256, CARDS.without("Hydra").sha256)
    assert cards.sha256 == CARDS.without("Satyr").sha256  # the same ablation, the same digest
    assert CARDS.unit("Satyr").copies == satyr.copies and CARDS.ablated == ()  # the full set is untouched
    two = cards.without("Hydra")
    assert two.ablated == ((satyr.index, satyr.copies), (CARDS.unit("Hydra").index, CARDS.unit("Hydra").copies))
    assert two.dealt_copies(satyr.index) == satyr.copies and two.dealt_copies(0) == CARDS.units[0].copies


def test_heir_and_reign_of_war_leave_a_design_out_with_the_same_code() -> None:
    assert isinstance(CARDS, AblatableSet) and isinstance(heir_cards.default_cards(), AblatableSet)
    assert CardSet.without is heir_cards.CardSet.without is AblatableSet.without
    deck = list(range(10)) * 2
    heir = heir_cards.default_cards().without("Opal Statuary")
    assert heir.shuffled_deck(Rng(3).shuffle) == [t for t in _shuffled(heir_cards.default_cards().deck_list(), 3)
                                                  if t != heir.unit("Opal Statuary").index]
    assert CARDS.without("Grizzled Veteran").shuffled_without(list(deck), Rng(5).shuffle) == \
        [t for t in _shuffled(deck, 5) if t != CARDS.unit("Grizzled Veteran").index]


def _shuffled(cards: list[int], seed: int) -> list[int]:
    out = list(cards)
    Rng(seed).shuffle(out)
    return out


@pytest.mark.parametrize("name, words", [
    ("Satyrr", ["ablate: no unit called 'Satyrr' in 'Reign of War — seed edition'"]),
    ("Trojan Horse", ["ablate: 'Trojan Horse' is a reward card of", "only unit designs can be ablated"]),
    ("Garrison", ["ablate: 'Garrison' is a feat of", "only unit designs"]),
    ("Match 1", ["ablate: 'Match 1' is a Grand Melee Match/Victory card of", "only unit designs"]),
])
def test_ruling_d_ablate_1_only_a_unit_design_of_the_set_can_be_left_out(name: str, words: list[str]) -> None:
    with pytest.raises(UsageError) as error:
        CARDS.without(name)
    assert isinstance(error.value, OmenError)
    for word in words:
        assert word in str(error.value)


def test_ruling_d_ablate_1_a_design_is_left_out_once() -> None:
    with pytest.raises(UsageError, match="ablate: 'Satyr' is already left out of 'Reign of War — seed edition "
                                         "without Satyr'"):
        CARDS.without("Satyr").without("Satyr")


def test_ruling_d_ablate_1_the_deck_keeps_the_smallest_deck_the_game_deals_from() -> None:
    cards, left = CARDS, sum(u.copies for u in CARDS.units)
    with pytest.raises(UsageError) as error:
        for unit in CARDS.units:
            cards = cards.without(unit.name)
            left -= unit.copies
    assert left >= MIN_UNIT_CARDS > left - unit.copies
    assert str(error.value) == (f"ablate: without {unit.name!r} the deck of {cards.name!r} would have "
                                f"{left - unit.copies} unit cards, the game deals from {MIN_UNIT_CARDS} at least "
                                "(MIN_UNIT_CARDS, R-setup-2)")


# ------------------------------------------------------------------------- the deal, both engines


def _left(order: list[int], dealt: Counter[int], full: list[int], full_dealt: Counter[int], gone: int) -> None:
    """The ablated deal is the full one without ``gone``: a pile (``order``, top at the end) is the
    bottom of the full pile without it, in the same order, and the cards dealt from its top
    (``dealt``) are the full deal's other cards and the next ones down."""
    rest = [t for t in full if t != gone]
    assert order == rest[:len(order)], "the cards left lie in the full deal's order"
    assert dealt == full_dealt - Counter({gone: full_dealt[gone]}) + Counter(rest[len(order):])


def _counted(zones: list[list[int]]) -> Counter[int]:
    """The cards of count arrays (hands, packs), all together."""
    return sum((Counter({t: n for t, n in enumerate(zone) if n}) for zone in zones), Counter())


@pytest.mark.parametrize("engine", list(ENGINES))
@pytest.mark.parametrize("config, name", [(Config(), "Augur of Zeus"), (Config(beginner=True), "Satyr"),
                                          (Config(emissary=True), "Hoplite Recruit")])
def test_ruling_d_ablate_1_the_shared_deck_is_the_full_deck_without_the_design(engine: str, config: Config,
                                                                               name: str) -> None:
    gone = CARDS.unit(name).index
    for seed in range(12):
        full = ENGINES[engine](seed, cards=CARDS, config=config)
        ablated = ENGINES[engine](seed, cards=CARDS.without(name), config=config)
        assert ablated.city_rewards == full.city_rewards
        _left(ablated.decks[0], _counted(ablated.hands), full.decks[0], _counted(full.hands), gone)
        assert gone not in ablated.decks[0] and _counted(ablated.hands)[gone] == 0


@pytest.mark.parametrize("engine", list(ENGINES))
def test_ruling_d_ablate_1_test_of_skill_takes_the_card_out_of_each_shuffled_deck(engine: str) -> None:
    gone = CARDS.unit("Hydra").index
    for seed in range(12):
        full = ENGINES[engine](seed, cards=CARDS, config=Config(deck="skill"))
        ablated = ENGINES[engine](seed, cards=CARDS.without("Hydra"), config=Config(deck="skill"))
        for p in (0, 1):
            _left(ablated.decks[p], _counted([ablated.hands[p]]), full.decks[p], _counted([full.hands[p]]), gone)
            assert ablated.deck_lists[p] == [int(t != gone) for t in range(len(CARDS.units))]
            assert ablated.deck_known[1 - p] == ablated.deck_lists[1 - p]  # R-hidden-3: still public


@pytest.mark.parametrize("engine", list(ENGINES))
def test_ruling_d_ablate_1_a_simplified_draft_deals_its_packs_from_the_full_pool_without_the_design(
        engine: str) -> None:
    gone = CARDS.unit("Myrmidon").index
    for seed in range(12):
        full = ENGINES[engine](seed, cards=CARDS, config=Config(deck="sdraft"))
        ablated = ENGINES[engine](seed, cards=CARDS.without("Myrmidon"), config=Config(deck="sdraft"))
        _left(ablated.pool, _counted(ablated.packs), full.pool, _counted(full.packs), gone)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_ruling_d_ablate_1_card_drafting_has_no_stack_of_the_design(engine: str) -> None:
    full = ENGINES[engine](1, cards=CARDS, config=Config(deck="draft"))
    ablated = ENGINES[engine](1, cards=CARDS.without("Cerberus"), config=Config(deck="draft"))
    assert ablated.pool == [t for t in full.pool if t != CARDS.unit("Cerberus").index]
    assert [str(m) for m in ablated.legal_moves()] == [str(m) for m in full.legal_moves() if "Cerberus" not in str(m)]


@pytest.mark.parametrize("engine", list(ENGINES))
def test_ruling_d_ablate_1_a_game_without_the_design_never_shows_it(engine: str) -> None:
    """Random games of each deal: no move, observation or score tells of the design left out."""
    for config, name in ((Config(), "Satyr"), (Config(deck="sdraft"), "Satyr"), (Config(deck="skill"), "Minotaur"),
                         (Config(emissary=True, beginner=True), "Harpy")):
        cards = CARDS.without(name)
        for seed in range(3):
            state, bot = ENGINES[engine](seed, cards=cards, config=config), Rng(seed)
            while not state.is_terminal():
                for p in (0, 1):
                    seen = {k: v for k, v in state.observation(p).items() if k != "cards"}
                    assert name not in json.dumps(seen), f"ply {state.ply}: seat {p} sees {name!r}"
                moves = state.legal_moves()
                assert not any(m.card == name for m in moves), f"ply {state.ply}: a move names {name!r}"
                state.apply(moves[bot.below(len(moves))])


# ------------------------------------------------------------------------- variants that refuse


@pytest.mark.parametrize("engine", list(ENGINES))
def test_ruling_d_ablate_1_deck_building_refuses_a_deck_naming_the_design(engine: str) -> None:
    config = Config(deck="build", decks=_build_decks("Myrmidon"))
    with pytest.raises(UsageError) as error:
        ENGINES[engine](1, cards=CARDS.without("Myrmidon"), config=config)
    assert str(error.value) == ("ablate: 'Myrmidon' is named by the Deck Building deck decks[1]; a deck built by "
                                "name cannot be dealt without it (D-ablate-1)")
    with pytest.raises(UsageError, match="ablate: 'Hydra' is in neither Deck Building deck, so the game without it "
                                         r"is the same game \(D-ablate-1\)"):
        ENGINES[engine](1, cards=CARDS.without("Hydra"), config=config)


@pytest.mark.parametrize("engine", list(ENGINES))
def test_ruling_d_ablate_1_a_beginner_game_refuses_a_two_circle_design(engine: str) -> None:
    with pytest.raises(UsageError, match=r"ablate: 'Hydra' has two circles, so a beginner game \(R-var-1\) has "
                                         "none of its cards"):
        ENGINES[engine](1, cards=CARDS.without("Hydra"), config=Config(beginner=True))


@pytest.mark.parametrize("engine", list(ENGINES))
def test_ruling_d_ablate_1_variants_keep_the_cards_they_deal(engine: str) -> None:
    beginner = [u.name for u in CARDS.units if u.beginner]
    cards = CARDS
    for name in beginner[:15]:  # 96 - 15 x 4 = 36 beginner cards, 114 in the whole deck
        cards = cards.without(name)
    ENGINES[engine](1, cards=cards, config=Config())
    with pytest.raises(UsageError, match=rf"ablate: the beginner deck without 'Hoplite Recruit', .* has 36 unit "
                                         rf"cards, the game deals from {MIN_UNIT_CARDS} at least"):
        ENGINES[engine](1, cards=cards, config=Config(beginner=True))
    cards = CARDS
    for name in [u.name for u in CARDS.units][:50 - 2 * DRAFT_STACKS + 1]:
        cards = cards.without(name)
    with pytest.raises(UsageError, match=r"deck: Card Drafting needs 20 design stacks, the set has 19 without "
                                         r"'Hoplite Recruit', "):
        ENGINES[engine](1, cards=cards, config=Config(deck="draft"))


# -------------------------------------------------------------------------------- the core's input


def test_the_core_takes_a_design_with_no_copies_only_as_without_leaves_it() -> None:
    satyr = CARDS.unit("Satyr").index
    CoreState.new(1, cards=CARDS.without("Satyr"))
    no_copies = replace(CARDS, units=tuple(replace(u, copies=0) if u.index == satyr else u for u in CARDS.units),
                        sha256="satyr-printed-with-no-copies")
    ref, core = GameState.new(1, cards=no_copies), CoreState.new(1, cards=no_copies)  # a design never dealt
    assert core.decks == ref.decks and satyr not in core.decks[0]
    for ablated in (((satyr, 0),), ((0, 4),), ((99, 4),)):
        bad = replace(CARDS.without("Satyr"), ablated=ablated, sha256=f"bad-{ablated}")
        with pytest.raises(UsageError, match=r"cards: ablated\[0\] is .*: a design left out \(CardSet.without\)"):
            CoreState.new(1, cards=bad)
    huge = replace(CARDS.without("Satyr"), ablated=((satyr, 200),), sha256="satyr-with-200-copies-left-out")
    with pytest.raises(UsageError, match=r"cards: 370 unit cards \(those left out included\), the core holds at "
                                         r"most 174 \(MAX_UNIT_CARDS\)"):
        CoreState.new(1, cards=huge)


# ------------------------------------------------------------------------------------------- CLI


def test_cli_balance_of_reign_of_war_reports_the_ablation(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["balance", "--game", "reign-of-war", "--bots", "greedy,random", "--games", "8", "--seed", "1",
                   "--ablate", "Satyr", "--json", "--quiet"])
    out, err = capsys.readouterr()
    assert status == 0 and err == ""
    report = json.loads(out)
    assert report["game"] == "reign-of-war" and report["games"] == 8
    [ablation] = report["ablations"]
    assert ablation["card"] == "Satyr" and ablation["games"] == 8 and ablation["copies"] == 4
    assert {m["key"] for m in ablation["metrics"]} >= {"seat0", "bot_a", "turns", "vp"}


def test_cli_balance_text_names_the_copies_of_a_design_without_a_devotion(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", "--game", "reign-of-war", "--games", "2", "--ablate", "Hydra", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "\nAblation: without Hydra (3 copies; played by " in out


@pytest.mark.parametrize("argv, message", [
    (["--ablate", "Satyrr"], "ablate: no unit called 'Satyrr' in 'Reign of War — seed edition'"),
    (["--ablate", "Curse of Hades"], "ablate: 'Curse of Hades' is a reward card of 'Reign of War — seed edition'; "
                                     "only unit designs can be ablated (taken out of the deck)"),
    (["--ablate", "Satyr", "--ablate", "Wild Hunt"], "ablate: 'Wild Hunt' is a feat of"),
    (["--ablate", "Hydra", "--beginner"], "ablate: 'Hydra' has two circles, so a beginner game (R-var-1)"),
    (["--ablate", "Myrmidon", "--deck", "build", "--decks", ";".join(",".join(d) for d in _build_decks("Myrmidon"))],
     "ablate: 'Myrmidon' is named by the Deck Building deck decks[1]"),
])
def test_cli_a_refused_ablation_is_one_line_before_any_game(capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch, argv: list[str],
                                                            message: str) -> None:
    def no_games(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr("omen_search.match.play_game", no_games)
    status = main(["balance", "--game", "reign-of-war", "--games", "8", "--quiet", *argv])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(f"omen-search: error: {message}")
