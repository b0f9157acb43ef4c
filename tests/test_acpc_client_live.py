"""Live: a kit bot on the ACPC wire plays the real ACPC dealer and its ``example_player``.

Runs only when ``POKERBOTS_ACPC_DEALER`` names a folder holding the ACPC server's
``dealer``, ``example_player`` and ``*.game`` files (``project_acpc_server`` v1.0.42);
skipped otherwise.  The kit bot is a built-in bot run by ``run_bot(..., protocol="acpc")``
in its own process, as ``python player.py --protocol acpc --game FILE HOST PORT`` runs one;
every line goes through the recording relay of ``scripts/acpc_record.py``.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest
from acpc_checks import Golden, check_all, check_client

from sdk.gamedef import parse_gamedef

ROOT = Path(__file__).resolve().parents[1]
FOLDER = os.environ.get("POKERBOTS_ACPC_DEALER")
pytestmark = pytest.mark.skipif(
    not FOLDER,
    reason="set POKERBOTS_ACPC_DEALER to the folder of a built ACPC dealer and example_player",
)
HANDS = 200
#: A kit bot as a program: a built-in bot behind the SDK's runner (argv: name, then the
#: runner's own arguments).
KIT_BOT = (
    "import sys; sys.path.insert(0, {root!r}); "
    "from local_runner.builtin_bots import make_builtin; "
    "from sdk.runner import parse_args, run_bot; "
    "name = sys.argv.pop(1); run_bot(make_builtin(name, 5), parse_args())"
)


def _recorder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("acpc_record", ROOT / "scripts/acpc_record.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["acpc_record"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("bot", ["random", "checkcall"])
@pytest.mark.parametrize("label", ["acpc-2pl", "acpc-3pl", "nolimit-2p-server", "acpc-2pn"])
def test_kit_bot_plays_the_real_dealer(label: str, bot: str, tmp_path: Path) -> None:
    """A full match with no WARNING or ERROR from the dealer and nothing printed by any
    player (the SDK warns on stderr when it has to repair or replay); the recorded lines
    pass every codec check, and the kit seat's replies and per-hand results, replayed
    through the client, are the dealer's."""
    recorder = _recorder()
    folder = Path(str(FOLDER))
    file_name, text = recorder.game_text(folder, label)
    players = recorder.GAMES[label][1]
    kit_slot = players - 1
    command = [
        sys.executable, "-c", KIT_BOT.format(root=str(ROOT)), bot,
        "--protocol", "acpc", "--game", file_name, "127.0.0.1", "PORT",
    ]
    commands = [None] * kit_slot + [command]
    recording = recorder.play(
        folder, file_name, text, players, HANDS, 23, label, tmp_path, commands
    )
    assert recorder.problems(recording) == []
    golden = Golden(
        game=parse_gamedef(text),
        names=list(recorder.NAMES[:players]),
        seats=recording.seats,
        stderr=recording.stderr,
        log=recording.log,
        stdout=recording.stdout,
    )
    hands = check_all(golden)
    assert sorted(hands) == list(range(HANDS))
    check_client(golden)
