"""Hostile bot: answers its first message with 100 MB and no newline, then sleeps."""

import socket
import time

from sdk import parse_args

args = parse_args()
connection = socket.create_connection((args.host, args.port))
connection.makefile("rb").readline()
chunk = b"R" * (1 << 20)
for _ in range(100):
    connection.sendall(chunk)
time.sleep(3600)
