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

:func:`play` runs a real match with the reference engine (:class:`local_runner.match.Match`)
and in-process seats: the bot sees exactly the messages it would see over a socket, but
nothing is written and no process is started, so a few hundred hands take well under a
second.  :func:`spot` builds the :class:`~sdk.states.RoundState` a bot would be asked about
in a situation you describe, checking that the numbers are consistent, and :func:`decide`
asks a bot for its action there.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from sdk.actions import HIDDEN_BID, Action
from sdk.bot import Bot
from sdk.protocol import VALID_CARDS
from sdk.rules import RANKS, Rules
from sdk.states import GameState, RoundState, TerminalState

from .builtin_bots import BUILTIN_BOTS, make_builtin
from .match import Match
from .records import HandRecord, MatchResult
from .seats import InProcessSeat

__all__ = ["HarnessError", "decide", "play", "spot"]

Cards = tuple[str, ...]


class HarnessError(ValueError):
    """A harness call that cannot be carried out (a bad spot, an unknown opponent)."""


class _Watched(Bot):
    """A bot whose callbacks remember the first exception they raise (then re-raise it).

    On a server the SDK swallows an exception from ``get_action`` and sends a default
    action; in a test that would hide the bug, so :func:`play` raises it instead.
    """

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.error: BaseException | None = None

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
) -> MatchResult:
    """Play ``rounds`` hands of ``bot`` against ``opponent`` in this process; return the result.

    ``opponent`` is a built-in bot's name (``"checkcall"``, ``"random"``, ``"raise"``,
    optionally written ``"builtin:random"``) or another :class:`~sdk.bot.Bot` object.
    The game is ``variant``'s competition defaults (no-limit hold'em when None), or
    ``rules`` (its ``num_rounds`` is replaced by ``rounds``).  ``bot`` is
    ``result.players[0]`` and deals the odd hands; the cards depend only on ``seed``.

    Faults (illegal actions, timeouts) are counted in ``result.players[i].fault_counts``,
    as a scrimmage counts them.  An exception raised in a bot's callback is re-raised
    here once the hand ends, with its traceback, unless ``raise_errors`` is False (then
    it is treated as a server would: a default action, or a crash fault).  ``on_hand`` is
    called with each hand's :class:`~local_runner.records.HandRecord`.
    """
    if not isinstance(bot, Bot):
        raise HarnessError(f"play() needs a Bot object, not {type(bot).__name__}.")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise HarnessError(f"rounds must be a whole number of at least 1, not {rounds!r}.")
    other = _opponent(opponent, seed + 1)
    if other is bot:
        raise HarnessError(
            "play() got the same Bot object twice; pass a second instance as the opponent."
        )
    match_rules = _rules(variant, rules).replace(num_rounds=rounds)
    watched = (_Watched(bot), _Watched(other))
    names = [
        type(bot).__name__,
        opponent.removeprefix("builtin:") if isinstance(opponent, str) else type(other).__name__,
    ]
    if names[0] == names[1]:
        names = [f"{names[0]}-1", f"{names[1]}-2"]
    seats = [
        InProcessSeat(name, player, match_rules)
        for name, player in zip(names, watched, strict=True)
    ]

    def observe(record: HandRecord) -> None:
        if raise_errors:
            for player in watched:
                if player.error is not None:
                    raise player.error
        if on_hand is not None:
            on_hand(record)

    return Match(seats, match_rules, seed, on_hand=observe).play()


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

    * ``hand``: the bot's hole cards (three in Auction Hold'em after winning the auction);
      ``opponent_hand``: the opponent's, usually unknown ``()``.
    * ``board`` and ``street``: the board so far; the street (0, 3, 4 or 5) defaults to the
      number of board cards and must match it.
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

    The state is built from :meth:`RoundState.new_hand` and the dealing helpers, with the
    street's counters set the way the state machine would have left them, so that
    ``legal_actions()``, the bounds and ``proceed()`` behave as in a real hand.  Numbers that
    cannot happen in a hand (the player to act having put in more than its opponent, chips
    that do not add up to the starting stacks) raise :class:`HarnessError`.
    """
    game = _rules(variant, rules)
    if seat not in (0, 1):
        raise HarnessError(f"seat must be 0 (dealer) or 1 (big blind), not {seat!r}.")
    mine, theirs = _cards("hand", hand), _cards("opponent_hand", opponent_hand)
    dealt = _cards("board", board)
    if street is None:
        street = len(dealt)
    if street not in (0, 3, 4, 5):
        raise HarnessError(
            f"street must be 0, 3, 4 or 5 (the number of board cards), not {street!r}."
        )
    if len(dealt) != street:
        raise HarnessError(
            f"Street {street} has {street} board cards, but {len(dealt)} were given; "
            "pass the board dealt so far."
        )
    three_cards = game.auction and street > 0 and not auction
    allowed = (2, 3) if three_cards else (2,)
    for what, cards in (("hand", mine), ("opponent_hand", theirs)):
        if cards and len(cards) not in allowed:
            raise HarnessError(
                f"{what} has {len(cards)} cards; it needs "
                f"{' or '.join(map(str, allowed))} here."
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
    _check_chips(game, street, seat, street_pips, street_stacks)

    bounties: tuple[str | None, str | None] = (None, None)
    if bounty is not None:
        if game.bounty is None:
            raise HarnessError(
                f"A bounty rank only exists in Bounty Hold'em; pass variant='bounty' (the "
                f"rules here are {game.variant!r})."
            )
        if bounty not in RANKS:
            raise HarnessError(f"bounty must be a rank, one of {RANKS}, not {bounty!r}.")
        bounties = (bounty, None) if seat == 0 else (None, bounty)

    bids: tuple[int | None, int | None] = (None, None)
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
        if seat == 0:
            bids = (None, HIDDEN_BID)  # the big blind's sealed bid is in, amount unknown
    button = _button(street, seat, street_pips, (small, big))
    hands = (mine, theirs) if seat == 0 else (theirs, mine)
    state = RoundState.new_hand(game, hands, bounties).with_board(dealt)
    return state._replace(
        button=button,
        street=street,
        pips=street_pips,
        stacks=street_stacks,
        auction=auction,
        bids=bids,
    )


def _check_chips(
    rules: Rules, street: int, seat: int, pips: tuple[int, int], stacks: tuple[int, int]
) -> None:
    """Raise :class:`HarnessError` for pips and stacks no hand can reach."""
    start = rules.starting_stack
    put_in = (start - stacks[0], start - stacks[1])
    for index in (0, 1):
        if put_in[index] < pips[index]:
            raise HarnessError(
                f"Seat {index} has {stacks[index]} chips behind and {pips[index]} in front of it, "
                f"more than the starting stack of {start}; lower the stack or the pip."
            )
    if pips[seat] > pips[1 - seat]:
        raise HarnessError(
            f"Seat {seat} is to act but has put in more ({pips[seat]}) than its opponent "
            f"({pips[1 - seat]}) on this street; the player to act can only face a bet."
        )
    blinds = (rules.small_blind, rules.big_blind)
    if street == 0:
        if put_in != pips:
            raise HarnessError(
                "Preflop, every chip a seat has put in is in its pip: the stacks should be "
                f"{start - pips[0]} and {start - pips[1]} for pips {pips}."
            )
        if pips[0] < blinds[0] or pips[1] < blinds[1]:
            raise HarnessError(
                f"Preflop, the pips include the blinds: at least {blinds[0]} for the dealer and "
                f"{blinds[1]} for the big blind, not {pips}."
            )
        return
    earlier = (put_in[0] - pips[0], put_in[1] - pips[1])
    if min(earlier) < rules.big_blind:
        raise HarnessError(
            f"After the flop each seat has put in at least a big blind on earlier streets; "
            f"the stacks and pips given leave {earlier[0]} and {earlier[1]}."
        )
    if not rules.auction and earlier[0] != earlier[1]:
        raise HarnessError(
            f"Both seats put in the same chips on earlier streets, but these stacks and pips "
            f"leave {earlier[0]} and {earlier[1]}; make the stacks match."
        )


def _button(street: int, seat: int, pips: tuple[int, int], blinds: tuple[int, int]) -> int:
    """The street's action counter that makes ``seat`` the one to act, as play would leave it.

    Preflop the dealer acts at 0 only in an unopened pot (its call then completes the small
    blind and the big blind keeps its option); after a raise it acts at 2.  After the flop,
    and in the flop auction, the big blind acts first, at 1, and the dealer at 2; a big blind
    facing a bet acts at 3.
    """
    if street == 0:
        if seat == 1:
            return 1
        return 0 if pips == blinds else 2
    if seat == 0:
        return 2
    return 1 if pips == (0, 0) else 3


def decide(bot: Bot, round_state: RoundState, game_state: GameState | None = None) -> Action:
    """Ask ``bot`` for its action in ``round_state`` (from :func:`spot`, or a real hand).

    ``game_state`` defaults to the start of a match (bankroll 0, the full game clock,
    hand 1).  The action is returned as is: check it with ``round_state.is_legal(action)``.
    ``handle_new_round`` is not called; call it first if your ``get_action`` relies on it.
    """
    if game_state is None:
        game_state = GameState(0, round_state.rules.game_clock, 1)
    return bot.get_action(game_state, round_state, round_state.button % 2)
