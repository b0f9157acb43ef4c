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
* **Nothing is cut.**  A table's numbers and names are printed whole at any width: its
  columns never wrap or shorten their cells, except a column declared as prose
  (``overflow="fold"``), which wraps between words.  A table that does not fit the width
  that way is printed as a list instead, one row after the other and one cell a line
  (:func:`fit_table`); every console made here does so for every table it prints.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

__all__ = [
    "KitConsole",
    "fit_table",
    "make_console",
    "print_error",
    "print_warning",
    "styled",
    "table_width",
]

#: The overflow that marks a column as prose: its cells may wrap between words.
PROSE = "fold"


def table_width(console: Console, table: Table) -> int:
    """The narrowest width at which ``table`` shows every cell whole: each column as wide as
    its widest cell, a prose column as its longest word, with the padding, the borders and
    the title's longest word."""
    options = console.options
    widths = []
    for index, column in enumerate(table.columns):
        prose = column.overflow == PROSE
        widest = 0
        for cell in (column.header, *column.cells):
            measured = Measurement.get(console, options, cell)
            widest = max(widest, measured.minimum if prose else measured.maximum)
        widths.append(widest + table._get_padding_width(index))
    needed = sum(widths) + table._extra_width
    if table.title is not None:
        needed = max(needed, Measurement.get(console, options, table.title).minimum)
    return needed


def _plain(cell: RenderableType) -> str:
    """A cell's text (a table made by the kit holds strings and Text only)."""
    return cell.plain if isinstance(cell, Text) else str(cell)


def fit_table(console: Console, table: Table) -> RenderableType:
    """``table`` laid out so that no number or name is cut at ``console``'s width.

    When it fits (:func:`table_width`), it is the table itself, its columns kept from
    wrapping or shortening (prose columns wrap between words).  When it does not, it is a
    list: the title, then each row as its first cell (``bot: name``) and its other cells
    one a line, indented.

    >>> import io
    >>> table = Table(title="nlhe · 1000 hands")
    >>> table.add_column("bot")
    >>> table.add_column("bankroll", justify="right")
    >>> table.add_row("a-bot-with-a-rather-long-name", "-1234567")
    >>> console = make_console()
    >>> console.file, console.width = io.StringIO(), 30
    >>> console.print(table)
    >>> print(console.file.getvalue(), end="")
    nlhe · 1000 hands
    bot: a-bot-with-a-rather-long-name
      bankroll: -1234567
    """
    if table_width(console, table) <= console.width:
        for column in table.columns:
            if column.overflow != PROSE:
                column.no_wrap = True
        return table
    headers = [_plain(column.header) for column in table.columns]
    cells = [list(column.cells) for column in table.columns]
    lines = [] if table.title is None else [styled((_plain(table.title), "bold"))]
    for row in range(table.row_count):
        for index, header in enumerate(headers):
            text = _plain(cells[index][row]) if row < len(cells[index]) else ""
            if not text:  # a group's later rows leave its number out, as the table does
                continue
            label = (f"{header}: ", "dim") if header else ""
            indent = "" if index == 0 else "  "
            # A cell of several lines (a message and its hint) keeps them under its label.
            text = text.replace("\n", "\n" + indent + "  ")
            lines.append(styled(indent, label, text))
    return Group(*lines)


class KitConsole(Console):
    """A console that prints every table with :func:`fit_table`: no number or name cut."""

    def print(self, *objects: Any, **options: Any) -> None:
        """Print as :meth:`rich.console.Console.print` does, tables fitted to the width."""
        fitted = [fit_table(self, item) if isinstance(item, Table) else item for item in objects]
        super().print(*fitted, **options)


def make_console(*, stderr: bool = False) -> KitConsole:
    """A console for the kit: no markup, no highlighting, no wrapping of printed text, no
    table cut.

    >>> import io
    >>> out = io.StringIO()
    >>> console = make_console()
    >>> console.file = out
    >>> console.print("a bot replied [/] and [bold]x[/bold]; path " + "/deep" * 30)
    >>> out.getvalue() == "a bot replied [/] and [bold]x[/bold]; path " + "/deep" * 30 + "\\n"
    True
    """
    return KitConsole(stderr=stderr, markup=False, highlight=False, emoji=False, soft_wrap=True)


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
