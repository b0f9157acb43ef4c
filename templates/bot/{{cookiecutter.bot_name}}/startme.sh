#!/bin/sh
# Start the bot: ./startme.sh [HOST] PORT
cd "$(dirname "$0")" && exec python3 player.py "$@"
