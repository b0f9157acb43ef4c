"""Reading runs safely, PHH and ACPC export checked against PokerKit, and the replay text."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from local_runner.engine.seats import InProcessSeat
from local_runner.runs.errors import RunError
from local_runner.runs.reader import open_run
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from local_runner.view.acpc import write_acpc_log
from local_runner.view.phh import write_phhs
from local_runner.view.replay import HandFilter, Replayer, hand_lines, select_hands
from sdk.actions import Action, CheckAction, RaiseAction
from sdk.bot import Bot
from sdk.rules import Rules
from sdk.states import GameState, RoundState
from tests.conftest import ROOT

pokerkit = pytest.importorskip("pokerkit")


def pokerbots(*args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "local_runner.cli", *args]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def play(
    out: Path, variant: str, rounds: int, seed: int, a: str = "random", b: str = "raise"
) -> Path:
    config = ScrimmageConfig(rules=Rules.for_variant(variant).replace(num_rounds=rounds), seed=seed)
    run_scrimmage([BotSpec.parse(f"builtin:{a}"), BotSpec.parse(f"builtin:{b}")], config, out)
    return out


def replay_phh(path: Path) -> list[tuple[object, list[int]]]:
    """Each PHH hand loaded and replayed by PokerKit: (history, final stacks)."""
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an unexpected field would warn
        # Bounty Hold'em lets a seat fold when it could check (the MIT 2025 rule); PokerKit
        # plays that fold and only remarks that there was no reason for it.
        warnings.filterwarnings("ignore", "There is no reason for this player to fold")
        for history in pokerkit.HandHistory.loads_all(path.read_text(encoding="utf-8")):
            states = list(history)
            out.append((history, list(states[-1].stacks)))
    return out


@pytest.mark.parametrize(("seed", "a", "b"), [(1, "random", "raise"), (2, "random", "random")])
def test_every_holdem_hand_replays_in_pokerkit_to_the_same_stacks(
    tmp_path: Path, seed: int, a: str, b: str
) -> None:
    run = open_run(play(tmp_path / "run", "nlhe", 2000, seed, a, b))
    phh = tmp_path / "hands.phhs"
    assert write_phhs(run, phh) == 2000
    replayed = replay_phh(phh)
    assert len(replayed) == 2000
    hands = {hand.number: hand for hand in run.hands()}
    showdowns = 0
    for history, stacks in replayed:
        hand = hands[history.hand]  # type: ignore[attr-defined]
        # p1 is the big blind (seat 1), p2 the dealer (seat 0).
        expected = [400 + hand.deltas[1], 400 + hand.deltas[0]]
        assert stacks == expected == history.finishing_stacks, history.hand  # type: ignore[attr-defined]
        assert history.players == [hand.players[1], hand.players[0]]  # type: ignore[attr-defined]
        showdowns += hand.showdown
    assert showdowns > 100  # showdowns, all-ins and folds all covered


@pytest.mark.parametrize("variant", ["swap", "auction", "bounty"])
def test_variant_hands_load_in_pokerkit_and_carry_their_events(
    tmp_path: Path, variant: str
) -> None:
    run = open_run(play(tmp_path / "run", variant, 300, 5))
    phh = tmp_path / "hands.phhs"
    write_phhs(run, phh)
    replayed = replay_phh(phh)
    assert len(replayed) == 300
    fields = [h.user_defined_fields for h, _ in replayed]  # type: ignore[attr-defined]
    assert all(f["_variant"] == variant for f in fields)
    key = {"swap": "_swaps", "auction": "_auction", "bounty": "_bounties"}[variant]
    assert sum(key in f for f in fields) > 10
    if variant == "swap":  # swaps change no betting: PokerKit's stacks are the kit's
        assert all(stacks == h.finishing_stacks for h, stacks in replayed)  # type: ignore[attr-defined]


def test_acpc_log_parses_in_pokerkit_with_the_same_results(tmp_path: Path) -> None:
    run = open_run(play(tmp_path / "run", "nlhe", 1000, 3))
    log = tmp_path / "run.log"
    assert write_acpc_log(run, log) == 1000
    game = pokerkit.NoLimitTexasHoldem(
        automations=(),
        ante_trimming_status=False,
        raw_antes=0,
        raw_blinds_or_straddles=(1, 2),
        min_bet=2,
    )
    parser = pokerkit.notation.ACPCProtocolParser(game, 400)
    hands = {hand.number: hand for hand in run.hands()}
    parsed = list(parser(log.read_text(encoding="utf-8"), error_status=True))
    assert len(parsed) == 1000
    for history in parsed:
        hand = hands[history.hand + 1]
        expected = [hand.deltas[1], hand.deltas[0]]
        assert history.user_defined_fields["_results"] == expected
        assert [s - 400 for s in list(history)[-1].stacks] == expected
    last = log.read_text(encoding="utf-8").splitlines()[-1]
    bankrolls = [p["bankroll"] for p in run.summary["players"]]
    assert last == f"SCORE:{bankrolls[0]}|{bankrolls[1]}:random|raise"


def test_export_refuses_acpc_for_variants_with_a_sentence(tmp_path: Path) -> None:
    run_dir = play(tmp_path / "run", "auction", 20, 1)
    result = pokerbots("export", str(run_dir), "--format", "acpc", "--out", str(tmp_path / "x"))
    assert result.returncode == 2
    assert "ACPC logs can only hold hold'em with its own streets" in result.stderr
    assert "acpc-2pl, acpc-2pn, acpc-3pl, nlhe" in result.stderr  # the games that can
    assert "--format phh" in result.stderr and "Traceback" not in result.stderr
    result = pokerbots("export", str(run_dir), "--out", str(tmp_path / "x"))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "x" / "run.phhs").is_file()


def test_scrimmage_phh_flag_writes_hands_phhs(tmp_path: Path) -> None:
    result = pokerbots(
        "scrimmage",
        "builtin:random",
        "builtin:raise",
        "--rounds",
        "30",
        "--out",
        str(tmp_path),
        "--phh",
    )
    assert result.returncode == 0, result.stderr
    assert len(replay_phh(tmp_path / "hands.phhs")) == 30


# -- reading runs never trusts the files --------------------------------------------


@pytest.fixture
def small_run(tmp_path: Path) -> Path:
    return play(tmp_path / "run", "nlhe", 20, 9)


def test_a_truncated_hands_file_is_a_clear_error(small_run: Path) -> None:
    path = small_run / "hands.jsonl"
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(RunError, match="line 20: the last line is cut off"):
        list(open_run(small_run).hands())
    for command in (
        ("replay", str(small_run)),
        ("report", str(small_run)),
        ("export", str(small_run)),
    ):
        result = pokerbots(*command)
        assert result.returncode == 2, command
        assert "cut off" in result.stderr and "Traceback" not in result.stderr


def test_a_run_from_an_older_version_is_a_clear_error(small_run: Path) -> None:
    path = small_run / "hands.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    old = json.loads(lines[4])
    del old["faults"]
    lines[4] = json.dumps(old)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(RunError, match=r"line 5: the hand has no 'faults' field.*older"):
        list(open_run(small_run).hands())
    summary = json.loads((small_run / "summary.json").read_text())
    del summary["rules"]
    (small_run / "summary.json").write_text(json.dumps(summary))
    result = pokerbots("replay", str(small_run), "--hand", "1")
    assert result.returncode == 2 and "older version" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("damage", ["not json\n", '{"hand": 1}\n', "[1, 2]\n"])
def test_damaged_lines_and_missing_files_are_clear_errors(small_run: Path, damage: str) -> None:
    (small_run / "hands.jsonl").write_text(damage, encoding="utf-8")
    with pytest.raises(RunError, match="line 1"):
        list(open_run(small_run).hands())
    (small_run / "summary.json").unlink()
    with pytest.raises(RunError, match=r"summary\.json is missing"):
        open_run(small_run)


def test_an_edited_action_that_breaks_the_rules_is_caught(small_run: Path) -> None:
    path = small_run / "hands.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    hand = json.loads(lines[0])
    hand["actions"][0]["action"] = "R9999"
    lines[0] = json.dumps(hand)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = pokerbots("replay", str(small_run), "--hand", "1")
    assert result.returncode == 2 and "not legal" in result.stderr


# -- the replay ------------------------------------------------------------------------


class _OneIllegalRaise(Bot):
    """Raises far too much in its first decision, then checks or calls."""

    def __init__(self) -> None:
        self.done = False

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        if not self.done:
            self.done = True
            return RaiseAction(10**6)
        legal = round_state.legal_actions()
        from sdk.actions import CallAction

        return CheckAction() if CheckAction in legal else CallAction()


def test_replay_shows_a_fault_at_the_action_it_caused(tmp_path: Path) -> None:
    rules = Rules.for_variant("nlhe").replace(num_rounds=3)
    spec = BotSpec("wild", seat=lambda name, r: InProcessSeat(name, _OneIllegalRaise(), r))
    run_scrimmage(
        [spec, BotSpec.parse("builtin:checkcall")], ScrimmageConfig(rules=rules, seed=2), tmp_path
    )
    run = open_run(tmp_path)
    lines = hand_lines(run, run.hand(1))
    fault = next(i for i, line in enumerate(lines) if line.startswith("!! wild fault: illegal"))
    # The fault comes right before the default the runner played for it (the dealer folds).
    assert lines[fault + 1].startswith("   wild folds (default, played by the runner)")
    assert lines[-1] == "== result: wild -1, checkcall +1"
    assert [h.number for h in select_hands(run, HandFilter(faults=True))] == [1]


def test_replay_text_and_keys(small_run: Path) -> None:
    run = open_run(small_run)
    biggest = select_hands(run, HandFilter(biggest=True))[0]
    assert max(map(abs, biggest.deltas)) == max(max(map(abs, h.deltas)) for h in run.hands())
    text = "\n".join(hand_lines(run, run.hand(2), viewer="random"))
    assert text.startswith("   hand 2: raise deals (small blind), random is the big blind")
    assert "??" in text  # raise's cards hidden from random until a showdown
    replayer = Replayer(run, list(run.hands()), None)
    total = len(replayer.screen()) - 4
    for key in ("n", "n", "p"):
        assert replayer.press(key, lambda prompt: "")
    assert replayer.step == 1
    replayer.press("e", lambda prompt: "")
    assert len(replayer.screen()) - 4 > total
    replayer.press("]", lambda prompt: "")
    assert (replayer.hand.number, replayer.step) == (2, 0)
    replayer.press("g", lambda prompt: "17")
    assert replayer.hand.number == 17
    assert not replayer.press("q", lambda prompt: "")


def test_replay_command_prints_plain_text_off_a_terminal(small_run: Path) -> None:
    result = pokerbots("replay", str(small_run), "--hand", "3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("   hand 3:")
    assert "== result:" in result.stdout
    result = pokerbots("replay", str(small_run), "--bot", "nobody")
    assert result.returncode == 2 and "no bot 'nobody'" in result.stderr


@pytest.mark.parametrize("variant", ["acpc-2pl", "acpc-2pn", "acpc-3pl"])
def test_acpc_game_hands_replay_in_pokerkit_to_the_same_stacks(
    tmp_path: Path, variant: str
) -> None:
    out = tmp_path / "run"
    rules = Rules.for_variant(variant).replace(num_rounds=1000)
    bots = ["random", "raise", "checkcall"][: rules.seats]
    run_scrimmage([BotSpec.parse(f"builtin:{b}") for b in bots], ScrimmageConfig(rules, 4), out)
    run = open_run(out)
    phh = tmp_path / "hands.phhs"
    assert write_phhs(run, phh) == 1000
    replayed = replay_phh(phh)
    hands = {hand.number: hand for hand in run.hands()}
    start = rules.starting_stack
    for history, stacks in replayed:
        hand = hands[history.hand]  # type: ignore[attr-defined]
        # PHH positions start after the button: seat (i + 1) % n.
        expected = [start + hand.deltas[(i + 1) % rules.seats] for i in range(rules.seats)]
        assert stacks == expected == history.finishing_stacks, history.hand  # type: ignore[attr-defined]
    assert sum(hand.showdown for hand in hands.values()) > 50


@pytest.mark.parametrize("variant", ["acpc-2pl", "acpc-2pn", "acpc-3pl"])
def test_acpc_game_runs_export_to_dealer_logs_the_codec_reads_back(
    tmp_path: Path, variant: str
) -> None:
    from sdk.acpc import parse_log_state
    from sdk.gamedef import ACPC_GAMES

    out = tmp_path / "run"
    rules = Rules.for_variant(variant).replace(num_rounds=500)
    bots = ["random", "raise", "checkcall"][: rules.seats]
    run_scrimmage([BotSpec.parse(f"builtin:{b}") for b in bots], ScrimmageConfig(rules, 8), out)
    run = open_run(out)
    log = tmp_path / "run.log"
    assert write_acpc_log(run, log) == 500
    lines = log.read_text(encoding="utf-8").splitlines()
    states = [parse_log_state(line, ACPC_GAMES[variant]) for line in lines if line[:5] == "STATE"]
    assert len(states) == 500
    totals: dict[str, float] = {}
    for state in states:
        assert abs(sum(state.values)) < 1e-6  # zero-sum, exactly as the dealer prints
        for name, value in zip(state.names, state.values, strict=True):
            totals[name] = totals.get(name, 0.0) + float(value)
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    for player in summary["players"]:
        # Whole chips (the kit) and exact shares (the log) differ by odd chips at most.
        assert abs(totals[player["name"]] - player["bankroll"]) <= 500
        if rules.seats == 2:
            assert totals[player["name"]] == player["bankroll"]
    assert lines[-1].startswith("SCORE:")


def test_replay_and_export_take_a_duplicate_match_folder(tmp_path: Path) -> None:
    from local_runner.cli.export import export_runs
    from local_runner.tables.table import play_table

    rules = Rules.for_variant("nlhe").replace(num_rounds=3)
    specs = [BotSpec.parse("builtin:random"), BotSpec.parse("builtin:checkcall")]
    play_table(specs, ScrimmageConfig(rules=rules, seed=4), tmp_path / "dup", duplicate=True)
    # Replay: every leg in turn, each under a line that names it and its seats.
    result = pokerbots("replay", str(tmp_path / "dup"), "--hand", "2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    first = out.index("=== half-1: seat 1 random, seat 2 checkcall")
    second = out.index("=== half-2: seat 1 checkcall, seat 2 random")
    assert first < out.index("hand 2:", first) < second < out.index("hand 2:", second)
    # Export: each leg into its own folder, or into --out named after the leg.
    written = export_runs(tmp_path / "dup", "phh", None)
    assert [(p.parent.name, p.name, n) for p, n in written] == [
        ("half-1", "hands.phhs", 3),
        ("half-2", "hands.phhs", 3),
    ]
    written = export_runs(tmp_path / "dup", "acpc", tmp_path / "out")
    assert [(p.name, n) for p, n in written] == [("half-1.log", 3), ("half-2.log", 3)]
    assert all(p.parent == tmp_path / "out" for p, _ in written)
