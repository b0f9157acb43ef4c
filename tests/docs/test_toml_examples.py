"""Every TOML example the docs show is a whole configuration the kit loads as it is.

Each ```toml block of ``docs/`` (its pages and the variants' pages) is written to a file
and read by the kit's own loader, :func:`local_runner.tables.config.load_config`; and the
configuration page's example names every setting the loader knows.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

from local_runner.tables.config import Limits, RunnerSettings, load_config
from tests.conftest import ROOT

DOCS = ROOT / "docs"
_BLOCK = re.compile(r"^```toml\n(.*?)^```", re.MULTILINE | re.DOTALL)


def toml_examples() -> list[tuple[str, str]]:
    """Each TOML block of the docs: where it is (page and number) and its text."""
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        for number, block in enumerate(_BLOCK.findall(text), start=1):
            found.append((f"{page.relative_to(ROOT)}#{number}", block))
    return found


EXAMPLES = toml_examples()


def test_the_docs_show_toml_examples() -> None:
    assert any(where.startswith("docs/configuration.md") for where, _ in EXAMPLES)


@pytest.mark.parametrize(("where", "block"), EXAMPLES, ids=[where for where, _ in EXAMPLES])
def test_each_toml_example_loads_through_the_kits_config_loader(
    where: str, block: str, tmp_path: Path
) -> None:
    path = tmp_path / "example.toml"
    path.write_text(block, encoding="utf-8")
    config = load_config(path)  # raises ConfigError, with its sentence, if the example is wrong
    written = tomllib.loads(block)
    match = written.get("match", {})
    if "variant" in match:
        assert config.rules.variant == match["variant"], where
    if "rounds" in match:
        assert config.rules.num_rounds == match["rounds"], where
    if "seed" in match:
        assert config.seed == match["seed"], where


def test_the_configuration_example_names_every_runner_and_limits_setting() -> None:
    """The configuration page's example is complete: each [runner] and [limits] key the
    loader reads appears in it (deprecated keys left out)."""
    ((_, block),) = [item for item in EXAMPLES if item[0].startswith("docs/configuration.md")]
    written = tomllib.loads(block)
    deprecated = {"spin_wait"}
    for section, settings in (("runner", RunnerSettings), ("limits", Limits)):
        keys = {field.name for field in dataclasses.fields(settings)} - deprecated
        assert keys <= set(written.get(section, {})), (section, keys - set(written[section]))
