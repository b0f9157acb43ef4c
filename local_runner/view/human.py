"""A person at the table: a bot whose decisions are typed at the terminal.

:class:`HumanBot` is an ordinary :class:`sdk.Bot`, played through the SDK's own
client in an in-process seat (:class:`HumanSeat`), so the engine, the rules and
the logs are those of any match.  It prints what the person may know (their
cards, the board, the pot and stacks, what the opponent did, swaps, auction
results, bounty ranks and hits, the opponent's cards at a showdown, the running
result) and asks for an action until the answer is legal: a wrong answer is
re-asked with the reason, so it is never a fault.  The seat charges no time,
so the person has no clock.  Ctrl-C (or the end of input) ends the match; the
logs of the hands finished are written as for any match.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sdk.actions import (
    HIDDEN_BID,
    Action,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    FoldAction,
    RaiseAction,
)
from sdk.bot import Bot
from sdk.client import BotClient
from sdk.rules import Rules
from sdk.states import GameState, RoundState, TerminalState

from ..engine.seats import InProcessSeat, Reply
from .timeline import describe_action, street_name

__all__ = ["HumanBot", "HumanSeat", "human_seat_factory", "parse_answer"]

_ANSWER = re.compile(r"\s*([a-z]+)\s*(-?\d+)?\s*\Z")
_WORDS = {
    "f": FoldAction,
    "fold": FoldAction,
    "c": CallAction,
    "call": CallAction,
    "k": CheckAction,
    "x": CheckAction,
    "check": CheckAction,
    "r": RaiseAction,
    "raise": RaiseAction,
    "b": RaiseAction,
    "bet": RaiseAction,
    "a": BidAction,
    "bid": BidAction,
    "d": DiscardAction,
    "discard": DiscardAction,
}


def parse_answer(text: str, state: RoundState) -> Action | str:
    """The action typed in ``text``, or a sentence saying why it cannot be played now."""
    match = _ANSWER.match(text.lower())
    if match is None or match.group(1) not in _WORDS:
        return (
            "type f (fold), c (call), k (check), r N (raise to N), a N (bid N) or "
            "d N (discard card N)"
        )
    kind, number = _WORDS[match.group(1)], match.group(2)
    legal = state.legal_actions()
    if kind not in legal:
        names = ", ".join(sorted(_legal_words(state)))
        return f"{kind.__name__.removesuffix('Action').lower()} is not legal now; you may {names}"
    if kind is DiscardAction:
        indices = state.discard_indices()
        if number is None or int(number) not in indices:
            cards = ", ".join(f"{i} ({card})" for i, card in enumerate(state.hands[state.actor]))
            return f"say which card: d N, with N one of {cards}"
        return DiscardAction(int(number))
    if kind in (RaiseAction, BidAction):
        low, high = state.raise_bounds() if kind is RaiseAction else state.bid_bounds()
        if number is None:
            return f"say how much: {match.group(1)} N, with N from {low} to {high}"
        amount = int(number)
        if not low <= amount <= high:
            return f"{amount} is out of bounds: choose from {low} to {high}"
        return RaiseAction(amount) if kind is RaiseAction else BidAction(amount)
    if number is not None:
        return f"{match.group(1)} takes no amount"
    simple: dict[type, Action] = {
        FoldAction: FoldAction(),
        CallAction: CallAction(),
        CheckAction: CheckAction(),
    }
    return simple[kind]


def _legal_words(state: RoundState) -> list[str]:
    words = []
    legal = state.legal_actions()
    if FoldAction in legal:
        words.append("fold (f)")
    if CheckAction in legal:
        words.append("check (k)")
    if CallAction in legal:
        words.append(f"call {state.continue_cost} (c)")
    if RaiseAction in legal:
        low, high = state.raise_bounds()
        verb = "bet" if state.pips[0] == state.pips[1] == 0 else "raise to"
        words.append(f"{verb} {low}-{high} (r N)")
    if BidAction in legal:
        low, high = state.bid_bounds()
        words.append(f"bid {low}-{high} (a N)")
    if DiscardAction in legal:
        words.append("discard a card (d N)")
    return words


class HumanBot(Bot):
    """Asks a person for every decision; ``read`` gets a line (raises EOFError at the end)."""

    def __init__(
        self,
        rules: Rules,
        opponent: str,
        read: Callable[[str], str] = input,
        write: Callable[[str], object] = print,
    ) -> None:
        self.rules = rules
        self.opponent = opponent
        self.read = read
        self.write = write
        self._cards: tuple[str, ...] = ()
        self._auction_told = False
        self._street = 0  # the street whose line was shown last (the hand's line: preflop)

    def narrate(self, seat: int, mine: int, action: Action, state: RoundState) -> None:
        """Say what the opponent just did (the person knows what they did themselves); an
        action that opens a street comes after the street's line."""
        if seat == mine:
            return
        if state.street != self._street:
            self._street = state.street
            name = street_name(state.street, state.rules)
            self.write(f"  {name} · board {' '.join(state.board) or '-'} · pot {state.pot}")
        if isinstance(action, BidAction) and action.amount == HIDDEN_BID:
            self.write(f"  {self.opponent} places a sealed bid")
        else:
            self.write(f"  {self.opponent} {describe_action(action, state)}")

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        """Announce the hand: the seats, the person's cards and bounty rank."""
        self._cards = round_state.hands[active]
        self._auction_told = False
        self._street = 0
        role = "the dealer (small blind)" if active == 0 else "the big blind"
        self.write("")
        self.write(
            f"== hand {game_state.round_num} · you are {role} · your result so far "
            f"{game_state.bankroll:+d}"
        )
        self.write(f"  your cards: {' '.join(self._cards)}")
        rank = round_state.bounties[active]
        if rank:
            self.write(f"  your bounty rank: {rank}")

    def _tell_swap(self, cards: tuple[str, ...]) -> None:
        """Say so when the person's hole cards changed (Swap Hold'em); an auction card is told
        with the auction."""
        if cards != self._cards and tuple(cards[:2]) != tuple(self._cards[:2]):
            self.write(
                f"  your cards were swapped: {' '.join(self._cards[:2])} -> {' '.join(cards[:2])}"
            )
        self._cards = cards

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Show the table and ask until the answer is a legal action."""
        state = round_state
        cards = state.hands[active]
        self._tell_swap(cards)
        if not self._auction_told and None not in state.bids and not state.auction:
            self._auction_told = True
            bids = state.bids
            won = len(cards) == 3
            self.write(
                f"  auction: you bid {bids[active]}, {self.opponent} bid "
                f"{bids[1 - active]}; "
                + (f"you won {cards[2]}" if won else f"{self.opponent} won a third card")
            )
        table = (
            f"pot {state.pot} · you {' '.join(cards)}, stack {state.stacks[active]}, in "
            f"{state.pips[active]} · {self.opponent} stack {state.stacks[1 - active]}, in "
            f"{state.pips[1 - active]}"
        )
        if state.street != self._street or state.street == 0:
            self._street = state.street
            name = street_name(state.street, state.rules)
            self.write(f"  {name} · board {' '.join(state.board) or '-'} · {table}")
        else:  # the street's line came before the opponent's action: the board is on screen
            self.write(f"  {table}")
        self.write(f"  you may: {', '.join(_legal_words(state))}")
        while True:
            answer = parse_answer(self.read("> "), state)
            if not isinstance(answer, str):
                return answer
            self.write(f"  {answer}")

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        """The end of the hand: the opponent's cards at a showdown, the payoff, the bounties."""
        last = terminal_state.previous_state
        self._tell_swap(last.hands[active])
        theirs = last.hands[1 - active]
        if terminal_state.folder is None and theirs:
            self.write(
                f"  showdown on {' '.join(last.board)}: you {' '.join(last.hands[active])}"
                f", {self.opponent} {' '.join(theirs)}"
            )
        elif terminal_state.folder == active:
            self.write("  you fold")
        elif terminal_state.folder is not None:
            self.write(f"  {self.opponent} folds")
        hits = terminal_state.bounty_hits
        for seat, who in ((active, "you"), (1 - active, self.opponent)):
            if hits[seat]:
                self.write(f"  {who} hit the bounty")
        delta = terminal_state.deltas[active]
        self.write(
            f"  you {'win' if delta > 0 else 'lose' if delta < 0 else 'tie'} "
            f"{abs(delta)} · result so far {game_state.bankroll:+d}"
        )


class _NarratingClient(BotClient):
    """The SDK client, telling the person about each action as the engine reports it."""

    def __init__(self, bot: HumanBot, rules: Rules) -> None:
        super().__init__(bot, rules)
        self.human = bot

    def _apply_action(self, action: Action) -> None:
        state = self.round_state
        if isinstance(state, RoundState):
            self.human.narrate(state.button % 2, self.seat, action, state)
        super()._apply_action(action)


class HumanSeat(InProcessSeat):
    """An in-process seat for a person: no time is charged, so there is no clock and no timeout."""

    def __init__(self, name: str, bot: HumanBot, rules: Rules) -> None:
        super().__init__(name, bot, rules)
        self.client = _NarratingClient(bot, rules)

    def receive(self, budget: float) -> Reply:
        """The person's reply, whatever it took: a person thinks as long as they like."""
        return super().receive(float("inf"))._replace(elapsed=0.0)


def human_seat_factory(
    opponent: str, read: Callable[[str], str] = input, write: Callable[[str], object] = print
) -> Callable[[str, Rules], HumanSeat]:
    """A ``BotSpec.seat`` maker for a person facing ``opponent``."""

    def make(name: str, rules: Rules) -> HumanSeat:
        return HumanSeat(name, HumanBot(rules, opponent, read, write), rules)

    return make
