"""OMEGA for people: the card set as a table and as JSON (each item marked printed, partly printed
or designed), the board from a seat's observation, the turn header and the result."""

from __future__ import annotations

from typing import Any

from omen_search.games.omega.cards import KINDS, CardSet

MARKS = {"printed": " ", "partly printed": "+", "designed": "*"}


def describe_cards(cards: CardSet) -> str:
    """The banner's line: the set and how much of it is designed."""
    sources = cards.sources()
    return (f"cards: {cards.name} ({sources['designed']} of {len(cards.egregors) + len(cards.arcana)} Egregors and "
            f"Arcana kinds designed, {sources['partly printed']} partly printed; marked in `omen-search cards`)")


def cards_json(cards: CardSet) -> dict[str, Any]:
    """``omen-search cards --json``: every item with its ``source``."""
    return {
        "name": cards.name,
        "sha256": cards.sha256,
        "runes": {**dict(zip(KINDS, cards.runes)), "source": cards.runes_source},
        "disc": {"squares": cards.squares, "source": cards.disc_source},
        "egregors": [{"name": e.name, "snake": e.snake, "thrust": e.thrust, "power": e.power_text(),
                      "tag": e.tag, "source": e.source, **({"note": e.note} if e.note else {})}
                     for e in cards.egregors],
        "arcana": [{"name": a.name, "numeral": a.numeral, "copies": a.copies, "points": a.text(), "source": a.source}
                   for a in cards.arcana],
    }


def cards_table(cards: CardSet) -> str:
    """``omen-search cards``: the set as tables, designed items marked ``*``, partly printed ``+``."""
    lines = [f"{cards.name}  (sha256 {cards.sha256[:12]})   * = designed, + = partly printed (see note), "
             f"unmarked = printed",
             f"\n{MARKS[cards.runes_source]} Runes: " + ", ".join(f"{n} {k}" for k, n in zip(KINDS, cards.runes))
             + f" ({sum(cards.runes)})",
             f"{MARKS[cards.disc_source]} Ritual Disc: {cards.squares} squares",
             f"\nEgregors ({len(cards.egregors)})", f"   {'name':12} snake thrust  {'power':24} tag"]
    for e in cards.egregors:
        lines.append(f" {MARKS[e.source]} {e.name:12} {e.snake:5} {e.thrust:6}  {e.power_text():24} {e.tag or ''}"
                     + (f"   ({e.note})" if e.note else ""))
    lines += [f"\nArcana ({len(cards.tokens)} tokens)", f"   {'':6} {'name':20} copies  points"]
    for a in cards.arcana:
        lines.append(f" {MARKS[a.source]} {a.numeral:6} {a.name:20} {a.copies:6}  {a.text()}")
    return "\n".join(lines)


def _runes(counts: dict[str, int]) -> str:
    return " ".join(f"{n} {k}" for k, n in counts.items()) or "-"


def describe_runes(counts: list[int]) -> str:
    """Rune counts by kind (the engines' lists) in words."""
    return _runes({k: n for k, n in zip(KINDS, counts) if n})


def describe_observation(obs: dict[str, Any], you: bool = True) -> str:
    """The board as a seat sees it, in a few lines (``you``: the observing seat is marked)."""
    lines = [f"    altar: {_runes(obs['altar'])}; bag {obs['bag']}; gallery: {', '.join(obs['gallery']) or '-'}; "
             f"stack {obs['stack']}, discard {len(obs['discard'])}",
             "    arcana: " + ", ".join(f"{a['top']} ({a['height']})" if a["top"] else "empty" for a in obs["arcana"])]
    for seat in obs["players"]:
        pyramid = seat["pyramid"]
        held = (_runes(pyramid["runes"]) if "runes" in pyramid
                else f"{pyramid['size']} ({_runes(pyramid['known'])} known, {pyramid['hidden']} hidden)")
        egregors = "; ".join(f"{e['name']}{'*' if e['name'] == seat['mask'] else ''}: {_runes(e['runes'])}"
                             for e in seat["egregors"]) or "-"
        mark = " (you)" if you and seat["seat"] == obs["player"] else ""
        lines.append(f"    seat {seat['seat']}{mark}: pawn {seat['pawn']}, prestige {seat['prestige']}, "
                     f"{len(seat['arcana'])} arcana; pyramid {held}")
        lines.append(f"        egregors (* mask): {egregors}")
    return "\n".join(lines)


def turn_header(state: Any) -> str | None:
    final = " (final turn)" if state.announcer is not None and state.active != state.announcer else ""
    return f"Turn {state.turns}: seat {state.active}{final}"


def describe_result(state: Any) -> str:
    scores = state.scores()
    returns = state.returns()
    winners = [p for p, r in enumerate(returns) if r == max(returns)]
    how = "share the win" if len(winners) > 1 else "wins"
    ending = ("the turn limit" if state.announcer is None else f"seat {state.announcer} announced the end")
    return (f"Game over after {state.turns} turns ({ending}): " + ", ".join(f"seat {p} {s}" for p, s in enumerate(scores))
            + f"; seat{'s' if len(winners) > 1 else ''} {', '.join(map(str, winners))} {how}.")
