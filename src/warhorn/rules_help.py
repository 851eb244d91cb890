"""Rules help: one short paragraph per rule ID, in warhorn's own words, for players.

A game names a package holding ``rules_help.toml`` (``GamePlugin.rules_help``)::

    prefixes = ["NER"]                       # the rule-ID prefixes the game owns
    [sections]
    NER-MOV = "Movement"                     # a heading per "<prefix>-<group>", in reading order
    [rules]
    NER-MOV-01 = "In the movement phase ..."  # every rule ID of the game, one paragraph each

The command line (``warhorn rules <game> [RULE-ID]``) and the server's ``/rules/<game>`` page
read it through :func:`rules_help`; :func:`rule_ids_in` finds the "[NER-MOV-01]" references a
prompt, an error or a log line carries, so a front end can link them here.
"""

from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from importlib import resources

from warhorn.engine.errors import WarhornError
from warhorn.engine.registry import game_plugin

#: A rule ID: game prefix, group, number or short name ("NER-MOV-01", "NER-VP-02", "SWW-RAC-KOB").
RULE_ID = re.compile(r"\b([A-Z]{3})-([A-Z]{2,3})-([A-Z0-9]{2,3})\b")

#: The file a game's rules-help package holds.
FILE_NAME = "rules_help.toml"


class RulesHelpError(WarhornError):
    """A game has no rules help, a rule ID is not one of the game's, or the file is malformed."""


@dataclass(frozen=True, slots=True)
class RuleSection:
    """The rules of one group ("NER-MOV"): its heading and its (rule ID, paragraph) pairs in order."""

    key: str
    heading: str
    rules: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class RulesHelp:
    """A game's rules help: the prefixes it owns, its section headings and its paragraphs."""

    game: str
    title: str
    prefixes: tuple[str, ...]
    headings: dict[str, str]
    paragraphs: dict[str, str]

    def paragraph(self, rule_id: str) -> str:
        """The paragraph of ``rule_id`` (any case); an unknown ID is refused naming the game."""
        key = rule_id.strip().upper()
        try:
            return self.paragraphs[key]
        except KeyError:
            raise RulesHelpError(
                f"{rule_id!r} is not a rule of {self.game} (its rule IDs start with "
                f"{', '.join(p + '-' for p in self.prefixes)}; `warhorn rules {self.game}` lists them)"
            ) from None

    def sections(self) -> list[RuleSection]:
        """The rules grouped under their headings, in the order the headings are listed."""
        grouped: dict[str, list[tuple[str, str]]] = {key: [] for key in self.headings}
        for rule_id, text in self.paragraphs.items():
            grouped.setdefault(section_key(rule_id), []).append((rule_id, text))
        return [
            RuleSection(key, self.headings.get(key, key), tuple(sorted(rules, key=_rule_order)))
            for key, rules in grouped.items()
            if rules
        ]


def section_key(rule_id: str) -> str:
    """``"NER-MOV-01"`` → ``"NER-MOV"``."""
    return rule_id.rsplit("-", 1)[0]


def _rule_order(pair: tuple[str, str]) -> tuple[int, str]:
    last = pair[0].rsplit("-", 1)[1]
    return (int(last), "") if last.isdigit() else (10_000, last)


def rule_ids_in(text: str) -> list[str]:
    """The rule IDs a text names, in order, each once."""
    return list(dict.fromkeys(m.group(0) for m in RULE_ID.finditer(text)))


def problems(data: object, game: str) -> list[str]:
    """What is wrong with a parsed ``rules_help.toml`` (empty: nothing), each naming the key."""
    if not isinstance(data, dict):
        return [f"{game}: {FILE_NAME} is not a table"]
    out: list[str] = []
    prefixes = data.get("prefixes")
    if not isinstance(prefixes, list) or not prefixes or not all(isinstance(p, str) for p in prefixes):
        out.append(f"{game}: prefixes must be a non-empty list of rule-ID prefixes")
        prefixes = []
    for name in ("sections", "rules"):
        table = data.get(name)
        if not isinstance(table, dict) or not all(isinstance(v, str) and v.strip() for v in table.values()):
            out.append(f"{game}: [{name}] must map keys to non-empty text")
    if out:
        return out
    for key in data["sections"]:
        if not re.fullmatch(r"[A-Z]{3}-[A-Z]{2,3}", key) or key[:3] not in prefixes:
            out.append(f"{game}: section {key!r} is not '<prefix>-<group>' for the prefixes {prefixes}")
    for rule_id in data["rules"]:
        m = RULE_ID.fullmatch(rule_id)
        if m is None or m.group(1) not in prefixes:
            out.append(f"{game}: {rule_id!r} is not a rule ID with one of the prefixes {prefixes}")
        elif section_key(rule_id) not in data["sections"]:
            out.append(f"{game}: {rule_id} has no heading: add {section_key(rule_id)!r} to [sections]")
    unknown = set(data) - {"prefixes", "sections", "rules"}
    if unknown:
        out.append(f"{game}: unknown keys {sorted(unknown)}")
    return out


@functools.cache
def rules_help(game: str) -> RulesHelp:
    """The rules help of a registered game (an unknown game is refused by the registry)."""
    plugin = game_plugin(game)
    if plugin.rules_help is None:
        raise RulesHelpError(f"{game} has no rules help")
    try:
        text = resources.files(plugin.rules_help).joinpath(FILE_NAME).read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (OSError, ModuleNotFoundError, tomllib.TOMLDecodeError) as exc:
        raise RulesHelpError(f"{game}: cannot read {plugin.rules_help}/{FILE_NAME}: {exc}") from None
    found = problems(data, game)
    if found:
        raise RulesHelpError(found[0] + (f" (and {len(found) - 1} more)" if len(found) > 1 else ""))
    return RulesHelp(
        game=game,
        title=plugin.spec.name,
        prefixes=tuple(data["prefixes"]),
        headings=dict(data["sections"]),
        paragraphs={k: " ".join(v.split()) for k, v in data["rules"].items()},
    )
