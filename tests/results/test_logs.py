"""Tests of the match logs: gamelog.txt (MIT grammar), hands.jsonl and summary.json."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from local_runner.bots.builtin import CheckCallBot, RandomBot
from local_runner.engine.faults import Fault, FaultKind
from local_runner.engine.match import Match
from local_runner.engine.records import (
    ActionEvent,
    FaultEvent,
    HandRecord,
    MatchResult,
    PlayerResult,
    StreetEvent,
)
from local_runner.engine.seats import InProcessSeat
from local_runner.runs.gamelog import format_fault, format_hand
from local_runner.runs.hands import hand_to_json
from local_runner.runs.writer import MatchLogWriter
from sdk import Bot, CallAction, CheckAction, FoldAction, RaiseAction, Rules
from sdk.actions import Action
from sdk.states import GameState, RoundState

ROUNDS = 50
ROUND_LINE = re.compile(r"^Round #(\d+), (\S+) \((-?\d+)\), (\S+) \((-?\d+)\)$")
AWARD_LINE = re.compile(r"^(\S+)( \(swapped\))? awarded (-?\d+)$")
FINAL_LINE = re.compile(r"^Final, (\S+) \((-?\d+)\), (\S+) \((-?\d+)\)$")
HAND_KEYS = {
    "hand",
    "players",
    "bankrolls_before",
    "hole_cards",
    "final_hands",
    "board",
    "bounties",
    "actions",
    "swaps",
    "auction",
    "showdown",
    "deltas",
    "bounty_hits",
    "faults",
}


def play(
    tmp_path: Path, variant: str, bots: tuple[Bot, Bot] | None = None, seed: int = 5
) -> tuple[MatchResult, str, list[dict[str, Any]], dict[str, Any]]:
    """Play a short match with logs; return the result, gamelog, hand objects and summary."""
    rules = Rules.for_variant(variant)
    first, second = bots or (RandomBot(1), RandomBot(2))
    with MatchLogWriter(tmp_path, rules, ("A", "B"), seed) as writer:
        seats = [InProcessSeat("A", first, rules), InProcessSeat("B", second, rules)]
        result = Match(seats, rules, seed=seed, on_hand=writer.on_hand).play(rounds=ROUNDS)
        writer.close(result)
    gamelog = (tmp_path / "gamelog.txt").read_text(encoding="utf-8")
    lines = (tmp_path / "hands.jsonl").read_text(encoding="utf-8").splitlines()
    hands = [json.loads(line) for line in lines]
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    return result, gamelog, hands, summary


def blocks(gamelog: str) -> tuple[str, list[list[str]], str]:
    """The header, each hand's lines, and the Final line of a gamelog."""
    assert gamelog.endswith("\n") and not gamelog.endswith("\n\n")
    parts = gamelog[:-1].split("\n\n")
    return parts[0], [part.split("\n") for part in parts[1:-1]], parts[-1]


# -- golden ---------------------------------------------------------------


def example_record() -> HandRecord:
    """The constructed hand of reference section 1.10, built with the real state machine."""
    rules = Rules.for_variant("nlhe")
    dealt = (("Ah", "Kd"), ("7c", "7s"))
    record = HandRecord(1, ("A", "B"), (0, 0), dealt, (None, None))
    state = RoundState.new_hand(rules, dealt)
    board = ("2h", "9d", "Qs")
    for seat, action in (
        (0, RaiseAction(6)),
        (1, CallAction()),
        (1, CheckAction()),
        (0, RaiseAction(8)),
        (1, FoldAction()),
    ):
        record.events.append(ActionEvent(seat, action, state))
        after = state.proceed(action)
        if not isinstance(after, RoundState):
            record.deltas = after.deltas
            break
        if after.street != state.street:
            after = after.with_board(board[: after.street])
            record.events.append(StreetEvent(after.street, after.board, after.stacks))
        state = after
    record.final_hands, record.board = dealt, board
    return record


EXAMPLE = """\
Round #1, A (0), B (0)
A posts the blind of 1
B posts the blind of 2
A dealt [Ah Kd]
B dealt [7c 7s]
A raises to 6
B calls
Flop [2h 9d Qs], A (6), B (6)
B checks
A bets 8
B folds
A awarded 6
B awarded -6"""


def test_format_hand_reproduces_the_reference_example() -> None:
    record = example_record()
    assert record.deltas == (6, -6)
    assert format_hand(record, Rules.for_variant("nlhe")) == EXAMPLE.split("\n")


def test_writer_golden_file_and_final_order(tmp_path: Path) -> None:
    rules = Rules.for_variant("nlhe")
    writer = MatchLogWriter(tmp_path, rules, ("A", "B"), 7)
    writer.on_hand(example_record())
    result = MatchResult(rules, 7, 1, (PlayerResult("A", 6), PlayerResult("B", -6)))
    writer.close(result, summary_extra={"note": "golden"})
    writer.close(result)  # idempotent
    text = (tmp_path / "gamelog.txt").read_text(encoding="utf-8")
    # One hand played: the seats are reversed, so the second player comes first.
    assert text == f"6.9630 MIT Pokerbots - A vs B\n\n{EXAMPLE}\n\nFinal, B (-6), A (6)\n"
    hand = json.loads((tmp_path / "hands.jsonl").read_text(encoding="utf-8"))
    assert hand["actions"] == [
        {"seat": 0, "street": 0, "action": "R6", "forced": False},
        {"seat": 1, "street": 0, "action": "C", "forced": False},
        {"seat": 1, "street": 3, "action": "K", "forced": False},
        {"seat": 0, "street": 3, "action": "R8", "forced": False},
        {"seat": 1, "street": 3, "action": "F", "forced": False},
    ]
    assert hand["bounties"] is None and hand["auction"] is None and hand["swaps"] == []
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    assert summary["note"] == "golden" and summary["rounds"] == 1


# -- every variant ----------------------------------------------------------


@pytest.mark.parametrize("variant", ["nlhe", "swap", "auction", "bounty"])
def test_logs_of_a_match(tmp_path: Path, variant: str) -> None:
    result, gamelog, hands, summary = play(tmp_path, variant)
    rules = Rules.for_variant(variant)
    header, hand_blocks, final = blocks(gamelog)
    assert header == "6.9630 MIT Pokerbots - A vs B"
    assert len(hand_blocks) == len(hands) == result.hands_played == ROUNDS
    bankroll = {"A": 0, "B": 0}
    for number, (lines, hand) in enumerate(zip(hand_blocks, hands, strict=True), start=1):
        assert set(hand) == HAND_KEYS and hand["hand"] == number
        seat0, seat1 = ("A", "B") if number % 2 == 1 else ("B", "A")
        assert hand["players"] == [seat0, seat1]
        match = ROUND_LINE.match(lines[0])
        assert match is not None
        assert match.groups() == (
            str(number),
            seat0,
            str(bankroll[seat0]),
            seat1,
            str(bankroll[seat1]),
        )
        assert hand["bankrolls_before"] == [bankroll[seat0], bankroll[seat1]]
        assert f"{seat0} posts the blind of 1" in lines and f"{seat1} posts the blind of 2" in lines
        assert f"{seat0} dealt [{' '.join(hand['hole_cards'][0])}]" in lines
        awards = [m.groups() for m in map(AWARD_LINE.match, lines) if m]
        assert [name for name, _tag, _delta in awards] == [seat0, seat1]
        deltas = [int(delta) for _name, _tag, delta in awards]
        assert sum(deltas) == 0 and deltas == hand["deltas"]
        assert (f"{seat0} shows [{' '.join(hand['final_hands'][0])}]" in lines) == hand["showdown"]
        bankroll[seat0] += deltas[0]
        bankroll[seat1] += deltas[1]
    match = FINAL_LINE.match(final)
    assert match is not None
    first, second = result.players  # an even number of hands: the first player first
    assert match.groups() == ("A", str(first.bankroll), "B", str(second.bankroll))
    assert (first.bankroll, second.bankroll) == (bankroll["A"], bankroll["B"])
    assert summary["variant"] == variant and summary["seed"] == 5 and summary["rounds"] == ROUNDS
    for entry, player in zip(summary["players"], result.players, strict=True):
        assert entry["name"] == player.name and entry["bankroll"] == player.bankroll
        assert "time_used" in entry and set(entry["faults"]) >= {"timeout", "illegal"}
    assert summary["rules"] == rules.to_dict()


def test_swap_logs_show_hands(tmp_path: Path) -> None:
    _result, gamelog, hands, _summary = play(tmp_path, "swap", (CheckCallBot(), CheckCallBot()))
    _header, hand_blocks, _final = blocks(gamelog)
    swaps_seen = 0
    for lines, hand in zip(hand_blocks, hands, strict=True):
        names = hand["players"]
        for i, line in enumerate(lines):
            if line.startswith(("Flop ", "Turn ")):
                assert lines[i + 1].startswith(f"{names[0]}'s hand: [")
                assert lines[i + 2].startswith(f"{names[1]}'s hand: [")
            if line.startswith("River "):
                assert "'s hand:" not in lines[i + 1]
        # Check-call bots reach the river: the hands after the turn are the final hands.
        shown = [line for line in lines if "'s hand: [" in line]
        assert shown[2:] == [
            f"{names[s]}'s hand: [{' '.join(hand['final_hands'][s])}]" for s in (0, 1)
        ]
        assert len(shown) == 4
        swapped = {swap["seat"] for swap in hand["swaps"]}
        swaps_seen += len(hand["swaps"])
        for seat in (0, 1):
            tag = " (swapped)" if seat in swapped else ""
            assert f"{names[seat]}{tag} awarded {hand['deltas'][seat]}" in lines
        for swap in hand["swaps"]:
            assert swap["street"] in (3, 4) and swap["old"] != swap["new"]
    assert swaps_seen > 0


def test_auction_logs_show_bids(tmp_path: Path) -> None:
    _result, gamelog, hands, _summary = play(tmp_path, "auction")
    _header, hand_blocks, _final = blocks(gamelog)
    auctions = 0
    for lines, hand in zip(hand_blocks, hands, strict=True):
        names = hand["players"]
        bids = [line for line in lines if re.fullmatch(r"\S+ bids \d+", line)]
        if hand["auction"] is None:
            assert not bids and lines[-1] == "Players did not reach flop. No auction occured."
            continue
        auctions += 1
        b0, b1 = hand["auction"]["bids"]
        assert bids == [f"{names[1]} bids {b1}", f"{names[0]} bids {b0}"]  # the BB bids first
        assert lines[-1] == f"Players submitted bids of {b0} and {b1}"
        flops = [i for i, line in enumerate(lines) if line.startswith("Flop ")]
        assert len(flops) == 2
        won = lines[flops[1] - len(hand["auction"]["winners"]) : flops[1]]
        assert won == [
            f"{names[s]} won the auction and was dealt [{hand['final_hands'][s][2]}]"
            for s in hand["auction"]["winners"]
        ]
    assert auctions > 0


def test_bounty_logs(tmp_path: Path) -> None:
    _result, gamelog, hands, _summary = play(tmp_path, "bounty")
    _header, hand_blocks, _final = blocks(gamelog)
    resets = []
    for number, (lines, hand) in enumerate(zip(hand_blocks, hands, strict=True), start=1):
        names, ranks = hand["players"], hand["bounties"]
        if lines[1].startswith("Bounties reset"):
            resets.append(number)
            assert lines[1] == (
                f"Bounties reset to {ranks[0]} for player {names[0]} "
                f"and {ranks[1]} for player {names[1]}"
            )
        for i, line in enumerate(lines):
            if line.startswith(("Flop ", "Turn ", "River ")):
                assert lines[i + 1].startswith("Current stacks: ")
        hits = [line for line in lines if line.endswith(" hits their bounty")]
        assert hits == [f"{names[s]} hits their bounty" for s in (0, 1) if hand["bounty_hits"][s]]
        assert lines[-1].startswith("Winning counts at the end of the round: , ")
    assert resets == [1, 26]


# -- faults -----------------------------------------------------------------


class IllegalBot(Bot):
    """Always raises far beyond any stack."""

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """An illegal raise."""
        return RaiseAction(10**6)


def test_faults_are_logged(tmp_path: Path) -> None:
    _result, gamelog, hands, summary = play(tmp_path, "nlhe", (IllegalBot(), CheckCallBot()))
    _header, hand_blocks, _final = blocks(gamelog)
    for lines, hand in zip(hand_blocks, hands, strict=True):
        seat = hand["players"].index("A")
        assert hand["faults"] and hand["faults"][0] == {
            "seat": seat,
            "player": "A",
            "kind": "illegal",
            "detail": "attempted illegal Raise with amount 1000000",
            "hand": hand["hand"],
        }
        logged = [line for line in lines if line.startswith("A attempted illegal")]
        assert logged == ["A attempted illegal Raise with amount 1000000"] * len(hand["faults"])
    assert summary["players"][0]["faults"]["illegal"] == sum(len(h["faults"]) for h in hands)


@pytest.mark.parametrize(
    ("kind", "detail", "line"),
    [
        (FaultKind.ILLEGAL, "attempted illegal Call", "A attempted illegal Call"),
        (FaultKind.MISFORMATTED, "response misformatted: 'X'", "A response misformatted: 'X'"),
        (FaultKind.MISFORMATTED, "sent 2 line(s)", "A response misformatted: sent 2 line(s)"),
        (FaultKind.TIMEOUT, "ran out of time", "A ran out of time"),
        (FaultKind.TIMEOUT, "no reply within 10.000 s", "A timed out: no reply within 10.000 s"),
        (FaultKind.DISCONNECTED, "", "A disconnected"),
        (FaultKind.DISCONNECTED, "closed the connection", "A disconnected: closed the connection"),
        (FaultKind.CRASH, "exited (signal 9 (SIGKILL))", "A crashed: exited (signal 9 (SIGKILL))"),
    ],
)
def test_format_fault(kind: FaultKind, detail: str, line: str) -> None:
    assert format_fault("A", Fault(kind, 1, detail)) == line


def test_fault_lines_keep_their_place() -> None:
    record = example_record()
    record.events.insert(2, FaultEvent(1, Fault(FaultKind.TIMEOUT, 1, "ran out of time")))
    lines = format_hand(record, Rules.for_variant("nlhe"))
    assert lines[6:9] == ["B calls", "B ran out of time", "Flop [2h 9d Qs], A (6), B (6)"]
    assert hand_to_json(record)["faults"] == [
        {"seat": 1, "player": "B", "kind": "timeout", "detail": "ran out of time", "hand": 1}
    ]


def test_exit_without_close_leaves_no_final_line(tmp_path: Path) -> None:
    rules = Rules.for_variant("nlhe")
    with pytest.raises(KeyboardInterrupt), MatchLogWriter(tmp_path, rules, ("A", "B"), 1) as w:
        w.on_hand(example_record())
        raise KeyboardInterrupt
    assert w.closed
    assert "Final" not in (tmp_path / "gamelog.txt").read_text(encoding="utf-8")
    assert not (tmp_path / "summary.json").exists()
