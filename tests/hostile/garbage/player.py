"""Hostile bot: answers every message, end-of-hand ones included, with a line of garbage."""

import socket

from sdk import parse_args

args = parse_args()
connection = socket.create_connection((args.host, args.port))
for line in connection.makefile("rb"):
    if line.startswith(b"Q"):
        break
    connection.sendall(b"banana!\n")
