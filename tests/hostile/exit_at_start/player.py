"""Hostile bot: exits with status 3 before it connects."""

import sys

sys.exit(3)
