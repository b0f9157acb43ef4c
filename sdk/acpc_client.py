"""The bot's side of the ACPC wire, independent of transport.

:class:`AcpcClient` reads the dealer's ``MATCHSTATE`` lines, steps the kit's one state
machine (:class:`sdk.states.RoundState`) with the actions they carry, calls the same three
:class:`~sdk.bot.Bot` callbacks as the MIT client (:class:`sdk.client.BotClient`), and
returns the reply line to send when it is this seat's turn.  A bot written for the kit
plays either wire without a change.

The ACPC wire sends neither results nor a clock, so the client works them out itself:

* a hand won by folds is settled by the state machine (``proceed``); a showdown by the
  stdlib evaluator (:func:`sdk.evaluator.evaluate`) and :meth:`RoundState.settle_ranks`,
  with the cards the final state shows.  :attr:`AcpcClient.exact_deltas` keeps the exact
  (fractional) result the dealer reports when a pot splits unevenly;
* the clock is the rules' budget minus the time measured inside ``get_action``.

Text goes through :mod:`sdk.acpc` only: positions become seats with
:func:`~sdk.acpc.seat_of_position`, and no-limit raises (totals for the hand on the wire)
become street amounts with :func:`~sdk.acpc.to_street_raise` and back with
:func:`~sdk.acpc.to_hand_total`.
"""

from __future__ import annotations

import time
from fractions import Fraction

from .acpc import (
    AcpcAction,
    AcpcProtocolError,
    MatchState,
    action_from_wire,
    action_to_wire,
    format_match_state,
    format_reply,
    is_comment,
    parse_match_state,
    seat_of_position,
    strip_line_ending,
)
from .actions import Action
from .bot import Bot
from .client import BotCaller, warn
from .evaluator import evaluate
from .gamedef import GameDef
from .pots import exact_pot_deltas
from .rules import Rules
from .states import GameState, RoundState, State, TerminalState

__all__ = ["AcpcClient"]


class AcpcClient(BotCaller):
    """Turns ACPC ``MATCHSTATE`` lines into bot callbacks and reply lines.

    ``rules`` must describe the dealer's game (``GameDef.to_rules()`` of its game file, or
    an ACPC preset); ``game``, when given, makes the parser check every line against the
    game definition too.  Feed :meth:`handle` every line the dealer sends, in order.
    """

    def __init__(self, bot: Bot, rules: Rules, game: GameDef | None = None) -> None:
        if not isinstance(bot, Bot):
            raise TypeError(f"AcpcClient needs a Bot, not {type(bot).__name__}.")
        if game is not None and game.num_players != rules.seats:
            raise ValueError(
                f"the game definition has {game.num_players} players but the rules "
                f"{rules.seats} seats; build the rules with game.to_rules()."
            )
        super().__init__(bot)
        self.rules = rules
        self.game = game
        self.game_state = GameState(0, rules.game_clock, 1)
        """The match as the bot sees it: bankroll, clock, hand number (from 1)."""
        self.round_state: State | None = None
        """The state of the hand in play (a :class:`TerminalState` once it is over)."""
        self.seat = 0
        """This bot's seat in the current hand (0 = the button)."""
        self.hand_number: int | None = None
        """The dealer's number of the current hand (from 0), None before the first."""
        self.deltas: list[tuple[int, ...]] = []
        """Each finished hand's chip changes by seat, in whole chips (as the bot is told)."""
        self.exact_deltas: list[tuple[Fraction, ...]] = []
        """Each finished hand's exact chip changes by seat, as the dealer reports them (a pot
        split three ways gives fractions)."""
        self.thinking = 0.0
        """Seconds spent inside ``get_action`` so far in the match."""
        self._start: RoundState | None = None
        self._applied: list[AcpcAction] = []
        self._hand_over = False

    # -- the one entry point ------------------------------------------------------------

    def handle(self, message: str | MatchState) -> str | None:
        """Apply one dealer line (or parsed state); return the reply text to send, or None.

        None means it is not this seat's turn, the hand is over, or the line is a comment.
        The reply has no line ending (see :func:`sdk.acpc.encode_line`).  Raises
        :class:`~sdk.acpc.AcpcProtocolError` for a line that cannot be read or does not fit
        the rules (for example a game with another number of players).
        """
        if isinstance(message, MatchState):
            state, line = message, format_match_state(message)
        else:
            line = strip_line_ending(message)
            if is_comment(line):
                return None
            state = parse_match_state(line, self.game)
        if state.num_players != self.rules.seats:
            raise AcpcProtocolError(
                f"the dealer's state has {state.num_players} players but these rules have "
                f"{self.rules.seats} seats; play with the dealer's game (--game FILE)."
            )
        if state.hand_number != self.hand_number:
            if self.hand_number is not None and not self._hand_over:
                warn(
                    f"hand {self.hand_number} ended without a final state this client could "
                    "settle; its result is not counted."
                )
            self._begin_hand(state)
        elif self._hand_over:
            warn(f"a state of hand {state.hand_number} arrived after it ended; ignored.")
            return None
        current = self._advance(state)
        if isinstance(current, TerminalState):
            self._finish_hand(current, state)
            return None
        if current.actor != self.seat:
            return None
        action = self._ask(current)
        return format_reply(line, self._to_wire(current, action))

    # -- a hand -------------------------------------------------------------------------

    def _begin_hand(self, state: MatchState) -> None:
        """A new hand: this seat's cards in, the bot told."""
        self.hand_number = state.hand_number
        self.seat = seat_of_position(state.position, state.num_players)
        hands: list[tuple[str, ...]] = [()] * self.rules.seats
        hands[self.seat] = state.own_cards
        self._start = RoundState.new_hand(self.rules, hands)
        self._applied = []
        self._hand_over = False
        self.round_state = self._start
        self.bot.handle_new_round(self.game_state, self._start, self.seat)

    def _advance(self, state: MatchState) -> State:
        """Apply the actions new since the last state (replaying the hand if the dealer's
        history is not a continuation of the one applied) and the board dealt so far."""
        actions = [action for round_actions in state.betting for action in round_actions]
        applied = self._applied
        current = self.round_state
        assert self._start is not None and current is not None
        if actions[: len(applied)] != applied:
            warn(
                f"hand {state.hand_number}: the dealer's betting {format_match_state(state)!r} "
                "does not continue the one this client applied; replaying the hand."
            )
            applied, current = [], self._start
        current = _with_board(current, state)
        for action in actions[len(applied) :]:
            if not isinstance(current, RoundState):
                raise AcpcProtocolError(
                    f"the state {format_match_state(state)!r} carries actions after the hand "
                    "ended by these rules' count; play with the dealer's game (--game FILE)."
                )
            current = _with_board(current.proceed(self._from_wire(current, action, state)), state)
            applied.append(action)
        self._applied = applied
        self.round_state = current
        if isinstance(current, RoundState) and _round_of(current) != state.round:
            warn(
                f"hand {state.hand_number}: the dealer is in round {state.round}, this client "
                f"in round {_round_of(current)}; the rules may not be the dealer's game."
            )
        return current

    def _finish_hand(self, terminal: TerminalState, state: MatchState) -> None:
        """Settle the hand from the final state, update the bankroll, tell the bot."""
        self._hand_over = True
        last = terminal.previous_state
        for position, cards in enumerate(state.holes):
            if cards:
                last = last.with_hand(seat_of_position(position, state.num_players), cards)
        if terminal.folder is None:
            board = tuple(card for cards in state.board for card in cards)
            last = last.with_board(board)
            ranks: list[int | None] = []
            for seat, out in enumerate(last.folded):
                if out:
                    ranks.append(None)
                    continue
                if not last.hands[seat]:
                    raise AcpcProtocolError(
                        f"hand {state.hand_number} ended at a showdown, but the final state "
                        f"{format_match_state(state)!r} does not show seat {seat}'s cards."
                    )
                ranks.append(evaluate((*last.hands[seat], *board)))
            terminal = last.settle_ranks(ranks)
            exact = exact_pot_deltas(last.contributions, last.folded, ranks)
        else:
            terminal = terminal._replace(previous_state=last)
            exact = tuple(Fraction(delta) for delta in terminal.deltas)
        self.round_state = terminal
        self.deltas.append(terminal.deltas)
        self.exact_deltas.append(exact)
        game = self.game_state
        game = GameState(game.bankroll + terminal.deltas[self.seat], self._clock(), game.round_num)
        self.bot.handle_round_over(game, terminal, self.seat)
        self.game_state = GameState(game.bankroll, game.game_clock, game.round_num + 1)

    # -- the bot ------------------------------------------------------------------------

    def _ask(self, state: RoundState) -> Action:
        """The bot's action, timed against the clock, repaired if illegal (with a warning)."""
        game = self.game_state
        self.game_state = GameState(game.bankroll, self._clock(), game.round_num)
        started = time.perf_counter()
        try:
            action = self.call_get_action(self.game_state, state, self.seat, game.round_num)
        finally:
            self.thinking += time.perf_counter() - started
        self.game_state = GameState(game.bankroll, self._clock(), game.round_num)
        played = state.repair(action)
        if played != action:
            warn(
                f"hand {game.round_num}: get_action returned {action}, which is not legal "
                f"here; sending {played} instead (what the ACPC dealer would play)."
            )
        return played

    def _clock(self) -> float:
        return self.rules.game_clock - self.thinking

    # -- actions between the wire and the kit ---------------------------------------------

    def _from_wire(self, state: RoundState, action: AcpcAction, line: MatchState) -> Action:
        """The kit's action for a wire action taken by the seat to act in ``state``."""
        try:
            played = action_from_wire(state, action)
        except AcpcProtocolError as error:
            raise AcpcProtocolError(
                f"{format_match_state(line)!r}: {error} Play with the dealer's game (--game FILE)."
            ) from None
        if not state.is_legal(played):
            raise AcpcProtocolError(
                f"the dealer's action {action.token!r} in {format_match_state(line)!r} is "
                f"{played}, which these rules do not allow seat {state.actor}; play with the "
                "dealer's game (--game FILE)."
            )
        return played

    def _to_wire(self, state: RoundState, action: Action) -> AcpcAction:
        """The wire action for a legal kit action of the seat to act."""
        return action_to_wire(state, action)


def _round_of(state: RoundState) -> int:
    """The betting round of a street (0 preflop, 1 flop, 2 turn, 3 river)."""
    return 0 if state.street == 0 else state.street - 2


def _with_board(state: State, line: MatchState) -> State:
    """``state`` with the board cards of its street, taken from the dealer's state."""
    if not isinstance(state, RoundState):
        return state
    board: tuple[str, ...] = ()
    for cards in line.board[: _round_of(state) + 1]:
        board += cards
    if len(board) != state.street or board == state.board:
        return state
    return state.with_board(board)
