"""Hostile bot: its build step fails (see commands.json), so it never runs."""
