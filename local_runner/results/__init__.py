"""What a run means for people: exact moments and intervals, standings and rankings, plain
explanations, and charts (a run's files themselves: :mod:`local_runner.runs`)."""
