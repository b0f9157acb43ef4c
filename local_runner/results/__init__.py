"""What a run means for people: exact moments and intervals, standings and rankings, the
match logs, plain explanations, and charts."""
