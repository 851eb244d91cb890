"""The cooperative Defenders of the Realm heuristic: every decision the game asks, with a reason.

The heroes play as one team. Every decision is taken afresh from the position
(so a plan is re-made whenever dice or the Darkness change things):

- **Team target.** The general the team gathers cards for: the one the team's
  open hands beat most often (exact battle odds, :mod:`.odds`), pulled forward
  when a general nears Monarch City.
- **Daytime.** Each action of the active hero is the first step of the best
  *task*: clear a location's minions (the expected harm they cause, from the
  Darkness cards that name it, :mod:`.threat`), heal a tainted land when
  crystals run short, gather at the target general and attack it once the dice
  make a win likely (a kill is worth more the likelier the general is to enter
  Monarch City within a round), draw cards at an Inn, attempt a cheap quest,
  rest. A task's worth is divided by the actions it takes (walking included;
  the Ranger shoots from next door); the last action of a turn avoids ending
  among minions and seeks a location that gives the hero one more action. A
  hero due at the gathering first spends the actions it can spare on tasks
  from which it is back at the general by the end of its turn.
- **Everything else.** Battles (join, commit, order), special cards and quest
  rewards at their windows, Darkness reactions, the Wizard's redraw, the
  Cleric's Turn Undead, target picks, discards and replacement heroes.

Only what every hero sees is used: hands are open in this co-op game; the
order of the decks is never read (``state.ds_deck.discard_pile`` and the
board's card list give which Darkness cards may still come).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from warhorn.ai.defenders import battle_odds, threat, travel
from warhorn.ai.defenders.threat import board_info
from warhorn.ai.heuristic import Choice
from warhorn.engine import Action, GameState, Rng
from warhorn.games.defenders.actions import (
    AttackGeneral,
    BuildGate,
    ChooseHero,
    Commit,
    CommitDone,
    Discard,
    EndDay,
    Fight,
    Fireball,
    HealLand,
    Join,
    Move,
    NextAttacker,
    Pass,
    Pick,
    PlayCard,
    QuestAction,
    Redraw,
    Rest,
    Rumors,
    Slay,
    TurnChoice,
    TurnUndead,
    UseReward,
)
from warhorn.games.defenders.board import BLACK, COLOURS, MINION_NAMES
from warhorn.games.defenders.rules import combat, hero_actions, quests, turn
from warhorn.games.defenders.rules.darkness import describe_card
from warhorn.games.defenders.state import DefendersState

#: Preferred replacement heroes, best first (more life and stronger general fighting first).
HERO_PREFERENCE = ("sorceress", "cleric", "wizard", "paladin", "dwarf", "ranger", "rogue", "eagle_rider")
#: Worth of defeating a general, in harm points (it also ends that general's advance for good).
GENERAL_WORTH = 60.0
#: Share of the target colour among hero cards (about 21 of 97) used to value card draws.
COLOUR_SHARE = 0.21
SPECIAL_SHARE = 0.15


@dataclass(frozen=True, slots=True)
class Settings:
    """Tunable thresholds (agent spec parameters, e.g. ``heuristic:attack=0.5``)."""

    attack: float = 0.55  # attack a general when the odds reach this
    desperate: float = 0.15  # ... or this when it is one step from Monarch City
    gather: float = 0.6  # the team gathers at the target general once its hands reach this
    hold: float = 0.0  # two generals left: kill the third only once the odds on the last reach this
    heal: float = 0.35  # share of a crystal's harm a heal is worth while more than six crystals are left
    travel: float = 0.0  # team target: odds given up per step the card holders still have to walk
    trip: float = 1.0  # 1: a hero gathered at the target leaves only for a worthwhile task next door
    cards: float = 0.0  # >0: task costs count a horse, eagle or gate card whose worth is low enough
    rumors: float = 0.0  # Rumors at an Inn are worth (1 + 2 * rumors) times the plain estimate
    rally: float = 0.0  # gathering is worth 100 * rally more per hero already waiting at the general
    back: float = 1.0  # 1: a gathered hero leaves only for a task that outscores the walk back to the target
    final: float = 1.0  # the last general's defeat wins the game: it is worth final x LOSS harm points
    archery: float = 1.0  # >0: the Ranger shoots the minions of a connected location (Archery) from where he
    # stands, or steps next to minions two locations away to shoot them
    lore: float = 1.0  # >0: ending the turn where the hero gains an action next turn is worth 10 x lore
    rest: float = 0.5  # >0: a life token regained is worth at least 12 x rest (one more action a turn)
    late: float = 1.0  # >0: the third kill costs late x a round of Late War's extra minion-placing card
    menace: float = 1.0  # >0: a general's defeat also removes its chance of entering Monarch City within
    # `menace` rounds (times LOSS)
    spare: float = 1.0  # >0: a hero due at the gathering first spends the actions it can spare on tasks
    # from which it still reaches the target general this turn
    gates: float = 0.0  # 0: walk only; >0: travel through magic gates and build them, a step saved per
    # average trip being worth 100 * gates harm points


#: Settings whose values may exceed 1 (their upper bound); every other setting lies in 0..1.
UPPER_BOUNDS = {"menace": 4.0}


def parse_settings(params: Mapping[str, str]) -> Settings:
    known = set(Settings.__dataclass_fields__)
    unknown = set(params) - known
    if unknown:
        raise ValueError(
            f"unknown defenders heuristic parameter(s) {', '.join(sorted(unknown))} "
            f"(known: {', '.join(sorted(known))})"
        )
    values: dict[str, float] = {}
    for name, text in params.items():
        upper = UPPER_BOUNDS.get(name, 1.0)
        problem = f"heuristic parameter {name}={text!r} must be a number from 0 to {upper:g}"
        try:
            value = float(text)
        except ValueError:
            raise ValueError(problem) from None
        if not 0.0 <= value <= upper:
            raise ValueError(problem)
        values[name] = value
    return Settings(**values)


class Task(NamedTuple):
    """Something worth actions in Daytime: its worth in harm points, where it is done, why, and the
    action that does it when the hero stands there (None: walk there first)."""

    worth: float
    loc: int
    reason: str
    action: Action | None
    gathering: bool = False  # the walk to the gathering at the target general


@dataclass(frozen=True, slots=True)
class Target:
    """The general the team works toward and its odds with every card the heroes hold."""

    colour: int
    chance: float
    dice: int
    steps: int


def pct(p: float) -> str:
    return f"{p * 100:.0f} %"


class DefendersHeuristic:
    """The ``heuristic`` agent's Defenders player (see the module docstring)."""

    def __init__(self, params: Mapping[str, str] | None = None) -> None:
        self.settings = parse_settings(params or {})
        self._die_cache: tuple[DefendersState, object, list[float]] | None = None
        self._cached_target: Target | None = None
        self._keep: dict[int, str] = {}

    # --- entry point ----------------------------------------------------------------------
    def choose(self, state: GameState, player: int, rng: Rng) -> Choice:
        assert isinstance(state, DefendersState)
        self._cached_target = None
        self._die_cache = None
        self._keep = {}
        decision = state.pending()
        legal = state.legal_actions()
        if decision is None or not legal:
            raise ValueError("the game is over: there is no decision to take")
        if len(legal) == 1:
            return Choice(legal[0], f"{legal[0].notation()}: the only legal action")
        handler = {
            "action": self._daytime,
            "turn_choice": self._turn_choice,
            "choose_hero": self._choose_hero,
            "discard": self._discard,
            "pick": self._pick,
            "join": self._join,
            "commit": self._commit,
            "next_attacker": self._next_attacker,
            "special": self._window,
            "turn_undead": self._turn_undead,
            "wisdom": self._wisdom,
        }.get(decision.kind)
        choice = handler(state, legal) if handler else None
        if choice is None or choice.action not in legal:
            fallback = next((a for a in legal if isinstance(a, Pass | EndDay | CommitDone)), legal[0])
            return Choice(fallback, f"{fallback.notation()}: nothing better to do")
        return choice

    # --- shared judgements ------------------------------------------------------------------
    def target(self, state: DefendersState) -> Target | None:
        """The team's target general: best odds with every hand, nearer the city breaking ties."""
        heroes = [i for i, s in enumerate(state.slots) if s.hero is not None]
        best: tuple[float, Target] | None = None
        for c, g in enumerate(state.generals):
            if g is None or g.loc < 0 or self.held(state, c) is not None:
                continue
            chance, dice = battle_odds.team_chance(state, c, heroes)
            steps = threat.steps_to_city(state, c)
            urgency = {1: 0.5 + 0.15 * state.war, 2: 0.2 + 0.05 * state.war}.get(steps, 0.0)
            score = chance + urgency + 0.002 * dice - self.settings.travel * self.gathering_steps(state, c)
            if best is None or score > best[0]:
                best = (score, Target(c, chance, dice, steps))
        return best[1] if best else None

    def gathering_steps(self, state: DefendersState, colour: int) -> float:
        """Mean actions the holders of cards against ``colour`` still walk to reach it (per card)."""
        g = state.generals[colour]
        if g is None or g.loc < 0:
            return 0.0
        dist = board_info(state.board).dist
        walked = 0.0
        cards = 0
        for i, s in enumerate(state.slots):
            if s.hero is None:
                continue
            n = len(battle_odds.usable_cards(state, i, colour, specials=False))
            if n:
                walked += n * min(6, math.ceil(dist[s.loc][g.loc] / self._speed(state, i)))
                cards += n
        return walked / cards if cards else 0.0

    def held(self, state: DefendersState, colour: int) -> tuple[float, str] | None:
        """Whether the team holds off the third kill: (the odds on the last general, its name) if so.

        Defeating the third general brings Late War (two minion-placing Darkness cards a night
        instead of one), so with ``hold`` set the team waits until its hands beat the other
        remaining general that often, unless this one is within two steps of Monarch City.
        Only the general the team is readier for is held; the other becomes the target.
        """
        if self.settings.hold <= 0.0:
            return None
        alive = state.generals_in_play()
        if len(alive) != 2 or colour not in alive or threat.steps_to_city(state, colour) <= 2:
            return None
        other = alive[0] if alive[1] == colour else alive[1]
        heroes = [i for i, s in enumerate(state.slots) if s.hero is not None]
        chance, _ = battle_odds.team_chance(state, other, heroes)
        if chance >= self.settings.hold:
            return None
        mine, _ = battle_odds.team_chance(state, colour, heroes)
        if (mine, -colour) < (chance, -other):
            return None  # the other one is the team's next kill: only the readier of the two is held
        gd = state.board.general_by_colour[other]
        assert gd is not None
        return chance, gd.name

    @staticmethod
    def is_last(state: DefendersState, colour: int) -> bool:
        """Whether the general of ``colour`` is the only one left (its defeat wins the game)."""
        return state.generals_in_play() == [colour]

    def kill_worth(self, state: DefendersState, colour: int) -> float:
        """Harm points the defeat of the general of ``colour`` is worth.

        :data:`GENERAL_WORTH` for the first three; defeating the last one wins
        the game, so it is worth ``final`` times what losing costs
        (:data:`threat.LOSS`), whatever the board then holds (``final=0``: the
        ordinary worth, the behaviour before this rule).
        """
        if self.settings.final > 0.0 and self.is_last(state, colour):
            return max(GENERAL_WORTH, self.settings.final * threat.LOSS)
        return GENERAL_WORTH

    def stake(self, state: DefendersState, colour: int) -> float:
        """Harm points at stake in defeating the general of ``colour``.

        Its kill's worth (:meth:`kill_worth`); plus, with the ``menace`` setting, the
        expected harm of it entering Monarch City within ``menace`` rounds
        (:func:`threat.general_menace`); less, with the ``late`` setting and two generals
        left, a round of the extra minion-placing Darkness card that Late War draws (the
        mean harm of the unseen cards, once per hero), since this kill would bring it on.
        """
        worth = self.kill_worth(state, colour)
        if self.settings.menace > 0.0:
            worth += threat.general_menace(state, colour, self.settings.menace)
        if self.settings.late > 0.0 and len(state.generals_in_play()) == 2:
            unseen = threat.unseen_darkness(state)
            if unseen:
                extra = sum(threat.card_harm(state, c, "full") for c in unseen) / len(unseen)
                worth -= self.settings.late * len(state.slots) * extra
        return worth

    def die_values(self, state: DefendersState) -> list[float]:
        """Worth of one more battle die against each general (0 for defeated ones).

        A die's share of a kill (its net hit chance over the general's remaining life) times
        the worth of a kill, more for generals near the city, less once the team's hands
        already beat the general nine times in ten.
        """
        # Cached for this very state object (held, so that its id cannot be reused by another state).
        key = (state.turn_no, tuple(len(s.hand) for s in state.slots), state.crystals_left)
        if self._die_cache is not None and self._die_cache[0] is state and self._die_cache[1] == key:
            return self._die_cache[2]
        heroes = [i for i, s in enumerate(state.slots) if s.hero is not None]
        values = [0.0, 0.0, 0.0, 0.0]
        for c, g in enumerate(state.generals):
            gd = state.board.general_by_colour[c]
            if g is None or g.loc < 0 or gd is None:
                continue
            hit = (7 - gd.hit) / 6 - (1 / 6 if gd.has_skill("parry") else 0.0)
            if gd.has_skill("demonic_curse"):
                hit *= 5 / 6
            share = hit / max(1, battle_odds.life_left(state, c))
            steps = threat.steps_to_city(state, c)
            urgency = {1: 1.0, 2: 0.5}.get(steps, 0.0)
            chance, _ = battle_odds.team_chance(state, c, heroes, specials=False)
            saturation = 0.3 if chance >= 0.9 else 1.0
            values[c] = self.kill_worth(state, c) * share * (1.0 + urgency) * saturation
            if self.settings.menace > 0.0:
                values[c] += threat.general_menace(state, c, self.settings.menace) * share * saturation
        self._die_cache = (state, key, values)
        return values

    def card_value(self, state: DefendersState, cid: str, target: Target | None) -> float:
        """How much a hand card is worth keeping: its battle dice (the target's most), specials."""
        card = state.board.cards[cid]
        if card.is_special:
            return 6.0 + card.dice
        colour = COLOURS.index(card.colour)
        value = 0.2 + 0.4 * card.dice * self.die_values(state)[colour]
        if target is not None and target.colour == colour:
            value *= 1.5
        if any(t and state.board.colour_of[i] == colour for i, t in enumerate(state.taint)):
            value += 0.5 if state.crystals_left > 5 else 2.0
        return value

    def use_cost(self, state: DefendersState, cid: str, target: Target | None) -> float:
        """What spending a card of the hand costs (its worth kept)."""
        return self.card_value(state, cid, target)

    # --- Daytime ------------------------------------------------------------------------------
    def _daytime(self, state: DefendersState, legal: list[Action]) -> Choice:
        slot = state.current
        s = state.slots[slot]
        target = self.target(state)
        self._cached_target = target
        free = self._free_play(state, legal, target)
        if free is not None:
            return free
        if s.actions <= 0:
            return Choice(EndDay(), "end the day: no actions left")
        return self._best_action(state, legal, target)

    def _speed(self, state: DefendersState, slot: int) -> int:
        hero = state.slots[slot].hero
        return {"paladin": 2, "eagle_rider": 4}.get(hero or "", 1)

    def _steps(
        self, state: DefendersState, slot: int, to: int, start: int | None = None, teleport: bool = True
    ) -> int:
        """Actions to go from the hero's location to ``to`` (free movement abilities and gates included)."""
        s = state.slots[slot]
        here = s.loc if start is None else start
        if self.settings.gates <= 0:
            d = board_info(state.board).dist[here][to]
            return math.ceil(d / self._speed(state, slot))
        teleport = teleport and s.hero == "wizard" and not s.turn.get("teleported")
        speed = self._speed(state, slot)
        gates = travel.gates_of(state)
        best = travel.trip(state.board, gates, here, to, speed, teleport)
        if self.settings.cards > 0 and slot == state.current and best > 1:
            best = min(best, self._card_trip(state, here, to, best, speed, gates))
        return best

    def _card_trip(
        self, state: DefendersState, here: int, to: int, best: int, speed: int, gates: tuple[int, ...]
    ) -> int:
        """Actions to ``to`` when the active hero spends one cheap horse, eagle or gate card on the way
        (a card is spent only when its worth is under ``cards`` x 4 harm points per action saved)."""
        b = state.board
        dist = board_info(b).dist
        d = dist[here][to]
        target = self._cached_target
        if target is None:
            target = self._cached_target = self.target(state)
        out = best
        for cid in set(state.slots[state.current].hand):
            card = b.cards[cid]
            band = card.band
            if band == "horse" and speed < 2:
                alt = 1 + math.ceil(max(0, d - 2) / speed)
            elif band == "eagle" and speed < 4:
                alt = 1 + math.ceil(max(0, d - 4) / speed)
            elif band == "gate":
                ends = [*gates, *([b.loc(card.location)] if card.location else [])]
                alt = 1 + min((math.ceil(dist[e][to] / speed) for e in ends), default=99)
            else:
                continue
            if alt < out and 0.45 * self.use_cost(state, cid, target) <= 4.0 * self.settings.cards * (
                best - alt
            ):
                out = alt
        return out

    def _best_action(self, state: DefendersState, legal: list[Action], target: Target | None) -> Choice:
        b = state.board
        slot = state.current
        s = state.slots[slot]
        here = s.loc
        tasks: list[Task] = []

        # Minions: clear the locations whose minions threaten most.
        shoots = self.settings.archery > 0 and s.hero == "ranger"
        fights = {b.loc(a.at) for a in legal if isinstance(a, Fight)} if shoots else set()
        for loc in range(len(b.locations)):
            if state.minion_total(loc) == 0:
                continue
            steps = self._steps(state, slot, loc)
            if steps > s.actions + 2 and loc != b.monarch:
                continue
            worth, kills = self._fight_worth(state, slot, loc)
            if worth <= 0:
                continue
            counts = "+".join(f"{n} {MINION_NAMES[c]}" for c, n in enumerate(state.minions[loc]) if n)
            danger = threat.location_danger(state, loc)
            reason = f"clear {counts} at {b.name(loc)}: danger {danger:.1f}, {kills:.1f} kills expected"
            action: Action | None = Fight(b.name(loc)) if loc == here else None
            if loc != here and loc in fights:  # Archery (a legal Fight elsewhere): no step to take
                tasks.append(Task(worth, here, "shoot from here: " + reason, Fight(b.name(loc))))
                continue
            if shoots and board_info(b).dist[here][loc] == 2:
                # one step to a location next to it, preferably free of minions, then shoot
                mid = min(
                    (n for n in b.neighbours(here) if loc in b.neighbours(n)),
                    key=lambda n: (state.minion_total(n), n),
                )
                tasks.append(Task(worth, mid, f"shoot from {b.name(mid)}: " + reason, None))
                continue
            tasks.append(Task(worth, loc, reason, action))

        # Slayer and Fireball: sure or nearly sure kills here.
        for a in legal:
            if isinstance(a, Slay | Fireball):
                worth, what = self._special_kill_worth(state, slot, a, target)
                if worth > 0:
                    tasks.append(Task(worth, here, what, a))

        # Magic gates: build one here when it shortens the team's average trip.
        if self.settings.gates > 0:
            tasks.extend(self._gate_tasks(state, legal, target))

        # Generals: attack when the odds are good; gather at the target when the hands are ready.
        tasks.extend(self._general_tasks(state, slot, target))

        # Taint: heal when the crystals run short.
        tasks.extend(self._heal_tasks(state, slot, target))

        # Cards at an Inn, quests, rest.
        tasks.extend(self._inn_tasks(state, slot, target))
        tasks.extend(self._quest_tasks(state, slot))
        if s.life < s.max_life:
            need = s.max_life - s.life
            urgency = 3.0 if s.life <= 2 else 0.8
            if self.settings.rest > 0:
                urgency = max(urgency, 12.0 * self.settings.rest)
            for loc in [here, b.monarch, *board_info(b).inns]:
                if loc == here:
                    gain = hero_actions.rest_amount(state, slot)
                    if gain <= 0:
                        continue
                else:
                    gain = need
                    if state.generals_at(loc):
                        continue
                reason = f"rest at {b.name(loc)}: {s.life}/{s.max_life} life, +{gain}"
                tasks.append(Task(urgency * gain, loc, reason, Rest() if loc == here else None))

        if self.settings.lore > 0 and s.actions == 1 and not self._extra_action_at(state, slot, here):
            for n in b.neighbours(here):
                if self._extra_action_at(state, slot, n):
                    reason = f"end the turn at {b.name(n)}: one more action next turn"
                    tasks.append(Task(0.0, n, reason, None))  # worth all in the ending bonus (cost 2)
        holding = self._holding(state, slot, target)
        # Gathered at the target, a trip pays only if the task, once there, outscores walking back.
        back = 0.0
        if self.settings.back > 0 and holding is not None and target is not None:
            back = self._gather_worth(state, slot, target)
        due = self._due(state, slot, target) if self.settings.spare > 0 else None
        best: tuple[float, str, Action, bool] | None = None
        returning: tuple[float, str, Action] | None = None  # the best task it is back from in time
        for worth, loc, reason, action, gathering in tasks:
            steps = self._steps(state, slot, loc)
            fits = (
                due is not None
                and not gathering
                and steps + 1 + self._steps(state, slot, due[0], start=loc) + due[1] <= s.actions
            )
            # Gathered at the target general, a hero leaves only for a trip that leaves time to come
            # back; with `trip`, not for a small task next door (it would lose to the trip back once
            # there); with `back`, not when the walk back would outscore the task once there.
            restricted = (
                holding is not None
                and loc != here
                and (
                    (worth < 40.0 and 2 * steps + 1 > s.actions)
                    or (self.settings.trip > 0 and worth < 40.0 and (steps > 1 or worth < 12.0))
                    or (self.settings.back > 0 and worth <= back / (steps + 1))
                )
            )
            if restricted and not fits:
                continue
            cost = steps + 1
            if steps >= s.actions:  # not this turn: later turns are worth less
                worth *= 0.5 ** (1 + (steps - s.actions) // max(1, s.life))
            if action is None:
                action = self._move_towards(state, legal, loc, target)
                if action is None:
                    continue
                reason = f"toward {b.name(loc)} ({steps} step(s)) to {reason}"
            score = worth / cost - self._ending_penalty(state, slot, action)
            if not restricted and (best is None or score > best[0]):
                best = (score, reason, action, gathering)
            if fits and (returning is None or score > returning[0]):
                returning = (score, reason, action)
        if due is not None and returning is not None and returning[0] > 0.05 and returning[2] in legal:
            # Due at the gathering with actions to spare: a task it returns from first, rather than
            # walking there (or waiting there) early.
            heading = best is None or best[0] <= 0.05 or best[3]
            if heading and s.actions > self._steps(state, slot, due[0]) + due[1]:
                score, reason, action = returning
                return Choice(action, f"{reason}, back at the gathering in time (score {score:.1f})")
        if best is not None and best[0] > 0.05 and best[2] in legal:
            return Choice(best[2], f"{best[1]} (score {best[0]:.1f})")
        if holding is not None:
            return Choice(EndDay(), holding)
        return self._idle(state, legal)

    def _due(self, state: DefendersState, slot: int, target: Target | None) -> tuple[int, int] | None:
        """Where the hero is due this turn and the actions it must keep on arriving (``spare``).

        A hero with cards against the target general, once the team gathers there, must stand
        with the general at the end of its turn; it also keeps an action to start the attack
        when its arrival brings the odds of those present to the attack threshold.
        """
        if target is None or target.chance < self._gather_threshold(target):
            return None
        g = state.generals[target.colour]
        if g is None or g.loc < 0 or not battle_odds.usable_cards(state, slot, target.colour):
            return None
        chance, _ = battle_odds.team_chance(state, target.colour, self._attackers(state, slot, g.loc))
        return g.loc, 1 if chance >= self._attack_threshold(target.steps) else 0

    @staticmethod
    def _attackers(state: DefendersState, slot: int, at: int) -> list[int]:
        """The heroes who would fight a general at ``at`` if ``slot`` attacked it there."""
        return [i for i, o in enumerate(state.slots) if o.hero is not None and (o.loc == at or i == slot)]

    def _attack_threshold(self, steps: int) -> float:
        """The odds at which heroes attack a general ``steps`` from Monarch City."""
        return self.settings.desperate if steps <= 1 else self.settings.attack

    def _gather_threshold(self, target: Target) -> float:
        """The team's odds at which heroes gather at the target (lower when it nears the city)."""
        return self.settings.gather - (0.2 if target.steps <= 2 else 0.0)

    def _holding(self, state: DefendersState, slot: int, target: Target | None) -> str | None:
        """Why the hero waits where it stands: it is gathered with the team at the target general."""
        if target is None or target.chance < self._gather_threshold(target):
            return None
        g = state.generals[target.colour]
        s = state.slots[slot]
        if g is None or g.loc != s.loc or not battle_odds.usable_cards(state, slot, target.colour):
            return None
        if threat.end_of_turn_wounds(state, slot, s.loc) >= s.life:
            return None
        gd = state.board.general_by_colour[target.colour]
        assert gd is not None
        return (
            f"wait at {gd.name} for the others: the team's {target.dice} dice give {pct(target.chance)}, "
            f"{len(battle_odds.usable_cards(state, slot, target.colour))} card(s) of mine"
        )

    def _idle(self, state: DefendersState, legal: list[Action]) -> Choice:
        """No task is worth an action: rest if it helps, else step off minions, else end the day."""
        slot = state.current
        s = state.slots[slot]
        if Rest() in legal:
            return Choice(Rest(), f"rest: nothing more useful, {s.life}/{s.max_life} life")
        wounds = threat.end_of_turn_wounds(state, slot, s.loc)
        if wounds:
            safe = self._safe_step(state, legal)
            if safe is not None:
                return Choice(safe, f"{safe.notation()}: avoid {wounds} wound(s) at the end of the turn")
        return Choice(EndDay(), f"end the day: no task worth an action ({s.actions} left)")

    def _safe_step(self, state: DefendersState, legal: list[Action]) -> Action | None:
        b = state.board
        moves = [a for a in legal if isinstance(a, Move) and a.by in ("foot", "noble_steed", "eagle_flight")]
        best = None
        for m in moves:
            loc = b.loc(m.to)
            wounds = threat.end_of_turn_wounds(state, state.current, loc)
            key = (wounds, -threat.location_danger(state, loc))
            if best is None or key < best[0]:
                best = (key, m)
        if best is None or best[0][0] >= threat.end_of_turn_wounds(
            state, state.current, state.slots[state.current].loc
        ):
            return None
        return best[1]

    def _ending_penalty(self, state: DefendersState, slot: int, action: Action) -> float:
        """Harm of ending the turn where this action leaves the hero, if it is the turn's last action,
        less (``lore`` setting) the worth of the extra action that location gives next turn."""
        s = state.slots[slot]
        if s.actions > 1 or isinstance(action, PlayCard | UseReward):
            return 0.0
        penalty = self._wound_penalty(state, slot, action)
        if self.settings.lore > 0:
            loc = state.board.loc(action.to) if isinstance(action, Move) else s.loc
            if self._extra_action_at(state, slot, loc):
                penalty -= 10.0 * self.settings.lore
        return penalty

    @staticmethod
    def _extra_action_at(state: DefendersState, slot: int, loc: int) -> bool:
        """Whether ending the turn at ``loc`` gives the hero one more action next turn (the
        engine's rule, :func:`turn.location_action_bonus`: Mountain Lore, Elf Support)."""
        return turn.location_action_bonus(state, slot, loc) is not None

    def _wound_penalty(self, state: DefendersState, slot: int, action: Action) -> float:
        """Harm of the end-of-turn wounds where this last action leaves the hero."""
        s = state.slots[slot]
        b = state.board
        loc = b.loc(action.to) if isinstance(action, Move) else s.loc
        if isinstance(action, Fight) and b.loc(action.at) == s.loc:
            wounds = self._expected_wounds_after_fight(state, slot, s.loc)
        else:
            wounds = float(threat.end_of_turn_wounds(state, slot, loc))
        life = s.life + (hero_actions.rest_amount(state, slot) if isinstance(action, Rest) else 0)
        if wounds <= 0:
            return 0.0
        if wounds >= life:
            return 50.0
        return wounds * (1.0 + 4.0 / life)

    def _expected_wounds_after_fight(self, state: DefendersState, slot: int, loc: int) -> float:
        chances = self._kill_chances(state, slot, loc)
        return sum(
            pr * threat.end_of_turn_wounds(state, slot, loc, left)
            for pr, left in threat.fight_outcomes(state.minions[loc], chances)
        )

    def _kill_chances(self, state: DefendersState, slot: int, loc: int) -> list[float]:
        out = []
        for c in range(4):
            bonus = hero_actions.minion_bonus(state, slot, c, loc)
            reroll = combat.combat_rerolls(state, slot, c, False)
            out.append(threat.kill_chance(c, bonus, reroll))
        return out

    def _fight_worth(self, state: DefendersState, slot: int, loc: int) -> tuple[float, float]:
        """Expected fall in danger from one Fight at ``loc``, and the expected kills."""
        before = threat.location_danger(state, loc)
        chances = self._kill_chances(state, slot, loc)
        after = 0.0
        kills = 0.0
        total = state.minion_total(loc)
        for pr, left in threat.fight_outcomes(state.minions[loc], chances):
            after += pr * threat.location_danger(state, loc, left)
            kills += pr * (total - sum(left))
        worth = before - after
        s = state.slots[slot]
        if state.generals_at(loc):
            worth += 2.0 * kills  # clears the way to the general
        q = quests.quest_of(state, slot)
        if q is not None and q.kind == "kill":
            worth += 1.0 * sum(
                kills * state.minions[loc][c] / max(1, total) for c in range(4) if COLOURS[c] in q.colours
            )
        if s.hero == "cleric" and state.minions[loc][BLACK]:
            worth += 0.5
        return worth, kills

    def _special_kill_worth(
        self, state: DefendersState, slot: int, action: Slay | Fireball, target: Target | None
    ) -> tuple[float, str]:
        """Fall in danger from Slayer (every minion of a colour, no roll) or Fireball (2+ kills)."""
        s = state.slots[slot]
        here = s.loc
        counts = list(state.minions[here])
        before = threat.location_danger(state, here)
        if isinstance(action, Slay):
            c = COLOURS.index(action.colour)
            killed = counts[c]
            counts[c] = 0
            worth = before - threat.location_danger(state, here, counts)
            return (
                worth,
                f"Slayer kills {killed} {MINION_NAMES[c]}(s) here without rolling (danger {before:.1f})",
            )
        outcomes = threat.fight_outcomes(counts, [5 / 6] * 4)
        after = sum(pr * threat.location_danger(state, here, left) for pr, left in outcomes)
        cost = 0.3 * self.card_value(state, action.card, target)
        return (
            before - after - cost,
            f"Fireball on {sum(counts)} minion(s) here: 83 % each (danger {before:.1f})",
        )

    def _general_tasks(self, state: DefendersState, slot: int, target: Target | None) -> list[Task]:
        b = state.board
        s = state.slots[slot]
        out: list[Task] = []
        for c, g in enumerate(state.generals):
            if g is None or g.loc < 0 or self.held(state, c) is not None:
                continue  # held: the third kill waits until the team is ready for the last general
            gd = b.general_by_colour[c]
            assert gd is not None
            present = self._attackers(state, slot, g.loc)
            chance, dice = battle_odds.team_chance(state, c, present)
            steps = threat.steps_to_city(state, c)
            threshold = self._attack_threshold(steps)
            life = battle_odds.life_left(state, c)
            if dice > 0 and chance >= threshold:
                clear = state.minion_total(g.loc)
                worth = chance * self.stake(state, c) - (1 - chance) * 12.0
                worth += 20.0 if steps <= 1 else 0.0
                reason = (
                    f"attack {gd.name} with {dice} dice: {pct(chance)} to defeat "
                    f"(needs {life} hits at {gd.hit}+)"
                )
                if clear:
                    worth *= 0.7
                    reason = f"clear {clear} minion(s) guarding {gd.name}, then " + reason
                    continue_action: Action | None = Fight(b.name(g.loc)) if g.loc == s.loc else None
                else:
                    continue_action = AttackGeneral() if g.loc == s.loc else None
                out.append(Task(worth, g.loc, reason, continue_action))
            elif (
                target is not None and target.colour == c and target.chance >= self._gather_threshold(target)
            ):
                mine = len(battle_odds.usable_cards(state, slot, c))
                if mine == 0:
                    continue
                if g.loc == s.loc:
                    if state.minion_total(g.loc):
                        action: Action | None = Fight(b.name(g.loc))
                        worth = 10.0
                        if self.settings.menace > 0:
                            worth *= self.stake(state, c) / GENERAL_WORTH
                    else:
                        continue  # waiting here: nothing to do for the gathering
                else:
                    action = None
                    worth = self._gather_worth(state, slot, target)
                reason = (
                    f"gather at {gd.name} ({b.name(g.loc)}): the team's {target.dice} dice give "
                    f"{pct(target.chance)} (here now: {pct(chance)})"
                )
                out.append(Task(worth, g.loc, reason, action, gathering=action is None))
        return out

    def _gather_worth(self, state: DefendersState, slot: int, target: Target) -> float:
        """Harm points of bringing this hero's cards to the gathering at the target general."""
        mine = len(battle_odds.usable_cards(state, slot, target.colour))
        worth = 14.0 + 3.0 * mine + (10.0 if target.steps <= 2 else 0.0)
        worth *= self.stake(state, target.colour) / GENERAL_WORTH
        g = state.generals[target.colour]
        assert g is not None
        waiting = sum(1 for o in state.slots if o.hero is not None and o.loc == g.loc)
        return worth + 100.0 * self.settings.rally * waiting

    def _gate_tasks(self, state: DefendersState, legal: list[Action], target: Target | None) -> list[Task]:
        """Build a magic gate here (DEF-ACT-06): worth the steps it saves on an average trip."""
        out: list[Task] = []
        s = state.slots[state.current]
        here = s.loc
        b = state.board
        if state.gate_supply <= 0:
            return out
        # Elsewhere: walk to a location whose card the hero holds and build there.
        for cid in sorted(set(s.hand)):
            held = b.cards[cid]
            if held.location is None or held.is_special:
                continue
            loc = b.loc(held.location)
            if loc == here or state.gates[loc]:
                continue
            gain = travel.gate_gain(state, loc)
            worth = gain * 100.0 * self.settings.gates - self.use_cost(state, cid, target)
            if worth > 0:
                reason = (
                    f"build a magic gate at {held.location} with {cid}: "
                    f"the average trip {gain:.2f} step(s) shorter"
                )
                out.append(Task(worth, loc, reason, None))
                self._keep[loc] = cid  # the walk there must not spend the card the gate needs
        builds = [a for a in legal if isinstance(a, BuildGate)]
        if not builds:
            return out
        gain = travel.gate_gain(state, here)
        if gain <= 0:
            return out
        card = min((a.card for a in builds), key=lambda c: self.use_cost(state, c, target))
        cost = self.use_cost(state, card, target)
        worth = gain * 100.0 * self.settings.gates - cost
        gates = len(travel.gates_of(state))
        reason = (
            f"build a magic gate at {state.board.name(here)} with {card}: the average trip "
            f"{gain:.2f} step(s) shorter ({gates} gate(s) on the board)"
        )
        out.append(Task(worth, here, reason, BuildGate(card)))
        return out

    def _heal_tasks(self, state: DefendersState, slot: int, target: Target | None) -> list[Task]:
        b = state.board
        s = state.slots[slot]
        out: list[Task] = []
        if not any(state.taint):
            return out
        share = 1.0 if state.crystals_left <= 6 else self.settings.heal
        gain = threat.crystal_cost(state.crystals_left + 1) * share
        chance = hero_actions.heal_chance(state, slot, with_card=True)
        sanctify_chance = hero_actions.heal_chance(state, slot, with_card=False)
        for loc, t in enumerate(state.taint):
            if not t:
                continue
            colour = b.colour_of[loc]
            cards = [c for c in s.hand if b.cards[c].colour == COLOURS[colour]] if colour >= 0 else []
            sanctify = s.hero == "cleric" and state.minion_total(loc) == 0
            if not cards and not sanctify:
                continue
            if cards:
                cheapest = min(cards, key=lambda c: self.use_cost(state, c, target))
                cost = self.use_cost(state, cheapest, target)
                worth = chance * gain - 0.3 * cost
                action: Action | None = HealLand(cheapest) if loc == s.loc else None
            else:
                worth = sanctify_chance * gain
                action = HealLand(None) if loc == s.loc else None
            if worth <= 0:
                continue
            reason = (
                f"heal {b.name(loc)} ({t} crystal(s), {state.crystals_left} left in the box): "
                f"{pct(chance if cards else sanctify_chance)} per try"
            )
            out.append(Task(worth, loc, reason, action))
        return out

    def _inn_tasks(self, state: DefendersState, slot: int, target: Target | None) -> list[Task]:
        if target is None:
            return []
        b = state.board
        s = state.slots[slot]
        used = s.turn.get("rumors", 0)
        if used >= 2 or len(s.hand) >= 9:
            return []
        per_token = 5 if s.hero == "rogue" else 2
        worth_per_card = COLOUR_SHARE * 3.0 * 1.1 + SPECIAL_SHARE * 6.0
        out: list[Task] = []
        values = self.die_values(state)
        colour = COLOURS[max(range(4), key=lambda c: values[c])]
        for inn in board_info(b).inns:
            tokens = (
                min(2 - used, s.actions - self._steps(state, slot, inn))
                if inn != s.loc
                else min(2 - used, s.actions)
            )
            if tokens <= 0:
                tokens = 1
            worth = per_token * tokens * worth_per_card * (1.0 + 2.0 * self.settings.rumors)
            if target.chance < 0.3:
                worth *= 1.3
            reason = (
                f"Rumors at {b.name(inn)} for {colour} cards "
                f"({tokens} token(s), {per_token * tokens} draws): "
                f"team odds on the target now {pct(target.chance)}"
            )
            action: Action | None = Rumors(colour, tokens) if inn == s.loc else None
            out.append(Task(worth / tokens, inn, reason, action))
        return out

    def _quest_tasks(self, state: DefendersState, slot: int) -> list[Task]:
        b = state.board
        s = state.slots[slot]
        q = quests.quest_of(state, slot)
        if q is None:
            return []
        out: list[Task] = []
        worth = {"boots": 14.0, "amulet": 14.0, "crystal_any": 9.0, "crystal_here": 9.0, "helm": 10.0}.get(
            q.reward, 7.0
        )
        if q.kind == "roll" and q.location:
            dice = q.dice + (1 if s.hero == "sorceress" else 0)
            chance = 1 - (1 - (7 - q.need) / 6) ** dice
            loc = b.loc(q.location)
            reason = f"quest {q.name} at {q.location}: {pct(chance)} with {dice} dice at {q.need}+"
            penalty = 0.5 if q.fail_discard else 1.0
            out.append(Task(worth * chance * penalty, loc, reason, QuestAction() if loc == s.loc else None))
        elif q.kind == "visit":
            left = [x for x in q.locations if x not in s.quest_progress]
            for name in left:
                loc = b.loc(name)
                reason = f"quest {q.name}: {name} ({len(left)} of {len(q.locations)} left)"
                out.append(Task(worth / len(left), loc, reason, QuestAction() if loc == s.loc else None))
        elif q.kind == "scout":
            g = state.generals[COLOURS.index(q.colours[0])]
            if g is not None and g.loc >= 0 and state.minion_total(g.loc) == 0:
                reason = f"quest {q.name} at {b.name(g.loc)}"
                out.append(Task(worth * 0.8, g.loc, reason, QuestAction() if g.loc == s.loc else None))
        elif q.kind == "inns":
            left = [x for x in q.locations if x not in s.quest_progress]
            for name in left:
                reason = f"quest {q.name}: visit {name} ({len(left)} inn(s) left)"
                out.append(Task(worth / len(left), b.loc(name), reason, None))
        return out

    def _move_towards(
        self, state: DefendersState, legal: list[Action], dest: int, target: Target | None
    ) -> Action | None:
        """The legal move that brings the hero nearest ``dest``, spending cheap cards only to save steps."""
        b = state.board
        dist = board_info(b).dist
        here = state.slots[state.current].loc
        gated = self.settings.gates > 0
        now = self._steps(state, state.current, dest) if gated else dist[here][dest]
        best: tuple[float, Action] | None = None
        keep = self._keep.get(dest)
        for a in legal:
            if not isinstance(a, Move) or (keep is not None and a.card == keep):
                continue
            if gated:  # actions still needed from there (a teleport is spent once used)
                d = self._steps(state, state.current, dest, b.loc(a.to), a.by != "teleport") + 1
            else:
                d = dist[b.loc(a.to)][dest]
            if d >= now + (1 if gated else 0):
                continue
            cost = d * 1.0
            if a.card:
                cost += 0.45 * self.use_cost(state, a.card, target)
            cost += 0.01 * threat.end_of_turn_wounds(state, state.current, b.loc(a.to))
            if best is None or cost < best[0]:
                best = (cost, a)
        return best[1] if best else None

    # --- free plays during Daytime ------------------------------------------------------------
    def _free_play(self, state: DefendersState, legal: list[Action], target: Target | None) -> Choice | None:
        best: tuple[float, Choice] | None = None
        for a in legal:
            if isinstance(a, PlayCard | UseReward):
                worth, reason = self._play_worth(state, a, "day", target)
                if worth > 0 and (best is None or worth > best[0]):
                    best = (worth, Choice(a, reason))
        return best[1] if best else None

    def _night_harm(self, state: DefendersState) -> float:
        """Expected harm of tonight's Darkness cards (average over the cards that may come)."""
        from warhorn.games.defenders.rules.darkness import MODES_BY_WAR

        unseen = threat.unseen_darkness(state)
        if not unseen:
            return 0.0
        total = 0.0
        for mode in MODES_BY_WAR[state.war]:
            total += sum(threat.card_harm(state, c, mode) for c in unseen) / len(unseen)
        return total

    def _play_worth(
        self, state: DefendersState, a: Action, window: str, target: Target | None
    ) -> tuple[float, str]:
        """Worth of a special card or held reward now (minus what the card is worth kept), and why."""
        b = state.board
        if isinstance(a, UseReward):
            return self._reward_worth(state, a, window)
        assert isinstance(a, PlayCard)
        card = b.cards[a.card]
        effect = card.special
        keep = 0.6 * self.card_value(state, a.card, target)
        if effect == "battle_fury":
            s = state.slots[state.current]
            danger = threat.location_danger(state, s.loc)
            worth = danger + 2.0 * state.minion_total(s.loc) - keep
            return (
                worth,
                f"Battle Fury clears {state.minion_total(s.loc)} minion(s) at {b.name(s.loc)} "
                f"(danger {danger:.1f})",
            )
        if effect == "magic_gate" and self.settings.gates > 0 and a.targets:
            loc = b.loc(a.targets[0])
            gain = travel.gate_gain(state, loc)
            worth = gain * 100.0 * self.settings.gates - keep
            return worth, f"Magic Gate at {a.targets[0]}: the average trip {gain:.2f} step(s) shorter"
        if effect == "hammer_of_valor" and self.settings.gates > 0 and len(a.targets) == 2:
            return self._hammer_worth(state, a, target, keep)
        if effect == "spell_of_purity":
            loc = b.loc(a.targets[0])
            worth = state.taint[loc] * threat.crystal_cost(state.crystals_left + 1) - keep - 4.0
            if state.crystals_left > 6:
                worth -= 6.0
            return (
                worth,
                f"Spell of Purity: {state.taint[loc]} crystal(s) off {a.targets[0]} "
                f"({state.crystals_left} left)",
            )
        if effect == "elven_archers":
            locs = [b.loc(t) for t in a.targets]
            danger = sum(threat.location_danger(state, i) for i in locs)
            return danger - keep - 3.0, f"Elven Archers clear {', '.join(a.targets)} (danger {danger:.1f})"
        if effect == "kings_guard":
            near = [b.monarch, *b.neighbours(b.monarch)]
            danger = sum(threat.location_danger(state, i) for i in near)
            return danger * 0.6 - keep - 6.0, f"King's Guard near Monarch City (danger {danger:.1f})"
        if effect == "cavalry_sweep":
            top = sorted((threat.location_danger(state, i) for i in range(len(b.locations))), reverse=True)[
                :3
            ]
            return sum(
                top
            ) * 0.6 - keep - 6.0, f"Cavalry Sweep on the worst locations (danger {sum(top):.1f})"
        if effect == "battle_strategy":
            top = sorted((threat.location_danger(state, i) for i in range(len(b.locations))), reverse=True)[
                :3
            ]
            nearest = min(threat.steps_to_city(state, c) for c in range(4))
            worth = sum(top) * 0.5 + (40.0 if nearest <= 1 else 0.0) - keep - 25.0
            return (
                worth,
                f"Battle Strategy: clear 3 locations (danger {sum(top):.1f}), "
                f"push a general {nearest} step(s) out",
            )
        if effect == "local_information":
            if target is None:
                return -1.0, ""
            worth = 5 * (COLOUR_SHARE * 3.0 + SPECIAL_SHARE * 6.0) - keep
            return worth, f"Local Information: 5 draws for {COLOURS[target.colour]} cards"
        if effect in ("all_is_quiet", "dark_visions") and window == "night":
            harm = self._night_harm(state)
            factor = 1.0 if effect == "all_is_quiet" else 0.6
            return (
                harm * factor - keep - 10.0,
                f"{card.name}: tonight's cards threaten {harm:.1f} harm points",
            )
        if effect in ("militia", "strong_defenses") and window == "card":
            return self._reaction_worth(state, a.targets[0] if a.targets else "general", keep, card.name)
        return -1.0, ""

    def _hammer_worth(
        self, state: DefendersState, a: PlayCard, target: Target | None, keep: float
    ) -> tuple[float, str]:
        """Hammer of Valor: carry a hero holding cards against the target to the gathering."""
        if target is None or target.chance < self._gather_threshold(target):
            return -1.0, ""
        g = state.generals[target.colour]
        b = state.board
        if g is None or g.loc < 0 or b.loc(a.targets[1]) != g.loc:
            return -1.0, ""
        who = state.slot_of(a.targets[0])
        mine = len(battle_odds.usable_cards(state, who, target.colour))
        if mine == 0 or state.slots[who].loc == g.loc:
            return -1.0, ""
        saved = self._steps(state, who, g.loc, state.slots[who].loc, teleport=False)
        return (
            4.0 * saved + mine - keep - 2.0,
            f"Hammer of Valor: {a.targets[0]} with {mine} card(s) to {a.targets[1]}, {saved} step(s) saved "
            f"(team odds {pct(target.chance)})",
        )

    def _reaction_worth(self, state: DefendersState, what: str, keep: float, name: str) -> tuple[float, str]:
        n = state.night
        if n is None or n.card is None:
            return -1.0, ""
        before = threat.card_harm(state, n.card, n.mode, n.cancelled)
        after = threat.card_harm(state, n.card, n.mode, [*n.cancelled, what])
        saved = before - after
        if saved < threat.LOSS / 2:
            saved -= 8.0  # keep the card for a card that would lose the game
        return saved - keep - 4.0, f"{name} cancels {what} on {n.card}: saves {saved:.1f} harm points"

    def _reward_worth(self, state: DefendersState, a: UseReward, window: str) -> tuple[float, str]:
        b = state.board
        q = b.quest_by_id[a.reward]
        if q.reward in ("crystal_any", "crystal_here"):
            worth = threat.crystal_cost(state.crystals_left + 1) - (8.0 if state.crystals_left > 5 else 0.0)
            return worth, f"{q.name}: remove a crystal ({state.crystals_left} left in the box)"
        if q.reward == "skip_night" and window == "night":
            harm = self._night_harm(state)
            return harm - 12.0, f"{q.name}: tonight's cards threaten {harm:.1f} harm points"
        if q.reward in ("stop_general", "cancel_colour") and window == "card":
            return self._reaction_worth(state, a.target or "general", 3.0, q.name)
        if q.reward == "ward" and window == "day":
            s = state.slots[state.current]
            wounds = threat.end_of_turn_wounds(state, state.current, s.loc)
            if s.actions <= 1 and wounds >= 2:
                return wounds * 1.5, f"{q.name}: no end-of-turn wounds ({wounds} due)"
        return -1.0, ""

    # --- other decisions ---------------------------------------------------------------------
    def _window(self, state: DefendersState, legal: list[Action]) -> Choice:
        w = state.window
        window = w.kind if w is not None else "night"
        target = self.target(state)
        best: tuple[float, Choice] | None = None
        for a in legal:
            if isinstance(a, PlayCard | UseReward):
                worth, reason = self._play_worth(state, a, window, target)
                if worth > 0 and (best is None or worth > best[0]):
                    best = (worth, Choice(a, reason))
        if best is not None:
            return best[1]
        harm = self._night_harm(state) if window == "night" else 0.0
        return Choice(Pass(), f"pass: no play worth its card (tonight ~{harm:.1f} harm points expected)")

    def _turn_choice(self, state: DefendersState, legal: list[Action]) -> Choice:
        s = state.slots[state.current]
        b = state.board
        if s.hero == "eagle_rider":
            g = state.general_at(s.loc)
            if g is not None and battle_odds.usable_cards(state, state.current, g):
                return Choice(TurnChoice("ground"), "ground: re-roll failed dice against the general here")
            return Choice(TurnChoice("sky"), "sky: no wounds at the end of the turn")
        # Sorceress: take the shape of the colour most present around her, unless she needs the city.
        if s.life <= 2:
            return Choice(TurnChoice("none"), f"no shape: {s.life} life, may need to rest in a city or Inn")
        near = [s.loc, *b.neighbours(s.loc)]
        counts = [sum(state.minions[i][c] for i in near) for c in range(4)]
        best = max(range(4), key=lambda c: counts[c])
        if counts[best] == 0:
            return Choice(TurnChoice("none"), "no shape: no minions within one step")
        return Choice(
            TurnChoice(COLOURS[best]),
            f"{COLOURS[best]} shape: {counts[best]} {MINION_NAMES[best]}(s) within one step (+2 to hit them)",
        )

    def _choose_hero(self, state: DefendersState, legal: list[Action]) -> Choice:
        names = [a.hero for a in legal if isinstance(a, ChooseHero)]
        for hero in HERO_PREFERENCE:
            if hero in names:
                life = state.board.hero_by_id[hero].life
                return Choice(
                    ChooseHero(hero), f"{hero}: {life} life, first free hero in the team's preference"
                )
        return Choice(legal[0], "the first free hero")

    def _discard(self, state: DefendersState, legal: list[Action]) -> Choice:
        target = self.target(state)
        best = min(
            (a for a in legal if isinstance(a, Discard)), key=lambda a: self.card_value(state, a.card, target)
        )
        value = self.card_value(state, best.card, target)
        goal = f" (target {COLOURS[target.colour]})" if target else ""
        return Choice(best, f"discard {best.card}: least useful card, worth {value:.1f}{goal}")

    def _pick(self, state: DefendersState, legal: list[Action]) -> Choice:
        p = state.picking
        b = state.board
        assert p is not None
        picks = [a for a in legal if isinstance(a, Pick)]
        if p.stage == "minion":
            best = None
            for a in picks:
                loc = b.loc(a.where)
                c = COLOURS.index(a.what)
                left = list(state.minions[loc])
                left[c] -= 1
                gain = threat.location_danger(state, loc) - threat.location_danger(state, loc, left)
                if best is None or gain > best[0]:
                    best = (gain, a)
            if best is not None:
                return Choice(
                    best[1],
                    f"remove a {MINION_NAMES[COLOURS.index(best[1].what)]} at {best[1].where}: "
                    f"danger -{best[0]:.1f}",
                )
        elif p.stage == "location" and picks:
            best_loc = max(picks, key=lambda a: threat.location_danger(state, b.loc(a.where)))
            danger = threat.location_danger(state, b.loc(best_loc.where))
            return Choice(best_loc, f"clear {best_loc.where}: danger {danger:.1f}, the highest")
        elif p.stage == "general" and picks:
            nearest = min(picks, key=lambda a: threat.steps_to_city(state, COLOURS.index(a.where)))
            steps = threat.steps_to_city(state, COLOURS.index(nearest.where))
            return Choice(
                nearest, f"push the {nearest.where} general back: {steps} step(s) from Monarch City"
            )
        elif p.stage == "to" and picks:
            return Choice(picks[0], f"{picks[0].notation()}")
        elif p.stage == "discard":
            harms = [(threat.card_harm(state, a.where, "full"), a) for a in picks]
            harms.sort(key=lambda x: -x[0])
            if harms and harms[0][0] > 3.0:
                return Choice(harms[0][1], f"discard {harms[0][1].where}: {harms[0][0]:.1f} harm points")
        elif p.stage == "order" and picks:
            least = min(picks, key=lambda a: threat.card_harm(state, a.where, "full"))
            harm = threat.card_harm(state, least.where, "full")
            return Choice(least, f"put {least.where} on top: least harmful ({harm:.1f})")
        if Pass() in legal:
            return Choice(Pass(), "pass: no pick worth it")
        return Choice(legal[0], legal[0].notation())

    def _join(self, state: DefendersState, legal: list[Action]) -> Choice:
        bt = state.battle
        assert bt is not None
        who = bt.to_ask[0]
        gd = state.board.general_by_colour[bt.general]
        assert gd is not None
        with_me, _ = battle_odds.team_chance(state, bt.general, [*bt.participants, who, *bt.to_ask[1:]])
        without, _ = battle_odds.team_chance(state, bt.general, [*bt.participants, *bt.to_ask[1:]])
        mine = len(battle_odds.usable_cards(state, who, bt.general))
        if mine and with_me > without + 0.01:
            return Choice(
                Join(state.slots[who].hero or ""),
                f"join against {gd.name} with {mine} card(s): {pct(without)} -> {pct(with_me)}",
            )
        if with_me >= 0.75:
            return Choice(
                Join(state.slots[who].hero or ""),
                f"join against {gd.name} for the 3-card reward: {pct(with_me)} to win, no cards of mine",
            )
        return Choice(Pass(), f"stay out: no cards against {gd.name} ({pct(without)} without me)")

    def _commit(self, state: DefendersState, legal: list[Action]) -> Choice:
        bt = state.battle
        assert bt is not None
        who = bt.commit_queue[0]
        gd = state.board.general_by_colour[bt.general]
        assert gd is not None
        chance, dice = self._battle_chance(state)
        for a in legal:  # reward dice and Battle Luck first: they only help
            if isinstance(a, UseReward) and chance < 0.99:
                return Choice(a, f"spend {a.reward} for 2 more dice against {gd.name} ({pct(chance)} so far)")
        commits = [a for a in legal if isinstance(a, Commit)]
        plain = [a for a in commits if not state.board.cards[a.card].is_special]
        if plain:
            a = max(plain, key=lambda x: state.board.cards[x.card].dice)
            return Choice(a, f"commit {a.card} against {gd.name}: {dice} dice, {pct(chance)} with every card")
        plays = [a for a in legal if isinstance(a, PlayCard)]
        if plays and chance < 0.95:
            return Choice(
                plays[0], f"Battle Luck: re-roll failed dice against {gd.name} ({pct(chance)} without)"
            )
        specials = [a for a in commits if state.board.cards[a.card].is_special]
        committed = self._committed_chance(state)
        if specials and committed < 0.8:
            a = max(specials, key=lambda x: state.board.cards[x.card].dice)
            return Choice(
                a, f"commit special {a.card} for its dice: only {pct(committed)} with the plain cards"
            )
        return Choice(
            CommitDone(state.slots[who].hero or ""), f"done committing: {pct(committed)} to defeat {gd.name}"
        )

    def _battle_chance(self, state: DefendersState) -> tuple[float, int]:
        """Odds if every participant commits every usable card (the committed ones included)."""
        bt = state.battle
        assert bt is not None
        from warhorn.ai.defenders.odds import defeat_chance

        skill_off = battle_odds.blessed(state, bt.participants)
        attackers = []
        for p in bt.participants:
            if p in bt.rolled:
                continue
            cards = [*bt.committed.get(p, []), *battle_odds.usable_cards(state, p, bt.general)]
            extra = bt.extra_dice.get(p, 0) + battle_odds.reward_dice(state, p)
            attackers.append(
                battle_odds.attacker(state, p, bt.general, cards, extra_dice=extra, skill_off=skill_off)
            )
        life = battle_odds.hits_still_needed(state)
        return defeat_chance(attackers, life, battle_odds.parries(state, bt.general, bt.participants)), sum(
            a.dice for a in attackers
        )

    def _committed_chance(self, state: DefendersState) -> float:
        """Odds with the cards committed so far, plus every usable card of those still to commit."""
        bt = state.battle
        assert bt is not None
        from warhorn.ai.defenders.odds import defeat_chance

        skill_off = battle_odds.blessed(state, bt.participants)
        attackers = []
        for p in bt.participants:
            cards = list(bt.committed.get(p, []))
            if p in bt.commit_queue[1:]:
                cards += battle_odds.usable_cards(state, p, bt.general, specials=False)
            attackers.append(
                battle_odds.attacker(
                    state, p, bt.general, cards, extra_dice=bt.extra_dice.get(p, 0), skill_off=skill_off
                )
            )
        life = battle_odds.hits_still_needed(state)
        return defeat_chance(attackers, life, battle_odds.parries(state, bt.general, bt.participants))

    def _next_attacker(self, state: DefendersState, legal: list[Action]) -> Choice:
        bt = state.battle
        assert bt is not None
        from warhorn.games.defenders.rules.battle import dice_of

        best = max(
            (a for a in legal if isinstance(a, NextAttacker)),
            key=lambda a: dice_of(state, state.slot_of(a.hero)),
        )
        n = dice_of(state, state.slot_of(best.hero))
        left = battle_odds.life_left(state, bt.general)
        return Choice(best, f"{best.hero} rolls next with {n} dice ({left} hits still needed)")

    def _turn_undead(self, state: DefendersState, legal: list[Action]) -> Choice:
        b = state.board
        best: tuple[float, Action] | None = None
        for a in legal:
            if isinstance(a, TurnUndead):
                harm = threat.placement_harm(state, b.loc(a.to), BLACK, 1)
                if best is None or harm < best[0]:
                    best = (harm, a)
        assert best is not None and isinstance(best[1], TurnUndead)  # every undead must go
        return Choice(best[1], f"drive an undead to {best[1].to}: {best[0]:.1f} harm there, the least")

    def _wisdom(self, state: DefendersState, legal: list[Action]) -> Choice:
        n = state.night
        assert n is not None and n.card is not None
        harm = threat.card_harm(state, n.card, n.mode, n.cancelled)
        unseen = [c for c in threat.unseen_darkness(state) if c != n.card]
        average = sum(threat.card_harm(state, c, n.mode) for c in unseen) / max(1, len(unseen))
        if harm > average + 2.0:
            return Choice(
                Redraw(),
                f"redraw the card ({describe_card(state, n.card)}): {harm:.1f} harm points"
                f" against {average:.1f} on average",
            )
        return Choice(
            Pass(),
            f"keep the card ({describe_card(state, n.card)}): {harm:.1f} harm points,"
            f" the average card is {average:.1f}",
        )


__all__ = ["DefendersHeuristic", "Settings", "Target", "parse_settings"]
