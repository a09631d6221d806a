"""What OMEGA's and OMNIA's adapters (``omen_search.adapters.spec.GameAdapter``) share, written once:
N seats whose winners share 1, one observation encoder (a :class:`~omen_search.vector_layout.SegmentLayout`
with ``encode``), dense actions (:class:`~omen_search.action_space.DenseActions`) and a core state
stored as the reference engine's fields, its generator's words, the set-up and the deal's seed,
which ``CoreState.from_state`` rebuilds it from. Each game names its core class, its fields and
its action space; a game whose fields need a translation to be pickled overrides the two hooks."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from omen_search.action_space import DenseActions
from omen_search.rng import Rng


class Encoder(Protocol):
    """A game's observation vector: :class:`~omen_search.vector_layout.SegmentLayout` and ``encode``."""

    size: int
    layout: dict[str, tuple[int, int]]

    def slice(self, name: str) -> slice: ...

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]: ...


class FieldsAdapter(DenseActions):
    """The shared half of an adapter; a subclass sets ``core`` (the game's ``CoreState`` class),
    ``fields`` (the names ``from_state`` reads beside the generator, the cards and the set-up),
    ``space`` and ``params`` and gives ``config`` and ``public_view``."""

    min_utility, max_utility, utility_sum = 0.0, 1.0, 1.0
    core: Any
    fields: tuple[str, ...]

    def __init__(self, game: Any, cards: Any, encoder: Encoder):
        self.game = game
        self.cards = cards
        self.players = game.players
        self.encoder = encoder
        self.observation_size = encoder.size
        self.observation_layout = {name: encoder.slice(name) for name in encoder.layout}

    def new_core(self, seed: int, config: Any) -> Any:
        return self.core.new(seed, self.cards, config)

    def encode(self, observation: dict[str, Any],
               out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        return self.encoder.encode(observation, out)

    def encode_public(self, view: dict[str, Any], player: int,
                      out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """The vector of a public view, "mine" being ``player``'s."""
        return self.encoder.encode(dict(view, player=player), out)

    def returns(self, core: Any) -> tuple[float, ...]:
        """Per seat: 1 for a sole winner, 1/k each for k sharing the win, 0 for the others."""
        return tuple(core.returns())

    def serialize(self, core: Any) -> Any:
        """The reference's fields of the state, its generator's words, the set-up and the deal's seed."""
        view = core.view()
        return self.stored({name: getattr(view, name) for name in self.fields}), self.words(core, view), \
            core.config, core.seed

    def deserialize(self, data: Any) -> Any:
        fields, words, config, seed = data
        state = SimpleNamespace(cards=self.cards, config=config, rng=Rng.from_state(words), seed=seed, moves=(),
                                **self.read(fields))
        return self.core.from_state(state)

    def words(self, core: Any, view: Any) -> list[int]:
        """The generator's four words (the view's generator; a core may hold its own)."""
        words: list[int] = view.rng.s
        return words

    def stored(self, fields: dict[str, Any]) -> dict[str, Any]:
        """The fields as pickled (a hook: as they are)."""
        return fields

    def read(self, fields: dict[str, Any]) -> dict[str, Any]:
        """The fields :meth:`stored` gave, as ``from_state`` reads them (a hook: as they are)."""
        return fields
