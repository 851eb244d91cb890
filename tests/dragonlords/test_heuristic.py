"""The DragonLords heuristic: legal choices with reasons, attacks by exact odds, the King kept safe."""

from __future__ import annotations

from warhorn.ai.dragonlords.player import EXACT_SIDE, DragonLordsHeuristic, win_chance
from warhorn.ai.heuristic import heuristic_for
from warhorn.engine.registry import load_game
from warhorn.engine.rng import Rng
from warhorn.games.dragonlords.actions import Attack, Casualties
from warhorn.games.dragonlords.odds import PlainBattleRequest, plain_battle_odds

from .helpers import act, build, dice, force, until


def test_the_heuristic_plays_a_short_game_with_a_reason_for_every_choice() -> None:
    state = load_game("dragonlords", seed=4, players=2, max_rounds=2)
    agent = heuristic_for("dragonlords")
    rng = Rng(1)
    while not state.is_terminal:
        decision = state.pending()
        choice = agent.choose(state, decision.player, rng)
        assert choice.action in state.legal_actions() and choice.reason
        state, _ = state.apply(choice.action)


def test_it_attacks_at_good_odds_and_never_with_the_king() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 9, {"id": 1, "token": "king"}),
            "bonefield": force(1, 2),
            "tusk_ridge": force(1, 9),
            "khaz_thurn": force(1, 1, {"token": "king"}),
        }
    )
    choice = DragonLordsHeuristic().choose(state, 0, Rng(0))
    assert isinstance(choice.action, Attack) and choice.action.to == "bonefield"
    assert 1 not in choice.action.pieces and "%" in choice.reason
    assert win_chance(choice.action.count, 2, 3, 3, False) >= 0.6
    weak = build(
        spaces={"gorefort": force(0, 2, {"token": "king"}), "bonefield": force(1, 9, {"token": "king"})}
    )
    assert not isinstance(DragonLordsHeuristic().choose(weak, 0, Rng(0)).action, Attack)


def test_the_king_is_the_last_unit_given_up() -> None:
    state = build(
        spaces={
            "gorefort": force(0, 5, {"token": "king"}),
            "bonefield": force(1, 1, {"id": 20, "token": "king"}, {"id": 23, "token": "decoy"}),
        }
    )
    dice(state, 1, 1, 6, 6, 6, 6)
    state, _ = act(state, "attack gorefort bonefield 3")
    state, _ = until(state, "casualties")
    choice = DragonLordsHeuristic().choose(state, 1, Rng(0))
    assert choice.action == Casualties((23,))


def test_mcts_plays_dragonlords_through_its_search_hooks() -> None:
    from warhorn.ai import make_agent

    state = build(
        spaces={
            "gorefort": force(0, 6, {"id": 1, "token": "king"}),
            "bonefield": force(1, 2),
            "khaz_thurn": force(1, 2, {"token": "king"}),
        }
    )
    agent = make_agent("mcts:iterations=8")
    action = agent.choose(state.determinize(0, Rng(2)), 0, Rng(3))
    assert action in state.legal_actions()


def test_a_battle_above_forty_units_a_side_is_judged_scaled_down_to_forty() -> None:
    """Exact odds up to 40 units a side; a bigger battle keeps its ratio at 40 (EXACT_SIDE)."""
    assert EXACT_SIDE == 40
    exact = plain_battle_odds(PlainBattleRequest(attackers=12, defenders=9)).attacker_wins
    assert win_chance(12, 9, 3, 3, False) == exact
    assert win_chance(300, 150, 3, 3, False) == win_chance(40, 20, 3, 3, False)
    assert win_chance(90, 450, 3, 3, False) == win_chance(8, 40, 3, 3, False)
    assert win_chance(1, 400, 3, 3, False) == win_chance(1, 40, 3, 3, False)  # never below one unit
    assert win_chance(300, 150, 3, 3, False) > 0.9 > 0.1 > win_chance(150, 300, 3, 3, False)


#: The Orcmarch's other territories, one unit each (Gorefort and Skullcrag are set by each test).
ORC_REALM_REST = {t: force(0, 1) for t in ("tusk_ridge", "ashen_pits", "bonefield", "rustmire")}


def test_it_ferries_the_army_overseas_to_ground_next_to_a_kingdom_it_does_not_hold() -> None:
    # The Orcs hold their whole realm (no land front) and their ship lies off Skullcrag with its
    # helmsman; the Dwarf Kingdom across the sea is held by one unit and its other territories are empty.
    state = build(
        phase="naval",
        spaces={
            "gorefort": force(0, 20, {"token": "king"}),
            "skullcrag": force(0, 20),
            **ORC_REALM_REST,
            "khaz_thurn": force(1, 1, {"token": "king"}),
        },
        ships=[{"zone": "sea_frostbight", "aboard": force(0, 1)}],
    )
    agent = DragonLordsHeuristic()
    reasons = []
    while (decision := state.pending()) is not None and decision.kind in ("naval", "count"):
        choice = agent.choose(state, 0, Rng(0))
        assert choice.action in state.legal_actions() and choice.reason
        reasons.append(choice.reason)
        state, _ = state.apply(choice.action)
    assert reasons[0].startswith("board 7 units at skullcrag")
    # Stonebelly borders the Kingdom and is the nearest such ground (Westwater Strait)
    assert state.owner("stonebelly") == 0 and state.spaces["stonebelly"].units == 7
    assert any(r.startswith("land 7 units at stonebelly") for r in reasons)
    ship = state.ships[0]
    assert ship.owner == 0 and ship.aboard is not None and ship.aboard.units == 1  # it sails back
    assert state.spaces["skullcrag"].units == 13


def test_a_light_ship_sails_home_to_load() -> None:
    state = build(
        phase="naval",
        spaces={
            "gorefort": force(0, 20, {"token": "king"}),
            "skullcrag": force(0, 1),
            **ORC_REALM_REST,
            "rustmire": force(0, 20),
            "khaz_thurn": force(1, 1, {"token": "king"}),
            "anvilgate": force(0, 7),
        },
        ships=[{"zone": "sea_westwater", "aboard": force(0, 1)}],
    )
    choice = DragonLordsHeuristic().choose(state, 0, Rng(0))
    assert choice.action.kind == "sail" and "home to load" in choice.reason


def test_a_sorcerer_leads_an_army_through_the_portals_but_not_alone() -> None:
    def position(plain: int) -> object:
        return build(
            players=[{"people": "orcs"}, {"people": "barbarians"}],
            spaces={
                "gorefort": force(0, 9, {"token": "king"}),
                "ashen_pits": force(0, plain, {"id": 5, "token": "sorcerer"}),
                "horn_hill": force(1, 3),
                "jarls_seat": force(1, 20, {"token": "king"}),
                "bonefield": force(0, 1),
                "tusk_ridge": force(0, 1),
                "skullcrag": force(0, 1),
                "rustmire": force(0, 1),
            },
        )

    choice = DragonLordsHeuristic().choose(position(20), 0, Rng(0))
    assert isinstance(choice.action, Attack) and choice.action.via == "portal"
    assert choice.action.to == "horn_hill" and 5 in choice.action.pieces and choice.action.count >= 10
    alone = DragonLordsHeuristic().choose(position(5), 0, Rng(0))
    assert not (isinstance(alone.action, Attack) and alone.action.via == "portal")


def test_the_sorcerer_walks_to_the_portal_without_the_king() -> None:
    state = build(
        phase="transfer",
        players=[{"people": "orcs"}, {"people": "barbarians"}],
        spaces={
            "gorefort": force(0, 12, {"id": 1, "token": "king"}, {"id": 5, "token": "sorcerer"}),
            "ashen_pits": force(0, 2),
            "horn_hill": force(1, 3),
            "jarls_seat": force(1, 20, {"token": "king"}),
            "bonefield": force(0, 1),
            "tusk_ridge": force(0, 1),
            "skullcrag": force(0, 1),
            "rustmire": force(0, 1),
        },
    )
    choice = DragonLordsHeuristic().choose(state, 0, Rng(0))
    assert choice.action.kind == "move" and choice.action.to == "ashen_pits"
    assert choice.action.pieces == (5,) and "portal" in choice.reason


def test_it_leaves_a_fight_the_defenders_heals_keep_alive() -> None:
    from dataclasses import replace

    from warhorn.ai.dragonlords.player import STALLED_ROUND

    state = build(
        spaces={
            "gorefort": force(0, 12, {"token": "king"}),
            "bonefield": force(1, 1, {"id": 21, "token": "sorcerer", "spells": ["heal", "fireball"]}),
            "khaz_thurn": force(1, 3, {"token": "king"}),
        }
    )
    dice(state, *([6] * 30))  # nobody hits in the first round
    state, _ = act(state, "attack gorefort bonefield 12")
    state, _ = until(state, "retreat", 0)
    agent = DragonLordsHeuristic()
    assert agent.choose(state, 0, Rng(0)).action.kind == "fight"  # two defenders, twelve attackers
    assert state.battle is not None
    state.battle = replace(state.battle, round=STALLED_ROUND)
    choice = agent.choose(state, 0, Rng(0))
    assert choice.action.kind == "retreat" and "still stand after" in choice.reason


def test_empty_ships_off_our_coast_count_in_the_fleet() -> None:
    # An empty ship is nobody's (DLX-FAQ-03) but ours to board again: three of them off Skullcrag
    # fill the fleet, so the gold buys units; without them it buys a ship (ground over the sea to take).
    def position(ships: list[dict[str, str]]) -> object:
        return build(
            phase="purchase",
            players=[{"people": "orcs", "gold": 40}, {"people": "dwarves"}],
            spaces={
                "gorefort": force(0, 20, {"token": "king"}),
                "skullcrag": force(0, 20),
                **ORC_REALM_REST,
                "khaz_thurn": force(1, 1, {"token": "king"}),
            },
            ships=ships,
        )

    empty = [{"zone": "sea_frostbight"} for _ in range(3)]
    full = DragonLordsHeuristic().choose(position(empty), 0, Rng(0))
    assert full.action.kind == "buy" and "units" in full.reason
    none = DragonLordsHeuristic().choose(position([]), 0, Rng(0))
    assert none.reason.startswith("buy a ship: 0 of 3")


def test_the_sorcerer_steps_through_our_portals_to_the_army_at_the_portal() -> None:
    # The army gathers at Horn Hill (our portal, the most crowded); the sorcerer's Gorefort has no
    # land way there, only through our portal at Ashen Pits (DLR-PRT-01).
    state = build(
        phase="transfer",
        players=[{"people": "orcs"}, {"people": "barbarians"}],
        spaces={
            "gorefort": force(0, 12, {"id": 1, "token": "king"}, {"id": 5, "token": "sorcerer"}),
            "ashen_pits": force(0, 2),
            "horn_hill": force(0, 30),
            "jarls_seat": force(0, 5),
            "ghostlight": force(1, 3),
            "khaz_thurn": force(1, 20, {"token": "king"}),
            "bonefield": force(0, 1),
            "tusk_ridge": force(0, 1),
            "skullcrag": force(0, 1),
            "rustmire": force(0, 1),
        },
    )
    choice = DragonLordsHeuristic().choose(state, 0, Rng(0))
    assert choice.action.kind == "move" and choice.action.to == "ashen_pits"
    assert choice.action.pieces == (5,) and "portal at horn_hill" in choice.reason
