"""The seven-step combat as a sub-state of the game (DLX-CMB-01..07, DLR-CMB-01..09).

A :class:`Battle` holds both sides as :class:`~warhorn.games.dragonlords.combat.Fighter` tuples in
their owner's casualty order (plain units first, then the pieces in :data:`TAKE_ORDER`), the round
and the step. Each step asks the right player (never a neutral side or a monster, whose steps run
by themselves):

* ``tas_d``/``tas_a`` (step 2): each side's casters cast TAS spells and play step-2 cards,
  defender first;
* ``ranged_d`` (step 3), ``ranged_a`` (step 4): ranged spells, shards, the Ring of Fire, Dragon
  Fire; a monster's own abilities; the defender's Teleport card;
* ``cards``: the spell-card exchange, defender first (:class:`CardExchange`);
* then both sides roll (steps 5 and 6, automatic);
* ``lose_d``/``lose_a`` (step 7): which pieces the hits take, when that is a choice
  (DLR-HID-03);
* ``heal_d``/``heal_a``: Heal, potions, the Holy Grail, the Heal scroll, Fireball thawing;
* ``raise_d``/``raise_a``: Necromantic;
* ``mercy``/``mercy_answer``: a shard offered for mercy (advanced rules, DLX-SHD-04);
* ``retreat``: the attacker fights on or retreats (DLR-CMB-07).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import combinations, permutations
from typing import TYPE_CHECKING, Any

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Decision
from warhorn.engine.events import Event, roll_event
from warhorn.games.dragonlords import amazons, effects
from warhorn.games.dragonlords.actions import (
    Answer,
    Cast,
    Casualties,
    Done,
    FightOn,
    OfferMercy,
    Play,
    Retreat,
    Teleport,
)
from warhorn.games.dragonlords.card_exchange import CardExchange
from warhorn.games.dragonlords.combat import (
    Fighter,
    bloodlust_surplus,
    roll_side,
    side_modifier,
    take_hits,
    target_defence,
)
from warhorn.games.dragonlords.state import MONSTER, NEUTRAL, TAKE_ORDER, Force, Piece

if TYPE_CHECKING:
    from warhorn.games.dragonlords.state import DragonLordsState

RANGED_SPELLS = ("fireball", "lightning", "poison", "petrifying_gaze", "death", "rapture")
TAS_SPELLS = ("hope", "panic", "command", "bloodlust", "lure")


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a battle."""

    player: int
    people: str
    fighters: tuple[Fighter, ...]
    pieces: tuple[Piece, ...] = ()
    start_units: int = 0
    mods: tuple[int, ...] = ()
    bloodlust: bool = False
    warded: bool = False  # Hope in force: Death and Rapture have no effect (DLR-CMB-04)
    commanded: bool = False
    shield: bool = False  # Invincible Shield this round (DLX-SPC-SHI)
    cast: tuple[str, ...] = ()  # "<by>/<spell>" this round
    shards_used: int = 0
    hits: int = 0
    heals: int = 0
    thaws: int = 0
    removed: tuple[str, ...] = ()  # tokens ("" for a plain unit) removed this round
    faces: tuple[int, ...] = ()
    ring_used: bool = False
    grail_used: bool = False
    next_unit: int = 0
    escaped: str = ""  # the territory a Teleport card took this side to (DLX-SPC-TEL)

    def piece(self, pid: int) -> Piece | None:
        for p in self.pieces:
            if p.id == pid:
                return p
        return None

    @property
    def alive_pieces(self) -> tuple[Piece, ...]:
        ids = {f.id for f in self.fighters}
        return tuple(p for p in self.pieces if f"p{p.id}" in ids)

    def has_sorcerer(self) -> bool:
        return any(p.token == "sorcerer" for p in self.alive_pieces)

    def shard_list(self) -> list[str]:
        return [s for p in self.alive_pieces for s in p.shards]


@dataclass(frozen=True, slots=True)
class Battle:
    """A combat in progress."""

    kind: str  # "land", "naval", "quest"
    space: str
    att: Side
    dfn: Side
    origins: tuple[str, ...]
    round: int = 1
    step: str = "order_d"
    exchange: CardExchange | None = None
    sneak: bool = False
    kingdom: bool = False
    monster: str = ""
    played: tuple[str, ...] = ()
    spoils_items: tuple[str, ...] = ()
    spoils_shards: tuple[str, ...] = ()
    mercy: str = ""
    mercy_round: int = 0
    ships: tuple[int, int] = (-1, -1)  # naval: attacker's and defender's ship
    kings_lost: tuple[int, ...] = ()
    # DLX-AMZ-04/06: prisoners the defending Amazons hold, of player ``prisoners_of``, taken in the
    # Amazon player's turn ``captured_turn``; ``held`` of them stand aside (their owner attacks)
    held: int = 0
    prisoners_of: int = NEUTRAL
    captured_turn: int = 0

    def side(self, which: str) -> Side:
        return self.att if which == "a" else self.dfn


def battle_json(b: Battle) -> dict[str, Any]:
    """The battle as every player sees it (its pieces are revealed, DLR-HID-02)."""

    def side(s: Side) -> dict[str, Any]:
        return {
            "player": s.player,
            "people": s.people,
            "fighters": [
                {
                    "id": f.id,
                    "attacks": list(f.attacks),
                    "defence": f.defence,
                    "wounds": f.wounds,
                    "level": f.hero_level,
                    "condition": f.condition,
                }
                for f in s.fighters
            ],
            "pieces": [
                {
                    "id": p.id,
                    "token": p.token,
                    "level": p.level,
                    "items": list(p.items),
                    "shards": len(p.shards),
                }
                for p in s.pieces
            ],
            "modifier": sum(s.mods),
            "hits": s.hits,
            "cast": list(s.cast),
            "shield": s.shield,
        }

    return {
        "kind": b.kind,
        "space": b.space,
        "round": b.round,
        "step": b.step,
        "attacker": side(b.att),
        "defender": side(b.dfn),
        "origins": list(b.origins),
        "monster": b.monster,
        "played": list(b.played),
        "exchange": None
        if b.exchange is None
        else {"to_play": b.exchange.to_play, "finished": b.exchange.finished},
        "mercy_offered": bool(b.mercy),
    }


# --- building sides -----------------------------------------------------------------------


def piece_fighter(state: DragonLordsState, people: str, p: Piece) -> Fighter:
    if p.token == "dragonlord":
        return Fighter(
            f"p{p.id}", attacks=(state.content.game.dragonlord.attack,), traits=frozenset({"dragon"})
        )
    return Fighter(f"p{p.id}", attacks=(state.content.peoples[people].attack,), hero_level=p.level)


def side_of(state: DragonLordsState, force: Force, *, with_prisoners: bool = False) -> Side:
    """A side from a force: plain units first, then the pieces in the owner's default order."""
    attack = state.content.peoples[force.people].attack
    plain = [Fighter(f"u{i}", attacks=(attack,)) for i in range(force.plain)]
    if with_prisoners and force.prisoners:  # DLX-AMZ-04; the guards' owner gives prisoners up first
        plain = [*amazons.prisoner_fighters([f"x{i}" for i in range(force.prisoners)]), *plain]
    pieces = tuple(sorted(force.pieces, key=lambda p: (TAKE_ORDER.get(p.token, 0), p.id)))
    pieces = tuple(replace(p, revealed=True) for p in pieces)  # DLR-HID-02
    fighters = (*plain, *(piece_fighter(state, force.people, p) for p in pieces))
    return Side(force.owner, force.people, fighters, pieces, len(fighters), next_unit=len(plain))


def monster_side(state: DragonLordsState, monster: str, wounds: int) -> Side:
    m = state.content.monsters[monster]
    fighter = Fighter(
        f"m:{monster}", attacks=m.attacks, defence=m.defence, wounds=wounds, traits=frozenset(m.abilities)
    )
    return Side(MONSTER, "", (fighter,), (), 1)


def force_of(side: Side, *, moved: bool) -> tuple[Force | None, int]:
    """The surviving units of a side as a force (and its prisoners count)."""
    ids = {f.id for f in side.fighters}
    plain = sum(1 for f in side.fighters if f.id.startswith("u"))
    prisoners = sum(1 for f in side.fighters if f.id.startswith("x"))
    pieces = tuple(replace(p, moved=p.moved or moved) for p in side.pieces if f"p{p.id}" in ids)
    if plain + len(pieces) == 0 or (side.player < 0 and side.player != NEUTRAL):
        return None, prisoners
    return Force(side.player, side.people, plain, plain if moved else 0, 0, pieces), prisoners


# --- the decision ---------------------------------------------------------------------------


def who(b: Battle, which: str) -> int:
    return b.att.player if which == "a" else b.dfn.player


def battle_decision(state: DragonLordsState) -> Decision | None:
    b = state.battle
    assert b is not None
    step = b.step
    if step == "cards":
        assert b.exchange is not None
        player = b.att.player if b.exchange.to_play == "attacker" else b.dfn.player
        return Decision(player, "cards", "play a spell card or pass (defender first)", "DLX-CMB-05")
    if step == "mercy_answer":
        return Decision(b.att.player, "mercy", "accept the shard offered for mercy, or refuse", "DLX-SHD-04")
    if step == "retreat":
        return Decision(b.att.player, "retreat", "fight another round or retreat", "DLR-CMB-07")
    if step == "mercy":
        return Decision(b.dfn.player, "mercy", "offer a shard for mercy, or not", "DLX-SHD-04")
    if step == "escape":
        return Decision(
            b.dfn.player,
            "escape",
            "the Teleport card: choose who escapes with your sorcerer (up to 10) and where to",
            "DLX-SPC-TEL",
        )
    which = step[-1]
    kind, rule = {
        "order": ("order", "DLR-HID-03"),
        "tas": ("tas", "DLR-CMB-04"),
        "ranged": ("ranged", "DLX-CMB-04"),
        "lose": ("casualties", "DLR-HID-03"),
        "heal": ("heal", "DLR-CMB-04"),
        "raise": ("raise", "DLX-SPL-NEC"),
    }[step[:-2]]
    prompts = {
        "order": "order your token-bearing units: spells and cards take the first first (done: keep)",
        "tas": "step 2: cast TAS spells or play step-2 cards, then done",
        "ranged": "ranged step: cast ranged spells, use shards or items, then done",
        "casualties": "step 7: choose which token-bearing units the hits take",
        "heal": "step 7: heal units out of action or hit, then done",
        "raise": "step 7: raise a fallen enemy with Necromantic, or done",
    }
    return Decision(who(b, which), kind, prompts[kind], rule)


# --- what a side may do -----------------------------------------------------------------------


def _silenced(b: Battle) -> bool:
    """DLX-MON-HEL: a Hell Hound silences the party's magic."""
    return any("silences_magic" in f.traits for f in b.dfn.fighters)


def _caster_spells(state: DragonLordsState, side: Side, p: Piece) -> tuple[str, ...]:
    if p.token == "king":
        return state.content.peoples[side.people].king_spells
    if p.token == "sorcerer":
        return p.spells
    return ()


def _may_cast(state: DragonLordsState, side: Side, p: Piece) -> bool:
    """DLX-OPT-02: with one spell per sorcerer per round, a caster casts at most once a round."""
    if not state.options.get("one_spell_per_round"):
        return True
    return not any(c.startswith(f"p{p.id}/") for c in side.cast)


def _usable_shards(b: Battle, which: str) -> int:
    own, other = b.side(which), b.side("d" if which == "a" else "a")
    if not own.has_sorcerer():  # DLX-SET-06: only a sorcerer can use a shard's power
        return 0
    return effects.usable_shards(len(own.shard_list()), len(other.shard_list())) - own.shards_used


def _hand(state: DragonLordsState, side: Side) -> tuple[str, ...]:
    if side.player < 0:
        return ()
    return state.players[side.player].hand


def spell_options(state: DragonLordsState, b: Battle, which: str, step: str) -> list[Action]:
    side = b.side(which)
    enemy = b.side("d" if which == "a" else "a")
    out: list[Action] = []
    if side.player < 0 or (which == "a" and _silenced(b)):
        return out
    wanted = TAS_SPELLS if step == "tas" else RANGED_SPELLS
    for p in side.alive_pieces:
        if not p.caster or not _may_cast(state, side, p):
            continue
        for spell in _caster_spells(state, side, p):
            if spell in wanted and f"p{p.id}/{spell}" not in side.cast and _spell_useful(b, which, spell):
                out.append(Cast(spell, f"p{p.id}"))
    if _usable_shards(b, which) > 0:
        for colour in sorted(set(side.shard_list())):
            spell = state.content.shards[colour].spell
            if (
                spell in wanted
                and f"shard:{colour}/{spell}" not in side.cast
                and _spell_useful(b, which, spell)
            ):
                out.append(Cast(spell, f"shard:{colour}"))
    if step == "ranged" and enemy.fighters:
        for p in side.alive_pieces:
            if p.token == "dragonlord" and f"p{p.id}/dragon_fire" not in side.cast:
                at_sea = b.kind == "naval"
                if not (at_sea and state.options.get("weak_dragonlords")) and b.kind != "quest":
                    out.append(Cast("dragon_fire", f"p{p.id}"))
            if "ring_of_fire" in p.items and not side.ring_used:
                out.append(Cast("fireball", f"item:{p.id}"))
    if side.has_sorcerer():
        for card in sorted(set(_hand(state, side))):
            spec = state.content.cards[card]
            if step == "tas" and spec.when == "tas":
                out.append(Play(card))
            escape = step == "ranged" and card == "teleport" and which == "d" and b.kind == "land"
            if escape and any(t != b.space for t in state.territories_of(side.player)):
                out.append(Play(card))  # DLX-SPC-TEL: escape when attacked, to friendly land
    return out


def _spell_useful(b: Battle, which: str, spell: str) -> bool:
    enemy = b.side("d" if which == "a" else "a")
    if spell == "rapture":
        refusal = effects.rapture_refusal(
            enemy_king_present=any(p.token == "king" for p in enemy.alive_pieces),
            enemy_warded=enemy.warded or enemy.commanded,
        )
        return refusal is None and enemy.player >= 0 and len(enemy.fighters) > 0
    if spell in RANGED_SPELLS:
        return len(enemy.fighters) > 0
    return True


def casualty_choices(b: Battle, which: str) -> list[tuple[int, ...]]:
    """The sets of pieces the hits may take (empty when the owner has no choice)."""
    side = b.side(which)
    if side.player < 0:
        return []
    standing = [f for f in side.fighters if not f.out_of_action]
    plain = sum(1 for f in standing if not f.id.startswith("p"))
    pieces = [int(f.id[1:]) for f in standing if f.id.startswith("p")]
    lose = side.hits - plain
    if lose <= 0 or lose >= len(pieces):
        return []
    return [tuple(sorted(c)) for c in combinations(sorted(pieces), lose)]


def heal_options(state: DragonLordsState, b: Battle, which: str) -> list[Action]:
    side = b.side(which)
    if side.player < 0 or (which == "a" and _silenced(b)):
        return []
    out_of_action = [f for f in side.fighters if f.condition is not None and f.condition != "frozen"]
    frozen = [f for f in side.fighters if f.condition == "frozen"]
    needing = len(out_of_action) + min(side.hits, len([f for f in side.fighters if not f.out_of_action]))
    out: list[Action] = []
    if needing > side.heals:
        for p in side.alive_pieces:
            heals = p.caster and "heal" in _caster_spells(state, side, p)
            if heals and f"p{p.id}/heal" not in side.cast and _may_cast(state, side, p):
                out.append(Cast("heal", f"p{p.id}"))
            if "potion" in p.items:
                out.append(Cast("heal", f"item:{p.id}"))
            if "holy_grail" in p.items and not side.grail_used:
                out.append(Cast("heal", f"grail:{p.id}"))
        if side.has_sorcerer() and "scroll_heal" in _hand(state, side):
            out.append(Play("scroll_heal"))
        if _usable_shards(b, which) > 0:
            for colour in sorted(set(side.shard_list())):
                if state.content.shards[colour].spell == "heal" and f"shard:{colour}/heal" not in side.cast:
                    out.append(Cast("heal", f"shard:{colour}"))
    if len(frozen) > side.thaws:
        for p in side.alive_pieces:
            if p.caster and "fireball" in _caster_spells(state, side, p) and f"p{p.id}/thaw" not in side.cast:
                out.append(Cast("thaw", f"p{p.id}"))
    return out


def raise_options(state: DragonLordsState, b: Battle, which: str) -> list[Action]:
    side = b.side(which)
    enemy = b.side("d" if which == "a" else "a")
    if side.player < 0 or not enemy.removed or enemy.player == MONSTER:
        return []
    if any("holy_grail" in p.items for p in enemy.alive_pieces):
        return []  # DLX-SPL-NEC: the Holy Grail cancels it
    out: list[Action] = []
    for p in side.alive_pieces:
        if (
            p.caster
            and "necromantic" in _caster_spells(state, side, p)
            and f"p{p.id}/necromantic" not in side.cast
        ):
            out.append(Cast("necromantic", f"p{p.id}"))
    return out


def retreat_targets(state: DragonLordsState, b: Battle) -> list[str]:
    out = []
    for origin in b.origins:
        if origin.startswith("ship:"):
            ship = state.ships.get(int(origin[5:]))
            if ship is not None and (ship.owner in (None, b.att.player)):
                out.append(origin)
        elif (
            origin.startswith("track:")
            or state.world.space(origin).kind == "sea"
            or state.owner(origin) == b.att.player
        ):
            out.append(origin)
    return out


def battle_legal(state: DragonLordsState) -> list[Action]:
    b = state.battle
    assert b is not None
    step = b.step
    if step == "cards":
        assert b.exchange is not None
        which = "a" if b.exchange.to_play == "attacker" else "d"
        side = b.side(which)
        out: list[Action] = [Done()]
        for card in sorted(set(_hand(state, side))):
            spec = state.content.cards[card]
            if card == "teleport" or (spec.kind == "scroll" and spec.when != "ranged"):
                continue
            if b.exchange.refusal(b.exchange.to_play, spec) is None:
                out.append(Play(card))
        return out
    if step == "retreat":
        # DLR-CMB-07: no round limit; the defender's TAS never falls below 1, so a combat ends
        return [FightOn(), *(Retreat(t) for t in retreat_targets(state, b))]
    if step == "mercy":
        return [Done(), *(OfferMercy(s) for s in sorted(set(b.dfn.shard_list())))]
    if step == "mercy_answer":
        return [Answer(True), Answer(False)]
    if step == "escape":
        return escape_options(state, b)
    which = step[-1]
    base = step[:-2]
    if base == "order":
        return [Done(), *(Casualties(order) for order in piece_orders(b.side(which)))]
    if base in ("tas", "ranged"):
        return [Done(), *spell_options(state, b, which, base)]
    if base == "lose":
        return [Casualties(c) for c in casualty_choices(b, which)]
    if base == "heal":
        return [Done(), *heal_options(state, b, which)]
    if base == "raise":
        return [Done(), *raise_options(state, b, which)]
    raise AssertionError(step)


def piece_orders(side: Side) -> list[tuple[int, ...]]:
    """DLR-HID-03: the orders in which a side's pieces may stand for removals at once (spells, cards,
    Dragon Fire take plain units first, then pieces in this order): every order of up to three
    pieces, else each piece put first. The order they stand in now is the answer ``done``."""
    ids = [p.id for p in side.alive_pieces]
    now = tuple(int(f.id[1:]) for f in side.fighters if f.id.startswith("p"))
    if len(ids) <= 3:
        return [o for o in permutations(now) if o != now]
    return [(pid,) for pid in now[1:]]


def escape_options(state: DragonLordsState, b: Battle) -> list[Action]:
    """DLX-SPC-TEL's escape: a sorcerer of the defending side and up to 10 of its units (any count,
    any of its pieces) teleport to any territory of the defender's."""
    from warhorn.games.dragonlords.rules import groups

    dfn = b.dfn
    force, _ = force_of(
        replace(dfn, fighters=tuple(f for f in dfn.fighters if not f.id.startswith("x"))), moved=False
    )
    if force is None:
        return []
    limit = state.content.cards["teleport"].units or 10
    dests = [t for t in state.territories_of(dfn.player) if t != b.space]
    out: list[Action] = []
    for sorc in dfn.alive_pieces:
        if sorc.token != "sorcerer":
            continue
        most: dict[tuple[int, ...], int] = {}
        for n, pcs, _ in groups(force, need_unmoved=False, keep=0, cap=limit + 1):
            if sorc.id in pcs:
                most[pcs] = max(most.get(pcs, 0), n)
        for pcs, hi in sorted(most.items()):
            out += [Teleport(sorc.id, t, n, pcs) for t in dests for n in range(hi + 1)]
    return out


def needs_decision(state: DragonLordsState, b: Battle) -> bool:
    step = b.step
    if step in ("cards", "retreat", "mercy_answer", "escape"):
        return True
    if step == "mercy":
        return (
            bool(state.options.get("advanced"))
            and b.dfn.player >= 0
            and bool(b.dfn.shard_list())
            and b.kind == "land"
            and b.mercy_round != b.round
        )
    which = step[-1]
    side = b.side(which)
    if side.player < 0:
        return False
    if step[:-2] == "order":  # the pieces are shown in a combat (DLR-HID-02): public facts only
        return b.round == 1 and len(side.alive_pieces) >= 2
    # Whether a side is asked depends only on what every player sees (its shown pieces, items and
    # shard count), never on its hand or a sorcerer's spells: asking only when it holds something
    # playable would tell the others what it holds.
    base = step[:-2]
    casters = any(p.caster for p in side.alive_pieces)
    silenced = which == "a" and _silenced(b)
    if base in ("tas", "ranged"):
        if silenced:
            return False
        extra = base == "ranged" and any(
            p.token == "dragonlord" or "ring_of_fire" in p.items for p in side.alive_pieces
        )
        return casters or extra or _usable_shards(b, which) > 0
    if base == "lose":
        return bool(casualty_choices(b, which))
    if base == "heal":
        if silenced:
            return False
        hurt = side.hits > 0 or any(f.condition is not None for f in side.fighters)
        helpers = casters or any("potion" in p.items or "holy_grail" in p.items for p in side.alive_pieces)
        return hurt and (helpers or _usable_shards(b, which) > 0)
    if base == "raise":
        enemy = b.side(_other(which))
        grail = any("holy_grail" in p.items for p in enemy.alive_pieces)
        return (
            side.people == "necromancers"
            and casters
            and bool(enemy.removed)
            and not grail
            and enemy.player != MONSTER
        )
    raise AssertionError(step)


# --- applying --------------------------------------------------------------------------------


def _set_side(b: Battle, which: str, side: Side) -> Battle:
    return replace(b, att=side) if which == "a" else replace(b, dfn=side)


def _note_removed(
    state: DragonLordsState, b: Battle, which: str, removed: Sequence[str]
) -> tuple[Battle, list[Event]]:
    """Units removed from a side: their tokens, items and shards are noted (spoils, lost Kings)."""
    side = b.side(which)
    events: list[Event] = []
    tokens = list(side.removed)
    spoils_items = list(b.spoils_items)
    spoils_shards = list(b.spoils_shards)
    kings = list(b.kings_lost)
    for fid in removed:
        if fid.startswith("p"):
            p = side.piece(int(fid[1:]))
            assert p is not None
            tokens.append(p.token or "")
            spoils_items += [i for i in p.items if i not in ("torch", "pickaxe")]
            spoils_shards += list(p.shards)
            if p.token == "king" and side.player >= 0:
                kings.append(side.player)
                events.append(
                    Event(
                        "king_slain",
                        {"player": side.player, "space": b.space},
                        f"player {side.player}'s King falls in {state.world.space(b.space).name}",
                    )
                )
        elif fid.startswith("u") or fid.startswith("x"):
            tokens.append("")
    side = replace(side, removed=tuple(tokens))
    b = _set_side(b, which, side)
    return replace(
        b, spoils_items=tuple(spoils_items), spoils_shards=tuple(spoils_shards), kings_lost=tuple(kings)
    ), events


def _strike(
    state: DragonLordsState, b: Battle, which_target: str, struck: effects.Struck
) -> tuple[Battle, list[Event]]:
    target = b.side(which_target)
    b = _set_side(b, which_target, replace(target, fighters=struck.side))
    return _note_removed(state, b, which_target, struck.removed)


def _other(which: str) -> str:
    return "d" if which == "a" else "a"


def resolve_spell(state: DragonLordsState, b: Battle, which: str, spell: str) -> tuple[Battle, list[Event]]:
    """A spell (cast, from a shard, a scroll or an item) by side ``which`` takes effect."""
    side, enemy = b.side(which), b.side(_other(which))
    rng = state.rng
    events: list[Event] = []
    if spell in ("hope", "command", "bloodlust"):
        side = replace(
            side,
            mods=(*side.mods, 1),
            warded=side.warded or spell == "hope",
            commanded=side.commanded or spell == "command",
            bloodlust=side.bloodlust or spell == "bloodlust",
        )
        return _set_side(b, which, side), events
    if spell == "wrath":
        return _set_side(b, which, replace(side, mods=(*side.mods, 2))), events
    if spell == "panic":
        return _set_side(b, _other(which), replace(enemy, mods=(*enemy.mods, -1))), events
    if spell == "lure":
        return _set_side(
            b, _other(which), replace(enemy, mods=(*enemy.mods, effects.lure_modifier(enemy.people)))
        ), events
    if spell == "fireball":
        return _strike(state, b, _other(which), effects.fire(enemy.fighters))
    if spell == "lightning":
        struck = effects.lightning(rng, enemy.fighters)
        events.append(
            roll_event(f"player {side.player}", [(6, f) for f in struck.faces], purpose="Lightning")
        )
        b, more = _strike(state, b, _other(which), struck)
        return b, events + more
    if spell in ("poison", "petrifying_gaze", "cone_of_cold"):
        condition = {"poison": "poisoned", "petrifying_gaze": "petrified", "cone_of_cold": "frozen"}[spell]
        struck = effects.put_out_of_action(enemy.fighters, condition)  # type: ignore[arg-type]
        return _set_side(b, _other(which), replace(enemy, fighters=struck.side)), events
    if spell == "death":
        warded = enemy.warded or any("ring_of_hope" in p.items for p in enemy.alive_pieces)
        return _strike(state, b, _other(which), effects.death(enemy.fighters, warded=warded))
    if spell == "rapture":
        result = effects.rapture(rng, enemy.fighters)
        events.append(roll_event(f"player {side.player}", [(6, result.face)], purpose="Rapture"))
        b, more = _note_removed(state, b, _other(which), [result.taken])
        enemy = b.side(_other(which))
        b = _set_side(b, _other(which), replace(enemy, fighters=result.side))
        b, more2 = _note_removed(state, b, _other(which), result.removed)
        b = _add_plain(state, b, which, 1)
        return b, events + more + more2
    if spell == "dragon_fire":
        struck = effects.dragon_fire(rng, enemy.fighters, state.content.game.dragonlord)
        events.append(
            roll_event(f"player {side.player}", [(6, f) for f in struck.faces], purpose="Dragon Fire")
        )
        b, more = _strike(state, b, _other(which), struck)
        return b, events + more
    raise AssertionError(spell)


def _add_plain(state: DragonLordsState, b: Battle, which: str, count: int) -> Battle:
    side = b.side(which)
    attack = state.content.peoples[side.people].attack if side.people else 3
    new = tuple(Fighter(f"u{side.next_unit + i}", attacks=(attack,)) for i in range(count))
    plain = [f for f in side.fighters if not f.id.startswith("p")]
    rest = [f for f in side.fighters if f.id.startswith("p")]
    side = replace(side, fighters=(*plain, *new, *rest), next_unit=side.next_unit + count)
    return _set_side(b, which, side)


def resolve_card(
    state: DragonLordsState, b: Battle, card: str, target: str, caster_which: str
) -> tuple[Battle, list[Event]]:
    """A card of the exchange takes effect on ``target`` ("attacker"/"defender")."""
    spec = state.content.cards[card]
    which_t = "a" if target == "attacker" else "d"
    victims = b.side(which_t)
    rng = state.rng
    events: list[Event] = []
    at_sea = b.kind == "naval"
    if spec.kind == "scroll":
        assert spec.spell is not None
        # a scroll's "resolve" names the caster's side: its spell strikes the other side
        return resolve_spell(state, b, which_t, spec.spell)
    if card == "invincible_shield":
        return _set_side(b, which_t, replace(victims, shield=True)), events
    if card == "storm":
        struck = effects.storm(rng, victims.fighters, at_sea=at_sea)
    elif card == "infernal_spell":
        struck = effects.infernal_spell(rng, victims.fighters)
    elif card == "berserk":
        cancelled = any(
            p.token == "king" or (p.token == "sorcerer" and "heal" in p.spells) for p in victims.alive_pieces
        )
        struck = effects.berserk(rng, victims.fighters, cancelled=cancelled)
    elif card.startswith("summon_"):
        struck = effects.summon_elemental(rng, victims.fighters)
    elif card == "change_allegiance":
        face, taken = effects.change_allegiance(
            rng, [f for f in victims.fighters if not f.id.startswith("m")]
        )
        events.append(
            roll_event(f"player {b.side(caster_which).player}", [(6, face)], purpose="Change Allegiance")
        )
        kept = tuple(f for f in victims.fighters if f.id not in taken)
        b, more = _strike(state, b, which_t, effects.Struck(kept, taken))
        b = _add_plain(state, b, _other(which_t), len(taken))
        return b, events + more
    elif card == "death_seeker":
        choices = [f for f in victims.fighters]
        best = None
        for f in reversed(choices):
            token = None
            if f.id.startswith("p"):
                pc = victims.piece(int(f.id[1:]))
                token = pc.token if pc else None
            if token != "king":
                best = f
                break
        if best is None:
            return b, events
        kept = tuple(f for f in victims.fighters if f.id != best.id)
        return _strike(state, b, which_t, effects.Struck(kept, (best.id,)))
    else:
        return b, events
    if struck.faces:
        events.append(roll_event(f"card {spec.name}", [(6, f) for f in struck.faces], purpose=spec.name))
    b, more = _strike(state, b, which_t, struck)
    return b, events + more


def apply_battle(state: DragonLordsState, action: Action) -> list[Event]:
    b = state.battle
    assert b is not None
    events: list[Event] = []
    step = b.step
    if step == "cards":
        assert b.exchange is not None
        side_name = b.exchange.to_play
        which = "a" if side_name == "attacker" else "d"
        if isinstance(action, Done):
            exchange, ex_events = b.exchange.pass_turn(side_name)
            events.append(Event("pass", {"player": who(b, which)}, f"player {who(b, which)} passes"))
        else:
            assert isinstance(action, Play) and b.exchange is not None
            _discard_from_hand(state, b.side(which).player, action.card)
            exchange, ex_events = b.exchange.play(side_name, state.content.cards[action.card])
            b = replace(b, played=(*b.played, action.card))
            events.append(
                Event(
                    "card",
                    {"player": who(b, which), "card": action.card},
                    f"player {who(b, which)} plays {state.content.cards[action.card].name}",
                )
            )
        b = replace(b, exchange=exchange)
        for ev in ex_events:
            if ev.kind == "resolve":
                caster = "a" if ev.target == "defender" else "d"
                b, more = resolve_card(state, b, ev.card, ev.target, caster)
                events += more
            else:
                events.append(
                    Event(
                        "card_" + ev.kind,
                        {"card": ev.card},
                        f"{state.content.cards[ev.card].name} is {ev.kind}",
                    )
                )
        assert b.exchange is not None
        for name, w in (("attacker", "a"), ("defender", "d")):
            if b.exchange.has_sorcerer(name) and not b.side(w).has_sorcerer():  # type: ignore[arg-type]
                b = replace(b, exchange=b.exchange.without_sorcerer(name))  # type: ignore[arg-type]
        state.battle = b
        if b.exchange is not None and b.exchange.finished:
            state.battle = replace(b, step="dice")
        return events + advance(state)
    if step == "retreat":
        if isinstance(action, FightOn):
            state.battle = _new_round(b)
            events.append(Event("round", {"round": b.round + 1}, f"combat round {b.round + 1}"))
            return events + advance(state)
        assert isinstance(action, Retreat)
        from warhorn.games.dragonlords.rules import end_battle

        return events + end_battle(state, retreat_to=action.to)
    if step == "mercy":
        if isinstance(action, Done):
            state.battle = replace(b, step="retreat", mercy_round=b.round)
            return events + advance(state)
        assert isinstance(action, OfferMercy)
        state.battle = replace(b, step="mercy_answer", mercy=action.shard, mercy_round=b.round)
        events.append(
            Event("mercy", {"player": b.dfn.player}, f"player {b.dfn.player} offers a shard for mercy")
        )
        return events
    if step == "escape":
        assert isinstance(action, Teleport)
        from warhorn.games.dragonlords.rules import defender_escapes

        state.battle = replace(b, step="ranged_d")
        return events + defender_escapes(state, action)
    if step == "mercy_answer":
        assert isinstance(action, Answer)
        if action.accept:
            from warhorn.games.dragonlords.rules import accept_mercy

            return events + accept_mercy(state)
        state.battle = replace(b, step="retreat", mercy="")
        events.append(Event("mercy_refused", {}, "the offer of mercy is refused"))
        return events + advance(state)
    which = step[-1]
    base = step[:-2]
    side = b.side(which)
    if isinstance(action, Done):
        state.battle = replace(b, step=_next_step(step))
        return events + advance(state)
    if base == "order":
        assert isinstance(action, Casualties)
        state.battle = replace(_set_side(b, which, pieces_first(side, action.pieces)), step=_next_step(step))
        return events + advance(state)
    if base == "lose":
        assert isinstance(action, Casualties)
        state.battle = _set_side(b, which, _order_losses(side, action.pieces))
        state.battle = replace(state.battle, step=_next_step(step))
        return events + advance(state)
    if isinstance(action, Play):
        _discard_from_hand(state, side.player, action.card)
        b = replace(b, played=(*b.played, action.card))
        name = state.content.cards[action.card].name
        events.append(
            Event("card", {"player": side.player, "card": action.card}, f"player {side.player} plays {name}")
        )
        if action.card == "teleport":  # DLX-SPC-TEL: who escapes, and where, is asked next
            state.battle = replace(b, step="escape")
            return events
        if action.card == "scroll_heal":
            state.battle = _set_side(b, which, replace(side, heals=side.heals + 1))
            return events
        spell = state.content.cards[action.card].spell or action.card
        state.battle, more = resolve_spell(state, b, which, spell)
        return events + more + _check_sweep(state)
    assert isinstance(action, Cast)
    side = replace(side, cast=(*side.cast, f"{action.by}/{action.spell}"))
    if action.by.startswith("shard:"):
        side = replace(side, shards_used=side.shards_used + 1)
    events.append(
        Event(
            "cast",
            {"player": side.player, "spell": action.spell, "by": action.by.split(":")[0]},
            f"player {side.player} casts {action.spell}",
        )
    )
    if base == "heal":
        if action.spell == "thaw":
            side = replace(side, thaws=side.thaws + 1)
        else:
            side = replace(side, heals=side.heals + 1)
            if action.by.startswith("item:"):
                side = _use_item(side, int(action.by[5:]), "potion")
            if action.by.startswith("grail:"):
                side = replace(side, grail_used=True)
        state.battle = _set_side(b, which, side)
        return events
    if base == "raise":
        state.battle = _set_side(b, which, side)
        return events + _necromantic(state, which)
    if action.by.startswith("item:"):
        side = replace(side, ring_used=True)
    b = _set_side(b, which, side)
    state.battle, more = resolve_spell(state, b, which, action.spell)
    return events + more + _check_sweep(state)


def _use_item(side: Side, pid: int, item: str) -> Side:
    pieces = []
    for p in side.pieces:
        if p.id == pid and item in p.items:
            items = list(p.items)
            items.remove(item)
            p = replace(p, items=tuple(items))
        pieces.append(p)
    return replace(side, pieces=tuple(pieces))


def _discard_from_hand(state: DragonLordsState, player: int, card: str) -> None:
    seat = state.players[player]
    hand = list(seat.hand)
    hand.remove(card)
    seat.hand = tuple(hand)


def pieces_first(side: Side, order: Sequence[int]) -> Side:
    """The listed pieces stand first among the side's pieces, in that order (plain units stay first)."""
    plain = [f for f in side.fighters if not f.id.startswith("p")]
    by_id = {f.id: f for f in side.fighters}
    first = [by_id[f"p{i}"] for i in order if f"p{i}" in by_id]
    rest = [f for f in side.fighters if f.id.startswith("p") and f not in first]
    return replace(side, fighters=(*plain, *first, *rest))


def _order_losses(side: Side, lost: Sequence[int]) -> Side:
    chosen = {f"p{i}" for i in lost}
    plain = [f for f in side.fighters if not f.id.startswith("p")]
    first = [f for f in side.fighters if f.id in chosen]
    rest = [f for f in side.fighters if f.id.startswith("p") and f.id not in chosen]
    return replace(side, fighters=(*plain, *first, *rest))


def _necromantic(state: DragonLordsState, which: str) -> list[Event]:
    b = state.battle
    assert b is not None
    enemy = b.side(_other(which))
    removed = list(enemy.removed)
    token = next((t for t in removed if t in ("sorcerer", "king")), removed[0])
    removed.remove(token)
    b = _set_side(b, _other(which), replace(enemy, removed=tuple(removed)))
    raised = effects.necromantic(token or None, holy_grail=False)
    assert raised is not None
    side = b.side(which)
    if raised.token == "sorcerer":
        pid = state.next_piece
        state.next_piece += 1
        piece = Piece(pid, "sorcerer", spells=raised.spells, revealed=True)
        side = replace(
            side,
            pieces=(*side.pieces, piece),
            fighters=(*side.fighters, piece_fighter(state, side.people, piece)),
        )
        state.battle = _set_side(b, which, side)
    else:
        state.battle = _add_plain(state, b, which, 1)
    return [
        Event(
            "raised",
            {"player": side.player, "token": raised.token or ""},
            f"player {side.player} raises a fallen {'sorcerer' if raised.token else 'unit'}",
        )
    ]


def _next_step(step: str) -> str:
    order = [
        "order_d",
        "order_a",
        "tas_d",
        "tas_a",
        "ranged_d",
        "ranged_a",
        "cards",
        "dice",
        "lose_d",
        "lose_a",
        "heal_d",
        "heal_a",
        "apply",
        "raise_d",
        "raise_a",
        "check",
        "mercy",
        "retreat",
    ]
    return order[order.index(step) + 1]


def _new_round(b: Battle) -> Battle:
    def fresh(s: Side) -> Side:
        return replace(
            s,
            mods=(),
            bloodlust=False,
            warded=False,
            commanded=False,
            shield=False,
            cast=(),
            shards_used=0,
            hits=0,
            heals=0,
            thaws=0,
            removed=(),
            faces=(),
        )

    return replace(
        b, att=fresh(b.att), dfn=fresh(b.dfn), round=b.round + 1, step="tas_d", exchange=None, mercy=""
    )


def _check_sweep(state: DragonLordsState) -> list[Event]:
    """A side wiped out by ranged attacks ends the combat at once."""
    b = state.battle
    if b is None:
        return []
    if not b.att.fighters or not b.dfn.fighters:
        from warhorn.games.dragonlords.rules import end_battle

        return end_battle(state, retreat_to=None)
    return []


def advance(state: DragonLordsState) -> list[Event]:
    """Run the steps that need no decision until one does or the battle ends."""
    events: list[Event] = []
    while state.battle is not None:
        b = state.battle
        step = b.step
        if not b.att.fighters or not b.dfn.fighters:
            from warhorn.games.dragonlords.rules import end_battle

            return events + end_battle(state, retreat_to=None)
        if step == "ranged_d" and b.dfn.player == MONSTER and f"m/{step}" not in b.dfn.cast:
            state.battle, more = _monster_ranged(state, b)
            events += more
            continue
        if step == "cards" and b.exchange is None:
            if _silenced(b):
                ex = CardExchange.start(attacker_sorcerer=False, defender_sorcerer=b.dfn.has_sorcerer())
            else:
                ex = CardExchange.start(
                    attacker_sorcerer=b.att.has_sorcerer() and b.att.player >= 0,
                    defender_sorcerer=b.dfn.has_sorcerer() and b.dfn.player >= 0,
                )
            state.battle = b = replace(b, exchange=ex)
            if ex.finished:
                state.battle = replace(b, step="dice")
                continue
            return events
        if step == "dice":
            events += _dice(state)
            continue
        if step == "apply":
            events += _apply_casualties(state)
            continue
        if step == "check":
            events += _scourge(state)
            b = state.battle
            assert b is not None
            if not b.att.fighters or not b.dfn.fighters:
                from warhorn.games.dragonlords.rules import end_battle

                return events + end_battle(state, retreat_to=None)
            state.battle = replace(b, step="mercy")
            continue
        if needs_decision(state, b):
            return events
        state.battle = replace(b, step=_next_step(step)) if step != "retreat" else b
        if step == "retreat":
            return events
    return events


def _monster_ranged(state: DragonLordsState, b: Battle) -> tuple[Battle, list[Event]]:
    monster = b.dfn.fighters[0]
    b = replace(b, dfn=replace(b.dfn, cast=(*b.dfn.cast, "m/ranged_d")))
    events: list[Event] = []
    for ability, spell in (
        ("cone_of_cold", "cone_of_cold"),
        ("petrifying_gaze", "petrifying_gaze"),
        ("poison", "poison"),
    ):
        if ability in monster.traits and b.att.fighters:
            b, more = resolve_spell(state, b, "d", spell)
            events += more
            events.append(
                Event(
                    "monster_ability", {"ability": ability}, f"the monster uses {ability.replace('_', ' ')}"
                )
            )
    return b, events


def _dice(state: DragonLordsState) -> list[Event]:
    b = state.battle
    assert b is not None
    rng = state.rng
    att, dfn = b.att, b.dfn
    a_mod = side_modifier(att.mods, fighters=att.fighters, attacking_a_kingdom=b.kingdom)
    d_mod = side_modifier(dfn.mods, fighters=dfn.fighters)
    a_rolls = roll_side(rng, att.fighters, a_mod, target_defence(dfn.fighters))
    a_hits = 0 if dfn.shield else sum(r.hit for r in a_rolls)
    rolling = dfn.fighters
    if b.sneak:  # DLR-PEO-02: the defenders hit do not strike back
        rolling = take_hits(dfn.fighters, a_hits)[0]
    d_rolls = roll_side(rng, rolling, d_mod, target_defence(att.fighters))
    d_hits = sum(r.hit for r in d_rolls)
    att_extra = bloodlust_surplus(a_hits, dfn.fighters) if att.bloodlust else 0
    dfn_extra = bloodlust_surplus(d_hits, att.fighters) if dfn.bloodlust else 0
    events = [
        roll_event(
            f"attacker (player {att.player})",
            [(r.die, r.face) for r in a_rolls],
            purpose="step 5",
            hits=a_hits,
        ),
        roll_event(
            f"defender ({_side_name(dfn.player)})",
            [(r.die, r.face) for r in d_rolls],
            purpose="step 6",
            hits=d_hits,
        ),
    ]
    state.battle = replace(
        b,
        att=replace(att, hits=d_hits + att_extra, faces=tuple(r.face for r in a_rolls)),
        dfn=replace(dfn, hits=a_hits + dfn_extra, faces=tuple(r.face for r in d_rolls)),
        step="lose_d",
    )
    return events


def _apply_casualties(state: DragonLordsState) -> list[Event]:
    b = state.battle
    assert b is not None
    events: list[Event] = []
    for which in ("d", "a"):
        side = b.side(which)
        result = effects.casualty_step(side.fighters, side.hits, heals=side.heals, thaws=side.thaws)
        b = _set_side(b, which, replace(side, fighters=result.side))
        b, more = _note_removed(state, b, which, result.removed)
        events += more
        if result.removed or result.saved:
            events.append(
                Event(
                    "casualties",
                    {"player": side.player, "lost": len(result.removed), "saved": len(result.saved)},
                    f"{'attacker' if which == 'a' else 'defender'} loses {len(result.removed)}"
                    + (f", {len(result.saved)} saved" if result.saved else ""),
                )
            )
    state.battle = replace(b, step="raise_d")
    return events + _settle_prisoners(state)


def _settle_prisoners(state: DragonLordsState) -> list[Event]:
    """DLX-AMZ-06 at the casualty step: prisoners may never outnumber their Amazon guards.

    Held prisoners (their owner attacks) beyond the guards go back to their army, the attacker's side,
    and fight on; with no guard left all of them do. Prisoners fighting a third player beyond the
    guards escape to a territory of their owner next to the space, or are removed; with no guard
    left they join the victor, the attacker.
    """
    b = state.battle
    assert b is not None
    events: list[Event] = []
    xs = [f for f in b.dfn.fighters if f.id.startswith("x")]
    guards = len(b.dfn.fighters) - len(xs)
    if b.held:
        fate = amazons.settle_prisoners(b.held, guards, battle_over=False, escape_route=False)
        back = b.held - fate.kept
        if back:
            b = replace(_add_plain(state, b, "a", back), held=fate.kept)
            events.append(
                Event(
                    "prisoners_freed",
                    {"player": b.att.player, "count": back},
                    f"{back} prisoner(s) go back to player {b.att.player}'s army",
                )
            )
    elif xs:
        exits = sorted(
            t
            for t in state.world.space(b.space).neighbours
            if b.prisoners_of >= 0 and state.owner(t) == b.prisoners_of
        )
        fate = amazons.settle_prisoners(len(xs), guards, battle_over=True, escape_route=bool(exits))
        leaving = {f.id for f in xs[fate.kept :]}
        if leaving:
            b = replace(
                b, dfn=replace(b.dfn, fighters=tuple(f for f in b.dfn.fighters if f.id not in leaving))
            )
        if fate.to_victor:
            b = _add_plain(state, b, "a", fate.to_victor)
            what = f"join player {b.att.player}"
        elif fate.escaped:
            home = state.spaces[exits[0]]
            state.spaces[exits[0]] = replace(home, plain=home.plain + fate.escaped)
            what = f"escape to {exits[0]}"
        else:
            what = "are lost"
        if leaving:
            events.append(
                Event(
                    "prisoners_leave", {"count": len(leaving)}, f"{len(leaving)} unguarded prisoner(s) {what}"
                )
            )
    state.battle = b
    return events


def _scourge(state: DragonLordsState) -> list[Event]:
    """DLX-NEC-02: a Necromancer who rolled a 6 raises one unit lost this round."""
    b = state.battle
    assert b is not None
    lost = len(b.att.removed) + len(b.dfn.removed)
    events: list[Event] = []
    for which in ("a", "d"):
        side = b.side(which)
        if side.people != "necromancers" or side.player < 0:
            continue
        party = len(side.fighters) if b.kind == "quest" else None
        if effects.scourge_raises(
            side.faces, lost, against_monsters=b.dfn.player == MONSTER, party_size=party
        ):
            b = _add_plain(state, b, which, 1)
            events.append(
                Event("scourge", {"player": side.player}, f"player {side.player}'s Scourge raises a unit")
            )
    state.battle = b
    return events


def _side_name(player: int) -> str:
    if player >= 0:
        return f"player {player}"
    return "neutral" if player == NEUTRAL else "monster"
