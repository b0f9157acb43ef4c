"""The kit's consoles: the one place that decides how the command line prints.

Two rules hold for everything the ``pokerbots`` command prints:

* **Nothing is read as markup.**  Bots control some of the text we show (their
  replies, their names, their log lines) and so do users (paths, TOML section names
  such as ``[match]``).  The consoles are made with ``markup=False``: every string is
  printed exactly as it is, and the kit styles its own words with :class:`rich.text.Text`
  parts (:func:`styled`, :func:`print_error`) instead of inline markup.
* **Nothing is wrapped that the console did not lay out.**  A sentence or a path is
  printed on one line (``soft_wrap``), on a terminal as well as in a CI log; the
  terminal folds long lines for display, and a copied path stays whole.  Tables still
  fit their columns to the width, because laying them out is their job.
"""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

__all__ = ["make_console", "print_error", "print_warning", "styled"]


def make_console(*, stderr: bool = False) -> Console:
    """A console for the kit: no markup, no highlighting, no wrapping of printed text.

    >>> import io
    >>> out = io.StringIO()
    >>> console = make_console()
    >>> console.file = out
    >>> console.print("a bot replied [/] and [bold]x[/bold]; path " + "/deep" * 30)
    >>> out.getvalue() == "a bot replied [/] and [bold]x[/bold]; path " + "/deep" * 30 + "\\n"
    True
    """
    return Console(stderr=stderr, markup=False, highlight=False, emoji=False, soft_wrap=True)


def styled(*parts: str | tuple[str, str]) -> Text:
    """A line of text from literal parts, each a string or a ``(string, style)`` pair.

    The strings are never read as markup, so untrusted values can be passed as parts.

    >>> styled(("error:", "bold red"), " unknown section [matchh]").plain
    'error: unknown section [matchh]'
    """
    return Text.assemble(*parts)


def print_error(console: Console, message: str) -> None:
    """Print ``error: message`` with the label in bold red and the message as it is."""
    console.print(styled(("error:", "bold red"), " ", message))


def print_warning(console: Console, message: str) -> None:
    """Print ``warning: message`` with the label in bold yellow and the message as it is."""
    console.print(styled(("warning:", "bold yellow"), " ", message))
