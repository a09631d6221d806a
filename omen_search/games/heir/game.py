"""Heir to the Dunes as the tools see it: two games, ``heir`` (two players) and ``heir-solo`` (one
player against the Corrupted Heir), with their set-up options, registered by name."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from omen_search.errors import UsageError
from omen_search.game import Game, Option, register, view_cards
from omen_search.games.heir import positions, render
from omen_search.games.heir.cards import GODS, CardSet, default_cards, load_cards
from omen_search.games.heir.engines import new_game
from omen_search.games.heir.heuristic import evaluate
from omen_search.games.heir.notation import Move
from omen_search.games.heir.observe import observe, written_config
from omen_search.games.heir.reference import GameState
from omen_search.games.heir.rules import CITIES, DEFAULT_MAX_TURNS, LEVELS, Config

HIDDEN_EMISSARY = "emissary (face down)"  # an opponent's Emissary choice, as the other seat sees it
# the core's evaluation features of one player's side (ext/heir/features.pxi, in its order): the
# clock is the share of the nine reward tiles taken; a lead is a city where the player is stronger
FEATURE_NAMES = ("points", "points x clock", "tiles unused", "tiles used", "treasured in hand",
                 "structures completed", "cards beneath structure", "coins", "cards in hand",
                 "strength in hand", "strength in cities", "units in cities", "cities led",
                 "tiles in cities led", "tiles led x clock", "favored")


@dataclass(frozen=True)
class CityOutlook:
    """The wars ahead in one city, if the best move is played (the advice's ``war_outlook``)."""

    city: int
    tiles: int  # reward tiles still in the city
    win_next: float  # probability that the player wins the city's next war (and takes its next tile)
    expected_tiles: float  # reward tiles the player can expect to take from the city by the end

    def to_dict(self) -> dict[str, Any]:
        return {"city": self.city, "tiles": self.tiles, "win_next": self.win_next,
                "expected_tiles": self.expected_tiles}


_COMMON = (
    Option("gods", "gods of seat 0 and seat 1", "anubis,horus", ("anubis,horus", "horus,anubis")),
    Option("max_turns", "end the game after this many turns, ruling D-end-2", DEFAULT_MAX_TURNS),
)


class HeirGame(Game):
    """``heir`` or ``heir-solo``: one rules engine, the solo game set up by a level."""

    def __init__(self, solo: bool):
        self.solo = solo
        self.name = "heir-solo" if solo else "heir"
        self.players = 2
        self.automaton = "corrupted-heir" if solo else None
        if solo:
            self.title = "Omen: Heir to the Dunes, against the Corrupted Heir (seat 1, an automaton)"
            self.options = (Option("level", "the Corrupted Heir's difficulty", "normal", LEVELS),) + _COMMON
        else:
            self.title = "Omen: Heir to the Dunes, two players"
            self.options = (Option("first_player", "the seat that takes the first turn", 0, (0, 1)),
                            Option("emissary", "play the Emissary of War variant", False, (False, True))) + _COMMON

    def config(self, **options: Any) -> Config:
        self.check_options(options)
        gods = options.get("gods", "anubis,horus")
        if isinstance(gods, str):
            gods = tuple(g.strip().lower() for g in gods.split(","))
        if not isinstance(gods, tuple) or len(gods) != 2 or sorted(gods) != sorted(GODS):
            raise UsageError(f"gods: must name anubis and horus once each, got {options.get('gods')!r}")
        common = {"gods": gods, "max_turns": options.get("max_turns", DEFAULT_MAX_TURNS)}
        if self.solo:
            return Config(level=options.get("level", "normal"), **common)
        return Config(first_player=options.get("first_player", 0), emissary=options.get("emissary", False), **common)

    short_title = "Omen: Heir to the Dunes"
    family = "heir"  # type: ignore[assignment]  # both games read the same card files

    @property
    def deciding_seats(self) -> tuple[int, ...]:
        return (0,) if self.solo else (0, 1)

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

    def owns(self, config: Any) -> bool:
        return type(config) is Config and config.solo == self.solo  # not the combined game's (a subclass)

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: CardSet | None = None,
                          config: Any = None) -> Any:
        return new_game(engine, seed, cards, self.checked_config(config))

    # -- cards

    def default_cards(self) -> CardSet:
        return default_cards()

    def load_cards(self, path: str | Path | None = None) -> CardSet:
        return load_cards(path)

    def describe_cards(self, cards: CardSet) -> str:
        return render.describe_cards(cards)

    def cards_json(self, cards: CardSet) -> dict[str, Any]:
        return render.cards_json(cards)

    def cards_table(self, cards: CardSet) -> str:
        return render.cards_table(cards)

    def card_names(self, cards: CardSet) -> tuple[str, ...]:
        return tuple(c.name for kind in (cards.units, cards.rewards, cards.structures) for c in kind)

    # -- what a player sees

    def observe(self, state: Any, player: int) -> dict[str, Any]:
        return observe(state, player)

    def from_observation(self, observation: Any, cards: Any = None, root: str = "observation") -> tuple[Any, int]:
        state, seat = positions.state_from_observation(observation, cards, root)
        positions.reach_decision(state, root)
        return state, seat

    def game_of_document(self, data: Any, root: str, cards: Any = None) -> Game:
        return positions.document_game(data, root, cards)

    def describe_observation(self, observation: dict[str, Any], cards: Any = None) -> str:
        """The board as the seat sees it, and its hand (the hidden cards of the state it is rebuilt
        into are made up, so the opponent's VP, which hidden tiles count in, are not shown)."""
        state, me = positions.state_from_observation(observation, cards)
        hand = ", ".join(state.units[t].name + (f" x{n}" if n > 1 else "") for t, n in enumerate(state.hands[me]) if n)
        return f"{render.describe_board(state, pov=me)}\n    your hand: {hand or '-'}"

    def to_core(self, state: Any) -> Any:
        if hasattr(state, "game_handle"):
            return state
        from omen_search._core import CoreState

        return CoreState.from_state(state)

    def public_move(self, state: Any, move: Any, pov: int) -> str:
        return HIDDEN_EMISSARY if state.current_player != pov and move.verb == "emissary" else str(move)

    hidden_move = HIDDEN_EMISSARY  # the only move an MO tree hides from the other seat

    # -- positions and records

    def load_position(self, data: Any, cards: Any = None, root: str = "position") -> GameState:
        return positions.load_position(data, cards, root)

    def to_position(self, state: Any) -> dict[str, Any]:
        return positions.to_position(state)

    def record_header(self, state: Any) -> dict[str, Any]:
        return {"ruleset": state.cards.ruleset, "cards": {"name": state.cards.name, "sha256": state.cards.sha256},
                "config": written_config(state.config)}

    def read_record_header(self, record: dict[str, Any], cards: Any) -> Config:
        return positions.read_record_header(record, cards)

    def record_totals(self, state: Any) -> dict[str, Any]:
        return {"turns": state.turn}

    # -- for people

    def describe_board(self, state: Any, pov: int | None = None) -> str:
        return render.describe_board(state, pov)

    def describe_seats(self, state: Any, players: list[str]) -> str:
        return render.describe_seats(state, players)

    def turn_header(self, state: Any) -> str | None:
        return render.turn_header(state)

    def describe_move(self, state: Any, move: Any) -> str:
        return render.describe_move(state, move)

    def describe_result(self, state: Any) -> str:
        return render.describe_result(state)

    def decision_name(self, state: Any) -> str:
        return state.pending.kind if state.pending is not None else "none"

    # -- for a user interface

    def view(self, observation: dict[str, Any], cards: Any = None) -> dict[str, Any]:
        """The board a seat sees (:meth:`Game.view`): the cities with both sides and their strength,
        each seat's coins, cards, tiles and structures. Hidden things are counts: the opponent's
        hand beyond its known cards, its unused tiles, and its VP, which those tiles count in."""
        return _view(self, observation, cards if cards is not None else default_cards())

    def move_steps(self, move: Any) -> tuple[str, ...]:
        """As the notation reads, but an Offering's BUILD names the structure before the unit."""
        steps = super().move_steps(move)
        return (steps[0], steps[2], steps[1]) if move.verb == "build" else steps

    # -- for the tools

    def evaluate(self, state: Any, player: int) -> float:
        return evaluate(state, player)

    def adapter(self, cards: Any = None) -> Any:
        from omen_search.games.heir.adapter import HeirAdapter

        return HeirAdapter(self, cards if cards is not None else default_cards())

    def table_rules(self) -> Any:
        """Two-player Heir can be followed at the table (:mod:`omen_search.games.heir.table`)."""
        if self.solo:
            return super().table_rules()
        from omen_search.games.heir.table import HeirTable

        return HeirTable()

    outlook_key = "war_outlook"
    feature_names = FEATURE_NAMES

    def outlook(self, state: Any, stats: tuple[float, ...], visits: int) -> tuple[CityOutlook, ...]:
        """Per city with reward tiles: the next war and the tiles taken, over the best move's
        iterations (the core's statistics: per city the next wars won, then the tiles taken)."""
        if not visits or not stats:
            return ()
        return tuple(CityOutlook(city, len(tiles), stats[city] / visits, stats[CITIES + city] / visits)
                     for city, tiles in enumerate(state.city_tiles) if tiles)

    def describe_outlook(self, items: tuple[Any, ...]) -> str:
        if not items:
            return ""
        wars = ", ".join(f"city{c.city} {100 * c.win_next:.0f}% ({c.expected_tiles:.1f} of {c.tiles} tiles)"
                         for c in items)
        return f"next war won (expected tiles taken) after the best move: {wars}"

    @property
    def match_options(self) -> tuple[str, ...]:
        """A match deals the gods pair by pair and lets the configured first player start."""
        return tuple(o.name for o in self.options if o.name not in ("gods", "first_player"))

    def match_config(self, config: Config, deal_bits: int, deal: int = 0, cards: Any = None) -> Config:
        return replace(config, gods=GODS if deal_bits & 1 == 0 else (GODS[1], GODS[0]))

    def seat_labels(self, config: Config) -> tuple[str, ...]:
        return tuple(config.gods)

    labels_key = "gods"

    def match_identity(self, config: Config, track_cards: bool) -> dict[str, Any]:
        """Heir's results files (bench/strength/) were written before a match named its game: their
        first line holds these values, in this order, so that they still resume and reproduce (the
        solo game's Emissary flag is always off)."""
        return {"emissary": config.emissary, "max_turns": config.max_turns, "track_cards": track_cards,
                **({"level": config.level} if self.solo else {})}

    def card_played(self, move: Any) -> str | None:
        return move.card if move.verb == "play" else None

    def cards_held(self, state: Any, seat: int) -> set[str]:
        return {state.units[t].name for t, n in enumerate(state.hands[seat]) if n}


def _view(game: HeirGame, o: dict[str, Any], cards: CardSet) -> dict[str, Any]:
    """:meth:`HeirGame.view`: from the observation ``o`` and the state it rebuilds into, whose
    hidden cards are made up (so only what the observation fixes is read from it)."""
    state, me = positions.state_from_observation(o, cards)
    units = {u.name: u for u in cards.units}
    others: dict[str, Any] = {c.name: c for kind in (cards.rewards, cards.structures) for c in kind}

    def info(name: str) -> tuple[str, str]:
        u = units.get(name)
        if u is not None:
            keywords = " ".join(sorted(u.keywords))
            return (f"{u.type}, {u.devotion}: cost {u.cost}, strength {u.strength}, offering {u.offering}"
                    + (f", {keywords}" if keywords else "")), u.text
        c = others.get(name)
        if c is None:
            return "", ""
        return (f"{render.god_name(c.god)} structure: BUILD {c.build}, {c.vp} VP", c.text) if hasattr(c, "build") \
            else ("reward tile", c.text)

    def cards_(names: list[str], *tags: str) -> list[dict[str, Any]]:
        return view_cards(names, info, tags)

    gods = o["config"]["gods"]
    war_torn = state.war_torn_cities() if o["pending"] is not None else []
    zones = [{"name": f"city{c}", "facts": [{"label": "reward tiles", "value": o["city_tiles"][c]}],
              "marks": (["war"] if o["war"]["city"] == c else []) + (["war-torn"] if c in war_torn else []),
              "sides": [{"seat": p, "facts": [{"label": "strength", "value": state.strength(c, p)}],
                         "cards": cards_(o["cities"][c][p])} for p in (0, 1)]} for c in range(CITIES)]
    seats = []
    for p, seen in enumerate(o["players"]):
        solo_heir = game.solo and p == 1
        facts: list[dict[str, Any]] = [{"label": "god", "value": render.god_name(gods[p])},
                                       {"label": "treasury" if solo_heir else "coins", "value": seen["coins"]}]
        if solo_heir:
            facts.append({"label": "reserve", "value": o.get("heir_reserve", 0)})
        else:
            facts.append({"label": "cards in hand", "value": seen["hand_size"]})
        facts.append({"label": "VP", "value": state.scores()[p] if p == me else _public_vp(seen, gods[p], cards)})
        piles: list[dict[str, Any]] = []
        if p == me:
            piles.append({"name": "hand", "cards": cards_(seen["hand"])})
        elif not solo_heir:
            piles.append({"name": "hand", "cards": cards_(seen["known"], "known"),
                          "hidden": seen["hand_size"] - len(seen["known"])})
        if seen.get("emissary"):
            piles.append({"name": "emissary", "cards": cards_([seen["emissary"]])})
        elif seen.get("emissary_chosen"):
            piles.append({"name": "emissary", "cards": [], "hidden": 1})
        piles.append({"name": "unused tiles", "cards": cards_(seen["unused_tiles"] or []),
                      "hidden": 0 if p == me else seen["unused_count"]})
        piles.append({"name": "used tiles", "cards": cards_(seen["used_tiles"])})
        structures = [s.name for s in cards.structures_of(gods[p])]
        piles.append({"name": "structures", "cards": [
            *cards_([n for n in structures if n in seen["completed"]], "completed"),
            *cards_([n for n in structures if n == seen["building"]], f"building: {seen['under_count']} under"),
            *cards_([n for n in structures if n not in seen["completed"] and n != seen["building"]])]})
        piles.append({"name": "destroyed", "cards": cards_(seen["destroyed"])})
        seats.append({"seat": p, "name": "Corrupted Heir" if solo_heir else render.god_name(gods[p]),
                      "facts": facts, "piles": piles})
    facts_ = [{"label": "turn", "value": o["turn"]}, {"label": "phase", "value": o["phase"]},
              {"label": "favor", "value": render.god_name(o["favor"])}, {"label": "deck", "value": o["deck_size"]}]
    shared = [{"name": "revealed", "cards": cards_(o["revealed"])}, {"name": "limbo", "cards": cards_(o["limbo"])},
              {"name": "discard pile", "cards": cards_(o["discard"])}]
    return {"facts": facts_, "zones": zones, "seats": seats, "piles": shared}


def _public_vp(seen: dict[str, Any], god: str, cards: CardSet) -> str:
    """Another seat's VP as far as the table sees it (H-score-1): its TREASURED cards in hand are
    hidden, so with unknown cards in hand it is a lower bound."""
    treasured = {u.name for u in cards.units if u.treasured}
    vp = (2 * seen["unused_count"] + len(seen["used_tiles"]) + sum(1 for n in seen["known"] if n in treasured)
          + sum(s.vp for s in cards.structures_of(god) if s.name in seen["completed"]))
    return str(vp) if seen["hand_size"] == len(seen["known"]) else f"at least {vp}"


HEIR = register(HeirGame(solo=False))
HEIR_SOLO = register(HeirGame(solo=True))
