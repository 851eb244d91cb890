"""Conquest of Nerath's battle odds as the front ends ask for them (the plugin's ``OddsSupport``).

* The calculator: :class:`OddsRequest` (the same choices as ``warhorn odds nerath``),
  :func:`calculator_catalog` (the piece types and guardian tiles it offers) and
  :func:`calculate` (the odds of the battle a request describes).
* :data:`ODDS_CLI`: the ``warhorn odds nerath`` command, declared as data (its options, the
  battle they describe and the report; the command line builds the command from it).
* :func:`attack_odds`: the odds of the battle that one legal action (a move, sail or
  landing onto an enemy space, or a declared fight) would start, computed only from
  public facts: the attacker's pieces that would stand there and the defenders every
  player sees. Guardians still face down are not known, so a dungeon's odds average
  over the tiles that could lie there (the tiles neither face up nor defeated), each
  as likely as its copies.

The numbers come from :func:`warhorn.games.nerath.odds.battle_odds`; a question
without an answer raises :class:`~warhorn.engine.plugin.OddsUnavailableError`.
"""

from __future__ import annotations

import contextlib
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import lru_cache
from itertools import combinations_with_replacement, permutations
from typing import TYPE_CHECKING, Annotated, Any, Literal

import pydantic

from warhorn.engine import Action, WarhornError
from warhorn.engine.plugin import CliOption, OddsCli, OddsSupport, OddsTable, OddsUnavailableError
from warhorn.games.nerath.battle_model import (
    BUILTIN_GUARDIANS,
    ArmyError,
    BattleOutcome,
    Guardian,
    RetreatRule,
    guardian_from,
)
from warhorn.games.nerath.odds import BattleOdds, OutcomeProbability, battle_odds, dungeon_odds_over_draws
from warhorn.games.nerath.pieces import PIECES

if TYPE_CHECKING:
    from warhorn.games.nerath.game import NerathState

#: Most pieces one side of a calculator battle may have (keeps one request's work bounded).
MAX_SIDE_PIECES = 60
#: Most guardians a calculator dungeon may hold.
MAX_GUARDIANS = 6
#: Most draws of face-down guardians the attack odds average over (tiles that fight alike are one
#: kind; all draws are solved together, :func:`~warhorn.games.nerath.odds.dungeon_odds_over_draws`).
#: With the shipped tiles: 3 face-down make 1,294 draws (0.5 s), 4 make 6,279 (3 s), 5 make 24,116
#: (12 s); 6 are refused.
MAX_FACE_DOWN_DRAWS = 30_000
#: The name face-down guardians go by in the odds (their tiles are not known).
FACE_DOWN = "face-down"

PieceCount = Annotated[int, pydantic.Field(ge=0, le=MAX_SIDE_PIECES)]


class OddsRequest(pydantic.BaseModel):
    """A battle for the calculator: the same choices as ``warhorn odds nerath``."""

    model_config = pydantic.ConfigDict(extra="forbid")

    attacker: dict[str, PieceCount] = pydantic.Field(max_length=len(PIECES) * 4)
    defender: dict[str, PieceCount] = pydantic.Field(default_factory=dict, max_length=len(PIECES) * 4)
    ally: dict[str, PieceCount] = pydantic.Field(default_factory=dict, max_length=len(PIECES) * 4)
    allied_damage: Literal["agree", "fixed"] = "agree"
    amok_targets: int | None = pydantic.Field(default=None, ge=0, le=12)
    sea: bool = False
    dungeon: list[Annotated[str, pydantic.Field(max_length=64)]] = pydantic.Field(
        default_factory=list, max_length=MAX_GUARDIANS
    )
    retreat_below: int | None = pydantic.Field(default=None, ge=0, le=MAX_SIDE_PIECES)
    rounds: int | None = pydantic.Field(default=None, ge=1, le=50)
    double_up: bool = False
    top: int = pydantic.Field(default=5, ge=1, le=50)

    @pydantic.field_validator("attacker", "defender", "ally")
    @classmethod
    def _bounded(cls, value: dict[str, int]) -> dict[str, int]:
        if sum(value.values()) > MAX_SIDE_PIECES:
            raise ValueError(f"at most {MAX_SIDE_PIECES} pieces per side")
        return value


@lru_cache(maxsize=1)
def _shipped_guardians() -> dict[str, Guardian]:
    """The shipped guardian tiles (only their file is read, not the whole content)."""
    from warhorn.content.loader import load_model
    from warhorn.games.nerath.content import SHIPPED_CONTENT_DIR, GuardiansFile

    tiles = load_model(SHIPPED_CONTENT_DIR / "guardians.toml", GuardiansFile)
    return {tile.id: guardian_from(tile) for tile in tiles.guardians}


def guardian_tiles() -> dict[str, Guardian]:
    """Guardians the calculator knows: the rulebook's three and the shipped tiles."""
    lookup = dict(BUILTIN_GUARDIANS)
    with contextlib.suppress(ImportError, OSError, WarhornError):
        lookup.update(_shipped_guardians())
    return lookup


def calculator_catalog() -> dict[str, Any]:
    """What the calculator offers: piece types and guardian tiles."""
    return {
        "pieces": [
            {"id": p.id, "name": p.name, "cost": p.cost, "sea": bool(p.sea_dice), "castle": p.castle}
            for p in PIECES.values()
        ],
        "guardians": [
            {"id": g.id, "name": g.name, "dice": list(g.dice), "first_strike": g.first_strike}
            for g in sorted(guardian_tiles().values(), key=lambda g: g.name)
        ],
    }


def calculate(body: OddsRequest) -> dict[str, Any]:
    """The calculator's answer; ``OddsUnavailableError('bad_battle')`` for an impossible battle or name."""
    retreat = None
    if body.retreat_below is not None or body.rounds is not None:
        retreat = RetreatRule(at_or_below=body.retreat_below, after_rounds=body.rounds)
    try:
        result = battle_odds(
            dict(body.attacker),
            dict(body.defender) if body.defender else None,
            sea=body.sea,
            dungeon=list(body.dungeon) or None,
            guardians=guardian_tiles() if body.dungeon else None,
            retreat=retreat,
            double_up=body.double_up,
            ally=dict(body.ally) if body.ally else None,
            allied_damage=body.allied_damage,
            amok_targets=body.amok_targets,
        )
    except ArmyError as exc:
        raise OddsUnavailableError("bad_battle", str(exc)) from None
    return result.to_json(top=body.top)


# --- odds of a planned attack ----------------------------------------------------------------


def _target_of(state: NerathState, action: Action) -> tuple[NerathState, int]:
    """The position after ``action`` and the space where it makes the current kingdom fight."""
    from warhorn.games.nerath.actions import Fight, Move, ShipMove, Unload
    from warhorn.games.nerath.board import DUNGEON

    k = state.current_kingdom
    if isinstance(action, Fight):
        return state, state.board.idx(action.space)
    if isinstance(action, Move | ShipMove):
        targets = [action.path[-1]]
    elif isinstance(action, Unload):
        targets = list(dict.fromkeys(space for _piece, space in action.drops))
    else:
        raise OddsUnavailableError(
            "not_an_attack",
            f"{action.notation()!r} starts no battle: only moves, sails, landings and fights do",
        )
    after, _events = state.apply(action)
    fights = []
    for sid in targets:
        t = after.board.idx(sid)
        own = [u for u in after.units_at(t) if u.kingdom == k]
        if after.board.kind[t] == DUNGEON:
            if any(PIECES[u.ptype].hero for u in own):
                fights.append(t)
        elif after.is_enemy(t, k) and own:
            fights.append(t)
    if not fights:
        raise OddsUnavailableError(
            "not_an_attack",
            f"{action.notation()!r} ends on no enemy space: it declares no attack (NER-MOV-02)",
        )
    if len(fights) > 1:
        raise OddsUnavailableError(
            "not_an_attack", "this landing starts two battles; ask for each one separately"
        )
    return after, fights[0]


def tile_draws(pool: Counter[str], n: int) -> list[tuple[float, tuple[str, ...]]]:
    """Each multiset of ``n`` tiles drawn without replacement from ``pool``, with its probability."""
    if n == 0:
        return [(1.0, ())]
    total = sum(pool.values())
    out: dict[tuple[str, ...], float] = {}
    for seq in set(permutations([t for t, c in pool.items() for _ in range(min(c, n))], n)):
        p, left, remaining = 1.0, Counter(pool), total
        for tile in seq:
            p *= left[tile] / remaining
            left[tile] -= 1
            remaining -= 1
        key = tuple(sorted(seq))
        out[key] = out.get(key, 0.0) + p
    return [(p, key) for key, p in sorted(out.items())]


def face_down_draws(
    pool: Counter[str], tiles: Mapping[str, Guardian], n: int
) -> list[tuple[float, tuple[Guardian, ...], float]]:
    """The ways ``n`` face-down guardians can fight, drawn without replacement from ``pool``:
    tiles that fight alike (same dice, first strike and hero penalty) are one kind, so a draw is a
    multiset of kinds. Each with its probability (multivariate hypergeometric), the guardians as
    the battle sees them (named :data:`FACE_DOWN`, no reward) and their expected reward gold."""
    kinds: dict[tuple[Any, ...], list[tuple[int, int]]] = {}
    for tile, copies in pool.items():
        g = tiles[tile]
        kinds.setdefault((g.dice, g.first_strike, g.hero_hit_min), []).append((copies, g.reward_gold))
    keys = sorted(kinds)
    count = {key: sum(c for c, _r in kinds[key]) for key in keys}
    reward = {key: sum(c * r for c, r in kinds[key]) / count[key] for key in keys}
    total = sum(count.values())
    if n > total:
        raise OddsUnavailableError(
            "unknown_guardians", f"{n} guardians lie face down but only {total} tiles are unseen"
        )
    ways = math.comb(total, n)
    out = []
    for draw in combinations_with_replacement(range(len(keys)), n):
        picked = Counter(draw)
        if any(m > count[keys[i]] for i, m in picked.items()):
            continue
        p = math.prod(math.comb(count[keys[i]], m) for i, m in picked.items()) / ways
        gs = tuple(Guardian(FACE_DOWN, "face-down guardian", *keys[i]) for i in draw)
        out.append((p, gs, sum(reward[keys[i]] for i in draw)))
    return out


def face_down_draw_count(pool: Counter[str], tiles: Mapping[str, Guardian], n: int) -> int:
    """How many draws :func:`face_down_draws` would list (without listing them)."""
    kinds: Counter[tuple[Any, ...]] = Counter()
    for tile, copies in pool.items():
        g = tiles[tile]
        kinds[(g.dice, g.first_strike, g.hero_hit_min)] += copies
    # multisets of size n with at most count[k] of kind k: coefficient of x^n in prod (1 + ... + x^c)
    poly = [1] + [0] * n
    for c in kinds.values():
        nxt = [0] * (n + 1)
        for i, v in enumerate(poly):
            if v:
                for j in range(min(c, n - i) + 1):
                    nxt[i + j] += v
        poly = nxt
    return poly[n]


def mixture(parts: Iterable[tuple[float, BattleOdds]]) -> BattleOdds:
    """The odds of a battle whose defender is one of several, each with its probability."""
    parts = list(parts)
    if len(parts) == 1:
        return parts[0][1]

    def avg(name: str) -> float:
        return sum(w * float(getattr(o, name)) for w, o in parts)

    def avg_map(name: str) -> dict[str, float]:
        out: dict[str, float] = {}
        for w, o in parts:
            for key, value in getattr(o, name).items():
                out[key] = out.get(key, 0.0) + w * value
        return out

    outcomes: dict[tuple[Any, ...], float] = {}
    for w, o in parts:
        for oc in o.outcomes:
            key = (
                oc.result,
                tuple(oc.attacker.items()),
                tuple(sorted(oc.defender.items())),
                oc.castle_captured,
            )
            outcomes[key] = outcomes.get(key, 0.0) + w * oc.probability
    listed = sorted(
        (
            OutcomeProbability(BattleOutcome(r), dict(a), dict(d), p, c)
            for (r, a, d, c), p in outcomes.items()
        ),
        key=lambda oc: -oc.probability,
    )
    return BattleOdds(
        attacker_win=avg("attacker_win"),
        defender_win=avg("defender_win"),
        mutual_destruction=avg("mutual_destruction"),
        attacker_retreats=avg("attacker_retreats"),
        expected_rounds=avg("expected_rounds"),
        attacker_survivors=avg_map("attacker_survivors"),
        defender_survivors=avg_map("defender_survivors"),
        attacker_gold_lost=avg("attacker_gold_lost"),
        defender_gold_lost=avg("defender_gold_lost"),
        expected_reward_gold=avg("expected_reward_gold"),
        outcomes=tuple(listed),
    )


def attack_odds(state: Any, action: Action) -> dict[str, Any]:
    """The odds of the battle ``action`` (legal now in ``state``) would start, from public facts only."""
    from warhorn.games.nerath.board import DUNGEON, KINGDOM_IDS, LAND
    from warhorn.games.nerath.rules.battle_flow import amok_targets, participants, side_model
    from warhorn.games.nerath.rules.dungeons import unseen_guardian_tiles
    from warhorn.games.nerath.state import BattleState

    after, t = _target_of(state, action)
    k = state.current_kingdom
    kind = after.board.kind[t]
    probe = after.copy()
    probe.d.battle = BattleState(t, "dungeon" if kind == DUNGEON else kind, k)
    attacker = side_model(probe, defenders=False)
    sea = kind == "sea"
    double_up = bool(after.options.get("damage_doubling"))
    answer: dict[str, Any] = {
        "space": after.board.sid(t),
        "space_name": after.board.names[t],
        "kind": probe.d.battle.kind,
        "attacker_kingdom": KINGDOM_IDS[k],
        "attacker": attacker.counts(),
    }
    try:
        if kind == DUNGEON:
            slots = after.d.guardians.get(t, ())
            known = [guardian_from(after.board.guardian(g.tile)) for g in slots if g.face_up]
            hidden = len(slots) - len(known)
            pool = unseen_guardian_tiles(after)
            tiles = {tile: guardian_from(after.board.guardian(tile)) for tile in pool}
            count = face_down_draw_count(pool, tiles, hidden)
            if count > MAX_FACE_DOWN_DRAWS:
                raise OddsUnavailableError(
                    "unknown_guardians",
                    f"{hidden} guardians lie face down there: {count} different draws to average "
                    f"(at most {MAX_FACE_DOWN_DRAWS} are computed)",
                )
            known_reward = sum(g.reward_gold for g in known)
            draws = [
                (weight, (*known, *unseen), known_reward + unseen_reward)
                for weight, unseen, unseen_reward in face_down_draws(pool, tiles, hidden)
            ]
            # face-up guardians start with all their dice (NER-DUN-07), as the tiles show them
            odds = dungeon_odds_over_draws(attacker, draws, double_up=double_up)
            answer["defender"] = {}
            answer["guardians"] = [g.tile for g in slots if g.face_up]
            answer["guardians_face_down"] = hidden
        else:
            defender = side_model(probe, defenders=True)
            # allied defenders (NER-BAT-07): each kingdom's pieces, split as the game's option says
            units = participants(probe, defenders=True)
            kingdoms = sorted({u.kingdom for u in units})
            sides = [side_model(probe, True, [u for u in units if u.kingdom == kk]) for kk in kingdoms]
            amok = len(amok_targets(after, t, k)) if kind == LAND and attacker.count("monster") else None
            odds = battle_odds(
                attacker,
                sides[0] if len(sides) == 2 else defender,
                ally=sides[1] if len(sides) == 2 else None,
                allied_damage=str(after.options.get("allied_damage", "agree")),
                sea=sea,
                double_up=double_up,
                amok_targets=amok,
            )
            answer["defender"] = defender.counts()
            answer["defender_kingdoms"] = sorted({KINGDOM_IDS[u.kingdom] for u in after.enemy_units_at(t, k)})
    except ArmyError as exc:
        raise OddsUnavailableError("no_battle", f"no battle can be fought there: {exc}") from None
    answer["odds"] = odds.to_json(top=5)
    return answer


# --- the command line's calculator (``warhorn odds nerath``) ------------------------------------

#: The options of ``warhorn odds nerath`` (the command adds ``--top`` and ``--json``).
CLI_OPTIONS: tuple[CliOption, ...] = (
    CliOption(
        "attacker", ("--attacker", "-a"), str, required=True,
        help='Attacking pieces, e.g. "4 soldier, 2 siege, 1 dragon".',
    ),
    CliOption(
        "defender", ("--defender", "-d"), str,
        help='Defending pieces, e.g. "5 soldier, 1 castle" ("" for an empty territory).',
    ),
    CliOption(
        "ally", ("--ally",), str, "",
        help='Pieces of an ally defending with the defender, e.g. "2 soldier" (NER-BAT-07).',
    ),
    CliOption(
        "allied_damage", ("--allied-damage",), str, "agree",
        help="How allied defenders share damage: agree (the split better for them) or fixed (the rule).",
    ),
    CliOption(
        "amok_targets", ("--amok-targets",), int, minimum=0,
        help="Adjacent enemy territories without enemy pieces, for Run Amok (NER-BAT-20).",
    ),
    CliOption("sea", ("--sea",), bool, False, help="A sea battle (warships, flyers, carried heroes)."),
    CliOption(
        "dungeon", ("--dungeon",), str, "",
        help="Guardians the heroes fight, comma-separated tile ids (e.g. medusa,troll,beholder).",
    ),
    CliOption(
        "retreat_below", ("--retreat-below",), int, minimum=0,
        help="The attacker retreats once it has N or fewer pieces.",
    ),
    CliOption(
        "rounds", ("--rounds",), int, minimum=1,
        help="The attacker retreats after R rounds if still undecided.",
    ),
    CliOption(
        "double_up", ("--double-up",), bool, False,
        help="Hits double up once every piece has one (non-default NER-BAT-03).",
    ),
)  # fmt: skip


def cli_answer(values: dict[str, Any]) -> BattleOdds:
    """The odds of the battle ``warhorn odds nerath``'s options describe (see :data:`CLI_OPTIONS`)."""
    defender, dungeon = values.get("defender"), str(values.get("dungeon") or "")
    if defender is None and not dungeon.strip():
        # a forgotten side is a mistake, not an empty territory (that is spelled --defender "")
        raise OddsUnavailableError(
            "usage", '--defender is missing: name the defending pieces, or --defender "" for none'
        )
    retreat_below, rounds = values.get("retreat_below"), values.get("rounds")
    retreat = None
    if retreat_below is not None or rounds is not None:
        retreat = RetreatRule(at_or_below=retreat_below, after_rounds=rounds)
    guardians = [g.strip() for g in dungeon.split(",") if g.strip()] or None
    try:
        return battle_odds(
            str(values["attacker"]),
            defender or None,
            sea=bool(values.get("sea")),
            dungeon=guardians,
            guardians=guardian_tiles() if guardians else None,
            retreat=retreat,
            double_up=bool(values.get("double_up")),
            ally=values.get("ally") or None,
            allied_damage=str(values.get("allied_damage") or "agree"),
            amok_targets=values.get("amok_targets"),
        )
    except ArmyError as exc:
        raise OddsUnavailableError("bad_battle", str(exc)) from None


#: The width of a chance's bar in the text report.
BAR_WIDTH = 40


def _bar(p: float) -> str:
    filled = round(p * BAR_WIDTH)
    return "█" * filled + "·" * (BAR_WIDTH - filled)


def cli_report(result: BattleOdds, top: int) -> list[str | OddsTable]:
    """The text answer of ``warhorn odds nerath``: the result, survivors, gold, the likeliest outcomes."""
    rows = [
        ("attacker wins", result.attacker_win),
        ("defender wins", result.defender_win),
        ("mutual destruction", result.mutual_destruction),
    ]
    if result.attacker_retreats:
        rows.append(("attacker retreats", result.attacker_retreats))
    out: list[str | OddsTable] = [
        OddsTable(
            "Battle result",
            (("result", "left"), ("chance", "right"), ("", "left")),
            tuple((name, f"{p:.2%}", _bar(p)) for name, p in rows),
        ),
        f"expected rounds: {result.expected_rounds:.2f}",
        OddsTable(
            "Expected survivors",
            (("side", "left"), ("piece", "left"), ("expected left", "right")),
            tuple(
                (side, name, f"{n:.2f}")
                for side, survivors in (
                    ("attacker", result.attacker_survivors),
                    ("defender", result.defender_survivors),
                )
                for name, n in survivors.items()
            ),
        ),
        f"expected gold lost: attacker {result.attacker_gold_lost:.2f}, "
        f"defender {result.defender_gold_lost:.2f}"
        + (f"; expected reward {result.expected_reward_gold:.2f}" if result.expected_reward_gold else ""),
    ]
    if result.allied_split is not None:
        out.append(f"allied defenders: {result.allied_split_note}")
    if result.amok_monsters:
        amok = f"run amok (NER-BAT-20): the attacker wins with a monster left {result.run_amok_chance:.2%}"
        if result.amok_targets is not None:
            amok += (
                f"; expected conquests into the {result.amok_targets} open territories "
                f"{result.expected_amok_conquests():.2f}"
            )
        out.append(amok)
    outcomes = []
    for o in result.outcomes[:top]:
        defender_left = ", ".join(f"{n} {k}" for k, n in o.defender.items()) or "nothing"
        if o.castle_captured:
            defender_left += " (castle captured)"
        outcomes.append(
            (
                f"{o.probability:.2%}",
                o.result.value.replace("_", " "),
                ", ".join(f"{n} {k}" for k, n in o.attacker.items()) or "nothing",
                defender_left,
            )
        )
    out.append(
        OddsTable(
            f"Most likely outcomes (top {top})",
            (("chance", "right"), ("result", "left"), ("attacker left", "left"), ("defender left", "left")),
            tuple(outcomes),
        )
    )
    return out


ODDS_CLI = OddsCli(
    help="Exact odds of a Conquest of Nerath battle (default loss order; see docs/odds.md).",
    options=CLI_OPTIONS,
    answer=cli_answer,
    # the JSON lists at least 20 outcomes (as before the command was declared here)
    to_json=lambda result, top: result.to_json(top=max(top, 20)),
    report=cli_report,
)


ODDS_SUPPORT = OddsSupport(
    request=OddsRequest,
    catalog=calculator_catalog,
    calculate=calculate,
    attack_odds=attack_odds,
    cli=ODDS_CLI,
)
