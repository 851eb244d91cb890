"""The Quest for the DragonLords heuristic: every decision the game asks, with a reason in numbers.

- **Set-up.** The King goes under a unit of the most crowded territory (the Kingdom first), the
  sorcerer beside it, the decoy and hero elsewhere.
- **Buy.** A fleet of up to three ships (two while the purse is short; the empty ships off our coast
  count) while there is ground over the sea worth landing on, then as many units as the purse pays
  for. A new ship is launched next to the most units home can spare.
- **Ferry the army.** A ship next to home ground loads the units its territories can spare (they keep
  a quarter, half at a land front), sails to the best landing (our beachhead in a realm whose Kingdom
  we do not hold, empty ground there, or ground the units aboard take at good odds; ground next to
  that Kingdom counts most, less a little for each zone of the way), lands all but the helmsman, and
  sails home to load again. Amphibious attacks and attacks from the beachhead follow the odds below.
- **Quests.** A party of two or three plain units (never a token) goes in from a territory that
  keeps at least four; a party on a track moves on, buying a potion in the Village.
- **Attack by exact odds.** Each attack with plain units (and never the King) is scored by the
  plain-battle odds (:mod:`warhorn.games.dragonlords.odds`): the chance to take the space, plus
  a bonus for a Kingdom, minus the units risked; the best one at ``attack_odds`` or better is made.
  Empty territories next to ours are taken by a forced march of one unit.
- **Through the portals.** While a portal is not ours, our own portal territory (in a realm whose
  Kingdom we hold first) is a front: stacks gather there, a sorcerer walks there without the King,
  and it attacks through the portals (DLR-PRT-01) at good odds with at least ``portal_army`` units.
- **Protect the King.** Stacks move towards the front, but the King's territory keeps a third of its
  units (at least 4); in step 7 the King and sorcerer are the last units given up; an attack that
  carries the King retreats unless its odds stay high; a defending sorcerer teleports the King away
  from a hopeless fight.
- **Spells and cards.** Every spell, shard, item and card that helps is used when offered; a
  damage card against us is answered with Reflection or Dispel Magic when the hand holds one.

Only what the deciding player sees is read: its own hand and pieces, the board's unit counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from warhorn.ai.heuristic import Choice
from warhorn.engine import Action, GameState, Rng
from warhorn.games.dragonlords.actions import (
    Answer,
    Attack,
    Board,
    Buy,
    BuyItem,
    Carry,
    Cast,
    Casualties,
    Charm,
    ChoosePeople,
    Done,
    FightOn,
    Land,
    Move,
    OfferMercy,
    PickRealm,
    Place,
    PlaceShip,
    PlaceToken,
    Play,
    QuestMove,
    Retreat,
    Sail,
    SendParty,
    Summon,
    Teleport,
)
from warhorn.games.dragonlords.odds import PlainBattleRequest, plain_battle_odds
from warhorn.games.dragonlords.state import DragonLordsState, Force, Phase, Ship
from warhorn.games.dragonlords.world import World

PEOPLE_ORDER = ("elves", "barbarians", "orcs", "dwarves", "necromancers", "amazons")
HELPFUL_TAS = {"hope", "command", "panic", "lure", "bloodlust"}
ANSWERS = {"reflection", "dispel_magic"}


@dataclass(frozen=True)
class Settings:
    attack_odds: float = 0.55  # attack when the plain-battle odds to take the space reach this
    press_on: float = 0.45  # fight another round when the odds of the rest reach this
    party_min_home: int = 4  # a party leaves only from a territory keeping this many units
    fleet: int = 3  # ships kept to carry the army overseas (two while the purse is short)
    portal_army: int = 10  # plain units that must go with a sorcerer attacking through a portal

    @classmethod
    def from_params(cls, params: Mapping[str, str]) -> Settings:
        known = {
            "attack_odds": float,
            "press_on": float,
            "party_min_home": int,
            "fleet": int,
            "portal_army": int,
        }
        values: dict[str, float | int] = {}
        for name, text in params.items():
            if name not in known:
                raise ValueError(f"unknown heuristic parameter {name!r} (known: {', '.join(known)})")
            try:
                values[name] = known[name](text)
            except ValueError:
                raise ValueError(f"heuristic parameter {name!r}: not a number: {text!r}") from None
        return cls(**values)  # type: ignore[arg-type]


#: A fight in which one or two defenders still stand after this many rounds is one their heals keep
#: alive (Heal saves the one unit the dice hit, round after round); the attacker leaves it.
STALLED_ROUND = 6

#: Sides up to this many units get the exact odds; a bigger battle is scaled down to it first, both
#: sides by the same factor (its exact odds cost seconds, and they are asked of every attack a turn
#: offers). The scaled battle keeps the ratio of the forces and is a little less sure than the real
#: one, which is on the safe side for a player choosing whether to attack.
EXACT_SIDE = 40


def win_chance(attackers: int, defenders: int, attack_tas: int, defence_tas: int, sneak: bool) -> float:
    """The chance a plain attack takes the space: exact up to :data:`EXACT_SIDE` units a side."""
    if defenders <= 0:
        return 1.0
    if attackers <= 0:
        return 0.0
    big = max(attackers, defenders)
    if big > EXACT_SIDE:
        attackers = max(1, round(attackers * EXACT_SIDE / big))
        defenders = max(1, round(defenders * EXACT_SIDE / big))
    return _exact_win_chance(attackers, defenders, attack_tas, defence_tas, sneak)


@lru_cache(maxsize=20_000)
def _exact_win_chance(
    attackers: int, defenders: int, attack_tas: int, defence_tas: int, sneak: bool
) -> float:
    """The exact chance (memoised: the same questions recur)."""
    request = PlainBattleRequest(
        attackers=attackers,
        defenders=defenders,
        attacker_tas=attack_tas,
        defender_tas=defence_tas,
        sneak_attack=sneak,
    )
    return plain_battle_odds(request).attacker_wins


_SEA_STEPS: dict[tuple[str, bool, str], dict[str, int]] = {}


def _sea_steps(world: World, zone: str) -> dict[str, int]:
    """Zones crossed over sea from ``zone`` to every sea zone it reaches (kept per loaded world)."""
    key = (world.content_hash, world.wraps_vertically, zone)
    if world.content_hash and key in _SEA_STEPS:
        return _SEA_STEPS[key]
    seen = {zone: 0}
    frontier = [zone]
    while frontier:
        nxt = []
        for here in frontier:
            for n in world.space(here).neighbours:
                if n not in seen and world.space(n).kind == "sea":
                    seen[n] = seen[here] + 1
                    nxt.append(n)
        frontier = nxt
    if world.content_hash:
        _SEA_STEPS[key] = seen
    return seen


def _land_distance(state: DragonLordsState, player: int, goal: str) -> dict[str, int]:
    """Steps over ``player``'s own territories from each of them to ``goal``, a step between two of
    our portals included (the way a sorcerer walks, DLR-PRT-01: without it a sorcerer on another
    land mass never set out, and the army it gathered for waited at the portal all game)."""
    mine = set(state.territories_of(player))
    our_portals = tuple(s.id for s in state.world.portals() if s.id in mine)
    distance = {goal: 0}
    frontier = [goal]
    while frontier:
        nxt = []
        for sid in frontier:
            links = state.world.space(sid).neighbours
            if sid in our_portals:
                links = (*links, *our_portals)
            for n in links:
                if n in mine and n not in distance:
                    distance[n] = distance[sid] + 1
                    nxt.append(n)
        frontier = nxt
    return distance


_COASTS: dict[tuple[str, bool], tuple[tuple[str, tuple[str, ...]], ...]] = {}


def _coasts(world: World) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each sea zone with the territories on its coast (kept per loaded world)."""
    key = (world.content_hash, world.wraps_vertically)
    if world.content_hash and key in _COASTS:
        return _COASTS[key]
    coasts = tuple(
        (zone.id, tuple(t for t in zone.neighbours if world.space(t).kind == "territory"))
        for zone in world.spaces
        if zone.kind == "sea"
    )
    if world.content_hash:
        _COASTS[key] = coasts
    return coasts


class DragonLordsHeuristic:
    """The hand-written DragonLords player (``heuristic`` agent)."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()

    def choose(self, state: GameState, player: int, rng: Rng) -> Choice:
        assert isinstance(state, DragonLordsState)
        legal = state.legal_actions()
        decision = state.pending()
        assert decision is not None
        kind = decision.kind
        # the heuristic moves in the listed sizes; an "up to" order (its exact count asked next)
        # is left to other players (DLR-MOV-05)
        # (a landing is the exception: all but the helmsman, whose count is asked next)
        legal = [a for a in legal if not getattr(a, "up_to", False) or isinstance(a, Land)] or legal
        handler = getattr(self, f"_{kind}", None)
        choice: Choice | None = handler(state, player, legal) if handler is not None else None
        if choice is None or choice.action not in legal:
            fallback = next((a for a in legal if isinstance(a, Done)), legal[0])
            return Choice(fallback, f"{kind}: nothing worth doing")
        return choice

    def _escape(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        """DLX-SPC-TEL's escape: as many as may go, the King among them, to the strongest territory."""
        b = state.battle
        kings = {p.id for p in b.dfn.pieces if p.token == "king"} if b is not None else set()

        def value(a: Action) -> tuple[int, int, int]:
            assert isinstance(a, Teleport)
            there = state.spaces.get(a.to)
            return (len(kings & set(a.pieces)), a.count + len(a.pieces), there.units if there else 0)

        best = max((a for a in legal if isinstance(a, Teleport)), key=value)
        assert isinstance(best, Teleport)
        return Choice(best, f"escape with {best.count + len(best.pieces)} units to {best.to}")

    def _count(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        """DLR-MOV-05: the exact count of an "up to" order: the most it allows; a landing keeps one
        unit aboard to sail the ship back."""
        best = max(legal, key=lambda a: getattr(a, "count", 0))
        if isinstance(best, Land) and best.count >= 2:
            ship = state.ships[best.ship]
            aboard = ship.aboard.units if ship.aboard else 0
            keep = next((a for a in legal if getattr(a, "count", 0) == aboard - 1), None)
            if keep is not None:
                return Choice(keep, f"land {aboard - 1} units; one sails the ship back")
        return Choice(best, f"send {getattr(best, 'count', 0)} units")

    # --- set-up ------------------------------------------------------------------------
    def _people(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        peoples = [a for a in legal if isinstance(a, ChoosePeople)]
        best = min(peoples, key=lambda a: PEOPLE_ORDER.index(a.people) if a.people in PEOPLE_ORDER else 9)
        return Choice(best, f"play the {state.content.peoples[best.people].name}")

    def _realm(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        mine = {
            state.world.space(t).realm
            for r in state.players[player].realms
            for t in [state.world.kingdom_of(r).id]
        }
        picks = [a for a in legal if isinstance(a, PickRealm)]
        return Choice(picks[0], f"take {picks[0].realm} (realms held: {len(mine)})")

    def _token(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        places = [a for a in legal if isinstance(a, PlaceToken)]
        seat = state.players[player]
        token = "king" if "king" in seat.tokens_to_place else places[0].token
        of_kind = [a for a in places if a.token == token]

        def weight(a: PlaceToken) -> tuple[int, int, str]:
            force = state.spaces[a.territory]
            kingdom = state.world.space(a.territory).kingdom
            taken = len(force.pieces)
            if token == "king":
                return (int(kingdom), force.units - 3 * taken, a.territory)
            return (-taken, force.units, a.territory)

        best = max(of_kind, key=weight)
        return Choice(
            best, f"hide the {token} in {best.territory} ({state.spaces[best.territory].units} units)"
        )

    # --- the phases --------------------------------------------------------------------
    def _purchase(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        buys = [a for a in legal if isinstance(a, Buy) and a.what == "units"]
        ships = self._fleet(state, player)
        ship = next((a for a in legal if isinstance(a, Buy) and a.what == "ship"), None)
        gold = state.players[player].gold
        rich = gold >= 2 * state.content.game.ship_cost
        fleet = self.settings.fleet if rich else min(2, self.settings.fleet)
        if ship is not None and ships < fleet and self._sea_targets(state, player):
            return Choice(ship, f"buy a ship: {ships} of {fleet} to carry the army over the sea")
        if buys:
            best = max(buys, key=lambda a: a.count)
            return Choice(best, f"buy {best.count} units with {gold} gold")
        return Choice(Done(), "nothing to buy")

    # --- the sea -------------------------------------------------------------------------
    @staticmethod
    def _fleet(state: DragonLordsState, player: int) -> int:
        """Ships that carry our army: ours, those bought and not yet launched, and the empty ones off
        our coast (an empty ship is nobody's, DLX-FAQ-03, but ours to board again: left out, the
        fleet never looked full and a ship was bought every turn)."""
        mine = set(state.territories_of(player))

        def carries_ours(ship: Ship) -> bool:
            if ship.owner is None:
                return any(n in mine for n in state.world.space(ship.zone).neighbours)
            return ship.owner == player

        return state.players[player].ships_to_place + sum(map(carries_ours, state.ships.values()))

    def _is_home(self, state: DragonLordsState, player: int, territory: str) -> bool:
        """A territory of a realm whose Kingdom ``player`` holds (the army's base), islands aside."""
        realm = state.world.space(territory).realm
        return realm is not None and state.owner(state.world.kingdom_of(realm).id) == player

    def _landing_value(self, state: DragonLordsState, player: int, territory: str, aboard: int) -> float:
        """What ``aboard`` units landing at (or attacking from the sea) ``territory`` are worth.

        Ground in a realm whose Kingdom we do not hold: our own beachhead there (reinforce it), empty
        ground (claim it), or an enemy's or neutrals' territory the units aboard take at good odds.
        Ground next to that realm's Kingdom is worth more: the Kingdom is the prize (a realm, income,
        a place to put new units)."""
        space = state.world.space(territory)
        if space.kind != "territory" or self._is_home(state, player, territory):
            return 0.0
        if space.island:
            return 1.0 if state.owner(territory) is None else 0.0
        assert space.realm is not None
        kingdom = state.world.kingdom_of(space.realm).id
        near_kingdom = kingdom in space.neighbours
        owner = state.owner(territory)
        if owner == player:
            return 6.0 + (3.0 if near_kingdom else 0.0)
        if owner is None:
            return 4.0 + (3.0 if near_kingdom else 0.0)
        target = state.spaces[territory]
        tas = state.content.peoples[state.people_of(player)].attack
        tas -= state.content.game.kingdom_attack_penalty if space.kingdom else 0
        defence = state.content.peoples[target.people].attack
        chance = win_chance(aboard, target.units, tas, defence, state.people_of(player) == "elves")
        if chance < self.settings.attack_odds:
            return 0.0
        return chance * (9.0 if space.kingdom else 5.0)

    def _sea_targets(self, state: DragonLordsState, player: int) -> dict[str, tuple[float, str]]:
        """Each sea zone next to ground worth landing on: its best value and that ground."""
        cap = state.content.game.ship_capacity
        value: dict[str, float] = {}
        out: dict[str, tuple[float, str]] = {}
        for zone, coast in _coasts(state.world):
            for t in coast:
                if t not in value:
                    value[t] = self._landing_value(state, player, t, cap)
                v = value[t]
                if v > 0 and (zone not in out or v > out[zone][0]):
                    out[zone] = (v, t)
        return out

    def _spare(self, state: DragonLordsState, player: int, territory: str) -> int:
        """Units a home territory can send overseas: it keeps a quarter (at least 3), half at a land front."""
        force = state.spaces.get(territory)
        if force is None or force.owner != player or not self._is_home(state, player, territory):
            return 0
        if territory == self._portal_base(state, player):
            return 0  # the army gathering for a portal attack stays
        free = force.plain - force.moved
        keep = max(3, force.units // 2 if self._enemies_near(state, territory, player) else force.units // 4)
        return max(0, min(free, force.units - keep))

    def _naval(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        """Ferry the army: load at home, sail to the best landing, land all but the helmsman, sail back."""
        cap = state.content.game.ship_capacity
        targets = self._sea_targets(state, player)
        ours = sorted((s for s in state.ships.values() if s.owner == player), key=lambda s: s.id)
        # 1. land where the ship stands next to ground worth it (one unit stays to sail the ship back)
        best_land: tuple[float, Land] | None = None
        for a in legal:
            if not isinstance(a, Land) or a.pieces:
                continue
            ship = state.ships[a.ship]
            aboard = ship.aboard.units if ship.aboard else 0
            if aboard < 2 or not (a.count == aboard - 1 or a.up_to):
                continue
            value = self._landing_value(state, player, a.territory, aboard)
            open_ground = state.owner(a.territory) in (None, player)
            if value >= 4.0 and open_ground and (best_land is None or value > best_land[0]):
                best_land = (value, a)
        if best_land is not None:
            value, a = best_land
            aboard = self._aboard(state, a.ship)
            return Choice(a, f"land {aboard - 1} units at {a.territory} (worth {value:.1f})")
        # 2. load at home: a ship next to home ground with units to spare
        boards = [a for a in legal if isinstance(a, Board) and not a.pieces and a.territory in state.spaces]
        best_board: tuple[int, Board] | None = None
        for a in boards:
            spare = self._spare(state, player, a.territory)
            if a.count > spare:
                continue
            if best_board is None or a.count > best_board[0]:
                best_board = (a.count, a)
        if best_board is not None and best_board[0] >= 2:
            a = best_board[1]
            return Choice(a, f"board {a.count} units at {a.territory} for an overseas landing")
        # 3. sail: loaded ships to the best landing, light ones home to load
        best_sail: tuple[float, Sail, str] | None = None
        for ship in ours:
            if ship.sailed or ship.aboard is None:
                continue
            aboard = ship.aboard.units
            sails = [a for a in legal if isinstance(a, Sail) and a.ship == ship.id]
            if not sails:
                continue
            distance = self._sea_steps(state, ship.zone)
            if aboard >= min(4, cap):
                goal = self._best_zone({z: v for z, (v, _t) in targets.items()}, distance)
                why = "to land"
            else:
                loading = {}
                for zone in state.world.spaces:
                    if zone.kind == "sea":
                        spare = sum(self._spare(state, player, t) for t in zone.neighbours)
                        if spare >= 4:
                            loading[zone.id] = float(min(spare, cap - aboard))
                goal = self._best_zone(loading, distance)
                why = "home to load"
            if goal is None or goal == ship.zone:
                continue
            step = min(sails, key=lambda a: (self._sea_steps(state, a.zone).get(goal, 99), a.zone))
            left = self._sea_steps(state, step.zone).get(goal, 99)
            score = 10.0 - left
            if best_sail is None or score > best_sail[0]:
                best_sail = (score, step, f"sail {aboard} units {why} near {goal} ({left} zones left)")
        if best_sail is not None:
            return Choice(best_sail[1], best_sail[2])
        return Choice(Done(), "no naval move")

    @staticmethod
    def _aboard(state: DragonLordsState, ship: int) -> int:
        force = state.ships[ship].aboard
        return force.units if force is not None else 0

    @staticmethod
    def _best_zone(values: dict[str, float], distance: dict[str, int]) -> str | None:
        """The zone with the best value less a little for each zone of the way."""
        scored = [(v - 0.4 * distance[z], z) for z, v in values.items() if z in distance]
        return max(scored)[1] if scored else None

    @staticmethod
    def _sea_steps(state: DragonLordsState, zone: str) -> dict[str, int]:
        """Zones crossed from ``zone`` to every sea zone (ships in the way ignored)."""
        return _sea_steps(state.world, zone)

    def _quest(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        rich = state.players[player].gold >= 20
        for a in legal:
            if isinstance(a, BuyItem) and a.item == "potion" and rich:
                return Choice(a, "buy a potion in the Village")
        moves = [a for a in legal if isinstance(a, QuestMove) and a.forward]
        if moves:
            return Choice(moves[0], f"the {moves[0].track} party moves on")
        parties = [
            a
            for a in legal
            if isinstance(a, SendParty)
            and not a.pieces
            and 2 <= a.count <= 3
            and a.territory in state.spaces  # a territory, not a ship docked at the Village
            and state.spaces[a.territory].units - a.count >= self.settings.party_min_home
        ]
        if parties:
            best = max(parties, key=lambda a: a.count)
            return Choice(best, f"send {best.count} units questing on the {best.track} track")
        return Choice(Done(), "no quest")

    def _combat(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        king = self._king_space(state, player)
        best: tuple[float, Action, str] | None = None
        people = state.people_of(player)
        attack = state.content.peoples[people].attack
        for a in legal:
            if isinstance(a, Charm):
                score = 1.0 + 0.1 * a.count
                if best is None or score > best[0]:
                    best = (score, a, f"charm {a.to} with {a.count} Amazons")
            if isinstance(a, Summon):
                target = state.spaces.get(a.target)
                units = target.units if target else 0
                score = 0.5 + 0.1 * units
                if best is None or score > best[0]:
                    best = (score, a, f"summon an elemental on {a.target} ({units} units)")
            if not isinstance(a, Attack) or a.via == "fly":
                continue
            frm = state.spaces.get(a.frm) if not a.frm.startswith("ship:") else None
            if frm is not None and any(p.token == "king" for p in frm.pieces if p.id in a.pieces):
                continue  # never lead with the King
            if (
                a.pieces
                and frm is not None
                and any(p.token in ("sorcerer",) for p in frm.pieces if p.id in a.pieces)
            ):
                pass
            if a.via == "portal" and a.count < self.settings.portal_army:
                continue  # a sorcerer goes through a portal only with an army behind it
            target = state.spaces[a.to]
            kingdom = state.world.space(a.to).kingdom
            tas = attack - (state.content.game.kingdom_attack_penalty if kingdom else 0)
            defence = state.content.peoples[target.people].attack
            units = a.count + len(a.pieces)
            chance = win_chance(units, target.units, tas, defence, people == "elves")
            if chance < self.settings.attack_odds:
                continue
            left_home = 0 if frm is None else frm.units - units
            exposed = 0.3 if a.frm == king and left_home < 3 else 0.0
            tokens = sum(1 for p in target.pieces if p.hidden or (p.revealed and p.token == "king"))
            score = chance + (0.6 if kingdom else 0.0) + 0.15 * tokens + 0.02 * units - exposed
            if best is None or score > best[0]:
                best = (
                    score,
                    a,
                    f"attack {a.to} with {units} against {target.units}: {chance:.0%} to take it",
                )
        if best is not None:
            return Choice(best[1], best[2])
        for a in legal:
            if isinstance(a, Move) and 1 <= a.count <= 3 and not a.pieces and a.to not in state.spaces:
                frm = state.spaces[a.frm]
                if frm.units - a.count >= max(2, frm.units // 2) or (a.count == 1 and frm.units >= 2):
                    return Choice(a, f"march {a.count} unit(s) into empty {a.to}")
        march = self._sorcerer_to_the_portal(state, player, legal) or self._to_the_front(state, player, legal)
        if march is not None:
            return march
        return Choice(Done(), "no attack at good odds")

    def _transfer(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        choice = self._sorcerer_to_the_portal(state, player, legal)
        choice = choice or self._to_the_front(state, player, legal)
        return choice if choice is not None else Choice(Done(), "no transfer")

    @staticmethod
    def _portal_base(state: DragonLordsState, player: int) -> str | None:
        """Our portal territory (the most crowded) while another portal is not ours: the army gathers
        there with a sorcerer to attack through the portals (DLR-PRT-01)."""
        portals = [s.id for s in state.world.portals()]
        ours = [t for t in portals if state.owner(t) == player]
        if not ours or len(ours) == len(portals):
            return None
        realm_kingdoms = {
            t: state.world.kingdom_of(realm).id if (realm := state.world.space(t).realm) else "" for t in ours
        }
        return max(ours, key=lambda t: (state.owner(realm_kingdoms[t]) == player, state.spaces[t].units, t))

    def _sorcerer_to_the_portal(
        self, state: DragonLordsState, player: int, legal: list[Action]
    ) -> Choice | None:
        """Walk a sorcerer (never the King) with its stack one step nearer to the portal base."""
        base = self._portal_base(state, player)
        if base is None:
            return None
        if any(p.token == "sorcerer" for p in state.spaces[base].pieces):
            return None
        distance = _land_distance(state, player, base)
        best: tuple[int, Move] | None = None
        for a in legal:
            if not isinstance(a, Move) or not a.pieces:
                continue
            here = state.spaces[a.frm]
            moving = [p for p in here.pieces if p.id in a.pieces]
            if any(p.token == "king" for p in moving) or not any(p.token == "sorcerer" for p in moving):
                continue
            nearer = a.to == base if a.via == "portal" else distance.get(a.to, 99) < distance.get(a.frm, 99)
            if not nearer:
                continue
            if best is None or a.count > best[0]:
                best = (a.count, a)
        if best is None:
            return None
        a = best[1]
        return Choice(a, f"the sorcerer goes with {a.count} units towards the portal at {base}")

    def _to_the_front(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice | None:
        """Move the biggest stack of an interior territory one step nearer to the enemy."""
        distance = self._front_distance(state, player)
        best: tuple[int, Action, str] | None = None
        for a in legal:
            if not isinstance(a, Move) or a.pieces or a.via or a.count < 2:
                continue
            here, there = distance.get(a.frm), distance.get(a.to)
            if here is None or there is None or there >= here or here == 0:
                continue
            here_force = state.spaces[a.frm]
            guard = max(4, here_force.units // 3) if any(p.token == "king" for p in here_force.pieces) else 1
            if here_force.units - a.count < guard:
                continue  # the King keeps a guard
            if best is None or a.count > best[0]:
                best = (a.count, a, f"move {a.count} units from {a.frm} towards the front ({there} from it)")
        return None if best is None else Choice(best[1], best[2])

    @staticmethod
    def _front_distance(state: DragonLordsState, player: int) -> dict[str, int]:
        """Steps over our own land from each of our territories to one next to an enemy, or to the
        portal base (0: at the front)."""
        mine = set(state.territories_of(player))
        distance: dict[str, int] = {}
        frontier = []
        base = DragonLordsHeuristic._portal_base(state, player)
        for sid in sorted(mine):
            if sid == base or DragonLordsHeuristic._enemies_near(state, sid, player):
                distance[sid] = 0
                frontier.append(sid)
        while frontier:
            nxt = []
            for sid in frontier:
                for n in state.world.space(sid).neighbours:
                    if n in mine and n not in distance:
                        distance[n] = distance[sid] + 1
                        nxt.append(n)
            frontier = nxt
        return distance

    @staticmethod
    def _enemies_near(state: DragonLordsState, sid: str, player: int) -> bool:
        """A territory of ours by land that is not ours: an enemy's, or empty ground to take."""
        for n in state.world.space(sid).neighbours:
            if state.world.space(n).kind == "territory" and state.owner(n) != player:
                return True
        return False

    def _reinforce(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        king = self._king_space(state, player)
        places = [a for a in legal if isinstance(a, Place)]
        if places:
            distance = self._front_distance(state, player)
            best = max(
                places,
                key=lambda a: (a.count, -distance.get(a.territory, 99), a.territory == king, a.territory),
            )
            return Choice(best, f"place {best.count} units in {best.territory}, nearest the front")
        ships = [a for a in legal if isinstance(a, PlaceShip)]
        if ships:

            def spare(a: PlaceShip) -> int:
                return sum(self._spare(state, player, t) for t in state.world.space(a.zone).neighbours)

            launch = max(ships, key=lambda a: (spare(a), a.zone))
            return Choice(launch, f"launch the ship in {launch.zone}, next to {spare(launch)} units to carry")
        return Choice(Done(), "all placed")

    # --- battle ------------------------------------------------------------------------
    def _tas(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        for a in legal:
            if isinstance(a, Cast) and a.spell in HELPFUL_TAS:
                return Choice(a, f"cast {a.spell} in step 2")
            if isinstance(a, Play):
                return Choice(a, f"play {a.card} in step 2")
        return Choice(Done(), "nothing to cast in step 2")

    def _ranged(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        b = state.battle
        assert b is not None
        mine = b.att if b.att.player == player else b.dfn
        theirs = b.dfn if mine is b.att else b.att
        escape = next((a for a in legal if isinstance(a, Play) and a.card == "teleport"), None)
        king_here = any(p.token == "king" for p in mine.alive_pieces)
        if escape is not None and king_here and len(theirs.fighters) >= 2 * len(mine.fighters):
            return Choice(
                escape, f"teleport the King away: {len(mine.fighters)} against {len(theirs.fighters)}"
            )
        for a in legal:
            if isinstance(a, Cast):
                return Choice(a, f"cast {a.spell} at the enemy")
        return Choice(Done(), "no ranged attack")

    def _cards(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        b = state.battle
        assert b is not None and b.exchange is not None
        if b.exchange.pending is not None:
            for a in legal:
                if isinstance(a, Play) and a.card in ANSWERS:
                    return Choice(a, f"answer the damage card with {a.card}")
        for a in legal:
            if isinstance(a, Play) and state.content.cards[a.card].kind == "damage":
                return Choice(a, f"play {a.card}")
        return Choice(Done(), "pass")

    def _casualties(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        b = state.battle
        assert b is not None
        side = b.att if b.att.player == player else b.dfn
        value = {None: 0, "decoy": 0, "hero": 2, "dragonlord": 4, "sorcerer": 3, "king": 10}

        def cost(a: Action) -> int:
            assert isinstance(a, Casualties)
            return sum(value.get(p.token if (p := side.piece(i)) else None, 0) for i in a.pieces)

        best = min(legal, key=cost)
        return Choice(best, "give up the least valuable units; the King last")

    def _heal(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        for a in legal:
            if not isinstance(a, Done):
                return Choice(a, "heal a unit in step 7")
        return Choice(Done(), "nothing to heal")

    def _raise(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        for a in legal:
            if isinstance(a, Cast):
                return Choice(a, "raise a fallen enemy with Necromantic")
        return Choice(Done(), "nothing to raise")

    def _retreat(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        b = state.battle
        assert b is not None
        people = state.people_of(player)
        tas = state.content.peoples[people].attack - (1 if b.kingdom else 0)
        defence = state.content.peoples[b.dfn.people].attack if b.dfn.people else 3
        chance = win_chance(len(b.att.fighters), len(b.dfn.fighters), tas, defence, False)
        king = any(p.token == "king" for p in b.att.alive_pieces)
        need = 0.75 if king else self.settings.press_on
        retreats = [a for a in legal if isinstance(a, Retreat)]
        if retreats and b.round >= STALLED_ROUND and len(b.dfn.fighters) <= 2:
            return Choice(
                retreats[0], f"retreat: {len(b.dfn.fighters)} defender(s) still stand after {b.round} rounds"
            )
        if (chance < need and retreats) or FightOn() not in legal:
            return Choice(retreats[0], f"retreat: {chance:.0%} to win from here")
        return Choice(FightOn(), f"fight on: {chance:.0%} to win from here")

    def _mercy(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        b = state.battle
        assert b is not None
        if b.step == "mercy_answer":
            return Choice(Answer(True), "take the shard offered for mercy")
        offers = [a for a in legal if isinstance(a, OfferMercy)]
        if offers and len(b.att.fighters) >= 3 * max(1, len(b.dfn.fighters)):
            return Choice(offers[0], "offer a shard for mercy: the fight is lost")
        return Choice(Done(), "no offer")

    def _ultimatum(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        return Choice(Answer(False), "refuse the ultimatum")

    def _dispel(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        return Choice(Answer(True), "dispel the elemental")

    def _carry(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        """DLR-SHD-01: a shard goes under a sorcerer (only a sorcerer uses it, DLX-SET-06), in the
        space where it is if one stands there; anything else stays where the rules first put it."""
        q = state.questions[0]
        if q.shard:
            for a in legal:
                assert isinstance(a, Carry)
                force = state.spaces.get(a.at)
                mine = force is not None and force.owner == player and a.piece is not None
                pc = force.piece(a.piece) if mine and force is not None and a.piece is not None else None
                if pc is not None and pc.token == "sorcerer":
                    return Choice(a, f"the shard goes under the sorcerer in {a.at}")
        return Choice(legal[0], "the shard or item stays where it is")

    def _elemental_order(self, state: DragonLordsState, player: int, legal: list[Action]) -> Choice:
        """DLR-HID-03 against an elemental outside a combat: the usual order, the King last."""
        return Choice(Done(), "keep the usual order: plain units, then decoy, hero, sorcerer, King")

    # --- helpers -----------------------------------------------------------------------
    @staticmethod
    def _king_space(state: DragonLordsState, player: int) -> str:
        for sid, force in state.spaces.items():
            if force.owner == player and any(p.token == "king" for p in force.pieces):
                return sid
        kingdoms = state.kingdoms_of(player)
        return kingdoms[0] if kingdoms else ""


def strength(state: DragonLordsState, player: int) -> float:
    """A rough worth of a player's position: realms, territories and units (0 without a King)."""
    if not state.players[player].alive:
        return 0.0
    forces: list[Force] = state.forces_of(player)
    units = sum(f.units for f in forces)
    return 8.0 * state.realms_held(player) + len(state.territories_of(player)) + 0.2 * units


def make_heuristic(params: Mapping[str, str]) -> DragonLordsHeuristic:
    """The ``heuristic`` agent factory the plugin names."""
    return DragonLordsHeuristic(Settings.from_params(params))


__all__ = ["DragonLordsHeuristic", "Phase", "Settings", "make_heuristic", "strength", "win_chance"]
