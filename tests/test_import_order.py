"""Every module of the kit imports on its own, first thing in a fresh interpreter.

A bot may start with ``import sdk.variants.toss`` and a script with any module of the
runner: an import cycle that only works when another module happened to come first would
fail there (importing a variant module first once did: its rules were checked against the
registry that was importing it).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run in a fresh interpreter that has imported none of the kit: each module is imported
# first in a forked child of it (a fork is a fresh start for the kit's modules, and much
# cheaper than an interpreter per module).  Prints the failures as JSON.
_PROBE = r"""
import json, os, sys, traceback

names = []
for package in ("sdk", "local_runner"):  # the files, walked without importing anything
    for folder, _, files in sorted(os.walk(os.path.join(sys.argv[1], package))):
        if not os.path.isfile(os.path.join(folder, "__init__.py")):
            continue
        parts = os.path.relpath(folder, sys.argv[1]).split(os.sep)
        for file in sorted(files):
            stem, extension = os.path.splitext(file)
            if extension == ".py" and stem != "__main__":  # running it is its import
                names.append(".".join(parts if stem == "__init__" else [*parts, stem]))
assert not any(name.split(".")[0] in sys.modules for name in names), "the kit came in early"
failures = {}
for name in names:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        message = b""
        try:
            __import__(name)
        except ModuleNotFoundError as error:  # an extra that is not installed is no cycle
            if (error.name or "").split(".")[0] in ("sdk", "local_runner"):
                message = traceback.format_exc().encode()
        except BaseException:
            message = traceback.format_exc().encode()
        os.write(write, message[-3000:])
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        message = pipe.read()
    os.waitpid(pid, 0)
    if message:
        failures[name] = message.decode(errors="replace")
print(json.dumps({"checked": len(names), "failures": failures}))
"""


def test_every_module_imports_first_in_a_fresh_interpreter() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        cwd=ROOT,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["checked"] > 100  # both packages were walked
    assert report["failures"] == {}
