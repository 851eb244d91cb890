"""``warhorn play GAME``: play in the terminal, hotseat and/or against AI seats.

At a prompt, type an action's notation (a unique start of it is enough; Tab
completes where readline is available), its number from the list, or one of
the commands: ``list``, ``map``, ``cards``, ``rules [RULE-ID]``, ``undo``, ``save FILE``, ``help``,
``quit``.

A game's plugin may give the terminal more (``GamePlugin.terminal``, a
:class:`~warhorn.engine.plugin.TerminalSupport`): the board as tables (``map``), the texts of the
cards in hand (``cards``, and their names under the prompt), and the exact odds of a battle, shown
before an attack is sent and confirmed (at a terminal). While an AI seat thinks, a spinner says so.
"""

from __future__ import annotations

import json
import secrets
import sys
from pathlib import Path
from typing import Any

import typer
from rich.text import Text

from warhorn.ai import Agent, make_agent
from warhorn.cli.common import (
    EXIT_USAGE,
    console,
    fail,
    load_save,
    parse_options,
    plain,
    say,
    say_error,
    text_table,
)
from warhorn.cli.position_cmd import match_from_position_file
from warhorn.engine import (
    ActionError,
    Event,
    Match,
    Rng,
    UndoError,
    WarhornError,
    content_support,
    events_for,
    game_plugin,
)
from warhorn.engine.plugin import OddsUnavailableError, TerminalSupport, resolve
from warhorn.rules_help import rules_help

HELP = (
    "type an action (or a unique start of it, or its number); commands: list, map (the board as "
    "tables), cards (your cards with their texts), rules [RULE-ID] (the rule this decision or an error "
    "names, explained), undo, save FILE, "
    "autopass on|off (answer by itself a card window where no card of yours can change anything), "
    "help, quit; an attack shows its odds and asks to confirm"
)
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
            say("  ", plain(event.text, style="yellow" if event.chance else ""))


def terminal_support(game: str) -> TerminalSupport | None:
    """The game's terminal extras (map, cards, attack odds), or None when its plugin has none."""
    reference = game_plugin(game).terminal
    if reference is None:
        return None
    support = resolve(reference)
    assert isinstance(support, TerminalSupport), f"{reference} is not a TerminalSupport"
    return support


def _show_decision(match: Match, listed: bool, terminal: TerminalSupport | None) -> None:
    state = match.state
    decision = state.pending()
    assert decision is not None
    say()
    say(plain(state.describe(), limit=2000, style="bold"))
    if terminal is not None:
        names = [name for name, _text in terminal.cards(state, decision.player)]
        if names:
            hint = Text("  (cards: their texts)", style="dim")
            say("your cards: ", plain("; ".join(names), limit=1000), hint)
    else:
        hand = state.view(decision.player).get("hand")
        if hand:
            say("your hand: ", ", ".join(str(c) for c in hand))
    rule: Text | str = ""
    if decision.rule and decision.rule not in decision.prompt:  # a prompt may name its rule itself
        rule = Text(f" ({decision.rule})", style="dim")
    say(Text(f"player {decision.player}", style="cyan"), ": ", decision.prompt, rule)
    if listed:
        legal = state.legal_actions()
        for number, action in enumerate(legal[:MAX_LISTED], start=1):
            say(Text(f"  {number:>3} ", style="dim"), action.notation())
        if len(legal) > MAX_LISTED:
            say(f"  … and {len(legal) - MAX_LISTED} more (type a start and press Tab)")


def run_game(
    match: Match,
    seats: list[str],
    *,
    save_path: Path | None,
    ai_seed: int,
    max_actions: int | None = None,
) -> int:
    """The terminal loop. Returns the process exit code.

    Ctrl-C (also while an AI thinks), Ctrl-D and ``quit`` end the game after offering to save it,
    unless it is saved after every action already (``--save``).
    """
    match.meta["seats"] = list(seats)
    try:
        _loop(match, seats, save_path=save_path, ai_seed=ai_seed, max_actions=max_actions)
    except KeyboardInterrupt:
        say()
        _offer_save(match, save_path)
        return 130
    result = match.state.results()
    if result is not None:
        say()
        say(Text("game over", style="bold green"), ": ", result.reason)
        say(json.dumps(result.to_json()))
    return 0


class _Quit(Exception):
    """The player asked to stop (``quit``, or the end of input)."""


def _loop(
    match: Match, seats: list[str], *, save_path: Path | None, ai_seed: int, max_actions: int | None
) -> None:
    agents: dict[int, Agent] = {seat: make_agent(kind) for seat, kind in enumerate(seats) if kind != "human"}
    humans = {seat for seat, kind in enumerate(seats) if kind == "human"}
    ai_rng = Rng(ai_seed)
    completer = _Completer()
    interactive = sys.stdin.isatty()
    if interactive:
        _setup_readline(completer)
    listed = True
    played = 0
    auto_pass = True
    terminal = terminal_support(match.game)
    while not match.state.is_terminal:
        if max_actions is not None and played >= max_actions:
            say(f"stopping after {played} actions")
            return
        state = match.state
        decision = state.pending()
        assert decision is not None
        agent = agents.get(decision.player)
        auto = state.auto_answer() if agent is None and auto_pass else None
        if auto is not None:  # issue 19: nothing of the player's could change anything
            say(Text(f"player {decision.player}", style="dim"), ": ", auto.notation(), " (auto-pass)")
            events = match.play(auto)
            _narrate(events, decision.player)
            played += 1
            _autosave(match, save_path)
            continue
        if agent is not None:
            if console.is_terminal:  # a spinner while the AI thinks (MCTS takes seconds)
                with console.status(f"{agent.name} (player {decision.player}) is thinking…", spinner="dots"):
                    action = agent.choose(state, decision.player, ai_rng)
            else:
                action = agent.choose(state, decision.player, ai_rng)
            say(Text(f"{agent.name} (player {decision.player})", style="magenta"), ": ", action.notation())
            reason = agent.explain()
            if reason:
                say("  ", plain(reason, limit=1000, style="dim"))
            events = match.play(action)
            _narrate(events, None if not agents or len(agents) == len(seats) else _human_viewer(seats))
            played += 1
            _autosave(match, save_path)
            continue
        _show_decision(match, listed, terminal)
        listed = False
        legal = state.legal_actions()
        completer.words = [a.notation() for a in legal]
        try:
            line = input("> ") if interactive else sys.stdin.readline()
        except EOFError:
            say()
            _offer_save(match, save_path)
            return
        if not interactive and line == "":
            say("end of input")
            return
        line = line.strip()
        if not line:
            continue
        command, _, rest = line.partition(" ")
        if command in {"quit", "exit"}:
            _offer_save(match, save_path)
            return
        if command == "help":
            say(HELP)
            continue
        if command == "list":
            listed = True
            continue
        if command == "map":
            _show_map(state, decision.player, terminal)
            continue
        if command == "cards":
            _show_cards(state, decision.player, terminal)
            continue
        if command == "rules":
            _show_rule(match.game, rest.strip() or decision.rule)
            continue
        if command == "autopass" and rest in ("on", "off"):
            auto_pass = rest == "on"
            say(f"auto-pass is {rest}")
            continue
        if command == "undo":
            try:
                count = undo_to_own_decision(match, humans, auto_pass=auto_pass)
                say(f"undone ({count} action{'s' if count != 1 else ''}, back to your last decision)")
                listed = True
            except UndoError as exc:
                say_error(exc)
            continue
        if command == "save" and rest:
            _save(match, Path(rest))
            continue
        try:
            if line.isascii() and line.isdigit():
                if not 1 <= int(line) <= len(legal):
                    say_error(f"there is no action number {line}: the list runs from 1 to {len(legal)}")
                    continue
                action = legal[int(line) - 1]
            else:
                action = state.parse(line)
            if not _confirm_attack(state, action, terminal, interactive):
                continue
            events = match.play(action)
        except ActionError as exc:
            say_error(exc)
            continue
        played += 1
        listed = True
        _narrate(events, decision.player)
        _autosave(match, save_path)


def _show_map(state: Any, player: int, terminal: TerminalSupport | None) -> None:
    if terminal is None:
        say("this game has no map in the terminal (its state: ", plain(state.describe(), limit=2000), ")")
        return
    for table in terminal.board(state, player):
        console.print(text_table(table))


def _show_cards(state: Any, player: int, terminal: TerminalSupport | None) -> None:
    if terminal is None:
        say("this game gives no card texts in the terminal")
        return
    cards = terminal.cards(state, player)
    if not cards:
        say("you hold no cards")
    for name, text in cards:
        say(plain(name, style="bold"), ": ", plain(text, limit=1000))


def _show_rule(game: str, rule_id: str | None) -> None:
    """The rules help's paragraph of ``rule_id`` (the decision's rule when none is typed)."""
    if not rule_id:
        say("this decision names no rule; type rules RULE-ID (warhorn rules ", game, " lists them)")
        return
    try:
        text = rules_help(game).paragraph(rule_id)
    except WarhornError as exc:
        say_error(exc)
        return
    say(plain(rule_id.upper(), style="bold cyan"), ": ", plain(text, limit=2000))


def _confirm_attack(state: Any, action: Any, terminal: TerminalSupport | None, interactive: bool) -> bool:
    """Show the odds of the battle ``action`` starts (if any); at a terminal, ask to confirm it."""
    if terminal is None or terminal.attack_report is None:
        return True
    try:
        lines = terminal.attack_report(state, action)
    except OddsUnavailableError as exc:
        if exc.code == "not_an_attack":
            return True
        lines = [f"no odds for this battle: {exc}"]
    for line in lines:
        say(plain(line, limit=1000, style="cyan"))
    if not interactive:
        return True
    try:
        answer = input("attack? [Y/n] ").strip().lower()
    except EOFError:
        return False
    if answer in ("", "y", "yes"):
        return True
    say("not attacked")
    return False


def undo_to_own_decision(match: Match, humans: set[int], *, auto_pass: bool = False) -> int:
    """Take back actions until a human seat is to decide again, at the latest human decision.

    Undoing one action when AI seats acted since would put the AI's choice straight back; this goes
    back past the AI actions to the human's own previous decision (with ``auto_pass``, past the
    decisions that answered themselves too). Returns how many actions went.
    """
    for back in range(1, len(match.actions) + 1):
        earlier = match.states[-back - 1]
        before = earlier.pending()
        if auto_pass and earlier.auto_answer() is not None:
            continue
        if before is not None and before.player in humans:
            match.undo(back)
            return back
    raise UndoError("nothing of yours to undo yet")


def _save(match: Match, path: Path) -> bool:
    try:
        path.write_text(match.dumps(), encoding="utf-8")
    except OSError as exc:
        say_error(f"cannot save to {path}: {exc.strerror or exc}")
        return False
    say(f"saved to {path}")
    return True


def _offer_save(match: Match, save_path: Path | None) -> None:
    """On leaving: the game is saved already (``--save``), or the player may name a file for it."""
    if save_path is not None:
        say(f"the game is saved in {save_path} (resume: warhorn play {match.game} --load {save_path})")
        return
    if not sys.stdin.isatty():
        return
    while True:
        try:
            answer = input("save the game before leaving? file name (Enter: leave without saving) ").strip()
        except (EOFError, KeyboardInterrupt):
            say()
            return
        if not answer or _save(match, Path(answer)):
            return


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
        seed: int | None = typer.Option(
            None, "--seed", help="Seed for dice and shuffles (default: a fresh one, printed at the start)."
        ),
        seats: str = typer.Option(
            "",
            "--seats",
            help="Comma list per seat: human or an AI kind (random, heuristic, mcts:iterations=400...); "
            "with --load, the seats the save recorded.",
        ),
        load: Path | None = typer.Option(None, "--load", help="Resume a saved game."),
        position: Path | None = typer.Option(
            None, "--position", help="Start from this position file (.json/.toml; docs/positions.md)."
        ),
        save: Path | None = typer.Option(
            None, "--save", help="Save the game to this file after every action."
        ),
        content: Path | None = typer.Option(None, "--content", help="Content folder to play with."),
        undo: bool = typer.Option(True, "--undo/--no-undo", help="Hotseat undo across rolls (same dice)."),
        max_actions: int | None = typer.Option(None, "--max-actions", help="Stop after this many actions."),
    ) -> None:
        """Play GAME in the terminal: every seat human unless --seats says otherwise."""
        try:
            if load is not None and position is not None:
                raise fail("give --load or --position, not both", EXIT_USAGE)
            if load is not None:
                match = load_save(load, content)
                if match.game != game:
                    raise WarhornError(f"{load} is a save of {match.game}, not of {game}")
            elif position is not None:
                if option or seed is not None:
                    raise fail(
                        "a position sets the options and dice itself: drop --option/--seed", EXIT_USAGE
                    )
                match = match_from_position_file(position, game, content, undo=undo)
            else:
                loaded: Any = None
                if content is not None:
                    support = content_support(game)
                    if support is None:
                        raise WarhornError(f"{game} takes no content folder")
                    loaded = support.load_folder(content)
                fresh_seed = seed is None
                seed = secrets.randbelow(2**31) if seed is None else seed
                match = Match.new(game, seed=seed, content=loaded, hotseat_undo=undo, **parse_options(option))
                if fresh_seed:
                    say(f"seed {seed} (play this deal again with --seed {seed})")
        except WarhornError as exc:
            raise fail(exc) from None
        n = match.state.num_players
        kinds = [s.strip() for s in seats.split(",") if s.strip()] if seats else []
        if not kinds and load is not None:
            saved = match.meta.get("seats")
            if isinstance(saved, list) and len(saved) == n and all(isinstance(k, str) for k in saved):
                kinds = list(saved)
        kinds += ["human"] * (n - len(kinds))
        if len(kinds) != n:
            raise fail(f"--seats lists {len(kinds)} seats but the game has {n}", EXIT_USAGE)
        try:
            for kind in kinds:
                if kind != "human":
                    make_agent(kind)
        except (WarhornError, ValueError) as exc:
            raise fail(f"--seats: {exc}", EXIT_USAGE) from None
        raise typer.Exit(run_game(match, kinds, save_path=save, ai_seed=match.seed, max_actions=max_actions))
