"""The examples in the docstrings of ``sdk`` and ``local_runner`` run, and say what they show.

The equivalent of ``pytest --doctest-modules sdk local_runner``, kept as a test so the
README's one test command runs them too (``--doctest-modules`` over the whole tree would
also import the hostile bots under ``tests/``, which run when imported).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import local_runner
import sdk

#: Modules that do their work when imported (``python -m local_runner.cli``).
NOT_IMPORTABLE = {"local_runner.cli.__main__"}


def module_names() -> list[str]:
    """Every module of the two packages, by dotted name."""
    names = []
    for package in (sdk, local_runner):
        names.append(package.__name__)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
            if info.name not in NOT_IMPORTABLE:
                names.append(info.name)
    return sorted(names)


def examples_in(name: str) -> list[doctest.DocTest]:
    """The docstring examples of the module ``name``."""
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [test for test in finder.find(module) if test.examples]


MODULES = module_names()
WITH_EXAMPLES = [name for name in MODULES if examples_in(name)]


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_docstring_examples_pass(name: str) -> None:
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in examples_in(name):
        runner.run(test, out=report.append)
    results = runner.summarize(verbose=False)
    assert results.failed == 0, "".join(report)


def test_every_module_is_searched() -> None:
    assert "sdk.states" in MODULES and "local_runner.cli.tournament" in MODULES
    assert "local_runner.results.stats" in WITH_EXAMPLES
    assert "local_runner.cli.console" in WITH_EXAMPLES
    examples = sum(len(test.examples) for name in WITH_EXAMPLES for test in examples_in(name))
    assert examples >= 30, examples
