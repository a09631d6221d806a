"""What several Reign of War test modules deal games with."""

from __future__ import annotations

from omen_search.games.reign.cards import default_cards
from omen_search.rng import Rng

# Two legal Deck Building decks (R-build-*), fixed so that a failing example reproduces.
BUILD_DECKS = (
    ("Hoplite Recruit", "Grizzled Veteran", "Seaside Guardian", "Athenian Spearman", "Spartan Warrior",
     "Theban Slinger", "Satyr", "Minotaur", "Pythia of Delphi", "Haruspex"),
    ("Temple Guard", "Corinthian Raider", "Argive Scout", "Phalanx Shieldbearer", "Phoenix", "Cyclops",
     "Harpy", "Griffin", "Priestess of Demeter", "Augur of Zeus"),
)


def dealt_decks(seed: int, size: int = 30) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Two given decks (D-given-1) of ``size`` cards each, dealt from the shuffled seed edition: the
    kind of decks two players hold after a Simplified draft (R-sdraft-1)."""
    cards = [u.name for u in default_cards().units for _ in range(u.copies)]
    Rng(seed).shuffle(cards)
    return tuple(cards[:size]), tuple(cards[size:2 * size])


def stack_decks() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Two given decks of 10 whole design stacks each, over the drafting type limits (what R-draft-3's
    escape can leave a Grand Melee drafter with): seat 0 10 Soldier designs, seat 1 5 Beast and 5
    Oracle designs, every copy of each."""
    units = default_cards().units
    soldiers = [u for u in units if u.type == "soldier"][:10]
    others = [u for u in units if u.type == "beast"][:5] + [u for u in units if u.type == "oracle"][:5]
    return tuple(u.name for u in soldiers for _ in range(u.copies)), tuple(u.name for u in others for _ in range(u.copies))
