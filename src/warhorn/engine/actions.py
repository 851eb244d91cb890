"""Actions: frozen, typed values with a JSON form and a short text notation.

A game declares its action types as frozen dataclasses that subclass
:class:`Action` and set ``kind``. :class:`ActionCodec` turns JSON into those
values (through pydantic, so a wrong field type is refused with its name) and
text into the legal action it denotes.

The notation is the kind followed by the fields in order. A field can say how
it is written with ``field(metadata=written_as(...))`` (a keyword before it,
the separators of a sequence or of pairs, a word for "empty", leaving out its
default), and a class can set ``notation_order``; so most actions need no
``notation`` method of their own.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

import pydantic

from warhorn.engine.errors import AmbiguousActionError, MalformedActionError

_NOTATION_KEY = "warhorn.notation"


@dataclasses.dataclass(frozen=True, slots=True)
class FieldNotation:
    """How one field of an action is written in the action's notation (made by :func:`written_as`)."""

    keyword: str = ""
    separator: str = ","
    pair_separator: str = ">"
    when_empty: str | None = None
    omit_default: bool = False

    def words(self, value: Any, default: Any) -> list[str]:
        """The words this field adds to a notation (none when it is left out)."""
        if self.omit_default and value == default:
            return []
        if value is None or value == "" or value == ():
            if self.when_empty is None:
                return []
            text = self.when_empty
        elif isinstance(value, (tuple, list)):
            text = self.separator.join(
                [
                    self.pair_separator.join([_text(part) for part in item])
                    if isinstance(item, (tuple, list))
                    else _text(item)
                    for item in value
                ]
            )
        else:
            text = _text(value)
        return [self.keyword, text] if self.keyword else [text]


def written_as(
    *,
    keyword: str = "",
    separator: str = ",",
    pair_separator: str = ">",
    when_empty: str | None = None,
    omit_default: bool = False,
) -> dict[str, FieldNotation]:
    """Field metadata saying how a field is written: ``x: T = field(metadata=written_as(...))``.

    ``keyword`` is written before the value (``via castle``); the items of a
    sequence are joined by ``separator``, and the two halves of an item that is
    itself a pair by ``pair_separator`` (``soldier>k2,mage>k3``). An empty value
    (None, ``""``, ``()``) is written as ``when_empty``, or left out with its
    keyword when that is None; ``omit_default`` leaves the field out when it
    holds its default.
    """
    return {_NOTATION_KEY: FieldNotation(keyword, separator, pair_separator, when_empty, omit_default)}


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """Base of every action. Subclasses are frozen dataclasses with JSON-friendly fields."""

    kind: ClassVar[str] = "action"
    #: The fields the notation writes first, in this order; the others follow in declared order.
    notation_order: ClassVar[tuple[str, ...]] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            out[f.name] = _jsonable(getattr(self, f.name))
        return out

    def notation(self) -> str:
        """Short text form: the kind, then each field (e.g. ``move soldier zaarnath,amil_forest``).

        Fields without :func:`written_as` metadata are written plainly: spaces as
        ``_``, sequences joined by ``,``, None as ``-``; an empty string is left out.
        """
        parts = [self.kind]
        for name, how, default in _notation_plan(type(self)):
            value = getattr(self, name)
            if how is None:
                parts.append(_text(value))
            else:
                parts += how.words(value, default)
        return " ".join(p for p in parts if p != "")

    def __str__(self) -> str:
        return self.notation()


_NotationPlan = tuple[tuple[str, FieldNotation | None, Any], ...]
_PLANS: dict[type, _NotationPlan] = {}


def _notation_plan(cls: type[Action]) -> _NotationPlan:
    """The fields an action class writes, in order, each with its notation (None: plain) and default."""
    plan = _PLANS.get(cls)
    if plan is None:
        fields = {f.name: f for f in dataclasses.fields(cls)}
        order = [*cls.notation_order, *(n for n in fields if n not in cls.notation_order)]
        plan = tuple((n, fields[n].metadata.get(_NOTATION_KEY), fields[n].default) for n in order)
        _PLANS[cls] = plan
    return plan


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


def _text(value: Any) -> str:
    if isinstance(value, str):  # the common case first
        return value.replace(" ", "_")
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (tuple, list)):
        return ",".join([_text(v) for v in value])
    return str(value).replace(" ", "_")


def _normalise(text: str) -> str:
    return " ".join(text.strip().lower().replace("_", " ").replace("-", " ").split())


class ActionCodec:
    """Knows one game's action types: decodes JSON and resolves text against legal actions."""

    def __init__(self, action_types: Iterable[type[Action]]) -> None:
        self._types: dict[str, type[Action]] = {}
        self._adapters: dict[str, pydantic.TypeAdapter[Any]] = {}
        for cls in action_types:
            if cls.kind in self._types:
                raise ValueError(f"two action types share the kind {cls.kind!r}")
            self._types[cls.kind] = cls
        self._config = pydantic.ConfigDict(strict=False)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(self._types)

    def action_type(self, kind: str) -> type[Action]:
        """The action class of ``kind`` (KeyError naming the kind when the game has none)."""
        try:
            return self._types[kind]
        except KeyError:
            raise KeyError(f"no action kind {kind!r} (known: {', '.join(self._types)})") from None

    def _adapter(self, kind: str) -> pydantic.TypeAdapter[Any]:
        adapter = self._adapters.get(kind)
        if adapter is None:
            adapter = pydantic.TypeAdapter(self._types[kind])
            self._adapters[kind] = adapter
        return adapter

    def from_json(self, data: Any) -> Action:
        """Decode a JSON object into an action; raise :class:`MalformedActionError` if it is not one."""
        if not isinstance(data, Mapping):
            raise MalformedActionError("an action must be a JSON object with a 'kind'")
        kind = data.get("kind")
        if not isinstance(kind, str):
            raise MalformedActionError("an action needs a string field 'kind'")
        if kind not in self._types:
            raise MalformedActionError(
                f"unknown action kind {kind!r}; this game knows: {', '.join(sorted(self._types))}"
            )
        fields = {k: v for k, v in data.items() if k != "kind"}
        known = {f.name for f in dataclasses.fields(self._types[kind])}
        extra = sorted(set(fields) - known)
        if extra:
            raise MalformedActionError(f"action {kind!r} has no field(s) {', '.join(extra)}")
        try:
            action = self._adapter(kind).validate_python(fields)
        except pydantic.ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or kind}: {err['msg']}" for err in exc.errors()
            )
            raise MalformedActionError(f"action {kind!r}: {problems}") from None
        assert isinstance(action, Action)
        return action

    def decode_text(self, text: str) -> Action | None:
        """The action a text writes, read back through the same notation plan that writes it.

        No legality is involved (``apply`` decides, and names the rule when it refuses); None
        when the text is not the notation of any action of this game. For games whose players
        may type an action that is not listed, so that the refusal can say why.
        """
        words = text.split()
        if not words or words[0] not in self._types:
            return None
        cls = self._types[words[0]]
        hints = typing.get_type_hints(cls)
        rest = words[1:]
        fields: dict[str, Any] = {}
        for name, how, default in _notation_plan(cls):
            optional = default is not dataclasses.MISSING
            if how is not None and how.keyword:
                if rest[:1] != [how.keyword]:
                    if optional:
                        continue
                    return None
                rest = rest[1:]
            sequence = typing.get_origin(hints[name]) is tuple
            if not rest:
                if optional:
                    continue
                if sequence and (how is None or how.when_empty is None):
                    fields[name] = []  # an empty sequence is written as nothing
                    continue
                return None
            word, rest = rest[0], rest[1:]
            how = how or FieldNotation()
            if sequence:
                if how.when_empty is not None and word == how.when_empty:
                    fields[name] = []
                    continue
                items = word.split(how.separator)
                inner = typing.get_args(hints[name])[:1]
                pairs = bool(inner) and typing.get_origin(inner[0]) is tuple
                fields[name] = [item.split(how.pair_separator) if pairs else item for item in items]
            else:
                fields[name] = word
        if rest:
            return None
        try:
            return self.from_json({"kind": cls.kind, **fields})
        except MalformedActionError:
            return None

    def resolve_text(self, text: str, legal: Sequence[Action]) -> Action:
        """The legal action that ``text`` denotes.

        An exact notation match wins; otherwise a unique legal action whose
        notation starts with the text (word by word). Several → ambiguous. None →
        malformed if the first word is no action kind, else the caller decides
        (see :meth:`warhorn.engine.state.GameState.parse`).
        """
        wanted = _normalise(text)
        if not wanted:
            raise MalformedActionError("empty action")
        exact = [a for a in legal if _normalise(a.notation()) == wanted]
        if len(exact) == 1:
            return exact[0]
        if len(exact) > 1:
            raise AmbiguousActionError(text, [a.notation() for a in exact])
        words = wanted.split()
        prefixed = [a for a in legal if _normalise(a.notation()).split()[: len(words)] == words]
        if len(prefixed) == 1:
            return prefixed[0]
        if len(prefixed) > 1:
            raise AmbiguousActionError(text, [a.notation() for a in prefixed])
        kinds = [_normalise(k).split() for k in self._types]
        if not any(words[: len(k)] == k for k in kinds):
            raise MalformedActionError(
                f"{text!r} is not an action: it starts with no action kind ({', '.join(sorted(self._types))})"
            )
        raise LookupError(wanted)
