"""Bot programs as processes: what a bot folder says to run, building and starting it in its
own session (optionally sandboxed), its output kept within limits, and every process it
started found and ended."""
