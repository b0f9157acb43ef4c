"""``pokerbots new --strategy``: start a bot from a rung of the reference ladder.

``starter`` is the template's own ``player.py`` (the default).  ``equity`` and
``range`` replace it with the code of the reference bot of that name
(``local_runner/bots/equity.py`` or ``range_bot.py``) as the bot's own, editable
``player.py``; the modules it builds on (cards, preflop tables, ranges,
likelihoods, variant adjustments, clock budget) are copied next to it as the
package ``refbots/``, with the preflop tables in ``refbots/data/``, and
``tests/test_player.py`` is replaced by tests of that strategy.  The copies import
nothing from the kit: only the vendored ``sdk/`` and eval7 (or pkrbot, where eval7
has no wheel: see ``refbots/evaluator.py``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from .. import bots

__all__ = ["STRATEGIES", "install_strategy", "strategy_problem"]

#: The strategies a new bot can start from.
STRATEGIES = ("starter", "equity", "range")

#: Each reference strategy's module in ``local_runner/bots`` and its bot class.
_MODULES = {"equity": ("equity.py", "EquityBot"), "range": ("range_bot.py", "RangeBot")}

#: The shared modules a strategy's ``player.py`` imports (as ``refbots.NAME``).
_SUPPORT = (
    "__init__.py",
    "betting.py",
    "budget.py",
    "cards.py",
    "evaluator.py",
    "field.py",
    "likelihood.py",
    "preflop.py",
    "ranges.py",
    "strength.py",
    "toss.py",
    "variants.py",
)

_PLAYER_FOOTER = '''

#: The game this bot is written for; the runner's rules, when handed over, take precedence.
VARIANT = "{variant}"


class Player({cls}):
    """The bot the engine starts: the ``{strategy}`` reference strategy above, yours to change."""


if __name__ == "__main__":
    from sdk.runner import parse_args, run_bot

    run_bot(Player(), parse_args(), variant=VARIANT)
'''

_REQUIREMENTS = """\
# What the bot needs beyond the standard library (the SDK is vendored in sdk/): a hand
# evaluator.  eval7 has no wheel for Python 3.13, where pkrbot (same API) stands in;
# refbots/evaluator.py takes whichever is installed.
eval7>=0.1.10; python_version < "3.13"
pkrbot>=1.1; python_version >= "3.13"
"""

_TESTS = '''"""Tests for the bot: run ``python -m pytest`` in the bot's folder.

The bot started as the kit's ``{strategy}`` reference strategy; keep these passing as
you change it, and add a test for every spot your strategy must get right.
"""

from __future__ import annotations

import pytest

pytest.importorskip(
    "local_runner",
    reason="the pokerbots kit is not installed: `pip install pokerbots-kit` to run these tests",
)

from player import VARIANT, Player

from local_runner.harness import decide, play, spot
from sdk.actions import FoldAction
from sdk.games import VARIANTS


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("opponent", ["random", "raise"])
def test_never_faults(variant: str, opponent: str) -> None:
    result = play(Player(1), opponent=opponent, rounds=150, seed=1, variant=variant)
    assert result.hands_played == 150
    assert result.players[0].fault_counts == {{}}, result.players[0].first_faults


def test_does_not_fold_aces_before_the_flop() -> None:
    state = spot(hand=("Ah", "As"), seat=1, pips=(6, 2), variant=VARIANT)
    action = decide(Player(1), state)
    assert state.is_legal(action) and not isinstance(action, FoldAction)


def test_folds_nothing_to_a_big_river_bet() -> None:
    board = ("Ah", "Kh", "Qs", "9c", "8d")
    state = spot(hand=("2c", "3d"), board=board, seat=0, pips=(0, 150), variant=VARIANT)
    assert isinstance(decide(Player(1), state), FoldAction)
'''


def strategy_problem(strategy: str) -> str | None:
    """Why ``strategy`` cannot be used, as a sentence with the fix; None if it can."""
    if strategy not in STRATEGIES:
        return f"There is no strategy {strategy!r}; choose one of: {', '.join(STRATEGIES)}."
    return None


def install_strategy(project: Path, strategy: str, variant: str) -> None:
    """Turn a freshly rendered ``project`` into a bot playing ``strategy`` (``starter``: as is)."""
    problem = strategy_problem(strategy)
    if problem is not None:
        raise ValueError(problem)
    if strategy == "starter":
        return
    source = Path(bots.__file__).resolve().parent
    package = project / "refbots"
    (package / "data").mkdir(parents=True, exist_ok=True)
    for name in _SUPPORT:
        shutil.copyfile(source / name, package / name)
    for table in sorted((source / "data").glob("*.csv")):
        shutil.copyfile(table, package / "data" / table.name)
    module, cls = _MODULES[strategy]
    code = (source / module).read_text(encoding="utf-8").replace("from .", "from refbots.")
    header = f"# Started from the kit's reference bot (pokerbots new --strategy {strategy}).\n"
    footer = _PLAYER_FOOTER.format(variant=variant, cls=cls, strategy=strategy)
    (project / "player.py").write_text(header + code + footer, encoding="utf-8")
    (project / "requirements.txt").write_text(_REQUIREMENTS, encoding="utf-8")
    (project / "tests" / "test_player.py").write_text(
        _TESTS.format(strategy=strategy), encoding="utf-8"
    )
