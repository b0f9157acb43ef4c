"""``builtin:range``: the seed write-up's Bayesian range bot, done within the clock.

The top rung of the reference ladder.  Per hand it keeps the opponent's range as
a weight on each of the 1,326 hole-card pairs (:class:`~.ranges.WeightedRange`),
starting uniform.  Then, at each decision:

1. **Bayes update** (:meth:`RangeBot.read_opponent`): for every opponent action
   since the last decision, multiply each pair's weight by the probability of that
   action from a hand that strong (:class:`~.likelihood.LikelihoodModel`), and
   renormalise.  The model starts from a prior and learns from the opponent's
   showdowns (:meth:`RangeBot.handle_round_over`).
2. **Equity** against the range (:func:`~.ranges.equity`): a table lookup before the
   flop, exact on the river, one Monte Carlo run on the flop and turn; corrected by
   the variant functions of :mod:`.variants`.
3. **Mixed strategy** (:meth:`RangeBot.choose`): the expected value of folding,
   checking or calling, and of two bet sizes (the opponent's fold chance comes from
   the same model and its observed fold-to-bet rate), then a random choice that
   favours the best (a softmax), so the bot is hard to read.

In Toss Hold'em it discards the card that leaves the two with the best equity against
the range (the discard joins the board for both seats, :mod:`.toss`), and measures
equity on a board run out to six cards.

A :class:`~.budget.Budget` watches the game clock and spends less per decision
as it runs down.

**Limit games** (``rules.limit``): the bet compared is the one legal size
(:func:`.betting.raise_options`), the cap is the legal actions', and the softmax is
tighter (:func:`temperature`: a limit bet is small against the pot, and so are the
differences between the actions' values).

**Three seats and more** (:mod:`.field`): one weighted range, one likelihood model and
one set of statistics per opponent (each named by its place after us, which stays the
same opponent as the button moves); each opponent's actions update its own range; the
equity is against every opponent still in at once, from one joint sample per street
(:class:`~.field.JointDeals`) reweighted as the ranges move; a bet wins at once only
if everyone folds (:meth:`RangeBot.field_values`).
"""

from __future__ import annotations

import math
import random
from operator import mul

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
from sdk.games import swap_streets
from sdk.history import PastAction, actions_of
from sdk.opponent_stats import OpponentStats
from sdk.payoffs import bounty_hit
from sdk.states import GameState, RoundState, TerminalState

from .betting import is_limit, raise_options
from .budget import Budget, Spend, reflex
from .cards import COMBO_INDEX
from .field import JointDeals, opponents_in_hand, seat_actions
from .likelihood import Kind, LikelihoodModel, Situation, kind_of
from .ranges import WeightedRange, equity, sampled_equity
from .strength import buckets
from .toss import best_discard, toss_equity
from .variants import (
    auction_adjusted_equity,
    auction_bid,
    bounty_chance,
    opponent_bounty_chance,
    showdown_stakes,
    swap_adjusted_equity,
    swap_range_blur,
    third_card_gain,
)

__all__ = ["RangeBot"]

#: An opponent action as the range update reads it: the action, where it was taken,
#: its kind, and the board then.
_Seen = tuple[PastAction, Situation, Kind, tuple[str, ...]]

#: Softmax temperature, as a share of the pot (plus one big blind): lower is greedier.
TEMPERATURE = 0.06
#: Limit games: a cooler softmax (this share of the pot plus a tenth of a big blind: the
#: values differ by a few small bets), and this share of the Monte Carlo samples per
#: decision (:func:`limit_spend`).  Measured on acpc-2pl (1,500 pairs each, the same
#: deals) against ``equity``: 0.06 of the pot plus 0.1 big blind won about 520 mbb/hand,
#: this about 810, 0.01 plus 0.1 about 930, and an almost greedy 0.01 plus 0.05 *lost* 330:
#: the softmax also hedges the errors of the crude value model, so keep a margin.
LIMIT_TEMPERATURE = 0.02
LIMIT_TEMPERATURE_BLINDS = 0.1
LIMIT_SAMPLE_SHARE = 0.5
#: Joint deals drawn per street against two or more opponents (a Python loop), and the
#: share of them the importance weights may fall to before the sample is drawn again.
FIELD_SAMPLES = 200
FIELD_REDRAW = 0.25
#: The average equity a third card adds, used when there was no time to measure it.
DEFAULT_THIRD_CARD_GAIN = 0.08


class RangeBot(Bot):
    """A weighted opponent range, Bayes-updated; equity against it; a mixed EV strategy."""

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        self.rng = random.Random(seed)
        self.budget = budget or Budget()
        # Per opponent, by its place after us (1 = next to act after us; heads-up always 1).
        self.all_stats: dict[int, OpponentStats] = {1: OpponentStats()}
        self.models: dict[int, LikelihoodModel] = {1: LikelihoodModel()}
        self.range = WeightedRange()
        # Each opponent's range this hand, by seat (heads-up: one, the same as ``range``).
        self.ranges: dict[int, WeightedRange] = {}
        self._me = 0
        self._seats = 2
        self._deals: tuple[tuple[object, ...], JointDeals] | None = None
        self.last_spend: Spend | None = None
        self._seen = 0
        self._street = 0
        self._gain = DEFAULT_THIRD_CARD_GAIN
        # The opponent's actions this hand, to learn from if it shows its cards.
        self._observed: list[tuple[int, Situation, Kind, tuple[str, ...]]] = []

    @property
    def stats(self) -> OpponentStats:
        """The statistics of the opponent just after us (heads-up: the opponent)."""
        return self.all_stats[1]

    @property
    def model(self) -> LikelihoodModel:
        """The likelihood model of the opponent just after us (heads-up: the opponent)."""
        return self.models[1]

    def place(self, seat: int) -> int:
        """An opponent's place after us, 1 to seats - 1: the button moves one seat a hand,
        so the same place is the same opponent in every hand."""
        return (seat - self._me) % self._seats

    def _model_of(self, seat: int) -> tuple[LikelihoodModel, OpponentStats]:
        place = self.place(seat)
        if place not in self.models:
            self.models[place] = LikelihoodModel()
            self.all_stats[place] = OpponentStats()
        return self.models[place], self.all_stats[place]

    # -- the hand's bookkeeping ---------------------------------------------------

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        """A fresh uniform range per opponent, without the pairs that use our cards (when the
        budget is down to reflexes, only at the first decision that reads them)."""
        self._me, self._seats = active, len(round_state.stacks)
        self.ranges = {}
        self._deals = None
        self._seen = 0
        self._street = 0
        self._gain = DEFAULT_THIRD_CARD_GAIN
        self._observed = []
        if self.last_spend is None or not self.last_spend.reflex:
            self._new_ranges(round_state, active)

    def _new_ranges(self, round_state: RoundState, active: int) -> None:
        """Each opponent's range for a new hand: uniform, less the pairs using our cards."""
        for seat in range(self._seats):
            if seat != active:
                self.ranges[seat] = WeightedRange()
                self.ranges[seat].remove_cards(round_state.hands[active])
        self.range = self.ranges[(active + 1) % self._seats]

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        """Count the opponent's statistics; if it showed two cards, learn from its actions."""
        if self.last_spend is not None and self.last_spend.reflex:
            return  # no time even to count
        if self._seats > 2:
            self._field_round_over(terminal_state, active)
            return
        opponent = 1 - active
        self.stats.observe_hand(terminal_state, opponent)
        last = terminal_state.previous_state
        self._record(actions_of(terminal_state), active)
        shown = last.hands[opponent]
        if len(shown) != 2 or (self.last_spend is not None and self.last_spend.frugal):
            # Nothing shown, three cards (Auction: not a pair of the model), or no time.
            return
        # In Swap Hold'em the shown cards may not be those held earlier in the hand (a
        # client cannot tell); the few swapped hands only add a little noise.
        pair = COMBO_INDEX[(shown[0], shown[1])]
        for _, situation, kind, board in self._observed:
            self.model.learn(situation, buckets(board)[pair], kind)

    def _field_round_over(self, terminal_state: TerminalState, active: int) -> None:
        """Three seats or more: each opponent's fold-to-bet rate (the one statistic the
        model reads), and what each opponent that showed two cards did with them.

        (:meth:`sdk.opponent_stats.OpponentStats.observe_hand` reads a heads-up hand.)
        """
        actions = seat_actions(terminal_state)
        self._record(actions, active)
        for past in actions:
            facing_bet = past.before.continue_cost > 0
            blind = past.street == 0 and past.before.raises == 0
            if past.seat != active and facing_bet and not blind:
                self._model_of(past.seat)[1].fold_to_bet.add(isinstance(past.action, FoldAction))
        if self.last_spend is not None and self.last_spend.frugal:
            return
        shown = terminal_state.previous_state.hands
        for seat, situation, kind, board in self._observed:
            cards = shown[seat]
            if len(cards) == 2:
                pair = COMBO_INDEX[(cards[0], cards[1])]
                self._model_of(seat)[0].learn(situation, buckets(board)[pair], kind)

    def _record(self, actions: list[PastAction], me: int) -> list[_Seen]:
        """The opponents' actions not seen before, remembered for learning."""
        new: list[_Seen] = []
        for past in actions[self._seen :]:
            kind = kind_of(past.action)
            if past.seat == me or kind is None:
                continue
            situation = Situation(past.street > 0, past.before.continue_cost > 0)
            board = past.before.board[: past.street]
            self._observed.append((past.seat, situation, kind, board))
            self._model_of(past.seat)[0].observe(situation, kind)
            new.append((past, situation, kind, board))
        self._seen = len(actions)
        return new

    # -- 1. Bayes update ----------------------------------------------------------

    def read_opponent(self, round_state: RoundState, active: int, frugal: bool = False) -> None:
        """Update the range for every opponent action (and swap chance) since the last call.

        When ``frugal`` (no time to spare) only the actions before the flop move the
        range (their strengths are the shipped table's); later ones are only noted, as a
        later street's strengths cost an eval7 pass over the pairs.
        """
        dead = [*round_state.hands[active], *round_state.board]
        actions = actions_of(round_state) if self._seats == 2 else seat_actions(round_state)
        for past, situation, kind, board in self._record(actions, active):
            if kind is Kind.FOLD or (frugal and past.street > 0):
                continue  # a folded opponent's range no longer matters
            self._blur_swaps(round_state, past.street, dead)
            model, stats = self._model_of(past.seat)
            table = model.table(situation, kind, stats)
            if kind is Kind.AGGRESSIVE:
                table = sharpen(table, raise_share(past.before, past.action))
            strength = buckets(board)
            self._range_of(past.seat).update(list(map(table.__getitem__, strength)), dead)
        self._blur_swaps(round_state, round_state.street, dead)
        for opponent in self.ranges.values() if self._seats > 2 else (self.range,):
            opponent.remove_cards(dead)

    def _range_of(self, seat: int) -> WeightedRange:
        """An opponent's range (heads-up always :attr:`range`, also before a hand starts)."""
        return self.range if self._seats == 2 else self.ranges[seat]

    def _blur_swaps(self, round_state: RoundState, street: int, dead: list[str]) -> None:
        """Swap Hold'em: as each swap street is reached, part of the range turns random."""
        for passed in swap_streets(round_state.rules):
            if self._street < passed <= street:
                share = swap_range_blur(round_state.rules, passed)
                if share > 0.0:
                    self.range.blend_uniform(share, dead)
        self._street = max(self._street, street)

    # -- 2. equity ----------------------------------------------------------------

    def equity_against(
        self, opponent: WeightedRange, round_state: RoundState, active: int, spend: Spend
    ) -> float:
        """Our equity against ``opponent``, variant-adjusted; a short simulation when frugal."""
        hand, board = round_state.hands[active], round_state.board
        rules = round_state.rules
        if rules.discard:
            # Toss Hold'em: a six-card showdown board, which only the Python loop deals.
            return toss_equity(hand, board, opponent, max(30, spend.samples // 4), self.rng)
        if spend.frugal and board:
            # Even the river's exact count (one eval7 pass over the pairs) is too dear now.
            raw = sampled_equity(hand, board, opponent, spend.samples, self.rng)
        else:
            # Three-card hands (Auction) take the slower Python loop: fewer samples.
            samples = spend.samples if len(hand) == 2 else max(30, spend.samples // 4)
            raw = equity(hand, board, opponent, samples, self.rng)
        adjusted = swap_adjusted_equity(raw, rules, round_state.street)
        if rules.auction and round_state.street > 0 and not round_state.auction:
            mine, theirs = round_state.bids[active], round_state.bids[1 - active]
            they_hold_three = (
                theirs >= mine
                if mine is not None and theirs is not None and min(mine, theirs) >= 0
                else len(hand) == 2
            )
            # ``raw`` was computed with our real hand, so our own third card is in it.
            adjusted = auction_adjusted_equity(adjusted, self._gain, 2, 3 if they_hold_three else 2)
        return adjusted

    # -- 3. the decision ----------------------------------------------------------

    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Read the opponent, measure equity, choose among the actions by expected value."""
        if len(round_state.stacks) != self._seats:
            # Asked without handle_new_round (a test's crafted state): start the hand now.
            self.handle_new_round(game_state, round_state, active)
        spend = self.budget.spend(game_state, round_state)
        if spend.reflex:  # no time to think at all (see budget.reflex)
            self.last_spend = spend
            return reflex(round_state)
        if not self.ranges:  # the hand began in reflex mode
            self._new_ranges(round_state, active)
        if is_limit(round_state):
            spend = limit_spend(spend)
        self.last_spend = spend
        self.read_opponent(round_state, active, spend.frugal)
        legal = round_state.legal_actions()
        if len(legal) == 1 and CheckAction in legal:
            return CheckAction()
        if self._seats > 2:
            return self.choose_in_field(round_state, active, spend)
        if DiscardAction in legal:
            hand, board = round_state.hands[active], round_state.board
            # Once a hand, and the choice matters: the full budget, split over the three.
            samples = max(90, spend.samples)
            return best_discard(hand, board, self.range, samples, self.rng)
        mine = self.equity_against(self.range, round_state, active, spend)
        if BidAction in legal:
            return self.bid(round_state, active, mine, spend)
        return self.choose(round_state, active, mine, spend)

    def bid(self, round_state: RoundState, active: int, mine: float, spend: Spend) -> BidAction:
        """Auction: bid what a third card is worth (see :func:`.variants.auction_bid`)."""
        if not spend.frugal:
            hand, board = round_state.hands[active], round_state.board
            samples = max(20, spend.samples // 6)  # three-card hands use the slow loop
            self._gain = third_card_gain(hand, board, self.range, mine, self.rng, samples)
        low, high = round_state.bid_bounds()
        amount = auction_bid(self._gain, round_state.pot, high, round_state.stacks[1 - active])
        return BidAction(max(low, min(high, amount)))

    def choose(self, round_state: RoundState, active: int, mine: float, spend: Spend) -> Action:
        """A softmax over the expected values of the legal actions."""
        return self.softmax(round_state, self.expected_values(round_state, active, mine, spend))

    def softmax(self, round_state: RoundState, options: list[tuple[Action, float]]) -> Action:
        """One of ``options`` drawn with weight ``exp((value - best) / temperature)``."""
        best = max(value for _, value in options)
        scale = temperature(round_state)
        weights = [math.exp((value - best) / scale) for _, value in options]
        return self.rng.choices([action for action, _ in options], weights=weights)[0]

    def expected_values(
        self, round_state: RoundState, active: int, mine: float, spend: Spend
    ) -> list[tuple[Action, float]]:
        """Each candidate action with its expected chip result for the hand.

        Showdown values ignore later betting (the usual pot-odds simplification);
        a bet wins the pot at once when the opponent folds, and otherwise plays
        against the part of the range that does not fold.  A showdown wins what the
        opponent has put in and loses what we have, which differ after an auction
        (the winner's payment is in its contribution alone).
        """
        rules, board = round_state.rules, round_state.board
        hand = round_state.hands[active]
        contributions = round_state.contributions
        put_in, theirs = contributions[active], contributions[1 - active]
        rank = round_state.bounties[active]
        hit = bounty_chance(rank, hand, board)
        hit_now = 1.0 if bounty_hit(rank, hand, board) else 0.0
        their_hit = opponent_bounty_chance(board)

        def showdown(won: int, lost: int, equity_: float) -> float:
            win, lose = showdown_stakes(rules, won, lost, hit, their_hit)
            return equity_ * win - (1.0 - equity_) * lose

        legal = round_state.legal_actions()
        options: list[tuple[Action, float]] = []
        if FoldAction in legal:
            options.append((FoldAction(), -float(put_in)))
        passive: Action = CheckAction() if CheckAction in legal else CallAction()
        options.append((passive, showdown(theirs, put_in + round_state.continue_cost, mine)))
        if RaiseAction in legal:
            folds, continuing = self.fold_response(round_state, spend.frugal)
            if continuing is not None:
                called = self.equity_against(continuing, round_state, active, spend)
            else:
                called = mine
            fold_win, _ = showdown_stakes(rules, theirs, put_in, hit_now, 0.0)
            for action, size in raise_options(round_state):
                level = put_in + action.amount - round_state.pips[active]
                matched = theirs + action.amount - round_state.pips[1 - active]
                fold = min(0.95, folds * math.sqrt(0.5 + size))
                value = fold * fold_win + (1.0 - fold) * showdown(matched, level, called)
                options.append((action, value))
        return options

    def fold_response(
        self, round_state: RoundState, frugal: bool = False
    ) -> tuple[float, WeightedRange | None]:
        """The chance the opponent folds to a bet, and the range it continues with.

        When ``frugal``, only the average fold chance (no range: the caller uses its
        equity against the whole range).
        """
        situation = Situation(round_state.street > 0, True)
        table = self.model.fold_probabilities(situation, self.stats)
        if frugal:
            return sum(table) / len(table), None
        strength = buckets(round_state.board)
        keep = [1.0 - p for p in table]
        factors = list(map(keep.__getitem__, strength))
        kept = sum(map(mul, self.range.weights, factors))
        if kept <= 0.0:
            return 1.0, None
        return 1.0 - kept, WeightedRange.scaled(self.range, factors)

    # -- three seats and more -----------------------------------------------------

    def choose_in_field(self, round_state: RoundState, active: int, spend: Spend) -> Action:
        """Equity against every opponent still in, then the softmax over the actions' values
        (:meth:`field_values`)."""
        opponents = opponents_in_hand(round_state, active)
        if len(opponents) == 1:
            ranges = [self.ranges[opponents[0]]]
            mine = self.equity_against(ranges[0], round_state, active, spend)
            deals = None
        else:
            ranges = [self.ranges[seat] for seat in opponents]
            deals = self.joint_deals(round_state, active, opponents, spend)
            mine = deals.equity(ranges)
        options = self.field_values(round_state, active, opponents, mine, deals, spend)
        return self.softmax(round_state, options)

    def joint_deals(
        self, round_state: RoundState, active: int, opponents: tuple[int, ...], spend: Spend
    ) -> JointDeals:
        """The street's joint sample against ``opponents``; drawn again when the board or the
        opponents changed, or the ranges moved so far that few deals still count."""
        hand, board = round_state.hands[active], round_state.board
        key = (hand, board, opponents)
        ranges = [self.ranges[seat] for seat in opponents]
        if self._deals is not None and self._deals[0] == key:
            deals = self._deals[1]
            if deals.effective_size(ranges) >= FIELD_REDRAW * len(deals.pairs):
                return deals
        samples = max(30, min(FIELD_SAMPLES, spend.samples // 2))
        deals = JointDeals(hand, board, ranges, samples, self.rng)
        self._deals = (key, deals)
        return deals

    def field_values(
        self,
        round_state: RoundState,
        active: int,
        opponents: tuple[int, ...],
        mine: float,
        deals: JointDeals | None,
        spend: Spend,
    ) -> list[tuple[Action, float]]:
        """Each candidate action with its expected chip result, against one or more opponents.

        As heads-up, showdowns ignore later betting.  Checking or calling wins everything
        the others put in (folded seats' chips too) with our equity; a bet wins it at once
        only when every opponent folds (each by its own model), and otherwise each opponent
        that does not fold matches it, and our equity is against the hands that continue.
        """
        contributions = round_state.contributions
        put_in = contributions[active]
        cost = round_state.continue_cost
        pot = round_state.pot
        legal = round_state.legal_actions()
        options: list[tuple[Action, float]] = []
        if FoldAction in legal and cost > 0:
            options.append((FoldAction(), -float(put_in)))
        passive: Action = CheckAction() if CheckAction in legal else CallAction()
        level = put_in + cost
        options.append((passive, mine * (pot + cost - level) - (1.0 - mine) * level))
        raises = raise_options(round_state)
        if not raises:
            return options
        folds, factors = self.field_folds(round_state, opponents, spend.frugal)
        ranges = [self.ranges[seat] for seat in opponents]
        if factors is None:
            called = mine
        elif deals is not None:
            called = deals.equity(ranges, factors)
        else:
            continuing = WeightedRange.scaled(ranges[0], factors[0])
            called = self.equity_against(continuing, round_state, active, spend)
        for action, share in raises:
            added = action.amount - round_state.pips[active]
            level = put_in + added
            stay = [1.0 - min(0.95, f * math.sqrt(0.5 + share)) for f in folds]
            all_fold = math.prod(1.0 - s for s in stay)
            # Won at showdown: everything in but our own chips, and each caller's call.
            calls = zip(stay, opponents, strict=True)
            win = pot - put_in + sum(p * (level - contributions[seat]) for p, seat in calls)
            showdown = called * win - (1.0 - called) * level
            value = all_fold * (pot - put_in) + (1.0 - all_fold) * showdown
            options.append((action, value))
        return options

    def field_folds(
        self, round_state: RoundState, opponents: tuple[int, ...], frugal: bool
    ) -> tuple[list[float], list[list[float]] | None]:
        """Each opponent's chance to fold to a bet, and the factors (one per pair, per
        opponent) that keep the hands it continues with; only the chances when ``frugal``."""
        situation = Situation(round_state.street > 0, True)
        folds: list[float] = []
        factors: list[list[float]] = []
        strength = buckets(round_state.board) if not frugal else ()
        for seat in opponents:
            model, stats = self._model_of(seat)
            table = model.fold_probabilities(situation, stats)
            if frugal:
                folds.append(sum(table) / len(table))
                continue
            keep = [1.0 - p for p in table]
            kept = list(map(keep.__getitem__, strength))
            folds.append(1.0 - sum(map(mul, self.ranges[seat].weights, kept)))
            factors.append(kept)
        return folds, None if frugal else factors


def limit_spend(spend: Spend) -> Spend:
    """The work of a limit-game decision: :data:`LIMIT_SAMPLE_SHARE` of the samples.

    A limit hand asks more decisions (7.4 a hand against ``builtin:raise``, 4.7 in
    no-limit: raise wars up to the cap, each a range update and two equity estimates) for
    a small bet each, so each gets less.
    """
    return Spend(max(30, int(spend.samples * LIMIT_SAMPLE_SHARE)), spend.frugal)


def temperature(round_state: RoundState) -> float:
    """The softmax's temperature in chips: a share of the pot plus a big blind; in limit a
    smaller share plus a tenth of a big blind, where the values of the actions differ by a
    few small bets."""
    big_blind = round_state.rules.big_blind
    if is_limit(round_state):
        return LIMIT_TEMPERATURE * round_state.pot + LIMIT_TEMPERATURE_BLINDS * big_blind
    return TEMPERATURE * round_state.pot + big_blind


def raise_share(before: RoundState, action: Action) -> float:
    """The size of a bet or raise as a share of the pot it was made into."""
    if not isinstance(action, RaiseAction):
        return 0.0
    seat = before.actor
    added = action.amount - before.pips[seat]
    return added / max(1, before.pot)


def sharpen(table: list[float], share: float) -> list[float]:
    """A bigger bet says more: raise the likelihoods to a power that grows with its size."""
    power = min(2.0, max(0.5, 0.5 + share))
    return [p**power for p in table]
