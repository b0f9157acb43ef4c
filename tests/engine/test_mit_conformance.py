"""Recorded exchanges with the real MIT engines and skeletons, replayed without a network.

``scripts/mit_conformance.py --record tests/conformance`` recorded these (its module
docstring says how); they are the lines that crossed the wire, nothing of the MIT code:

* ``mit-YEAR-engine.txt``: the MIT engine of that year talking to the kit's starter bot.
  Replayed here into the SDK's client with the same bot: it must parse every line the
  real engine sent and give the very replies it gave then.
* ``kit-YEAR-skeleton.txt``: this kit's engine talking to the unchanged MIT
  ``python_skeleton`` of that year (against ``builtin:random``, same seed).  Replayed here
  into the engine with the skeleton's recorded replies: the engine must send the very same
  lines (the clock value aside, which depends on timing), one at a time.

The live checks (the real skeletons for 1000 hands, idle and pinned next to a busy loop) need
the MIT repositories and run from ``scripts/mit_conformance.py``.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from pathlib import Path

import pytest

from local_runner.bots.builtin import make_builtin
from local_runner.engine.match import Match
from local_runner.engine.seats import InProcessSeat, Reply, Seat
from sdk.bot import Bot
from sdk.client import BotClient
from sdk.games import SEASONS
from sdk.protocol import Clause, decode_action, decode_message, encode_action, encode_message
from sdk.rules import Rules
from tests.modules import load_file

HERE = Path(__file__).resolve().parents[1]  # tests/
RECORDINGS = HERE / "conformance"
STARTER = HERE.parent / "skeleton" / "player.py"
#: Each MIT season's game, as declared (a new season's recordings are looked for at once).
YEARS = {"base": "nlhe", **{season[4:]: name for season, name in SEASONS.items()}}
_CLOCK = re.compile(r"^T\d+(\.\d+)?")


def exchanges(path: Path) -> list[tuple[str, str | None]]:
    """The (engine line, bot reply) pairs of a recording; the reply is None after ``Q``."""
    lines = [line for line in path.read_text(encoding="ascii").splitlines() if line[:1] != "#"]
    pairs: list[tuple[str, str | None]] = []
    for line in lines:
        if line.startswith("<- "):
            pairs.append((line[3:], None))
        else:
            assert line.startswith("-> ") and pairs and pairs[-1][1] is None, line
            pairs[-1] = (pairs[-1][0], line[3:])
    return pairs


def starter_bot() -> Bot:
    """A fresh copy of the kit's starter bot (skeleton/player.py)."""
    bot: Bot = load_file("starter_player", STARTER).Player()
    return bot


@pytest.mark.parametrize("year", sorted(YEARS))
def test_the_sdk_client_replays_the_real_engines_lines_with_the_same_replies(year: str) -> None:
    pairs = exchanges(RECORDINGS / f"mit-{year}-engine.txt")
    assert len(pairs) > 80
    rules = Rules.for_variant(YEARS[year])
    client = BotClient(starter_bot(), rules)
    delta = " A" if rules.discard else " D"  # 2026 moved the delta to A (D is a discard)
    ends = 0
    for message, recorded in pairs:
        reply = client.handle(decode_message(message, rules))
        assert recorded is not None
        assert reply is not None and encode_action(reply) == recorded, message
        ends += delta in f" {message}"
    assert ends >= 29  # every recorded hand ended, and the client acknowledged it


class ReplayingSeat(Seat):
    """A seat that answers with a recording's replies and checks each line it is sent."""

    def __init__(
        self, name: str, pairs: Sequence[tuple[str, str | None]], rules: Rules | None = None
    ) -> None:
        self.name = name
        self.rules = rules
        self.expected = deque(pairs)
        self.replies: deque[Reply] = deque()
        self.sent: list[str] = []

    @property
    def alive(self) -> bool:
        return bool(self.expected) or bool(self.replies)

    @property
    def outstanding(self) -> int:
        return len(self.replies)

    def send(self, clauses: Sequence[Clause], hand: int, ack: bool) -> None:
        assert not self.replies, "a line was sent while the bot still owed a reply"
        line = encode_message(clauses, self.rules)
        message, reply = self.expected.popleft()
        assert _CLOCK.sub("T*", line) == _CLOCK.sub("T*", message), (hand, line, message)
        assert reply is not None
        self.sent.append(line)
        self.replies.append(Reply(hand, decode_action(reply, self.rules), 0.0, ack, reply))

    def receive(self, budget: float) -> Reply:
        return self.replies.popleft()

    def quit(self) -> None:
        """The match is over: the recording must be used up."""
        assert not self.expected, f"{len(self.expected)} recorded lines were never sent"


@pytest.mark.parametrize("year", sorted(YEARS))
def test_the_engine_sends_the_real_skeleton_the_recorded_lines(year: str) -> None:
    path = RECORDINGS / f"kit-{year}-skeleton.txt"
    header = path.read_text(encoding="ascii").splitlines()[0]
    seed = int(re.search(r"seed (\d+)", header).group(1))  # type: ignore[union-attr]
    rules = Rules.for_variant(YEARS[year])
    skeleton = ReplayingSeat("mit", exchanges(path), rules)
    opponent = InProcessSeat("random", make_builtin("random", seed + 1), rules)
    hands = sum(1 for message, _ in skeleton.expected if re.search(r" H[2-9TJQKA]", message))
    assert hands == 30
    Match([skeleton, opponent], rules, seed).play(hands)
    assert len(skeleton.sent) > 50
