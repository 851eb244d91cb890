"""``warhorn odds``: exact battle odds (Conquest of Nerath, issue 4).

The computation lives in the pure core (:mod:`warhorn.games.nerath.odds`); this module only
reads the options and prints.
"""

from __future__ import annotations

import json

import typer
from rich.table import Table

from warhorn.cli.common import console, fail
from warhorn.games.nerath.battle import ArmyError, Guardian, RetreatRule
from warhorn.games.nerath.odds import BattleOdds, battle_odds
from warhorn.games.nerath.odds_support import guardian_tiles

BAR_WIDTH = 40


def register(app: typer.Typer) -> None:
    odds_app = typer.Typer(
        help="Exact battle odds: the whole distribution of a battle's result, no sampling.",
        no_args_is_help=True,
    )

    @odds_app.callback()
    def _odds() -> None:
        """Exact battle odds for a game's battles."""

    @odds_app.command("nerath")
    def nerath(
        attacker: str = typer.Option(
            ..., "--attacker", "-a", help='Attacking pieces, e.g. "4 soldier, 2 siege, 1 dragon".'
        ),
        defender: str | None = typer.Option(
            None,
            "--defender",
            "-d",
            help='Defending pieces, e.g. "5 soldier, 1 castle" ("" for an empty territory).',
        ),
        ally: str = typer.Option(
            "", "--ally", help='Pieces of an ally defending with the defender, e.g. "2 soldier" (NER-BAT-07).'
        ),
        allied_damage: str = typer.Option(
            "agree",
            "--allied-damage",
            help="How allied defenders share damage: agree (the split better for them) or fixed (the rule).",
        ),
        amok_targets: int | None = typer.Option(
            None,
            "--amok-targets",
            min=0,
            help="Adjacent enemy territories without enemy pieces, for Run Amok (NER-BAT-20).",
        ),
        sea: bool = typer.Option(False, "--sea", help="A sea battle (warships, flyers, carried heroes)."),
        dungeon: str = typer.Option(
            "",
            "--dungeon",
            help="Guardians the heroes fight, comma-separated tile ids (e.g. medusa,troll,beholder).",
        ),
        retreat_below: int | None = typer.Option(
            None, "--retreat-below", min=0, help="The attacker retreats once it has N or fewer pieces."
        ),
        rounds: int | None = typer.Option(
            None, "--rounds", min=1, help="The attacker retreats after R rounds if still undecided."
        ),
        double_up: bool = typer.Option(
            False, "--double-up", help="Hits double up once every piece has one (non-default NER-BAT-03)."
        ),
        top: int = typer.Option(5, "--top", min=1, help="How many most likely outcomes to show."),
        as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of tables."),
    ) -> None:
        """Exact odds of a Conquest of Nerath battle (default loss order; see docs/odds.md)."""
        if defender is None and not dungeon.strip():
            # a forgotten side is a mistake, not an empty territory (that is spelled --defender "")
            raise fail('--defender is missing: name the defending pieces, or --defender "" for none', code=2)
        retreat = None
        if retreat_below is not None or rounds is not None:
            retreat = RetreatRule(at_or_below=retreat_below, after_rounds=rounds)
        guardians = [g.strip() for g in dungeon.split(",") if g.strip()] or None
        try:
            result = battle_odds(
                attacker,
                defender or None,
                sea=sea,
                dungeon=guardians,
                guardians=guardian_lookup() if guardians else None,
                retreat=retreat,
                double_up=double_up,
                ally=ally or None,
                allied_damage=allied_damage,
                amok_targets=amok_targets,
            )
        except ArmyError as exc:
            raise fail(str(exc), code=2) from None
        if as_json:
            typer.echo(json.dumps(result.to_json(top=max(top, 20)), indent=2))
            return
        _print_tables(result, top)

    app.add_typer(odds_app, name="odds")


def guardian_lookup() -> dict[str, Guardian]:
    """Guardians ``--dungeon`` knows: those the web calculator knows (the rulebook's three and the
    shipped guardian tiles), from one place."""
    return guardian_tiles()


def _bar(p: float) -> str:
    filled = round(p * BAR_WIDTH)
    return "█" * filled + "·" * (BAR_WIDTH - filled)


def _print_tables(result: BattleOdds, top: int) -> None:
    summary = Table(title="Battle result", title_justify="left")
    summary.add_column("result")
    summary.add_column("chance", justify="right")
    summary.add_column("")
    rows = [
        ("attacker wins", result.attacker_win),
        ("defender wins", result.defender_win),
        ("mutual destruction", result.mutual_destruction),
    ]
    if result.attacker_retreats:
        rows.append(("attacker retreats", result.attacker_retreats))
    for name, p in rows:
        summary.add_row(name, f"{p:.2%}", _bar(p))
    console.print(summary)
    console.print(f"expected rounds: {result.expected_rounds:.2f}")

    losses = Table(title="Expected survivors", title_justify="left")
    losses.add_column("side")
    losses.add_column("piece")
    losses.add_column("expected left", justify="right")
    for side, survivors in (("attacker", result.attacker_survivors), ("defender", result.defender_survivors)):
        for name, n in survivors.items():
            losses.add_row(side, name, f"{n:.2f}")
    console.print(losses)
    console.print(
        f"expected gold lost: attacker {result.attacker_gold_lost:.2f}, "
        f"defender {result.defender_gold_lost:.2f}"
        + (f"; expected reward {result.expected_reward_gold:.2f}" if result.expected_reward_gold else "")
    )
    if result.allied_split is not None:
        console.print(f"allied defenders: {result.allied_split_note}")
    if result.amok_monsters:
        amok = f"run amok (NER-BAT-20): the attacker wins with a monster left {result.run_amok_chance:.2%}"
        if result.amok_targets is not None:
            amok += (
                f"; expected conquests into the {result.amok_targets} open territories "
                f"{result.expected_amok_conquests():.2f}"
            )
        console.print(amok)

    outcomes = Table(title=f"Most likely outcomes (top {top})", title_justify="left")
    outcomes.add_column("chance", justify="right")
    outcomes.add_column("result")
    outcomes.add_column("attacker left")
    outcomes.add_column("defender left")
    for o in result.outcomes[:top]:
        defender_left = ", ".join(f"{n} {k}" for k, n in o.defender.items()) or "nothing"
        if o.castle_captured:
            defender_left += " (castle captured)"
        outcomes.add_row(
            f"{o.probability:.2%}",
            o.result.value.replace("_", " "),
            ", ".join(f"{n} {k}" for k, n in o.attacker.items()) or "nothing",
            defender_left,
        )
    console.print(outcomes)
