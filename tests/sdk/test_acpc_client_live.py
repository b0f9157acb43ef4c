"""Live: a kit bot on the ACPC wire plays the real ACPC dealer and its ``example_player``.

Runs only when ``POKERBOTS_ACPC_DEALER`` names a folder holding the ACPC server's
``dealer``, ``example_player`` and ``*.game`` files (``project_acpc_server`` v1.0.42);
skipped otherwise.  The kit bot is a built-in bot run by ``run_bot(..., protocol="acpc")``
in its own process, as ``python player.py --protocol acpc --game FILE HOST PORT`` runs one;
every line goes through the recording relay of ``scripts/acpc_record.py``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.acpc_checks import check_all, check_client, live_match

ROOT = Path(__file__).resolve().parents[2]
FOLDER = os.environ.get("POKERBOTS_ACPC_DEALER")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.live,
    pytest.mark.skipif(
        not FOLDER,
        reason="set POKERBOTS_ACPC_DEALER to the folder of a built ACPC dealer and example_player",
    ),
]
HANDS = 200
#: A kit bot as a program: a built-in bot behind the SDK's runner (argv: name, then the
#: runner's own arguments).
KIT_BOT = (
    "import sys; sys.path.insert(0, {root!r}); "
    "from local_runner.bots.builtin import make_builtin; "
    "from sdk.runner import parse_args, run_bot; "
    "name = sys.argv.pop(1); run_bot(make_builtin(name, 5), parse_args())"
)


@pytest.mark.parametrize("bot", ["random", "checkcall"])
@pytest.mark.parametrize("label", ["acpc-2pl", "acpc-3pl", "nolimit-2p-server", "acpc-2pn"])
def test_kit_bot_plays_the_real_dealer(label: str, bot: str, tmp_path: Path) -> None:
    """A full match with no WARNING or ERROR from the dealer and nothing printed by any
    player (the SDK warns on stderr when it has to repair or replay); the recorded lines
    pass every codec check, and the kit seat's replies and per-hand results, replayed
    through the client, are the dealer's."""
    command = [
        sys.executable,
        "-c",
        KIT_BOT.format(root=str(ROOT)),
        bot,
        "--protocol",
        "acpc",
        "--game",
        "GAME",
        "127.0.0.1",
        "PORT",
    ]
    golden = live_match(Path(str(FOLDER)), label, HANDS, 23, tmp_path, last_seat=command)
    hands = check_all(golden)
    assert sorted(hands) == list(range(HANDS))
    check_client(golden)
