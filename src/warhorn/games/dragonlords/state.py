"""The position of a Quest for the DragonLords game and the game contract around it.

A position is (``docs/dragonlords-reconstruction.md`` section 17):

* per space, the :class:`Force` there: its owner (a player, or :data:`NEUTRAL`), its people, its
  plain units and its *pieces* — the units that carry a hidden token (King, sorcerer, decoy, hero),
  a DragonLord, items or shards (:class:`Piece`);
* the ships (:class:`Ship`) with the units aboard; the quest parties (:class:`Party`) on the
  Wastelands tracks; the monsters waiting on squares;
* per player (:class:`Seat`): people, purse, spell-card hand, units and ships bought and not yet
  placed, whether its King still stands;
* the spell-card and quest decks, the shards still in the box;
* the phase (:class:`Phase`), the turn's records (:class:`TurnLog`), the battle in progress
  (:class:`~warhorn.games.dragonlords.battle.Battle`) and any question waiting for a player who is
  not the active one (an ultimatum, an offer of mercy, an elemental that may be dispelled).

The rules that change it live in :mod:`warhorn.games.dragonlords.rules` and
:mod:`warhorn.games.dragonlords.battle`; this module holds the data and answers the contract
(view, snapshot, determinize, invariants).

Hidden information (DLR-HID-01/02, DLR-SCR-01, DLR-QST-07, DLX-SET-03): which piece of another
player carries which token (until its stack fights), the spells of another player's sorcerers,
the colours of another player's shards and of the shards in the box, other hands, the order of
both decks.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, ClassVar, Self

from warhorn.engine.actions import Action, ActionCodec
from warhorn.engine.decisions import Decision, GameSpec, Results
from warhorn.engine.deck import Deck
from warhorn.engine.errors import IllegalActionError
from warhorn.engine.events import Event
from warhorn.engine.rng import Rng
from warhorn.engine.state import GameState
from warhorn.games.dragonlords.actions import CODEC
from warhorn.games.dragonlords.content import DragonLordsContent
from warhorn.games.dragonlords.world import World

#: The owner of a realm's neutral units (DLR-SET-06).
NEUTRAL = -1
#: The side of a Wastelands monster in a quest combat (DLR-MON-01).
MONSTER = -2

#: Tokens hidden under units (DLR-HID-01): other players see only how many a stack holds.
HIDDEN_TOKENS: frozenset[str] = frozenset({"king", "sorcerer", "decoy", "hero"})
#: The order in which a side's units are taken when a rule does not ask the owner (DLR-HID-03).
TAKE_ORDER: dict[str | None, int] = {
    None: 0,
    "decoy": 1,
    "hero": 2,
    "sorcerer": 3,
    "dragonlord": 4,
    "king": 5,
}


#: The token names an action may hold, as one word each (:attr:`DragonLordsState.action_words`).
TAKE_ORDER_NAMES: tuple[str, ...] = tuple(t for t in TAKE_ORDER if t is not None)
#: Piece and ship numbers below this are named words of the action vocabulary.
NAMED_NUMBERS = 100


class Phase(enum.Enum):
    """Where the game stands: set-up steps, then the seven phases of a turn (DLR-TRN-01)."""

    SETUP_PEOPLE = "setup_people"
    SETUP_REALM = "setup_realm"
    SETUP_TOKENS = "setup_tokens"
    PURCHASE = "purchase"
    NAVAL = "naval"
    QUEST = "quest"
    COMBAT = "combat"
    TRANSFER = "transfer"
    INCOME = "income"
    REINFORCE = "reinforce"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Piece:
    """A unit that carries something: a token, a DragonLord's figure, items or shards.

    ``token``: king, sorcerer, decoy, hero, dragonlord, or None (a plain unit that carries items or
    shards). ``level``: a hero's level (DLX-HER-01). ``spells``: what a sorcerer knows
    (DLR-PEO-05). ``revealed``: its token has been shown to everyone (DLR-HID-02); it is hidden
    again when the unit moves. ``moved``/``spent``: it moved this turn / may not attack again.
    """

    id: int
    token: str | None = None
    level: int = 0
    spells: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    shards: tuple[str, ...] = ()
    revealed: bool = False
    moved: bool = False
    spent: bool = False

    @property
    def hidden(self) -> bool:
        return self.token in HIDDEN_TOKENS and not self.revealed

    @property
    def caster(self) -> bool:
        return self.token in ("king", "sorcerer")


@dataclass(frozen=True, slots=True)
class Force:
    """The units of one owner in one space (or aboard a ship, or in a quest party).

    ``plain``: units that carry nothing; ``moved``/``spent``: how many of them moved this turn /
    may not attack again this turn. ``prisoners`` of player ``prisoners_of``, taken in the Amazon
    player's turn ``captured_turn`` (DLX-AMZ-04).
    """

    owner: int
    people: str
    plain: int = 0
    moved: int = 0
    spent: int = 0
    pieces: tuple[Piece, ...] = ()
    prisoners: int = 0
    prisoners_of: int = NEUTRAL
    captured_turn: int = 0

    @property
    def units(self) -> int:
        return self.plain + len(self.pieces)

    def piece(self, pid: int) -> Piece | None:
        for p in self.pieces:
            if p.id == pid:
                return p
        return None

    def shard_list(self) -> list[str]:
        return [s for p in self.pieces for s in p.shards]

    def item_list(self) -> list[str]:
        return [i for p in self.pieces for i in p.items]

    def has_token(self, token: str) -> bool:
        return any(p.token == token for p in self.pieces)


@dataclass(frozen=True, slots=True)
class Ship:
    """A ship in a sea zone; ``owner`` None when nobody is aboard (DLX-FAQ-03)."""

    id: int
    owner: int | None
    zone: str
    aboard: Force | None = None
    sailed: bool = False


@dataclass(frozen=True, slots=True)
class Party:
    """A quest party on a Wastelands track (DLR-QST-01..10)."""

    owner: int
    track: str
    square: int
    force: Force
    gold: int = 0
    torch: bool = False
    pickaxe: bool = False
    resting: bool = False  # Cursed at the Shrine: may not move next quest phase (DLR-QST-06)
    moved: bool = False  # moved in this quest phase
    came_from: str = ""  # the territory it entered from this turn ("" once settled)
    prev: int = -1  # the square it moved from (-1: it entered the track this move)


@dataclass
class Seat:
    """One player."""

    people: str | None = None
    gold: int = 0
    hand: tuple[str, ...] = ()
    alive: bool = True
    to_place: int = 0
    ships_to_place: int = 0
    realms: tuple[str, ...] = ()
    tokens_to_place: tuple[str, ...] = ()
    turns: int = 0
    torch_home: bool = True
    pickaxe_home: bool = True


@dataclass(frozen=True, slots=True)
class Question:
    """A question waiting for a player who is not (necessarily) the active one."""

    kind: str  # "ultimatum", "dispel", "elemental_order", "carry"
    player: int  # who answers
    asker: int
    count: int = 0  # shards demanded
    shard: str = ""  # the shard a "carry" question places (hidden from the other players)
    card: str = ""  # the elemental card to dispel
    target: str = ""  # the space the elemental strikes; "carry": ANYWHERE, or "" (where it stands)
    item: str = ""  # the item a "carry" question places
    carrier: int = -1  # "carry": the piece that holds the shard or item now


#: A "carry" question's ``target`` when the receiver may put the shard under any of its units in a
#: territory it holds (a shard handed over for an ultimatum, the advanced set-up's shard).
ANYWHERE = "anywhere"


@dataclass
class TurnLog:
    """What happened so far in the current turn."""

    player: int
    spared: tuple[int, ...] = ()  # handed over shards: may not be attacked (DLX-SHD-04)
    demanded: tuple[int, ...] = ()  # already given an ultimatum this turn
    teleported: tuple[int, ...] = ()  # sorcerers that teleported (DLR-PRT-02)
    parties_sent: tuple[str, ...] = ()  # tracks a party entered this turn
    no_attack: tuple[str, ...] = ()  # spaces whose units may not attack again (charm retreat)
    battles: int = 0
    teleport_card: bool = False  # the Teleport card was played: its sorcerer's move is asked next
    order: Action | None = None  # an ``up_to`` order whose exact count is asked next (DLR-MOV-05)
    homes: tuple[str, ...] = ()  # a party off its track's end chooses among these (DLR-QST-02)
    home_track: str = ""


class DragonLordsState(GameState):
    """A Quest for the DragonLords position. Rules live in :mod:`warhorn.games.dragonlords.rules`."""

    spec: ClassVar[GameSpec]
    codec: ClassVar[ActionCodec] = CODEC

    def __init__(
        self, *, world: World, content: DragonLordsContent, options: dict[str, Any], seed: int, rng: Rng
    ) -> None:
        from warhorn.games.dragonlords.battle import Battle

        self.world = world
        self.content = content
        self.options = dict(options)
        self.seed = seed
        self.rng = rng
        self.players: list[Seat] = []
        self.spaces: dict[str, Force] = {}
        self.ships: dict[int, Ship] = {}
        self.parties: dict[tuple[int, str], Party] = {}
        self.monsters: dict[str, tuple[str, int]] = {}
        self.spell_deck = Deck()
        self.quest_deck = Deck()
        self.box_shards: tuple[str, ...] = ()
        self.dragonlords_left = 0
        self.phase = Phase.SETUP_PEOPLE
        self.current = 0
        self.order: tuple[int, ...] = ()
        self.round = 1
        self.turn = TurnLog(0)
        self.battle: Battle | None = None
        self.questions: tuple[Question, ...] = ()
        self.next_piece = 0
        self.next_ship = 0
        self.kingdom_since: dict[str, int] = {}  # Kingdom territory -> step it was taken (DLR-INC-02)
        self.clock = 0
        self.winner: int | None = None
        self.setup_picks: tuple[int, ...] = ()  # DLR-SET-04: who picks the remaining realms, in order
        self.defender_party: tuple[int, str] | None = None  # the party defending in a quest battle
        self.stash: dict[tuple[int, str], Party] = {}  # parties fighting a quest battle
        self.end_reason = ""

    # --- the contract -----------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return len(self.players)

    @property
    def content_hash(self) -> str:
        return f"{self.content.content_hash}{self.world.content_hash}"

    @cached_property
    def territory_ids(self) -> tuple[str, ...]:
        return tuple(s.id for s in self.world.spaces if s.kind == "territory")

    def copy(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.options = dict(self.options)
        twin.rng = self.rng.copy()
        twin.players = [replace(s) for s in self.players]
        twin.spaces = dict(self.spaces)
        twin.ships = dict(self.ships)
        twin.parties = dict(self.parties)
        twin.stash = dict(self.stash)
        twin.monsters = dict(self.monsters)
        twin.kingdom_since = dict(self.kingdom_since)
        twin.turn = replace(self.turn)
        return twin

    def pending(self) -> Decision | None:
        from warhorn.games.dragonlords.rules import pending_decision

        return pending_decision(self)

    def legal_actions(self) -> list[Action]:
        from warhorn.games.dragonlords.rules import legal_actions

        return legal_actions(self)

    def why_illegal(self, action: Action) -> IllegalActionError:
        from warhorn.games.dragonlords.rules import explain_illegal

        return explain_illegal(self, action)

    def _apply_in_place(self, action: Action) -> list[Event]:
        from warhorn.games.dragonlords.rules import apply_action

        return apply_action(self, action)

    def results(self) -> Results | None:
        if self.phase is not Phase.OVER:
            return None
        n = self.num_players
        if self.winner is not None:
            rest = [p for p in range(n) if p != self.winner]
            key = {p: self.score_key(p) for p in rest}
            ranking: list[tuple[int, ...]] = [(self.winner,)]
            for value in sorted(set(key.values()), reverse=True):
                ranking.append(tuple(p for p in rest if key[p] == value))
            winners = frozenset({self.winner})
        else:
            key = {p: self.score_key(p) for p in range(n)}
            ranking = []
            for value in sorted(set(key.values()), reverse=True):
                ranking.append(tuple(p for p in range(n) if key[p] == value))
            winners = frozenset(ranking[0])
        return Results(
            winners=winners,
            ranking=tuple(ranking),
            scores={p: float(self.realms_held(p)) for p in range(n)},
            reason=self.end_reason,
        )

    def rounds_played(self) -> int | None:
        return self.round

    def seat_roles(self) -> list[str] | None:
        return [s.people or "" for s in self.players]

    # --- queries --------------------------------------------------------------------
    def people_of(self, player: int) -> str:
        people = self.players[player].people
        assert people is not None
        return people

    def owner(self, space: str) -> int | None:
        force = self.spaces.get(space)
        return None if force is None else force.owner

    def realms_held(self, player: int) -> int:
        """Realms a player controls: those whose Kingdom territory it holds (DLR-END-01)."""
        return sum(1 for r in self.world.realms if self.owner(self.world.kingdom_of(r.id).id) == player)

    def kingdoms_of(self, player: int) -> list[str]:
        """The Kingdom territories ``player`` holds, oldest-held first (DLR-INC-02)."""
        held = [
            self.world.kingdom_of(r.id).id
            for r in self.world.realms
            if self.owner(self.world.kingdom_of(r.id).id) == player
        ]
        return sorted(held, key=lambda k: (self.kingdom_since.get(k, 0), k))

    def territories_of(self, player: int) -> list[str]:
        return [t for t in self.territory_ids if self.owner(t) == player]

    def forces_of(self, player: int) -> list[Force]:
        out = [f for f in self.spaces.values() if f.owner == player]
        out += [s.aboard for s in self.ships.values() if s.aboard is not None and s.aboard.owner == player]
        out += [p.force for p in self.parties.values() if p.owner == player]
        return out

    def shards_of(self, player: int) -> list[str]:
        return [s for f in self.forces_of(player) for s in f.shard_list()]

    def units_of(self, player: int) -> int:
        return sum(f.units for f in self.forces_of(player))

    def score_key(self, player: int) -> tuple[int, int, int]:
        """DLR-TRN-03: realms, then territories, then units."""
        return (self.realms_held(player), len(self.territories_of(player)), self.units_of(player))

    # --- views ------------------------------------------------------------------------
    def _force_json(self, force: Force, *, full: bool) -> dict[str, Any]:
        out: dict[str, Any] = {
            "owner": force.owner,
            "people": force.people,
            "units": force.units,
            "moved": force.moved + sum(1 for p in force.pieces if p.moved),
        }
        if force.prisoners:
            out["prisoners"] = force.prisoners
            out["prisoners_of"] = force.prisoners_of
        if full:
            out["plain"] = force.plain
            out["spent"] = force.spent
            out["pieces"] = [_piece_json(p) for p in force.pieces]
            return out
        out["hidden_tokens"] = sum(1 for p in force.pieces if p.hidden)
        shown = [p for p in force.pieces if not p.hidden and p.token is not None]
        if shown:
            out["shown"] = sorted([[p.token or "", p.level] for p in shown])
        items = sorted(force.item_list())
        if items:
            out["items"] = items
        shards = len(force.shard_list())
        if shards:
            out["shards"] = shards
        return out

    def _common(self, viewer: int | None, *, everything: bool) -> dict[str, Any]:
        decision = self.pending()

        def full(owner: int) -> bool:
            return everything or (viewer is not None and owner == viewer)

        from warhorn.games.dragonlords.battle import battle_json

        players = []
        for p, seat in enumerate(self.players):
            entry: dict[str, Any] = {
                "people": seat.people,
                "gold": seat.gold,
                "alive": seat.alive,
                "hand_size": len(seat.hand),
                "to_place": seat.to_place,
                "ships_to_place": seat.ships_to_place,
                "realms": list(seat.realms),
                "shards": len(self.shards_of(p)),
                "torch_home": seat.torch_home,
                "pickaxe_home": seat.pickaxe_home,
            }
            if full(p):
                entry["hand"] = sorted(seat.hand)
                entry["tokens_to_place"] = list(seat.tokens_to_place)
            else:
                entry["tokens_to_place"] = len(seat.tokens_to_place)
            players.append(entry)
        return {
            "game": "dragonlords",
            "world": self.world.id,
            "round": self.round,
            "phase": self.phase.value,
            "current": self.current,
            "order": list(self.order),
            "pending": decision.to_json() if decision else None,
            "players": players,
            "spaces": {
                sid: self._force_json(f, full=full(f.owner)) for sid, f in sorted(self.spaces.items())
            },
            "ships": [
                {
                    "id": s.id,
                    "owner": s.owner,
                    "zone": s.zone,
                    "sailed": s.sailed,
                    "aboard": None
                    if s.aboard is None
                    else self._force_json(s.aboard, full=full(s.aboard.owner)),
                }
                for _, s in sorted(self.ships.items())
            ],
            "parties": [
                {
                    "owner": party.owner,
                    "track": party.track,
                    "square": party.square,
                    "gold": party.gold,
                    "torch": party.torch,
                    "pickaxe": party.pickaxe,
                    "resting": party.resting,
                    "moved": party.moved,
                    "fighting": (party.owner, party.track) in self.stash,
                    "force": self._force_json(party.force, full=full(party.owner)),
                }
                for _, party in sorted([*self.parties.items(), *self.stash.items()])
            ],
            "monsters": {sq: [m, w] for sq, (m, w) in sorted(self.monsters.items())},
            "spell_deck": self.spell_deck.public_json(),
            "quest_deck": {"draw_count": len(self.quest_deck.draw_pile)},
            "box_shards": len(self.box_shards),
            "dragonlords_left": self.dragonlords_left,
            "battle": None if self.battle is None else battle_json(self.battle),
            "questions": [
                {
                    "kind": q.kind,
                    "player": q.player,
                    "asker": q.asker,
                    "count": q.count,
                    "card": q.card,
                    "target": q.target,
                    **({"item": q.item} if q.item else {}),
                    **({"shard": q.shard} if full(q.player) or full(q.asker) else {}),
                    **({"carrier": q.carrier} if q.carrier >= 0 and full(q.player) else {}),
                }
                for q in self.questions
            ],
            "turn": {
                "player": self.turn.player,
                "spared": list(self.turn.spared),
                "demanded": list(self.turn.demanded),
                "parties_sent": list(self.turn.parties_sent),
                "no_attack": list(self.turn.no_attack),
                "battles": self.turn.battles,
                "teleported": len(self.turn.teleported),
                **({"teleport_card": True} if self.turn.teleport_card else {}),
                # an up_to order names the owner's pieces by number: only its owner sees it
                **(
                    {"order": self.turn.order.to_json()}
                    if self.turn.order is not None and full(self.turn.player)
                    else {}
                ),
                **(
                    {"homes": list(self.turn.homes), "home_track": self.turn.home_track}
                    if self.turn.homes
                    else {}
                ),
            },
            "winner": self.winner,
            "end_reason": self.end_reason,
        }

    def view(self, player: int | None) -> dict[str, Any]:
        out = self._common(player, everything=False)
        out["viewer"] = player
        if player is None:
            out["action_words"] = list(self.action_words)
        return out

    @property
    def action_words(self) -> tuple[str, ...]:
        """The fixed words an action may hold: the world's spaces, realms and tracks, the content's
        public ids (not cards, quests or shard colours), and the references actions compose
        (``track:<id>``, ``ship:<n>``, ``shard:<colour>``, ``p<n>``, ``item:<n>``, ``grail:<n>`` for
        numbers below :data:`NAMED_NUMBERS`).

        They are public and constant; the public view lists them so that the interop vocabulary
        (``warhorn.interop.action_index``, read from the first state's public view) codes each as one
        token, as other games' boards name their spaces from the start. Numbers beyond the bound are
        spelled there, still codable. Built once per content and world (:func:`action_words_of`).
        """
        return action_words_of(self.content, self.world)

    def snapshot(self) -> dict[str, Any]:
        out = self._common(None, everything=True)
        out.update(
            {
                "seed": self.seed,
                "rng": self.rng.state,
                "options": dict(sorted(self.options.items())),
                "spell_deck_full": self.spell_deck.to_json(),
                "quest_deck_full": self.quest_deck.to_json(),
                "box_shard_list": list(self.box_shards),
                "questions_full": [q.__repr__() for q in self.questions],
                "next_piece": self.next_piece,
                "next_ship": self.next_ship,
                "kingdom_since": dict(sorted(self.kingdom_since.items())),
                "clock": self.clock,
                "setup_picks": list(self.setup_picks),
                "defender_party": None if self.defender_party is None else list(self.defender_party),
                "teleported": list(self.turn.teleported),
            }
        )
        return out

    def determinize(self, player: int, rng: Rng) -> Self:
        """Resample what ``player`` cannot see.

        Other hands and the spell deck's draw pile are dealt again from their pooled cards; the
        quest deck is reshuffled; each other player's hidden tokens (with a sorcerer's spells and a
        hero's level) are exchanged among its unrevealed pieces; the colours of shards the player
        cannot see (other players' and the box's) are dealt again.
        """
        twin = self.copy()
        others = [p for p in range(twin.num_players) if p != player]
        pool = [c for p in others for c in twin.players[p].hand] + list(twin.spell_deck.draw_pile)
        rng.shuffle(pool)
        for p in others:
            n = len(twin.players[p].hand)
            twin.players[p].hand, pool = tuple(sorted(pool[:n])), pool[n:]
        twin.spell_deck = Deck(tuple(pool), twin.spell_deck.discard_pile)
        twin.quest_deck = Deck(tuple(rng.shuffled(twin.quest_deck.draw_pile)), twin.quest_deck.discard_pile)
        # hidden tokens, per owner
        owners = twin.piece_owners()
        for p in others:
            identities = [
                (pc.token, pc.level, pc.spells)
                for pc in twin._all_pieces()
                if pc.hidden and owners[pc.id] == p
            ]
            rng.shuffle(identities)

            def deal(pc: Piece, q: int = p, ids: list[Any] = identities) -> Piece:
                if not (pc.hidden and owners[pc.id] == q):
                    return pc
                token, level, spells = ids.pop()
                return replace(pc, token=token, level=level, spells=spells)

            twin._rewrite_pieces(deal)
        colours = [s for pc in twin._all_pieces() if owners[pc.id] != player for s in pc.shards]
        colours += list(twin.box_shards)
        rng.shuffle(colours)
        renamed: dict[str, str] = {}

        def recolour(pc: Piece) -> Piece:
            if owners[pc.id] == player or not pc.shards:
                return pc
            n = len(pc.shards)
            taken = tuple(colours[:n])
            del colours[:n]
            renamed.update(zip(pc.shards, taken, strict=True))
            return replace(pc, shards=taken)

        twin._rewrite_pieces(recolour)
        twin.box_shards = tuple(colours)
        # a question placing a shard names the colour its carrier now holds
        twin.questions = tuple(
            replace(q, shard=renamed.get(q.shard, q.shard)) if q.kind == "carry" else q
            for q in twin.questions
        )
        return twin

    def _all_pieces(self) -> list[Piece]:
        out = [pc for f in self.spaces.values() for pc in f.pieces]
        out += [pc for s in self.ships.values() if s.aboard for pc in s.aboard.pieces]
        out += [pc for party in self.parties.values() for pc in party.force.pieces]
        if self.battle is not None:
            out += list(self.battle.att.pieces) + list(self.battle.dfn.pieces)
        return out

    def piece_owners(self) -> dict[int, int]:
        """Every piece's owner, by piece id."""
        out: dict[int, int] = {}
        for f in self.spaces.values():
            for pc in f.pieces:
                out[pc.id] = f.owner
        for s in self.ships.values():
            if s.aboard:
                for pc in s.aboard.pieces:
                    out[pc.id] = s.aboard.owner
        for party in self.parties.values():
            for pc in party.force.pieces:
                out[pc.id] = party.owner
        if self.battle is not None:
            for side in (self.battle.att, self.battle.dfn):
                for pc in side.pieces:
                    out[pc.id] = side.player
        return out

    def _rewrite_pieces(self, fn: Callable[[Piece], Piece]) -> None:
        """Replace every piece by ``fn(piece)`` where it stands (no piece moves)."""

        def fix(force: Force) -> Force:
            return replace(force, pieces=tuple(fn(pc) for pc in force.pieces))

        self.spaces = {k: fix(v) if v.pieces else v for k, v in self.spaces.items()}
        self.ships = {
            k: replace(s, aboard=fix(s.aboard)) if s.aboard and s.aboard.pieces else s
            for k, s in self.ships.items()
        }
        self.parties = {k: replace(p, force=fix(p.force)) for k, p in self.parties.items()}
        if self.battle is not None:
            b = self.battle
            self.battle = replace(
                b,
                att=replace(b.att, pieces=tuple(fn(pc) for pc in b.att.pieces)),
                dfn=replace(b.dfn, pieces=tuple(fn(pc) for pc in b.dfn.pieces)),
            )

    def invariants(self) -> list[str]:
        problems: list[str] = []
        seen: set[int] = set()
        owners = self.piece_owners()
        for pc in self._all_pieces():
            if pc.id in seen:
                problems.append(f"piece {pc.id} is in two places")
            seen.add(pc.id)
        for sid, f in self.spaces.items():
            space = self.world.space(sid)
            if space.kind != "territory":
                problems.append(f"{sid}: a force outside a territory")
            if f.units <= 0:
                problems.append(f"{sid}: an empty force")
            if not 0 <= f.spent <= f.moved <= f.plain:
                problems.append(f"{sid}: moved/spent counts out of range")
        fighting = set(self.battle.ships) if self.battle is not None else set()
        for s in self.ships.values():
            if s.id in fighting:
                continue
            if s.aboard is not None and s.aboard.units > self.content.game.ship_capacity:
                problems.append(f"ship {s.id} carries more than {self.content.game.ship_capacity}")
            if (s.aboard is None) != (s.owner is None):
                problems.append(f"ship {s.id}: an owner without units aboard, or units without owner")
        for party in self.parties.values():
            if party.force.units > self.content.game.party_max:
                problems.append(
                    f"a party of {party.force.units} units (more than {self.content.game.party_max})"
                )
        for p, seat in enumerate(self.players):
            if seat.gold < 0:
                problems.append(f"player {p} has negative gold")
            kings = sum(1 for pc in self._all_pieces() if pc.token == "king" and owners.get(pc.id) == p)
            set_up = self.phase not in (Phase.SETUP_PEOPLE, Phase.SETUP_REALM, Phase.SETUP_TOKENS)
            if seat.alive and set_up and kings != 1 and "king" not in seat.tokens_to_place:
                problems.append(f"player {p} is alive with {kings} Kings")
        cards = [c for s in self.players for c in s.hand] + list(self.spell_deck.draw_pile)
        cards += list(self.spell_deck.discard_pile)
        if self.battle is not None:
            cards += list(self.battle.played)
        if sorted(cards) != sorted(self.full_deck):
            problems.append("spell cards lost or duplicated")
        shards = [s for pc in self._all_pieces() for s in pc.shards] + list(self.box_shards)
        if self.battle is not None:
            shards += list(self.battle.spoils_shards)
        if len(shards) != len(set(shards)) or not set(shards) <= set(self.content.shards):
            problems.append("shards lost or duplicated")
        return problems

    @cached_property
    def full_deck(self) -> tuple[str, ...]:
        from warhorn.games.dragonlords.rules import deck_cards

        return deck_cards(self)

    def describe(self) -> str:
        from warhorn.games.dragonlords.rules import describe

        return describe(self)


#: :func:`action_words_of`'s words, by content and world hash.
_ACTION_WORDS: dict[tuple[str, str], tuple[str, ...]] = {}


def action_words_of(content: DragonLordsContent, world: World) -> tuple[str, ...]:
    """:attr:`DragonLordsState.action_words` for a content and world, built on the first call and
    kept (they are constant: no option or position changes them)."""
    key = (content.content_hash, world.content_hash)
    words = _ACTION_WORDS.get(key)
    if words is None:
        words = _ACTION_WORDS[key] = _build_action_words(content, world)
    return words


def _build_action_words(c: DragonLordsContent, w: World) -> tuple[str, ...]:
    words = {s.id for s in w.spaces} | {r.id for r in w.realms} | {t for t, _ in w.tracks}
    words |= {f"track:{t}" for t, _ in w.tracks}
    words |= set(c.peoples) | set(c.spells) | set(c.items) | set(c.monsters)
    words |= {f"shard:{colour}" for colour in c.shards}
    words |= set(TAKE_ORDER_NAMES) | {"thaw", "dragon_fire"}
    for n in range(NAMED_NUMBERS):
        words |= {f"ship:{n}", f"p{n}", f"item:{n}", f"grail:{n}"}
    # card ids, quest ids and shard colours are what hands, decks and shards hide: the wire never
    # names one that is not face up, so they are left out (an action naming one is spelled)
    words -= set(c.cards) | set(c.quests) | set(c.shards)
    return tuple(sorted(words))


def _piece_json(p: Piece) -> dict[str, Any]:
    out: dict[str, Any] = {"id": p.id, "token": p.token}
    if p.level:
        out["level"] = p.level
    if p.spells:
        out["spells"] = list(p.spells)
    if p.items:
        out["items"] = list(p.items)
    if p.shards:
        out["shards"] = list(p.shards)
    if p.revealed:
        out["revealed"] = True
    if p.moved:
        out["moved"] = True
    if p.spent:
        out["spent"] = True
    return out


__all__ = [
    "ANYWHERE",
    "HIDDEN_TOKENS",
    "MONSTER",
    "NEUTRAL",
    "DragonLordsState",
    "Force",
    "Party",
    "Phase",
    "Piece",
    "Question",
    "Seat",
    "Ship",
    "TurnLog",
]
