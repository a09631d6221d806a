"""The registry of games: names, options, configurations and new games on both engines."""

from __future__ import annotations

import pytest

from omen_search.errors import UsageError
from omen_search.game import all_games, game_of, get_game, game_with_players
from omen_search.games import BUILTIN


def test_the_builtin_games_are_registered_by_name():
    """The package's games; a test may have registered others (the conformance suite's toy game)."""
    builtin = [g for g in all_games() if type(g).__module__ in BUILTIN]
    assert [g.name for g in builtin] == ["heir", "heir-solo", "reign-of-war", "reign-of-war-melee", "heir+reign",
                                             "omega", "omega-3", "omega-4", "omnia", "omnia-3", "omnia-4"]
    assert [g.players for g in builtin] == [2, 2, 2, 4, 2, 2, 3, 4, 2, 3, 4]


def test_an_unknown_game_names_the_nearest():
    with pytest.raises(UsageError, match="did you mean 'heir-solo'"):
        get_game("heirsolo")
    with pytest.raises(UsageError, match=r"\(games: heir, heir-solo\b"):
        get_game("chess")


def test_options_default_and_are_checked_per_game():
    assert get_game("heir-solo").config().level == "normal"
    assert get_game("heir-solo").config(level="brutal", gods="horus,anubis").gods == ("horus", "anubis")
    assert get_game("heir").config(emissary=True).emissary
    with pytest.raises(UsageError, match="heir: no option 'level'"):
        get_game("heir").config(level="hard")
    with pytest.raises(UsageError, match="heir-solo: no option 'emissary'"):
        get_game("heir-solo").config(emissary=True)
    with pytest.raises(UsageError, match="level: must be one of"):
        get_game("heir-solo").config(level="easy")


def test_a_configuration_names_its_game():
    for game in all_games():
        assert game_of(game.config()) is game


@pytest.mark.parametrize("name", ["heir", "heir-solo"])
def test_a_new_game_is_the_same_deal_on_both_engines(name):
    game = get_game(name)
    core = game.new_initial_state(7, engine="core")
    reference = game.new_initial_state(7, engine="reference")
    assert [str(m) for m in core.legal_moves()] == [str(m) for m in reference.legal_moves()]
    assert core.observation(0) == reference.observation(0)
    assert core.config == game.config()


def test_a_new_game_refuses_another_games_configuration():
    with pytest.raises(UsageError, match="does not set up heir-solo"):
        get_game("heir-solo").new_initial_state(1, config=get_game("heir").config())


def test_describe_lists_options_with_defaults_and_choices():
    described = get_game("heir-solo").describe()
    level = next(o for o in described["options"] if o["name"] == "level")
    assert level["default"] == "normal" and level["choices"] == ["novice", "normal", "hard", "brutal"]


def test_the_front_door_finds_a_game_starts_it_and_searches_it():
    """``import omen_search`` is enough: its doctests and its lazily loaded names."""
    import doctest

    import omen_search
    import omen_search.game

    for module in (omen_search, omen_search.game):
        failed, attempted = doctest.testmod(module)
        assert attempted and not failed
    assert set(omen_search.__all__) <= set(dir(omen_search))
    assert all(getattr(omen_search, name) is not None for name in omen_search.__all__)
    with pytest.raises(AttributeError, match="no attribute 'nonsense'"):
        omen_search.nonsense  # noqa: B018


def test_a_game_from_outside_the_package_registers_and_is_found(monkeypatch):
    """The toy game (tests/toy_game) registers as any outside game would: found by name, listed
    after the package's games, named in errors; a second game of the same name is refused."""
    import omen_search.game as registry
    from toy_game.game import TOY_GAMES, ToyGame

    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))  # this test's own registry
    three = registry.register(TOY_GAMES[1])
    assert get_game("tricks-3") is three and three.players == 3
    assert [g.name for g in all_games()][-1] == "tricks-3"
    with pytest.raises(UsageError, match="did you mean 'tricks-3'"):
        get_game("tricks3")
    with pytest.raises(ValueError, match="already registered"):
        registry.register(ToyGame(3))



def test_a_family_game_is_picked_by_its_player_count():
    assert game_with_players("omega", 4).name == "omega-4" and game_with_players("omega-4", 2).name == "omega"
    assert game_with_players("heir", 2).name == "heir", "the solo game (an automaton seat) is not a count of heir"
    with pytest.raises(UsageError, match="--players-count: reign-of-war is played by 2 players, not 3"):
        game_with_players("reign-of-war", 3)
