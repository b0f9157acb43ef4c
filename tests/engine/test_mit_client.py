"""A bot that speaks the MIT protocol without the kit's SDK plays every variant here.

The client (``tests/mit_client/player.py``) is written from the protocol
description in ``reference/mit-engines.md`` alone: its own parsing, its own
count of pips, stacks and legal actions.  It checks what the protocol promises
(sealed bids shown as ``A-1``, ``U`` after ``B`` on the flop and the turn, ``G``
in every hand's opening, the delta the written rules pay, ...) and exits with
status 1 on the first broken promise, which the runner records as a crash.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from sdk.rules import Rules
from tests.modules import load_file

pytestmark = pytest.mark.slow  # an independent client process over a socket


CLIENT = Path(__file__).resolve().parents[1] / "mit_client" / "player.py"
HANDS = 500


def mit_bot(
    directory: Path,
    variant: str,
    nodelay: bool = True,
    late_at: int = 0,
    delay: float = 0.0,
    late_by: float = 0.5,
    clock: float | None = None,
) -> Path:
    """A bot directory whose player.py is the independent client, playing ``variant``.

    ``nodelay`` turns Nagle's algorithm off on the client's socket; the MIT Python
    skeleton leaves it on (see the last test).  ``clock`` is the game clock the match
    gives (the season's by default): the client checks every ``T`` against it.
    """
    directory.mkdir()
    shutil.copy(CLIENT, directory / "player.py")
    options = ["--nodelay"] if nodelay else []
    if late_at:
        options += ["--late-at", str(late_at), "--late-by", str(late_by)]
    if delay:
        options += ["--delay", str(delay)]
    if clock is not None:
        options += ["--clock", str(clock)]
    commands = {"build": [], "run": [sys.executable, "player.py", variant, *options]}
    (directory / "commands.json").write_text(json.dumps(commands), encoding="utf-8")
    return directory


def test_the_client_does_not_use_the_sdk() -> None:
    source = CLIENT.read_text(encoding="utf-8")
    assert "import sdk" not in source and "from sdk" not in source
    assert "local_runner" not in source


@pytest.mark.parametrize("variant", ["nlhe", "swap", "auction", "bounty", "toss", "permuted"])
def test_an_independent_mit_client_plays_500_hands_without_a_fault(
    tmp_path: Path, variant: str
) -> None:
    bot = mit_bot(tmp_path / "mit", variant)
    config = ScrimmageConfig(rules=Rules.for_variant(variant).replace(num_rounds=HANDS), seed=7)
    out = tmp_path / "out"
    result = run_scrimmage([BotSpec.parse(str(bot)), BotSpec.parse("builtin:random")], config, out)

    log = (out / "mit.log").read_text(encoding="utf-8", errors="replace")
    assert result.hands_played == HANDS
    assert result.players[0].fault_counts == {}, log[-3000:]
    assert result.players[1].fault_counts == {}
    assert result.players[0].bankroll + result.players[1].bankroll == 0

    # What the client saw: the checks it makes were exercised, not skipped.
    stats = json.loads((bot / "stats.json").read_text(encoding="utf-8"))
    assert stats["hands"] == HANDS
    assert stats.get("showdowns", 0) > 20
    if variant == "swap":
        # U on the flop and on the turn of every hand that reaches them, swaps or not.
        assert stats["U clauses"] > 100
        assert stats["swapped cards"] > 0
    else:
        assert "U clauses" not in stats
    if variant == "auction":
        assert stats["auctions"] > 50
        assert stats["masked bids"] > 20  # the client was the second bidder in about half
        assert stats["auction cards"] > 0
    else:
        assert "auctions" not in stats
    if variant == "bounty":
        assert stats["G clauses"] == HANDS
        assert stats["bounty changes"] >= 1
        flags = {key: count for key, count in stats.items() if key.startswith("Y")}
        assert sum(flags.values()) == HANDS
        assert any("#" in key for key in flags)  # a loser's flag is masked
    elif variant == "toss":
        assert stats["G clauses"] == HANDS  # the empty G of 2026
        assert stats["discards"] > 100  # the discards it made, checked against each B
    else:
        assert "G clauses" not in stats
    if variant != "toss":
        assert "discards" not in stats


def load_client_module() -> ModuleType:
    return load_file("mit_client_player", CLIENT)


def feed(variant: str, messages: list[str]) -> list[str | None]:
    """The client's replies to ``messages`` (one seat's side of an exchange)."""
    module = load_client_module()
    client = module.Client(variant, random.Random(0))
    return [client.handle(message + "\n") for message in messages]


# One seat's side of the constructed exchanges of reference/mit-engines.md (2.1, 2.2).
MIT_BASE_P0 = [
    "T30.000 P0 HAh,Kd",
    "T29.995 R6 C B2h,9d,Qs K",
    "T29.993 R8 F D6",
    "Q",
]
MIT_SWAP_P1 = [
    "T30.000 P1 H7c,7s C",
    "T29.990 K B2h,9d,Qs U7c,Jd",
    "T29.985 K R4",
    "T29.980 C B2h,9d,Qs,3c U7c,Jd",
    "T29.975 K K B2h,9d,Qs,3c,8s",
    "T29.970 K K OAh,Kd D-6",
    "Q",
]


def test_the_client_follows_the_constructed_mit_exchanges() -> None:
    # The client only answers; what it answers is random, but each reply is one
    # action line, and K at the end of the hand.
    replies = feed("nlhe", MIT_BASE_P0)
    assert replies[-2] == "K" and replies[-1] is None
    replies = feed("swap", MIT_SWAP_P1)
    assert replies[-2] == "K" and replies[-1] is None


def test_the_client_reads_the_end_of_a_hand_and_the_next_opening_in_one_message() -> None:
    # This runner sends a late bot the end of a hand with the next hand's opening.
    replies = feed("nlhe", ["T30.000 P0 HAh,Kd", "T29.000 F D-1 P1 H7c,7s C"])
    reply = replies[1]
    assert reply is not None and (reply == "K" or reply.startswith("R"))  # the big blind's option
    replies = feed("nlhe", ["T30.000 P0 HAh,Kd", "T29.000 F D-1 P1 H7c,7s F D1", "Q"])
    assert replies[1:] == ["K", None]


def test_the_client_rejects_the_2024_sealed_bid_leak() -> None:
    # 2.4: the MIT engine shows the small blind the big blind's bid before it bids.
    messages = ["T30.000 P0 HAh,Kd", "T29.995 R6 C B2h,9d,Qs A12"]
    module = load_client_module()
    client = module.Client("auction", random.Random(0))
    client.handle(messages[0] + "\n")
    with pytest.raises(module.Violation, match="sealed bid leaked"):
        client.handle(messages[1] + "\n")


def test_the_client_rejects_the_2025_rounding_by_action_parity() -> None:
    # 2.5: the dealer wins 17.5 with a bounty hit; the MIT engine rounds up (D18),
    # the written rules round down for the dealer (D17).
    module = load_client_module()
    opening = ["T60.000 P0 HAh,Kd GK", "T59.995 R5 C B2h,9d,Qs K"]
    for ending, ok in (("T59.990 R10 F D18 Y1#", False), ("T59.990 R10 F D17 Y1#", True)):
        client = module.Client("bounty", random.Random(0))
        for message in opening:
            client.handle(message + "\n")
        if ok:
            assert client.handle(ending + "\n") == "K"
        else:
            with pytest.raises(module.Violation, match="written rules pay 17"):
                client.handle(ending + "\n")


def test_a_client_that_leaves_nagle_on_like_the_mit_python_skeleton_is_not_charged_for_it(
    tmp_path: Path,
) -> None:
    # The MIT Python skeleton connects with socket.create_connection and writes through
    # sock.makefile("rw"), without TCP_NODELAY (its C++ and Java skeletons set it).
    # This engine sends a hand's last message and the next hand's first one without
    # waiting for the K in between; the bot's reply to the second then waits in the
    # bot's kernel for the engine's delayed ACK of the K (about 40 ms on Linux), and the
    # wait is charged to the bot's game clock.  The MIT engine waits for the K, so no
    # reply waits there.  With NODELAY no reply here takes 35 ms (0 of about 1150 in
    # every run we made); without it, 25 to 180 did.
    bot = mit_bot(tmp_path / "mit", "nlhe", nodelay=False)
    config = ScrimmageConfig(rules=Rules.for_variant("nlhe").replace(num_rounds=300), seed=7)
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:checkcall")]
    result = run_scrimmage(specs, config, tmp_path / "out", record_reply_times=True)
    mit = result.players[0]
    assert mit.fault_counts == {}
    stalled = [t for t in mit.reply_times if t >= 0.035]
    assert len(stalled) <= 5, (
        f"{len(stalled)} of {len(mit.reply_times)} replies took 35 ms or more; "
        f"{mit.time_used:.2f} s of game clock charged in 300 hands"
    )
