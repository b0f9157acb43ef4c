"""Argument types shared by the subcommands: whole numbers and seconds, with plain errors."""

from __future__ import annotations

import argparse

__all__ = ["non_negative_int", "positive_int", "seconds"]


def non_negative_int(text: str) -> int:
    """A whole number >= 0, for ``--seed`` and the like."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    return int(text)


def positive_int(text: str) -> int:
    """A whole number >= 1, for ``--rounds``, ``--hands`` and the like."""
    value = non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return value


def seconds(text: str) -> float:
    """A positive number of seconds, for the timeouts."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value
