"""The public face: ``local_runner`` declares what Python users call, and a result shows
itself in a notebook."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

import local_runner as kit
from local_runner.results.notebook import COLOURS

ROOT = Path(__file__).resolve().parents[1]


def test_every_public_name_resolves_and_nothing_else_is_offered() -> None:
    for name in kit.__all__:
        assert getattr(kit, name) is not None, name
    assert dir(kit) == sorted(kit.__all__)
    with pytest.raises(AttributeError, match="no attribute 'run_scrimmage'"):
        kit.run_scrimmage  # noqa: B018  (an internal name is not public)


def test_no_subpackage_shadows_a_public_name_once_its_modules_are_imported() -> None:
    # Importing a subpackage sets it as an attribute of its parent: a subpackage named like
    # a public function (`validate`, `play`) would replace that function in every process
    # that imported the subpackage first.  Import every subpackage, then read every name.
    code = (
        "import importlib, pkgutil, local_runner as kit\n"
        "for info in pkgutil.walk_packages(kit.__path__, 'local_runner.'):\n"
        "    if info.ispkg: importlib.import_module(info.name)\n"
        "import types\n"
        "bad = [n for n in kit.__all__ if isinstance(getattr(kit, n), types.ModuleType)]\n"
        "print(bad)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_every_kit_error_shares_the_one_root() -> None:
    from local_runner.tables.config import ConfigError
    from local_runner.tables.spec import UsageError
    from local_runner.validation.pipeline import ValidateUsageError
    from sdk.acpc import AcpcProtocolError
    from sdk.rules import RulesError

    for error in (ConfigError, UsageError, ValidateUsageError, AcpcProtocolError, RulesError):
        assert issubclass(error, kit.KitError), error


def test_importing_the_package_loads_none_of_its_parts() -> None:
    code = (
        "import sys, local_runner; "
        "print(sorted(m for m in sys.modules if m.startswith('local_runner.') or m == 'eval7'))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    # Only the list of compiled modules (the standard library alone), which the package reads
    # to choose its engine beside a bot project's vendored SDK.
    assert loaded.stdout.strip() == "['local_runner.compiled']"


def _config(rounds: int, seed: int = 3) -> kit.ScrimmageConfig:
    return kit.ScrimmageConfig(
        rules=kit.Rules.for_variant("nlhe").replace(num_rounds=rounds), seed=seed
    )


def test_a_single_match_shows_its_table_interval_verdict_and_chart(tmp_path: Path) -> None:
    bots = [kit.BotSpec.parse("builtin:raise"), kit.BotSpec.parse("builtin:checkcall")]
    result = kit.play_table(bots, _config(300), tmp_path)
    page = result._repr_html_()
    summaries = result.summaries()
    assert summaries is not None
    for bot, name in enumerate(result.names):
        mbb = summaries[bot].mbb_per_hand
        assert f"{mbb.low:+.1f} to {mbb.high:+.1f}" in page
        assert f"{result.bankrolls[bot]:+d}" in page
        # The legend names each bot in the colour of its line.
        colour = COLOURS[bot]
        assert f'stroke="{colour}" stroke-width="1.5"' in page
        assert f'fill="{colour}">{html.escape(name)}</text>' in page
    assert f"Verdict: {result.verdict()}." in html.unescape(page)
    assert page.count("<polyline") == 2 and "nlhe · match · 300 hands" in page


def test_a_duplicate_match_is_the_same_shape(tmp_path: Path) -> None:
    bots = [kit.BotSpec.parse("builtin:random"), kit.BotSpec.parse("builtin:checkcall")]
    result = kit.play_table(bots, _config(40), tmp_path, duplicate=True)
    assert result.duplicate and len(result.legs) == 2 and result.samples == 40
    page = result._repr_html_()
    assert "duplicate, 40 hand pairs" in page and page.count("<polyline") == 2
    # The chart runs over every hand played, both halves.
    assert re.search(r"hand 80<", page)


def test_the_harness_result_has_an_interval_and_renders() -> None:
    from local_runner.bots.builtin import make_builtin

    result = kit.play(make_builtin("raise", 1), "checkcall", rounds=200, seed=5)
    summaries = result.summaries()
    assert summaries is not None and summaries[0].hands == 200
    assert summaries[0].total_chips == result.players[0].bankroll == result.bankrolls[0]
    assert "<svg" in result._repr_html_()


def test_names_are_escaped_in_the_notebook_view(tmp_path: Path) -> None:
    from local_runner.results.notebook import bankroll_svg

    svg = bankroll_svg(["<b>x</b>", "y&z"], [[(0, 0), (1, 5)], [(0, 0), (1, -5)]])
    assert "<b>" not in svg and "&lt;b&gt;x&lt;/b&gt;" in svg and "y&amp;z" in svg
