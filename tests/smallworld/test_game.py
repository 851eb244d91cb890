"""Small World of Warcraft as a registered game: set-up on every board, options, content folders."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from warhorn.engine import load_game
from warhorn.engine.errors import OptionError
from warhorn.engine.registry import content_support
from warhorn.games.smallworld.content import DATA_DIR
from warhorn.games.smallworld.state import MURLOCS, Stage


@pytest.mark.parametrize("board", ["islands", "classic"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_new_game_is_set_up_by_the_rulebook(players: int, board: str) -> None:
    s = load_game("smallworld", seed=4, players=players, board=board)
    assert s.num_players == players and s.stage is Stage.PICK and s.current == 0
    assert s.rounds == {2: 10, 3: 10, 4: 9, 5: 8}[players]
    assert all(seat.coins == 5 for seat in s.players)
    assert len(s.combos()) == 6 and s.combo_coins == [0] * 6
    slots = [r.id for r in s.board.regions if r.place_slot]
    assert sorted(rid for rid, a in s.areas.items() if a.hidden_marker) == sorted(slots)
    murlocs = sum(a.tokens for a in s.areas.values() if a.race == MURLOCS)
    assert murlocs == min(15, sum(r.murlocs for r in s.board.regions))
    assert sum(1 for a in s.areas.values() if a.mountain) == sum(
        1 for r in s.board.regions if r.mountain_token
    )
    assert len(s.bombs) == 12 and sum(s.bombs) == 6
    assert not s.invariants()


def test_the_player_count_is_checked() -> None:
    with pytest.raises(OptionError, match="players"):
        load_game("smallworld", players=6)
    with pytest.raises(OptionError, match="board"):
        load_game("smallworld", board="atlantis")


def test_the_content_check_covers_the_data_and_the_boards(tmp_path: Path) -> None:
    support = content_support("smallworld")
    assert support is not None
    assert support.check_folder(DATA_DIR) == []
    folder = tmp_path / "mine"
    shutil.copytree(DATA_DIR, folder)
    races = folder / "races.toml"
    races.write_text(races.read_text().replace('faction = "horde"', 'faction = "scourge"', 1))
    errors = support.check_folder(folder)
    assert errors and all("races.toml" in e.file for e in errors) and "faction" in errors[0].key
    loaded = support.load_folder(DATA_DIR)
    game = load_game("smallworld", seed=1, content=loaded, players=3)
    assert game.content_hash == load_game("smallworld", seed=1, players=3).content_hash


def test_the_terminal_listing_names_regions_and_hides_coins() -> None:
    s = load_game("smallworld", seed=2, players=2)
    s, _ = s.apply(s.parse("pick 0"))
    text = s.describe()
    assert "combos:" in text and "player 0: active" in text and "coins" not in text
    region = next(r for r in s.board.regions if r.murlocs)
    assert f"{region.name} [{region.id}] Murlocs x" in text
