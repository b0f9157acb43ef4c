"""The shared argument types: each wrong number gets a sentence saying what is wrong."""

from __future__ import annotations

import argparse

import pytest

from local_runner.cli.arguments import non_negative_int, positive_int


@pytest.mark.parametrize("text", ["-5", "0", "-1", "-1000000"])
def test_a_count_below_one_is_too_small_not_malformed(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as caught:
        positive_int(text)
    assert str(caught.value) == f"{text!r} is too small: it must be at least 1"


def test_a_negative_seed_must_be_at_least_zero() -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="must be at least 0"):
        non_negative_int("-3")


@pytest.mark.parametrize("text", ["zero", "2.5", "1e3", "", "-", "\u0661"])
def test_what_is_not_written_in_digits_is_not_a_whole_number(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="is not a whole number"):
        positive_int(text)


def test_whole_numbers_are_read() -> None:
    assert (positive_int("1"), positive_int("+7"), non_negative_int("0")) == (1, 7, 0)
