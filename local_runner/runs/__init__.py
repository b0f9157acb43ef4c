"""A run's files: one module per format, each writes and reads it.

* :mod:`.layout`: every file and folder name of a run (a match, a duplicate match's
  legs, a tournament), and where to find the legs of a run folder;
* :mod:`.gamelog`: ``gamelog.txt``, the MIT engines' text (written only);
* :mod:`.hands`: ``hands.jsonl``, one JSON line per hand: the writer's object and the
  reader's :class:`~.hands.Hand`, side by side;
* :mod:`.summary`: ``summary.json``, written and read;
* :mod:`.writer`: :class:`~.writer.MatchLogWriter`, which streams a match's files;
* :mod:`.reader`: :func:`~.reader.open_run`, a run folder opened and checked.

The package sits just above :mod:`local_runner.engine` (it reads the engine's
``HandRecord``) and below everything that plays or shows a run.
"""
