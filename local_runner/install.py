"""How to install the kit or one of its extras: the command every hint quotes.

The kit is not published on a package index; it is installed from its checkout.  When
this module runs from a checkout (an editable install, or ``python -m`` in the
checkout) the hint names that folder; otherwise it names the folder to fill in.  The
command uses the Python that is running, so the extra lands where the kit is.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

__all__ = ["PLACEHOLDER", "install_command", "kit_checkout"]

#: Stands for the kit's checkout when it cannot be found from here.
PLACEHOLDER = "PATH/TO/pokerbots-kit"


def kit_checkout() -> Path | None:
    """The kit's checkout this code runs from (the folder with pyproject.toml), or None."""
    root = Path(__file__).resolve().parents[1]
    return root if (root / "pyproject.toml").is_file() and (root / "sdk").is_dir() else None


def install_command(extra: str | None = None) -> str:
    """The shell command that installs the kit, with ``extra`` (``plot``, ``cluster``).

    >>> command = install_command("plot")
    >>> command.split()[1:4]
    ['-m', 'pip', 'install']
    >>> command.endswith("[plot]'")
    True
    """
    checkout = kit_checkout()
    folder = str(checkout) if checkout is not None else PLACEHOLDER
    target = f"{folder}[{extra}]" if extra else folder
    return f"{shlex.quote(sys.executable)} -m pip install -e {shlex.quote(target)}"
