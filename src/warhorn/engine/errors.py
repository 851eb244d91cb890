"""The errors the engine raises. Every refusal says what is wrong and, where a rule forbids it, which rule."""

from __future__ import annotations

from collections.abc import Sequence


class WarhornError(Exception):
    """Base class of every error warhorn raises on purpose."""


class OptionError(WarhornError):
    """A game option is unknown, ill-typed or out of range. The message names the option."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(f"option {option!r}: {message}")


class UnknownGameError(WarhornError):
    """No game is registered under that name."""


class ActionError(WarhornError):
    """An action was refused. The state it was offered to is unchanged."""


class MalformedActionError(ActionError):
    """The input is not an action of this game at all (bad JSON, unknown kind, wrong field types)."""


class IllegalActionError(ActionError):
    """A well-formed action that the rules do not allow now.

    ``rule`` is the digest rule ID that forbids it, where one applies.
    """

    def __init__(self, message: str, rule: str | None = None) -> None:
        self.rule = rule
        super().__init__(f"{message} [{rule}]" if rule else message)


class AmbiguousActionError(ActionError):
    """A text matches more than one legal action; ``candidates`` lists their notations."""

    def __init__(self, text: str, candidates: Sequence[str]) -> None:
        self.candidates = tuple(candidates)
        shown = ", ".join(self.candidates[:8])
        more = f" and {len(self.candidates) - 8} more" if len(self.candidates) > 8 else ""
        super().__init__(f"{text!r} is ambiguous: it could be {shown}{more}")


class ScriptExhaustedError(WarhornError):
    """A scripted random source was asked for more results than the test scripted."""


class SaveError(WarhornError):
    """A save file is malformed, belongs to another game or version, or does not replay."""


class UndoError(WarhornError):
    """Undo was refused (nothing to undo, or it would cross a random event)."""


class ContentError(WarhornError):
    """One mistake in a content file: ``file`` and ``key`` say where."""

    def __init__(self, file: str, key: str, message: str) -> None:
        self.file = file
        self.key = key
        self.message = message
        super().__init__(f"{file}: {key}: {message}")


class ContentErrors(WarhornError):
    """Every mistake found in a content folder, reported together."""

    def __init__(self, errors: Sequence[ContentError]) -> None:
        self.errors = tuple(errors)
        lines = "\n".join(str(e) for e in self.errors)
        super().__init__(f"{len(self.errors)} content error(s):\n{lines}")
