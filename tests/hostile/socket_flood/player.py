"""Hostile bot: connects, then writes "K" lines as fast as it can without reading anything."""

import socket

from sdk import parse_args

args = parse_args()
connection = socket.create_connection((args.host, args.port))
chunk = b"K\n" * 32768
while True:
    connection.sendall(chunk)
