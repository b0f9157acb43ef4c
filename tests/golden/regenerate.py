"""Rewrite the golden transcripts: ``python tests/golden/regenerate.py``.

Run it after a deliberate change to the engine's messages, read the diff
against the constructed exchanges in ``reference/mit-engines.md``, and commit
the files with the change.
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS.parent), str(TESTS)]

from golden.transcripts import SCENARIOS, golden_path, transcript  # noqa: E402


def main() -> None:
    for scenario in SCENARIOS:
        path = golden_path(scenario.variant)
        text = transcript(scenario)
        changed = not path.exists() or path.read_text(encoding="utf-8") != text
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {'rewritten' if changed else 'unchanged'}")


if __name__ == "__main__":
    main()
