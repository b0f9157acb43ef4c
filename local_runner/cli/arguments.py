"""Argument types shared by the subcommands: whole numbers and seconds, with plain errors."""

from __future__ import annotations

import argparse
import math

from sdk.games import SEASONS, find_game
from sdk.rules import RulesError

__all__ = [
    "VARIANT_HELP",
    "non_negative_int",
    "positive_int",
    "seconds",
    "variant_name",
    "whole_number",
]

#: How ``--variant``'s help names the seasons' aliases.
VARIANT_HELP = "a season's name also works: " + ", ".join(
    f"{alias} ({name})" for alias, name in SEASONS.items()
)


def whole_number(text: str, least: int) -> int:
    """``text`` as a whole number of at least ``least``; a sentence saying which is wrong.

    >>> whole_number("-5", 1)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '-5' is too small: it must be at least 1
    >>> whole_number("2.5", 0)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: '2.5' is not a whole number (write it with digits only, like 1000)
    """
    digits = text.removeprefix("-").removeprefix("+")
    if not (digits.isascii() and digits.isdigit()):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a whole number (write it with digits only, like 1000)"
        )
    value = int(text)
    if value < least:
        raise argparse.ArgumentTypeError(f"{text!r} is too small: it must be at least {least}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number >= 0, for ``--seed`` and the like."""
    return whole_number(text, 0)


def positive_int(text: str) -> int:
    """A whole number >= 1, for ``--rounds``, ``--hands`` and the like."""
    return whole_number(text, 1)


def seconds(text: str) -> float:
    """A positive number of seconds, for the timeouts."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def variant_name(text: str) -> str:
    """A game's name for ``--variant``: its own, or its season's alias (``mit-2026``)."""
    try:
        return find_game(text).name
    except RulesError as error:
        raise argparse.ArgumentTypeError(str(error).removesuffix(".")) from None
