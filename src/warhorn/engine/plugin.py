"""A game plugin: everything warhorn knows about one game, in one object.

A game is a package that builds one :class:`GamePlugin` and names it in its
distribution's metadata, in the ``warhorn.games`` entry-point group (for the
games shipped with warhorn, ``pyproject.toml``)::

    [project.entry-points."warhorn.games"]
    nerath = "warhorn.games.nerath.plugin:PLUGIN"

The entry point's name is the game id. The registry (:mod:`warhorn.engine.registry`)
loads every plugin of the group on first use, so a separately installed
package adds a game exactly the way the built-in ones do; a program or a test
may also hand a plugin object to :func:`warhorn.engine.registry.register_plugin`.
Nothing outside the game's package lists game ids: the command line, the
server's lobby, its board and odds pages, the AI kinds, the conformance suite
and the golden playthroughs all read the registered plugins.

The rules core imports no front end, so the parts that belong to a front end
(the AI, the web board) are *references* — ``"package.module:attribute"``
strings — imported only when a front end asks for them (:func:`resolve`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warhorn.engine.decisions import GameSpec
from warhorn.engine.errors import ContentError, WarhornError

if TYPE_CHECKING:
    from warhorn.engine.actions import Action
    from warhorn.engine.state import GameState

#: ``factory(options, seed, content)`` builds the first state; ``options`` are already validated.
GameFactory = Callable[[dict[str, Any], int, Any], "GameState"]

#: The entry-point group games register in.
ENTRY_POINT_GROUP = "warhorn.games"


class PluginError(WarhornError):
    """A game plugin is malformed, or a reference it holds cannot be imported."""


@dataclass(frozen=True, slots=True)
class ContentSupport:
    """How a game's content folders are recognised, checked and loaded.

    ``marker_files``: file names whose presence says a folder holds this game's
    content. ``check_folder(path)`` returns every mistake (file and key);
    ``load_folder(path or None)`` returns the content object the factory takes
    (None = the content shipped with warhorn).
    """

    marker_files: tuple[str, ...]
    check_folder: Callable[[Path], list[ContentError]]
    load_folder: Callable[[Path | None], Any]


@dataclass(frozen=True, slots=True)
class ConformanceCases:
    """Which option sets the conformance suite (and the golden playthroughs) play, with how many seeds.

    Every option set is played with seeds ``0 .. seeds - 1``; a real game's
    full playthrough costs more than a toy's, so keep the product small.
    """

    option_sets: tuple[Mapping[str, Any], ...] = ({},)
    seeds: int = 3


class OddsUnavailableError(WarhornError):
    """The game cannot give odds for this question; ``code`` says why in one word (e.g. ``not_an_attack``)."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class CliOption:
    """One option of a game's ``warhorn odds <game>`` command, declared without the command line's
    library: the parameter ``name`` the game's :attr:`OddsCli.answer` reads, its ``flags``
    (``("--attacker", "-a")``), its type (``str``, ``int``, ``bool``), its default (``required``:
    none), the help text and, for numbers, the least value."""

    name: str
    flags: tuple[str, ...]
    kind: type
    default: Any = None
    help: str = ""
    required: bool = False
    minimum: int | None = None


@dataclass(frozen=True, slots=True)
class OddsTable:
    """A table of the text report: a title, the columns (name, ``"left"`` or ``"right"``) and rows."""

    title: str
    columns: tuple[tuple[str, str], ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class OddsCli:
    """A game's ``warhorn odds <game>`` command, as data the command line turns into a command.

    ``options``: the battle's options (the command adds ``--top`` and ``--json``).
    ``answer(values)``: the odds of the battle the options (by name) describe; it raises
    :class:`OddsUnavailableError` naming the option at fault (a usage error, exit code 2).
    ``to_json(odds, top)``: the ``--json`` answer; ``report(odds, top)``: the text answer as
    lines and :class:`OddsTable` blocks, in order.
    """

    help: str
    options: tuple[CliOption, ...]
    answer: Callable[[dict[str, Any]], Any]
    to_json: Callable[[Any, int], dict[str, Any]]
    report: Callable[[Any, int], list[str | OddsTable]]


@dataclass(frozen=True, slots=True)
class OddsSupport:
    """A game's battle odds, for the command line and the server.

    ``request``: the pydantic model of a calculator question (its validation
    errors name the field). ``catalog()``: what the calculator offers (piece
    types, tiles). ``calculate(request)``: the odds of the battle it describes.
    ``attack_odds(state, action)``: the odds of the battle that ``action`` —
    legal now — would start, computed from what every player sees (hidden
    facts averaged over what they could be). Both raise
    :class:`OddsUnavailableError` for a question without an answer.
    ``cli``: the game's ``warhorn odds <game>`` command (None: the game has none).
    """

    request: type[Any]
    catalog: Callable[[], dict[str, Any]]
    calculate: Callable[[Any], dict[str, Any]]
    attack_odds: Callable[[GameState, Action], dict[str, Any]]
    cli: OddsCli | None = None


@dataclass(frozen=True, slots=True)
class TerminalSupport:
    """What ``warhorn play`` shows a player beyond the prompt, from what that player may see.

    ``board(state, player)``: the board as tables (its ``map`` command), e.g. territories grouped by
    kingdom with their holders and pieces. ``cards(state, player)``: (name, text) of every card the
    player holds (its ``cards`` command). ``attack_report(state, action)`` (optional): lines with the
    exact odds of the battle a legal ``action`` would start (:func:`chances_line` writes the outcomes);
    it raises :class:`OddsUnavailableError` where it has none, code ``not_an_attack`` when the action
    starts no battle. The terminal shows the lines and asks to confirm before attacking (an action that
    starts no battle is sent at once; a battle without odds is said so in one line).
    """

    board: Callable[[GameState, int], list[OddsTable]]
    cards: Callable[[GameState, int], list[tuple[str, str]]]
    attack_report: Callable[[GameState, Action], list[str]] | None = None


def chances_line(chances: list[tuple[str, float]], *, attacker_retreats: float | None = None) -> str:
    """A battle's outcomes with their chances, for a terminal: ``"attacker wins 48.3 % · defender wins
    48.3 % · mutual destruction 3.4 %"`` (percent, one decimal, in the order given), then ``attacker
    retreats`` where the attacker may retreat (a chance above zero)."""
    if attacker_retreats:
        chances = [*chances, ("attacker retreats", attacker_retreats)]
    return " · ".join(f"{outcome} {100 * chance:.1f} %" for outcome, chance in chances)


@dataclass(frozen=True, slots=True)
class PositionSupport:
    """How a game builds a state from a position (a JSON/TOML mapping) and writes one back.

    ``position_from(data, content)`` validates ``data`` (errors name the key, raised as
    :class:`~warhorn.engine.errors.ContentError` or ``ContentErrors``) and returns the
    state; ``to_position(state)`` returns a JSON-able mapping that builds the same state.
    A plugin names the module that holds both functions (``GamePlugin.positions``).
    """

    position_from: Callable[[Mapping[str, Any], Any], GameState]
    to_position: Callable[[GameState], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """One game: its rules (``spec``, ``factory``) and what every part of warhorn needs of it.

    References (``"module:attribute"``, imported on first use):

    - ``heuristic``: a factory ``(params: Mapping[str, str]) -> GameHeuristic``
      for the ``heuristic`` agent (:mod:`warhorn.ai.heuristic`);
    - ``search_hooks``: a :class:`warhorn.ai.hooks.GameHooks` for search;
    - ``board_layout``: ``(state) -> dict``, the public drawing data the server
      sends at ``/api/seat/{token}/board``;
    - ``web_assets``: a package whose files named ``<game id>.*`` the server
      serves at ``/static/games/``; ``<game id>.js`` is the board renderer the
      game page imports (see ``server/static/game.js`` for its contract);
    - ``odds``: an :class:`OddsSupport`;
    - ``positions``: the module (``"warhorn.games.<id>.position"``) holding
      ``position_from(data, content=None)`` and ``to_position(state)``
      (:class:`PositionSupport`; see ``docs/positions.md``);
    - ``terminal``: a :class:`TerminalSupport` (``warhorn play``'s ``map``, ``cards`` and the odds
      shown before an attack);
    - ``rules_help``: a package holding ``rules_help.toml``, one paragraph per rule ID
      (:mod:`warhorn.rules_help`: ``warhorn rules <game>`` and the server's ``/rules/<game>``);
    - ``observation``: a factory ``(first_state) -> encoder`` for :mod:`warhorn.interop`: the
      encoder's ``size`` (fixed for the game and option set of ``first_state``) and
      ``encode(state, player)``, what ``player`` sees as that many float32 numbers, read from the
      state directly (cheaper than hashing ``view(player)``, which games without one get). It must
      show nothing the view hides: the interop leak test resamples hidden facts with ``determinize``.
    - ``action_domains``: a factory ``(first_state) -> {kind: {field: values}}`` for
      :mod:`warhorn.interop`'s flat action index: for each action kind, the finite values each of
      its fields may take in any game of that option set (read from the content, not from play),
      one integer per action then. A ``Literal`` or ``bool`` field may be left out (its hint gives
      its values). A game without it is played token by token.

    ``content``: how content folders are read (None: the game has no content
    files). ``conformance``: the cases the conformance suite plays.
    """

    spec: GameSpec
    factory: GameFactory
    content: ContentSupport | None = None
    conformance: ConformanceCases = field(default_factory=ConformanceCases)
    heuristic: str | None = None
    search_hooks: str | None = None
    board_layout: str | None = None
    web_assets: str | None = None
    odds: str | None = None
    positions: str | None = None
    rules_help: str | None = None
    terminal: str | None = None
    observation: str | None = None
    action_domains: str | None = None

    @property
    def id(self) -> str:
        return self.spec.id


def resolve(reference: str) -> Any:
    """The object a ``"package.module:attribute"`` reference names, or the module of a bare
    ``"package.module"`` (imported now)."""
    module_name, sep, attribute = reference.partition(":")
    if not module_name or (sep and not attribute):
        raise PluginError(f"reference {reference!r} is not of the form 'package.module[:attribute]'")
    try:
        target: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise PluginError(f"reference {reference!r}: cannot import {module_name!r}: {exc}") from exc
    for part in attribute.split(".") if attribute else ():
        try:
            target = getattr(target, part)
        except AttributeError:
            raise PluginError(f"reference {reference!r}: {module_name!r} has no {attribute!r}") from None
    return target
