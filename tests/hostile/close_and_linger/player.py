"""Hostile bot: plays two hands, closes its connection at the start of hand 3, keeps running."""

import socket
import time

from sdk import Bot, CallAction, CheckAction, parse_args
from sdk.client import BotClient
from sdk.protocol import decode_message, encode_action
from sdk.rules import rules_from_environment


class Player(Bot):
    quit_now = False

    def handle_new_round(self, game_state, round_state, active):
        self.quit_now = game_state.round_num == 3

    def get_action(self, game_state, round_state, active):
        legal = round_state.legal_actions()
        return CheckAction() if CheckAction in legal else CallAction()


args = parse_args()
player = Player()
client = BotClient(player, rules_from_environment("nlhe"))
connection = socket.create_connection((args.host, args.port))
for line in connection.makefile("rb"):
    reply = client.handle(decode_message(line.decode("ascii")))
    if player.quit_now:
        connection.close()
        break
    if reply is None:
        break
    connection.sendall(encode_action(reply).encode("ascii") + b"\n")
time.sleep(3600)
