"""The JSON formats of ``docs/formats.md``: its examples load, its tables match the code, and
malformed positions and observations are refused with a FormatError naming the JSON path.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from omen_search.errors import FormatError, OmenError
from omen_search.game import all_games, get_game
from omen_search.games.heir.cards import default_cards
from omen_search.games.heir.notation import VERBS, Move
from omen_search.games.reign import positions as reign_positions
from omen_search.games.heir.observe import observe
from omen_search.games.heir.positions import document_game, load_observation, load_position, load_position_file, to_position
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.rules import DECISIONS, PHASES, Config
from omen_search.records import replay
from omen_search.table import load_table
from positions_helper import json_paths

GAME_NAMES = ", ".join(g.name for g in all_games())  # what an unknown-game error lists

DOCS = Path(__file__).resolve().parent.parent / "docs"
EXAMPLES = DOCS / "examples"
FORMATS_MD = DOCS / "formats.md"

# The example position and observation are a real situation: the example game after this many plies.
EXAMPLE_PLY = 63
EXAMPLE_OBSERVER = 0


def read(name: str) -> Any:
    return json.loads((EXAMPLES / name).read_text(encoding="utf-8"))


def doc_json_blocks() -> list[Any]:
    text = FORMATS_MD.read_text(encoding="utf-8")
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)\n```", text, re.S)]


def load_any(doc: dict) -> Any:
    """Load a document with the loader its game and ``format`` name."""
    fmt = doc.get("format", "omen-position/1")
    if doc.get("game") == "reign-of-war":
        return {"omen-position/1": reign_positions.load_position,
                "omen-observation/1": reign_positions.load_observation}[fmt](doc)
    if fmt == "omen-position/1":
        return load_position(doc)
    if fmt == "omen-observation/1":
        return load_observation(doc)
    if fmt == "omen-record/1":
        return replay(doc)
    if fmt == "omen-table/1":
        return load_table(doc)
    if fmt in ("omega-observation/1", "omnia-observation/1"):
        return get_game(doc["game"]).from_observation(doc)
    raise AssertionError(f"unknown format {fmt!r}")


Mutation = Callable[[dict], None]


def _set(path: tuple, value: Any) -> Mutation:
    def mutate(doc: dict) -> None:
        x = doc
        for key in path[:-1]:
            x = x[key]
        x[path[-1]] = value

    return mutate


def _append(path: tuple, *values: Any) -> Mutation:
    def mutate(doc: dict) -> None:
        x = doc
        for key in path:
            x = x[key]
        x.extend(values)

    return mutate


def _delete(path: tuple) -> Mutation:
    def mutate(doc: dict) -> None:
        x = doc
        for key in path[:-1]:
            x = x[key]
        del x[path[-1]]

    return mutate


def _both(*mutations: Mutation) -> Mutation:
    def mutate(doc: dict) -> None:
        for m in mutations:
            m(doc)

    return mutate


def edited(name: str, *mutations: Mutation) -> dict:
    """The example file ``name`` with ``mutations`` applied."""
    doc = read(name)
    for m in mutations:
        m(doc)
    return doc


# ------------------------------------------------------------------------------ the examples


def test_every_example_file_loads():
    names = sorted(p.name for p in EXAMPLES.glob("*.json"))
    assert {"position.json", "observation.json", "record.json"} <= set(names)
    for name in names:
        load_any(read(name))


def test_example_position_loads_and_round_trips():
    doc = read("position.json")
    state = load_position(doc)
    assert to_position(state) == doc
    assert state.pending.kind == "discard" and state.current_player == 0


def test_example_observation_loads_unchanged():
    doc = read("observation.json")
    assert load_observation(doc) == doc
    assert doc["players"][1 - doc["player"]]["hand"] is None


def test_example_record_replays_to_its_result():
    record = read("record.json")
    state = replay(record)
    assert state.is_terminal()
    assert list(state.scores()) == record["scores"] and state.winner() == record["winner"]
    assert state.ply == record["plies"] == len(record["moves"]) and state.turn == record["turns"]


def test_examples_are_one_real_game():
    """position.json and observation.json are the example game after EXAMPLE_PLY plies; regenerate
    them from record.json with to_position / observe if the engine or the card set changes."""
    state = replay(read("record.json"), upto=EXAMPLE_PLY)
    assert to_position(state) == read("position.json"), "regenerate docs/examples/position.json"
    assert observe(state, EXAMPLE_OBSERVER) == read("observation.json"), "regenerate docs/examples/observation.json"


def test_json_blocks_in_formats_md_parse_and_load():
    blocks = doc_json_blocks()
    assert len(blocks) >= 4
    for block in blocks:
        load_any(block)


def test_formats_md_shows_every_example_in_full():
    blocks = doc_json_blocks()
    for name in ("position.json", "observation.json", "record.json"):
        assert read(name) in blocks, f"docs/formats.md does not show {name} as it is"


def test_hand_written_position_in_formats_md_fills_in_the_rest():
    hand_written = [b for b in doc_json_blocks() if b.get("format") == "omen-position/1" and "deck" not in b]
    assert hand_written, "formats.md shows a hand-written position"
    for doc in hand_written:
        state = load_position(doc)
        assert state.pending is not None and state.legal_moves()
        full = to_position(state)
        assert len(full["deck"]) + sum(len(s) for s in full["city_tiles"]) > 0
        assert load_position(full)._snapshot() == state._snapshot()
        assert load_position(doc)._snapshot() == state._snapshot(), "the same seed fills in the same way"


def test_formats_md_documents_every_verb_with_a_parsing_example():
    text = FORMATS_MD.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \|[^\n]*\| `([^`]+)` \|$", text, re.M))
    assert set(VERBS) <= set(rows), f"verbs missing from the table: {set(VERBS) - set(rows)}"
    for verb in VERBS:
        move = Move.parse(rows[verb])
        assert move.verb == verb and str(move) == rows[verb]


def test_formats_md_documents_every_decision_kind_and_phase():
    text = FORMATS_MD.read_text(encoding="utf-8")
    kinds = set(re.findall(r"^\| `(\w+)` \| (?:the|each)", text, re.M))
    assert set(DECISIONS) == kinds, f"decision kinds: documented {sorted(kinds)}, engine {sorted(DECISIONS)}"
    for phase in PHASES:
        assert f"`{phase}`" in text, f"phase {phase!r} is not documented"


def test_decision_kinds_are_the_engines():
    assert all(hasattr(GameState, f"_moves_{kind}") and hasattr(GameState, f"_do_{kind}") for kind in DECISIONS)
    assert not {name[len("_moves_"):] for name in dir(GameState) if name.startswith("_moves_")} - set(DECISIONS)


@pytest.mark.parametrize(
    "make_error",
    [
        lambda: load_position(edited("position.json", _append(("deck",), "Temple Servant"))),
        lambda: load_position(edited("position.json",
                                     _append(("cities", 0, 1), "Rabid Usurper", "Rabid Usurper", "Temple Servant"))),
        lambda: Move.parse('play "Opal Statuary"'),
        lambda: load_position(edited("position.json", _set(("game",), "chess"))),
        lambda: load_position(edited("position.json", _set(("config", "level"), "normal"))),
    ],
    ids=["copies", "capacity", "notation", "unknown game", "game of another config"],
)
def test_formats_md_error_examples_are_real(make_error):
    """The example messages quoted in formats.md are what the code says."""
    text = " ".join(FORMATS_MD.read_text(encoding="utf-8").split())
    with pytest.raises(OmenError) as info:
        make_error()
    assert f"`{info.value}`" in text, f"formats.md should quote `{info.value}`"


# ------------------------------------------------------------------------------ malformed documents

# (id, mutation, path after the root, words the message must contain). Seat 0 is the observer in
# the example observation, so its hand is listed in both formats.
COMMON = [
    ("unknown card in hand", _set(("players", 0, "hand", 2), "Opal Statue"), ".players[0].hand[2]",
     ["unknown card 'Opal Statue'"]),
    ("unknown card in a city", _append(("cities", 1, 1), "Sphinx"), ".cities[1][1][1]", ["unknown card 'Sphinx'"]),
    ("card name not a string", _set(("discard", 0), 7), ".discard[0]", ["unknown card 7"]),
    ("more copies than the set has", _append(("cities", 0, 1), "Opal Statuary"), "",
     ["'Opal Statuary'", "the set has 2"]),
    ("capacity exceeded (COLOSSAL counts 2)", _append(("cities", 2, 1), "Rabid Usurper", "Rabid Usurper"),
     ".cities[2][1]", ["capacity exceeded", "6 unit-counts > 5"]),
    ("negative coins", _set(("players", 0, "coins"), -1), ".players[0].coins", ["-1"]),
    ("too many coins", _set(("players", 0, "coins"), 21), ".players[0].coins", ["21"]),
    ("coins over the supply", _set(("players", 1, "coins"), 19), ".players",
     ["coins in play but there are only 20"]),
    ("coins as text", _set(("players", 0, "coins"), "3"), ".players[0].coins", ["must be an integer", "'3'"]),
    ("coins as a float", _set(("players", 0, "coins"), 2.0), ".players[0].coins", ["must be an integer"]),
    ("coins as a bool", _set(("players", 0, "coins"), True), ".players[0].coins", ["must be an integer"]),
    ("missing coins", _delete(("players", 0, "coins")), ".players[0].coins", ["missing"]),
    ("hand not a list", _set(("players", 0, "hand"), "Temple Servant"), ".players[0].hand", ["must be a list"]),
    ("player not an object", _set(("players", 0), 3), ".players[0]", ["must be an object"]),
    ("one seat only", _delete(("players", 1)), ".players", ["two seats"]),
    ("cities not a list", _set(("cities",), {}), ".cities", ["must be a list"]),
    ("two cities", _delete(("cities", 2)), ".cities", ["3 cities"]),
    ("one side", _delete(("cities", 0, 1)), ".cities[0]", ["two sides"]),
    ("flag not a bool", _set(("flags", "discount_used"), "yes"), ".flags.discount_used", ["true or false"]),
    ("turn zero", _set(("turn",), 0), ".turn", ["got 0"]),
    ("unknown phase", _set(("phase",), "siesta"), ".phase", ["unknown value 'siesta'", "surge"]),
    ("missing phase", _delete(("phase",)), ".phase", ["missing"]),
    ("unknown favor", _set(("favor",), "ra"), ".favor", ["'ra'"]),
    ("bad active seat", _set(("active",), 2), ".active", ["got 2"]),
    ("bad pending player", _set(("pending", "player"), 2), ".pending.player", ["got 2"]),
    ("negative pending player", _set(("pending", "player"), -1), ".pending.player", ["got -1"]),
    ("bad stack owner", _set(("stack", 0, "owner"), 5), ".stack[0].owner", ["got 5"]),
    ("bad pending city", _set(("pending", "city"), 3), ".pending.city", ["got 3"]),
    ("unknown decision kind", _set(("pending", "kind"), "dance"), ".pending.kind", ["'dance'"]),
    ("pending not an object", _set(("pending",), 5), ".pending", ["must be an object"]),
    ("pending index off the effect list", _set(("pending", "index"), 9), ".pending.index",
     ["does not point at an effect"]),
    ("unknown unit in a ref", _set(("stack", 1, "ref", 1), "Nobody"), ".stack[1].ref[1]", ["unknown unit 'Nobody'"]),
    ("ref to no ability", _set(("stack", 1, "ref"), ["unit", "Tortured Soul", "labor", 5, "then"]), ".stack[1].ref",
     ["does not name an ability"]),
    ("known beyond the hand", _set(("players", 0, "known"), ["Opal Statuary"]), ".players[0].known",
     ["'Opal Statuary'"]),
    ("unknown tile", _set(("players", 0, "used_tiles"), ["Pyramid Scheme"]), ".players[0].used_tiles[0]",
     ["unknown reward tile 'Pyramid Scheme'"]),
    ("structure of the other god", _set(("players", 1, "building"), "Temple of Darkness"), ".players[1].building",
     ["not a structure of horus", "'Temple of Darkness'"]),
    ("completed twice", _set(("players", 0, "completed"), ["Monument to the Moon", "Monument to the Moon"]),
     ".players[0].completed[1]", ["listed twice"]),
    ("building a completed structure", _set(("players", 0, "completed"), ["Temple of Darkness"]),
     ".players[0].building", ["completed"]),
    ("same god twice", _set(("config", "gods"), ["horus", "horus"]), ".config.gods", ["different gods"]),
    ("unknown god", _set(("config", "gods"), ["anubis", "ra"]), ".config.gods[1]", ["'ra'"]),
    ("max_turns zero", _set(("config", "max_turns"), 0), ".config.max_turns", ["got 0"]),
    ("another card set", _set(("cards", "sha256"), "0" * 64), ".cards.sha256", ["--cards"]),
    ("unknown game", _set(("game",), "chess"), ".game", ["unknown game 'chess'", f"(games: {GAME_NAMES})"]),
    ("misspelt game", _set(("game",), "heirsolo"), ".game", ["did you mean 'heir-solo'?"]),
    ("game not a name", _set(("game",), ["heir"]), ".game", ["unknown game ['heir']"]),
    ("game of another config", _set(("game",), "heir-solo"), ".game", ["is 'heir-solo'", ".config sets up 'heir'"]),
    ("config of another game", _set(("config", "level"), "hard"), ".game", ["is 'heir'", ".config sets up 'heir-solo'"]),
]
POSITION_ONLY = [
    ("wrong format", _set(("format",), "omen-observation/1"), ".format", ["'omen-position/1'"]),
    ("hand_size that does not match", _set(("players", 1, "hand_size"), 4), ".players[1].hand_size",
     ["is 4 but hand lists 5"]),
    ("more copies in a hand than the set has",
     _both(_append(("players", 0, "hand"), "Obsidian Statuary"), _delete(("players", 0, "hand_size"))), "",
     ["'Obsidian Statuary'", "the set has 2"]),
    ("deck one card short", _delete(("deck", 0)), "", ["'Gilded Taskmaster'", "1 copies placed, the set has 2"]),
    ("deck one card too many", _append(("deck",), "Temple Servant"), "", ["'Temple Servant'", "the set has 5"]),
    ("unknown card in the deck", _set(("deck", 3), "Opal Statue"), ".deck[3]", ["unknown card 'Opal Statue'"]),
    ("unknown card under a structure", _set(("players", 0, "under", 0), "Mummy"), ".players[0].under[0]",
     ["unknown card 'Mummy'"]),
    ("cards under nothing", _set(("players", 0, "building"), None), ".players[0].under", ["building"]),
    ("tile placed twice", _set(("city_tiles", 1), ["Great Scouring", "Desecration"]), ".city_tiles",
     ["placed twice"]),
    ("tile missing", _set(("city_tiles", 1), ["Great Scouring"]), ".city_tiles", ["must all be placed"]),
    ("unknown city tile", _set(("city_tiles", 0, 0), "Oasis"), ".city_tiles[0][0]", ["unknown reward tile 'Oasis'"]),
    ("too many tile counts", _set(("city_tiles", 1), 4), ".city_tiles[1]", ["got 4"]),
    ("bad rng words", _set(("rng",), ["xyz", "1", "2", "3"]), ".rng", ["hexadecimal"]),
    ("all-zero rng", _set(("rng",), ["0", "0", "0", "0"]), ".rng", ["not all zero"]),
    ("negative seed", _set(("seed",), -1), ".seed", ["got -1"]),
]
OBSERVATION_ONLY = [
    ("wrong format", _set(("format",), "omen-position/1"), ".format", ["'omen-observation/1'"]),
    ("bad observer", _set(("player",), 2), ".player", ["got 2"]),
    ("observer without a hand", _set(("player",), 1), ".players[1].hand", ["must be a list"]),
    ("deck_size that does not add up", _set(("deck_size",), 11), ".deck_size", ["add up to 41, not 40"]),
    ("negative deck_size", _set(("deck_size",), -1), ".deck_size", ["got -1"]),
    ("opponent hand_size that does not add up", _set(("players", 1, "hand_size"), 4), ".deck_size",
     ["add up to 39"]),
    ("known beyond the opponent's hand_size",
     _set(("players", 1, "known"), ["Fallen Archivist", "Temple Servant", "Sunset Marauder"] * 2),
     ".players[1].known", ["hand_size is 5"]),
    ("missing opponent hand_size", _delete(("players", 1, "hand_size")), ".players[1].hand_size", ["missing"]),
    ("opponent unused_count as text", _set(("players", 1, "unused_count"), "1"), ".players[1].unused_count",
     ["must be an integer"]),
    ("tile counts that do not add up", _set(("city_tiles",), [3, 3, 3]), ".city_tiles", ["add up to 9"]),
    ("a tile count above 3", _set(("city_tiles", 0), 4), ".city_tiles[0]", ["got 4"]),
    ("city_tiles as names", _set(("city_tiles", 0), ["Desecration"]), ".city_tiles[0]", ["must be an integer"]),
    ("negative under_count", _set(("players", 0, "under_count"), -2), ".players[0].under_count", ["got -2"]),
    ("under_count without building", _set(("players", 0, "building"), None), ".players[0].under_count",
     ["building"]),
    ("opponent emissary_chosen not a bool", _set(("players", 1, "emissary_chosen"), 1), ".players[1].emissary_chosen",
     ["true or false"]),
    ("missing deck_size", _delete(("deck_size",)), ".deck_size", ["missing"]),
]


def _cases(which: str, table: list) -> list:
    return [pytest.param(which, mutate, path, words, id=f"{which}: {name}") for name, mutate, path, words in table]


@pytest.mark.parametrize(
    "which, mutate, path, words",
    _cases("position", COMMON) + _cases("observation", COMMON)
    + _cases("position", POSITION_ONLY) + _cases("observation", OBSERVATION_ONLY),
)
def test_malformed_documents_name_the_field(which, mutate, path, words):
    doc = read(f"{which}.json")
    mutate(doc)
    loader = load_position if which == "position" else load_observation
    with pytest.raises(FormatError) as info:
        loader(doc)
    message = str(info.value)
    assert message.startswith(f"{which}{path}: "), f"{message!r} should start with {which}{path}:"
    for word in words:
        assert word in message, f"{message!r} should mention {word!r}"


@pytest.mark.parametrize("loader, root", [(load_position, "position"), (load_observation, "observation")])
@pytest.mark.parametrize("text, words", [("{not json", "not valid JSON"), ("[1, 2]", "must be a JSON object"),
                                         ('"a string"', "must be a JSON object"), ("", "not valid JSON")])
def test_text_that_is_not_a_document(loader, root, text, words):
    with pytest.raises(FormatError, match=rf"^{root}: {words}"):
        loader(text)


@pytest.mark.parametrize("config, name", [(Config(), "heir"), (Config(first_player=1, emissary=True), "heir"),
                                          (Config(level="brutal"), "heir-solo")])
def test_positions_and_observations_name_their_game(config, name):
    state = GameState.new(seed=3, config=config)
    position, observation = to_position(state), observe(state, 0)
    assert position["game"] == observation["game"] == name
    assert document_game(position, "position").name == document_game(observation, "observation").name == name
    assert to_position(load_position(position)) == position and load_observation(observation) == observation


@pytest.mark.parametrize("which", ["position", "observation"])
def test_a_document_without_game_is_of_the_game_its_config_sets_up(which):
    """Files written before documents named their game load as they did."""
    doc = edited(f"{which}.json", _delete(("game",)))
    if which == "position":
        assert to_position(load_position(doc)) == read("position.json")
    else:
        assert load_observation(doc) == read("observation.json")
    assert document_game(doc, which).name == "heir"


def test_documents_load_from_json_text():
    assert to_position(load_position((EXAMPLES / "position.json").read_text(encoding="utf-8"))) == read("position.json")
    assert load_observation((EXAMPLES / "observation.json").read_text(encoding="utf-8")) == read("observation.json")


def test_position_file_errors_name_the_file(tmp_path):
    doc = read("position.json")
    doc["phase"] = "siesta"
    path = tmp_path / "puzzle.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(FormatError, match=rf"^{re.escape(str(path))}\.phase: unknown value 'siesta'"):
        load_position_file(path)
    with pytest.raises(FormatError, match="cannot read position"):
        load_position_file(tmp_path / "missing.json")


def test_observe_rejects_a_bad_seat():
    with pytest.raises(FormatError, match="player"):
        observe(load_position(read("position.json")), 2)


def test_the_other_card_set_is_named():
    doc = read("observation.json")
    doc["cards"] = {"name": "My printed set", "sha256": "f" * 64}
    with pytest.raises(FormatError, match="'My printed set'"):
        load_observation(doc)


@pytest.mark.parametrize("path, where", [(("players", 0, "emissary"), ".players[0].emissary"),
                                         (("pending", "card"), ".pending.card")])
def test_a_bad_single_card_name_names_its_field(path, where):
    doc = read("position.json")
    _set(path, "Ghost")(doc)
    with pytest.raises(FormatError, match=rf"^position{re.escape(where)}: unknown card 'Ghost'"):
        load_position(doc)


@pytest.mark.parametrize("which", ["position", "observation"])
@pytest.mark.parametrize("path", [("players", 0, "hand", 0), ("discard", 0), ("pending", "card"),
                                  ("stack", 1, "ref", 1), ("players", 0, "emissary")])
def test_a_list_instead_of_a_name_is_a_format_error(which, path):
    doc = read(f"{which}.json")
    _set(path, ["Temple Servant"])(doc)
    with pytest.raises(FormatError):
        (load_position if which == "position" else load_observation)(doc)


# ------------------------------------------------------------------------------ fuzzing


_CARDS = default_cards()
_NAMES = sorted({u.name for u in _CARDS.units} | {r.name for r in _CARDS.rewards} | {s.name for s in _CARDS.structures}
                | set(PHASES) | set(DECISIONS) | {"anubis", "horus", "unit", "reward", "structure", "then", "labor"})
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 45), st.integers(), st.floats(allow_nan=True),
    st.text(max_size=6), st.sampled_from(_NAMES),
)
CONTAINERS = st.one_of(st.lists(st.one_of(st.integers(0, 3), st.sampled_from(_NAMES)), max_size=3),
                       st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
DOCS_TO_FUZZ = {name: read(name) for name in ("position.json", "observation.json")}
PATHS = {name: json_paths(doc) for name, doc in DOCS_TO_FUZZ.items()}
FUZZ = settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mutated(draw, values=SCALARS):
    """An example document with 1–4 random edits: set a value, delete an entry, duplicate a list entry."""
    name = draw(st.sampled_from(sorted(DOCS_TO_FUZZ)))
    doc = copy.deepcopy(DOCS_TO_FUZZ[name])
    for _ in range(draw(st.integers(1, 4))):
        path = draw(st.sampled_from(PATHS[name]))
        op = draw(st.sampled_from(["set", "delete", "duplicate"]))
        parent = doc
        try:
            for key in path[:-1]:
                parent = parent[key]
            key = path[-1]
            if op == "set":
                parent[key] = draw(values)
            elif op == "delete":
                del parent[key]
            elif isinstance(parent, list):
                parent.insert(key, copy.deepcopy(parent[key]))
        except (KeyError, IndexError, TypeError):
            pass  # an earlier edit removed or replaced this path
    return name, doc


def _loads_or_raises_omen_error(name: str, doc: dict) -> None:
    loader = load_position if name == "position.json" else load_observation
    try:
        result = loader(doc)
    except OmenError:
        return
    # whatever loads is consistent: it writes back and loads again to the same thing
    if name == "position.json":
        assert load_position(to_position(result))._snapshot() == result._snapshot()
    else:
        assert load_observation(result) == result


@FUZZ
@given(case=mutated())
def test_fuzz_mutated_documents_load_or_raise_omen_error(case):
    """Any edit of scalar fields, deletion or duplication either loads or raises an OmenError."""
    _loads_or_raises_omen_error(*case)


@FUZZ
@given(case=mutated(values=st.one_of(SCALARS, CONTAINERS)))
@example(case=("position.json", {**DOCS_TO_FUZZ["position.json"], "discard": [["Temple Servant"]]}))
def test_fuzz_documents_with_any_json_values_load_or_raise_omen_error(case):
    """The same with lists and objects as edited values."""
    _loads_or_raises_omen_error(*case)
