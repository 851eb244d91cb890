"""Shard ultimatums and offers of mercy (advanced rules, DLX-SHD-04).

* **Ultimatum.** During his turn a player may demand one or more shards from another player. The
  other player is asked, and accepts or refuses. If he hands them over, the demander may not attack
  that player's units for the rest of the turn. A player may make any number of ultimatums a turn.
* **Mercy.** A defender may offer a shard for mercy, even after the attacker has moved in. The
  attacker is asked, and accepts or refuses. If he accepts, one side leaves the contested territory:
  the attacker, if he can retreat to an adjacent friendly territory or teleport away in his transfer
  phase; otherwise the defender, if he can retreat to an adjacent territory. If neither can, there
  is no deal and the combat goes on.
* **Timing.** Once a combat has started after a refusal, shards may change hands only after a
  round's step 7.

:class:`TurnUltimatums` records one turn; it is immutable. Its refusal functions are the legality
tests the game's legal-action list and its error messages both read.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

MercyTerms = Literal["attacker_leaves", "defender_leaves"]


@dataclass(frozen=True, slots=True)
class Demand:
    """An ultimatum waiting for ``target``'s answer."""

    demander: str
    target: str
    shards: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TurnUltimatums:
    """The active player's ultimatums this turn: ``spared`` players handed shards over."""

    active: str
    spared: frozenset[str] = frozenset()

    def demand_refusal(
        self, target: str, shards: tuple[str, ...], held_by_target: Collection[str]
    ) -> str | None:
        """Why the active player may not demand ``shards`` from ``target`` now (None: he may)."""
        if target == self.active:
            return "DLX-SHD-04: an ultimatum is made to another player"
        if not shards:
            return "DLX-SHD-04: an ultimatum demands at least one shard"
        missing = [s for s in shards if s not in held_by_target]
        if missing:
            return f"DLX-SHD-04: {target} holds no {missing[0]} shard"
        if len(set(shards)) != len(shards):
            return "DLX-SHD-04: a shard is demanded twice"
        return None

    def demand(self, target: str, shards: tuple[str, ...], held_by_target: Collection[str]) -> Demand:
        reason = self.demand_refusal(target, shards, held_by_target)
        if reason is not None:
            raise ValueError(reason)
        return Demand(self.active, target, shards)

    def answer(self, demand: Demand, *, accept: bool) -> TurnUltimatums:
        """The target's answer: accepting spares his units from the demander for the rest of the turn."""
        if demand.demander != self.active:
            raise ValueError("DLX-SHD-04: the ultimatum was not made this turn")
        if not accept:
            return self
        return TurnUltimatums(self.active, self.spared | {demand.target})

    def attack_refusal(self, defender: str | None) -> str | None:
        """Why the active player may not attack units of ``defender`` (None: he may)."""
        if defender is not None and defender in self.spared:
            return f"DLX-SHD-04: {defender} handed over shards and may not be attacked this turn"
        return None


def mercy_terms(*, attacker_can_leave: bool, defender_can_leave: bool) -> MercyTerms | None:
    """Who leaves the contested territory when the attacker accepts a shard for mercy; None: no deal."""
    if attacker_can_leave:
        return "attacker_leaves"
    if defender_can_leave:
        return "defender_leaves"
    return None


def hand_over_refusal(combat_step: int | None) -> str | None:
    """Shards change hands outside combat, or in a combat only after a round's step 7."""
    if combat_step is None or combat_step == 7:
        return None
    return "DLX-SHD-04: during a combat, shards may be handed over only after step 7"
