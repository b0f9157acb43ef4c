"""``run_bot`` freezes what the match made once it is over, so that the bot's exit does not
walk it all in a last collection while the engine waits for the bot to end."""

from __future__ import annotations

import argparse
import gc
import socket
import threading

from sdk import Action, Bot, CheckAction, GameState, RoundState
from sdk.runner import run_bot


class _Checker(Bot):
    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        return CheckAction()


def _engine_that_quits(server: socket.socket) -> None:
    connection, _ = server.accept()
    with connection:
        connection.sendall(b"Q\n")


def test_run_bot_freezes_the_objects_of_the_match_when_it_ends() -> None:
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    with socket.create_server(("127.0.0.1", 0)) as server:
        engine = threading.Thread(target=_engine_that_quits, args=(server,))
        engine.start()
        args = argparse.Namespace(host="127.0.0.1", port=server.getsockname()[1])
        try:
            run_bot(_Checker(), args)
            assert gc.get_freeze_count() > 0
        finally:
            gc.unfreeze()  # this process goes on with other tests
            engine.join(timeout=10)


def test_a_bot_that_never_connected_is_left_alone() -> None:
    gc.unfreeze()
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
    args = argparse.Namespace(host="127.0.0.1", port=port)  # nothing listens there now
    run_bot(_Checker(), args)
    assert gc.get_freeze_count() == 0
