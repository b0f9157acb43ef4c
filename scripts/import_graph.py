"""The import graph of ``local_runner`` between its rooms: floors, arrows back up, loops.

Usage::

    python scripts/import_graph.py            # print the rooms by floor, and any loop
    python scripts/import_graph.py --check    # exit 1 if two rooms import each other

A *room* is a subpackage of ``local_runner`` (``engine``, ``tables``, ...) or a module at
its top (``harness``).  Room A *imports* room B when a module of A imports a module of B
(at any depth, also inside functions: a deferred import is still a dependency).  A room's
*floor* is one more than the highest floor it imports (rooms importing nothing of
``local_runner`` are floor 1); a loop between rooms has no floors and is listed instead.
``local_runner/__init__.py`` (the public face, whose imports are all deferred) is left out.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "local_runner"


def room_of(module: str) -> str | None:
    """The room of a dotted module name inside local_runner (None outside it)."""
    parts = module.split(".")
    if parts[0] != "local_runner" or len(parts) < 2:
        return None
    return parts[1]


def _module_name(path: Path) -> str:
    relative = path.relative_to(ROOT).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> Iterator[str]:
    """Every module name ``path`` imports, absolute."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            yield target
            yield from (f"{target}.{alias.name}" for alias in node.names)


def room_graph() -> dict[str, set[str]]:
    """Room -> the other rooms it imports."""
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "__init__.py":
            continue
        room = room_of(_module_name(path)) or ""
        graph.setdefault(room, set())
        for target in _imports(path):
            other = room_of(target)
            if (
                other is not None
                and other != room
                and (PACKAGE / other).exists() | (PACKAGE / f"{other}.py").exists()
            ):
                graph[room].add(other)
    return graph


def loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one room (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def floors(graph: dict[str, set[str]]) -> dict[str, int]:
    """Each room's floor; rooms in a loop are left out."""
    looped = {room for group in loops(graph) for room in group}
    result: dict[str, int] = {}

    def floor(room: str) -> int:
        if room not in result:
            below = [floor(other) for other in graph.get(room, ()) if other not in looped]
            result[room] = 1 + max(below, default=0)
        return result[room]

    for room in graph:
        if room not in looped:
            floor(room)
    return result


def main(argv: list[str] | None = None) -> int:
    """Print the rooms by floor and the loops; with --check, exit 1 when there is a loop."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if there is a loop")
    args = parser.parse_args(argv)
    graph = room_graph()
    levels = floors(graph)
    for level in sorted(set(levels.values()), reverse=True):
        rooms = sorted(room for room, at in levels.items() if at == level)
        print(f"floor {level}: {', '.join(rooms)}")
    arrows = sum(len(targets) for targets in graph.values())
    found = loops(graph)
    print(f"{len(graph)} rooms, {arrows} arrows, {len(found)} loop(s)")
    for group in found:
        print(f"loop: {' <-> '.join(group)}")
    return 1 if args.check and found else 0


if __name__ == "__main__":
    sys.exit(main())
