"""The Small World of Warcraft heuristic: every decision the game asks, with a reason in numbers.

- **Combo.** Each visible combo is worth its tokens plus the coins lying on it minus its price,
  with a small bonus for powers that pay every turn; the best is taken.
- **Decline or conquer.** The turn's conquests are planned greedily (cheapest good region
  first, with the tokens in hand); the race goes into decline when that plan gains fewer
  regions than ``decline_below`` and it has played at least one turn, except in the last round.
- **Conquests.** Each legal conquest is worth 1 coin for the region, plus what it pays this
  turn (the power's terrain, magic for Blood Elves, a faction bonus not yet earned, Orcs,
  Battle Master, Enraged, artifacts and places), minus 0.6 per token it takes; abilities that
  save tokens (Champion, Frostmourne) are used when they do. With no affordable region left, a
  final conquest is tried when its odds from the die (0,0,0,1,2,3) reach ``final_odds``.
- **Redeployment.** Tokens go to the region with the most borders to regions that are not
  ours (the likeliest to be attacked); the same for the tokens a defender takes back.
- **Markers.** The Aegis goes to the most exposed region, the Heart of Azeroth beside the most
  opponent regions, Military Objectives next to our own regions.

Only what the deciding player sees is read: its own coins, the board, the column.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from warhorn.ai.heuristic import Choice
from warhorn.engine import Action, GameState, Rng
from warhorn.games.smallworld.actions import (
    Bomb,
    Conquer,
    Decline,
    Deploy,
    Done,
    EndConquests,
    Form,
    Intimidate,
    Objective,
    Pick,
    PlaceArtifact,
    Portal,
    Recruit,
    Reinforce,
    Side,
    Steal,
)
from warhorn.games.smallworld.rules import conquest_cost, power_payments
from warhorn.games.smallworld.scoring import OPPOSITE, REGION_POWERS, faction_bonus
from warhorn.games.smallworld.state import MURLOCS, SmallWorldState, Stage

#: Chance that the die (faces 0,0,0,1,2,3) makes up at least ``short`` tokens.
DIE_ODDS = {1: 3 / 6, 2: 2 / 6, 3: 1 / 6}
#: Coins a once-per-turn conquest ability is worth keeping for a later conquest this turn.
ABILITY_COST = 0.3
#: Powers that pay each turn (worth a little more when picking).
INCOME_POWERS = {*REGION_POWERS, "explorer", "archaeologist", "battle_master", "enraged"}


@dataclass(frozen=True)
class Settings:
    token_cost: float = 0.6  # coins one token is worth when spent on a conquest
    decline_below: int = 2  # decline when the turn's plan gains fewer regions than this
    final_odds: float = 0.3  # try a final conquest at these odds or better

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> Settings:
        known = {"token_cost": float, "decline_below": int, "final_odds": float}
        values: dict[str, float | int] = {}
        for name, text in params.items():
            if name not in known:
                raise ValueError(
                    f"unknown Small World heuristic setting {name!r} (known: {', '.join(known)})"
                )
            try:
                values[name] = known[name](text)
            except ValueError:
                raise ValueError(f"setting {name!r}: not a number: {text!r}") from None
        return cls(**values)  # type: ignore[arg-type]


class SmallWorldHeuristic:
    """The hand-written player (factory: :func:`make_heuristic`)."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()

    def choose(self, state: GameState, player: int, rng: Rng) -> Choice:
        assert isinstance(state, SmallWorldState)
        legal = state.legal_actions()
        stage = state.stage
        if stage is Stage.PICK:
            return self._pick(state, player, legal)
        if stage is Stage.FORM:
            return Choice(Form("human"), "human form: 2 coins now")
        if stage is Stage.CONQUER:
            return self._conquer(state, player, legal)
        if stage is Stage.RECRUIT:
            best = max((a for a in legal if isinstance(a, Recruit)), key=lambda a: a.count)
            spend = best.count if state.players[player].coins >= best.count + 3 else 0
            return Choice(Recruit(spend), f"recruits {spend} Forsaken token(s) at 1 coin each")
        if stage in (Stage.REDEPLOY, Stage.DEFEND):
            return self._deploy(state, player, legal)
        if stage is Stage.PLACE:
            return self._place(state, player, legal)
        if stage is Stage.OBJECTIVE:
            return self._objective(state, player, legal)
        if stage is Stage.BOMB:
            return self._bomb(state, player, legal)
        if stage is Stage.SIDE:
            return self._side(state, player)
        return Choice(legal[0], "the only kind of move")

    # --- combos ------------------------------------------------------------------------
    def _pick(self, s: SmallWorldState, p: int, legal: list[Action]) -> Choice:
        best: tuple[float, Pick, str] | None = None
        for action in legal:
            assert isinstance(action, Pick)
            race, power, coins = s.combos()[action.index]
            tokens = s.content.races[race].banner + s.content.powers[power].badge
            worth = tokens + coins - action.index + (1.5 if power in INCOME_POWERS else 0.0)
            why = (
                f"takes {s.content.powers[power].name} {s.content.races[race].name}: {tokens} tokens, "
                f"pays {action.index}, collects {coins} (worth {worth:.1f})"
            )
            if best is None or worth > best[0]:
                best = (worth, action, why)
        assert best is not None
        return Choice(best[1], best[2])

    # --- conquests ---------------------------------------------------------------------
    def _gain(self, s: SmallWorldState, p: int, rid: str) -> float:
        """Coins a conquest of ``rid`` brings this turn (the region's coin included)."""
        tribe = s.players[p].active
        assert tribe is not None
        region = s.index.regions[rid]
        a = s.areas[rid]
        gain = 1.0
        if tribe.power in REGION_POWERS and REGION_POWERS[tribe.power][1](s, rid):
            gain += 1
        if tribe.race == "blood_elves" and region.magic:
            gain += 1
        if a.occupied:
            if tribe.power == "battle_master":
                gain += 1
            if tribe.power == "enraged" and a.tokens >= 2:
                gain += a.tokens
            enemy = OPPOSITE.get(s.faction_of(tribe.race))
            if enemy and s.faction_of(a.race) == enemy:
                key = (a.owner, a.race, a.declined)
                if key not in {(o, r, d) for o, r, d in s.turn.defeated}:
                    gain += 1
                if tribe.race == "orcs":
                    gain += 1
        gain += 0.5 * len(a.markers) + (0.5 if a.hidden_marker else 0.0)
        if a.objective and s.faction_of(tribe.race) != "horde":
            gain += 2
        return gain

    def _plan_size(self, s: SmallWorldState, p: int) -> int:
        """How many regions a greedy cheapest-first plan takes with the tokens in hand now."""
        hand = s.players[p].hand + s.players[p].hand_beasts
        held = set(s.regions_of(p))
        costs = [
            conquest_cost(s, p, rid).tokens
            for rid in s.index.order
            if rid not in held and self._reachable(s, p, rid)
        ]
        taken = 0
        for cost in sorted(costs):
            if cost > hand:
                break
            hand -= cost
            taken += 1
        return taken

    @staticmethod
    def _reachable(s: SmallWorldState, p: int, rid: str) -> bool:
        from warhorn.games.smallworld.rules import Refusal, check_reach

        try:
            check_reach(s, p, rid, "")
        except Refusal:
            return False
        return not s.areas[rid].watchtower

    def _conquer(self, s: SmallWorldState, p: int, legal: list[Action]) -> Choice:
        cfg = self.settings
        seat = s.players[p]
        if Decline() in legal and s.round < s.rounds:
            plan = self._plan_size(s, p)
            if plan < cfg.decline_below:
                return Choice(
                    Decline(),
                    f"declines: the {seat.hand} tokens in hand reach only {plan} region(s) this turn",
                )
        power_use = self._free_power(s, p, legal)
        if power_use is not None:
            return power_use
        best: tuple[float, Action, str] | None = None
        hand = seat.hand + seat.hand_beasts
        for action in legal:
            if not isinstance(action, Conquer):
                continue
            cost: float = conquest_cost(s, p, action.region, action.via).tokens
            if action.via == "airborne":
                if cost > hand:
                    continue  # only assaults that succeed whatever the free die shows
                floor = 2 if s.active_race(p) == "tauren" else 1
                faces = s.content.die_faces
                cost = sum(max(floor, cost - f) for f in faces) / len(faces)  # after the free die
            gain = self._gain(s, p, action.region)
            worth = gain - cfg.token_cost * cost - (ABILITY_COST if action.via else 0.0)
            why = f"conquers {s.region_name(action.region)} for {cost:g} token(s)" + (
                f" via {action.via}" if action.via else ""
            )
            why += f": +{gain:.1f} coins this turn (worth {worth:.1f})"
            if best is None or worth > best[0]:
                best = (worth, action, why)
        if best is not None:
            return Choice(best[1], best[2])
        finals: list[tuple[float, Action, str]] = []
        for action in legal:
            if isinstance(action, Reinforce):
                short = conquest_cost(s, p, action.region).tokens - hand
                odds = DIE_ODDS.get(short, 0.0)
                if odds >= cfg.final_odds:
                    why = (
                        f"final conquest of {s.region_name(action.region)}: {short} short, "
                        f"the die makes it {odds:.0%} of the time"
                    )
                    finals.append((odds * self._gain(s, p, action.region), action, why))
        if finals:
            _, action, why = max(finals, key=lambda f: f[0])
            return Choice(action, why)
        return Choice(EndConquests(), f"ends the conquests with {seat.hand} token(s) in hand")

    # --- powers used during the conquests ----------------------------------------------
    def _free_power(self, s: SmallWorldState, p: int, legal: list[Action]) -> Choice | None:
        """A power use that costs no coin and pays: an Ethereal theft, Intimidating, a portal swap."""
        uses = [a for a in legal if isinstance(a, (Steal, Intimidate, Portal))]
        free = [a for a in uses if self._power_coins(s, p, a) == 0]
        steals = [a for a in free if isinstance(a, Steal)]
        if steals:
            theft = steals[0]
            artifact = next(m for m in s.areas[theft.source].markers if m in s.content.artifacts)
            name = s.content.marker_name(artifact)
            return Choice(theft, f"steals the {name} into {s.region_name(theft.target)}: its power is ours")
        scared = [a for a in free if isinstance(a, Intimidate)]
        if scared:
            # a token moved out is one defender fewer to beat (a Murloc is gone for good)
            def scare(a: Intimidate) -> tuple[float, bool, str]:
                return (self._gain(s, p, a.region), s.areas[a.region].race == MURLOCS, a.region)

            scary = max(scared, key=scare)
            gain = self._gain(s, p, scary.region)
            return Choice(
                scary,
                f"intimidates {s.region_name(scary.region)}: one defender fewer "
                f"(a token saved, worth {self.settings.token_cost:.1f}; the region pays {gain:.1f} coins)",
            )
        swaps = [(self._swap_worth(s, p, a), a) for a in free if isinstance(a, Portal)]
        if swaps:
            worth, swap = max(swaps, key=lambda w: (w[0], w[1].first, w[1].second))
            if worth >= 1.0:
                return Choice(
                    swap,
                    f"swaps {s.region_name(swap.first)} and {s.region_name(swap.second)} "
                    f"through the portals: +{worth:.1f} coins a turn",
                )
        return None

    @staticmethod
    def _power_coins(s: SmallWorldState, p: int, action: Steal | Intimidate | Portal) -> int:
        regions = (
            [action.source]
            if isinstance(action, Steal)
            else [action.region]
            if isinstance(action, Intimidate)
            else [action.first, action.second]
        )
        return power_payments(s, p, regions)

    def _hold_worth(self, s: SmallWorldState, p: int, rid: str) -> float:
        """Coins a region pays its holder each turn (the region, the power's terrain, markers)."""
        tribe = s.players[p].active
        assert tribe is not None
        worth = 1.0
        if tribe.power in REGION_POWERS and REGION_POWERS[tribe.power][1](s, rid):
            worth += 1
        if tribe.race == "blood_elves" and s.index.regions[rid].magic:
            worth += 1
        return worth + 1.5 * len(s.areas[rid].markers) + (0.5 if s.areas[rid].hidden_marker else 0.0)

    def _swap_worth(self, s: SmallWorldState, p: int, a: Portal) -> float:
        """A swap of one of our magic regions with one we do not hold: what the other pays more."""
        mine = set(s.regions_of(p))
        if (a.first in mine) == (a.second in mine):
            return 0.0
        ours, theirs = (a.first, a.second) if a.first in mine else (a.second, a.first)
        if s.index.water(theirs):
            return 0.0
        return self._hold_worth(s, p, theirs) - self._hold_worth(s, p, ours)

    # --- deployment and markers ----------------------------------------------------------
    def _exposure(self, s: SmallWorldState, owner: int, rid: str) -> int:
        return sum(1 for n in s.index.neighbours[rid] if s.areas[n].owner != owner and not s.index.water(n))

    def _deploy(self, s: SmallWorldState, p: int, legal: list[Action]) -> Choice:
        deploys = [a for a in legal if isinstance(a, Deploy)]
        owner = s.turn.defenders[0] if s.stage is Stage.DEFEND else p
        top = max(
            deploys,
            key=lambda a: (a.unit == "token", self._exposure(s, owner, a.region), a.count, a.region),
        )
        return Choice(
            top,
            f"puts {top.count} {top.unit}(s) in {s.region_name(top.region)}, "
            f"bordering {self._exposure(s, owner, top.region)} region(s) not ours",
        )

    def _place(self, s: SmallWorldState, p: int, legal: list[Action]) -> Choice:
        places = [a for a in legal if isinstance(a, PlaceArtifact)]

        def score(a: PlaceArtifact) -> int:
            if a.artifact == "heart_of_azeroth":
                return sum(1 for n in s.index.neighbours[a.region] if s.areas[n].owner not in (None, p))
            return self._exposure(s, p, a.region)

        top = max(places, key=lambda a: (score(a), a.region))
        return Choice(
            top,
            f"lays the {s.content.marker_name(top.artifact)} in {s.region_name(top.region)} ({score(top)})",
        )

    def _objective(self, s: SmallWorldState, p: int, legal: list[Action]) -> Choice:
        """Both objectives are laid: 2 coins for us whoever (not Horde) takes one; near us, we take it."""
        mine = set(s.regions_of(p))
        options = [a for a in legal if isinstance(a, Objective)]
        if not options:
            return Choice(Done(), "no region left for a Military Objective")
        top = max(options, key=lambda a: (len(s.index.neighbours[a.region] & mine), a.region))
        near = len(s.index.neighbours[top.region] & mine)
        return Choice(top, f"marks {s.region_name(top.region)}, next to {near} of our regions")

    def _bomb(self, s: SmallWorldState, p: int, legal: list[Action]) -> Choice:
        """A free bomb is worth half a token and half a region's coins; one that costs coins is not laid.

        Among the free ones: the region whose holder has the fewest tokens there (an explosion
        empties it), markers first.
        """
        free = [a for a in legal if isinstance(a, Bomb) and power_payments(s, p, [a.region]) == 0]
        if not free:
            return Choice(Done(), "lays no bomb that would cost coins")

        def key(a: Bomb) -> tuple[int, int, str]:
            area = s.areas[a.region]
            return (len(area.markers), -area.units, a.region)

        top = max(free, key=key)
        area = s.areas[top.region]
        return Choice(
            top,
            f"bombs {s.region_name(top.region)} ({area.units} unit(s) there): an explosion empties it",
        )

    def _side(self, s: SmallWorldState, p: int) -> Choice:
        """The faction whose enemies this turn's conquests beat most often (the bonus it pays)."""
        bonus = {f: faction_bonus(s, p, f, 2) for f in ("alliance", "horde")}
        faction = max(("alliance", "horde"), key=lambda f: (bonus[f], f == "horde"))
        return Choice(
            Side(faction),  # type: ignore[arg-type]
            f"fights with the {faction.title()} at the Battleground: {bonus[faction]} coin(s) of bonus",
        )


def make_heuristic(params: Mapping[str, str]) -> SmallWorldHeuristic:
    """The factory a plugin names: settings from the agent spec's parameters."""
    return SmallWorldHeuristic(Settings.from_params(params))
