"""An independent MIT-protocol client, written from reference/mit-engines.md only.

It does not import the kit's SDK: it parses the clauses itself, keeps its own
count of pips, stacks and whose turn it is (the betting rules of section 1.6),
and answers every message with one line, picking at random among the actions
its own count says are legal.

It also checks what the protocol promises and exits with status 1 on the first
broken promise (the runner then records a crash):

* every message opens with ``T<seconds with 3 decimals>`` (except ``Q``); a hand
  opens with ``P`` then ``H`` (then ``G`` in Bounty Hold'em);
* every action in the history is legal by this client's count, and the engine
  only asks when it is this client's turn;
* a street change is followed by ``B`` with that many cards; in Swap Hold'em
  ``U`` follows ``B`` on the flop and the turn, and only there;
* in Auction Hold'em the big blind bids first, the small blind sees that bid
  as ``A-1`` (sealed), and the auction ends with ``P<seat> N<stacks>_<bids>_<cards>
  B<flop>`` whose stacks follow the second-price rule;
* the hand ends with ``O`` (showdown only), then ``D`` (then ``Y``), and the
  delta is what the written rules pay (``rules/*.txt``), bounties included (in
  Permuted Hold'em, MIT 2020, a secret order of the values decides a showdown: the
  delta must be one of its three outcomes);
  ``Y`` masks the loser's flag as the 2025 engine does;
* bounty ranks change only at hands 1, 26, 51, ...; no card is seen twice;
* in Toss Hold'em (2026, section 2.6): three hole cards and an empty ``G``; on a
  two-card flop the big blind discards (``D<index>``) and the small blind acks with
  ``K``, then the small blind discards; each discarded card is the next card of the
  board; the hand ends with ``O`` (two cards) and the delta ``A<int>``;
* in River of Blood Hold'em (2023): after the river, while the newest board card is red
  (a diamond or a heart), another street with one more card and a betting round follows;
  the hand ends after the street of the first black card from the river on.

Run as ``python player.py VARIANT [--nodelay] [--late-at N [--late-by S]] PORT``; ``--nodelay``
sets ``TCP_NODELAY`` (the MIT Python skeleton does not); ``--late-at N`` sleeps ``--late-by``
seconds (half a second unless given) before the N-th reply; ``--delay S`` sleeps S seconds
before every reply.  Its I/O is the MIT skeleton's: one text file ``sock.makefile('rw')`` for
both directions, ``readline``, ``write`` and ``flush``.  CPython drops what such a file has
read ahead when it writes, so an engine that sends a second line before the first is
answered loses that line here, as it would with every real MIT Python bot.  At ``Q`` it
writes ``stats.json`` (what it saw) into its working directory.
"""

from __future__ import annotations

import json
import math
import random
import re
import socket
import sys
import time
from collections import Counter
from fractions import Fraction

import eval7

RANKS = "23456789TJQKA"
CARDS = {rank + suit for rank in RANKS for suit in "cdhs"}
STARTING_STACK = {
    "nlhe": 400,
    "swap": 200,
    "auction": 400,
    "bounty": 400,
    "toss": 400,
    "blood": 400,
    "permuted": 200,
}
GAME_CLOCK = {
    "nlhe": 30.0,
    "swap": 30.0,
    "auction": 30.0,
    "bounty": 60.0,
    "toss": 60.0,
    "blood": 30.0,
    "permuted": 30.0,
}
BIG_BLIND, SMALL_BLIND = 2, 1
ROUNDS_PER_BOUNTY, BOUNTY_RATIO, BOUNTY_CONSTANT = 25, Fraction(3, 2), 10
CLOCK = re.compile(r"T\d+\.\d{3}")


class Violation(Exception):
    """The engine broke a promise of the protocol."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise Violation(message)


def cards_of(payload: str, clause: str) -> list[str]:
    cards = payload.split(",") if payload else []
    for card in cards:
        check(card in CARDS, f"{card!r} in {clause!r} is not a card")
    check(len(set(cards)) == len(cards), f"a card repeats in {clause!r}")
    return cards


def score(hole: list[str], board: list[str]) -> int:
    value: int = eval7.evaluate([eval7.Card(card) for card in hole + board])
    return value


def rounded(amount: Fraction, seat: int) -> int:
    """Written rules: up for a winner out of position (seat 1), down for the dealer."""
    return math.ceil(amount) if seat == 1 else math.floor(amount)


class Client:
    def __init__(self, variant: str, rng: random.Random) -> None:
        self.variant = variant
        self.toss = variant == "toss"
        # 2026 moved the delta to A, as D became a discard.
        self.delta_letter = "A" if self.toss else "D"
        self.start = STARTING_STACK[variant]
        self.clock = GAME_CLOCK[variant]  # the season's; a test may give a longer one
        self.rng = rng
        self.stats: Counter[str] = Counter()
        self.hands = 0
        self.seat = -1  # none yet: P comes first
        self.in_hand = False
        self.finished = False  # the current hand's last clause (D, or Y) has arrived
        self.bounty: str | None = None
        self.required: list[str] = []

    # -- one message -----------------------------------------------------

    def handle(self, line: str) -> str | None:
        check(line.endswith("\n"), f"unterminated line {line!r}")
        clauses = line[:-1].split(" ")
        check(all(clauses), f"empty clause in {line!r}")
        if clauses == ["Q"]:
            check(not self.in_hand, "Q in the middle of a hand")
            return None
        clock = clauses[0]
        check(CLOCK.fullmatch(clock) is not None, f"message does not open with T: {line!r}")
        check(0.0 <= float(clock[1:]) <= self.clock, f"odd clock {clock}")
        for clause in clauses[1:]:
            self.clause(clause)
        check(not self.required, f"message ended while {self.required} was still due: {line!r}")
        if self.in_hand and self.finished:
            self.in_hand = False
            return "K"
        check(self.in_hand, f"asked to act outside a hand: {line!r}")
        check(self.button % 2 == self.seat, f"asked to act out of turn: {line!r}")
        return self.choose()

    def clause(self, clause: str) -> None:
        kind, payload = clause[0], clause[1:]
        if self.required:
            due = self.required.pop(0)
            check(kind == due, f"expected a {due} clause, got {clause!r}")
        if kind == "P" and (not self.in_hand or self.finished):
            # A new hand (its opening may follow the end of the last one in one message).
            check(payload in ("0", "1"), f"bad seat {clause!r}")
            self.seat = int(payload)
            self.required = ["H"]
        elif kind == "H":
            self.new_hand(cards_of(payload, clause))
        else:
            check(self.in_hand and not self.finished, f"{clause!r} outside a hand")
            handler = {
                "P": self.on_repeated_position,
                "G": self.on_bounty,
                "B": self.on_board,
                "U": self.on_updated_hand,
                "N": self.on_auction_result,
                "O": self.on_opponent_hand,
                self.delta_letter: self.on_delta,
                "Y": self.on_bounty_hits,
            }.get(kind)
            if handler is not None:
                handler(payload, clause)
            elif kind in ("FCKRD" if self.toss else "FCKRA"):
                self.on_action(kind, payload, clause)
            else:
                raise Violation(f"unknown clause {clause!r}")

    # -- the hand --------------------------------------------------------

    def new_hand(self, hole: list[str]) -> None:
        check(self.seat in (0, 1) and (not self.in_hand or self.finished), "H without P first")
        check(len(hole) == (3 if self.toss else 2), f"{len(hole)} hole cards")
        self.hands += 1
        self.in_hand, self.over, self.finished = True, False, False
        self.hand: list[str] = hole
        self.board: list[str] = []
        self.pips = [SMALL_BLIND, BIG_BLIND]
        self.stacks = [self.start - SMALL_BLIND, self.start - BIG_BLIND]
        self.button, self.street = 0, 0
        self.auction = False
        self.bids: list[int | None] = [None, None]
        self.opponent_cards = 2
        self.discarded: list[str | None] = [None, None]  # per seat; the opponent's unseen
        self.folder: int | None = None
        self.showdown = False
        self.opponent: list[str] | None = None
        self.delta: int | None = None
        if self.variant in ("bounty", "toss"):
            self.required = ["G"]

    def seen(self) -> list[str]:
        return self.hand + self.board + (self.opponent or [])

    def legal(self) -> set[str]:
        me = self.button % 2
        if self.toss and self.street in (2, 3):
            # Street 2: the big blind discards, the small blind acks; street 3 the reverse.
            return {"D"} if me != self.street % 2 else {"K"}
        cost = self.pips[1 - me] - self.pips[me]
        if cost == 0:
            free = {"K"} if 0 in self.stacks else {"K", "R"}
            # 2025 (bounty), 2026: fold is always allowed, also with a free check and all in.
            return free | {"F"} if self.variant in ("bounty", "toss") else free
        if cost >= self.stacks[me] or self.stacks[1 - me] == 0:
            return {"F", "C"}
        return {"F", "C", "R"}

    def raise_bounds(self) -> tuple[int, int]:
        me = self.button % 2
        cost = self.pips[1 - me] - self.pips[me]
        most = min(self.stacks[me], self.stacks[1 - me] + cost)
        least = min(most, cost + max(cost, BIG_BLIND))
        return self.pips[me] + least, self.pips[me] + most

    def on_action(self, kind: str, payload: str, clause: str) -> None:
        check(not self.over, f"{clause!r} after the hand ended")
        actor = self.button % 2
        if self.auction:
            check(kind == "A", f"{clause!r} during the auction")
            amount = int(payload)
            if actor != self.seat and self.bids[self.seat] is None:
                check(amount == -1, f"the opponent's sealed bid leaked: {clause!r}")
                self.stats["masked bids"] += 1
            else:
                check(0 <= amount <= self.stacks[actor], f"bid out of bounds: {clause!r}")
            check(actor == 1 or self.bids[1] is not None, "the small blind bid first")
            self.bids[actor] = amount
            self.button += 1
            if None not in self.bids:
                self.required = ["P", "N", "B"]
            return
        check(kind in self.legal(), f"illegal {clause!r} in the history")
        if kind == "D":  # Toss Hold'em: a discard by the seat to act
            index = int(payload)
            check(0 <= index <= 2, f"discard index out of range: {clause!r}")
            if actor == self.seat:
                self.discarded[actor] = self.hand.pop(index)
                self.stats["discards"] += 1
            self.button = 1 - actor
            return
        if kind == "F":
            check(payload == "", f"bad fold {clause!r}")
            self.over, self.folder = True, actor
            self.required = ["D", "Y"] if self.variant == "bounty" else [self.delta_letter]
        elif kind == "C":
            if self.button == 0:
                self.stacks[0] -= self.pips[1] - self.pips[0]
                self.pips[0] = self.pips[1]
                self.button = 1
            else:
                self.stacks[actor] -= self.pips[1 - actor] - self.pips[actor]
                self.pips[actor] = self.pips[1 - actor]
                self.end_street()
        elif kind == "K":
            if (
                (self.street == 0 and self.button > 0)
                or self.button > 1
                or (self.toss and self.street in (2, 3))
            ):
                self.end_street()
            else:
                self.button += 1
        else:
            amount = int(payload)
            low, high = self.raise_bounds()
            check(low <= amount <= high, f"raise out of bounds [{low}, {high}]: {clause!r}")
            self.stacks[actor] -= amount - self.pips[actor]
            self.pips[actor] = amount
            self.button += 1

    def end_street(self) -> None:
        last = 6 if self.toss else 5
        if self.variant == "blood" and self.street >= 5:
            last = self.street if self.board[-1][-1] in "cs" else self.street + 1
        if self.street == last:
            self.over = self.showdown = True
            ending = ["O", "D", "Y"] if self.variant == "bounty" else ["O", self.delta_letter]
            self.required = ending
            return
        if self.toss:  # 0, 2 (the big blind discards), 3 (the small blind), 4, 5, 6
            self.street = 2 if self.street == 0 else self.street + 1
            check(self.street != 4 or self.pips[0] == self.pips[1], "unequal pips")
            self.pips, self.button = [0, 0], 0 if self.street == 3 else 1
            self.required = ["B"]
            return
        self.street = 3 if self.street == 0 else self.street + 1
        self.pips, self.button = [0, 0], 1
        self.auction = self.variant == "auction" and self.street == 3
        self.required = ["B"]

    # -- clauses ---------------------------------------------------------

    def on_repeated_position(self, payload: str, clause: str) -> None:
        check(None not in self.bids and self.auction, f"{clause!r} in the middle of a hand")
        check(payload == str(self.seat), f"{clause!r} is not this client's seat")

    def on_bounty(self, payload: str, clause: str) -> None:
        if self.toss:
            check(payload == "", f"2026 sends G empty, not {clause!r}")
            self.stats["G clauses"] += 1
            return
        check(self.variant == "bounty", f"{clause!r} outside Bounty Hold'em")
        check(len(payload) == 1 and payload in RANKS, f"bad bounty {clause!r}")
        if self.bounty is not None and payload != self.bounty:
            check(self.hands % ROUNDS_PER_BOUNTY == 1, f"bounty changed in hand {self.hands}")
            self.stats["bounty changes"] += 1
        self.bounty = payload
        self.stats["G clauses"] += 1

    def on_board(self, payload: str, clause: str) -> None:
        board = cards_of(payload, clause)
        check(len(board) == self.street, f"{clause!r} on street {self.street}")
        check(board[: len(self.board)] == self.board, f"{clause!r} changed the board")
        if board == self.board:  # 2024 sends the flop again after N
            check(self.variant == "auction" and self.street == 3, f"repeated {clause!r}")
            return
        if self.toss and self.street in (3, 4):
            # Street 3 adds the big blind's discard, street 4 the small blind's.
            discarder = 1 if self.street == 3 else 0
            mine = self.discarded[discarder]
            if mine is not None:
                check(board[-1] == mine, f"{clause!r} does not end with the discarded {mine}")
        self.board = board
        check(len(set(self.seen())) == len(self.seen()), f"{clause!r} repeats a hole card")
        if self.variant == "swap" and self.street in (3, 4):
            self.required = ["U"]

    def on_updated_hand(self, payload: str, clause: str) -> None:
        check(self.variant == "swap" and self.street in (3, 4), f"unexpected {clause!r}")
        hand = cards_of(payload, clause)
        check(len(hand) == 2, f"{clause!r} is not two cards")
        check(not set(hand) & set(self.board), f"{clause!r} holds a board card")
        self.stats["U clauses"] += 1
        self.stats["swapped cards"] += len(set(hand) - set(self.hand))
        self.hand = hand

    def on_auction_result(self, payload: str, clause: str) -> None:
        parts = payload.split("_")
        check(len(parts) == 3, f"bad auction result {clause!r}")
        stacks = [int(x) for x in parts[0].split(",")]
        bids = [int(x) for x in parts[1].split(",")]
        cards = cards_of(parts[2], clause)
        me, them = self.seat, 1 - self.seat
        check(bids[me] == self.bids[me], f"{clause!r} misreports this client's bid")
        if self.bids[them] != -1:
            check(bids[them] == self.bids[them], f"{clause!r} misreports the opponent's bid")
        check(0 <= bids[them] <= self.stacks[them], f"{clause!r}: impossible bid")
        b0, b1 = bids
        expected = list(self.stacks)
        if b0 == b1:
            expected = [expected[0] - b0, expected[1] - b1]
        elif b0 > b1:
            expected[0] -= b1
        else:
            expected[1] -= b0
        check(stacks == expected, f"{clause!r}: stacks should be {expected}")
        won = bids[me] >= bids[them]
        check(cards[:2] == self.hand and len(cards) == (3 if won else 2), f"bad hand {clause!r}")
        self.opponent_cards = 3 if bids[them] >= bids[me] else 2
        self.hand, self.stacks = cards, stacks
        self.bids = list(bids)
        self.auction, self.button = False, 1
        self.stats["auctions"] += 1
        self.stats["auction cards"] += len(cards) - 2
        check(len(set(self.seen())) == len(self.seen()), f"{clause!r} repeats a card")

    def on_opponent_hand(self, payload: str, clause: str) -> None:
        check(self.showdown, f"{clause!r} without a showdown")
        self.opponent = cards_of(payload, clause)
        check(len(self.opponent) == self.opponent_cards, f"{clause!r}: wrong number of cards")
        check(len(set(self.seen())) == len(self.seen()), f"{clause!r} repeats a card")
        self.stats["showdowns"] += 1

    def winner(self) -> int | None:
        if self.folder is not None:
            return 1 - self.folder
        assert self.opponent is not None
        mine, theirs = score(self.hand, self.board), score(self.opponent, self.board)
        if mine == theirs:
            return None
        return self.seat if mine > theirs else 1 - self.seat

    def on_delta(self, payload: str, clause: str) -> None:
        check(self.over, f"{clause!r} before the hand ended")
        self.delta = int(payload)
        if self.variant == "bounty":
            return  # checked with Y
        self.finished = True
        me, them = self.seat, 1 - self.seat
        if self.variant == "permuted" and self.folder is None:
            # A secret order of the values decides the showdown: any of its three outcomes.
            outcomes = {0, self.start - self.stacks[them], -(self.start - self.stacks[me])}
            check(self.delta in outcomes, f"{clause!r}: no showdown pays that")
            return
        winner = self.winner()
        if winner is None:
            expected = 0  # a tie leaves bankrolls unchanged, contributions equal or not
        elif winner == me:
            expected = self.start - self.stacks[them]
        else:
            expected = -(self.start - self.stacks[me])
        check(self.delta == expected, f"{clause!r}: the written rules pay {expected}")

    def on_bounty_hits(self, payload: str, clause: str) -> None:
        check(self.variant == "bounty", f"{clause!r} outside Bounty Hold'em")
        check(len(payload) == 2 and set(payload) <= set("01#"), f"bad {clause!r}")
        mine, theirs = payload[0], payload[1]
        me, them = self.seat, 1 - self.seat
        hit = any(card[0] == self.bounty for card in self.hand + self.board)
        flag = "1" if hit else "0"
        delta = self.delta
        assert delta is not None
        winner = self.winner()
        if delta > 0:
            check(mine == flag and theirs == "#", f"{clause!r} with D{delta}")
        elif delta < 0:
            check(mine == "#" and theirs in "01", f"{clause!r} with D{delta}")
        else:
            check(mine == flag and theirs in "01", f"{clause!r} with D0")
        if winner == me:
            won = Fraction(self.start - self.stacks[them])
            if hit:
                won = Fraction(rounded(BOUNTY_RATIO * won + BOUNTY_CONSTANT, me))
            expected = int(won)
        elif winner == them:
            lost = Fraction(self.start - self.stacks[me])
            if theirs == "1":
                lost = Fraction(rounded(BOUNTY_RATIO * lost + BOUNTY_CONSTANT, them))
            expected = -int(lost)
        else:
            share = (BOUNTY_RATIO - 1) / 2 * (self.start - self.stacks[me]) + BOUNTY_CONSTANT
            if hit and theirs != "1":
                expected = rounded(share, me)
            elif theirs == "1" and not hit:
                expected = -rounded(share, them)
            else:
                expected = 0
        check(delta == expected, f"D{delta} {clause!r}: the written rules pay {expected}")
        self.stats["Y" + payload] += 1
        self.finished = True

    # -- choosing --------------------------------------------------------

    def choose(self) -> str:
        me = self.seat
        if self.auction:
            if me == 0:
                check(self.bids[1] == -1, "the small blind was asked to bid before seeing A-1")
            return f"A{self.rng.randint(0, self.stacks[me])}"
        legal = sorted(self.legal())
        if legal == ["D"]:
            return f"D{self.rng.randint(0, 2)}"
        # A fold with a free check (bounty only) is legal but rare, so hands still reach showdown.
        weights = {"F": 0.2 if "K" in legal else 1, "C": 3, "K": 3, "R": 2}
        kind = self.rng.choices(legal, [weights[k] for k in legal])[0]
        if kind != "R":
            return kind
        low, high = self.raise_bounds()
        if self.rng.random() < 0.8:
            high = min(high, low + 10)
        return f"R{self.rng.randint(low, high)}"


def main() -> int:
    variant, port = sys.argv[1], int(sys.argv[-1])
    client = Client(variant, random.Random(f"mit-client-{variant}"))
    sock = socket.create_connection(("localhost", port))
    if "--nodelay" in sys.argv:
        # The MIT Python skeleton leaves Nagle's algorithm on; this option turns it off.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    channel = sock.makefile("rw")  # exactly as the MIT skeletons open it
    late_at = int(sys.argv[sys.argv.index("--late-at") + 1]) if "--late-at" in sys.argv else 0
    delay = float(sys.argv[sys.argv.index("--delay") + 1]) if "--delay" in sys.argv else 0.0
    late_by = float(sys.argv[sys.argv.index("--late-by") + 1]) if "--late-by" in sys.argv else 0.5
    if "--clock" in sys.argv:
        client.clock = float(sys.argv[sys.argv.index("--clock") + 1])
    line = ""
    replies = 0
    try:
        while line := channel.readline():
            reply = client.handle(line)
            if reply is None:
                break
            replies += 1
            if delay:
                time.sleep(delay)
            if replies == late_at:
                time.sleep(late_by)  # one late reply: the runner times it out and goes on
            channel.write(reply + "\n")
            channel.flush()
    except Violation as violation:
        print(f"PROTOCOL VIOLATION in hand {client.hands}: {violation}", file=sys.stderr)
        print(f"  while reading: {line!r}", file=sys.stderr)
        return 1
    stats = dict(client.stats, hands=client.hands)
    with open("stats.json", "w", encoding="utf-8") as file:
        json.dump(stats, file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
