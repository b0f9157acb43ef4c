"""Hands per second of the SDK's state machine alone, optionally beside another checkout.

    python benchmarks/state_machine.py [--hands N] [--rounds R] [--baseline PATH | --goal-baseline]

Plays random heads-up no-limit hands on :class:`sdk.states.RoundState` and nothing else: no
engine, no client, no bot object, no hand evaluation.  Each decision picks a legal action
type uniformly (a free check never folds) and a uniform legal raise-to amount, from one
seeded generator; the board is put in with ``with_board`` when a street starts, and a hand
that reaches the showdown is settled as a tie (``settle(None)``).  What is timed is
``new_hand``, ``legal_actions``, ``raise_bounds``, ``proceed``, ``with_board`` and
``settle``: the calls an engine or a client makes per hand.  With ``--baseline PATH`` each
round runs the baseline and this checkout one after the other in fresh processes and the
report gives each side's median and the ratio of medians; the load average is printed with
each round.  The target (``targets.py``) is relative: no slower than at the commit it was set
at.  ``--goal-baseline`` takes that commit from this checkout's git history as the baseline
and judges the ratio against it; any other run prints its figures, not judged.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))  # (where targets.py is, however this is run)
from targets import TARGETS, Target  # noqa: E402

# Handed to older checkouts too (--baseline): only public names of sdk.states and sdk.rules.
_ONE_RUN = """
import json, random, sys, time
from sdk.actions import CallAction, CheckAction, FoldAction, RaiseAction
from sdk.rules import Rules
from sdk.states import RoundState
hands = int(sys.argv[1])
rules = Rules.for_variant("nlhe")
rng = random.Random(1)
deck = [rank + suit for rank in "23456789TJQKA" for suit in "cdhs"]
deals = []
for _ in range(64):  # the cards do not change the betting: a few deals, reused
    rng.shuffle(deck)
    deals.append(((tuple(deck[0:2]), tuple(deck[2:4])), tuple(deck[4:9])))
ORDER = (CallAction, CheckAction, FoldAction, RaiseAction)
check, call, fold = CheckAction(), CallAction(), FoldAction()
start = time.process_time()
for number in range(hands):
    holes, board = deals[number % 64]
    state = RoundState.new_hand(rules, holes)
    while isinstance(state, RoundState):
        legal = state.legal_actions()
        kinds = [kind for kind in ORDER if kind in legal]
        if CheckAction in legal and FoldAction in legal:
            kinds.remove(FoldAction)
        kind = kinds[rng.randrange(len(kinds))]
        if kind is RaiseAction:
            low, high = state.raise_bounds()
            action = RaiseAction(rng.randint(low, high))
        else:
            action = check if kind is CheckAction else call if kind is CallAction else fold
        street = state.street
        state = state.proceed(action)
        if isinstance(state, RoundState) and state.street != street:
            state = state.with_board(board[: state.street])
    if state.folder is None:
        state.previous_state.settle(None)
print(json.dumps(hands / (time.process_time() - start)))
"""


def run_once(tree: Path, hands: int) -> float:
    """Hands per second (CPU time) of one run in a fresh process using ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        [sys.executable, "-c", _ONE_RUN, str(hands)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=tree,
    )
    value: float = json.loads(out.stdout)
    return value


def main() -> None:
    """Measure, interleaved, and print the medians (and the ratio with --baseline)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout to compare with")
    parser.add_argument(
        "--goal-baseline",
        action="store_true",
        help="compare with the commit the target was set at (a copy made with git archive)",
    )
    args = parser.parse_args()
    target = TARGETS["state machine"]
    with contextlib.ExitStack() as stack:
        if args.goal_baseline:
            args.baseline = stack.enter_context(goal_checkout(target))
        measure(args, target)


@contextlib.contextmanager
def goal_checkout(target: Target) -> Iterator[Path]:
    """A temporary copy of the commit ``target`` was set at (``git archive``); exits with a
    sentence saying why when this checkout's git history does not hold it."""
    assert target.baseline is not None
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", target.baseline], capture_output=True, check=False
    )
    if archive.returncode != 0:
        why = archive.stderr.decode(errors="replace").strip() or "git failed"
        raise SystemExit(
            f"--goal-baseline needs commit {target.baseline} in this checkout's git history "
            f"({why}); use a full clone, or give --baseline DIR with a copy of that commit."
        )
    # Our own repository's archive; the "data" filter where this Python has it (3.11.4+).
    safe: dict[str, Any] = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
    with tempfile.TemporaryDirectory(prefix="goal-baseline-") as folder:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(folder, **safe)
        yield Path(folder)


def measure(args: argparse.Namespace, target: Target) -> None:
    """Measure, interleaved, and print the medians, the ratio and the verdict."""
    trees = {"this": ROOT}
    if args.baseline is not None:
        trees = {"baseline": args.baseline.resolve(), "this": ROOT}
    results: dict[str, list[float]] = {label: [] for label in trees}
    for round_number in range(1, args.rounds + 1):
        print(f"round {round_number}: load {os.getloadavg()[0]:.2f}", file=sys.stderr)
        for label, tree in trees.items():
            results[label].append(run_once(tree, args.hands))
    stamp = time.strftime("%Y-%m-%d %H:%M", time.gmtime())
    print(
        f"RoundState alone, hands/s (CPU time), median of {args.rounds} interleaved rounds, "
        f"{stamp} UTC, load now {os.getloadavg()[0]:.2f}"
    )
    medians = {label: statistics.median(values) for label, values in results.items()}
    row = ", ".join(f"{label} {round(value)}" for label, value in medians.items())
    if "baseline" in medians:
        row += f", ratio {medians['this'] / medians['baseline']:.3f}"
    print("  " + row)
    if args.goal_baseline:
        verdict = target.verdict(medians["this"] / medians["baseline"])
        print(f"  this / {target.baseline} against the target: {verdict}; a report, not a gate")
    else:
        print(f"  not judged: the target compares with {target.baseline} (--goal-baseline)")


if __name__ == "__main__":
    main()
