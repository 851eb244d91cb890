"""When to play event cards and treasures (NER-CRD-*).

Treasures are played at the first chance: each scores its VP at once
(NER-CRD-03) and its property lasts. An event card is played when every
effect it has helps now: gold, VP, pieces and cards whenever its window
opens; battle effects only when the holder fights in the battle at hand and
the dice make them useful (a reroll needs a miss of ours or a hit of
theirs); a cancel only against an enemy's card. Only the holder's own hand
is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from warhorn.ai.heuristic import Choice
from warhorn.games.nerath.actions import PlayEvent, PlayTreasure
from warhorn.games.nerath.board import KINGDOM_IDS, CardEffect
from warhorn.games.nerath.pieces import PIECES
from warhorn.games.nerath.rules import battle_flow
from warhorn.games.nerath.rules import cards as card_rules

if TYPE_CHECKING:
    from warhorn.engine import Action
    from warhorn.games.nerath.game import NerathState

#: Effects that help whenever their window opens.
ALWAYS_GOOD = frozenset(
    {
        "gain_gold",
        "gain_vp",
        "place_pieces",
        "steal_gold",
        "draw_cards",
        "discard_cards",
        "reduce_cost",
        "extra_move",
    }
)
#: Effects that help the side of a battle the holder is on.
BATTLE_BOOSTS = frozenset({"modify_hit_number", "extra_dice", "grant_first_strike", "grant_resilience"})


def _effects(s: NerathState, a: PlayEvent | PlayTreasure) -> tuple[CardEffect, ...]:
    if isinstance(a, PlayTreasure):
        return s.board.treasure(a.card).power
    return s.board.event(a.card).effects


def _name(s: NerathState, a: PlayEvent | PlayTreasure) -> str:
    return s.board.treasure(a.card).name if isinstance(a, PlayTreasure) else s.board.event(a.card).name


def _in_battle(s: NerathState, k: int) -> str:
    """'attacker', 'defender' or '' for kingdom ``k`` in the battle being fought."""
    b = s.d.battle
    if b is None:
        return ""
    if s.allied(k, b.attacker):
        return "attacker"
    if b.kind != "dungeon" and k in battle_flow.battle_kingdoms(s):
        return "defender"
    return ""


def _effect_helps(s: NerathState, k: int, e: CardEffect) -> tuple[bool, str]:
    op = e.op
    if op in ALWAYS_GOOD:
        return True, op.replace("_", " ")
    side = _in_battle(s, k)
    b = s.d.battle
    if op in BATTLE_BOOSTS:
        return bool(side), f"{op.replace('_', ' ')} for our {side or 'side'}"
    if b is None or not side:
        return False, ""
    mine = 0 if side == "attacker" else 1
    if op == "reroll":
        own = e.param("side", "own") == "own"
        dice = b.rolled[mine if own else 1 - mine]
        useful = any((face < need) if own else (face >= need) for _, face, need in dice)
        return useful, "reroll " + ("our misses" if own else "their hits")
    if op == "negate_hits":
        hits = sum(1 for _, face, need in b.rolled[1 - mine] if face >= need)
        return hits > 0, f"cancel {min(hits, int(e.param('count', 1)))} hit(s) against us"
    if op == "heal":
        hurt = any(u.kingdom == k and (u.damage or u.inactive) for u in s.units_at(b.space))
        return hurt, "heal our wounded piece"
    if op == "force_retreat":
        return side == "defender", "drive the attacker off"
    if op == "destroy_guardian":
        return side == "attacker" and b.kind == "dungeon", "destroy a guardian"
    if op == "destroy_piece":
        return True, "destroy an enemy piece in the battle"
    return False, ""


def _cancel_helps(s: NerathState, k: int) -> bool:
    w = card_rules.window(s)
    return w is not None and w.card is not None and not s.allied(w.card[0], k)


def _token_worth(token: str) -> float:
    """What a named piece is worth in gold (``vailin:warship(soldier+mage)``, ``wounded-dragon``)."""
    name = token.rpartition(":")[2]
    name = name.partition("@")[0].removeprefix("wounded-")
    head, _, cargo = name.partition("(")
    pieces = [head, *[c for c in cargo.rstrip(")").split("+") if c]]
    return float(sum(PIECES[p].cost for p in pieces if p in PIECES))


def _target_score(s: NerathState, k: int, a: PlayEvent | PlayTreasure) -> float:
    """How much the holder gains from the choice ``a.target`` carries (higher is better).

    Pieces a card destroys, heals, protects or sets down: their worth; dice rolled again: for our
    misses the chance the new roll hits, for their hits the chance it misses; guardians: their dice;
    an enemy that pays: its treasury. Where new pieces appear, the first listed place (board order).
    """
    effects = _effects(s, a)
    parts = a.target.split(";") if len(effects) > 1 else [a.target]
    score = 0.0
    for e, part in zip(effects, parts, strict=False):
        tokens = [x for x in part.partition(":")[2 if e.op == "transfer_pieces" else 1].split(",") if x]
        if e.op == "transfer_pieces":
            score += len(tokens) * 10 + sum(_token_worth(x) for x in tokens)
        elif e.op in ("destroy_piece", "heal", "grant_resilience"):
            score += sum(_token_worth(x) for x in part.split(",") if x)
        elif e.op == "reroll":
            own = e.param("side", "own") == "own"
            for die in part.split(","):
                sides = int(die.partition(":")[0].removeprefix("d") or 6)
                hit = max(0, sides - 5) / sides
                score += hit if own else 1 - hit
        elif e.op == "destroy_guardian":
            for g in part.split(","):
                tile = g.partition("@")[0]
                if tile:
                    score += sum(s.board.guardian(tile).dice)
        elif e.op in ("steal_gold", "discard_cards") and part:
            j = KINGDOM_IDS.index(part) if part in KINGDOM_IDS else -1
            score += s.d.gold[j] if j >= 0 and e.op == "steal_gold" else len(s.d.hands[j]) if j >= 0 else 0
    return score


def _best_targets(
    s: NerathState, k: int, plays: list[PlayEvent | PlayTreasure]
) -> list[PlayEvent | PlayTreasure]:
    """One play per card: the target the holder likes best (the first listed on a tie)."""
    best: dict[tuple[bool, str], PlayEvent | PlayTreasure] = {}
    scores: dict[tuple[bool, str], float] = {}
    for a in plays:
        key = (isinstance(a, PlayTreasure), a.card)
        score = _target_score(s, k, a) if a.target else 0.0
        if key not in best or score > scores[key]:
            best[key], scores[key] = a, score
    return list(best.values())


def card_to_play(s: NerathState, k: int, legal: list[Action]) -> Choice | None:
    """The card ``k`` should play now among the legal plays (with the best choice its text leaves
    open, NER-CRD-04), or None to pass."""
    plays = _best_targets(s, k, [a for a in legal if isinstance(a, PlayEvent | PlayTreasure)])
    w = card_rules.window(s)
    if w is not None and w.name == "choose" and plays:
        return Choice(plays[0], f"{_name(s, plays[0])}: choose {plays[0].target}")
    for a in sorted(plays, key=lambda x: (not isinstance(x, PlayTreasure), x.card)):
        effects = _effects(s, a)
        if w is not None and w.name == "cancel":
            if _cancel_helps(s, k):
                return Choice(a, f"play {_name(s, a)}: cancel an enemy's card")
            continue
        if isinstance(a, PlayTreasure):
            vp = s.board.treasure(a.card).vp
            return Choice(a, f"play treasure {_name(s, a)}: +{vp} VP now, its property lasts")
        if not effects:
            continue
        verdicts = [_effect_helps(s, k, e) for e in effects if e.op != "cancel_card"]
        if verdicts and all(ok for ok, _ in verdicts):
            return Choice(a, f"play {_name(s, a)}: {'; '.join(why for _, why in verdicts)}")
    return None
