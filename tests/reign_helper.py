"""What several Reign of War test modules deal games with."""

from __future__ import annotations

# Two legal Deck Building decks (R-build-*), fixed so that a failing example reproduces.
BUILD_DECKS = (
    ("Hoplite Recruit", "Grizzled Veteran", "Seaside Guardian", "Athenian Spearman", "Spartan Warrior",
     "Theban Slinger", "Satyr", "Minotaur", "Pythia of Delphi", "Haruspex"),
    ("Temple Guard", "Corinthian Raider", "Argive Scout", "Phalanx Shieldbearer", "Phoenix", "Cyclops",
     "Harpy", "Griffin", "Priestess of Demeter", "Augur of Zeus"),
)
