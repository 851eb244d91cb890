"""Dice and hit numbers of pieces in a battle (NER-PCS-01..09, NER-DUN-05, NER-CRD-05)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.games.nerath.pieces import HIT_ON, PIECES
from warhorn.games.nerath.state import BattleState, Unit

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState


def dice_of(u: Unit, b: BattleState, attacking: bool) -> tuple[int, ...]:
    """Dice one piece rolls: sea dice at sea (NER-PCS-06/08/09), else attack or defence dice (NER-PCS-02)."""
    stats = PIECES[u.ptype]
    if b.kind == "sea":
        return stats.sea_dice
    return stats.attack_dice if attacking else stats.defence_dice


def is_first_strike(s: NerathState, u: Unit, b: BattleState) -> bool:
    """Mages (carried or not, NER-BAT-11) and pieces a card grants it to roll first (NER-PCS-03)."""
    return PIECES[u.ptype].first_strike or s.has_granted_first_strike(u)


def hit_number(s: NerathState, u: Unit, b: BattleState, attacking: bool) -> int:
    """The least die face that hits: 6, a dungeon's 7+/8+ for heroes, unless a card grants better."""
    for kingdom, need in b.hit_min:
        if kingdom == u.kingdom:
            return need  # NER-CRD-05: the card's number overrides any penalty
    need = HIT_ON
    if b.kind == "dungeon" and attacking and PIECES[u.ptype].hero:
        for g in s.d.guardians.get(b.space, ()):
            if g.dice:
                need = max(need, s.board.guardian(g.tile).hero_hit_min)  # NER-DUN-05
    return need
