"""A test harness for bot authors: matches and crafted spots, in-process and fast.

Three functions cover what a bot's tests need::

    from local_runner.harness import decide, play, spot
    from sdk.actions import FoldAction
    from player import Player

    def test_never_faults():
        result = play(Player(), opponent="random", rounds=300, variant="auction")
        assert result.players[0].fault_counts == {}

    def test_keeps_aces():
        state = spot(hand=("Ah", "As"), seat=1, pips=(6, 2))   # facing a raise to 6
        assert not isinstance(decide(Player(), state), FoldAction)

:func:`play` runs a real match with the reference engine (:class:`local_runner.engine.match.Match`)
and in-process seats: the bot sees exactly the messages it would see over a socket, but
nothing is written and no process is started, so a few hundred hands take well under a
second.  :func:`spot` builds the :class:`~sdk.states.RoundState` a bot would be asked about
in a situation you describe, checking that the numbers are consistent, and :func:`decide`
asks a bot for its action there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sdk.actions import (
    HIDDEN_BID,
    HIDDEN_RANK,
    Action,
    BidAction,
    CallAction,
    CheckAction,
    DiscardAction,
    RaiseAction,
)
from sdk.bot import Bot
from sdk.errors import KitError
from sdk.games import street_named, streets_of
from sdk.protocol import VALID_CARDS
from sdk.rules import RANKS, Rules
from sdk.states import TOSS_HOLE_CARDS, GameState, RoundState, TerminalState

from .bots.builtin import BUILTIN_BOTS, make_builtin
from .engine.match import Match
from .engine.records import HandRecord
from .engine.seats import InProcessSeat
from .results.match_stats import MatchStats, slot_deltas
from .results.table import BankrollCurve, TableResult

__all__ = ["HarnessError", "decide", "play", "spot"]

Cards = tuple[str, ...]


class HarnessError(KitError, ValueError):
    """A harness call that cannot be carried out (a bad spot, an unknown opponent)."""


class _Watched(Bot):
    """A bot whose callbacks remember the first exception they raise (then re-raise it).

    On a server the SDK swallows an exception from ``get_action`` and sends a default
    action; in a test that would hide the bug, so :func:`play` raises it instead.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.error: BaseException | None = None
        self.masked_view = bot.masked_view  # the wrapper sees what the bot would see

    def _remember(self, error: BaseException) -> None:
        if self.error is None:
            self.error = error

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        """Delegate, remembering an exception."""
        try:
            self.bot.handle_new_round(game_state, round_state, active)
        except Exception as error:
            self._remember(error)
            raise

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        """Delegate, remembering an exception."""
        try:
            self.bot.handle_round_over(game_state, terminal_state, active)
        except Exception as error:
            self._remember(error)
            raise

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Delegate, remembering an exception."""
        try:
            return self.bot.get_action(game_state, round_state, active)
        except Exception as error:
            self._remember(error)
            raise


def _rules(variant: str | None, rules: Rules | None) -> Rules:
    """The rules a harness call plays: ``rules`` if given, else ``variant``'s defaults."""
    if rules is None:
        return Rules.for_variant(variant or "nlhe")
    if variant is not None and variant != rules.variant:
        raise HarnessError(
            f"variant={variant!r} contradicts rules.variant={rules.variant!r}; "
            "pass only one of them."
        )
    return rules


def _opponent(opponent: str | Bot, seed: int) -> Bot:
    if isinstance(opponent, Bot):
        return opponent
    name = opponent.removeprefix("builtin:")
    if name not in BUILTIN_BOTS:
        raise HarnessError(
            f"There is no built-in opponent {opponent!r}; pass a Bot object or one of: "
            f"{', '.join(BUILTIN_BOTS)}."
        )
    return make_builtin(name, seed)


def play(
    bot: Bot,
    opponent: str | Bot = "checkcall",
    rounds: int = 200,
    seed: int = 0,
    variant: str | None = None,
    rules: Rules | None = None,
    *,
    raise_errors: bool = True,
    on_hand: Callable[[HandRecord], None] | None = None,
) -> TableResult:
    """Play ``rounds`` hands of ``bot`` against ``opponent`` in this process; return the result.

    The result is a single match's :class:`~local_runner.results.table.TableResult`: each
    bot's chips, ``summaries()`` with their confidence intervals, ``verdict()``, and in a
    notebook a table and a chart.

    ``opponent`` is a built-in bot's name (``"checkcall"``, ``"random"``, ``"raise"``,
    optionally written ``"builtin:random"``) or another :class:`~sdk.bot.Bot` object.
    The game is ``variant``'s competition defaults (no-limit hold'em when None), or
    ``rules`` (its ``num_rounds`` is replaced by ``rounds``).  ``bot`` is
    ``result.players[0]`` and deals the first hand; the cards depend only on ``seed``.  At a
    table of more than two (``acpc-3pl``), a copy of the built-in ``opponent`` sits in every
    other seat.

    Faults (illegal actions, timeouts) are counted in ``result.players[i].fault_counts``,
    as a scrimmage counts them.  An exception raised in a bot's callback is re-raised
    here once the hand ends, with its traceback, unless ``raise_errors`` is False (then
    it is treated as a server would: a default action, or a crash fault).  ``on_hand`` is
    called with each hand's :class:`~local_runner.engine.records.HandRecord`.
    """
    if not isinstance(bot, Bot):
        raise HarnessError(f"play() needs a Bot object, not {type(bot).__name__}.")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise HarnessError(f"rounds must be a whole number of at least 1, not {rounds!r}.")
    match_rules = _rules(variant, rules).replace(num_rounds=rounds)
    if isinstance(opponent, Bot) and match_rules.seats > 2:
        raise HarnessError(
            f"A {match_rules.seats}-seat game needs {match_rules.seats - 1} opponents; pass a "
            "built-in bot's name (one copy sits in each other seat), not one Bot object."
        )
    others = [_opponent(opponent, seed + seat) for seat in range(1, match_rules.seats)]
    if others[0] is bot:
        raise HarnessError(
            "play() got the same Bot object twice; pass a second instance as the opponent."
        )
    watched = tuple(_Watched(player) for player in (bot, *others))
    other_name = (
        opponent.removeprefix("builtin:") if isinstance(opponent, str) else type(others[0]).__name__
    )
    names = [type(bot).__name__, *([other_name] * len(others))]
    if len(set(names)) < len(names):
        names = [f"{name}-{index + 1}" for index, name in enumerate(names)]
    seats = [
        InProcessSeat(name, player, match_rules)
        for name, player in zip(names, watched, strict=True)
    ]

    stats = MatchStats(len(seats))
    curve = BankrollCurve(len(seats))

    def observe(record: HandRecord) -> None:
        if raise_errors:
            for player in watched:
                if player.error is not None:
                    raise player.error
        deltas = slot_deltas(record)
        for moments, delta in zip(stats.players, deltas, strict=True):
            moments.add(delta)
        curve.add(deltas)
        if on_hand is not None:
            on_hand(record)

    result = Match(seats, match_rules, seed, on_hand=observe).play()
    order = tuple(range(len(seats)))
    return TableResult(
        tuple(names), (result,), (order,), stats.players, result.interrupted, curve=curve
    )


def _cards(what: str, cards: Sequence[str]) -> Cards:
    cards = tuple(cards)
    for card in cards:
        if card not in VALID_CARDS:
            raise HarnessError(
                f"{card!r} in {what} is not a card; write cards as rank then suit, like 'Ah' "
                "or 'Tc' (ranks 23456789TJQKA, suits cdhs)."
            )
    return cards


def _pair(what: str, value: Sequence[int]) -> tuple[int, int]:
    pair = tuple(value)
    if len(pair) != 2 or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in pair
    ):
        raise HarnessError(
            f"{what} must be two whole numbers >= 0, one per seat (dealer first), not {value!r}."
        )
    return (pair[0], pair[1])


def spot(
    hand: Sequence[str] = ("Ah", "Kd"),
    board: Sequence[str] = (),
    street: int | None = None,
    seat: int = 0,
    pips: Sequence[int] | None = None,
    stacks: Sequence[int] | None = None,
    variant: str | None = None,
    rules: Rules | None = None,
    bounty: str | None = None,
    opponent_hand: Sequence[str] = (),
    auction: bool = False,
) -> RoundState:
    """The round state a bot in ``seat`` sees when it must act in the situation described.

    * ``hand``: the bot's hole cards (three in Auction Hold'em after winning the auction; in
      Toss Hold'em three until the seat tosses one, on street 2 for the big blind and 3 for
      the dealer); ``opponent_hand``: the opponent's, usually unknown ``()``.
    * ``board`` and ``street``: the board so far; the street (one of the game's streets as
      :mod:`sdk.games` declares them: 0, 3, 4 or 5 in hold'em, 0 and 2 to 6 in Toss Hold'em,
      whose board holds both tossed cards from street 4 on) defaults to the number of board
      cards and must match it.  Heads-up games only.
    * ``seat``: 0 for the dealer (small blind), 1 for the big blind; that seat is to act.
    * ``pips``: chips each seat put in on this street, dealer first.  Default: preflop the
      blinds for the dealer, and the dealer's call (a limp) for the big blind; nothing on
      later streets.  ``pips=(6, 2)`` with ``seat=1`` is the big blind facing a raise to 6.
    * ``stacks``: chips each seat has behind.  Default: the starting stack minus the pips,
      and minus one big blind per seat for the streets before (a limped pot) after the flop.
    * ``variant`` or ``rules``: the game (default no-limit hold'em).
    * ``bounty``: the bot's bounty rank, e.g. ``"Q"`` (Bounty Hold'em only).
    * ``auction``: True for the flop auction of Auction Hold'em: the bot is asked for a bid
      (the big blind bids first; the dealer sees that a sealed bid was made).

    The state is reached by playing legal actions from :meth:`RoundState.new_hand` through
    ``proceed`` (a limp or a raise and a call before, the simplest betting that leaves these
    pips), so ``legal_actions()``, the bounds and ``proceed()`` behave as in a real hand.
    Numbers that no hand reaches (the player to act having put in more than its opponent,
    chips that do not add up to the starting stacks, a raise smaller than the rules allow)
    raise :class:`HarnessError`, saying which betting was not legal.
    """
    game = _rules(variant, rules)
    if game.seats != 2:
        raise HarnessError(
            f"spot builds heads-up states, and {game.variant} seats {game.seats}; check a "
            "heads-up spot in the heads-up form of the game (acpc-2pl for acpc-3pl's betting)."
        )
    if seat not in (0, 1):
        raise HarnessError(f"seat must be 0 (dealer) or 1 (big blind), not {seat!r}.")
    mine, theirs = _cards("hand", hand), _cards("opponent_hand", opponent_hand)
    dealt = _cards("board", board)
    if street is None:
        street = len(dealt)
    streets = [s.board for s in streets_of(game)]
    if street not in streets:
        raise HarnessError(
            f"street must be one of {', '.join(map(str, streets))} in {game.variant} (the "
            f"number of board cards), not {street!r}."
        )
    if len(dealt) != street:
        raise HarnessError(
            f"Street {street} has {street} board cards, but {len(dealt)} were given; "
            "pass the board dealt so far."
        )
    three_cards = game.auction and street > 0 and not auction
    for who, what, cards in ((seat, "hand", mine), (1 - seat, "opponent_hand", theirs)):
        allowed = (2, 3) if three_cards else (_toss_hand_size(game, street, who),)
        if cards and len(cards) not in allowed:
            raise HarnessError(
                f"{what} has {len(cards)} cards; it needs {' or '.join(map(str, allowed))} here."
            )
    if not mine:
        raise HarnessError("hand is empty; give the bot its hole cards, like ('Ah', 'Kd').")
    everything = mine + theirs + dealt
    if len(set(everything)) != len(everything):
        repeated = sorted({card for card in everything if everything.count(card) > 1})
        raise HarnessError(f"The card(s) {', '.join(repeated)} appear more than once.")

    small, big, start = game.small_blind, game.big_blind, game.starting_stack
    if pips is None:
        pips = (0, 0) if street else (small, big) if seat == 0 else (big, big)
    street_pips = _pair("pips", pips)
    if stacks is None:
        before = 0 if street == 0 else big
        stacks = (start - before - street_pips[0], start - before - street_pips[1])
    street_stacks = _pair("stacks", stacks)

    bounties: tuple[str | None, str | None] = (None, None)
    if bounty is not None:
        if game.bounty is None:
            raise HarnessError(
                f"A bounty rank only exists in Bounty Hold'em; pass variant='bounty' (the "
                f"rules here are {game.variant!r})."
            )
        if bounty not in RANKS:
            raise HarnessError(f"bounty must be a rank, one of {RANKS}, not {bounty!r}.")
        # As a bot's client sees it: the opponent's rank is never sent.
        bounties = (bounty, HIDDEN_RANK) if seat == 0 else (HIDDEN_RANK, bounty)
    if auction:
        if not game.auction:
            raise HarnessError(
                f"There is no auction in {game.variant!r}; pass variant='auction' for one."
            )
        if street != 3 or street_pips != (0, 0):
            raise HarnessError(
                "The auction happens on the flop before any bet: pass a three-card board "
                "and no pips."
            )
    final_hands = (mine, theirs) if seat == 0 else (theirs, mine)
    if game.discard:  # as dealt: a hole card already tossed is on the board (street 3 on)
        dealt_hands = tuple(
            _toss_dealt(game, final_hands[who], dealt, who, street) for who in (0, 1)
        )
    else:
        dealt_hands = (mine[:2], theirs[:2]) if seat == 0 else (theirs[:2], mine[:2])
    earlier = tuple(start - street_stacks[i] - street_pips[i] for i in (0, 1))
    plan = _earlier_streets(game, street, earlier, final_hands, auction) + _this_street(
        game, street, seat, street_pips, auction
    )
    state: RoundState = RoundState.new_hand(game, dealt_hands, bounties)
    for action in plan:
        hidden = action == BidAction(HIDDEN_BID)  # the sealed bid a client is shown as A-1
        if not isinstance(state, RoundState) or not (hidden or state.is_legal(action)):
            raise HarnessError(_unreachable(street, seat, street_pips, street_stacks, state))
        previous = state
        moved = state.proceed(action)
        assert isinstance(moved, RoundState)  # the plan never ends the hand
        state = moved
        if previous.auction and not state.auction:
            for winner in state.auction_winners:
                state = state.with_hand(winner, final_hands[winner])
        if state.street != previous.street:
            state = state.with_board(dealt[: state.street])
    reached = (state.street, state.actor, state.pips, state.stacks, state.auction)
    if reached != (street, seat, street_pips, street_stacks, auction):
        raise HarnessError(_unreachable(street, seat, street_pips, street_stacks, state))
    # The hole cards as the bot sees them now (three after winning the auction).
    for index in (0, 1):
        if state.hands[index] != final_hands[index]:
            state = state.with_hand(index, final_hands[index])
    return state


def _earlier_streets(
    rules: Rules,
    street: int,
    earlier: tuple[int, ...],
    hands: tuple[Cards, Cards],
    in_auction: bool,
) -> list[Action]:
    """Actions that put ``earlier`` chips in before ``street``: a limp or a raise and a call
    preflop, the auction's bids (whose payments explain unequal amounts), checks after.
    Whether they are legal is left to the state machine."""
    if street == 0:
        return []
    after_auction = rules.auction
    preflop = min(earlier) if after_auction else earlier[0]
    if not after_auction and earlier[0] != earlier[1]:
        raise HarnessError(
            f"Both seats put in the same chips on earlier streets, but these stacks and pips "
            f"leave {earlier[0]} and {earlier[1]}; make the stacks match."
        )
    big = rules.big_blind
    plan: list[Action] = (
        [CallAction(), CheckAction()] if preflop == big else [RaiseAction(preflop), CallAction()]
    )
    if after_auction and not in_auction:
        plan += _auction_bids(earlier, hands)
    for before in streets_of(rules)[1:]:
        if before.board >= street:
            break
        if "discard" in before.asks:  # the discarder tosses its last card; the other checks
            plan += [DiscardAction(_TOSSED), CheckAction()]
        elif before.board >= 3:  # the flop's betting follows its auction: both check
            plan += [CheckAction(), CheckAction()]
    return plan


#: Where :func:`spot` puts a hole card already tossed in the hand as dealt: last.
_TOSSED = TOSS_HOLE_CARDS - 1


def _tosses_on(rules: Rules, seat: int) -> int:
    """The street on which ``seat`` tosses a card: the game's discard streets (as
    :mod:`sdk.games` declares them) in turn, the big blind first (it opens the streets after
    preflop in the state machine).  Its card is then the board's card at that position."""
    tosses = [street.board for street in streets_of(rules) if "discard" in street.asks]
    return tosses[0] if seat == 1 else tosses[1]


def _toss_hand_size(rules: Rules, street: int, seat: int) -> int:
    """How many hole cards ``seat`` holds on ``street``: two, or in Toss Hold'em three until
    its own toss."""
    if not rules.discard:
        return 2
    return TOSS_HOLE_CARDS if street <= _tosses_on(rules, seat) else TOSS_HOLE_CARDS - 1


def _toss_dealt(rules: Rules, cards: Cards, board: Cards, seat: int, street: int) -> Cards:
    """Toss Hold'em: ``seat``'s hole cards as dealt, its tossed card (the board's third card
    for the big blind, its fourth for the dealer) put back last; an unknown hand stays so."""
    tossed_on = _tosses_on(rules, seat)
    if not cards or street <= tossed_on:
        return cards
    return (*cards, board[tossed_on])


def _auction_bids(earlier: tuple[int, ...], hands: tuple[Cards, Cards]) -> list[Action]:
    """Bids (big blind first) whose payments make ``earlier`` unequal, won as ``hands`` show."""
    paid = earlier[0] - earlier[1]
    won = tuple(len(cards) == 3 for cards in hands)
    if paid == 0:
        if won[0] and won[1]:
            return [BidAction(0), BidAction(0)]  # a tie: both pay 0 and both get a card
        # One seat won and paid the other's bid of 0 (the dealer, unless seat 1 has 3 cards).
        return [BidAction(1), BidAction(0)] if won[1] else [BidAction(0), BidAction(1)]
    winner, price = (0, paid) if paid > 0 else (1, -paid)
    return (
        [BidAction(price), BidAction(price + 1)]
        if winner == 0
        else [BidAction(price + 1), BidAction(price)]
    )


def _this_street(
    rules: Rules, street: int, seat: int, pips: tuple[int, int], auction: bool
) -> list[Action]:
    """Actions on ``street`` that leave ``pips`` with ``seat`` to act (the simplest ones)."""
    if auction:
        return [BidAction(HIDDEN_BID)] if seat == 0 else []  # the big blind's sealed bid
    if "discard" in street_named(rules, street).asks:  # the other seat acknowledges the toss
        return [] if _tosses_on(rules, seat) == street else [DiscardAction(_TOSSED)]
    mine, theirs = pips[seat], pips[1 - seat]
    if street == 0:
        big = rules.big_blind
        opening = CallAction() if pips[0] == big else RaiseAction(pips[0])
        if seat == 0:
            if pips == (rules.small_blind, big):
                return []
            return [opening, RaiseAction(pips[1])]
        if pips[1] == big:
            return [opening]
        # The dealer limped, the big blind raised, the dealer raised again.
        return [CallAction(), RaiseAction(pips[1]), RaiseAction(pips[0])]
    if seat == 1:  # the big blind acts first after the flop: it faces the dealer's bet
        if pips == (0, 0):
            return []
        return [CheckAction() if pips[1] == 0 else RaiseAction(pips[1]), RaiseAction(pips[0])]
    if theirs == 0:
        return [CheckAction()]
    if mine == 0:
        return [RaiseAction(theirs)]
    # The big blind checked, the dealer bet, the big blind raised.
    return [CheckAction(), RaiseAction(mine), RaiseAction(theirs)]


def _unreachable(
    street: int,
    seat: int,
    pips: tuple[int, int],
    stacks: tuple[int, int],
    state: RoundState | TerminalState,
) -> str:
    """Why a described spot cannot happen, in words."""
    where = f"seat {seat} to act on street {street} with pips {pips} and stacks {stacks}"
    if not isinstance(state, RoundState):
        return f"No hand reaches {where}: the hand would be over."
    if pips[seat] > pips[1 - seat]:
        return (
            f"Seat {seat} is to act but has put in more ({pips[seat]}) than its opponent "
            f"({pips[1 - seat]}) on this street; the player to act can only face a bet."
        )
    return (
        f"No hand reaches {where}: the betting that would lead there is not legal "
        f"(at street {state.street}, seat {state.actor} could play "
        f"{', '.join(sorted(kind.__name__ for kind in state.legal_actions()))}"
        f"{_bounds(state)}). Check the pips, the stacks and the blinds: chips must add up "
        "to the starting stacks, and each raise must be at least the previous one."
    )


def _bounds(state: RoundState) -> str:
    if RaiseAction in state.legal_actions():
        low, high = state.raise_bounds()
        return f"; raises to {low}..{high}"
    return ""


def decide(bot: Bot, round_state: RoundState, game_state: GameState | None = None) -> Action:
    """Ask ``bot`` for its action in ``round_state`` (from :func:`spot`, or a real hand).

    ``game_state`` defaults to the start of a match (bankroll 0, the full game clock,
    hand 1).  The action is returned as is: check it with ``round_state.is_legal(action)``.
    ``handle_new_round`` is not called; call it first if your ``get_action`` relies on it.
    """
    if game_state is None:
        game_state = GameState(0, round_state.rules.game_clock, 1)
    return bot.get_action(game_state, round_state, round_state.active)
