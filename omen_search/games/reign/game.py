"""Reign of War as the tools see it: ``reign-of-war``, two players, with its variants as options."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from omen_search.errors import FormatError, UsageError
from omen_search.game import ENGINES, Game, Option, register, view_cards
from omen_search.games.reign import positions, render
from omen_search.games.reign.cards import CardSet, default_cards, load_cards
from omen_search.games.reign.heuristic import evaluate
from omen_search.games.reign.notation import Move
from omen_search.games.reign.observe import observe, written_config
from omen_search.games.reign.reference import GameState
from omen_search.games.reign.rules import CITIES, COINS, DECK_HELP, DECKS, DEFAULT_MAX_TURNS, GAME, Config

HIDDEN_CHOICE = "(face down)"  # an opponent's emissary or Simplified-draft pick, as the other seat sees it


def parse_decks(text: str) -> tuple[tuple[str, ...], ...]:
    """``--decks "A,B,…;C,D,…"``: each seat's names (10 designs, or every card of a given deck),
    seat 0's first."""
    if not text:
        return ()
    seats = text.split(";")
    if len(seats) != 2:
        raise UsageError(f"decks: must be two lists of design names separated by ';', got {text!r}")
    return tuple(tuple(name.strip() for name in seat.split(",") if name.strip()) for seat in seats)


def new_game(engine: str, seed: int, cards: CardSet | None, config: Config) -> Any:
    """A new game on the named engine; the same seed deals the same game on both."""
    if engine == "reference":
        return GameState.new(seed=seed, cards=cards, config=config)
    if engine == "core":
        from omen_search._reign_core import CoreState

        return CoreState.new(seed=seed, cards=cards, config=config)
    raise UsageError(f"engine: unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")


class ReignCards:
    """What every game of the Reign of War family says of its cards and moves (the card file
    format, the seed edition, the move notation): the base game's and the Grand Melee's."""

    def parse_move(self, text: str) -> Move:
        return Move.parse(text)

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
        return tuple(c.name for kind in (cards.units, cards.rewards) for c in kind)


class ReignGame(ReignCards, Game):
    """``reign-of-war``: the base two-player game and its variants (``docs/rules/reign-of-war.md``)."""

    name = GAME
    title = "Omen: A Reign of War (second edition), two players"
    short_title = "Omen: A Reign of War"
    identifier = "reign"  # type: ignore[assignment]  # OpenSpiel's omen_reign
    players = 2
    options = (
        Option("first_player", "the seat that takes the first turn", 0, (0, 1)),
        Option("emissary", "play the Emissary of War variant", False, (False, True)),
        Option("beginner", "only the beginner (one-circle) units, R-var-1", False, (False, True)),
        Option("deck", "the deck variant (" + "; ".join(f"{k}: {v}" for k, v in DECK_HELP.items())
               + ")", "shared", DECKS),
        Option("decks", "with --deck build: each seat's 10 design names; with --deck given: each seat's "
               "cards, one name per card; 'A,B,...;C,D,...'", ""),
        Option("catch_up", "the optional catch-up wealth actions, R-wealth-4", False, (False, True)),
        Option("max_turns", "end the game after this many turns, ruling D-end-2", DEFAULT_MAX_TURNS),
        Option("coin_supply", "the coins of the table, R-comp-4 (a Grand Melee table: 20, R-melee-3)", COINS),
    )

    def config(self, **options: Any) -> Config:
        self.check_options(options)
        decks = options.get("decks", "")
        return Config(first_player=options.get("first_player", 0), emissary=options.get("emissary", False),
                      beginner=options.get("beginner", False), deck=options.get("deck", "shared"),
                      decks=parse_decks(decks) if isinstance(decks, str) else decks,
                      catch_up=options.get("catch_up", False),
                      max_turns=options.get("max_turns", DEFAULT_MAX_TURNS),
                      coin_supply=options.get("coin_supply", COINS))

    def owns(self, config: Any) -> bool:
        return isinstance(config, Config)

    def new_initial_state(self, seed: int = 0, *, engine: str = "core", cards: CardSet | None = None,
                          config: Any = None) -> Any:
        return new_game(engine, seed, cards, self.checked_config(config))

    # -- what a player sees

    def observe(self, state: Any, player: int) -> dict[str, Any]:
        return observe(state, player)

    def from_observation(self, observation: Any, cards: Any = None, root: str = "observation") -> tuple[Any, int]:
        return positions.state_from_observation(observation, cards, root)

    def game_of_document(self, data: Any, root: str, cards: Any = None) -> Game:
        return positions.document_game(data, root, cards)

    def describe_observation(self, observation: dict[str, Any], cards: Any = None) -> str:
        state, me = positions.state_from_observation(observation, cards)
        hand = ", ".join(state.units[t].name + (f" x{n}" if n > 1 else "") for t, n in enumerate(state.hands[me]) if n)
        rewards = ", ".join(state.cards.rewards[r].name for r in state.rewards_hand[me])
        return (f"{render.describe_board(state, pov=me)}\n    your hand: {hand or '-'}"
                + (f"\n    your reward cards: {rewards}" if rewards else ""))

    def to_core(self, state: Any) -> Any:
        if hasattr(state, "game_handle"):
            return state
        from omen_search._reign_core import CoreState

        return CoreState.from_state(state)

    def public_move(self, state: Any, move: Any, pov: int) -> str:
        hidden = move.verb in ("emissary", "pick") and state.current_player != pov
        return HIDDEN_CHOICE if hidden else str(move)

    hidden_move = HIDDEN_CHOICE

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
        """The board a seat sees (:meth:`Game.view`): the cities with both sides (Enraged units
        tagged) and their strength, each seat's coins, cards, reward cards and feats; the
        opponent's hand and reward cards in hand as counts (R-hidden-1 to R-hidden-3). VP are
        public (R-score-1 counts reward cards in hand by number)."""
        return _view(observation, cards if cards is not None else default_cards())

    # -- for the tools

    def evaluate(self, state: Any, player: int) -> float:
        return evaluate(state, player)

    def adapter(self, cards: Any = None) -> Any:
        from omen_search.games.reign.adapter import ReignAdapter

        return ReignAdapter(self, cards if cards is not None else default_cards())

    def card_played(self, move: Any) -> str | None:
        return move.card if move.verb in ("play", "beast") else None

    def cards_held(self, state: Any, seat: int) -> set[str]:
        return {state.units[t].name for t, n in enumerate(state.hands[seat]) if n}


def _view(o: dict[str, Any], cards: CardSet) -> dict[str, Any]:
    """:meth:`ReignGame.view`: from the observation ``o`` and the state it rebuilds into, whose
    hidden cards are made up (so only what the observation fixes is read from it). In a Simplified
    draft, which no observation rebuilds yet, strengths and VP are left out (nothing is in play)."""
    me = o["player"]
    try:
        state: Any = positions.state_from_observation(o, cards)[0]
    except FormatError:
        state = None
    units = {u.name: u for u in cards.units}
    others: dict[str, Any] = {c.name: c for kind in (cards.rewards, cards.feats) for c in kind}

    def info(name: str) -> tuple[str, str]:
        u = units.get(name)
        if u is not None:
            return f"{u.type}: cost {u.cost}, strength {u.strength}, offering {u.offering}", u.text
        c = others.get(name)
        return ("reward card" if hasattr(c, "copies") else "feat", c.text) if c is not None else ("", "")

    def cards_(names: list[str], *tags: str) -> list[dict[str, Any]]:
        return view_cards(names, info, tags)

    scores = state.scores() if state is not None else None
    war_torn = state.war_torn_cities() if state is not None and o["pending"] is not None else []
    zones = [{"name": f"city{c}", "facts": [{"label": "reward cards", "value": city["rewards"]}],
              "marks": (["war"] if o["war"]["city"] == c else []) + (["war-torn"] if c in war_torn else []),
              "sides": [{"seat": p, "facts": [{"label": "strength", "value": state.strength(c, p)}] if state else [],
                         "cards": cards_(city["sides"][p]) + cards_(city["enraged"][p], "enraged")}
                        for p in (0, 1)]} for c, city in enumerate(o["cities"])]
    seats = []
    for p, seen in enumerate(o["players"]):
        facts = [{"label": "coins", "value": seen["coins"]}, {"label": "cards in hand", "value": seen["hand_size"]},
                 *([{"label": "VP", "value": scores[p]}] if scores else [])]
        mine = p == me
        piles: list[dict[str, Any]] = [
            {"name": "hand", "cards": cards_(seen["hand"] if mine else seen["known"], *(() if mine else ("known",))),
             "hidden": 0 if mine else seen["hand_size"] - len(seen["known"])},
            {"name": "reward cards", "cards": cards_(seen["rewards"] or []), "hidden": 0 if mine else seen["reward_count"]},
            {"name": "used reward cards", "cards": cards_(seen["rewards_used"])},
            {"name": "feats", "cards": cards_(seen["feats"])}]
        if seen.get("emissary"):
            piles.append({"name": "emissary", "cards": cards_([seen["emissary"]])})
        elif seen.get("emissary_chosen"):
            piles.append({"name": "emissary", "cards": [], "hidden": 1})
        if "deck_list" in seen:
            piles.append({"name": "deck list", "cards": cards_(seen["deck_list"]),
                          "hidden": seen.get("deck_list_unknown", 0)})
        seats.append({"seat": p, "name": f"seat {p}", "facts": facts, "piles": piles})
    own = o["config"]["deck"] != "shared"  # R-own-1: a deck and a discard pile each
    facts_ = [{"label": "turn", "value": o["turn"]}, {"label": "phase", "value": o["phase"]},
              {"label": "supply", "value": o["supply"]}, {"label": "pot", "value": o["pot"]},
              *({"label": f"seat {p}'s deck" if own else "deck", "value": n}
                for p, n in enumerate(o["deck_sizes"][:2 if own else 1]))]
    shared = [{"name": "beast", "cards": cards_([o["beast"]] if o["beast"] else [])},
              {"name": "revealed", "cards": cards_(o["revealed"])},
              {"name": "limbo", "cards": cards_(o["limbo"]) + cards_(o["limbo_enraged"], "enraged")},
              *({"name": f"seat {p}'s discard pile" if own else "discard pile", "cards": cards_(pile)}
                for p, pile in enumerate(o["discards"][:2 if own else 1]))]
    if "sdraft" in o:
        draft = o["sdraft"]
        shared.append({"name": "your pack", "cards": cards_(draft["pack"])})
        if draft["opponent_pack"] is not None:
            shared.append({"name": "the pack you passed", "cards": cards_(draft["opponent_pack"])})
    assert len(zones) == CITIES
    return {"facts": facts_, "zones": zones, "seats": seats, "piles": shared}


REIGN = register(ReignGame())
