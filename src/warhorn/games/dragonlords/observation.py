"""What a Quest for the DragonLords player sees, as a fixed-size float32 vector (the plugin's
``observation``).

Read from the state directly — the same facts as ``view(player)``, nothing it hides — for
:mod:`warhorn.interop`'s environments, which would otherwise hash the JSON view at every action.
Seats are numbered from the viewer (0 = the viewer, 1 = the next seat …). The layout is fixed by the
world, the content and the number of players:

- per space of the world (territories, sea zones, Wastelands squares, in the world's order): the
  owners of the forces there (a seat, or neutral), units, units that moved, hidden tokens, prisoners;
  the tokens shown (King, sorcerer, decoy, hero, DragonLord: another player's only once revealed,
  DLR-HID-02; the viewer's own all) and the heroes' levels; the items (public); how many shards;
  for the viewer's own units only, the shards' colours and the spells its sorcerers know; ships
  (by owner, empty, sailed); a quest party's gold, torch, pickaxe, resting, moved, fighting; the
  monster waiting there and its wounds; a combat there;
- per seat: people, gold, alive, spell cards held (a count), units and ships to place, realms
  chosen and held, shards held (a count), torch and pickaxe at home, tokens still to place (a
  count); for the viewer only, its hand (per card) and its tokens to place (per kind);
- the round, the phase, the seat to play, the decision asked and of whom, the spell deck (cards
  left, the face-up discard per card), the quest deck's size, shards in the box, DragonLords left;
  the questions waiting (kind, who answers, who asked, shards demanded; for the viewer, the colour
  or item a ``carry`` question places); the turn's records (spared, demanded, battles, teleports,
  the Teleport card, a party's way home; an ``up_to`` order only to its owner);
- the combat in progress: kind, round, step, the face-up cards played, the card exchange and an
  offer of mercy; per side its seat, fighters, fighters out of action, wounds, the tokens of its
  pieces (shown in a combat), their shards (a count) and items, the TAS modifier, hits, spells cast,
  shield and shards used.

Hidden facts never enter: another player's hidden tokens, sorcerers' spells and shard colours, the
hands and the deck orders (``tests/interop/test_observation.py`` checks the vector against
``determinize``, and ``tests/dragonlords/test_observation.py`` on positions built to hold each).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from warhorn.games.dragonlords.battle import Side
from warhorn.games.dragonlords.state import NEUTRAL, DragonLordsState, Force, Phase

#: Tokens counted per space (the hidden ones and the DragonLord's figure).
_TOKENS = ("king", "sorcerer", "decoy", "hero", "dragonlord")
#: Question kinds (``Question.kind``).
_QUESTIONS = ("ultimatum", "dispel", "elemental_order", "carry")
#: Decision kinds the rules ask (``pending_decision``, ``battle_decision``); others get no slot.
_DECISIONS = (
    "people",
    "realm",
    "token",
    "purchase",
    "naval",
    "quest",
    "combat",
    "transfer",
    "reinforce",
    "count",
    "home",
    "teleport",
    *_QUESTIONS,
    "cards",
    "mercy",
    "retreat",
    "escape",
    "order",
    "tas",
    "ranged",
    "casualties",
    "heal",
    "raise",
)
_BATTLE_KINDS = ("land", "naval", "quest")
_BATTLE_STEPS = (
    "cards",
    "retreat",
    "mercy",
    "mercy_answer",
    "escape",
    *(f"{base}_{side}" for base in ("order", "tas", "ranged", "lose", "heal", "raise") for side in "ad"),
)
#: Per space, after the owners: units, moved, hidden tokens, prisoners.
_SPACE_COUNTS = 4
#: Per space: empty ships, sailed ships; party gold, torch, pickaxe, resting, moved, fighting; a
#: combat here.
_SPACE_TAIL = 9
#: Per seat, after the people: gold, alive, hand size, to place, ships to place, realms chosen,
#: realms held, shards, torch home, pickaxe home, tokens to place.
_SEAT_COUNTS = 11
#: Per battle side, after its seat: fighters, out of action, wounds, shards, items, modifier, hits,
#: spells cast, shield, shards used.
_SIDE_COUNTS = 10


class DragonLordsObservation:
    """The encoder of one world, content and number of players (see the module text)."""

    def __init__(self, first: DragonLordsState) -> None:
        self.players = n = first.num_players
        content, world = first.content, first.world
        self.spaces = {s.id: i for i, s in enumerate(world.spaces)}
        self.kingdoms = tuple(world.kingdom_of(r.id).id for r in world.realms)
        self.squares = {
            track: tuple(self.spaces[sq.id] for sq in world.track_squares(track)) for track, _ in world.tracks
        }
        self.items = {i: k for k, i in enumerate(sorted(content.items))}
        self.shards = {s: k for k, s in enumerate(sorted(content.shards))}
        self.spells = {s: k for k, s in enumerate(sorted(content.spells))}
        self.monsters = {m: k for k, m in enumerate(sorted(content.monsters))}
        self.cards = {c: k for k, c in enumerate(sorted(content.cards))}
        self.peoples = {p: k for k, p in enumerate(sorted(content.peoples))}
        self.phases = {p: k for k, p in enumerate(Phase)}
        self.decisions = {d: k for k, d in enumerate(_DECISIONS)}
        self.steps = {s: k for k, s in enumerate(_BATTLE_STEPS)}
        # a space: owners (n seats + neutral), counts, tokens and hero levels, items, shards, own
        # shard colours, own spells, monsters and wounds, the tail
        self.owners = n + 1
        self.at_tokens = self.owners + _SPACE_COUNTS
        self.at_items = self.at_tokens + len(_TOKENS) + 1
        self.at_shards = self.at_items + len(self.items)
        self.at_spells = self.at_shards + 1 + len(self.shards)
        self.at_monsters = self.at_spells + len(self.spells)
        self.at_tail = self.at_monsters + len(self.monsters) + 1
        self.space_width = self.at_tail + _SPACE_TAIL
        # a seat: people, counts, own hand, own tokens to place
        self.seat_width = len(self.peoples) + _SEAT_COUNTS + len(self.cards) + len(_TOKENS)
        self.at_seats = len(self.spaces) * self.space_width
        self.at_globals = self.at_seats + n * self.seat_width
        # round, phase, current seat, decision kind and seat, deck sizes, discard, box, dragonlords
        globals_width = 1 + len(self.phases) + n + len(self.decisions) + n + 2 + len(self.cards) + 2
        # questions: per kind, first question's answerer and asker, count, own colour or item
        questions_width = len(_QUESTIONS) + 2 * n + 1 + len(self.shards) + len(self.items)
        # turn: spared, demanded, battles, teleported, teleport card, own order, homes
        turn_width = 2 * n + 5
        self.at_questions = self.at_globals + globals_width
        self.at_turn = self.at_questions + questions_width
        self.at_battle = self.at_turn + turn_width
        # battle: kind, round, step, played cards, exchange (attacker/defender to play, finished),
        # mercy offered; then two sides (seat: n + neutral + monster)
        self.side_width = n + 2 + len(_TOKENS) + _SIDE_COUNTS
        self.at_sides = self.at_battle + len(_BATTLE_KINDS) + 1 + len(self.steps) + len(self.cards) + 4
        self._size = self.at_sides + 2 * self.side_width
        # the last vector: an environment encodes the same position at each token step of an action
        self._last: tuple[DragonLordsState, int, npt.NDArray[np.float32]] | None = None

    @property
    def size(self) -> int:
        return self._size

    def _seat(self, owner: int, player: int) -> int:
        """A force owner's slot among the owners: its seat from the viewer, or neutral last."""
        return (owner - player) % self.players if owner >= 0 else self.players

    def _force(self, force: Force, at: int, player: int, where: list[int], values: list[float]) -> int:
        """A force's facts into the space block starting at ``at``; returns its shards (for the count
        its owner is seen to hold)."""
        where.append(at + self._seat(force.owner, player))
        values.append(1.0)
        carried = 0
        c = at + self.owners
        own = force.owner == player
        hidden = 0
        moved = force.moved
        items = self.items
        for pc in force.pieces:
            moved += pc.moved
            if pc.hidden:
                hidden += 1
            if pc.token is not None and (own or not pc.hidden):
                where.append(at + self.at_tokens + _TOKENS.index(pc.token))
                values.append(1.0)
                if pc.level:
                    where.append(at + self.at_tokens + len(_TOKENS))
                    values.append(float(pc.level))
            for item in pc.items:
                k = items.get(item)
                if k is not None:
                    where.append(at + self.at_items + k)
                    values.append(1.0)
            if pc.shards:
                carried += len(pc.shards)
                where.append(at + self.at_shards)
                values.append(float(len(pc.shards)))
                if own:
                    for s in pc.shards:
                        where.append(at + self.at_shards + 1 + self.shards[s])
                        values.append(1.0)
            if own:
                for spell in pc.spells:
                    k = self.spells.get(spell)
                    if k is not None:
                        where.append(at + self.at_spells + k)
                        values.append(1.0)
        where += [c, c + 1, c + 2, c + 3]
        values += [float(force.units), float(moved), float(hidden), float(force.prisoners)]
        return carried if force.owner >= 0 else 0

    def encode(self, state: DragonLordsState, player: int) -> npt.NDArray[np.float32]:
        """``player``'s vector of ``state`` (a position is not changed once made: ``apply`` returns a
        new one, so the last answer is kept for the same state object and player)."""
        last = self._last
        if last is not None and last[0] is state and last[1] == player:
            return last[2].copy()
        vector = self._encode(state, player)
        self._last = (state, player, vector)
        return vector.copy()

    def _encode(self, state: DragonLordsState, player: int) -> npt.NDArray[np.float32]:
        n = self.players
        shards = [0] * n  # shards per player: in territories, aboard ships and in parties (the view's)
        where: list[int] = []
        values: list[float] = []
        width = self.space_width
        slot = self.spaces
        for sid, force in state.spaces.items():
            shards[force.owner] += self._force(force, slot[sid] * width, player, where, values)
        for ship in state.ships.values():
            at = slot[ship.zone] * width
            if ship.aboard is not None:
                shards[ship.aboard.owner] += self._force(ship.aboard, at, player, where, values)
            else:
                where.append(at + self.at_tail)
                values.append(1.0)
            if ship.sailed:
                where.append(at + self.at_tail + 1)
                values.append(1.0)
        fighting = set(state.stash)
        for key, party in [*state.parties.items(), *state.stash.items()]:
            at = self.squares[party.track][party.square] * width
            carried = self._force(party.force, at, player, where, values)
            if key not in fighting:
                shards[party.owner] += carried
            t = at + self.at_tail + 2
            where += [t, t + 1, t + 2, t + 3, t + 4, t + 5]
            values += [
                float(party.gold),
                float(party.torch),
                float(party.pickaxe),
                float(party.resting),
                float(party.moved),
                float(key in fighting),
            ]
        for sq, (monster, wounds) in state.monsters.items():
            at = slot[sq] * width + self.at_monsters
            k = self.monsters.get(monster)
            if k is not None:
                where.append(at + k)
                values.append(1.0)
            where.append(at + len(self.monsters))
            values.append(float(wounds))
        # seats
        held = [0] * n
        for kingdom in self.kingdoms:
            found = state.spaces.get(kingdom)
            if found is not None and found.owner >= 0:
                held[found.owner] += 1
        peoples = len(self.peoples)
        for p, seat in enumerate(state.players):
            at = self.at_seats + ((p - player) % n) * self.seat_width
            if seat.people is not None:
                where.append(at + self.peoples[seat.people])
                values.append(1.0)
            c = at + peoples
            where += list(range(c, c + _SEAT_COUNTS))
            values += [
                float(seat.gold),
                float(seat.alive),
                float(len(seat.hand)),
                float(seat.to_place),
                float(seat.ships_to_place),
                float(len(seat.realms)),
                float(held[p]),
                float(shards[p]),
                float(seat.torch_home),
                float(seat.pickaxe_home),
                float(len(seat.tokens_to_place)),
            ]
            if p == player:
                c += _SEAT_COUNTS
                for card in seat.hand:
                    where.append(c + self.cards[card])
                    values.append(1.0)
                c += len(self.cards)
                for token in seat.tokens_to_place:
                    if token in _TOKENS:
                        where.append(c + _TOKENS.index(token))
                        values.append(1.0)
        # globals
        at = self.at_globals
        where += [
            at,
            at + 1 + self.phases[state.phase],
            at + 1 + len(self.phases) + (state.current - player) % n,
        ]
        values += [float(state.round), 1.0, 1.0]
        at += 1 + len(self.phases) + n
        decision = state.pending()
        if decision is not None:
            k = self.decisions.get(decision.kind)
            if k is not None:
                where.append(at + k)
                values.append(1.0)
            where.append(at + len(self.decisions) + (decision.player - player) % n)
            values.append(1.0)
        at += len(self.decisions) + n
        deck = state.spell_deck
        where += [at, at + 1]
        values += [float(len(deck.draw_pile)), float(len(state.quest_deck.draw_pile))]
        at += 2
        for card in deck.discard_pile:
            where.append(at + self.cards[card])
            values.append(1.0)
        at += len(self.cards)
        where += [at, at + 1]
        values += [float(len(state.box_shards)), float(state.dragonlords_left)]
        # questions
        at = self.at_questions
        for q in state.questions:
            where.append(at + _QUESTIONS.index(q.kind))
            values.append(1.0)
        if state.questions:
            q = state.questions[0]
            c = at + len(_QUESTIONS)
            where += [c + (q.player - player) % n, c + n + (q.asker - player) % n, c + 2 * n]
            values += [1.0, 1.0, float(q.count)]
            c += 2 * n + 1
            if q.kind == "carry" and q.player == player:
                if q.shard:
                    where.append(c + self.shards[q.shard])
                    values.append(1.0)
                if q.item in self.items:
                    where.append(c + len(self.shards) + self.items[q.item])
                    values.append(1.0)
        # the turn
        turn = state.turn
        at = self.at_turn
        for p in turn.spared:
            where.append(at + (p - player) % n)
            values.append(1.0)
        for p in turn.demanded:
            where.append(at + n + (p - player) % n)
            values.append(1.0)
        c = at + 2 * n
        where += [c, c + 1, c + 2, c + 3, c + 4]
        values += [
            float(turn.battles),
            float(len(turn.teleported)),
            float(turn.teleport_card),
            float(turn.order is not None and turn.player == player),
            float(len(turn.homes)),
        ]
        b = state.battle
        if b is not None:
            at = self.at_battle
            where += [at + _BATTLE_KINDS.index(b.kind), at + len(_BATTLE_KINDS)]
            values += [1.0, float(b.round)]
            at += len(_BATTLE_KINDS) + 1
            step = self.steps.get(b.step)
            if step is not None:
                where.append(at + step)
                values.append(1.0)
            at += len(self.steps)
            for card in b.played:
                where.append(at + self.cards[card])
                values.append(1.0)
            at += len(self.cards)
            if b.exchange is not None:
                where += [at + (0 if b.exchange.to_play == "attacker" else 1), at + 2]
                values += [1.0, float(b.exchange.finished)]
            where.append(at + 3)
            values.append(float(bool(b.mercy)))
            where.append(slot[b.space] * width + self.at_tail + 8)
            values.append(1.0)
            for s, side in enumerate((b.att, b.dfn)):
                self._side(side, self.at_sides + s * self.side_width, player, where, values)
        return _vector(self._size, where, values)

    def _side(self, side: Side, at: int, player: int, where: list[int], values: list[float]) -> None:
        """A battle side as everyone sees it (its pieces are shown, DLR-HID-02)."""
        n = self.players
        seat = (side.player - player) % n if side.player >= 0 else (n if side.player == NEUTRAL else n + 1)
        where.append(at + seat)
        values.append(1.0)
        at += n + 2
        for pc in side.pieces:
            if pc.token in _TOKENS:
                where.append(at + _TOKENS.index(pc.token))
                values.append(1.0)
        c = at + len(_TOKENS)
        where += list(range(c, c + _SIDE_COUNTS))
        values += [
            float(len(side.fighters)),
            float(sum(1 for f in side.fighters if f.out_of_action)),
            float(sum(f.wounds for f in side.fighters)),
            float(sum(len(pc.shards) for pc in side.pieces)),
            float(sum(len(pc.items) for pc in side.pieces)),
            float(sum(side.mods)),
            float(side.hits),
            float(len(side.cast)),
            float(side.shield),
            float(side.shards_used),
        ]


def _vector(size: int, where: Sequence[int], values: Sequence[float]) -> npt.NDArray[np.float32]:
    return np.bincount(where, weights=values, minlength=size).astype(np.float32)


def observation_encoder(first: DragonLordsState) -> DragonLordsObservation:
    """The plugin's ``observation`` factory."""
    return DragonLordsObservation(first)
