"""``warhorn play GAME``: play in the terminal, hotseat and/or against AI seats.

At a prompt, type an action's notation (a unique start of it is enough; Tab
completes where readline is available), its number from the list, or one of
the commands: ``list``, ``undo``, ``save FILE``, ``help``, ``quit``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import typer

from warhorn.ai import Agent, make_agent
from warhorn.cli.common import console, err_console, parse_options
from warhorn.engine import (
    ActionError,
    Event,
    Match,
    Rng,
    SaveError,
    UndoError,
    WarhornError,
    content_support,
    events_for,
)

HELP = "type an action (or a unique start of it, or its number); commands: list, undo, save FILE, help, quit"
MAX_LISTED = 40


class _Completer:
    """readline completion over the current legal actions' notations."""

    def __init__(self) -> None:
        self.words: list[str] = []

    def complete(self, text: str, index: int) -> str | None:
        import readline

        line = readline.get_line_buffer()
        matches = [w for w in self.words if w.startswith(line)]
        prefix_len = len(line) - len(text)
        options = [m[prefix_len:] for m in matches]
        return options[index] if index < len(options) else None


def _setup_readline(completer: _Completer) -> None:
    try:
        import readline
    except ImportError:  # pragma: no cover - not on every platform
        return
    readline.set_completer(completer.complete)
    readline.set_completer_delims("")
    readline.parse_and_bind("tab: complete")


def _narrate(events: list[Event], viewer: int | None) -> None:
    for event in events_for(events, viewer) if viewer is not None else events:
        if event.text:
            style = "yellow" if event.chance else ""
            console.print(f"  {event.text}", style=style, highlight=False)


def _show_decision(match: Match, listed: bool) -> None:
    state = match.state
    decision = state.pending()
    assert decision is not None
    console.print(f"\n[bold]{state.describe()}[/]", highlight=False)
    view = state.view(decision.player)
    hand = view.get("hand")
    if hand:
        console.print(f"your hand: {', '.join(str(c) for c in hand)}", highlight=False)
    rule = f" [dim]({decision.rule})[/]" if decision.rule else ""
    console.print(f"[cyan]player {decision.player}[/]: {decision.prompt}{rule}", highlight=False)
    if listed:
        legal = state.legal_actions()
        for number, action in enumerate(legal[:MAX_LISTED], start=1):
            console.print(f"  [dim]{number:>3}[/] {action.notation()}", highlight=False)
        if len(legal) > MAX_LISTED:
            console.print(f"  … and {len(legal) - MAX_LISTED} more (type a start and press Tab)")


def run_game(
    match: Match,
    seats: list[str],
    *,
    save_path: Path | None,
    ai_seed: int,
    max_actions: int | None = None,
) -> int:
    """The terminal loop. Returns the process exit code."""
    agents: dict[int, Agent] = {seat: make_agent(kind) for seat, kind in enumerate(seats) if kind != "human"}
    ai_rng = Rng(ai_seed)
    completer = _Completer()
    interactive = sys.stdin.isatty()
    if interactive:
        _setup_readline(completer)
    listed = True
    played = 0
    while not match.state.is_terminal:
        if max_actions is not None and played >= max_actions:
            console.print(f"stopping after {played} actions")
            break
        state = match.state
        decision = state.pending()
        assert decision is not None
        agent = agents.get(decision.player)
        if agent is not None:
            action = agent.choose(state, decision.player, ai_rng)
            events = match.play(action)
            console.print(
                f"[magenta]{agent.name} (player {decision.player})[/]: {action.notation()}", highlight=False
            )
            reason = agent.explain()
            if reason:
                console.print(f"  [dim]{reason}[/]", highlight=False)
            _narrate(events, None if not agents or len(agents) == len(seats) else _human_viewer(seats))
            played += 1
            _autosave(match, save_path)
            continue
        _show_decision(match, listed)
        listed = False
        completer.words = [a.notation() for a in state.legal_actions()]
        try:
            line = input("> ") if interactive else sys.stdin.readline()
        except (EOFError, KeyboardInterrupt):
            line = ""
        if not interactive and line == "":
            console.print("end of input")
            break
        line = line.strip()
        if not line:
            continue
        command, _, rest = line.partition(" ")
        if command in {"quit", "exit"}:
            break
        if command == "help":
            console.print(HELP)
            continue
        if command == "list":
            listed = True
            continue
        if command == "undo":
            try:
                match.undo()
                console.print("undone")
                listed = True
            except UndoError as exc:
                err_console.print(f"[red]{exc}[/]")
            continue
        if command == "save" and rest:
            Path(rest).write_text(match.dumps(), encoding="utf-8")
            console.print(f"saved to {rest}")
            continue
        legal = state.legal_actions()
        try:
            if line.isascii() and line.isdigit() and 1 <= int(line) <= len(legal):
                action = legal[int(line) - 1]
            else:
                action = state.parse(line)
            events = match.play(action)
        except ActionError as exc:
            err_console.print(f"[red]{exc}[/]", highlight=False)
            continue
        played += 1
        listed = True
        _narrate(events, decision.player)
        _autosave(match, save_path)
    result = match.state.results()
    if result is not None:
        console.print(f"\n[bold green]game over[/]: {result.reason}", highlight=False)
        console.print(json.dumps(result.to_json()), highlight=False)
    return 0


def _human_viewer(seats: list[str]) -> int | None:
    humans = [i for i, kind in enumerate(seats) if kind == "human"]
    return humans[0] if len(humans) == 1 else None


def _autosave(match: Match, path: Path | None) -> None:
    if path is not None:
        path.write_text(match.dumps(), encoding="utf-8")


def register(app: typer.Typer) -> None:
    @app.command("play")
    def play(
        game: str = typer.Argument(..., help="Game id (see `warhorn games`)."),
        option: list[str] = typer.Option([], "--option", "-o", help="Game option as name=value."),
        seed: int = typer.Option(0, "--seed", help="Seed for dice and shuffles."),
        seats: str = typer.Option(
            "",
            "--seats",
            help="Comma list per seat: human or an AI kind (random, heuristic, mcts:iterations=400...).",
        ),
        load: Path | None = typer.Option(None, "--load", help="Resume a saved game."),
        save: Path | None = typer.Option(
            None, "--save", help="Save the game to this file after every action."
        ),
        content: Path | None = typer.Option(None, "--content", help="Content folder to play with."),
        undo: bool = typer.Option(True, "--undo/--no-undo", help="Hotseat undo across rolls (same dice)."),
        max_actions: int | None = typer.Option(None, "--max-actions", help="Stop after this many actions."),
    ) -> None:
        """Play GAME in the terminal: every seat human unless --seats says otherwise."""
        try:
            loaded: Any = None
            if content is not None:
                support = content_support(game)
                if support is None:
                    raise WarhornError(f"{game} takes no content folder")
                loaded = support.load_folder(content)
            if load is not None:
                match = Match.from_save(load.read_text(encoding="utf-8"), content=loaded)
            else:
                match = Match.new(game, seed=seed, content=loaded, hotseat_undo=undo, **parse_options(option))
            n = match.state.num_players
            kinds = [s.strip() for s in seats.split(",") if s.strip()] if seats else []
            kinds += ["human"] * (n - len(kinds))
            if len(kinds) != n:
                raise WarhornError(f"--seats lists {len(kinds)} seats but the game has {n}")
            for kind in kinds:
                if kind != "human":
                    make_agent(kind)
        except (WarhornError, ValueError, OSError) as exc:
            err_console.print(f"[red]error:[/] {exc}", highlight=False)
            raise typer.Exit(2) from None
        except SaveError as exc:  # pragma: no cover - SaveError is a WarhornError
            err_console.print(f"[red]error:[/] {exc}")
            raise typer.Exit(2) from None
        raise typer.Exit(run_game(match, kinds, save_path=save, ai_seed=seed, max_actions=max_actions))
