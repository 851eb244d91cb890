"""The contract every game state fulfils.

A state is never changed by :meth:`GameState.apply`: it returns a new state
and the events that lead to it. A game implements the abstract methods; the
base class supplies validation, text parsing, digests and the standard
refusals.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from warhorn.engine.actions import Action, ActionCodec
from warhorn.engine.decisions import Decision, GameSpec, Results
from warhorn.engine.errors import IllegalActionError, MalformedActionError
from warhorn.engine.events import Event
from warhorn.engine.rng import Rng


class GameState(ABC):
    """A position in a game, with its random generator.

    Subclasses set ``spec`` and ``codec`` and implement the abstract methods.
    ``_apply_in_place`` changes ``self`` (which :meth:`apply` has already
    copied) and returns the events.
    """

    spec: ClassVar[GameSpec]
    codec: ClassVar[ActionCodec]

    rng: Rng
    options: dict[str, Any]
    seed: int

    # --- what a game implements -------------------------------------------
    @property
    @abstractmethod
    def num_players(self) -> int:
        """How many seats (players) the game has."""

    @abstractmethod
    def pending(self) -> Decision | None:
        """The decision the game waits for; None once the game is over."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every action the pending decision allows; empty once the game is over."""

    @abstractmethod
    def copy(self) -> Self:
        """An independent copy (the random generator included)."""

    @abstractmethod
    def _apply_in_place(self, action: Action) -> list[Event]:
        """Carry out a legal action on ``self``; return the events."""

    @abstractmethod
    def results(self) -> Results | None:
        """The results once the game is over, else None."""

    @abstractmethod
    def view(self, player: int | None) -> dict[str, Any]:
        """Everything ``player`` may see, as JSON (``None``: a spectator who sees only public facts)."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The whole state, hidden parts included, as canonical JSON (for digests and debugging)."""

    # --- hooks with defaults ----------------------------------------------
    @property
    def content_hash(self) -> str:
        """Hash of the content (board, cards) this game was built from; part of every save."""
        return ""

    def rounds_played(self) -> int | None:
        """How many rounds have begun, for games that log no ``flow.round`` events (None: not counted).

        The tournament runner counts a game's ``flow.round`` events (``{"round": n}``, as Nerath
        logs them); a game that logs none (Defenders, Small World) overrides this so its records
        still carry a count.
        """
        return None

    def player_scores(self) -> Mapping[int, float] | None:
        """Each player's score now, as the game counts it (VP, points), for score-over-rounds reports.

        None: the game keeps no running score. Tournament records sample it at every round start.
        """
        return None

    def seat_roles(self) -> list[str] | None:
        """What each seat plays (faction, kingdom, hero…) for win rates by role in reports; None: no roles."""
        return None

    def stage_name(self) -> str | None:
        """The stage the game has reached, if it has stages (Defenders: the war status); reports group
        cooperative losses by it. None: no stages."""
        return None

    def auto_answer(self) -> Action | None:
        """The answer the pending decision may take by itself: a question its player is asked only
        so that being asked reveals nothing (Nerath: a card window where none of the player's cards
        could change anything), whose one sensible answer is this action. None: a real decision.

        Front ends (web page, terminal, tournament runner) answer it for a player who keeps
        auto-pass on, and ask the player as usual otherwise; it is always among the legal actions.
        """
        return None

    def why_illegal(self, action: Action) -> IllegalActionError:
        """Explain why a well-formed action is not legal now. Games override to name the rule."""
        decision = self.pending()
        if decision is None:
            return IllegalActionError("the game is over: no action is legal")
        return IllegalActionError(
            f"{action.notation()!r} is not legal now (waiting for player {decision.player}: "
            f"{decision.prompt})"
        )

    def is_legal(self, action: Action) -> bool:
        """Whether ``action`` is legal now. Games may override with a faster test."""
        return action in self.legal_actions()

    def determinize(self, player: int, rng: Rng) -> Self:
        """A state that ``player`` cannot tell from this one: hidden facts resampled with ``rng``.

        The default suits games without hidden information. Used by the
        conformance suite (a view must not change) and by search AI.
        """
        return self.copy()

    def invariants(self) -> list[str]:
        """Broken invariants, in words; empty when all hold. Checked after every action in tests."""
        return []

    def describe(self) -> str:
        """A compact text summary for terminals."""
        decision = self.pending()
        return decision.prompt if decision else "game over"

    # --- supplied by the base class ---------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.pending() is None

    def apply(self, action: Action) -> tuple[Self, list[Event]]:
        """Return the state after ``action`` and the events; ``self`` is untouched.

        Raises :class:`IllegalActionError` (naming the rule where one applies)
        when the action is not legal now.
        """
        if not isinstance(action, Action):
            raise MalformedActionError(f"not an action: {action!r}")
        if not self.is_legal(action):
            raise self.why_illegal(action)
        after = self.copy()
        events = after._apply_in_place(action)
        return after, events

    def parse(self, text: str) -> Action:
        """The legal action a text denotes (exact notation or a unique prefix of one)."""
        legal = self.legal_actions()
        try:
            return self.codec.resolve_text(text, legal)
        except LookupError:
            decision = self.pending()
            if decision is None:
                raise IllegalActionError("the game is over: no action is legal") from None
            raise IllegalActionError(
                f"{text!r} matches no legal action now ({decision.prompt})", decision.rule
            ) from None

    def decode(self, data: Any) -> Action:
        """Decode a JSON action (refusing malformed input); legality is checked by :meth:`apply`."""
        return self.codec.from_json(data)

    def digest(self) -> str:
        """SHA-256 of the canonical snapshot: equal digests mean equal states."""
        blob = json.dumps(self.snapshot(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def view_json(self, player: int | None) -> str:
        return json.dumps(self.view(player), sort_keys=True, separators=(",", ":"))


def legal_notations(state: GameState) -> Sequence[str]:
    return [a.notation() for a in state.legal_actions()]
