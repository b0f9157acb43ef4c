"""Put the bot's folder first on the import path, so tests import ``player`` and its ``sdk/``."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
