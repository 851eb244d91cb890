"""A fixed, finite action index for any registered game, derived from the game itself.

warhorn's actions are structured values (a move names a piece kind, a count and
a path; a casualty choice names several pieces), so no game has a small flat
list of every action it could ever offer. The index *factorises* an action
into a short sequence of **tokens** drawn from a fixed vocabulary, and an
agent chooses an action token by token (see :mod:`warhorn.interop.pettingzoo`).

The vocabulary of a game and option set (its order is sorted, so it is stable
for the same content and options) holds, in this order:

1. the structural tokens ``<open>`` and ``<close>`` (a tuple field's bounds),
   ``<none>``, ``<false>`` and ``<true>``;
2. one ``kind:<kind>`` token per action type the game's codec knows;
3. ``int:0`` .. ``int:<MAX_INT>`` (counts, ship numbers);
4. ``int-hundreds:1`` .. ``int-hundreds:99`` (an integer from 100 to
   ``MAX_INT`` is coded as its hundreds, then ``int:<rest>``);
5. ``char:<c>`` for each printable ASCII character;
6. one ``str:<text>`` token per string of the first state's snapshot and
   public view — keys and values: space ids, piece kinds, card ids, hero
   names, … (the game's content, read from the state it builds) — and of
   every ``Literal`` in the action types' field hints.

A string field holding a vocabulary string is one token; ``""`` is
``<empty>``; any other string (one the game composes during play, such as a
display name or ``warship(soldier)``) is spelled: ``<spell>``, its
characters, ``<end>`` — so every action a game can offer has a code.

An action's code is its kind token, then each dataclass field in declared
order: a scalar is one token, a tuple is ``<open>``, its items (recursively),
``<close>``. The code is prefix-free, so a sequence of tokens denotes at most
one action, and :meth:`ActionIndex.decode` builds it back through the game's
codec. Legality is never decided here: the mask of the next token is read from
``legal_actions()`` (:class:`TokenChooser`).

A game whose plugin declares its **action domains** (``GamePlugin.action_domains``:
for each action kind, the finite values each field may take, read from the
content) gets a **flat** index instead (:class:`FlatActionIndex`): every action
it can ever offer is one integer in ``range(size)`` — the kinds in sorted
order, each a block of ``product(len(domain) for each field)`` numbers, an
action's number within its block its fields' positions in mixed radix (the
first field most significant) — and one step chooses one action
(:class:`FlatChooser`). :func:`action_index_for` picks the flat index where
the game has one, the tokens otherwise.
"""

from __future__ import annotations

import bisect
import dataclasses
import operator
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from mypy_extensions import mypyc_attr

from warhorn.engine.actions import Action, ActionCodec
from warhorn.engine.plugin import resolve
from warhorn.engine.registry import game_plugin, load_game
from warhorn.engine.state import GameState

#: The largest integer an action field may hold (counts, ship numbers): ``int-hundreds:h`` then ``int:n``.
MAX_INT = 9_999

OPEN, CLOSE, NONE, FALSE, TRUE, EMPTY = "<open>", "<close>", "<none>", "<false>", "<true>", "<empty>"
#: A string outside the vocabulary is spelled: ``<spell>``, one ``char:`` token per character, ``<end>``.
SPELL, END = "<spell>", "<end>"
STRUCTURAL = (OPEN, CLOSE, NONE, FALSE, TRUE, EMPTY, SPELL, END)
#: The characters a spelled string may hold (printable ASCII).
SPELLABLE = "".join(chr(c) for c in range(32, 127))


#: How many action codes an index remembers (then it forgets them all and starts again).
CODE_CACHE_SIZE = 1 << 16


class ActionIndexError(ValueError):
    """An action holds a value outside the game's token vocabulary, or a token sequence is not an action."""


def _literal_strings(hint: Any, out: set[str]) -> None:
    """The strings of every ``Literal[...]`` inside a type hint (e.g. ``Literal["token", "beast"]``)."""
    if typing.get_origin(hint) is typing.Literal:
        out.update(arg for arg in typing.get_args(hint) if isinstance(arg, str))
    for arg in typing.get_args(hint):
        _literal_strings(arg, out)


def _strings_in(data: Any, out: set[str]) -> None:
    if isinstance(data, str):
        out.add(data)
    elif isinstance(data, dict):
        for key, value in data.items():
            out.add(str(key))
            _strings_in(value, out)
    elif isinstance(data, (list, tuple)):
        for item in data:
            _strings_in(item, out)


class ActionIndex:
    """The token vocabulary of one game and option set, and the coding of actions in it."""

    def __init__(self, codec: ActionCodec, strings: Iterable[str]) -> None:
        self.codec = codec
        words = [*STRUCTURAL]
        words += [f"kind:{kind}" for kind in sorted(codec.kinds)]
        words += [f"int:{n}" for n in range(100)]
        words += [f"int-hundreds:{n}" for n in range(1, 100)]
        words += [f"char:{c}" for c in SPELLABLE]
        words += [f"str:{text}" for text in sorted(set(strings))]
        self.tokens: tuple[str, ...] = tuple(words)
        self._number = {word: i for i, word in enumerate(self.tokens)}
        number = self._number
        self._strings = {word[4:]: i for word, i in number.items() if word.startswith("str:")}
        self._ints = [number[f"int:{n}"] for n in range(100)]
        self._open, self._close, self._none = number[OPEN], number[CLOSE], number[NONE]
        self._true, self._false, self._empty = number[TRUE], number[FALSE], number[EMPTY]
        self._spell, self._end = number[SPELL], number[END]
        self._fields: dict[type[Action], tuple[str, ...]] = {}
        # Codes of the actions met lately: a game offers the same actions decision after decision
        # (Nerath's hundreds of moves), and coding one walks its fields. Actions are frozen values.
        self._codes: dict[Action, tuple[int, ...]] = {}

    @classmethod
    def for_state(cls, state: GameState) -> ActionIndex:
        """The index of the game ``state`` belongs to, with the strings of its snapshot and public view."""
        strings: set[str] = set()
        for kind in state.codec.kinds:
            for hint in typing.get_type_hints(state.codec.action_type(kind)).values():
                _literal_strings(hint, strings)
        _strings_in(state.snapshot(), strings)
        _strings_in(state.view(None), strings)
        return cls(state.codec, strings)

    @classmethod
    def for_game(cls, game: str, options: Mapping[str, Any] | None = None) -> ActionIndex:
        """The index of ``game`` with ``options``: read from its first state with seed 0, whatever seed
        a game is then played with, so it is the same for every game of that option set."""
        return cls.for_state(load_game(game, seed=0, **dict(options or {})))

    @property
    def size(self) -> int:
        """How many tokens there are: every token number is in ``range(size)``."""
        return len(self.tokens)

    def describe(self, token: int) -> str:
        """The name of token ``token`` (``kind:move``, ``str:zaarnath`` …)."""
        return self.tokens[token]

    # --- action -> tokens ---------------------------------------------------
    def _token(self, word: str, action: Action) -> int:
        number = self._number.get(word)
        if number is None:
            raise ActionIndexError(f"{action.notation()!r}: {word!r} is not in this game's token vocabulary")
        return number

    def _value_tokens(self, value: Any, action: Action, out: list[int]) -> None:
        """Append the tokens of one field value to ``out``."""
        kind = type(value)
        if kind is str:
            number = self._strings.get(value) if value else self._empty
            if number is not None:
                out.append(number)
            else:
                out.append(self._spell)
                for char in value:
                    out.append(self._token(f"char:{char}", action))
                out.append(self._end)
        elif kind is int:
            if not 0 <= value <= MAX_INT:
                raise ActionIndexError(f"{action.notation()!r}: integer {value} outside 0..{MAX_INT}")
            if value >= 100:
                out.append(self._number[f"int-hundreds:{value // 100}"])
            out.append(self._ints[value % 100])
        elif kind is tuple or kind is list:
            out.append(self._open)
            for item in value:
                self._value_tokens(item, action, out)
            out.append(self._close)
        elif value is None:
            out.append(self._none)
        elif kind is bool:
            out.append(self._true if value else self._false)
        elif isinstance(value, (tuple, list, str, int)):  # subclasses (a str enum, an int enum)
            plain = (
                tuple(value)
                if isinstance(value, (tuple, list))
                else str(value)
                if isinstance(value, str)
                else int(value)
            )
            self._value_tokens(plain, action, out)
        else:
            raise ActionIndexError(f"{action.notation()!r}: cannot code a {type(value).__name__} field")

    def encode(self, action: Action) -> tuple[int, ...]:
        """The token numbers of ``action`` (ActionIndexError when a value is outside the vocabulary)."""
        code = self._codes.get(action)
        if code is None:
            out = [self._token(f"kind:{action.kind}", action)]
            for name in self._field_names(type(action)):
                self._value_tokens(getattr(action, name), action, out)
            code = tuple(out)
            if len(self._codes) >= CODE_CACHE_SIZE:
                self._codes.clear()
            self._codes[action] = code
        return code

    def _field_names(self, action_type: type[Action]) -> tuple[str, ...]:
        names = self._fields.get(action_type)
        if names is None:
            names = self._fields[action_type] = tuple(f.name for f in dataclasses.fields(action_type))
        return names

    # --- tokens -> action ---------------------------------------------------
    def _read_value(self, tokens: Sequence[int], at: int) -> tuple[Any, int]:
        if at >= len(tokens):
            raise ActionIndexError("token sequence ends inside an action")
        word = self.tokens[tokens[at]]
        if word == OPEN:
            items = []
            at += 1
            while at < len(tokens) and self.tokens[tokens[at]] != CLOSE:
                item, at = self._read_value(tokens, at)
                items.append(item)
            if at >= len(tokens):
                raise ActionIndexError("token sequence ends inside a tuple")
            return items, at + 1
        if word == CLOSE:
            raise ActionIndexError("<close> without <open>")
        if word in (NONE, TRUE, FALSE, EMPTY):
            return {NONE: None, TRUE: True, FALSE: False, EMPTY: ""}[word], at + 1
        if word == SPELL:
            chars = []
            at += 1
            while at < len(tokens) and self.tokens[tokens[at]].startswith("char:"):
                chars.append(self.tokens[tokens[at]].removeprefix("char:"))
                at += 1
            if at >= len(tokens) or self.tokens[tokens[at]] != END:
                raise ActionIndexError("a spelled string must end with <end>")
            return "".join(chars), at + 1
        prefix, _, text = word.partition(":")
        if prefix == "int-hundreds":
            if at + 1 >= len(tokens) or not self.tokens[tokens[at + 1]].startswith("int:"):
                raise ActionIndexError("int-hundreds must be followed by an int token")
            return int(text) * 100 + int(self.tokens[tokens[at + 1]].removeprefix("int:")), at + 2
        if prefix == "int":
            return int(text), at + 1
        if prefix == "str":
            return text, at + 1
        raise ActionIndexError(f"{word!r} cannot stand for a field value")

    def decode(self, tokens: Sequence[int]) -> Action:
        """The action a complete token sequence codes (ActionIndexError when it codes none)."""
        if not tokens or not 0 <= min(tokens) <= max(tokens) < self.size:
            raise ActionIndexError(f"token numbers must lie in 0..{self.size - 1}")
        head = self.tokens[tokens[0]]
        if not head.startswith("kind:"):
            raise ActionIndexError(f"an action's code starts with its kind, not {head!r}")
        kind = head.removeprefix("kind:")
        data: dict[str, Any] = {"kind": kind}
        at = 1
        for f in dataclasses.fields(self.codec.action_type(kind)):
            data[f.name], at = self._read_value(tokens, at)
        if at != len(tokens):
            raise ActionIndexError(f"{len(tokens) - at} tokens left after a complete {kind!r} action")
        return self.codec.from_json(data)


# compiled build: ``__new__`` without ``__init__`` (``copy``)
@mypyc_attr(allow_interpreted_subclasses=True)
class TokenChooser:
    """Choosing one legal action token by token: the mask of the next token and the choice so far.

    ``legal`` is the pending decision's ``legal_actions()``; :meth:`mask` says
    which tokens continue at least one legal action's code after the tokens
    chosen so far; :meth:`choose` adds one and returns the action once its code
    is complete (a prefix that only one legal action continues completes it).

    A token that every remaining legal action's code has next is no choice: it
    is taken at once (it joins :attr:`chosen` without a step), so each token
    an agent chooses splits the legal actions left (a Defenders move to a
    space reached one way only is one token, not four). A decision with a
    single legal action still takes one token, the first of its code.
    """

    def __init__(self, index: ActionIndex, legal: Sequence[Action]) -> None:
        if not legal:
            raise ActionIndexError("no legal action to choose from")
        self.index = index
        self.legal = legal
        encode = index.encode
        #: The codes of the legal actions still continued by the tokens chosen, and their actions.
        self._candidates = [encode(action) for action in legal]
        self._actions = list(legal)
        self.chosen: list[int] = []
        self._mask: npt.NDArray[np.int8] | None = None
        self._take_forced()

    def copy(self) -> TokenChooser:
        """An independent chooser of the same decision with the same tokens chosen (every attribute
        named: a compiled class has no instance ``__dict__`` for ``copy.copy``)."""
        twin = type(self).__new__(type(self))
        twin.index = self.index
        twin.legal = self.legal
        twin._candidates = list(self._candidates)
        twin._actions = list(self._actions)
        twin.chosen = list(self.chosen)
        twin._mask = self._mask
        return twin

    @property
    def codes(self) -> dict[tuple[int, ...], Action]:
        """Each legal action's code, and the action."""
        encode = self.index.encode
        return {encode(action): action for action in self.legal}

    def _take_forced(self) -> None:
        """Append the tokens every remaining code shares next (codes are distinct and prefix-free, so
        two or more of them part somewhere)."""
        candidates = self._candidates
        if len(candidates) < 2:
            return
        depth = len(self.chosen)
        first = candidates[0]
        while all(code[depth] == first[depth] for code in candidates):
            self.chosen.append(first[depth])
            depth += 1

    def next_tokens(self) -> set[int]:
        """The tokens that continue a legal action's code (the mask's ones)."""
        depth = len(self.chosen)
        return {code[depth] for code in self._candidates}

    def mask(self) -> npt.NDArray[np.int8]:
        """1 for each token that continues a legal action's code, else 0 (length ``index.size``;
        a new array at every call)."""
        if self._mask is None:
            out = np.zeros(self.index.size, dtype=np.int8)
            out[list(self.next_tokens())] = 1
            self._mask = out
        return self._mask.copy()

    def allows(self, token: int) -> bool:
        """Whether ``token`` continues a legal action's code (what :meth:`mask` says, without building it)."""
        depth = len(self.chosen)
        return any(code[depth] == token for code in self._candidates)

    def choose(self, token: int) -> Action | None:
        """Take ``token`` next; the chosen legal action once it is determined, else None."""
        depth = len(self.chosen)
        keep = [i for i, code in enumerate(self._candidates) if code[depth] == token]
        if not keep:
            raise ActionIndexError(f"token {token} ({self.index.tokens[token]!r}) continues no legal action")
        self.chosen.append(token)
        self._mask = None
        if len(keep) == 1:
            self._candidates = [self._candidates[keep[0]]]
            self._actions = [self._actions[keep[0]]]
            return self._actions[0]
        self._candidates = [self._candidates[i] for i in keep]
        self._actions = [self._actions[i] for i in keep]
        self._take_forced()
        return None


# --- the flat index -----------------------------------------------------------------------------


def _hint_domain(hint: Any) -> tuple[Any, ...] | None:
    """The values a ``Literal``, ``bool`` or optional (``X | None``) hint allows, in declared order;
    None when the hint alone does not make the field finite."""
    if hint is bool:
        return (False, True)
    if typing.get_origin(hint) is typing.Literal:
        return typing.get_args(hint)
    args = typing.get_args(hint)
    if type(None) in args:
        rest = [arg for arg in args if arg is not type(None)]
        inner = _hint_domain(rest[0]) if len(rest) == 1 else None
        return None if inner is None else (None, *inner)
    return None


class _FlatKind:
    """One action kind's block of the flat index: where it starts, its fields and their domains."""

    __slots__ = ("action_type", "domains", "fields", "number", "positions", "radices", "size", "start")

    def __init__(self, action_type: type[Action], start: int, domains: Sequence[tuple[Any, ...]]) -> None:
        self.action_type = action_type
        self.start = start
        self.fields = tuple(f.name for f in dataclasses.fields(action_type))
        self.domains = tuple(domains)
        self.radices = tuple(len(domain) for domain in self.domains)
        self.positions = tuple({value: at for at, value in enumerate(domain)} for domain in self.domains)
        size = 1
        for radix in self.radices:
            size *= radix
        self.size = size
        #: The number of an action of this kind (KeyError: a value outside its field's domain).
        self.number = self._number_reader()

    def _number_reader(self) -> Callable[[Action], int]:
        """A function numbering an action of this kind: its fields read in C (attrgetter), then the
        mixed radix unrolled for up to three fields (one step per action reads every legal action)."""
        start, positions, radices = self.start, self.positions, self.radices
        if not self.fields:
            return lambda action: start
        if len(self.fields) == 1:
            read, only = operator.attrgetter(self.fields[0]), positions[0]
            return lambda action: start + only[read(action)]
        read_all = operator.attrgetter(*self.fields)
        if len(self.fields) == 2:
            first, second = positions
            radix = radices[1]

            def number_of_two(action: Action) -> int:
                a, b = read_all(action)
                return start + first[a] * radix + second[b]

            return number_of_two
        if len(self.fields) == 3:
            first, second, third = positions
            radix_2, radix_3 = radices[1], radices[2]

            def number_of_three(action: Action) -> int:
                a, b, c = read_all(action)
                return start + (first[a] * radix_2 + second[b]) * radix_3 + third[c]

            return number_of_three

        def number_of_many(action: Action) -> int:
            number = 0
            for value, at, radix in zip(read_all(action), positions, radices, strict=True):
                number = number * radix + at[value]
            return start + number

        return number_of_many


class FlatActionIndex:
    """Every action of one game and option set as one integer (see the module text).

    Built from the game's codec and its declared field domains; ``encode`` raises
    :class:`ActionIndexError` for a value outside its field's domain (the declaration missed it).
    """

    def __init__(self, codec: ActionCodec, declared: Mapping[str, Mapping[str, Sequence[Any]]]) -> None:
        self.codec = codec
        unknown = sorted(set(declared) - set(codec.kinds))
        if unknown:
            raise ActionIndexError(f"action domains name kinds the codec does not know: {', '.join(unknown)}")
        self._kinds: dict[type[Action], _FlatKind] = {}
        self._blocks: list[_FlatKind] = []
        start = 0
        for kind in sorted(codec.kinds):
            action_type = codec.action_type(kind)
            hints = typing.get_type_hints(action_type)
            given = declared.get(kind, {})
            names = [f.name for f in dataclasses.fields(action_type)]
            extra = sorted(set(given) - set(names))
            if extra:
                raise ActionIndexError(f"action domains of {kind!r} name fields it lacks: {', '.join(extra)}")
            domains = []
            for name in names:
                domain = tuple(given[name]) if name in given else _hint_domain(hints.get(name))
                if domain is None:
                    raise ActionIndexError(f"action domains: {kind!r} field {name!r} has no finite domain")
                if not domain or len(set(domain)) != len(domain):
                    raise ActionIndexError(
                        f"action domains: {kind!r} field {name!r} is empty or repeats a value"
                    )
                domains.append(domain)
            block = _FlatKind(action_type, start, domains)
            self._kinds[action_type] = block
            self._blocks.append(block)
            start += block.size
        self._starts = [block.start for block in self._blocks]
        self._size = start

    @classmethod
    def for_state(cls, state: GameState) -> FlatActionIndex | None:
        """The flat index of ``state``'s game and option set, or None when its plugin declares no
        action domains."""
        reference = game_plugin(state.spec.id).action_domains
        if reference is None:
            return None
        return cls(state.codec, resolve(reference)(state))

    @property
    def size(self) -> int:
        """How many actions the index numbers: every action's number is in ``range(size)``."""
        return self._size

    def blocks(self) -> list[tuple[str, int, int, tuple[tuple[str, int], ...]]]:
        """Each kind's block: its kind, first number, end (exclusive), and each field with its
        domain's size (the documented layout)."""
        return [
            (
                block.action_type.kind,
                block.start,
                block.start + block.size,
                tuple(zip(block.fields, block.radices, strict=True)),
            )
            for block in self._blocks
        ]

    def encode(self, action: Action) -> int:
        """The number of ``action`` (ActionIndexError when a field's value is outside its domain)."""
        block = self._kinds.get(type(action))
        if block is None:
            raise ActionIndexError(f"{action.notation()!r}: its type is not one of this game's actions")
        try:
            return block.number(action)
        except (KeyError, TypeError):  # a value outside its domain (or unhashable): say which
            for name, positions in zip(block.fields, block.positions, strict=True):
                value = getattr(action, name)
                try:
                    known = value in positions
                except TypeError:
                    known = False
                if not known:
                    raise ActionIndexError(
                        f"{action.notation()!r}: {action.kind} {name}={value!r} is outside "
                        "the game's declared action domains"
                    ) from None
            raise

    def decode(self, number: int) -> Action:
        """The action numbered ``number`` (ActionIndexError outside ``range(size)``). Every number
        decodes to a well-formed action; whether it is legal is for ``legal_actions()`` to say."""
        if not 0 <= number < self._size:
            raise ActionIndexError(f"action number {number} outside 0..{self._size - 1}")
        block = self._blocks[bisect.bisect_right(self._starts, number) - 1]
        rest = number - block.start
        values: list[Any] = []
        for domain, radix in zip(reversed(block.domains), reversed(block.radices), strict=True):
            rest, at = divmod(rest, radix)
            values.append(domain[at])
        values.reverse()
        return block.action_type(**dict(zip(block.fields, values, strict=True)))

    def describe(self, number: int) -> str:
        """The notation of the action numbered ``number``."""
        return self.decode(number).notation()


# compiled build: ``__new__`` without ``__init__`` (``copy``)
@mypyc_attr(allow_interpreted_subclasses=True)
class FlatChooser:
    """Choosing one legal action in one step: the mask over the flat index (same interface as
    :class:`TokenChooser`; :attr:`chosen` stays empty, :meth:`choose` always returns the action)."""

    def __init__(self, index: FlatActionIndex, legal: Sequence[Action]) -> None:
        if not legal:
            raise ActionIndexError("no legal action to choose from")
        self.index = index
        self.legal = legal
        encode = index.encode
        self.numbers = [encode(action) for action in legal]
        self._by_number = dict(zip(self.numbers, legal, strict=True))
        self.chosen: list[int] = []
        self._mask: npt.NDArray[np.int8] | None = None

    def copy(self) -> FlatChooser:
        """An independent chooser of the same decision (every attribute named, as
        :meth:`TokenChooser.copy`)."""
        twin = type(self).__new__(type(self))
        twin.index = self.index
        twin.legal = self.legal
        twin.numbers = list(self.numbers)
        twin._by_number = dict(self._by_number)
        twin.chosen = list(self.chosen)
        twin._mask = self._mask
        return twin

    @property
    def codes(self) -> dict[int, Action]:
        """Each legal action's number, and the action."""
        return dict(self._by_number)

    def next_tokens(self) -> set[int]:
        """The numbers of the legal actions (the mask's ones)."""
        return set(self.numbers)

    def mask(self) -> npt.NDArray[np.int8]:
        """1 for each legal action's number, else 0 (length ``index.size``; a new array at every call)."""
        if self._mask is None:
            out = np.zeros(self.index.size, dtype=np.int8)
            out[self.numbers] = 1
            self._mask = out
        return self._mask.copy()

    def allows(self, number: int) -> bool:
        """Whether ``number`` is a legal action's."""
        return number in self._by_number

    def choose(self, number: int) -> Action:
        """The legal action numbered ``number`` (ActionIndexError when none is)."""
        action = self._by_number.get(number)
        if action is None:
            raise ActionIndexError(f"action number {number} is not a legal action's")
        return action


#: How a session numbers actions: the flat index where the game declares one, else tokens (``auto``).
ACTION_INDEX_KINDS = ("auto", "flat", "tokens")

AnyActionIndex = ActionIndex | FlatActionIndex
AnyChooser = TokenChooser | FlatChooser


def action_index_for(first_state: GameState, kind: str = "auto") -> AnyActionIndex:
    """The action index of ``first_state``'s game and option set (seed 0's first state):
    ``auto`` the flat index where the game's plugin declares action domains, else tokens; ``flat``
    requires the flat one; ``tokens`` the token vocabulary."""
    if kind not in ACTION_INDEX_KINDS:
        raise ValueError(f"action_index: {kind!r} is not one of {', '.join(ACTION_INDEX_KINDS)}")
    if kind != "tokens":
        flat = FlatActionIndex.for_state(first_state)
        if flat is not None:
            return flat
        if kind == "flat":
            raise ValueError(
                f"action_index: {first_state.spec.id} declares no action domains (GamePlugin.action_domains);"
                " use 'tokens' or 'auto'"
            )
    return ActionIndex.for_state(first_state)


def chooser_for(index: AnyActionIndex, legal: Sequence[Action]) -> AnyChooser:
    """The chooser of a decision with ``legal`` actions over ``index``."""
    if isinstance(index, FlatActionIndex):
        return FlatChooser(index, legal)
    return TokenChooser(index, legal)
