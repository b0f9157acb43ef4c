"""Hostile bot: sends its (correct) reply twice to every message."""

import socket

from sdk import Bot, CallAction, CheckAction, parse_args
from sdk.client import BotClient
from sdk.protocol import decode_message, encode_action
from sdk.rules import rules_from_environment


class Player(Bot):
    def get_action(self, game_state, round_state, active):
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


args = parse_args()
client = BotClient(Player(), rules_from_environment("nlhe"))
connection = socket.create_connection((args.host, args.port))
for line in connection.makefile("rb"):
    try:
        reply = client.handle(decode_message(line.decode("ascii")))
    except Exception:
        reply = CheckAction()  # out of step with the engine: keep answering
    if reply is None:
        break
    text = encode_action(reply).encode("ascii")
    connection.sendall(text + b"\n" + text + b"\n")
