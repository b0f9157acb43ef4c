"""Each run file, written then read, gives back what was written (local_runner.runs).

* ``hands.jsonl``: hands played by the real engine (in-process built-in bots, every
  variant family, faults included) are written by the match writer and read back by
  the run reader; each :class:`Hand` says what the engine's record says.
* ``summary.json``: any JSON object, and a real match's summary, read back unchanged.
* the layout: the legs a real duplicate match writes are the legs the reader finds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import sdk
from local_runner.bots.builtin import BUILTIN_BOTS, make_builtin
from local_runner.engine.match import Match, MatchSettings
from local_runner.engine.records import (
    ActionEvent,
    AuctionEvent,
    FaultEvent,
    HandRecord,
    StreetEvent,
    SwapEvent,
)
from local_runner.engine.seats import InProcessSeat
from local_runner.runs.errors import RunError
from local_runner.runs.hands import (
    AuctionRecord,
    FaultRecord,
    Hand,
    HandAction,
    SwapRecord,
    hand_line,
    parse_hand,
)
from local_runner.runs.layout import HANDS_FILE, SUMMARY_FILE, leg_directories, leg_runs
from local_runner.runs.reader import open_run
from local_runner.runs.summary import read_summary, summary_content, write_summary
from local_runner.runs.writer import MatchLogWriter
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.spec import BotSpec
from local_runner.tables.table import play_table
from sdk import Bot
from sdk.actions import Action
from sdk.protocol import encode_action
from sdk.rules import Rules
from sdk.states import GameState, RoundState, TerminalState

VARIANTS = ("nlhe", "swap", "auction", "bounty", "toss", "acpc-2pl", "acpc-3pl")
#: Cheap built-in bots (the reference bots are slow and add nothing to the format).
BOTS = ("random", "checkcall", "raise", "chump")


class _Flaky(Bot):
    """A built-in bot that crashes at the start of its ``crash``-th hand: a crash fault,
    then the engine's default actions for its seat."""

    def __init__(self, inner: Bot, crash: int) -> None:
        self.inner = inner
        self.crash = crash
        self.hands = 0

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        self.hands += 1
        if self.hands == self.crash:
            raise RuntimeError("flaky")
        self.inner.handle_new_round(game_state, round_state, active)

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        self.inner.handle_round_over(game_state, terminal_state, active)

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        return self.inner.get_action(game_state, round_state, active)


def expected_hand(record: HandRecord) -> Hand:
    """What the engine's record says the hand was, in the reader's terms."""
    names = record.players
    actions = []
    swaps = []
    faults = []
    auction = None
    street = 0
    for event in record.events:
        if isinstance(event, ActionEvent):
            seconds = None if event.seconds is None else round(event.seconds, 6)
            code = encode_action(event.action)
            actions.append(
                HandAction(
                    event.seat, event.state.street, event.action, code, event.forced, seconds
                )
            )
        elif isinstance(event, StreetEvent):
            street = event.street
        elif isinstance(event, SwapEvent):
            swaps.append(SwapRecord(event.seat, street, event.old, event.new))
        elif isinstance(event, AuctionEvent):
            auction = AuctionRecord(event.bids, event.winners)
        elif isinstance(event, FaultEvent):
            fault = event.fault
            faults.append(
                FaultRecord(
                    event.seat, names[event.seat], fault.kind.value, fault.detail, fault.hand, None
                )
            )
    bounty = any(rank is not None for rank in record.bounties)
    return Hand(
        number=record.number,
        players=names,
        bankrolls_before=record.bankrolls_before,
        hole_cards=record.dealt,
        final_hands=record.final_hands,
        board=record.board,
        bounties=record.bounties if bounty else None,
        actions=tuple(actions),
        swaps=tuple(swaps),
        auction=auction,
        showdown=record.showdown,
        deltas=record.deltas,
        bounty_hits=record.bounty_hits if bounty else None,
        faults=tuple(faults),
    )


def play(
    out: Path,
    variant: str,
    bots: list[str],
    seed: int,
    rounds: int,
    flaky: tuple[int, int] | None,
) -> list[HandRecord]:
    """Play ``rounds`` hands in process, writing the match's files; return the records.

    ``flaky``: (seat, hand), the seat whose bot crashes at the start of that hand.
    """
    rules = Rules.for_variant(variant).replace(num_rounds=rounds)
    names = tuple(f"P{seat}" for seat in range(rules.seats))
    records: list[HandRecord] = []
    with MatchLogWriter(out, rules, names, seed) as writer:
        seats = []
        for seat, (name, bot) in enumerate(zip(names, bots, strict=False)):
            player = make_builtin(bot, seed + seat)
            if flaky is not None and seat == flaky[0]:
                player = _Flaky(player, flaky[1])
            seats.append(InProcessSeat(name, player, rules))

        def observe(record: HandRecord) -> None:
            writer.on_hand(record)
            records.append(record)

        settings = MatchSettings(record_reply_times=True)
        result = Match(seats, rules, seed, settings, on_hand=observe).play()
        writer.close(result)
    return records


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    variant=st.sampled_from(VARIANTS),
    bots=st.lists(st.sampled_from(BOTS), min_size=3, max_size=3),
    seed=st.integers(min_value=0, max_value=2**31),
    rounds=st.integers(min_value=1, max_value=12),
    flaky=st.one_of(
        st.none(), st.tuples(st.integers(min_value=0, max_value=2), st.integers(1, 12))
    ),
)
def test_hands_written_by_the_engine_read_back_as_the_record_says(
    tmp_path_factory: pytest.TempPathFactory,
    variant: str,
    bots: list[str],
    seed: int,
    rounds: int,
    flaky: tuple[int, int] | None,
) -> None:
    out = tmp_path_factory.mktemp("run")
    records = play(out, variant, bots, seed, rounds, flaky)
    run = open_run(out)
    read = list(run.hands())
    assert len(read) == len(records) == rounds
    for hand, record in zip(read, records, strict=True):
        assert hand == expected_hand(record)
        # One codec: the line the writer writes parses back to the same hand.
        assert parse_hand(json.loads(hand_line(record))) == hand


def test_every_variant_and_the_faults_are_exercised(tmp_path: Path) -> None:
    """The property's examples are random; this pins each variant's features once."""
    seen: dict[str, set[str]] = {}
    for variant in VARIANTS:
        out = tmp_path / variant
        records = play(out, variant, ["random", "random", "random"], 3, 40, (0, 20))
        read = list(open_run(out).hands())
        assert read == [expected_hand(record) for record in records]
        seen[variant] = {
            kind
            for hand in read
            for kind, present in (
                ("swap", hand.swaps),
                ("auction", hand.auction is not None),
                ("bounty", hand.bounties is not None),
                ("discard", any(a.code.startswith("D") for a in hand.actions)),
                ("fault", hand.faults),
                ("seconds", any(a.seconds is not None for a in hand.actions)),
            )
            if present
        }
    assert "swap" in seen["swap"] and "auction" in seen["auction"]
    assert "bounty" in seen["bounty"] and "discard" in seen["toss"]
    assert all("seconds" in kinds for kinds in seen.values())
    # A crash while the bot takes in a hand's end (no question in that hand) is not
    # recorded by the engine today, so not every variant shows the crash at these seeds.
    assert {"nlhe", "toss", "acpc-3pl"} <= {v for v, kinds in seen.items() if "fault" in kinds}
    assert {len(h.players) for h in open_run(tmp_path / "acpc-3pl").hands()} == {3}


def test_the_builtin_bots_used_exist() -> None:
    assert set(BOTS) <= set(BUILTIN_BOTS)


# -- summary.json -------------------------------------------------------------------

_JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(),
)
_JSON = st.recursive(
    _JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=200, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=st.dictionaries(st.text(), _JSON, max_size=8))
def test_a_summary_written_is_read_back_unchanged(
    tmp_path_factory: pytest.TempPathFactory, content: dict[str, Any]
) -> None:
    out = tmp_path_factory.mktemp("summary")
    path = write_summary(out, content)
    assert path == out / SUMMARY_FILE
    assert read_summary(path) == summary_content(content)


def test_a_match_summary_is_the_results_dict(tmp_path: Path) -> None:
    rules = Rules.for_variant("bounty").replace(num_rounds=20)
    with MatchLogWriter(tmp_path, rules, ("A", "B"), 9) as writer:
        seats = [InProcessSeat(n, make_builtin("random", i), rules) for i, n in enumerate("AB")]
        result = Match(seats, rules, 9, on_hand=writer.on_hand).play()
        writer.close(result, summary_extra={"note": "extra"})
    expected = json.loads(json.dumps(summary_content({**result.to_dict(), "note": "extra"})))
    assert read_summary(tmp_path / SUMMARY_FILE) == expected
    assert open_run(tmp_path).summary == expected
    assert expected["kit_version"] == sdk.__version__  # the kit that played the match


@pytest.mark.parametrize("text", ["", "[1, 2]\n", "{not json"])
def test_a_damaged_summary_is_a_run_error(tmp_path: Path, text: str) -> None:
    (tmp_path / SUMMARY_FILE).write_text(text, encoding="utf-8")
    with pytest.raises(RunError, match=r"summary\.json"):
        read_summary(tmp_path / SUMMARY_FILE)


# -- the layout ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "bots"),
    [("nlhe", ("random", "raise")), ("acpc-3pl", ("random", "checkcall", "raise"))],
)
def test_the_legs_a_duplicate_writes_are_the_legs_the_reader_finds(
    tmp_path: Path, variant: str, bots: tuple[str, ...]
) -> None:
    rules = Rules.for_variant(variant).replace(num_rounds=4)
    specs = [BotSpec.parse(f"builtin:{bot}") for bot in bots]
    result = play_table(specs, ScrimmageConfig(rules=rules, seed=2), tmp_path, duplicate=True)
    legs = leg_runs(tmp_path)
    assert [leg.name for leg in legs] == list(leg_directories(rules.seats))
    assert [leg.name for leg in legs] == list(result.directories)
    assert read_summary(tmp_path / SUMMARY_FILE)["rounds"] == result.hands_played
    for leg in legs:
        assert (leg / HANDS_FILE).is_file()
        assert len(list(open_run(leg).hands())) == 4
    with pytest.raises(RunError, match="is a duplicate scrimmage"):
        open_run(tmp_path)


# -- fault words --------------------------------------------------------------------


def test_every_fault_kind_has_its_words_once_for_the_gamelog_and_the_cli() -> None:
    from local_runner.cli.render import fault_sentence
    from local_runner.engine.faults import Fault, FaultKind
    from local_runner.runs.gamelog import format_fault

    for kind in FaultKind:
        assert kind.log_words and kind.verb
        assert format_fault("A", Fault(kind, 1, "")) == f"A {kind.log_words}"
        assert fault_sentence("B", kind, 2, "x") == f"bot B {kind.verb} in hand 2: x"
