from __future__ import annotations

import pytest

from warhorn.engine import Rng, ScriptedRng, ScriptExhaustedError


def test_splitmix64_reference_vectors() -> None:
    # Published SplitMix64 outputs (seed 0, and seed 1234567 from the reference implementation).
    rng = Rng(0)
    assert [rng.next_u64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]
    rng = Rng(1234567)
    assert [rng.next_u64() for _ in range(2)] == [6457827717110365317, 3203168211198807973]


def test_rolls_are_uniform_enough_and_in_range() -> None:
    rng = Rng(7)
    counts = [0] * 6
    for _ in range(60_000):
        face = rng.roll(6)
        assert 1 <= face <= 6
        counts[face - 1] += 1
    assert all(9_500 < c < 10_500 for c in counts)


def test_copy_continues_identically() -> None:
    rng = Rng(99)
    rng.roll(20)
    twin = rng.copy()
    assert [rng.roll(20) for _ in range(10)] == [twin.roll(20) for _ in range(10)]


def test_shuffle_is_a_permutation_and_seeded() -> None:
    a = Rng(3).shuffled(range(50))
    b = Rng(3).shuffled(range(50))
    assert a == b and sorted(a) == list(range(50)) and a != list(range(50))


def test_scripted_rng_gives_scripted_faces_then_refuses() -> None:
    rng = ScriptedRng([6, 1, 20])
    assert rng.roll(6) == 6
    assert rng.roll(8) == 1
    assert rng.roll(20) == 20
    with pytest.raises(ScriptExhaustedError):
        rng.roll(6)
    with pytest.raises(ScriptExhaustedError, match="does not fit"):
        ScriptedRng([9]).roll(6)


def test_scripted_rng_keeps_deck_order_and_can_fall_back() -> None:
    rng = ScriptedRng([2], fallback_seed=5)
    cards = ["a", "b", "c"]
    rng.shuffle(cards)
    assert cards == ["a", "b", "c"]
    assert rng.roll(6) == 2
    assert 1 <= rng.roll(6) <= 6


def test_long_shuffles_match_the_one_at_a_time_fisher_yates() -> None:
    # Long lists draw their swap indices with numpy: the same numbers as below(i + 1) one by one.
    for n in (0, 1, 2, 31, 32, 33, 97, 400):
        for seed in (0, 1, 99, (1 << 64) - 1, 0x9E3779B97F4A7C15):
            fast, slow = Rng(seed), Rng(seed)
            items, expected = list(range(n)), list(range(n))
            fast.shuffle(items)
            for i in range(n - 1, 0, -1):
                j = slow.below(i + 1)
                expected[i], expected[j] = expected[j], expected[i]
            assert items == expected and fast.state == slow.state


def test_shuffling_several_lists_at_once_matches_shuffling_them_one_by_one() -> None:
    # shuffle_each draws every list's swap indices in one batch once there are enough of them.
    for sizes in ([], [0, 1], [3, 2, 2], [17, 18, 18, 18, 30, 20], [5] * 7, [40, 0, 1, 33], [31], [2] * 40):
        for seed in (0, 7, (1 << 64) - 1):
            batched, one_by_one = Rng(seed), Rng(seed)
            lists = [list(range(n)) for n in sizes]
            expected = [list(range(n)) for n in sizes]
            batched.shuffle_each(lists)
            for items in expected:
                one_by_one.shuffle(items)
            assert lists == expected and batched.state == one_by_one.state


def test_a_scripted_generator_shuffles_each_list_its_own_way() -> None:
    lists = [["a", "b", "c"], list(range(40))]
    ScriptedRng().shuffle_each(lists)
    assert lists == [["a", "b", "c"], list(range(40))]  # scripted: decks keep their order
