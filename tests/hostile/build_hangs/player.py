"""Hostile bot: its build step never ends (see commands.json), so it never runs."""
