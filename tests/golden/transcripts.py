"""Scripted bots, a recording seat, and the golden transcript of each variant.

A golden transcript is the exact sequence of lines each seat receives and sends
in a few seeded hands played by scripted bots, written in the notation of the
constructed exchanges of ``reference/mit-engines.md``::

    # hand 1: A is P0 (dealer), B is P1
    P0 <- T30.000 P0 HAh,Kd
    P0 -> R6

The engine runs with ``enforce_clock=False`` so that every ``T`` clause shows
the rules' game clock and the transcript does not depend on timing.

``tests/test_variants.py`` compares these transcripts with the files in this
directory; ``python tests/golden/regenerate.py`` rewrites the files.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from local_runner.engine.match import Match, MatchSettings
from local_runner.engine.records import HandRecord, MatchResult
from local_runner.engine.seats import InProcessSeat
from sdk.actions import (
    Action,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from sdk.bot import Bot
from sdk.protocol import Clause, encode_action, encode_message
from sdk.rules import Rules
from sdk.states import GameState, RoundState, TerminalState

__all__ = [
    "A",
    "C",
    "D",
    "F",
    "GOLDEN_DIR",
    "K",
    "Played",
    "R",
    "RecordingSeat",
    "SCENARIOS",
    "Scenario",
    "ScriptedBot",
    "golden_path",
    "play",
    "transcript",
]

GOLDEN_DIR = Path(__file__).resolve().parent

F, C, K = FoldAction(), CallAction(), CheckAction()


def R(amount: int) -> RaiseAction:
    """A raise to ``amount``."""
    return RaiseAction(amount)


def A(amount: int) -> BidAction:
    """A bid of ``amount``."""
    return BidAction(amount)


def D(index: int) -> DiscardAction:
    """A discard of hole card ``index``."""
    return DiscardAction(index)


Script = Mapping[int, Sequence[Action]]


class ScriptedBot(Bot):
    """Plays ``script[hand]`` action by action; checks, calls, bids 0 or discards its first
    card once it runs out.

    It keeps what its client showed it, per hand: the state at the start of the
    hand, the state at each decision, and the terminal state.
    """

    def __init__(self, script: Script | None = None) -> None:
        self.script = {hand: list(actions) for hand, actions in (script or {}).items()}
        self.started: dict[int, RoundState] = {}
        self.asked: dict[int, list[RoundState]] = {}
        self.ended: dict[int, TerminalState] = {}
        # The ``active`` seat the callbacks were given, at each hand's start and end.
        self.seats: dict[int, int] = {}
        self.seats_at_end: dict[int, int] = {}
        self.bankrolls: dict[int, int] = {}

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        self.started[game_state.round_num] = round_state
        self.seats[game_state.round_num] = active

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        self.ended[game_state.round_num] = terminal_state
        self.seats_at_end[game_state.round_num] = active
        self.bankrolls[game_state.round_num] = game_state.bankroll

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        hand = game_state.round_num
        self.asked.setdefault(hand, []).append(round_state)
        remaining = self.script.get(hand)
        if remaining:
            return remaining.pop(0)
        legal = round_state.legal_actions()
        if BidAction in legal:
            return BidAction(0)
        if DiscardAction in legal:
            return DiscardAction(0)
        return CheckAction() if CheckAction in legal else CallAction()


class RecordingSeat(InProcessSeat):
    """An in-process seat that writes every message and reply into ``lines``.

    Messages are encoded with the wire codec, exactly as a socket seat would
    send them.  In-process bots answer at once, so each reply line follows its
    message.
    """

    def __init__(self, name: str, bot: Bot, rules: Rules, slot: int, lines: list[str]) -> None:
        super().__init__(name, bot, rules)
        self.slot = slot
        self.rules = rules
        self.lines = lines
        self.messages: list[tuple[int, int, str]] = []
        """(hand, seat, message) for every message this seat received."""

    def send(self, clauses: Sequence[Clause], hand: int, ack: bool) -> None:
        seat = self.slot if hand % 2 == 1 else 1 - self.slot
        text = encode_message(clauses, self.rules)
        self.messages.append((hand, seat, text))
        dealer, other = ("A", "B") if hand % 2 == 1 else ("B", "A")
        header = f"# hand {hand}: {dealer} is P0 (dealer), {other} is P1"
        if header not in self.lines:  # the first message of the hand
            self.lines.append(header)
        self.lines.append(f"P{seat} <- {text}")
        super().send(clauses, hand, ack)
        reply = self._replies[-1]
        shown = encode_action(reply.action) if reply.action is not None else f"({reply.fault})"
        self.lines.append(f"P{seat} -> {shown}")

    def quit(self) -> None:
        self.lines.append(f"{self.name} <- Q")
        super().quit()


@dataclass
class Played:
    """A match played by two scripted bots: everything a test wants to look at."""

    result: MatchResult
    records: list[HandRecord]
    bots: tuple[ScriptedBot, ScriptedBot]
    seats: tuple[RecordingSeat, RecordingSeat]
    lines: list[str] = field(default_factory=list)

    def messages(self, slot: int, hand: int) -> list[str]:
        """The messages player ``slot`` (0 = A) received in ``hand``."""
        return [text for number, _, text in self.seats[slot].messages if number == hand]


def play(
    rules: Rules,
    seed: int,
    hands: int,
    scripts: tuple[Script, Script] = ({}, {}),
) -> Played:
    """Play ``hands`` hands between A and B (A is the dealer in odd hands), recording everything."""
    lines: list[str] = []
    bots = (ScriptedBot(scripts[0]), ScriptedBot(scripts[1]))
    seats = (
        RecordingSeat("A", bots[0], rules, 0, lines),
        RecordingSeat("B", bots[1], rules, 1, lines),
    )
    records: list[HandRecord] = []
    match = Match(seats, rules, seed, MatchSettings(enforce_clock=False), on_hand=records.append)
    result = match.play(hands)
    return Played(result, records, bots, seats, lines)


@dataclass(frozen=True)
class Scenario:
    """Three seeded hands of one variant, with what each player does in them."""

    variant: str
    seed: int
    description: tuple[str, ...]
    scripts: tuple[Script, Script]
    hands: int = 3


# Hand 1: A is the dealer; hands alternate.  Each script lists a player's own
# decisions in order; once a script runs out the player checks or calls (bids 0).
SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "nlhe",
        seed=1,
        description=(
            "hand 1: A raises, B calls, B checks the flop, A bets, B folds (the 2.1 exchange)",
            "hand 2: B (dealer) folds preflop: A's only message is its terminal one",
            "hand 3: A calls, B raises, A re-raises all in, B calls: showdown, checks skipped",
        ),
        scripts=(
            {1: [R(6), R(8)], 3: [C, R(400)]},
            {1: [C, K, F], 2: [F], 3: [R(10), C]},
        ),
    ),
    Scenario(
        "swap",
        seed=4,
        description=(
            "hand 1: limp and check down to a showdown; U follows B on the flop and the turn",
            "hand 2: B (dealer) raises, A calls; B's Qs is swapped for 2d on the flop;"
            " A bets, B raises, A folds",
            "hand 3: A raises all in preflop, B calls: every later street is played without a"
            " round trip",
        ),
        scripts=(
            {2: [C, R(4), F], 3: [R(200)]},
            {2: [R(6), R(12)], 3: [C]},
        ),
    ),
    Scenario(
        "auction",
        seed=2,
        description=(
            "hand 1: A raises, B calls; B bids 12, A bids 20 (sees A-1): A pays 12 and gets a"
            " third card; B checks, A bets, B folds (the 2.4 exchange)",
            "hand 2: a 7-7 tie: both pay 7 and both get a card; checked down to a showdown"
            " that A's third card (8h) wins",
            "hand 3: A (dealer) folds preflop: no auction",
        ),
        scripts=(
            {1: [R(6), A(20), R(20)], 2: [K, A(7)], 3: [F]},
            {1: [C, A(12), K, F], 2: [C, A(7)]},
        ),
    ),
    Scenario(
        "bounty",
        seed=49,
        description=(
            "hand 1: A raises to 5, B calls, B checks, A bets 10, B folds (the 2.5 exchange):"
            " both hit, A wins 1.5 * 5 + 10 = 17.5, rounded down for the dealer: D17 Y1# / Y#1",
            "hand 2: B (dealer) folds preflop, nobody hits: D1 Y0# / Y#0",
            "hand 3: limp and check down to a chop where only A hits: A wins 0.25 * 2 + 10,"
            " rounded down: D10",
        ),
        scripts=(
            {1: [R(5), R(10)]},
            {1: [C, K, F], 2: [F]},
        ),
    ),
    Scenario(
        "toss",
        seed=3,
        description=(
            "hand 1: A limps, B checks; B (big blind) discards its first card, A's check"
            " acknowledging it is played without a round trip; A discards its first card;"
            " B bets 4, A calls, checked down to a showdown: O has two cards, the delta is A",
            "hand 2: B (dealer) raises to 6, A calls; A discards its third card, B its second;"
            " A bets 10, B folds",
            "hand 3: A raises all in preflop, B calls: both are still asked to discard, and"
            " to check every later street (a fold is always legal in 2026, so a check is not"
            " the only move); the acknowledgements alone go without a round trip",
        ),
        scripts=(
            {1: [C, D(0), C], 2: [C, D(2), R(10)], 3: [R(400), D(1)]},
            {1: [K, D(0), R(4)], 2: [R(6), D(1), F], 3: [C, D(2)]},
        ),
    ),
)


def transcript(scenario: Scenario) -> str:
    """The golden transcript text of ``scenario``."""
    rules = Rules.for_variant(scenario.variant)
    played = play(rules, scenario.seed, scenario.hands, scenario.scripts)
    for player in played.result.players:
        if player.fault_counts:
            # A script that does not fit its deal would record the engine's defaults.
            raise RuntimeError(
                f"{scenario.variant}: {player.name} faulted: {player.first_faults}; fix the script."
            )
    head = [
        f"# Golden transcript: {scenario.variant}, seed {scenario.seed}, "
        f"{scenario.hands} hands, MatchSettings(enforce_clock=False)",
        "# P<seat> <- is a message the engine sends to that seat; P<seat> -> is the reply.",
        "# Regenerate with: python tests/golden/regenerate.py",
        *(f"# {line}" for line in scenario.description),
    ]
    return "\n".join([*head, *played.lines]) + "\n"


def golden_path(variant: str) -> Path:
    """Where the golden transcript of ``variant`` lives."""
    return GOLDEN_DIR / f"{variant}.txt"
