"""The rooms of local_runner stand on floors: no loop, and no arrow back up the ones the
design names (``scripts/import_graph.py`` draws the whole graph)."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from import_graph import loops, room_graph  # noqa: E402

GRAPH = room_graph()


def test_no_two_rooms_import_each_other() -> None:
    assert loops(GRAPH) == []


def test_the_engine_imports_nothing_above_it() -> None:
    assert GRAPH["engine"] <= set()


def test_results_import_nothing_of_the_orchestration() -> None:
    assert not GRAPH["results"] & {"tables", "validation", "cli", "view", "submission"}


def test_programs_import_neither_bots_submission_nor_the_config() -> None:
    assert not GRAPH["programs"] & {"bots", "submission", "tables"}


def test_a_loop_is_found_when_there_is_one() -> None:
    assert loops({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
