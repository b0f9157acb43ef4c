"""``python -m local_runner.cli``: the same as the ``pokerbots`` command."""

import sys

from . import main

sys.exit(main())
