"""The bot client of the ACPC wire (``sdk.acpc_client``) against real dealer recordings.

Each recorded seat of ``tests/acpc/`` (real ``dealer`` + ``example_player`` matches, see its
README) is fed line by line to an :class:`AcpcClient` whose bot replays what the recorded
``example_player`` did: the client must answer exactly where and what the player answered,
and its per-hand results must be the dealer's ``STATE`` values.  No dealer is needed.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdk import Bot
from sdk.acpc import (
    AcpcAction,
    AcpcProtocolError,
    MatchState,
    format_match_state,
    position_of_seat,
    seat_of_position,
    strip_line_ending,
    to_hand_total,
)
from sdk.acpc_client import AcpcClient
from sdk.actions import Action, CallAction, FoldAction, RaiseAction
from sdk.client import ERROR_PREFIX, WARNING_PREFIX
from sdk.evaluator import evaluate
from sdk.gamedef import ACPC_GAMES
from sdk.games import PRESETS
from sdk.rules import Rules
from sdk.runner import parse_args, run_bot
from sdk.states import GameState, RoundState, TerminalState
from tests.acpc_checks import Golden, Scripted, check_client, load, play_seat, recorded_replies

GOLDEN = Path(__file__).resolve().parents[1] / "acpc"
LABELS = ("acpc-2pl", "acpc-3pl", "nolimit-2p-server", "acpc-2pn")


@pytest.fixture(scope="module", params=LABELS)
def golden(request: pytest.FixtureRequest) -> Golden:
    return load(GOLDEN / request.param)


def test_client_replies_as_recorded_and_settles_as_the_dealer(golden: Golden) -> None:
    check_client(golden)


def test_recordings_cover_showdowns_folds_and_all_ins() -> None:
    """The recorded hands exercise every way a hand ends, so the test above means something."""
    showdowns = folds = all_ins = 0
    for label in LABELS:
        golden = load(GOLDEN / label)
        for slot in range(golden.game.num_players):
            _, bot, _ = play_seat(golden, slot)
            for _, terminal, _ in bot.rounds_over:
                if terminal.folder is None:
                    showdowns += 1
                    last = terminal.previous_state
                    all_ins += any(stack == 0 for stack in last.stacks)
                else:
                    folds += 1
    assert showdowns and folds and all_ins


def test_own_cards_seat_and_board_reach_the_bot() -> None:
    golden = load(GOLDEN / "acpc-3pl")
    first = next(line for arrow, line in golden.seats[0] if arrow == "<-")
    client, bot, _ = play_seat(golden, 0)
    game, state, seat = bot.new_rounds[0]
    assert seat == seat_of_position(0, 3) == 1
    assert state.hands[seat] == tuple(first.split(":")[4].split("|")[0][i : i + 2] for i in (0, 2))
    assert game == GameState(0, client.rules.game_clock, 1)
    # Every showdown's last state has the full board and every remaining seat's cards.
    for _, terminal, _ in bot.rounds_over:
        last = terminal.previous_state
        if terminal.folder is None:
            assert len(last.board) == 5
            assert all(last.hands[s] for s in range(3) if not last.folded[s])


# --- small hand-made sequences -------------------------------------------------------------


class Always(Bot):
    """Plays one kit action every time; counts the callbacks."""

    def __init__(self, action: Action) -> None:
        self.action = action
        self.over: list[TerminalState] = []
        self.asked = 0

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        self.over.append(terminal_state)

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        self.asked += 1
        return self.action


def test_no_limit_raise_is_sent_as_the_total_for_the_hand() -> None:
    rules = PRESETS["acpc-2pn"]
    bot = Always(RaiseAction(10))
    client = AcpcClient(bot, rules, ACPC_GAMES["acpc-2pn"])
    # Position 1 is the button (seat 0), first to act preflop: raise to 10 on the street.
    assert client.handle("MATCHSTATE:1:0::|AsKs\r\n") == "MATCHSTATE:1:0::|AsKs:r10"
    assert client.handle("MATCHSTATE:1:0:r10:|AsKs\r\n") is None
    assert client.handle("MATCHSTATE:1:0:r10c/:|AsKs/2c3d4h\r\n") is None
    # The big blind bets 20 on the flop: its total is 30.  Our raise to 10 on the street is
    # illegal (too small), so the client repairs it to the minimum, to 40 on the street.
    reply = client.handle("MATCHSTATE:1:0:r10c/r30:|AsKs/2c3d4h\n")
    assert reply == f"MATCHSTATE:1:0:r10c/r30:|AsKs/2c3d4h:r{to_hand_total(40, 10)}"
    # The big blind folds: we win its 30.
    assert client.handle("MATCHSTATE:1:0:r10c/r30r50f:|AsKs/2c3d4h") is None
    assert client.deltas == [(30, -30)]
    assert bot.over[0].folder == 1
    assert client.game_state.bankroll == 30 and client.game_state.round_num == 2


def test_comments_are_skipped_and_only_the_actor_is_asked() -> None:
    bot = Always(CallAction())
    client = AcpcClient(bot, PRESETS["acpc-2pl"])
    assert client.handle("# a comment\r\n") is None
    assert client.handle("; another\n") is None
    # Position 0 is the big blind; the button (position 1) acts first preflop.
    assert client.handle("MATCHSTATE:0:0::AsKs|") is None
    assert bot.asked == 0
    assert client.handle("MATCHSTATE:0:0:r:AsKs|") == "MATCHSTATE:0:0:r:AsKs|:c"
    assert bot.asked == 1


def test_showdown_is_settled_with_the_evaluator_and_all_in_runs_out() -> None:
    bot = Always(CallAction())
    client = AcpcClient(bot, PRESETS["acpc-2pn"], ACPC_GAMES["acpc-2pn"])
    assert client.handle("MATCHSTATE:0:3::AhAd|") is None
    assert client.handle("MATCHSTATE:0:3:r400:AhAd|") == "MATCHSTATE:0:3:r400:AhAd|:c"
    assert client.handle("MATCHSTATE:0:3:r400c///:AhAd|KsKc/2c7d9h/Js/3s") is None
    assert client.deltas == [(-400, 400)]  # seat 1 (the big blind, position 0) wins
    terminal = bot.over[0]
    assert terminal.folder is None and terminal.previous_state.board[-1] == "3s"
    assert terminal.previous_state.hands == (("Ks", "Kc"), ("Ah", "Ad"))


def test_a_history_that_does_not_continue_is_replayed(capsys: pytest.CaptureFixture[str]) -> None:
    bot = Always(CallAction())
    client = AcpcClient(bot, PRESETS["acpc-2pl"])
    client.handle("MATCHSTATE:0:0:r:AsKs|")
    # The dealer's next state is not a continuation of "r": the client replays from scratch.
    assert client.handle("MATCHSTATE:0:0:c:AsKs|") == "MATCHSTATE:0:0:c:AsKs|:c"
    assert "replaying the hand" in capsys.readouterr().err
    # Heads-up the big blind (position 0) acts first after preflop.
    reply = client.handle("MATCHSTATE:0:0:cc/:AsKs|/2c3d4h")
    assert reply == "MATCHSTATE:0:0:cc/:AsKs|/2c3d4h:c"
    state = client.round_state
    assert isinstance(state, RoundState) and state.board == ("2c", "3d", "4h")
    assert state.pips == (0, 0) and state.contributions == (10, 10)


def test_bot_errors_count_and_default(capsys: pytest.CaptureFixture[str]) -> None:
    class Broken(Bot):
        def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
            raise RuntimeError("boom")

    client = AcpcClient(Broken(), PRESETS["acpc-2pl"])
    assert client.handle("MATCHSTATE:0:0:r:AsKs|") == "MATCHSTATE:0:0:r:AsKs|:f"
    assert client.handle("MATCHSTATE:0:0:rf:AsKs|") is None  # the hand is over
    assert client.handle("MATCHSTATE:1:1::|AsKs") == "MATCHSTATE:1:1::|AsKs:f"
    assert client.errors == 2 and client.deltas[0] == (10, -10)  # seat 0 takes the big blind
    err = capsys.readouterr().err
    assert err.count(ERROR_PREFIX + "hand ") == 2 and "RuntimeError: boom" in err
    assert client.first_error is not None and client.first_error.startswith("hand 1:")


def test_illegal_actions_are_repaired_with_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    client = AcpcClient(Always(FoldAction()), PRESETS["acpc-2pl"])
    # A fold when checking is free: the dealer would play a call (check); so does the client.
    assert client.handle("MATCHSTATE:0:0:c:AsKs|") == "MATCHSTATE:0:0:c:AsKs|:c"
    assert WARNING_PREFIX in capsys.readouterr().err


def test_clock_counts_down_by_the_time_spent_in_get_action() -> None:
    client = AcpcClient(Always(CallAction()), PRESETS["acpc-2pl"])
    client.handle("MATCHSTATE:0:0:r:AsKs|")
    assert 0 < client.thinking < 1
    budget = PRESETS["acpc-2pl"].game_clock
    assert client.game_state.game_clock == pytest.approx(budget - client.thinking)


@pytest.mark.parametrize(
    ("rules", "line", "message"),
    [
        (PRESETS["acpc-2pl"], "MATCHSTATE:0:0::AsKs||", "3 players but these rules have 2"),
        (PRESETS["acpc-2pl"], "MATCHSTATE:0:0:r20:AsKs|", "these rules are limit"),
        (PRESETS["acpc-2pn"], "MATCHSTATE:0:0:r:AsKs|", "these rules are no-limit"),
        (PRESETS["acpc-2pn"], "MATCHSTATE:0:0:r1:AsKs|", "do not allow"),
        (PRESETS["acpc-2pl"], "MATCHSTATE:0:0:fc:AsKs|", "after the hand ended"),
        (PRESETS["acpc-2pl"], "MATCHSTATE:0:0:f:AsKs|c", "are not cards"),
        (PRESETS["acpc-2pl"], "MATCHSTATE:0:0:crr:AsKs|", None),
    ],
)
def test_lines_that_do_not_fit_the_rules_say_why(
    rules: Rules, line: str, message: str | None
) -> None:
    client = AcpcClient(Always(CallAction()), rules)
    if message is None:
        assert client.handle(line) == line + ":c"
        return
    with pytest.raises(AcpcProtocolError, match=message):
        client.handle(line)


def test_game_and_rules_must_agree() -> None:
    with pytest.raises(ValueError, match="3 players but the rules 2 seats"):
        AcpcClient(Always(CallAction()), PRESETS["acpc-2pl"], ACPC_GAMES["acpc-3pl"])
    with pytest.raises(TypeError, match="needs a Bot"):
        AcpcClient(object(), PRESETS["acpc-2pl"])  # type: ignore[arg-type]


# --- property: a full-information hand seen through every position -------------------------


def _wire(state: RoundState, action: Action) -> AcpcAction:
    """What the dealer writes for a kit action (the engine side, for this test only)."""
    if isinstance(action, FoldAction):
        return AcpcAction("f")
    if isinstance(action, RaiseAction):
        if state.rules.limit is not None:
            return AcpcAction("r")
        before = state.contributions[state.actor] - state.pips[state.actor]
        return AcpcAction("r", to_hand_total(action.amount, before))
    return AcpcAction("c")


@st.composite
def hands(
    draw: st.DrawFn,
) -> tuple[str, list[tuple[MatchState, ...]], list[int], TerminalState]:
    """A random legal hand of an ACPC preset, played with full information: for every state
    after every action, what each position is sent; the position of each action's actor;
    and the true result."""
    label = draw(st.sampled_from(["acpc-2pl", "acpc-2pn", "acpc-3pl"]))
    rules = PRESETS[label]
    count = rules.seats
    deck = draw(st.permutations([r + s for r in "23456789TJQKA" for s in "cdhs"]))
    holes = [tuple(deck[2 * seat : 2 * seat + 2]) for seat in range(count)]
    board = deck[2 * count : 2 * count + 5]
    state: RoundState | TerminalState = RoundState.new_hand(rules, holes)
    rounds: list[list[AcpcAction]] = [[]]
    views: list[tuple[MatchState, ...]] = []
    actors: list[int] = []

    def view(final: bool, folded: tuple[bool, ...]) -> tuple[MatchState, ...]:
        reached = len(rounds)
        shown = [0, 3, 4, 5][reached - 1]
        cuts = [(0, 0), (0, 3), (3, 4), (4, 5)][:reached]
        result = []
        for position in range(count):
            seats = [seat_of_position(p, count) for p in range(count)]
            cards = tuple(
                holes[seat] if seat == seats[position] or (final and not folded[seat]) else ()
                for seat in seats
            )
            result.append(
                MatchState(
                    position,
                    4,
                    tuple(tuple(r) for r in rounds),
                    cards,
                    tuple(tuple(board[a:b]) for a, b in cuts),
                )
            )
        assert shown == sum(len(c) for c in result[0].board)
        return tuple(result)

    views.append(view(False, (False,) * count))
    while isinstance(state, RoundState):
        legal = sorted(state.legal_actions(), key=lambda kind: kind.__name__)
        kind = draw(st.sampled_from(legal))
        if kind is RaiseAction:
            low, high = state.raise_bounds()
            action: Action = RaiseAction(draw(st.integers(low, high)))
        else:
            action = kind()
        actors.append(position_of_seat(state.actor, count))
        rounds[-1].append(_wire(state, action))
        after = state.proceed(action)
        if isinstance(after, TerminalState):
            if after.folder is None:
                last = after.previous_state.with_board(tuple(board))
                ranks = [
                    None if last.folded[s] else evaluate((*holes[s], *board)) for s in range(count)
                ]
                after = last.settle_ranks(ranks)
                while len(rounds) < 4:
                    rounds.append([])
            views.append(view(True, after.previous_state.folded))
        else:
            while len(rounds) - 1 < (0 if after.street == 0 else after.street - 2):
                rounds.append([])
            after = after.with_board(tuple(board[: after.street]))
            views.append(view(False, after.folded))
        state = after
    assert isinstance(state, TerminalState)
    return label, views, actors, state


@settings(max_examples=60, deadline=None)
@given(hands(), st.data())
def test_every_position_follows_a_random_hand(
    case: tuple[str, list[tuple[MatchState, ...]], list[int], TerminalState],
    data: st.DataObject,
) -> None:
    """Whatever the table size, game and betting, every position's client answers exactly
    its own turns with the action taken and settles the hand as full information does;
    also when some states between its turns never reach it (several new actions at once)."""
    label, views, actors, truth = case
    rules = PRESETS[label]
    count = rules.seats
    for position in range(count):
        seat = seat_of_position(position, count)
        own = [
            views[index + 1][position].betting
            for index, actor in enumerate(actors)
            if actor == position
        ]
        bot = Scripted([_last_action(betting) for betting in own])
        client = AcpcClient(bot, rules, ACPC_GAMES[label])
        for index, states in enumerate(views):
            acts = index < len(actors) and actors[index] == position
            if 0 < index < len(views) - 1 and not acts and data.draw(st.booleans()):
                continue
            reply = client.handle(states[position])
            if acts:
                action = _last_action(views[index + 1][position].betting)
                assert reply == f"{format_match_state(states[position])}:{action.token}"
            else:
                assert reply is None
        assert client.deltas == [truth.deltas]
        assert sum(client.exact_deltas[0]) == 0
        exact = client.exact_deltas[0]
        assert all(abs(e - w) < 1 for e, w in zip(exact, truth.deltas, strict=True))
        assert bot.rounds_over[0][2] == seat
        assert client.game_state.bankroll == truth.deltas[seat]


def _last_action(betting: tuple[tuple[AcpcAction, ...], ...]) -> AcpcAction:
    return [a for r in betting for a in r][-1]


# --- the transport: parse_args and run_bot on the ACPC wire --------------------------------


def test_parse_args_protocol_and_game() -> None:
    args = parse_args(["--protocol", "acpc", "--game", "x.game", "example.org", "5000"])
    assert (args.host, args.port, args.protocol) == ("example.org", 5000, "acpc")
    assert args.game == "x.game"
    plain = parse_args(["5000"])
    assert (plain.host, plain.port, plain.protocol, plain.game) == ("localhost", 5000, None, None)
    with pytest.raises(SystemExit):
        parse_args(["--protocol", "mit", "--game", "x.game", "5000"])
    with pytest.raises(SystemExit):
        parse_args(["--protocol", "udp", "5000"])


def test_run_bot_acpc_needs_a_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("POKERBOTS_RULES", raising=False)
    args = parse_args(["--protocol", "acpc", "1"])
    with pytest.raises(ValueError, match="pass --game FILE"):
        run_bot(Always(CallAction()), args)
    missing = parse_args(["--protocol", "acpc", "--game", str(tmp_path / "none.game"), "1"])
    with pytest.raises(ValueError, match="could not read the ACPC game file"):
        run_bot(Always(CallAction()), missing)


@pytest.mark.parametrize("label", LABELS)
def test_run_bot_replays_a_recorded_seat_over_a_socket(
    label: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fake dealer plays back a recorded seat over TCP (comments and bare ``\\n`` endings
    mixed in); ``run_bot(..., protocol="acpc")`` must send the version line, then exactly
    the recorded replies."""
    monkeypatch.delenv("POKERBOTS_RULES", raising=False)
    golden = load(GOLDEN / label)
    lines = golden.seats[-1]
    game_file = tmp_path / "game.game"
    game_file.write_text(golden.game.to_text())
    bot = Scripted(recorded_replies(lines))
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(20)
    problems: list[str] = []

    def dealer() -> None:
        connection, _ = listener.accept()
        connection.settimeout(20)
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        reader = connection.makefile("rb")
        try:
            for index, (arrow, line) in enumerate(lines):
                if arrow == "->":
                    got = reader.readline().decode("ascii")
                    if got != strip_line_ending(line) + "\r\n":
                        problems.append(f"line {index}: {got!r} != {line!r}")
                        return
                    continue
                data = line if index % 3 else strip_line_ending(line) + "\n"
                if index % 5 == 0:
                    data = "# a comment the client skips\r\n;another\n" + data
                connection.sendall(data.encode("ascii"))
        finally:
            reader.close()
            connection.close()

    thread = threading.Thread(target=dealer)
    thread.start()
    args = parse_args(["--game", str(game_file), "127.0.0.1", str(listener.getsockname()[1])])
    run_bot(bot, args, protocol="acpc")
    thread.join(30)
    listener.close()
    assert problems == []
    assert not bot.actions
    assert len(bot.rounds_over) == len(golden.log.split("STATE:")) - 1
