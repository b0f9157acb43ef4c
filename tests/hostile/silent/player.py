"""Hostile bot: connects, then neither reads nor writes; it sleeps until it is killed."""

import socket
import time

from sdk import parse_args

args = parse_args()
connection = socket.create_connection((args.host, args.port))
time.sleep(3600)
