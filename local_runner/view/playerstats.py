"""Per-bot playing statistics of a match, from its replayed hands.

The numbers poker players read from a hand history, counted for each bot:

* VPIP: the share of hands in which the bot put chips in preflop by choice
  (a call or a raise it played itself; the big blind's free check is not one).
* PFR: the share of hands in which it raised preflop.
* Aggression factor: its bets and raises after preflop divided by its calls there
  (None without a call).
* Saw the flop: the share of hands in which it was still in when the hand left
  preflop.  Went to showdown (WTSD): the share of those that it took to a showdown
  without folding.  Won at showdown (W$SD): the share of its showdowns that won chips.
* By street (as the game's declaration in :mod:`sdk.games` names them): the betting
  decisions it made there (bets and raises, calls, checks, folds), the aggression
  factor, and its fold rate when facing a bet (folds / decisions with chips to call).
* By position: hands, VPIP, PFR, and its result in mbb/hand with its 95% interval
  (:class:`~local_runner.results.stats.Moments`, the kit's one interval engine), for each
  seat counted from the button (button, small blind, big blind: the blinds are read
  from each hand's opening state, not assumed).
* Bids, on the streets whose declaration ``asks`` for a bid (Auction Hold'em): how many,
  their mean size, their mean share of the pot, zero bids, and auctions won.
* Discards, on the streets that ask for one (Toss Hold'em): how many, and how often the
  card discarded was the lowest-ranked hole card.
* Swaps, after the streets whose declaration ``swaps`` (Swap Hold'em): the hole cards
  the deal replaced (chance, not a choice: shown so that a result can be read with it).
* Clock per street: the reply time of its decisions on each street, where the
  record has reply times (an action's optional ``seconds``); None otherwise.

Forced actions (played by the runner: a blind, the only legal move, a fault's default)
are not decisions and count nowhere except in the clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sdk.actions import BidAction, CallAction, CheckAction, DiscardAction, FoldAction, RaiseAction
from sdk.games import street_named, swap_streets
from sdk.rules import RANKS, Rules

from ..results.stats import Moments, summary_dict
from .timeline import Walk, street_name

__all__ = ["PlayerStats", "StreetCounts", "position_name"]


def _rate(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(part / whole, 4)


def _factor(aggressive: int, calls: int) -> float | None:
    return None if calls == 0 else round(aggressive / calls, 3)


def position_name(w: Walk, seat: int) -> tuple[int, str]:
    """The position of ``seat`` in the hand ``w``: its offset from the button, and its name,
    ``button``, ``small blind`` or ``big blind`` (from the blinds posted in the hand's
    opening state), else ``button+N``."""
    opening = w.before[0] if w.before else w.last
    rules = opening.rules
    offset = (seat - opening.button) % len(opening.pips)
    if offset == 0:
        return offset, "button"  # heads-up the button also posts the small blind
    pip = opening.pips[seat]
    if pip == rules.big_blind:
        return offset, "big blind"
    if pip == rules.small_blind:
        return offset, "small blind"
    return offset, f"button+{offset}"


@dataclass(slots=True)
class StreetCounts:
    """One bot's betting decisions on one street."""

    aggressive: int = 0
    """Bets and raises."""
    calls: int = 0
    checks: int = 0
    folds: int = 0
    faced_bet: int = 0
    """Decisions with chips to call."""
    folded_to_bet: int = 0

    def to_dict(self) -> dict[str, Any]:
        """The counts, the aggression factor and the fold rate facing a bet."""
        return {
            "bets_raises": self.aggressive,
            "calls": self.calls,
            "checks": self.checks,
            "folds": self.folds,
            "faced_bet": self.faced_bet,
            "aggression": _factor(self.aggressive, self.calls),
            "fold_to_bet": _rate(self.folded_to_bet, self.faced_bet),
        }


@dataclass(slots=True)
class _Position:
    offset: int
    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    moments: Moments = field(default_factory=Moments)


@dataclass(slots=True)
class PlayerStats:
    """Running counts for one bot; :meth:`add` one replayed hand at a time."""

    name: str
    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    aggressive: int = 0
    calls: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdown_wins: int = 0
    won: int = 0
    streets: dict[str, StreetCounts] = field(default_factory=dict)
    """Betting decisions per street name, in the order the streets were first met."""
    positions: dict[str, _Position] = field(default_factory=dict)
    bids: list[int] = field(default_factory=list)
    bid_pot_shares: list[float] = field(default_factory=list)
    auctions: int = 0
    auctions_won: int = 0
    discards: int = 0
    discarded_lowest: int = 0
    swapped: int = 0
    clock: dict[int, float] = field(default_factory=dict)
    """Seconds of reply time per street (0, 3, 4, 5), from the actions that record it."""
    rules: Rules | None = None
    """The rules of the hands counted (for the names of their streets)."""

    def add(self, w: Walk) -> None:
        """Count the hand ``w`` if this bot played it."""
        hand = w.hand
        if self.name not in hand.players:
            return
        seat = hand.players.index(self.name)
        rules = self.rules = w.last.rules
        self.hands += 1
        voluntary = raised = folded = folded_preflop = False
        for index, record in enumerate(hand.actions):
            if record.seat != seat:
                continue
            if record.seconds is not None:
                self.clock[record.street] = self.clock.get(record.street, 0.0) + record.seconds
            action = record.action
            if isinstance(action, FoldAction):
                folded = True
                folded_preflop = record.street == 0
            if record.forced:
                continue
            state = w.before[index]
            asks = street_named(rules, record.street).asks
            if isinstance(action, BidAction):
                if "bid" in asks:
                    self.bids.append(action.amount)
                    self.bid_pot_shares.append(action.amount / max(1, state.pot))
                continue
            if isinstance(action, DiscardAction):
                if "discard" in asks:
                    self._discard(state.hands[seat], action.index)
                continue
            if record.street == 0:
                voluntary = voluntary or isinstance(action, (CallAction, RaiseAction))
                raised = raised or isinstance(action, RaiseAction)
            elif isinstance(action, RaiseAction):
                self.aggressive += 1
            elif isinstance(action, CallAction):
                self.calls += 1
            self._street(street_name(record.street, rules), action, state.continue_cost > 0)
        self.vpip += voluntary
        self.pfr += raised
        delta = hand.deltas[seat]
        # Past preflop: somebody acted on a later street, or the board ran out to a showdown.
        past_preflop = hand.showdown or any(r.street > 0 for r in hand.actions)
        self.saw_flop += past_preflop and not folded_preflop
        if hand.showdown and not folded:
            self.showdowns += 1
            self.showdown_wins += delta > 0
        self.won += delta > 0
        if hand.auction is not None:
            self.auctions += 1
            self.auctions_won += seat in hand.auction.winners  # a tie: every top bidder wins
        self.swapped += sum(
            sum(a != b for a, b in zip(s.old, s.new, strict=False))
            for s in hand.swaps
            if s.seat == seat
        )
        offset, where = position_name(w, seat)
        spot = self.positions.setdefault(where, _Position(offset))
        spot.hands += 1
        spot.vpip += voluntary
        spot.pfr += raised
        spot.moments.add(delta)

    def _street(self, name: str, action: object, facing: bool) -> None:
        counts = self.streets.setdefault(name, StreetCounts())
        if isinstance(action, RaiseAction):
            counts.aggressive += 1
        elif isinstance(action, CallAction):
            counts.calls += 1
        elif isinstance(action, CheckAction):
            counts.checks += 1
        elif isinstance(action, FoldAction):
            counts.folds += 1
            counts.folded_to_bet += facing
        counts.faced_bet += facing

    def _discard(self, cards: tuple[str, ...], index: int) -> None:
        self.discards += 1
        if 0 <= index < len(cards):
            ranks = [RANKS.index(card[0]) for card in cards]
            self.discarded_lowest += ranks[index] == min(ranks)

    def to_dict(self) -> dict[str, Any]:
        """Rates as fractions (None where nothing was counted)."""
        big_blind = self.rules.big_blind if self.rules is not None else 1
        return {
            "name": self.name,
            "hands": self.hands,
            "vpip": _rate(self.vpip, self.hands),
            "pfr": _rate(self.pfr, self.hands),
            "aggression": _factor(self.aggressive, self.calls),
            "bets_raises_postflop": self.aggressive,
            "calls_postflop": self.calls,
            "saw_flop": _rate(self.saw_flop, self.hands),
            "wtsd": _rate(self.showdowns, self.saw_flop),
            "wsd": _rate(self.showdown_wins, self.showdowns),
            "showdowns": self.showdowns,
            "showdown_wins": self.showdown_wins,
            "hands_won": self.won,
            "streets": {name: counts.to_dict() for name, counts in self.streets.items()},
            "positions": {
                name: {
                    "hands": spot.hands,
                    "vpip": _rate(spot.vpip, spot.hands),
                    "pfr": _rate(spot.pfr, spot.hands),
                    "result": summary_dict(spot.moments.summary(big_blind))
                    if spot.moments.n
                    else None,
                }
                for name, spot in sorted(self.positions.items(), key=lambda item: item[1].offset)
            },
            "bids": None
            if not self.bids
            else {
                "count": len(self.bids),
                "mean": round(sum(self.bids) / len(self.bids), 2),
                "mean_pot_share": round(sum(self.bid_pot_shares) / len(self.bids), 4),
                "zero": sum(1 for b in self.bids if b == 0),
                "auctions": self.auctions,
                "auctions_won": self.auctions_won,
            },
            "discards": None
            if not self.discards
            else {
                "count": self.discards,
                "lowest": _rate(self.discarded_lowest, self.discards),
            },
            "swapped_cards": self.swapped
            if self.rules is not None and swap_streets(self.rules)
            else None,
            "clock_per_street": self._clock_by_name() or None,
        }

    def _clock_by_name(self) -> dict[str, float]:
        # A repeating street (River of Blood's runs) has one name for several boards.
        named: dict[str, float] = {}
        for street, seconds in sorted(self.clock.items()):
            name = street_name(street, self.rules)
            named[name] = named.get(name, 0.0) + seconds
        return {name: round(seconds, 6) for name, seconds in named.items()}
