"""Hostile bot: never connects; it sleeps until it is killed."""

import time

time.sleep(3600)
