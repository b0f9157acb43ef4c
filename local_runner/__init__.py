"""pokerbots-kit local runner: the reference engine, bot processes, scrimmages and tools.

The command line (``pokerbots``) is a thin layer over these modules; each
command is a typed function callable from Python and tests.
"""

__all__: list[str] = []
