"""``python -m local_runner.cli``: the same as the ``pokerbots`` command."""

from . import run

run()
