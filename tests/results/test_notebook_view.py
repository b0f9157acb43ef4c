"""A table's result as a notebook renders it, looked at in a real browser."""

from __future__ import annotations

from pathlib import Path

import pytest

import local_runner as kit
from local_runner.results.notebook import COLOURS
from tests.view.test_view_report_play import chromium, needs_chromium

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _distance(pixel: tuple[int, ...], colour: tuple[int, int, int]) -> int:
    return sum(abs(a - b) for a, b in zip(pixel, colour, strict=True))


@needs_chromium
def test_the_notebook_view_draws_each_bot_in_its_own_colour(tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image", reason="Pillow comes with the plot extra")
    rules = kit.Rules.for_variant("nlhe").replace(num_rounds=200)
    bots = [kit.BotSpec.parse("builtin:raise"), kit.BotSpec.parse("builtin:checkcall")]
    result = kit.play_table(bots, kit.ScrimmageConfig(rules, 2), tmp_path / "run")
    page = tmp_path / "cell.html"
    page.write_text(f"<html><body>{result._repr_html_()}</body></html>", encoding="utf-8")
    shot = tmp_path / "cell.png"
    chromium(tmp_path, page.as_uri(), "--window-size=700,420", f"--screenshot={shot}")
    data = image_module.open(shot).convert("RGB").tobytes()
    pixels = [tuple(data[i : i + 3]) for i in range(0, len(data), 3)]
    for bot, colour in enumerate(COLOURS[:2]):
        wanted = _rgb(colour)
        near = sum(
            1 for p in pixels if sum(abs(a - b) for a, b in zip(p, wanted, strict=True)) < 40
        )
        # The line, the legend's swatch and the name in the table: hundreds of pixels each.
        assert near > 300, f"bot {bot}'s colour {colour} covers only {near} pixels"
    dom = chromium(tmp_path, page.as_uri(), "--dump-dom")
    assert dom.count("<polyline") == 2 and "Verdict:" in dom
