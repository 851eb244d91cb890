"""The one random generator a game state carries.

It is SplitMix64 (Steele, Lea and Flood, 2014): the whole generator is one
64-bit integer, so copying a state copies its dice for free and a save holds
them as a number. Faces are drawn with a multiply-shift, whose bias (at most
sides / 2**64) is far below anything a game could notice.

Tests replace it with :class:`ScriptedRng` to decide every roll and shuffle.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from typing import TypeVar

import numpy as np

from warhorn.engine.errors import ScriptExhaustedError

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB
#: From this many items on, a shuffle draws its indices with numpy (the same numbers, faster).
_VECTOR_SHUFFLE_FROM = 32
#: The constants above and the shifts as numpy scalars, made once.
_NP_GOLDEN, _NP_MIX1, _NP_MIX2 = np.uint64(_GOLDEN), np.uint64(_MIX1), np.uint64(_MIX2)
_NP_27, _NP_30, _NP_31, _NP_32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
_NP_LOW = np.uint64(0xFFFFFFFF)

T = TypeVar("T")


class Rng:
    """A seeded SplitMix64 generator. ``state`` is an int and is all there is to save."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK

    def copy(self) -> Rng:
        return Rng(self.state)

    def next_u64(self) -> int:
        self.state = s = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        # next_u64, written out: this is the hottest call of random play.
        self.state = s = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return ((z ^ (z >> 31)) * n) >> 64

    def roll(self, sides: int) -> int:
        """One die with ``sides`` faces: 1..sides."""
        return self.below(sides) + 1

    def rolls(self, sides: int, count: int) -> tuple[int, ...]:
        return tuple(self.roll(sides) for _ in range(count))

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        if type(self) is not Rng:  # a subclass may decide below() itself
            for i in range(len(items) - 1, 0, -1):
                j = self.below(i + 1)
                items[i], items[j] = items[j], items[i]
            return
        n = len(items)
        if _VECTOR_SHUFFLE_FROM <= n < 1 << 32:
            for i, j in zip(range(n - 1, 0, -1), self._swap_indices([n]), strict=True):
                items[i], items[j] = items[j], items[i]
            return
        s = self.state  # below(i + 1) for each i, written out
        for i in range(n - 1, 0, -1):
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = s

    def shuffle_each(self, lists: Sequence[MutableSequence[T]]) -> None:
        """Shuffle each list in place, in order: the same as :meth:`shuffle` on one after the
        other (the same orders, the generator left in the same state), with the swap indices of
        all of them drawn at once when there are many (a determinization shuffles half a dozen
        short decks; one batch costs less than a loop per deck)."""
        sizes = [len(items) for items in lists]
        draws = sum(n - 1 for n in sizes if n > 1)
        if type(self) is not Rng or draws < _VECTOR_SHUFFLE_FROM or max(sizes, default=0) >= 1 << 32:
            for items in lists:
                self.shuffle(items)
            return
        swaps = iter(self._swap_indices(sizes))
        for items, n in zip(lists, sizes, strict=True):
            for i in range(n - 1, 0, -1):
                j = next(swaps)
                items[i], items[j] = items[j], items[i]

    def _swap_indices(self, sizes: Sequence[int]) -> list[int]:
        """``below(i + 1)`` for i = n-1 .. 1 of each size n in turn, all at once: the generator's
        states form an arithmetic sequence, so numpy mixes them together (uint64 arithmetic wraps
        like the masks above) and takes the high word of ``z * (i + 1)`` in 32-bit halves.
        Advances the generator exactly as the calls would. Every size is below 2**32."""
        if len(sizes) == 1:  # i + 1 for each draw
            bound = np.arange(sizes[0], 1, -1, dtype=np.uint64)
        else:
            bound = np.array([i for n in sizes for i in range(n, 1, -1)], dtype=np.uint64)
        count = len(bound)
        if not count:
            return []
        # in place where it can be: each numpy operation on a short array costs about as much as a
        # whole array's worth of arithmetic
        states = np.arange(1, count + 1, dtype=np.uint64)
        states *= _NP_GOLDEN
        states += np.uint64(self.state)
        z = states >> _NP_30
        z ^= states
        z *= _NP_MIX1
        z ^= z >> _NP_27
        z *= _NP_MIX2
        z ^= z >> _NP_31
        high = z >> _NP_32  # bound <= 2**32: the two halves' products do not overflow
        z &= _NP_LOW
        z *= bound
        z >>= _NP_32
        high *= bound
        high += z
        high >>= _NP_32
        swaps: list[int] = high.tolist()
        self.state = (self.state + count * _GOLDEN) & _MASK
        return swaps

    def shuffled(self, items: Iterable[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    @property
    def scripted(self) -> bool:
        return False


class ScriptedRng(Rng):
    """A generator whose die faces (and optionally shuffles) a test decides.

    ``rolls`` are returned in order by :meth:`roll`; asking for more raises
    :class:`ScriptExhaustedError` unless ``fallback_seed`` is given, in which
    case further rolls are random. Shuffles keep the given order unless
    ``shuffle_randomly`` is set, so a test that builds a deck decides its
    order. ``below`` (used for random choices other than dice) returns 0 unless
    ``choices`` are scripted.
    """

    __slots__ = ("_choices", "_fallback", "_rolls", "_shuffle_randomly")

    def __init__(
        self,
        rolls: Iterable[int] = (),
        *,
        choices: Iterable[int] = (),
        fallback_seed: int | None = None,
        shuffle_randomly: bool = False,
    ) -> None:
        super().__init__(fallback_seed or 0)
        self._rolls = list(rolls)
        self._choices = list(choices)
        self._fallback = fallback_seed is not None
        self._shuffle_randomly = shuffle_randomly

    def copy(self) -> ScriptedRng:
        twin = ScriptedRng(
            self._rolls,
            choices=self._choices,
            shuffle_randomly=self._shuffle_randomly,
        )
        twin._fallback = self._fallback
        twin.state = self.state
        return twin

    def push(self, *rolls: int) -> None:
        """Script more die faces."""
        self._rolls.extend(rolls)

    @property
    def remaining(self) -> tuple[int, ...]:
        return tuple(self._rolls)

    def roll(self, sides: int) -> int:
        if self._rolls:
            face = self._rolls.pop(0)
            if not 1 <= face <= sides:
                raise ScriptExhaustedError(f"scripted face {face} does not fit a d{sides}")
            return face
        if self._fallback:
            return super().roll(sides)
        raise ScriptExhaustedError(f"a d{sides} was rolled but no scripted face is left")

    def below(self, n: int) -> int:
        if self._choices:
            return self._choices.pop(0) % n
        if self._fallback:
            return super().below(n)
        return 0

    def shuffle(self, items: MutableSequence[T]) -> None:
        if self._shuffle_randomly:
            super().shuffle(items)

    @property
    def scripted(self) -> bool:
        return True
