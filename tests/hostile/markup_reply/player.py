"""Hostile bot: replies with rich markup ("[/]", "[bold]") and prints markup to its log.

The runner and the console must show these characters as they are: a reply of ``[/]``
once ended a scrimmage in a MarkupError traceback.
"""

import socket
import sys

from sdk import parse_args

args = parse_args()
print("[/] [bold red]not a style[/bold red] :smile:", flush=True)
print("[/]", file=sys.stderr, flush=True)
connection = socket.create_connection((args.host, args.port))
for line in connection.makefile("rb"):
    if line.startswith(b"Q"):
        break
    connection.sendall(b"[/]\n")
