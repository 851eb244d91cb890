"""Every worked example of the Italian Conquest of Nerath rulebook, reproduced position by position.

Each test names the rulebook section its example comes from (the Italian
section title, in the order of the rulebook) and the rule IDs it checks. The
examples that name board spaces run on the shipped board (whose geography the
content check holds to them, see ``board_facts.py``); the others build their
position on the small test board or on the shipped one as fits.
"""

from __future__ import annotations

import pytest

from tests.games.nerath.scenario import IC, K, N, V, begin_turn, pieces_at, play, position, ship_uid
from tests.games.nerath.test_game_flow import end_round
from warhorn.engine import load_game
from warhorn.engine.errors import IllegalActionError
from warhorn.games.nerath.actions import Load, Move, ShipMove, Unload
from warhorn.games.nerath.board import board_from_content
from warhorn.games.nerath.content import load_nerath_content
from warhorn.games.nerath.pieces import PIECES
from warhorn.games.nerath.rules import economy, movement
from warhorn.games.nerath.state import REINFORCEMENTS

SHIPPED = board_from_content(load_nerath_content())
ISLAND = ("amil_forest", "zaarnath", "satrapy_of_numoth", "dread_marches")


def on_shipped(pieces, **kw):  # type: ignore[no-untyped-def]
    return position(pieces, board=SHIPPED, **kw)


def destinations(s, k: int, ptype: str) -> set[str]:  # type: ignore[no-untyped-def]
    return {a.path[-1] for a in movement.legal_moves(s, k) if isinstance(a, Move) and a.piece == ptype}


def rolls_of(events) -> list[list[int]]:  # type: ignore[no-untyped-def]
    return [[f for _, f in e.data["dice"]] for e in events if e.kind == "roll"]


# --- "Come vincere" (how to win) ----------------------------------------------------------------
@pytest.mark.rule("NER-WIN-01")
@pytest.mark.rule("NER-VP-01")
def test_example_how_to_win_a_13_vp_tie_plays_another_round() -> None:
    """Short game: Karkoth reaches 13 VP in its turn; Vailin, Iron Circle and Nerath still play
    theirs; Nerath reaches 13 too, so nobody wins at the round's end and another round is played,
    at whose end the VP are checked again."""
    s = position([(K, "k1", "soldier", 1)], options={"length": "short"})
    s.d.vp = [13, 0, 0, 0]  # position 1: Karkoth at 13 during its own turn
    s, _ = play(s, "pass", "pass", "pass")
    assert s.results() is None  # victory waits for the end of the round
    s.d.vp[N] = 13  # position 2: Nerath reaches 13 in its turn, the last of the round
    s = end_round(s)
    assert s.results() is None and s.d.pos.round == 2  # tied for most: no winner, play on
    s.d.vp[K] = 14  # position 3: at the end of the next round Karkoth is strictly ahead
    s = end_round(s)
    assert s.results() is not None and s.results().winners == frozenset({K})


# --- "Fase 2. Movimento" ----------------------------------------------------------------------
@pytest.mark.rule("NER-MOV-01")
def test_example_movement_a_dragon_moves_zero_to_three_spaces_and_a_soldier_one() -> None:
    s = on_shipped([(N, "mithralfast", "dragon", 1), (N, "mithralfast", "soldier", 1)], kingdom=N)
    graph = SHIPPED.graph
    reach = graph.reachable("mithralfast", 3, can_enter=lambda _: True)
    dragon = destinations(s, N, "dragon")
    assert dragon and all(1 <= reach[d] <= 3 for d in dragon)
    assert {reach[d] for d in dragon} == {1, 2, 3}  # fewer than its move value, or none (not moving)
    assert destinations(s, N, "soldier") == {
        n for n in graph.neighbors_of("mithralfast") if SHIPPED.kind[SHIPPED.idx(n)] == "land"
    }


@pytest.mark.rule("NER-MAP-02")
def test_example_movement_the_board_is_not_geomorphic() -> None:
    """No move from Kharavas straight to Forbidden City, nor from Dawnforge Mountains to Scarlet
    Principalities, though they look close on the map."""
    s = on_shipped([(K, "kharavas", "soldier", 1)])
    assert "forbidden_city" not in destinations(s, K, "soldier")
    with pytest.raises(IllegalActionError):
        s.apply(Move("soldier", 1, ("kharavas", "forbidden_city")))
    t = on_shipped([(N, "dawnforge_mountains", "soldier", 1)], kingdom=N)
    assert "scarlet_principalities" not in destinations(t, N, "soldier")


@pytest.mark.rule("NER-MOV-01")
@pytest.mark.rule("NER-MOV-04")
def test_example_amil_forest_a_soldier_and_a_warrior_on_the_island() -> None:
    """A soldier in Amil Forest moves to Zaarnath, Satrapy of Numoth or Dread Marches; a warrior
    (move 2) reaches any territory of the island, and Tomb of Horrors because it is a hero."""
    island = {sid: V for sid in ISLAND}  # the example's island is friendly all over
    s = on_shipped(
        [(V, "amil_forest", "soldier", 1), (V, "amil_forest", "warrior", 1)], kingdom=V, control=island
    )
    assert destinations(s, V, "soldier") == {"zaarnath", "satrapy_of_numoth", "dread_marches"}
    warrior = destinations(s, V, "warrior")
    assert set(ISLAND) - {"amil_forest"} <= warrior
    assert "tomb_of_horrors" in warrior
    assert "tomb_of_horrors" not in destinations(s, V, "soldier")  # only heroes enter dungeons


@pytest.mark.rule("NER-SEA-01")
@pytest.mark.rule("NER-SEA-03")
@pytest.mark.rule("NER-PCS-08")
def test_example_gulf_of_kar_a_warship_loads_on_its_way_and_unloads_two_seas_on() -> None:
    """A warship (move 2) in the Gulf of Kar may sail to any sea within two spaces, picking up
    soldiers from Maze of Maur Khul and Ruined Land of Tarsembor on its way, and unload them onto
    a territory next to the Gulf, Dragon's Gate, Forbidding Shore, Amilian Sea, Kraken's Reach or
    Tarsem Coast."""
    s = on_shipped(
        [
            (K, "gulf_of_kar", "warship", 1),
            (K, "maze_of_maur_khul", "soldier", 1),
            (K, "ruined_land_of_tarsembor", "soldier", 1),
        ],
        control={"ruined_land_of_tarsembor": K},
    )
    ship = ship_uid(s, "gulf_of_kar")
    sails = {a.path[-1] for a in movement.legal_sails(s, K) if isinstance(a, ShipMove)}
    assert sails == {"dragons_gate", "forbidding_shore", "amilian_sea", "krakens_reach", "tarsem_coast"}
    loads = {(a.piece, a.space) for a in movement.legal_loads(s, K) if isinstance(a, Load)}
    assert loads == {("soldier", "maze_of_maur_khul"), ("soldier", "ruined_land_of_tarsembor")}
    # position 2: one soldier aboard from the Maze, one sea on, the second from Tarsembor's coast
    s, _ = play(s, f"load {ship} soldier maze_of_maur_khul", f"sail {ship} gulf_of_kar>tarsem_coast")
    s, _ = play(s, f"load {ship} soldier ruined_land_of_tarsembor", f"sail {ship} tarsem_coast>amilian_sea")
    assert pieces_at(s, "amilian_sea") == [
        ("karkoth", "soldier"),
        ("karkoth", "soldier"),
        ("karkoth", "warship"),
    ]
    # position 3: at Amilian Sea it may unload onto any territory next to that sea, then stops
    drops = {d for a in movement.legal_unloads(s, K) if isinstance(a, Unload) for _, d in a.drops}
    assert (
        drops == {"amil_forest", "dread_marches", "satrapy_of_numoth"} | {"vault_of_the_drowned_king"} & drops
    )
    s, _ = play(s, f"unload {ship} soldier>dread_marches,soldier>dread_marches")
    assert not [a for a in movement.legal_sails(s, K) if isinstance(a, ShipMove)]  # unloading ends its move


@pytest.mark.rule("NER-SEA-05")
def test_example_bridging_a_warship_ferries_across_lake_surth_without_moving() -> None:
    """Bridging: a warship loads and unloads without moving, carrying land pieces across a strait one
    sea space wide such as Lake Surth (the sea enclosed inside Karkoth's kingdom)."""
    s = on_shipped([(K, "lake_surth", "warship", 1), (K, "karkothi_throneholds", "soldier", 2)])
    ship = ship_uid(s, "lake_surth")
    assert not SHIPPED.graph.adjacent("karkothi_throneholds", "hollowmark")
    s, _ = play(s, f"load {ship} soldier karkothi_throneholds", f"load {ship} soldier karkothi_throneholds")
    s, _ = play(s, f"unload {ship} soldier>hollowmark,soldier>hollowmark")
    assert pieces_at(s, "hollowmark") == [("karkoth", "soldier"), ("karkoth", "soldier")]


# --- "Fase 3. Combattere le battaglie": simultaneous first strikes ------------------------------
@pytest.mark.rule("NER-BAT-02")
@pytest.mark.rule("NER-PCS-03")
def test_example_two_mages_strike_first_together() -> None:
    """An Iron Circle mage attacks a space holding a Vailin mage: both mages roll their first strike
    before every other piece of the battle, and both hits land together."""
    s = on_shipped(
        [
            (IC, "satrapy_of_numoth", "mage", 1),
            (IC, "satrapy_of_numoth", "soldier", 1),
            (V, "amil_forest", "mage", 1),
            (V, "amil_forest", "soldier", 1),
        ],
        kingdom=IC,
        rolls=[7, 8, 1, 1],
    )
    s, _ = play(
        s, "move 1 mage satrapy_of_numoth>amil_forest", "move 1 soldier satrapy_of_numoth>amil_forest"
    )
    s, events = play(s, "pass")
    # position 2: the two mages' d10s (the attacker's first, for convenience), before any soldier
    assert rolls_of(events) == [[7], [8]]
    s, events = play(s, "damage mage", "damage mage")  # each side loses its mage: the hits land together
    assert rolls_of(events) == [[1], [1]]  # then the soldiers roll their normal step
    assert sorted(u.ptype for u in s.units_at(s.board.idx("amil_forest"))) == ["soldier", "soldier"]


# --- "Esplorare i Dungeon" ----------------------------------------------------------------------
@pytest.mark.rule("NER-DUN-03")
def test_example_dungeon_guardian_dice_medusa_troll_beholder() -> None:
    """Medusa rolls one d20; the Troll two d8; the Beholder a d6 and a d20. A hit is 6 or more."""
    content = load_nerath_content()
    assert content.guardian("medusa").dice == (20,)
    assert sorted(content.guardian("troll").dice) == [8, 8]
    assert sorted(content.guardian("beholder").dice) == [6, 20]
    s = on_shipped(
        [(K, "cinderveil", "warrior", 1)], guardians={"black_lantern_crypt": ["beholder"]}, rolls=[1, 2, 6]
    )
    s, _ = play(s, "move 1 warrior cinderveil>black_lantern_crypt")
    s, events = play(s, "pass")
    dice = [[tuple(d) for d in e.data["dice"]] for e in events if e.kind == "roll"]
    assert dice == [[(10, 1)], [(6, 2), (20, 6)]]  # the d20's 6 hits, the d6's 2 misses
    assert not [u for u in s.units_at(s.board.idx("black_lantern_crypt")) if u.kingdom == K]


@pytest.mark.rule("NER-DUN-04")
@pytest.mark.rule("NER-BAT-02")
def test_example_dungeon_medusa_strikes_first_with_a_mage() -> None:
    """Medusa rolls before every other piece of the round, at the same moment as a first-strike mage."""
    s = on_shipped(
        [(K, "cinderveil", "mage", 1), (K, "cinderveil", "warrior", 1)],
        guardians={"black_lantern_crypt": ["medusa"]},
        rolls=[3, 4, 9],
    )
    s, _ = play(
        s, "move 1 mage cinderveil>black_lantern_crypt", "move 1 warrior cinderveil>black_lantern_crypt"
    )
    s, events = play(s, "pass")
    dice = [[tuple(d) for d in e.data["dice"]] for e in events if e.kind == "roll"]
    assert dice[:2] == [[(10, 3)], [(20, 4)]]  # mage and Medusa together, first
    assert dice[2] == [(10, 9)]  # then the warrior: Medusa is beaten


@pytest.mark.rule("NER-DUN-05")
def test_example_dungeon_the_trolls_penalty_covers_every_guardian_there() -> None:
    """With a Troll (7+ to hit) on the entrance, every hero die needs 7 or more against every
    guardian there, also one without the ability."""
    s = on_shipped(
        [(K, "cinderveil", "warrior", 1)],
        guardians={"black_lantern_crypt": ["troll", "skeleton_guard"]},
        rolls=[6, 1, 1, 1],
    )
    s, _ = play(s, "move 1 warrior cinderveil>black_lantern_crypt")
    s, events = play(s, "pass")
    hero = next(e for e in events if e.kind == "roll")
    assert [tuple(d) for d in hero.data["dice"]] == [(10, 6)] and hero.data[
        "hits"
    ] == 0  # a 6 misses under the penalty


@pytest.mark.rule("NER-DUN-05")
@pytest.mark.rule("NER-CRD-05")
def test_example_dungeon_veteran_warlord_overrides_the_trolls_penalty() -> None:
    """Nerath explores a dungeon and plays Veteran Warlord (every Nerath piece hits on 5+): its
    heroes hit on 5 or more, even against a Troll."""
    s = on_shipped(
        [(N, "highfield", "warrior", 1)], kingdom=N, guardians={"gloomspire": ["troll"]}, rolls=[5, 1, 1]
    )
    s.d.hands[N] = ("veteran_warlord",)
    s, _ = play(s, "move 1 warrior highfield>gloomspire", "pass", "fight gloomspire")
    assert s.pending().kind == "card_window"  # before the first roll: the explorer's dungeon cards
    s, events = play(s, "play veteran_warlord")
    hero = next(e for e in events if e.kind == "roll")
    assert [tuple(d) for d in hero.data["dice"]] == [(10, 5)] and hero.data["hits"] == 1


@pytest.mark.rule("NER-DUN-08")
def test_example_dungeon_guardians_are_not_pieces_for_cards() -> None:
    """A card that removes an enemy piece cannot be used on a dungeon guardian."""
    s = on_shipped(
        [(K, "cinderveil", "warrior", 1)], guardians={"black_lantern_crypt": ["skeleton_guard"]}, rolls=[1, 1]
    )
    s.d.hands[K] = ("hellfire_volley",)
    s, _ = play(s, "move 1 warrior cinderveil>black_lantern_crypt", "pass", "fight black_lantern_crypt")
    s, _ = play(s, "pass")  # before the first roll: nothing to play
    assert s.pending().kind == "card_window"  # the battle-round window, after the dice
    # it would find no enemy piece (the guardian is none), so it is not offered: only a pass
    assert [a.notation() for a in s.legal_actions()] == ["pass"] and s.auto_answer() is not None
    s, events = play(s, "pass")
    assert not [e for e in events if e.kind == "destroyed"]
    slots = s.d.guardians.get(s.board.idx("black_lantern_crypt"), ())
    assert [g.tile for g in slots] == ["skeleton_guard"]


# --- "Carte Tesoro": power and property ----------------------------------------------------------
@pytest.mark.rule("NER-CRD-04")
def test_example_treasures_horn_of_valhalla_power_and_property() -> None:
    """The Horn's power: 3 new soldiers in a single friendly territory; its property: 1 new soldier
    in a friendly territory at the start of each of the holder's turns (the holder chooses where)."""
    s = on_shipped([(K, "kharavas", "soldier", 1)])
    s.d.treasure_hands[K] = ("horn_of_valhalla",)
    s, _ = play(s, "treasure horn_of_valhalla kharavas")
    assert pieces_at(s, "kharavas") == [("karkoth", "soldier")] * 4
    s = begin_turn(s, kingdom=K)
    s, _ = play(s, "treasure horn_of_valhalla cinderveil")
    assert pieces_at(s, "cinderveil") == [("karkoth", "soldier")]


# --- "Fase 5. Rinforzi": the shopping tip ---------------------------------------------------------
@pytest.mark.rule("NER-REI-01")
def test_example_reinforcements_a_balanced_shopping_costs_9_to_13_gold() -> None:
    """Two or three soldiers, a siege engine or a warship, a warrior or a mage, a monster or a
    dragon: between 9 and 13 gold."""
    cost = {p: PIECES[p].cost for p in PIECES}
    totals = {
        n * cost["soldier"] + cost[a] + cost[b] + cost[c]
        for n in (2, 3)
        for a in ("siege", "warship")
        for b in ("warrior", "mage")
        for c in ("monster", "dragon")
    }
    assert min(totals) == 9 and max(totals) == 13
    for gold, basket in ((9, ["soldier", "soldier", "siege", "warrior", "monster"]),
                         (13, ["soldier", "soldier", "soldier", "siege", "mage", "dragon"])):  # fmt: skip
        s = on_shipped([(K, "karkothi_throneholds", "soldier", 1)], phase=REINFORCEMENTS, gold={K: gold})
        for piece in basket:
            s, _ = play(s, f"buy {piece} karkothi_throneholds")
        assert s.d.gold[K] == 0


# --- "Fase 6. Incassare le rendite": no capital ---------------------------------------------------
@pytest.mark.rule("NER-INC-03")
def test_example_income_without_the_capital_nine_territories_give_five_gold() -> None:
    keep = ["bonewind_steppe", "black_tor", "gravecairn_hills", "carrion_coast", "ghoulmire",
            "vorkhal_pass", "shroudmere", "ashfen", "kharavas"]  # fmt: skip
    karkoth = [
        sid for sid in (SHIPPED.sid(i) for i in range(len(SHIPPED))) if SHIPPED.owner[SHIPPED.idx(sid)] == K
    ]
    control = {sid: (K if sid in keep else V) for sid in karkoth}
    s = on_shipped([(K, "kharavas", "soldier", 1)], control=control, gold={K: 0})
    assert control["karkothi_throneholds"] == V and sum(1 for v in control.values() if v == K) == 9
    assert economy.income_of(s, K) == 5


# --- "Preparazione" and "Ordine di gioco" ---------------------------------------------------------
@pytest.mark.rule("NER-SET-03")
@pytest.mark.rule("NER-SET-01")
def test_example_setup_the_treasury_grows_with_the_turn_order() -> None:
    """Karkoth plays first and starts with the least gold; Nerath plays last and starts with the most."""
    s = load_game("nerath", seed=1)
    assert s.d.gold == [10, 11, 12, 13]
    assert s.current_kingdom == K


@pytest.mark.rule("NER-SET-05")
def test_example_two_allied_kingdoms_one_player_each_kingdom_plays_its_own_turn() -> None:
    """A player holding Karkoth and Iron Circle moves, fights and buys for Karkoth in Karkoth's turn
    while Iron Circle does nothing, then does the same for Iron Circle in its turn."""
    s = on_shipped(
        [(K, "kharavas", "soldier", 1), (IC, "citadel_of_irons_grasp", "soldier", 1)],
        options={"mode": "alliance", "players": 2},
    )
    assert s.pending().player == 0 and s.current_kingdom == K
    moving = {a.path[0] for a in movement.legal_moves(s, K) if isinstance(a, Move)}
    assert moving == {"kharavas"}  # only Karkoth's pieces move in Karkoth's turn
    with pytest.raises(IllegalActionError):
        s.apply(Move("soldier", 1, ("citadel_of_irons_grasp", "ironmouth")))
    s = begin_turn(s, kingdom=IC)
    assert s.pending().player == 0 and s.current_kingdom == IC  # the same player, Iron Circle's turn
    assert {a.path[0] for a in movement.legal_moves(s, IC) if isinstance(a, Move)} == {
        "citadel_of_irons_grasp"
    }
