"""The registered vocabulary of Conquest of Nerath card effects and timing windows.

Every event card and treasure card is a composition of the effect primitives
listed in :data:`EFFECT_OPS`; the rules code implements each primitive once,
and no card is a special case. Content files name an op and give its
parameters; :func:`effect_problems` says what is wrong with one effect.

Conventions shared by many ops:

* ``piece`` is a *piece filter*: a piece id from ``pieces.py`` (``soldier``,
  ``dragon``...) or one of :data:`PIECE_GROUPS` (``any``, ``land``, ``hero``,
  ``flying``, ``naval``). Ops that create pieces (``place_pieces``) need a
  concrete piece id.
* ``count`` is how many; for grants and modifiers ``count = 0`` means "every
  matching piece".
* ``duration`` says how long a modifier lasts (:data:`DURATIONS`).
* ``side`` says whose pieces or dice are affected: ``own`` (the card holder's,
  plus an ally's where the rules say so) or ``enemy`` (the opposing side of the
  battle, or an enemy kingdom).

The *timing* of a card (when it may be played) is one of :data:`TIMINGS`. An
effect may carry its own ``when`` window: for a treasure's lasting property,
``when`` says at which moment the effect repeats (for example
``start_of_turn`` for "at the start of each of your turns"). Without ``when``
a property is a standing modifier (always on), and a power or event effect
happens when the card is played. In a standing property, ``duration`` is
ignored: the property lasts for the rest of the game (NER-CRD-04).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from warhorn.games.nerath.pieces import PIECES, Mobility

ParamKind = Literal["int", "bool", "choice", "piece", "piece_filter"]


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One parameter of an effect op.

    ``kind``: ``int`` (between ``minimum`` and ``maximum``), ``bool``,
    ``choice`` (one of ``choices``), ``piece`` (a concrete piece id) or
    ``piece_filter`` (a piece id or a group name). A parameter with a
    ``default`` may be left out.
    """

    kind: ParamKind
    meaning: str
    default: str | int | bool | None = None
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 99

    @property
    def required(self) -> bool:
        return self.default is None


@dataclass(frozen=True, slots=True)
class EffectOp:
    """An effect primitive: its parameters and what it does, in plain words."""

    meaning: str
    params: dict[str, ParamSpec]


#: Piece groups usable wherever a piece filter is accepted.
PIECE_GROUPS: dict[str, str] = {
    "any": "any piece",
    "land": "any land piece (soldier, siege, warrior, mage, monster)",
    "mobile": "any piece except a castle",
    "hero": "warriors and mages (NER-PCS-09)",
    "flying": "air elementals and dragons",
    "naval": "warships",
}

#: How long a modifier lasts.
DURATIONS: dict[str, str] = {
    "round": "the current (or next) battle round only",
    "battle": "one battle (the one in progress, or the next one the holder fights this turn)",
    "turn": "until the end of the current kingdom's turn",
    "game": "for the rest of the game (treasure properties)",
}

#: Timing windows: when a card may be played or a property triggers.
TIMINGS: dict[str, str] = {
    "immediately": "as soon as it is drawn (play-immediately event cards) or looted",
    "start_of_turn": "at the start of the holder's turn, before drawing",
    "draw": "in the holder's draw phase (phase 1)",
    "movement": "in the holder's movement phase (phase 2)",
    "before_battle": "in a battle the holder fights (attacking or defending), before its first round",
    "battle_round": "in a battle the holder fights, after a round's dice are rolled and before hits apply",
    "after_battle": "right after a battle the holder fought ends",
    "on_conquest": "when the holder conquers (or liberates) a territory",
    "dungeon": "before a dungeon battle the holder's heroes fight",
    "reposition": "in the holder's reposition phase (phase 4)",
    "reinforcements": "in the holder's reinforcement phase (phase 5)",
    "income": "in the holder's income phase (phase 6)",
    "end_of_turn": "at the end of the holder's turn",
    "own_turn": "at any moment of the holder's own turn",
    "opponent_turn": "at any moment of another kingdom's turn",
    "when_attacked": "in another kingdom's turn, when a battle is declared on a space the holder controls",
    "any_time": "at any moment",
}

#: The moments at which a treasure property with a ``when`` repeats (the rules run them then).
PROPERTY_MOMENTS: tuple[str, ...] = ("start_of_turn", "movement", "dungeon", "on_conquest", "income")

_PIECE_PLACES = (
    "friendly_territory",  # any territory the holder controls
    "own_capital",  # the holder's capital, if it controls it
    "castle_territory",  # a friendly territory holding one of the holder's castles
    "battle_space",  # the space of the battle in progress (as attacker or defender)
    "friendly_sea_near_castle",  # a friendly sea space adjacent to a territory with the holder's castle
    "conquered_territory",  # a territory the holder conquered this turn
)

_DESTROY_WHERE = (
    "battle",  # an opposing piece in the battle in progress
    "adjacent",  # an enemy piece in a space adjacent to a space the holder controls
    "anywhere",  # any enemy piece on the board
)

_GOLD_FROM = ("chosen_enemy", "each_enemy", "richest_enemy", "battle_enemy")
_SIDES = ("own", "enemy")


def _count(meaning: str = "how many pieces", default: int | None = None, minimum: int = 1) -> ParamSpec:
    return ParamSpec("int", meaning, default=default, minimum=minimum, maximum=20)


def _filter(default: str | None = None) -> ParamSpec:
    return ParamSpec("piece_filter", "which pieces (a piece id or a group)", default=default)


def _duration(default: str = "battle") -> ParamSpec:
    return ParamSpec("choice", "how long it lasts", default=default, choices=tuple(DURATIONS))


def _side(default: str = "own") -> ParamSpec:
    return ParamSpec("choice", "whose pieces or dice", default=default, choices=_SIDES)


#: The registered effect primitives, op name → parameters and meaning.
EFFECT_OPS: dict[str, EffectOp] = {
    "place_pieces": EffectOp(
        "Place new pieces from the supply for free (not bought; no castle placement limits unless "
        "the place says so). With together = true all go to one space.",
        {
            "piece": ParamSpec("piece", "the piece type placed"),
            "count": _count(),
            "where": ParamSpec("choice", "where they go", choices=_PIECE_PLACES),
            "together": ParamSpec("bool", "all in one space", default=True),
        },
    ),
    "destroy_piece": EffectOp(
        "Destroy enemy pieces chosen by the holder (guardians are not pieces, NER-DUN-08; "
        "castles are never destroyed this way).",
        {
            "piece": _filter("mobile"),
            "count": _count(default=1),
            "where": ParamSpec(
                "choice", "where the victims may be", default="battle", choices=_DESTROY_WHERE
            ),
        },
    ),
    "transfer_pieces": EffectOp(
        "Pick up the holder's own pieces and set them down elsewhere; this is not movement "
        "(NER-MOV-09) and never enters an enemy space unless to = battle_space.",
        {
            "piece": _filter("land"),
            "count": _count(),
            "from": ParamSpec(
                "choice",
                "where they are taken from",
                default="friendly_territory",
                choices=("friendly_territory", "own_capital", "anywhere"),
            ),
            "to": ParamSpec(
                "choice",
                "where they are set down",
                choices=("friendly_territory", "battle_space", "own_capital", "coastal_territory"),
            ),
        },
    ),
    "steal_gold": EffectOp(
        "Move gold from enemy treasuries to the holder's (as much as they have, NER-CRD-06).",
        {
            "amount": ParamSpec("int", "gold taken from each victim", minimum=1, maximum=20),
            "from": ParamSpec("choice", "who loses it", default="chosen_enemy", choices=_GOLD_FROM),
        },
    ),
    "gain_gold": EffectOp(
        "The holder takes gold from the bank: amount, or amount for each thing counted by per "
        "(at most maximum, 0 = no cap).",
        {
            "amount": ParamSpec("int", "gold (per counted thing)", minimum=1, maximum=20),
            "per": ParamSpec(
                "choice",
                "what is counted",
                default="none",
                choices=(
                    "none",
                    "coastal_territory",
                    "warship",
                    "sea_space_with_warship",
                    "castle",
                    "conquest_this_turn",
                ),
            ),
            "maximum": ParamSpec("int", "cap on the gold gained (0 = none)", default=0, maximum=50),
        },
    ),
    "gain_vp": EffectOp(
        "The holder scores victory points.",
        {"amount": ParamSpec("int", "victory points", minimum=1, maximum=5)},
    ),
    "modify_hit_number": EffectOp(
        "Dice of the chosen side's matching pieces hit on hit_on or more instead of 6. A better "
        "number for the holder's own pieces overrides a dungeon's 7+/8+ penalty (NER-CRD-05).",
        {
            "hit_on": ParamSpec("int", "the new lowest hitting result", minimum=2, maximum=10),
            "piece": _filter("any"),
            "side": _side(),
            "duration": _duration(),
        },
    ),
    "extra_dice": EffectOp(
        "Matching pieces (or, with piece = any, the side as a whole) roll extra dice.",
        {
            "sides": ParamSpec("int", "die size", minimum=4, maximum=20),
            "count": _count("how many extra dice", default=1),
            "piece": _filter("any"),
            "duration": _duration(),
        },
    ),
    "grant_first_strike": EffectOp(
        "Matching pieces of the holder roll in the first-strike step (NER-BAT-02).",
        {"piece": _filter("any"), "count": _count(default=0, minimum=0), "duration": _duration()},
    ),
    "grant_resilience": EffectOp(
        "Matching pieces of the holder need two damage to be destroyed, like dragons (NER-BAT-05).",
        {"piece": _filter("any"), "count": _count(default=1, minimum=0), "duration": _duration()},
    ),
    "extra_move": EffectOp(
        "Matching pieces of the holder get extra movement points this turn.",
        {
            "piece": _filter("mobile"),
            "moves": ParamSpec("int", "extra movement points", minimum=1, maximum=5),
            "count": _count(default=0, minimum=0),
        },
    ),
    "reroll": EffectOp(
        "Roll again up to count dice of the chosen side in the current round; the new result stands.",
        {"count": _count("how many dice", default=1), "side": _side()},
    ),
    "negate_hits": EffectOp(
        "Cancel up to count hits the enemy scored in the current volley.",
        {"count": _count("how many hits", default=1)},
    ),
    "heal": EffectOp(
        "Remove all damage from up to count of the holder's damaged pieces (a wounded resilient "
        "piece, or an inactive castle becomes active again).",
        {"count": _count(default=1)},
    ),
    "force_retreat": EffectOp(
        "The attacking force of the battle in progress must retreat after the current round "
        "(as in NER-BAT-12/13); the defender keeps the space.",
        {},
    ),
    "cancel_card": EffectOp(
        "Cancel an enemy event card (or treasure power) as it is played; it is discarded with no effect.",
        {
            "card": ParamSpec(
                "choice", "which kind of card", default="event", choices=("event", "treasure", "any")
            )
        },
    ),
    "draw_cards": EffectOp(
        "The holder draws cards into its hand.",
        {
            "deck": ParamSpec("choice", "which deck", default="event", choices=("event", "treasure")),
            "count": _count("how many cards", default=1),
        },
    ),
    "discard_cards": EffectOp(
        "Enemies discard event cards at random from their hands.",
        {
            "count": _count("how many cards", default=1),
            "from": ParamSpec(
                "choice", "who discards", default="chosen_enemy", choices=("chosen_enemy", "each_enemy")
            ),
        },
    ),
    "reduce_cost": EffectOp(
        "Matching pieces bought this turn cost amount gold less each (never below 1 gold); in a treasure "
        "property, for the rest of the game.",
        {"piece": _filter("any"), "amount": ParamSpec("int", "gold off each", minimum=1, maximum=5)},
    ),
    "destroy_guardian": EffectOp(
        "Defeat up to count dungeon guardians in the dungeon battle in progress, without a roll.",
        {"count": _count("how many guardians", default=1)},
    ),
}


def piece_matches(ptype: str, filt: str) -> bool:
    """Whether a piece of type ``ptype`` is one of the pieces a ``piece_filter`` names."""
    stats = PIECES[ptype]
    if filt in (ptype, "any"):
        return True
    if filt == "mobile":
        return not stats.castle
    if filt == "land":
        return stats.mobility == Mobility.LAND
    if filt == "hero":
        return stats.hero
    if filt == "flying":
        return stats.mobility == Mobility.FLYING
    if filt == "naval":
        return stats.mobility == Mobility.SEA
    return False


def param_problems(op_name: str, params: dict[str, str | int | bool]) -> list[str]:
    """What is wrong with ``params`` for the op ``op_name`` (empty when the effect is well formed)."""
    op = EFFECT_OPS.get(op_name)
    if op is None:
        return [f"unknown effect op {op_name!r} (known: {', '.join(sorted(EFFECT_OPS))})"]
    problems: list[str] = []
    for name in params:
        if name not in op.params:
            known = ", ".join(op.params) or "none"
            problems.append(f"op {op_name!r} has no parameter {name!r} (parameters: {known})")
    for name, spec in op.params.items():
        if name not in params:
            if spec.required:
                problems.append(f"op {op_name!r} needs parameter {name!r} ({spec.meaning})")
            continue
        problem = _value_problem(spec, params[name])
        if problem:
            problems.append(f"op {op_name!r} parameter {name!r}: {problem}")
    return problems


def _value_problem(spec: ParamSpec, value: str | int | bool) -> str | None:
    if spec.kind == "bool":
        return None if isinstance(value, bool) else f"expected true or false, got {value!r}"
    if spec.kind == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            return f"expected a whole number, got {value!r}"
        if not spec.minimum <= value <= spec.maximum:
            return f"{value} is outside {spec.minimum}..{spec.maximum}"
        return None
    if not isinstance(value, str):
        return f"expected a name, got {value!r}"
    if spec.kind == "choice":
        return None if value in spec.choices else f"{value!r} is not one of {', '.join(spec.choices)}"
    if spec.kind == "piece":
        return None if value in PIECES else f"unknown piece {value!r} (known: {', '.join(PIECES)})"
    if value in PIECES or value in PIECE_GROUPS:
        return None
    return (
        f"unknown piece or group {value!r} (pieces: {', '.join(PIECES)}; groups: {', '.join(PIECE_GROUPS)})"
    )


def effect_problems(op_name: str, params: dict[str, str | int | bool], when: str | None = None) -> list[str]:
    """Everything wrong with one effect: its op, its parameters and its ``when`` window."""
    problems = param_problems(op_name, params)
    if when is not None and when not in TIMINGS:
        problems.append(f"unknown timing window {when!r} (known: {', '.join(TIMINGS)})")
    return problems
