"""The progress bar drawn on a terminal: rich's, laid out so that its counts, times and names
are never cut, however narrow the terminal.

A module of its own: off a terminal (a pipe, a CI log, a benchmark) a command draws no bar and
so never imports rich's progress module (:mod:`.progress` has what it prints instead).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import RenderableType
from rich.progress import BarColumn, Progress, ProgressColumn, Task
from rich.table import Column, Table

from .console import table_width

__all__ = ["MIN_BAR", "FittingProgress"]

#: The narrowest bar worth drawing, in cells; below it the bar is left out.
MIN_BAR = 10


def _grid(columns: Sequence[ProgressColumn], task: Task, expand: bool = False) -> Table:
    """One task's cells in a row, as rich's own progress lays them out."""
    grid = Table.grid(
        *(column.get_table_column().copy() for column in columns), padding=(0, 1), expand=expand
    )
    grid.add_row(*(column(task) for column in columns))
    return grid


class FittingProgress(Progress):
    """A rich progress display that never cuts a number or a name.

    Each task is one line (its first column, the description, then the others) when that
    fits the console's width, the bar narrowed if need be; else the description on a line
    of its own (wrapped between words) and the counts and times on the next, with a bar
    if there is room; at the narrowest, one cell a line.  Columns are rich's; every one
    but the first must keep to one line (counts, times, units).
    """

    def make_tasks_table(self, tasks: Iterable[Task]) -> Table:
        """The tasks' rows at the console's current width (read at every refresh)."""
        layout = Table.grid(Column(overflow="fold"))
        for task in tasks:
            if task.visible:
                for row in self._task_rows(task):
                    layout.add_row(row)
        return layout

    def _task_rows(self, task: Task) -> list[RenderableType]:
        columns = [column for column in self.columns if isinstance(column, ProgressColumn)]
        if not columns:
            return []
        bars = [column for column in columns if isinstance(column, BarColumn)]
        widest_bar = max((bar.bar_width or self.console.width for bar in bars), default=0)
        counts = [column for column in columns if not isinstance(column, BarColumn)]
        width = self.console.width
        one_line = table_width(self.console, _grid(counts, task))
        if one_line <= width and (not bars or one_line + 1 + MIN_BAR <= width):
            bar = [BarColumn(bar_width=min(widest_bar, width - one_line - 1))] if bars else []
            return [_grid(counts[:1] + bar + counts[1:], task)]
        description, rest = columns[0](task), counts[1:]
        if not rest:
            return [description]
        numbers = table_width(self.console, _grid(rest, task))
        if numbers + 1 + MIN_BAR <= width and bars:
            bar = [BarColumn(bar_width=min(widest_bar, width - numbers - 1))]
            return [description, _grid(bar + rest, task)]
        if numbers <= width:
            return [description, _grid(rest, task)]
        return [description, *(column(task) for column in rest)]
