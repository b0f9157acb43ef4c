"""Checks of a recorded real-dealer ACPC match against the kit's codec (``sdk.acpc``) and
its bot client (``sdk.acpc_client``: :func:`check_client`).

Shared by ``test_acpc_codec.py`` (the golden recordings in ``tests/acpc/``) and
``test_acpc_dealer.py`` (a live match).  A recording is what ``scripts/acpc_record.py``
captures: each seat's lines through the relay, the dealer's stderr trace, log and stdout.
"""

from __future__ import annotations

import json
import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

from sdk.acpc import (
    VERSION_LINE,
    AcpcAction,
    MatchState,
    first_to_act,
    format_log_state,
    format_match_state,
    format_reply,
    format_score,
    parse_log_state,
    parse_match_state,
    parse_reply,
    parse_score,
    parse_version,
    position_of_slot,
    seat_of_position,
    slot_of_position,
    strip_line_ending,
    to_street_raise,
    version_supported,
)
from sdk.acpc_client import AcpcClient
from sdk.actions import Action, CallAction, CheckAction, FoldAction, RaiseAction
from sdk.bot import Bot
from sdk.gamedef import GameDef, parse_gamedef
from sdk.states import GameState, RoundState, TerminalState
from tests.modules import load_file

ROOT = Path(__file__).resolve().parents[1]
Lines = list[tuple[str, str]]


@dataclass
class Golden:
    """One recorded match, as files or as a fresh recording."""

    game: GameDef
    names: list[str]
    seats: list[Lines]
    stderr: str
    log: str
    stdout: str


def load(folder: Path) -> Golden:
    """Read a ``tests/acpc/<label>`` folder."""
    manifest = json.loads((folder / "manifest.json").read_text())
    seats: list[Lines] = []
    for seat in range(1, len(manifest["names"]) + 1):
        text = (folder / f"seat-{seat}.jsonl").read_text(encoding="ascii")
        seats.append([(row[0], row[1]) for row in map(json.loads, text.splitlines())])
    return Golden(
        game=parse_gamedef(manifest["gamedef"]),
        names=manifest["names"],
        seats=seats,
        stderr=(folder / "dealer.stderr").read_bytes().decode("ascii"),
        log=(folder / "dealer.log").read_bytes().decode("ascii"),
        stdout=(folder / "dealer.stdout").read_bytes().decode("ascii"),
    )


def live_match(
    dealer_dir: Path,
    label: str,
    hands: int,
    seed: int,
    workdir: Path,
    last_seat: list[str] | None = None,
) -> Golden:
    """Play one match of the real dealer in ``dealer_dir`` through the recording relay of
    ``scripts/acpc_record.py`` and return it as a :class:`Golden`, after asserting that the
    recorder saw no problem (a dealer warning, a player's output, a bad exit).

    ``last_seat`` replaces the example player in the last seat with that command line, in
    which the word ``PORT`` stands for the port and ``GAME`` for the game file's name; the
    other seats are example players.
    """
    recorder = load_file("acpc_record", ROOT / "scripts/acpc_record.py", register=True)
    file_name, text = recorder.game_text(dealer_dir, label)
    players = recorder.GAMES[label][1]
    commands: list[list[str] | None] = []
    if last_seat is not None:
        last = [file_name if word == "GAME" else word for word in last_seat]
        commands = [None] * (players - 1) + [last]
    recording = recorder.play(
        dealer_dir, file_name, text, players, hands, seed, label, workdir, commands
    )
    assert recorder.problems(recording) == []
    return Golden(
        game=parse_gamedef(text),
        names=list(recorder.NAMES[:players]),
        seats=recording.seats,
        stderr=recording.stderr,
        log=recording.log,
        stdout=recording.stdout,
    )


@dataclass
class Hand:
    """What the checks learn about one hand: who took each action, the final views."""

    actor_at: dict[int, int] = field(default_factory=dict)  # action index -> position
    final: dict[int, MatchState] = field(default_factory=dict)  # slot -> last state sent
    actors: list[int] = field(default_factory=list)  # position of each action, in order


def flat(state: MatchState) -> list[AcpcAction]:
    """Every action of the hand so far, rounds joined."""
    return [action for actions in state.betting for action in actions]


def check_wire(golden: Golden) -> dict[int, Hand]:
    """Every line parses and re-formats byte for byte; every reply echoes its state exactly,
    and the dealer's next state carries exactly the replied action.  Returns the hands."""
    game = golden.game
    hands: dict[int, Hand] = {}
    for slot, lines in enumerate(golden.seats):
        arrow, first = lines[0]
        assert arrow == "->" and strip_line_ending(first) == VERSION_LINE
        assert version_supported(parse_version(first))
        last_line: str | None = None
        last: MatchState | None = None
        pending: tuple[MatchState, AcpcAction] | None = None
        for arrow, line in lines[1:]:
            if arrow == "<-":
                assert line.endswith("\r\n"), line
                state = parse_match_state(line, game)
                assert format_match_state(state) + "\r\n" == line
                assert parse_match_state(format_match_state(state), game) == state
                hand = hands.setdefault(state.hand_number, Hand())
                hand.final[slot] = state
                if pending is not None:
                    asked, action = pending
                    assert state.hand_number == asked.hand_number
                    assert flat(state) == [*flat(asked), action]
                    pending = None
                last_line, last = line, state
            else:
                assert last_line is not None and last is not None, "a reply before any state"
                reply = parse_reply(line, last, game)
                assert reply.echo == strip_line_ending(last_line)
                assert reply.state == last
                ending = line[len(strip_line_ending(line)) :]
                assert ending in ("\r\n", "\n")
                assert format_reply(last_line, reply.action) + ending == line
                hand = hands[last.hand_number]
                index = len(flat(last))
                assert index not in hand.actor_at, "two replies to one turn"
                hand.actor_at[index] = last.position
                pending = (last, reply.action)
    for number, hand in hands.items():
        final = next(iter(hand.final.values()))
        assert sorted(hand.actor_at) == list(range(len(flat(final)))), f"hand {number}"
        hand.actors = [hand.actor_at[index] for index in sorted(hand.actor_at)]
    return hands


def check_trace(golden: Golden) -> None:
    """The relay passed on exactly what the dealer says it sent and received, per seat."""
    traced: list[Lines] = [[] for _ in golden.seats]
    for line in golden.stderr.split("\n")[:-1]:
        assert not re.search("WARNING|ERROR", line), line
        match = re.fullmatch(r"(TO|FROM) ([0-9]+) at [0-9]+\.[0-9]+ (.*)", line, re.S)
        if match:
            arrow = "<-" if match.group(1) == "TO" else "->"
            traced[int(match.group(2)) - 1].append((arrow, match.group(3) + "\n"))
    for slot, lines in enumerate(golden.seats):
        assert lines[1:] == traced[slot], f"seat {slot + 1}: relay and dealer trace differ"


def check_log(golden: Golden, hands: dict[int, Hand]) -> list[tuple[int, list[Decimal]]]:
    """The log's STATE and SCORE lines round-trip, agree with every seat's last view of each
    hand (positions rotate as :func:`slot_of_position` says) and with the stdout score.
    Returns (hand, values by position) per hand."""
    game, count = golden.game, len(golden.seats)
    totals = [Decimal(0)] * count
    results = []
    log_lines = golden.log.split("\n")
    assert log_lines[-1] == ""
    states = [line for line in log_lines[:-1] if line.startswith("STATE")]
    assert states and len(states) == len(hands)
    for line in states:
        log = parse_log_state(line, game)
        assert format_log_state(log) + "\n" == line + "\n"
        assert sum(log.values) == 0
        for position in range(count):
            slot = slot_of_position(position, log.hand_number, count)
            assert position_of_slot(slot, log.hand_number, count) == position
            assert log.names[position] == golden.names[slot]
            totals[slot] += log.values[position]
            final = hands[log.hand_number].final[slot]
            assert final.position == position
            assert final.betting == log.betting and final.board == log.board
            assert final.own_cards == log.holes[position]
            for other, cards in enumerate(final.holes):
                assert cards in ((), log.holes[other])
        results.append((log.hand_number, list(log.values)))
    score_line = log_lines[-2]
    score = parse_score(score_line)
    assert format_score(score) == score_line
    assert list(score.names) == golden.names
    assert list(score.values) == totals
    out = golden.stdout.split("\n")
    assert len(out) == 3 and out[2] == "" and len(out[0].split()) == count
    assert out[1] == score_line
    return results


def replay(game: GameDef, state: MatchState | list[list[AcpcAction]], actors: list[int]) -> Spent:
    """Chips each position had put in before every round (0 preflop: blinds are preflop
    bets) and at the end (a test-only stand-in for the state machine: limit and no-limit,
    folds, all-ins)."""
    betting = [list(a) for a in state.betting] if isinstance(state, MatchState) else state
    count = game.num_players
    spent = list(game.blind)
    folded = [False] * count
    at_start: list[tuple[int, ...]] = []
    first_actors: list[int | None] = []
    turn = 0
    for number, actions in enumerate(betting):
        # Blinds are bets of the preflop street: nothing is committed before it.
        at_start.append(tuple(spent) if number else (0,) * count)
        first_actors.append(actors[turn] if actions else None)
        for action in actions:
            actor = actors[turn]
            turn += 1
            high = max(spent)
            if action.kind == "f":
                folded[actor] = True
            elif action.kind == "c":
                spent[actor] = min(high, game.stack[actor])
            elif action.amount is None:
                spent[actor] = high + game.raise_size[number]
            else:
                spent[actor] = action.amount
    return Spent(at_start, tuple(spent), tuple(folded), first_actors)


@dataclass
class Spent:
    """What :func:`replay` found."""

    at_start: list[tuple[int, ...]]
    final: tuple[int, ...]
    folded: tuple[bool, ...]
    first_actors: list[int | None]


def check_order_and_blinds(golden: Golden, hands: dict[int, Hand]) -> int:
    """Each round opens with ``first_to_act`` (or the next position that can still act), and a
    hand won by folds pays what the blinds by position and the bets say.  Returns how many
    hands ended by folds (so a test can insist on some)."""
    game, count = golden.game, len(golden.seats)
    fold_wins = 0
    log_values = {}
    for line in golden.log.split("\n"):
        if line.startswith("STATE"):
            log = parse_log_state(line, game)
            log_values[log.hand_number] = log.values
    for number, hand in hands.items():
        final = next(iter(hand.final.values()))
        spent = replay(game, final, hand.actors)
        for round_number, opener in enumerate(spent.first_actors):
            if opener is None:
                continue
            candidate = first_to_act(game, round_number)
            before = spent.at_start[round_number]
            # Skip positions that folded earlier or are all-in: they no longer act.
            folded_before = _folded_before(final, hand.actors, round_number, count)
            while folded_before[candidate] or (
                round_number and before[candidate] >= game.stack[candidate]
            ):
                candidate = (candidate + 1) % count
            assert opener == candidate, (number, round_number)
        if sum(not f for f in spent.folded) == 1:
            fold_wins += 1
            winner = spent.folded.index(False)
            expected = [Decimal(-chips) for chips in spent.final]
            expected[winner] = Decimal(sum(spent.final) - spent.final[winner])
            assert list(log_values[number]) == expected, number
    return fold_wins


def _folded_before(
    state: MatchState, actors: list[int], round_number: int, count: int
) -> list[bool]:
    """Which positions folded before a round."""
    folded = [False] * count
    turn = 0
    for number, actions in enumerate(state.betting):
        if number == round_number:
            break
        for action in actions:
            if action.kind == "f":
                folded[actors[turn]] = True
            turn += 1
    return folded


def check_all(golden: Golden) -> dict[int, Hand]:
    """Every check above; returns the hands."""
    hands = check_wire(golden)
    check_trace(golden)
    check_log(golden, hands)
    check_order_and_blinds(golden, hands)
    return hands


# --- the bot client (sdk.acpc_client) on a recorded seat ---------------------------------


class Scripted(Bot):
    """Plays the wire actions it is given, in order, as kit actions; records the callbacks."""

    def __init__(self, actions: list[AcpcAction]) -> None:
        self.actions = deque(actions)
        self.new_rounds: list[tuple[GameState, RoundState, int]] = []
        self.rounds_over: list[tuple[GameState, TerminalState, int]] = []

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        self.new_rounds.append((game_state, round_state, active))

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        self.rounds_over.append((game_state, terminal_state, active))

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        assert round_state.actor == active
        wire = self.actions.popleft()
        if wire.kind == "f":
            return FoldAction()
        if wire.kind == "c":
            return CallAction() if round_state.continue_cost else CheckAction()
        if wire.amount is None:
            return RaiseAction(round_state.raise_bounds()[0])
        before = round_state.contributions[active] - round_state.pips[active]
        return RaiseAction(to_street_raise(wire.amount, before))


def recorded_replies(lines: list[tuple[str, str]]) -> list[AcpcAction]:
    """The recorded player's action in every reply it sent."""
    return [parse_reply(line).action for arrow, line in lines[1:] if arrow == "->"]


def play_seat(golden: Golden, slot: int) -> tuple[AcpcClient, Scripted, int]:
    """Feed one recorded seat to a client; check every reply against the recording.

    Returns the client, its bot and how many replies it sent."""
    lines = golden.seats[slot]
    bot = Scripted(recorded_replies(lines))
    client = AcpcClient(bot, golden.game.to_rules(), golden.game)
    replies = 0
    for index, (arrow, line) in enumerate(lines[1:], start=1):
        if arrow == "->":
            continue
        reply = client.handle(line)
        following = lines[index + 1] if index + 1 < len(lines) else None
        if following is not None and following[0] == "->":
            assert reply == strip_line_ending(following[1]), (slot, line)
            replies += 1
        else:
            assert reply is None, (slot, line, reply)
    assert not bot.actions, "the client did not ask the bot for every recorded action"
    return client, bot, replies


def check_client(golden: Golden, slots: Sequence[int] | None = None) -> None:
    """Every seat (or ``slots``) fed to an :class:`AcpcClient` whose bot replays the recorded
    player: the client replies exactly as recorded, and its per-hand results are the
    dealer's ``STATE`` values (exact; whole chips where the dealer's value is whole)."""
    count = golden.game.num_players
    logs = [
        parse_log_state(line, golden.game)
        for line in golden.log.split("\n")
        if line.startswith("STATE")
    ]
    assert [log.hand_number for log in logs] == list(range(len(logs)))
    for slot in range(count) if slots is None else slots:
        client, bot, replies = play_seat(golden, slot)
        assert replies > 0
        assert len(client.deltas) == len(client.exact_deltas) == len(logs)
        assert len(bot.new_rounds) == len(bot.rounds_over) == len(logs)
        for log, whole, exact, (game, terminal, seat) in zip(
            logs, client.deltas, client.exact_deltas, bot.rounds_over, strict=True
        ):
            position = position_of_slot(slot, log.hand_number, count)
            assert seat == seat_of_position(position, count)
            for other in range(count):
                value = log.values[other]
                kit_seat = seat_of_position(other, count)
                # The dealer prints %.6f of its double, trailing zeros trimmed.
                assert Decimal(f"{float(exact[kit_seat]):.6f}") == value, (log, exact)
                if value == value.to_integral_value():
                    assert whole[kit_seat] == value, (log, whole)
                else:
                    assert abs(whole[kit_seat] - exact[kit_seat]) < 1, (log, whole)
            assert terminal.deltas == whole and sum(whole) == 0
            assert sum(exact) == 0
            assert game.round_num == log.hand_number + 1
        # The bankroll is the bot's own running sum, already counting the hand just over.
        bankrolls = [game.bankroll for game, _, _ in bot.rounds_over]
        running = 0
        for (_, terminal, seat), bankroll in zip(bot.rounds_over, bankrolls, strict=True):
            running += terminal.deltas[seat]
            assert bankroll == running
        assert client.game_state.round_num == len(logs) + 1
        assert client.errors == 0


#: A bot program (for a test's bot folder) that speaks the ACPC wire but always echoes the
#: hand's first state: every later reply answers an old state, a misformatted reply.
STALE_ECHO = """
    import socket, sys
    sock = socket.create_connection((sys.argv[-2], int(sys.argv[-1])))
    channel = sock.makefile("rw", newline="")
    channel.write("VERSION:2.0.0\\r\\n"); channel.flush()
    first = None
    while line := channel.readline():
        state = line.strip()
        first = first or state
        channel.write(first + ":c\\r\\n")  # always answers the hand's first state
        channel.flush()
"""
