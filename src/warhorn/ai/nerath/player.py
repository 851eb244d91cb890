"""The Nerath heuristic player: one decision at a time, with a movement plan per turn.

At the first movement decision of a turn the player plans the whole
movement phase (:mod:`.attack_planning`) and then plays the plan move by
move, planning again when a planned move has become illegal. Every other
decision is taken on the spot by :mod:`.battle_tactics`,
:mod:`.reinforcement` and :mod:`.card_play`. Each choice comes with a
one-line reason built from public facts and the player's own cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from warhorn.ai.heuristic import Choice
from warhorn.ai.nerath import attack_planning, battle_tactics, card_play, reinforcement
from warhorn.engine import Action, GameState, Rng
from warhorn.games.nerath.actions import Pass
from warhorn.games.nerath.rules import cards as card_rules

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState


class NerathHeuristic:
    """Plays Conquest of Nerath by exact battle odds and expected gold and VP (see the package docs)."""

    def __init__(self, params: Mapping[str, str] | None = None) -> None:
        params = dict(params or {})
        unknown = set(params) - {"sentries"}
        if unknown:
            raise ValueError(
                f"unknown Nerath heuristic parameter(s) {', '.join(sorted(unknown))} (known: sentries)"
            )
        flag = params.get("sentries", "0")
        if flag not in ("0", "1"):
            raise ValueError(f"sentries must be 0 or 1, not {flag!r}")
        #: Leave one piece in each threatened territory that an attack would empty.
        self.sentries = flag == "1"
        self._plan: list[attack_planning.PlannedMove] = []
        self._plan_key: tuple[int, int, int] | None = None
        #: Decisions where the chosen action was not legal and the first legal one was played instead
        #: (a bug indicator: tests assert it stays 0).
        self.fallbacks = 0

    def choose(self, state: GameState, player: int, rng: Rng) -> Choice:
        s = cast("NerathState", state)
        choice = self._decide(s, player)
        if not s.is_legal(choice.action):
            self.fallbacks += 1
            legal = s.legal_actions()
            return Choice(legal[0], f"fallback: planned {choice.action.notation()} is not legal now")
        return choice

    # --- dispatch --------------------------------------------------------------------------
    def _decide(self, s: NerathState, player: int) -> Choice:
        pending = s.pending()
        assert pending is not None, "the game is over"
        kind = pending.kind
        k = s.current_kingdom
        if kind == "card_window":
            acting = card_rules.acting_kingdom(s)
            play = card_play.card_to_play(s, acting, list(card_rules.legal_plays(s, acting)))
            return play if play is not None else Choice(Pass(), "pass the card window: no card helps now")
        if kind == "damage":
            return battle_tactics.choose_damage(s, player, s.legal_actions())
        if kind == "damage_split":
            return battle_tactics.choose_split(s, s.legal_actions())
        if kind == "split_answer":
            return battle_tactics.choose_split_answer(s)
        if kind == "continue_or_retreat":
            return battle_tactics.choose_continue(s, s.legal_actions())
        if kind == "landing":
            return battle_tactics.choose_landing(s, s.legal_actions())
        if kind == "run_amok":
            return battle_tactics.choose_amok(s, s.legal_actions())
        own_cards = list(card_rules.legal_plays(s, k))
        if own_cards:
            play = card_play.card_to_play(s, k, cast("list[Action]", own_cards))
            if play is not None:
                return play
        if kind == "battle_order":
            return battle_tactics.choose_fight(s, s.legal_actions())
        if kind == "movement":
            return self._next_move(s, k)
        if kind == "reposition":
            return battle_tactics.choose_reposition(s, k, s.legal_actions())
        if kind == "reinforcements":
            return reinforcement.choose_purchase(s, k)
        legal = s.legal_actions()
        return Choice(legal[0], f"{kind}: the first legal action")

    def _next_move(self, s: NerathState, k: int) -> Choice:
        key = (s.d.pos.round, k, s.seed)
        if key != self._plan_key:
            self._plan_key = key
            self._plan = attack_planning.plan_movement(s, k, sentries=self.sentries)
        for attempt in range(2):
            while self._plan:
                step = self._plan.pop(0)
                if s.is_legal(step.action):
                    return Choice(step.action, step.reason)
            if attempt == 0 and self._plan_key == key and self._replanned_for != key:
                self._replanned_for = key
                self._plan = attack_planning.plan_movement(s, k, sentries=self.sentries)
        return Choice(Pass(), "movement done: no further attack, delve or march is worth it")

    _replanned_for: tuple[int, int, int] | None = None
