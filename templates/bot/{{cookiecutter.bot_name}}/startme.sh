#!/bin/sh
{% if cookiecutter.wire == "acpc" %}# Start the bot as the ACPC server does: ./startme.sh HOST PORT (it speaks the ACPC wire)
cd "$(dirname "$0")" && exec python3 player.py --protocol acpc {% if cookiecutter.game_file %}--game {{ cookiecutter.game_file }} {% endif %}"$@"
{% else %}# Start the bot: ./startme.sh [HOST] PORT
cd "$(dirname "$0")" && exec python3 player.py "$@"
{% endif %}