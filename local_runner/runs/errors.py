"""The error of a run that cannot be read."""

from __future__ import annotations

from sdk.errors import KitError

__all__ = ["RERUN", "RunError"]

#: What to do about a file written by another version of the kit.
RERUN = "re-run the match with this version of the kit to get files it can read"


class RunError(KitError, ValueError):
    """A run that cannot be read; the message says which file, where, and what to do."""
