"""Conquest of Nerath as a :class:`GameState`: spec, options, setup, flow, legal actions, views.

The flow runs the six phases of each kingdom's turn (NER-TRN-01) four times
a round (NER-SET-01). Drawing and income happen by themselves; every other
phase waits for the decisions of the right player.
"""

from __future__ import annotations

from typing import Any, Self

from mypy_extensions import mypyc_attr

from warhorn.engine.actions import Action
from warhorn.engine.decisions import Decision, GameSpec, OptionSpec, Results
from warhorn.engine.deck import Deck
from warhorn.engine.errors import IllegalActionError, OptionError
from warhorn.engine.events import Event
from warhorn.engine.rng import Rng
from warhorn.engine.state import GameState
from warhorn.games.nerath.actions import (
    NERATH_CODEC,
    Pass,
)
from warhorn.games.nerath.board import DUNGEON, KINGDOM_IDS, LAND, SEA, NerathBoard
from warhorn.games.nerath.content import TREASURE_CARDS
from warhorn.games.nerath.decisions import LandingHandler, handler_for
from warhorn.games.nerath.pieces import PIECES, Mobility
from warhorn.games.nerath.rules import battle_flow, cards, dungeons, economy, movement, reposition
from warhorn.games.nerath.state import (
    ALLIANCE_TEAM,
    BATTLES,
    DRAW,
    INCOME,
    MOVEMENT,
    REPOSITION,
    BoardQueries,
    NerathData,
    Phase,
    TurnPosition,
    Unit,
    players_of_mode,
)

#: Upper bounds of the numeric options: far above any real game (shared VP in a long game stay well
#: under 100; a game rarely lasts 30 rounds), so no option can make a game endless.
MAX_ALLIANCE_VP = 200
MAX_ROUND_CAP = 200

NERATH_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "mode",
        str,
        "free_for_all",
        "free_for_all (4 players) or alliance (2-4 players)",
        ("free_for_all", "alliance"),
    ),
    OptionSpec("players", int, 4, "number of players (alliance mode: 2, 3 or 4)", minimum=2, maximum=4),
    OptionSpec("length", str, "medium", "game length (NER-SET-07)", ("short", "medium", "long")),
    OptionSpec(
        "reposition_flyers_cross_enemy",
        bool,
        True,
        "flyers may fly over enemy spaces when repositioning (NER-REP-03; false = Russian summary)",
    ),
    OptionSpec(
        "alliance_short_vp",
        int,
        20,
        "shared VP to win a short alliance game (NER-WIN-03)",
        minimum=1,
        maximum=MAX_ALLIANCE_VP,
    ),
    OptionSpec(
        "alliance_medium_vp",
        int,
        30,
        "shared VP to win a medium alliance game (NER-WIN-03)",
        minimum=1,
        maximum=MAX_ALLIANCE_VP,
    ),
    OptionSpec(
        "alliance_long_treasures",
        int,
        12,
        "shared treasures to win a long alliance game (NER-WIN-03)",
        minimum=1,
        maximum=TREASURE_CARDS,
    ),
    OptionSpec(
        "damage_doubling",
        bool,
        False,
        "damage beyond one per piece doubles up on resilient pieces (NER-BAT-03 alternative reading)",
    ),
    OptionSpec(
        "card_windows",
        str,
        "every_holder",
        "who is asked at a card window: every_holder (hides hands) or playable_only (faster, reveals)",
        ("every_holder", "playable_only"),
    ),
    OptionSpec(
        "allied_damage",
        str,
        "agree",
        "how allied defenders share damage (NER-BAT-07): agree (the allies settle each split; "
        "a refusal falls back to the default) or fixed (always the default split)",
        ("agree", "fixed"),
    ),
    OptionSpec(
        "round_cap",
        int,
        0,
        "end the game after this many rounds with a declared result (0 = never)",
        minimum=0,
        maximum=MAX_ROUND_CAP,
    ),
)

NERATH_SPEC = GameSpec(
    id="nerath",
    name="Conquest of Nerath",
    # 2: card windows ask every card holder (option card_windows), so saves of version 1 replay differently
    # 3: allied defenders agree how to share damage (NER-BAT-07, option allied_damage); card discounts
    #    never bring a price below 1 gold
    # 5: a card is offered only when it can change something; first strike for a number of pieces goes
    #    to the pieces its holder names; a standing extra move for N pieces serves N pieces a turn
    rules_version="5",
    min_players=2,
    max_players=4,
    has_chance=True,
    hidden_information=True,
    options=NERATH_OPTIONS,
    max_actions=200_000,
    description="Four kingdoms fight for Nerath: free-for-all with 4 players or alliances with 2-4.",
)


# compiled build: ``__new__`` without ``__init__`` (``copy()``), ``__init__`` when built from interpreted code
@mypyc_attr(allow_interpreted_subclasses=True)
class NerathState(GameState, BoardQueries):
    """A position of Conquest of Nerath (see :mod:`warhorn.games.nerath.state` for the data)."""

    spec = NERATH_SPEC
    codec = NERATH_CODEC

    def __init__(
        self, board: NerathBoard, d: NerathData, options: dict[str, Any], seed: int, rng: Rng
    ) -> None:
        self.board = board
        self.d = d
        self.options = options
        self.seed = seed
        self.rng = rng
        mode = str(options.get("mode", "free_for_all"))
        self.player_of = players_of_mode(mode, int(options.get("players", 4)))
        self.team = ALLIANCE_TEAM if mode == "alliance" else (0, 1, 2, 3)
        self._ix = None
        self._ix_own = True
        self._situation = None
        self._legal = None
        self._listing = None
        self._sides = None
        self._memo: dict[Any, Any] = {}

    # --- construction ---------------------------------------------------------------
    @classmethod
    def new(
        cls,
        board: NerathBoard,
        options: dict[str, Any] | None = None,
        *,
        seed: int = 0,
        rng: Rng | None = None,
    ) -> NerathState:
        """The first state of a game (NER-SET-06): setup pieces, shuffled decks, 2 events each, guardians.

        Built on the empty position (:mod:`warhorn.games.nerath.position`: no pieces, cards or
        guardians), then set up as the rules say.
        """
        from warhorn.games.nerath.position import position_from

        opts = NERATH_SPEC.resolve_options(options or {})  # an OptionError names the option
        empty_decks: dict[str, Any] = {kid: {"event_deck": []} for kid in KINGDOM_IDS}
        state = position_from(
            {
                "options": opts,
                "seed": seed,
                "kingdoms": empty_decks,
                "treasure_deck": [],
                "guardian_stack": [],
            },
            board,
            rng=rng if rng is not None else Rng(seed),
        )
        assert isinstance(state, NerathState)
        d = state.d
        for k, space, ptype, count in board.setup:
            for _ in range(count):
                state.add_unit(k, ptype, space)
        r = state.rng
        for k in range(4):
            deck = Deck.shuffled(board.event_cards(k), r)
            deck, cards_, _ = deck.draw_many(2, r)
            d.event_decks[k] = deck
            d.hands[k] = tuple(cards_)
        d.treasure_deck = Deck.shuffled(board.treasure_cards(), r)
        d.guardian_stack = Deck.shuffled(board.guardian_tiles(), r)
        for i in range(len(board)):
            if board.kind[i] == DUNGEON:
                dungeons.draw_guardians(state, i, 1)
        d.pos = TurnPosition(1, 0, DRAW)
        state._begin_turn()
        state._advance([])
        return state

    # --- basic facts ---------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return int(self.options["players"])

    @property
    def current_kingdom(self) -> int:
        return self.d.pos.turn

    @property
    def content_hash(self) -> str:
        return self.board.content_hash

    def copy(self) -> Self:
        twin = type(self).__new__(type(self))
        twin.board = self.board
        twin.d = self.d.copy()
        twin.options = self.options
        twin.seed = self.seed
        twin.rng = self.rng.copy()
        twin.player_of = self.player_of
        twin.team = self.team
        # the piece index is shared until one of the two changes a piece (copy on write)
        twin._ix = self._ix
        twin._ix_own = False
        self._ix_own = False
        twin._memo = self._memo
        twin._situation = None
        twin._legal = None
        twin._listing = self._listing  # valid until the twin changes (apply derives its own from it)
        twin._sides = None
        return twin

    def player_scores(self) -> dict[int, float]:
        """Each player's VP (alliance mode: the team's pooled VP, NER-WIN-03)."""
        scores: dict[int, float] = {p: 0.0 for p in range(self.num_players)}
        for k in range(4):
            if self.options["mode"] == "alliance":
                val = sum(self.d.vp[j] for j in range(4) if self.allied(j, k))
            else:
                val = self.d.vp[k]
            scores[self.player_of[k]] = max(scores[self.player_of[k]], float(val))
        return scores

    def seat_roles(self) -> list[str]:
        """The kingdom(s) each player commands (two joined by ``+`` when a player holds two)."""
        return [
            "+".join(self.kingdom_name(k) for k in range(4) if self.player_of[k] == p)
            for p in range(self.num_players)
        ]

    def ranking(self) -> tuple[tuple[int, ...], ...]:
        scores = self.player_scores()
        levels = sorted(set(scores.values()), reverse=True)
        return tuple(tuple(sorted(p for p, v in scores.items() if v == lv)) for lv in levels)

    def results(self) -> Results | None:
        res = self.d.result
        return res if isinstance(res, Results) else None

    # --- card hooks (see rules/cards.py) -------------------------------------------------
    def extra_toughness(self, u: Unit) -> int:
        return cards.extra_toughness(self, u)

    def card_trigger(self, when: str, k: int, space: int) -> list[Event]:
        return cards.trigger(self, when, k, space)

    def draw_treasure(self, k: int) -> list[Event]:
        """NER-DUN-09: exactly one treasure card into the kingdom's hand (hidden from others)."""
        deck, card, _ = self.d.treasure_deck.draw(self.rng)
        self.d.treasure_deck = deck
        if card is None:
            return [Event("treasure.none", {"kingdom": k}, "the treasure deck is empty")]
        self.d.treasure_hands[k] = (*self.d.treasure_hands[k], card)
        name = self.board.treasure(card).name
        return [
            Event(
                "treasure.draw",
                {"kingdom": k, "card": card},
                f"{self.kingdom_name(k)} loots {name}",
                chance=True,
                visible_to=frozenset({self.player_of[k]}),
                public_data={"kingdom": k},
                public_text=f"{self.kingdom_name(k)} loots a treasure",
            ),
            *(
                cards.play_treasure(self, k, card)
                if self.board.treasure(card).timing == "immediately"
                else []
            ),
        ]

    # --- flow ----------------------------------------------------------------------------------
    def _begin_turn(self) -> list[Event]:
        k = self.current_kingdom
        for u in list(self.d.units.values()):
            if u.kingdom == k and (u.moved or u.done or u.new or u.boarded or u.damage or u.inactive):
                self.update(u, moved=0, done=False, new=False, boarded=False, damage=0, inactive=False)
        d = self.d
        d.control_at_start = tuple(d.control)
        d.captured = frozenset()
        d.placed = ()
        d.new_castles = frozenset()
        d.new_pieces_on = frozenset()
        d.effects = ()
        d.battles_todo = ()
        d.landings = ()
        d.amok = ()
        return cards.trigger(self, "turn_start", k, -1)

    def _draw(self, k: int) -> list[Event]:
        """NER-TRN-02: draw one event card; play-immediately cards take effect at once."""
        deck, card, reshuffled = self.d.event_decks[k].draw(self.rng)
        self.d.event_decks[k] = deck
        events: list[Event] = []
        if reshuffled:
            events.append(
                Event(
                    "shuffle",
                    {"kingdom": k},
                    f"{self.kingdom_name(k)} shuffles its discards into a new deck",
                    chance=True,
                )
            )
        if card is None:
            return events
        self.d.hands[k] = (*self.d.hands[k], card)
        events.append(
            Event(
                "card.draw",
                {"kingdom": k, "card": card},
                f"{self.kingdom_name(k)} draws {card}",
                chance=True,
                visible_to=frozenset({self.player_of[k]}),
                public_data={"kingdom": k},
                public_text=f"{self.kingdom_name(k)} draws an event card",
            )
        )
        events += cards.on_draw(self, k, card)
        return events

    def _goto(self, phase: int) -> Event:
        pos = self.d.pos
        ph = _PHASES[phase]
        self.d.pos = TurnPosition(pos.round, pos.turn, ph)
        return Event(
            "flow.phase",
            {"round": pos.round, "kingdom": pos.turn, "phase": _PHASE_IDS[phase]},
            f"round {pos.round}, {self.kingdom_name(pos.turn)}: {ph.title}",
        )

    def _advance(self, events: list[Event]) -> list[Event]:
        """Run automatic steps (draw, battle choice with one option, income, turn change) until a decision."""
        d = self.d
        for _ in range(10_000):
            if d.result is not None or d.windows:
                return events
            phase = d.pos.phase
            k = self.current_kingdom
            if phase == DRAW:
                events += self._draw(k)
                events.append(self._goto(MOVEMENT))
                events += self.card_trigger("movement", k, -1)  # properties of the movement phase
                continue
            if phase == BATTLES:
                if d.battle is not None or d.landings or d.amok:
                    if d.landings and not _LANDING.legal(self):
                        d.landings = ()
                        continue
                    return events
                if d.battles_todo:
                    fights = battle_flow.legal_fights(self)
                    if len(fights) == 1 and not cards.offered(self, k, None):
                        events += battle_flow.start_battle(self, self.board.idx(fights[0].space))
                        continue
                    return events
                events.append(self._goto(REPOSITION))
                events += reposition.start(self, k)
                continue
            if phase == INCOME:
                events += economy.collect_income(self, k)
                res = economy.check_turn_end(self, k)
                if res is not None:
                    d.result = res
                    events.append(Event("game.over", res.to_json(), f"game over: {res.reason}"))
                    return events
                events += self._next_turn()
                continue
            return events
        raise RuntimeError("the flow did not settle")  # pragma: no cover

    def _next_turn(self) -> list[Event]:
        d = self.d
        events: list[Event] = []
        if d.pos.turn == 3:
            res = economy.check_round_end(self)
            cap = int(self.options["round_cap"])
            if res is None and cap and d.pos.round >= cap:
                res = economy.round_cap_result(self)
                d.round_cap_hit = True
            if res is not None:
                d.result = res
                events.append(Event("game.over", res.to_json(), f"game over: {res.reason}"))
                return events
            d.pos = TurnPosition(d.pos.round + 1, 0, DRAW)
            events.append(Event("flow.round", {"round": d.pos.round}, f"round {d.pos.round} begins"))
        else:
            d.pos = TurnPosition(d.pos.round, d.pos.turn + 1, DRAW)
        events.append(
            Event(
                "flow.turn",
                {"round": d.pos.round, "kingdom": d.pos.turn},
                f"{self.kingdom_name(d.pos.turn)}'s turn",
            )
        )
        events += self._begin_turn()
        return events

    # --- decisions (one handler per kind: warhorn.games.nerath.decisions) -------------------------
    def pending(self) -> Decision | None:
        handler = handler_for(self)
        return None if handler is None else handler.decision(self)

    def legal_actions(self) -> list[Action]:
        """The pending decision's actions. The list is remembered until the state changes, so that
        ``apply`` of one of its actions (the same object) does not search for it again."""
        handler = handler_for(self)
        listed = [] if handler is None else handler.legal(self)
        self._legal = tuple(listed)
        return listed

    def auto_answer(self) -> Action | None:
        """A card window offered to a kingdom none of whose cards could change anything (the window
        asks every holder, NER-CRD-01 option ``card_windows``) answers itself with a pass; a
        ``choose`` window (a card's own open choice) never does."""
        w = cards.window(self)
        if w is None or w.name == "choose" or cards.playable_cards(self, w.queue[0], w):
            return None
        return Pass()

    def _check(self, a: Action) -> IllegalActionError | None:
        """None when ``a`` is legal now (one of the listed actions), else the refusal naming the rule."""
        handler = handler_for(self)
        if handler is None:
            return IllegalActionError("the game is over: no action is legal")
        return handler.check(self, a)

    def parse(self, text: str) -> Action:
        """The action a text denotes: a listed action's notation (or a unique prefix of one).

        A move or sail written along another path than the listed one resolves to the listed
        action with the same pieces and destination (the same move, see decisions.py). Other
        text that writes an action which is not listed is read back through the action
        notation and returned as is, so that ``apply`` refuses it naming the rule.
        """
        try:
            return super().parse(text)
        except IllegalActionError:
            action = self.codec.decode_text(text)
            if action is None:
                raise
            handler = handler_for(self)
            listed = handler.canonical(self, action) if handler is not None else None
            return listed or action

    def is_legal(self, action: Action) -> bool:
        listed = self._legal
        if listed is not None:
            for x in listed:  # one of the actions just listed (the usual case): no second search
                if x is action:
                    return True
        return self._check(action) is None

    def why_illegal(self, action: Action) -> IllegalActionError:
        err = self._check(action)
        return err if err is not None else IllegalActionError("the action is legal")

    def _apply_in_place(self, a: Action) -> list[Event]:
        handler = handler_for(self)
        assert handler is not None, "the game is over"
        listing = self._listing
        self._situation = self._legal = self._listing = self._sides = None
        events = self._advance(handler.apply(self, a))
        self._situation = self._legal = self._listing = self._sides = None
        if listing is not None:
            movement.derive_listing(self, listing, a)
        return events

    # --- views ------------------------------------------------------------------------------------
    def _kingdoms_seen_by(self, player: int | None) -> set[int]:
        if player is None:
            return set()
        return {k for k in range(4) if self.player_of[k] == player}

    def _unit_json(self, u: Unit) -> dict[str, Any]:
        out: dict[str, Any] = {"uid": u.uid, "kingdom": KINGDOM_IDS[u.kingdom], "piece": u.ptype}
        if u.carrier >= 0:
            out["aboard"] = u.carrier
        # the flags that are set, in this order (written out: this runs for every piece in every view)
        if u.moved:
            out["moved"] = u.moved
        if u.done:
            out["done"] = u.done
        if u.new:
            out["new"] = u.new
        if u.damage:
            out["damage"] = u.damage
        if u.inactive:
            out["inactive"] = u.inactive
        return out

    def _board_json(self) -> list[dict[str, Any]]:
        board, d = self.board, self.d
        ix = self.index()
        occupied, cargo, units, unit_json = ix.occ, ix.cargo, d.units, self._unit_json
        graph_spaces = board.graph.spaces
        spaces = []
        for i in range(len(board)):
            entry: dict[str, Any] = {"id": graph_spaces[i].id}
            if board.kind[i] == LAND:
                c = d.control[i]
                entry["control"] = KINGDOM_IDS[c] if c >= 0 else None
            here = occupied.get(i)
            if here:
                # the pieces in number order (as units_at), then each one's cargo (as cargo_of)
                pieces = [units[u] for u in here]
                listed = [unit_json(u) for u in pieces]
                for u in pieces:
                    aboard = cargo.get(u.uid)
                    if aboard:
                        listed += [unit_json(units[c]) for c in aboard]
                entry["units"] = listed
            slots = d.guardians.get(i, ())
            if slots:
                entry["guardians_face_down"] = sum(1 for g in slots if not g.face_up)
                up = [{"tile": g.tile, "dice": list(g.dice)} for g in slots if g.face_up]
                if up:
                    entry["guardians"] = up
            spaces.append(entry)
        return spaces

    def view(self, player: int | None) -> dict[str, Any]:
        mine = self._kingdoms_seen_by(player)
        d = self.d
        kingdoms = []
        for k in range(4):
            entry: dict[str, Any] = {
                "id": KINGDOM_IDS[k],
                "player": self.player_of[k],
                "gold": d.gold[k],
                "vp": d.vp[k],
                "income": economy.income_of(self, k),
                "treasures_in_play": list(d.treasures_in_play[k]),
                "event_deck": len(d.event_decks[k].draw_pile),
                "event_discard": list(d.event_decks[k].discard_pile),
            }
            if k in mine:
                entry["hand"] = list(d.hands[k])
                entry["treasure_hand"] = list(d.treasure_hands[k])
            else:
                entry["hand_count"] = len(d.hands[k])
                entry["treasure_hand_count"] = len(d.treasure_hands[k])
            kingdoms.append(entry)
        return {
            "game": "nerath",
            "round": d.pos.round,
            "kingdom": KINGDOM_IDS[self.current_kingdom],
            "phase": Phase(d.pos.phase).id,
            "kingdoms": kingdoms,
            "spaces": self._board_json(),
            "treasure_deck": len(d.treasure_deck.draw_pile),
            "treasure_discard": list(d.treasure_deck.discard_pile),
            "guardian_stack": len(d.guardian_stack.draw_pile),
            "guardians_defeated": list(d.guardian_stack.discard_pile),
            "battle": self._battle_json(),
            "battles_todo": [self.board.sid(i) for i in d.battles_todo],
            "pending": (p.to_json() if (p := self.pending()) else None),
            "result": (r.to_json() if (r := self.results()) else None),
        }

    def _battle_json(self) -> dict[str, Any] | None:
        b = self.d.battle
        if b is None:
            return None
        return {
            "space": self.board.sid(b.space),
            "kind": b.kind,
            "attacker": KINGDOM_IDS[b.attacker],
            "round": b.round,
            "step": b.step,
            "orders": [[o.player, o.kingdom, o.hits] for o in b.orders],
            "split": (
                None
                if b.split is None
                else {
                    "hits": b.split.hits,
                    "proposer": KINGDOM_IDS[b.split.proposer],
                    "partner": KINGDOM_IDS[b.split.partner],
                    "offer": list(b.split.offer) if b.split.offer is not None else None,
                }
            ),
        }

    def snapshot(self) -> dict[str, Any]:
        d = self.d
        return {
            "view": self.view(None),
            "units": [
                [
                    u.uid,
                    u.kingdom,
                    u.ptype,
                    u.space,
                    u.carrier,
                    u.moved,
                    u.done,
                    u.new,
                    u.damage,
                    u.inactive,
                    u.boarded,
                ]
                for u in sorted(d.units.values(), key=lambda x: x.uid)
            ],
            "hands": [list(h) for h in d.hands],
            "treasure_hands": [list(h) for h in d.treasure_hands],
            "event_decks": [x.to_json() for x in d.event_decks],
            "treasure_deck": d.treasure_deck.to_json(),
            "guardian_stack": d.guardian_stack.to_json(),
            "guardians": {
                self.board.sid(i): [[g.tile, list(g.dice), g.face_up] for g in slots]
                for i, slots in sorted(d.guardians.items())
            },
            "control_at_start": list(d.control_at_start),
            "captured": sorted(d.captured),
            "placed": [list(p) for p in d.placed],
            "new_castles": sorted(d.new_castles),
            "landings": list(d.landings),
            "amok": list(d.amok),
            "effects": [[k, e.op, [list(p) for p in e.params], e.when] for k, e in d.effects],
            "windows": [
                [w.name, list(w.queue), w.resume, list(w.card) if w.card else None] for w in d.windows
            ],
            "rng": self.rng.state,
            "next_uid": d.next_uid,
        }

    def describe(self) -> str:
        d = self.d
        parts = [
            f"Round {d.pos.round}, {self.kingdom_name(self.current_kingdom)} — {Phase(d.pos.phase).title}"
        ]
        for k in range(4):
            parts.append(
                f"  {self.kingdom_name(k):12} gold {d.gold[k]:3}  VP {d.vp[k]:3}  "
                f"income {economy.income_of(self, k):3}  "
                f"hand {len(d.hands[k])}  treasures {self.treasure_count(k)}"
            )
        if d.battles_todo:
            parts.append("  battles pending: " + ", ".join(self.board.sid(i) for i in d.battles_todo))
        p = self.pending()
        parts.append("  " + (p.prompt if p else "game over"))
        return "\n".join(parts)

    # --- hidden information ------------------------------------------------------------------------
    def determinize(self, player: int, rng: Rng) -> Self:
        """Redeal what ``player`` cannot see: others' hands, every deck order, face-down guardians."""
        twin = self.copy()
        d = twin.d
        mine = self._kingdoms_seen_by(player)
        # What is reshuffled, all at once (the same orders as shuffling one after the other, in
        # this order): each kingdom's event draw pile, with the hand of a kingdom the player does
        # not see; the treasure draw pile with the unseen kingdoms' treasures; the face-down
        # guardians with the guardian stack.
        events = [
            list(d.event_decks[k].draw_pile)
            if k in mine
            else list(d.hands[k]) + list(d.event_decks[k].draw_pile)
            for k in range(4)
        ]
        pool_t = list(d.treasure_deck.draw_pile)
        for k in range(4):
            if k not in mine:
                pool_t += list(d.treasure_hands[k])
        hidden = list(d.guardian_stack.draw_pile)
        for placed in d.guardians.values():
            hidden += [g.tile for g in placed if not g.face_up]
        rng.shuffle_each([*events, pool_t, hidden])
        for k in range(4):
            deck = d.event_decks[k]
            pool = events[k]
            if k in mine:
                d.event_decks[k] = Deck(tuple(pool), deck.discard_pile)
                continue
            n = len(d.hands[k])
            d.hands[k] = tuple(pool[:n])
            d.event_decks[k] = Deck(tuple(pool[n:]), deck.discard_pile)
        for k in range(4):
            if k not in mine:
                n = len(d.treasure_hands[k])
                d.treasure_hands[k] = tuple(pool_t[:n])
                pool_t = pool_t[n:]
        d.treasure_deck = Deck(tuple(pool_t), d.treasure_deck.discard_pile)
        for space in sorted(d.guardians):
            slots = list(d.guardians[space])
            for n, g in enumerate(slots):
                if not g.face_up:
                    slots[n] = dungeons.fresh_slot(twin, hidden.pop())
            d.guardians[space] = tuple(slots)
        d.guardian_stack = Deck(tuple(hidden), d.guardian_stack.discard_pile)
        twin.rng = Rng(rng.next_u64())
        return twin

    def invariants(self) -> list[str]:
        out: list[str] = []
        d = self.d
        for k in range(4):
            if d.gold[k] < 0:
                out.append(f"{KINGDOM_IDS[k]} has negative gold {d.gold[k]}")
            if d.vp[k] < 0:
                out.append(f"{KINGDOM_IDS[k]} has negative VP")
            played = sum(self.board.treasure(c).vp for c in d.treasures_in_play[k])
            if d.vp[k] < played:
                out.append(
                    f"{KINGDOM_IDS[k]} has fewer VP ({d.vp[k]}) than its treasures in play give ({played})"
                )
        castles: dict[int, int] = {}
        for u in d.units.values():
            kind = self.board.kind[u.space]
            if u.carrier >= 0:
                ship = d.units.get(u.carrier)
                if ship is None or ship.ptype != "warship":
                    out.append(f"piece {u.uid} is aboard a missing warship {u.carrier}")
                elif ship.space != u.space or ship.kingdom != u.kingdom:
                    out.append(f"piece {u.uid} is not where its warship {u.carrier} is")
                if PIECES[u.ptype].mobility != Mobility.LAND:
                    out.append(f"a {u.ptype} is carried by a warship")
                continue
            mob = PIECES[u.ptype].mobility
            if mob in (Mobility.LAND, Mobility.IMMOBILE) and kind == SEA:
                out.append(f"a {u.ptype} stands on sea space {self.board.sid(u.space)}")
            if mob == Mobility.SEA and kind != SEA:
                out.append(f"a warship is on land space {self.board.sid(u.space)}")
            if kind == DUNGEON and not PIECES[u.ptype].hero:
                out.append(f"a {u.ptype} is on dungeon {self.board.sid(u.space)}")
            if u.ptype == "castle":
                castles[u.space] = castles.get(u.space, 0) + 1
            if u.ptype == "warship" and len(self.cargo_of(u.uid)) > PIECES["warship"].capacity:
                out.append(f"warship {u.uid} carries more than 2 pieces")
        out += [f"{self.board.sid(s)} has {n} castles" for s, n in castles.items() if n > 1]
        for i in range(len(self.board)):
            if self.board.kind[i] != LAND and d.control[i] != -1:
                out.append(f"{self.board.sid(i)} is not a territory but has a controller")
        return out


_LANDING = LandingHandler()
#: The phases and their ids by number (the flow changes phase several times a turn).
_PHASES: tuple[Phase, ...] = tuple(Phase)
_PHASE_IDS: tuple[str, ...] = tuple(ph.id for ph in Phase)


def nerath_factory(options: dict[str, Any], seed: int, content: Any) -> GameState:
    """Registry factory: ``content`` is a NerathBoard, a loaded NerathContent, or None (shipped content)."""
    if content is None:
        content = _shipped_content()
    board = content if isinstance(content, NerathBoard) else _board_cache(content)
    try:
        players_of_mode(str(options["mode"]), int(options["players"]))
    except ValueError as exc:
        raise OptionError("players", str(exc)) from None
    return NerathState.new(board, options, seed=seed)


_SHIPPED: list[tuple[tuple[tuple[str, int, int], ...], Any]] = []


def _shipped_content() -> Any:
    """The shipped content, read and validated once per version of its files (name, mtime, size).

    Every new game used to re-read and re-validate the five files; a changed file is read again.
    """
    from warhorn.games.nerath.content import content_files, load_nerath_content  # type: ignore[import-not-found, unused-ignore]

    stamp = tuple(
        (str(path), stat.st_mtime_ns, stat.st_size)
        for path in sorted(content_files(None).values())
        for stat in (path.stat(),)
    )
    if _SHIPPED and _SHIPPED[0][0] == stamp:
        return _SHIPPED[0][1]
    content = load_nerath_content()
    _SHIPPED[:] = [(stamp, content)]
    return content


_LAST_BOARD: list[tuple[Any, NerathBoard]] = []


def _board_cache(content: Any) -> NerathBoard:
    """The runtime board of ``content``, built once per content object (the last one is remembered)."""
    from warhorn.games.nerath.board import board_from_content

    if _LAST_BOARD and _LAST_BOARD[0][0] is content:
        return _LAST_BOARD[0][1]
    board = board_from_content(content)
    _LAST_BOARD[:] = [(content, board)]
    return board
