"""``dealer.log``: every match of an ACPC game is logged as the ACPC dealer logs it.

Held three ways: equal, line for line, to ``pokerbots export --format acpc`` of the same run
(itself checked against the real dealer's recorded logs and PokerKit), re-totalled against
``summary.json``, and read by PokerKit's ACPC log parser with the kit's results.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pokerkit
import pytest

from local_runner.runs.layout import DEALER_LOG_FILE, HALF_DIRECTORIES
from local_runner.runs.reader import open_run
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from local_runner.tables.table import play_table
from local_runner.view.acpc import write_acpc_log
from sdk.rules import Rules

LINEUPS = {
    "acpc-2pl": ["random", "raise"],
    "acpc-2pn": ["random", "checkcall"],
    "acpc-3pl": ["random", "raise", "checkcall"],
}


def play(out: Path, variant: str, hands: int = 300, names: list[str] | None = None) -> Path:
    rules = Rules.for_variant(variant).replace(num_rounds=hands)
    bots = LINEUPS[variant]
    specs = [BotSpec(name, builtin=bot) for name, bot in zip(names or bots, bots, strict=True)]
    run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=5), out)
    return out


def score(log: Path) -> dict[str, Decimal]:
    values, names = log.read_text(encoding="utf-8").splitlines()[-1].split(":")[1:]
    return dict(zip(names.split("|"), map(Decimal, values.split("|")), strict=True))


@pytest.mark.parametrize("variant", sorted(LINEUPS))
def test_the_log_is_the_exports_and_totals_to_the_summary(variant: str, tmp_path: Path) -> None:
    out = play(tmp_path / "match", variant)
    live = (out / DEALER_LOG_FILE).read_text(encoding="utf-8").splitlines()
    run = open_run(out)
    assert write_acpc_log(run, tmp_path / "export.log") == 300
    exported = (tmp_path / "export.log").read_text(encoding="utf-8").splitlines()
    states = [line for line in live if not line.startswith("#")]
    assert states == [line for line in exported if not line.startswith("#")]
    assert sum(line.startswith("STATE:") for line in states) == 300
    assert states[-1].startswith("SCORE:")
    totals = score(out / DEALER_LOG_FILE)
    assert sum(totals.values()) == 0
    bankrolls = {p["name"]: p["bankroll"] for p in run.summary["players"]}
    if run.rules.seats == 2:
        assert totals == {name: Decimal(chips) for name, chips in bankrolls.items()}
    else:  # exact shares of a split pot against the kit's whole chips: under a chip a hand
        showdowns = sum(hand.showdown for hand in run.hands())
        assert all(abs(totals[name] - bankrolls[name]) < showdowns for name in bankrolls)


@pytest.mark.parametrize("variant", ["acpc-2pl", "acpc-2pn"])
def test_pokerkit_reads_the_log_with_the_kits_results(variant: str, tmp_path: Path) -> None:
    out = play(tmp_path / "match", variant)
    run = open_run(out)
    rules = run.rules
    blinds = (rules.small_blind, rules.big_blind)
    if rules.limit is None:
        game = pokerkit.NoLimitTexasHoldem((), False, 0, blinds, rules.big_blind)
    else:
        small, big = rules.limit.raise_sizes[0], rules.limit.raise_sizes[-1]
        game = pokerkit.FixedLimitTexasHoldem((), False, 0, blinds, small, big)
    parser = pokerkit.notation.ACPCProtocolParser(game, rules.starting_stack)
    text = (out / DEALER_LOG_FILE).read_text(encoding="utf-8")
    parsed = list(parser(text, error_status=True))
    assert len(parsed) == 300
    hands = {hand.number: hand for hand in run.hands()}
    for history in parsed:
        hand = hands[history.hand + 1]
        # Heads-up, position 0 is the big blind: the kit's seat 1.
        assert history.user_defined_fields["_results"] == [hand.deltas[1], hand.deltas[0]]


def test_each_leg_of_a_duplicate_match_has_its_log(tmp_path: Path) -> None:
    rules = Rules.for_variant("acpc-2pl").replace(num_rounds=40)
    specs = [BotSpec.parse("builtin:random"), BotSpec.parse("builtin:raise")]
    play_table(specs, ScrimmageConfig(rules=rules, seed=2), tmp_path, duplicate=True)
    for half in HALF_DIRECTORIES:
        lines = (tmp_path / half / DEALER_LOG_FILE).read_text(encoding="utf-8").splitlines()
        assert sum(line.startswith("STATE:") for line in lines) == 40


def test_names_the_format_cannot_hold_are_written_with_underscores(tmp_path: Path) -> None:
    out = play(tmp_path / "match", "acpc-2pl", 20, names=["my bot", "a:b"])
    text = (out / DEALER_LOG_FILE).read_text(encoding="utf-8")
    assert "written with '_' instead" in text
    assert text.splitlines()[-1].endswith(":my_bot|a_b")


def test_an_mit_game_has_no_dealer_log(tmp_path: Path) -> None:
    rules = Rules.for_variant("nlhe").replace(num_rounds=5)
    specs = [BotSpec.parse("builtin:random"), BotSpec.parse("builtin:raise")]
    run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=1), tmp_path / "m")
    assert not (tmp_path / "m" / DEALER_LOG_FILE).exists()


def test_split_pots_three_ways_are_logged_in_exact_shares(tmp_path: Path) -> None:
    """A three-handed split of an odd pot is a fraction of a chip in the dealer's log (and the
    kit's whole chips elsewhere): the live log still equals the export's exact shares."""
    rules = Rules.for_variant("acpc-3pl").replace(num_rounds=3000)
    specs = [BotSpec.parse(f"builtin:{bot}") for bot in ("random", "random", "checkcall")]
    run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=4), tmp_path / "m")
    live = (tmp_path / "m" / DEALER_LOG_FILE).read_text(encoding="utf-8").splitlines()
    write_acpc_log(open_run(tmp_path / "m"), tmp_path / "export.log")
    exported = (tmp_path / "export.log").read_text(encoding="utf-8").splitlines()
    states = [line for line in live if line.startswith("STATE:")]
    assert states == [line for line in exported if line.startswith("STATE:")]
    assert any("." in line.split(":")[4] for line in states)  # some shares are fractions
