"""Games by name: what the search and the tools need to know of a game, and the registry.

A game is a folder (``omen_search/games/<name>/``) and a registration: its folder makes one or more
:class:`Game` objects, and :data:`omen_search.games.BUILTIN` names the modules that hold them.
The tools take a game by name (``--game heir-solo``) and never name a game's cards, gods or phases.

>>> [g.name for g in all_games()][:2]  # the package's own games come first
['heir', 'heir-solo']
>>> get_game("heir").players
2
"""

from __future__ import annotations

import difflib
import importlib
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from omen_search.errors import FormatError, NotationError, UsageError, shown

ENGINES: tuple[str, ...] = ("core", "reference")  # the rules engines every game is dealt on
DEFAULT_GAME = "heir"  # the game a command plays, and a document without a "game" field is of


@dataclass(frozen=True)
class Option:
    """One way a game can be set up (``--emissary``, ``--level hard``): its name as the command line
    and a record spell it, what it means, its default and, for a choice, the values allowed."""

    name: str
    help: str
    default: Any = None
    choices: tuple[Any, ...] | None = None


class Game(ABC):
    """A game the engine plays: its identity, its set-up options and how to start one.

    ``config(**options)`` checks options and returns the game's own configuration value (what its
    engines, records and positions carry); ``new_initial_state`` deals a game on either engine."""

    name: str
    title: str
    players: int
    options: tuple[Option, ...]
    engines: tuple[str, ...] = ENGINES

    @abstractmethod
    def parse_move(self, text: str) -> Any:
        """The move a text names in the game's notation (``str(move)`` parses back to ``move``);
        raises :class:`~omen_search.errors.NotationError` for text that names no move."""

    @abstractmethod
    def config(self, **options: Any) -> Any:
        """The game's configuration from option values (missing ones take their defaults);
        raises :class:`UsageError` naming an unknown or bad option."""

    @abstractmethod
    def owns(self, config: Any) -> bool:
        """Whether ``config`` (a configuration of this game's family) sets up this game."""

    @abstractmethod
    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: Any = None,
                          config: Any = None) -> Any:
        """A new game dealt from ``seed`` on the named engine (the same seed deals the same game on
        both); ``config`` defaults to ``config()``."""

    def checked_config(self, config: Any) -> Any:
        """``config``, or ``config()`` for ``None``; :class:`UsageError` for another game's set-up
        (what ``new_initial_state`` deals from)."""
        if config is None:
            return self.config()
        if not self.owns(config):
            raise UsageError(f"config: {config!r} does not set up {self.name}")
        return config

    @property
    def family(self) -> str:
        """The games that share rules and card sets (Heir's ``heir`` and ``heir-solo``): a card
        file of one is a card file of all of them."""
        return self.name

    @property
    def identifier(self) -> str:
        """The game's name as an identifier, for frameworks that name games so (OpenSpiel's
        ``omen_<identifier>``): the name with ``-`` written ``_`` unless the game says otherwise."""
        return self.name.replace("-", "_")

    @property
    def short_title(self) -> str:
        """The game's name in a banner line."""
        return self.title

    # a variant the command line also names as another game and a flag: ("reign-of-war", "melee")
    # makes ``--game reign-of-war --melee`` this game (None: only ``--game NAME``)
    variant_of: tuple[str, str] | None = None

    # ------------------------------------------------------------------ seats

    automaton: str | None = None  # the name of a seat the rules play by themselves (the solo Heir)

    @property
    def deciding_seats(self) -> tuple[int, ...]:
        """The seats whose players decide (every seat but one the rules play by themselves)."""
        return tuple(range(self.players))

    # ------------------------------------------------------------------ cards

    def default_cards(self) -> Any:
        """The built-in card set (``None`` for a game without card sets)."""
        return None

    def load_cards(self, path: str | Path | None = None) -> Any:
        """The card set in a card file (the built-in one for ``None``); raises :class:`UsageError`
        for a game that has no card files and :class:`~omen_search.errors.CardsError` for a bad one."""
        if path is None:
            return self.default_cards()
        raise UsageError(f"cards: {self.name} has no card files")

    def describe_cards(self, cards: Any) -> str:
        """The card set in a line, for a game's banner ('' for a game without card sets)."""
        return ""

    def cards_json(self, cards: Any) -> dict[str, Any]:
        """The card set as ``omen-search cards --json`` prints it, each card marked printed or designed."""
        return {}

    def cards_table(self, cards: Any) -> str:
        """The card set as ``omen-search cards`` prints it."""
        return f"{self.name} has no card set"

    def card_names(self, cards: Any) -> tuple[str, ...]:
        """The names a player can type for cards of the set (for "did you mean" hints)."""
        return ()

    # ------------------------------------------------------------------ what a player sees

    def observe(self, state: Any, player: int) -> dict[str, Any]:
        """Exactly what ``player`` knows of ``state``, as a JSON-ready dict."""
        return dict(state.observation(player))

    def from_observation(self, observation: Any, cards: Any = None, root: str = "observation") -> tuple[Any, int]:
        """A state at a decision that the observing seat sees exactly as ``observation`` (a dict or
        JSON text), and that seat; raises :class:`~omen_search.errors.FormatError` naming the JSON
        path of a bad field."""
        raise UsageError(f"observation: {self.name} reads no observations")

    def game_of_document(self, data: Any, root: str, cards: Any = None) -> Game:
        """The game of this family a document (a position, observation or record, as a dict or JSON
        text) is of; raises :class:`~omen_search.errors.FormatError` naming a bad field."""
        return self

    def describe_observation(self, observation: dict[str, Any], cards: Any = None) -> str:
        """What a seat sees, from its observation, in a few lines."""
        return "    " + json.dumps(observation)

    def to_core(self, state: Any) -> Any:
        """The core state of ``state`` (itself if it is one): what the search runs on."""
        if hasattr(state, "game_handle"):
            return state
        raise UsageError(f"search: {self.name} has no core copy of a {type(state).__name__}")

    def public_move(self, state: Any, move: Any, pov: int) -> str:
        """How ``move``, about to be made in ``state``, shows to seat ``pov`` (a hidden choice hides)."""
        return str(move)

    hidden_move = "(hidden move)"  # how a move the searching seat cannot see shows in a line

    # ------------------------------------------------------------------ positions and records

    def load_position(self, data: Any, cards: Any = None, root: str = "position") -> Any:
        """A reference state from a position document; raises :class:`~omen_search.errors.FormatError`."""
        raise UsageError(f"position: {self.name} has no position format")

    def to_position(self, state: Any) -> dict[str, Any]:
        """The position document of ``state`` (what :meth:`load_position` reads back)."""
        raise UsageError(f"position: {self.name} has no position format")

    def record_header(self, state: Any) -> dict[str, Any]:
        """What a record says of the game's set-up beside its seed and moves (card set, config)."""
        return {}

    def read_record_header(self, record: dict[str, Any], cards: Any) -> Any:
        """The configuration a record's header sets up, checking that it was played with ``cards``;
        raises :class:`~omen_search.errors.RecordError` or ``FormatError``."""
        return self.config()

    def record_totals(self, state: Any) -> dict[str, Any]:
        """Game-specific counts a record keeps beside ``plies`` (and checks on replay)."""
        return {}

    # ------------------------------------------------------------------ for people

    def describe_board(self, state: Any, pov: int | None = None) -> str:
        """The board in a few lines (only what ``pov`` sees when given)."""
        shown_ = state.observation(pov) if pov is not None else {"scores": list(state.scores())}
        return "    " + json.dumps(shown_)

    def describe_seats(self, state: Any, players: list[str]) -> str:
        """Who plays which seat, in a line."""
        return " vs ".join(f"seat {seat} {spec}" for seat, spec in enumerate(players))

    def turn_header(self, state: Any) -> str | None:
        """The line a turn-by-turn log starts a turn with (``None``: the game has no turns, every
        ply is logged alone)."""
        return None

    def describe_move(self, state: Any, move: Any) -> str:
        """The move the player to move in ``state`` is about to make, for a log."""
        return f"  seat {state.current_player}: {move}"

    def describe_result(self, state: Any) -> str:
        """The result of a finished game in a line."""
        returns = state.returns()
        best = max(returns)
        winners = [seat for seat, r in enumerate(returns) if r == best]
        return (f"Game over after {state.ply} plies: {'-'.join(map(str, state.scores()))}, "
                f"seat{'s' if len(winners) > 1 else ''} {', '.join(map(str, winners))} "
                f"{'share the win' if len(winners) > 1 else 'wins'}.")

    def decision_name(self, state: Any) -> str:
        """The kind of decision the player to move faces (``discard``, ``keep``), for people."""
        return "move"

    def unknown_name(self, state: Any, text: str) -> str | None:
        """Why ``text`` names no move of this game, when it names a card that is not in the set:
        ``unknown card 'opal statuary'; did you mean 'Opal Statuary'?``."""
        try:
            move = self.parse_move(text)
        except NotationError:
            return None
        names = list(self.card_names(getattr(state, "cards", None)))
        for name in (getattr(move, "card", None), getattr(move, "target", None)):
            if names and name is not None and name not in names:
                near = [n for n in names if n.casefold() == name.casefold()] or difflib.get_close_matches(name, names, 1)
                return f"unknown card {name!r}" + (f"; did you mean {near[0]!r}?" if near else "")
        return None

    # ------------------------------------------------------------------ for a user interface

    def view(self, observation: dict[str, Any], cards: Any = None) -> dict[str, Any]:
        """The board as the observing seat sees it, as data a user interface lays out without
        knowing the game (``omen-search serve``; the shape is in ``docs/web.md``): ``facts`` (label
        and value pairs), ``zones`` (the places the seats meet, Heir's cities: each with ``facts``,
        ``marks`` and one ``side`` per seat holding cards), ``seats`` (each seat's ``facts`` and
        ``piles`` of cards; a pile the seat cannot see is a ``hidden`` count) and shared ``piles``.
        A card is ``{"name", "count", "detail", "text", "tags"}`` (:func:`view_cards`).

        It is made from ``observation`` (what :meth:`observe` gives the seat) alone, so it cannot
        show what the seat does not know. This default lays out any observation: its top-level
        numbers and words as facts, its lists of names as piles, and its ``players`` as seats."""
        def facts(d: dict[str, Any]) -> list[dict[str, Any]]:
            return [{"label": k.replace("_", " "), "value": v} for k, v in d.items()
                    if isinstance(v, (int, float, str)) and not isinstance(v, bool) and k not in _NOT_SHOWN]

        def piles(d: dict[str, Any]) -> list[dict[str, Any]]:
            return [{"name": k.replace("_", " "), "cards": view_cards(v)} for k, v in d.items()
                    if isinstance(v, list) and all(isinstance(x, str) for x in v)]

        players = observation.get("players")
        seats = [{"seat": seat, "name": f"seat {seat}", "facts": facts(p), "piles": piles(p)}
                 for seat, p in enumerate(players if isinstance(players, list) else []) if isinstance(p, dict)]
        return {"facts": facts(observation), "zones": [], "seats": seats, "piles": piles(observation)}

    def move_steps(self, move: Any) -> tuple[str, ...]:
        """The choices a move is made of, in the order a person makes them, as short text:
        ``play "Opal Statuary" city2`` is ``("play", "Opal Statuary", "city2")``. A user interface
        offers the first steps of the legal moves, then those that follow the one picked, so a
        decision among forty moves is a few small choices. This default reads the fields of the
        Omen move notation (:mod:`omen_search.move_notation`) where a move has them, else it is one
        step, the whole move."""
        verb = getattr(move, "verb", None)
        if not isinstance(verb, str):
            return (str(move),)
        steps = [verb]
        for name in ("card", "city", "to", "target", "label"):
            value = getattr(move, name, None)
            if value is not None:
                steps.append(f"city{value}" if name == "city" else f"to city{value}" if name == "to" else str(value))
        if getattr(move, "draw", None) is not None:
            steps.append(f"draw {move.draw} coin {move.coin}")
        return tuple(steps)

    # ------------------------------------------------------------------ for the tools

    def evaluate(self, state: Any, player: int) -> float:
        """The greedy bot's one-ply value of ``state`` for ``player``: the result once the game is
        over, else the score margin over the best other seat."""
        if state.is_terminal():
            return 1000.0 * (2 * state.returns()[player] - 1)
        scores = state.scores()
        return float(scores[player] - max(s for seat, s in enumerate(scores) if seat != player))

    @property
    def match_options(self) -> tuple[str, ...]:
        """The options a match of this game takes (the rest a match decides itself, deal by deal)."""
        return tuple(o.name for o in self.options)

    def match_config(self, config: Any, deal_bits: int, deal: int = 0, cards: Any = None) -> Any:
        """The set-up of one deal of a match: the match's ``config`` with whatever the game lets a
        deal decide (Heir: which god sits in seat 0) drawn from ``deal_bits``, or from the deal's
        number ``deal`` (its pair or rotation set) for a set-up dealt in rotation (OMNIA's
        ``--flavors rotate``) out of the match's card set ``cards``."""
        return config

    def seat_labels(self, config: Any) -> tuple[str, ...]:
        """What tells the seats apart in a set-up (Heir: their gods), for match lines and reports."""
        return tuple(f"seat{seat}" for seat in range(self.players))

    labels_key = "labels"  # the key of a match's result lines that holds seat_labels

    def first_seat(self, config: Any) -> int | None:
        """The seat that takes the first turn in a set-up (its ``first_player``, else 0); None when
        the rules draw it game by game (OMNIA's N-setup-4): the balance report's "(first)"."""
        return getattr(config, "first_player", 0)

    def match_identity(self, config: Any, track_cards: bool) -> dict[str, Any] | None:
        """The set-up part of a match results file's first line, for a game whose files were
        written before they named their game (None: the generic form, which names the game and
        holds its match options)."""
        return None

    def card_played(self, move: Any) -> str | None:
        """The card a move plays, by name (``None`` for a move that plays none): the balance report
        counts the cards each seat played."""
        return None

    def card_drafted(self, move: Any) -> str | None:
        """The card (or design stack) a draft pick takes, by name (``None`` for any other move): the
        balance report's draft-pick win rates."""
        return None

    def cards_held(self, state: Any, seat: int) -> set[str]:
        """The names of the cards in a seat's hand: the balance report counts the cards drawn."""
        return set()

    # what a final score counts in this game: the advice's margin column is "<unit> margin"
    score_unit = "VP"

    def cards_drawn(self, state: Any, seat: int) -> set[str]:
        """The cards the balance report counts as drawn by ``seat`` once they are here: those of its
        hand (:meth:`cards_held`) unless the game says otherwise (OMNIA: the cards it owns)."""
        return self.cards_held(state, seat)

    # what the balance report's "drawn" means in this game (the cards :meth:`cards_drawn` gives)
    drawn_means = "in the opening hand or came into the hand during the game"
    card_label = "devotion"  # what the balance report names beside a card (OMNIA: its flavor)
    score_means = ""  # what a score is made of, when its unit does not say (OMNIA: prestige + life)

    def balance_cards(self, cards: Any) -> list[dict[str, Any]] | None:
        """The cards the balance report rates, in order, each ``{"name", card_label, "copies",
        "source"}``; None: the card set's ``units`` in ``cards --json``, else the cards played or drawn."""
        return None

    def adapter(self, cards: Any = None) -> Any:
        """What the OpenSpiel and PettingZoo adapters (:mod:`omen_search.adapters`) need of the game:
        its actions as dense indices and its observations as tensors (see ``adapters/spec.py``);
        raises :class:`UsageError` for a game that has none."""
        raise UsageError(f"adapters: {self.name} has no adapter")

    def table_rules(self) -> Any:
        """How a game on a real table is followed from one seat (a
        :class:`~omen_search.table_rules.TableRules`, :mod:`omen_search.table`); raises
        :class:`UsageError` for a game that has none."""
        raise UsageError(f"table: {self.name} has no table companion yet")

    outlook_key: str | None = None  # the advice field of :meth:`outlook` (None: the game has none)

    # the names of the evaluation features the game's core supplies, in its order (the C contract's
    # optional ``features`` entry; :mod:`omen_search.evaluation`); empty: the core has none
    feature_names: tuple[str, ...] = ()

    def outlook(self, state: Any, stats: tuple[float, ...], visits: int) -> tuple[Any, ...]:
        """What the search's game statistics (summed over ``visits`` iterations of the best move)
        say of the game ahead, as items with a ``to_dict()``."""
        return ()

    def describe_outlook(self, items: tuple[Any, ...]) -> str:
        """:meth:`outlook` as a line of text ('' for none)."""
        return ""

    def describe(self) -> dict[str, Any]:
        """The game as ``omen-search games --json`` lists it."""
        return {"name": self.name, "title": self.title, "players": self.players,
                "options": [{"name": o.name, "help": o.help, "default": o.default,
                             **({"choices": list(o.choices)} if o.choices else {})} for o in self.options]}

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse an option this game does not have, naming the ones it has."""
        known = {o.name for o in self.options}
        for name in options:
            if name not in known:
                raise UsageError(f"{self.name}: no option {name!r} (options: {', '.join(sorted(known)) or 'none'})")


_NOT_SHOWN = {"format", "game", "ruleset", "player", "ply"}  # bookkeeping, not the board


def view_cards(names: Iterable[str], info: Callable[[str], tuple[str, str]] | None = None,
               tags: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Cards for :meth:`Game.view`, copies of a name counted once each, in first-seen order:
    ``{"name", "count", "detail", "text", "tags"}`` with ``info(name)`` giving the detail line
    (cost, strength) and the rules text.

    >>> [(c["name"], c["count"]) for c in view_cards(["Satyr", "Griffin", "Satyr"])]
    [('Satyr', 2), ('Griffin', 1)]
    """
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    out = []
    for name, count in counts.items():
        detail, text = info(name) if info is not None else ("", "")
        out.append({"name": name, "count": count, "detail": detail, "text": text, "tags": list(tags)})
    return out


_REGISTRY: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` to the registry under its name (a name is taken once)."""
    if game.name in _REGISTRY and _REGISTRY[game.name] is not game:
        raise ValueError(f"a game named {game.name!r} is already registered")
    _REGISTRY[game.name] = game
    return game


def _load_builtin() -> None:
    # the package's own games, registered on first use: loaded by name, as a plug-in is, so that
    # nothing below the games imports them
    for module in importlib.import_module("omen_search.games").BUILTIN:
        importlib.import_module(module)


def all_games() -> tuple[Game, ...]:
    """Every registered game, in registration order."""
    _load_builtin()
    return tuple(_REGISTRY.values())


def get_game(name: str, *, field: str = "game") -> Game:
    """The game registered as ``name``; raises :class:`UsageError` naming ``field`` (and the nearest
    name) if none is: ``record.game: unknown game 'chess' (games: heir, heir-solo, reign-of-war)``."""
    _load_builtin()
    if isinstance(name, str) and name in _REGISTRY:
        return _REGISTRY[name]
    names = list(_REGISTRY)
    near = difflib.get_close_matches(name, names, 1) if isinstance(name, str) else []
    hint = f"; did you mean {near[0]!r}?" if near else f" (games: {', '.join(names)})"
    raise UsageError(f"{field}: unknown game {shown(name)}{hint}")


def game_with_players(name: str, players: int, *, field: str = "--players-count") -> Game:
    """The game of ``name``'s family played by ``players`` players (``omega`` and 4: ``omega-4``);
    raises :class:`UsageError` naming ``field`` and the counts the family is played by."""
    family = get_game(name).family
    members = [g for g in all_games() if g.family == family and g.automaton is None]
    for game in members:
        if game.players == players:
            return game
    counts = [str(n) for n in sorted({g.players for g in members})]
    said = counts[0] if len(counts) == 1 else f"{', '.join(counts[:-1])} or {counts[-1]}"
    raise UsageError(f"{field}: {name} is played by {said} players, not {players}")


def game_of(config: Any) -> Game:
    """The registered game a configuration sets up."""
    for game in all_games():
        if game.owns(config):
            return game
    raise UsageError(f"game: no registered game is set up by {config!r}")


def named_game(document: Any, root: str) -> Game:
    """The game (a family's first, for a family) a record, position or observation names in its
    ``game`` field: :data:`DEFAULT_GAME` if it names none or is not an object (reading it then
    says what is wrong). Raises :class:`FormatError` naming ``<root>.game`` for an unknown game."""
    name = document.get("game", DEFAULT_GAME) if isinstance(document, dict) else DEFAULT_GAME
    try:
        return get_game(name, field=f"{root}.game")
    except UsageError as exc:
        raise FormatError(str(exc)) from None


def _option_names(game: Game) -> list[str]:
    return [o.name for o in game.options]


def game_taking(names: Iterable[str], taken: Callable[[Game], Iterable[str]] = _option_names) -> Game:
    """The game meant when only options are given: :data:`DEFAULT_GAME` if it takes every one of
    ``names`` (``taken``: the option names a game takes), else the first registered game that does
    (``level``: heir-solo), else :data:`DEFAULT_GAME` (whose check then refuses them)."""
    wanted = set(names)
    default = get_game(DEFAULT_GAME)
    return next((g for g in (default, *all_games()) if wanted <= set(taken(g))), default)
