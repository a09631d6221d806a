"""Fuzzing card files: any mutation of the built-in card file either loads, and then both engines
play the same short seeded games on it (move for move, observation for observation), or is refused
with a ``CardDataError`` whose message starts with the file's path.

A case is one mutated card file, written to disk and loaded with ``load_cards`` (as ``--cards``
does). Mutations are of three kinds, so that many files still load and reach the engines:

* data edits (the file parsed, edited as data and written back as TOML): stats, copies moved from
  one design to another, new designs, keywords, MANEUVER, structures' build and VP, whole abilities
  copied between cards, effects added, removed, nested or given other parameters (values at and
  around every limit of ``docs/cards.md``);
* text edits (cut, insert, repeat, swap characters, lines or words);
* byte edits (text that is not UTF-8).

Default 12 cases; ``OMEN_FUZZ=long`` 1500 (see ``tests/fuzz/fuzzlib.py``).
"""

from __future__ import annotations

import copy
import random
import re
import tomllib
from typing import Any

from omen_search.errors import CardDataError
from omen_search.games.heir.cards import FILTERS, KEYWORDS, MAX_BUILD_VP, MAX_COUNT, MAX_STAT, OPS, load_cards
from omen_search.games.heir.rules import LEVELS, Config
from omen_search.selfcheck import compare_game

from fuzzlib import Case, fuzz, mutate_bytes, mutate_text, run_cli, check_cli_contract
from positions_helper import card_file_text, seed_card_text

SEED_TEXT = seed_card_text()
SEED_DOC = tomllib.loads(SEED_TEXT)
ABILITIES = ("labor", "reinforce", "invocation")
COUNTS = (0, 1, 1, 2, 2, 3, 5, MAX_COUNT, MAX_COUNT + 1)
STATS = (0, 1, 2, 3, 5, 8, MAX_STAT, MAX_STAT + 1, -1)
BUILDS = (0, 1, 2, 3, 5, 9, MAX_BUILD_VP, MAX_BUILD_VP + 1)


def effect(rng: random.Random, depth: int = 2) -> dict[str, Any]:
    """One effect of the vocabulary with random (mostly valid) parameters."""
    op = rng.choice(sorted(OPS))
    e: dict[str, Any] = {"op": op}
    if op in ("draw", "gain", "discard", "opponent_discards", "reveal_hand_discard", "reclaim", "entomb", "move"):
        e["n"] = rng.choice(COUNTS[1:-1]) if rng.random() < 0.9 else rng.choice(COUNTS)
    if op == "opponent_discards" and rng.random() < 0.5:
        e["steal_if"] = rng.choice(("anubis", "horus", "both", "neutral"))
    if op in ("reveal_hand_discard", "destroy_all", "steal_unit", "entomb") and (op == "destroy_all" or rng.random() < 0.6):
        e["filter"] = rng.choice(FILTERS)
    if op == "entomb":
        e["side"] = rng.choice(("own", "opposing"))
        if rng.random() < 0.5:
            e["where"] = rng.choice(("any", "this_city"))
        if rng.random() < 0.5:
            e["up_to"] = rng.random() < 0.5
    if op == "move":
        e["mode"] = rng.choice(("maneuver", "any"))
    if op == "destroy_all" and rng.random() < 0.6:
        e["draw_each"] = rng.choice((0, 1, 2, MAX_COUNT))
    if op == "unearth":
        e["take"] = rng.choice(COUNTS[1:-1])
    if op in ("steal_unit", "if_favored"):
        if op == "if_favored" or rng.random() < 0.6:
            e["then"] = [effect(rng, depth - 1) for _ in range(rng.randint(1, 2))] if depth > 0 else [{"op": "draw", "n": 1}]
    if op == "choose":
        e["options"] = [{"label": f"o{k}", "effects": [effect(rng, depth - 1) if depth > 0 else {"op": "gain", "n": 1}
                                                       for _ in range(rng.randint(1, 2))]}
                        for k in range(rng.choice((2, 2, 3, 4, 5, 1)))]
    return e


def _effect_lists(doc: dict[str, Any]) -> list[tuple[dict, str]]:
    """Every (table, key) that holds an ability in the document."""
    out = []
    for u in doc.get("unit", []):
        out += [(u, k) for k in ABILITIES if isinstance(u, dict) and k in u]
    out += [(r, "effects") for r in doc.get("reward", []) if isinstance(r, dict)]
    out += [(s, "completed") for s in doc.get("structure", []) if isinstance(s, dict)]
    return out


def edit_data(rng: random.Random, doc: dict[str, Any]) -> dict[str, Any]:
    """One edit of the card set as data."""
    doc = copy.deepcopy(doc)
    units, rewards, structures = doc["unit"], doc["reward"], doc["structure"]
    kind = rng.randrange(12)
    u = rng.choice(units)
    if kind == 0:  # a stat
        u[rng.choice(("cost", "strength", "offering"))] = rng.choice(STATS)
    elif kind == 1:  # one copy from a design to another: still 40 cards
        donors = [x for x in units if x["copies"] > 1]
        if donors:
            rng.choice(donors)["copies"] -= 1
            u["copies"] += 1
    elif kind == 2:  # a new design, made of one copy of another
        donors = [x for x in units if x["copies"] > 1]
        if donors:
            donor = rng.choice(donors)
            donor["copies"] -= 1
            new = dict(copy.deepcopy(rng.choice(units)), name=f"Design {len(units)}", copies=1)
            units.insert(rng.randrange(len(units) + 1), new)
    elif kind == 3:  # keywords
        words = set(u.get("keywords", []))
        words ^= {rng.choice(KEYWORDS)}
        u["keywords"] = sorted(words)
    elif kind == 4:  # MANEUVER
        u["maneuver"] = rng.choice((0, 1, 2, 3, MAX_COUNT, MAX_COUNT + 1))
    elif kind == 5:  # devotion and type
        u["devotion"] = rng.choice(("anubis", "horus", "both", "neutral"))
        if rng.random() < 0.3:
            u["type"] = rng.choice(("embalmed", "follower", "initiate", "vizier"))
    elif kind == 6:  # a structure
        s = rng.choice(structures)
        s[rng.choice(("build", "vp"))] = rng.choice(BUILDS)
        if rng.random() < 0.1:
            s["god"] = rng.choice(("anubis", "horus"))
    elif kind == 7:  # a whole ability copied from another card (or a new one)
        lists = _effect_lists(doc)
        table, key = rng.choice(lists)
        source = copy.deepcopy(table[key])
        if rng.random() < 0.5:
            rng.choice(units)[rng.choice(ABILITIES)] = source
        else:
            target = rng.choice(rewards + structures)
            target["effects" if "effects" in target else "completed"] = source
    elif kind in (8, 9):  # an effect added, removed or replaced in an ability
        lists = _effect_lists(doc)
        table, key = rng.choice(lists) if lists and rng.random() < 0.7 else (u, rng.choice(ABILITIES))
        effects = list(table.get(key, []))
        r = rng.random()
        if r < 0.4 or not effects:
            effects.insert(rng.randrange(len(effects) + 1), effect(rng))
        elif r < 0.6:
            effects.pop(rng.randrange(len(effects)))
        else:
            effects[rng.randrange(len(effects))] = effect(rng)
        table[key] = effects
    elif kind == 10:  # a parameter of an effect somewhere
        lists = [t[k] for t, k in _effect_lists(doc) if t[k]]
        if lists:
            e = rng.choice(rng.choice(lists))
            if isinstance(e, dict):
                key = rng.choice(sorted(e) + ["n", "filter", "then", "up_to"])
                e[key] = rng.choice([1, 2, 0, -1, MAX_COUNT, MAX_COUNT + 1, "any", "anubis", True, [], [{"op": "favor"}],
                                     "this_city", "opposing", 1.5])
    else:  # a name
        target = rng.choice(units + rewards + structures)
        target["name"] = rng.choice([x["name"] for x in units + rewards + structures] +
                                    ["", " Padded", 'Quote"d', "Ünïcode Ⅸ", "x" * 200, target["name"] + " II"])
    return doc


def mutated_card_text(rng: random.Random) -> bytes:
    """A card file: the built-in one with data edits (mostly), text edits or byte edits."""
    r = rng.random()
    if r < 0.7:
        doc = SEED_DOC
        for _ in range(rng.randint(1, 4)):
            doc = edit_data(rng, doc)
        text = card_file_text(doc)
        if rng.random() < 0.1:
            text = mutate_text(rng, text, 1)
        return text.encode("utf-8")
    if r < 0.9:
        text = SEED_TEXT
        for _ in range(rng.randint(1, 3)):
            if rng.random() < 0.5:
                text = mutate_text(rng, text, 1)
            else:
                lines = text.split("\n")
                i = rng.randrange(len(lines))
                lines[i] = rng.choice(lines + ["", "[[unit]]", "[[reward]]", "copies = 1", "n = 64", "cost = 32",
                                               'labor = [{ op = "play_free" }]'])
                text = "\n".join(lines)
                words = list(re.finditer(r"[A-Za-z_]+|-?\d+", text))
                if words and rng.random() < 0.5:
                    m = rng.choice(words)
                    text = text[:m.start()] + rng.choice([w.group() for w in words[:400]] + ["0", "64", "-1"]) + text[m.end():]
        return text.encode("utf-8")
    return mutate_bytes(rng, SEED_TEXT.encode("utf-8"))


def check_card_file(case: Case, data: bytes) -> str:
    """The contract for one card file: CardDataError naming the file, or both engines agree on it."""
    path = case.path("cards.toml")
    path.write_bytes(data)
    try:
        cards = load_cards(path)
    except CardDataError as exc:
        assert str(exc).startswith(f"{path}: "), f"the error does not start with the file: {exc}"
        assert "\n" not in str(exc), f"a multi-line error: {exc!r}"
        return "refused"
    rng = case.rng
    for _ in range(2):
        gods = ("anubis", "horus") if rng.random() < 0.5 else ("horus", "anubis")
        if rng.random() < 0.2:
            config = Config(gods=gods, level=rng.choice(LEVELS), max_turns=rng.choice((8, 16, 30)))
        else:
            config = Config(first_player=rng.randrange(2), gods=gods, emissary=rng.random() < 0.3,
                            max_turns=rng.choice((8, 16, 30)))
        mismatch, _ = compare_game(rng.randrange(2**32), config, cards)
        assert mismatch is None, f"the engines disagree on an accepted card file ({config}): {mismatch}"
    return "loaded"


def card_case(case: Case) -> str:
    data = case.note("cards.toml", mutated_card_text(case.rng))
    if case.rng.random() < 0.15:  # the command line's door to the same loader
        path = case.path("cli-cards.toml")
        path.write_bytes(data)
        argv = case.note("argv", ["cards", "--cards", str(path)] + (["--json"] if case.rng.random() < 0.5 else []))
        check_cli_contract(run_cli(argv), argv)
    return check_card_file(case, data)


def test_fuzz_card_files(tmp_path):
    fuzz("cards", card_case, tmp_path, default=12, long=1500)
