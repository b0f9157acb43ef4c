"""The one root of every error the kit raises on purpose.

Each error the SDK or the runner raises for bad input (a rules file, a wire line, a config,
a bot folder, a run folder, an archive) derives from :class:`KitError`, so a program that
drives the kit catches one class, and the ``pokerbots`` command turns one class into a
sentence and an exit status.  The subclasses keep their older bases too (``ValueError``,
``RuntimeError``), so code that caught those still works.

>>> from sdk.rules import RulesError
>>> issubclass(RulesError, KitError) and issubclass(RulesError, ValueError)
True
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["KitError"]


class KitError(Exception):
    """An error the kit raised on purpose; its message says what is wrong and how to fix it.

    ``exit_status`` is what the ``pokerbots`` command exits with when this error ends a
    command: 2 (a usage error) unless a subclass says otherwise.
    """

    exit_status: ClassVar[int] = 2
