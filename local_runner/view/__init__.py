"""Seeing a match after the fact, and playing one: hand histories, replay, report, human seat.

Everything here reads a run's files (``summary.json``, ``hands.jsonl``) through
:mod:`local_runner.runs` (``open_run``), which trusts nothing in them, and rebuilds each
hand with the SDK's own state machine (:mod:`local_runner.view.timeline`).
"""
