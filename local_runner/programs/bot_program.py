"""What a bot directory says: how to build and how to run the bot.

A bot is a directory with either ``commands.json`` (the MIT Pokerbots format: ``build`` and
``run`` argv lists, the port appended to ``run``) or an executable ``startme.sh`` (run as
``./startme.sh HOST PORT``).  :meth:`BotProgram.from_directory` reads it and says, in full
sentences, what is wrong when it cannot.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from sdk.errors import KitError

__all__ = ["BotDirectoryError", "BotProgram"]

_EXAMPLE = '{"build": [], "run": ["python3", "player.py"]}'


class BotDirectoryError(KitError, ValueError):
    """A bot directory is missing or does not say how to build and run the bot."""


@dataclass(frozen=True)
class BotProgram:
    """How to build and run one bot, as described by its directory."""

    directory: Path
    build: tuple[str, ...]
    run: tuple[str, ...]
    append_host: bool  # True: run + [host, port] (startme.sh); False: run + [port]
    source: str  # "commands.json" or "startme.sh"
    protocol: str = "auto"
    """The wire the bot speaks: ``"mit"`` or ``"acpc"`` (commands.json's ``"protocol"`` key);
    ``"auto"`` for a bot with only a startme.sh, or a commands.json without the key in a bot
    whose metadata says ``Profile: acpc``: it speaks the ACPC wire in an ACPC game and the
    MIT wire otherwise.  A commands.json without the key means ``"mit"`` otherwise."""

    @classmethod
    def from_directory(cls, directory: Path, undeclared: str = "mit") -> BotProgram:
        """Read a bot directory, preferring commands.json over startme.sh.

        ``undeclared`` is the wire of a commands.json without a ``"protocol"`` key: the caller
        decides it from what else the bot says (its README metadata), which this layer of
        processes does not read.  Raises BotDirectoryError, with a message saying how to fix
        it, if neither file is usable.
        """
        path = Path(directory).expanduser()
        if not path.is_dir():
            what = "is not a directory" if path.exists() else "does not exist"
            raise BotDirectoryError(
                f"The bot directory {path} {what}; pass the folder that contains your bot's "
                "commands.json or startme.sh."
            )
        path = path.resolve()
        if (path / "commands.json").exists():
            build, run, protocol = _parse_commands(path / "commands.json")
            if protocol is None:
                protocol = undeclared
            return cls(
                path, build, run, append_host=False, source="commands.json", protocol=protocol
            )
        startme = path / "startme.sh"
        if startme.exists():
            if not os.access(startme, os.X_OK):
                raise BotDirectoryError(
                    f"{startme} is not executable, so the bot cannot be started; "
                    f"run `chmod +x startme.sh` in {path}."
                )
            return cls(path, (), ("./startme.sh",), append_host=True, source="startme.sh")
        raise BotDirectoryError(
            f"The bot directory {path} has neither commands.json nor startme.sh; add a "
            f"commands.json such as {_EXAMPLE} or an executable startme.sh."
        )


def _parse_commands(file: Path) -> tuple[tuple[str, ...], tuple[str, ...], str | None]:
    """Validate commands.json and return its build and run argv, and its wire protocol
    (None when it has no ``"protocol"`` key)."""
    hint = f"it should look like {_EXAMPLE}"
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise BotDirectoryError(
            f"{file} is not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno}); "
            f"fix the syntax, {hint}."
        ) from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise BotDirectoryError(
            f"{file} could not be read ({exc}); make sure it is a readable UTF-8 text file."
        ) from exc
    if not isinstance(data, dict):
        raise BotDirectoryError(f"{file} must hold a JSON object, not {_json_type(data)}; {hint}.")
    argvs: list[tuple[str, ...]] = []
    for key in ("build", "run"):
        if key not in data:
            raise BotDirectoryError(f'{file} has no "{key}" key; add it ({hint}).')
        value = data[key]
        if not isinstance(value, list):
            raise BotDirectoryError(
                f'In {file}, "{key}" must be a list of strings (an argv, no shell), '
                f"not {_json_type(value)}; {hint}."
            )
        for index, item in enumerate(value):
            if not isinstance(item, str):
                raise BotDirectoryError(
                    f'In {file}, element {index} of "{key}" is {json.dumps(item)}, which is not '
                    "a string; put every argument in double quotes."
                )
        argvs.append(tuple(value))
    if not argvs[1]:
        raise BotDirectoryError(
            f'In {file}, "run" is empty; it must name the program to start, '
            'e.g. ["python3", "player.py"].'
        )
    protocol = data.get("protocol")
    if protocol not in (None, "mit", "acpc"):
        raise BotDirectoryError(
            f'In {file}, "protocol" is {json.dumps(protocol)}; use "mit" (the MIT Pokerbots '
            'wire, the default) or "acpc" (the ACPC MATCHSTATE wire).'
        )
    return argvs[0], argvs[1], protocol


def _json_type(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "true/false"}
    return names.get(type(value), "a number" if isinstance(value, (int, float)) else "null")
