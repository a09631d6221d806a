"""OMNIA's side of the adapters (``omen_search.games.omnia``: ``actions``, ``vectors``, ``adapter``):
the action numbering and its bounds from the card file, a card set whose moves do not fit, the
observation vector never showing a hidden card, a state stored with an effect waiting in its queue,
and the OpenSpiel parameters. The generic adapter tests (OpenSpiel's and PettingZoo's own checks,
resampling, the public observer) run on OMNIA with OMEGA's in tests/test_adapters.py."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from omen_search.cardfiles import builtin_card_text
from omen_search.errors import OmenError, UsageError
from omen_search.game import get_game
from omen_search.games.omnia.actions import MAX_ACTIONS, action_space, most_damage, places
from omen_search.games.omnia.cards import default_cards, parse_cards

GAMES = {2: "omnia", 3: "omnia-3", 4: "omnia-4"}


@pytest.fixture(scope="module")
def omnia_toml() -> str:
    return builtin_card_text("omnia-seed.toml")


@pytest.mark.parametrize("players, size, place", [(2, 5070, 25), (3, 6964, 36), (4, 9430, 47)])
def test_the_action_space_is_bounded_by_the_card_file(players, size, place):
    """Places: 2 Squires plus the flavor decks' permanents (ember 12, the others 11 each); damage:
    Elder Treant's Def 8 plus Pearl Shield's 3 x 2 and Barkskin's 2 x 2."""
    cards = default_cards()
    assert places(cards, players) == place and most_damage(cards) == 18
    assert action_space(cards, players).size == size == get_game(GAMES[players]).adapter().num_actions


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_action_is_one_move_and_back(players):
    """The numbering is a bijection between the whole space and the packed moves it names."""
    space = action_space(default_cards(), players)
    packed = [space.packed_of(a) for a in range(space.size)]
    assert len(set(packed)) == space.size
    assert all(space.action_of(m) == a for a, m in enumerate(packed))


def test_a_move_outside_the_space_is_refused():
    space = action_space(default_cards(), 2)
    squire, basic_source = 0, 1
    assert space.action_of(6 | squire << 5 | 3 << 13 | 1 << 21) >= 0  # attack "Squire" #3 seat1
    with pytest.raises(UsageError, match="has hero 13, outside the action space"):
        space.action_of(6 | basic_source << 5 | 3 << 13 | 1 << 21)  # not a hero
    with pytest.raises(UsageError, match="has place 25, outside"):
        space.action_of(6 | squire << 5 | 26 << 13 | 1 << 21)  # beyond the most cards in play
    with pytest.raises(UsageError, match="has amount 19, outside"):
        space.action_of(12 | 19 << 5)


def test_a_card_set_whose_moves_do_not_fit_is_refused(omnia_toml):
    """150 more hero designs in one flavor deck: attacks and hero targets alone pass the limit."""
    heroes = "".join(f'\n[[card]]\nname = "Recruit {i}"\nset = "deck"\nflavor = "ember"\ntype = "hero"\n'
                     f'cost = "1"\natk = 1\ndef = 1\ncopies = 1\nsource = "designed"\n' for i in range(150))
    cards = parse_cards(omnia_toml + heroes, "recruits.toml")
    for players in (2, 3, 4):
        with pytest.raises(OmenError, match=rf"adapters: card set .* gives OMNIA for {players} players [0-9,]+ "
                                            rf"actions, more than the {MAX_ACTIONS:,} .*attack"):
            get_game(GAMES[players]).adapter(cards)


@settings(max_examples=8)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32), cut=st.integers(0, 300))
def test_the_vector_never_shows_a_hidden_card(players, seed, cut):
    """At a random ply, each seat's vector holds its own hand and primed spells and stays the same
    in every world re-dealt from its point of view (the others' hands and primed spells, every
    deck, the Shop deck): nothing it cannot see is in it."""
    adapter = get_game(GAMES[players]).adapter()
    core = adapter.new_core(seed, adapter.config({}))
    rng = random.Random(seed)
    for _ in range(cut):
        if core.is_terminal():
            break
        core.apply_id(rng.choice(core.legal_move_ids()))
    view, layout, names = core.view(), adapter.observation_layout, [c.name for c in adapter.cards.cards]
    for p in range(players):
        vector = adapter.encode(core.observation(p))
        for segment, zone in (("my_hand", view.hand[p]), ("my_primed", view.primed[p])):
            assert {names[d]: int(n) for d, n in enumerate(vector[layout[segment]]) if n} == \
                {view.name(c): sum(view.name(o) == view.name(c) for o in zone) for c in zone}
        for k in range(3):
            world = core.determinized(p, seed + k)
            assert (adapter.encode(world.observation(p)) == vector).all()


def test_an_effect_waiting_behind_a_choice_is_stored_and_read_back(omnia_toml):
    """Kindle made to discard first: its source gain waits in the queue while its player discards;
    the stored state names that effect by its place on the card and reads back field for field."""
    kindle = 'effects = [{op = "draw", n = 1}, {op = "gain_source", n = 1, flavor = "E"}]'
    assert kindle in omnia_toml
    cards = parse_cards(omnia_toml.replace(kindle, kindle.replace('"draw"', '"discard"')), "kindle.toml")
    adapter = get_game("omnia").adapter(cards)
    waiting = 0
    for seed in range(40):
        core = adapter.new_core(seed, adapter.config({}))
        rng = random.Random(seed)
        while not core.is_terminal():
            if any(step[0] == "effect" for step in core.todo):
                waiting += 1
                copy = adapter.deserialize(pickle.loads(pickle.dumps(adapter.serialize(core))))  # as OpenSpiel
                assert adapter.serialize(copy) == adapter.serialize(core)  # every field, the queue, the generator
                assert copy.playout(seed) == core.clone().playout(seed)
            core.apply_id(rng.choice(core.legal_move_ids()))
    assert waiting > 0


def test_openspiel_parameters_set_up_the_game():
    pyspiel = pytest.importorskip("pyspiel")
    import omen_search.adapters.openspiel  # noqa: F401  (registers the games)

    game = pyspiel.load_game("omen_omnia_3", {"flavors": "dusk,grove,tide", "first_player": 2, "max_turns": 5})
    assert game.get_parameters() == {"deals": 4096, "flavors": "dusk,grove,tide", "first_player": 2, "max_turns": 5}
    state = game.new_initial_state()
    state.apply_action(3)
    assert [default_cards().flavors[f].name for f in state.core.flavor] == ["dusk", "grove", "tide"]
    assert state.core.active == 2
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.core.turns == 5 and sum(state.returns()) == pytest.approx(1.0)
    for params, message in (({"flavors": "ember"}, "flavors: one flavor per seat"),
                            ({"flavors": "ember,opal"}, "flavors: .* unknown 'opal'"),
                            ({"first_player": 2}, "first_player: a seat from 0 to 1")):
        with pytest.raises(OmenError, match=message):
            pyspiel.load_game("omen_omnia", params)
