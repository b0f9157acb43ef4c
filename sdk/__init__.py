"""pokerbots-kit SDK: everything a bot needs, in the standard library only.

A bot derives from :class:`Bot`, reads :class:`GameState` and
:class:`RoundState`, and returns one of the actions::

    from sdk import Bot, CallAction, CheckAction, RaiseAction, parse_args, run_bot

    class Player(Bot):
        def get_action(self, game_state, round_state, active):
            if CheckAction in round_state.legal_actions():
                return CheckAction()
            return CallAction()

    if __name__ == "__main__":
        run_bot(Player(), parse_args())

The MIT skeleton's module names work too: ``sdk.actions``, ``sdk.states``,
``sdk.bot`` and ``sdk.runner``.  :func:`evaluate` ranks a showdown hand (5 to 8 cards,
eval7's numbers); ``sdk.pots`` (side pots) and ``sdk.gamedef`` (ACPC game files) are
imported on their own.  Every name is imported from its module on first use, so
``import sdk`` costs almost nothing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

    from .actions import (
        HIDDEN_BID,
        HIDDEN_RANK,
        Action,
        ActionType,
        BidAction,
        CallAction,
        CheckAction,
        DiscardAction,
        FoldAction,
        RaiseAction,
    )
    from .bot import Bot
    from .client import BotClient
    from .evaluator import evaluate, hand_category
    from .games import VARIANTS
    from .payoffs import bounty_hit, hand_deltas
    from .protocol import (
        ProtocolError,
        decode_action,
        decode_message,
        encode_action,
        encode_message,
    )
    from .rules import BountyRules, Rules, RulesError, SwapRules, rules_from_environment
    from .runner import parse_args, run_bot
    from .states import GameState, RoundState, State, TerminalState

    __version__: str

#: The kit's distribution name, whose version pyproject.toml declares.
_DISTRIBUTION = "pokerbots-kit"
#: The stamp a vendored copy of the SDK carries (written by ``pokerbots new``/``sdk refresh``).
_STAMP = "VENDORED.json"

__all__ = [
    "HIDDEN_BID",
    "HIDDEN_RANK",
    "Action",
    "ActionType",
    "BidAction",
    "Bot",
    "BotClient",
    "BountyRules",
    "CallAction",
    "CheckAction",
    "DiscardAction",
    "FoldAction",
    "GameState",
    "ProtocolError",
    "RaiseAction",
    "RoundState",
    "Rules",
    "RulesError",
    "State",
    "SwapRules",
    "TerminalState",
    "VARIANTS",
    "__version__",
    "bounty_hit",
    "decode_action",
    "decode_message",
    "encode_action",
    "encode_message",
    "evaluate",
    "hand_category",
    "hand_deltas",
    "parse_args",
    "rules_from_environment",
    "run_bot",
]

#: Where each public name lives: imported on first use, so ``import sdk`` costs almost
#: nothing and a bot imports only the modules it uses (no ACPC reader in an MIT bot).
_HOMES = {
    "HIDDEN_BID": "actions",
    "HIDDEN_RANK": "actions",
    "Action": "actions",
    "ActionType": "actions",
    "BidAction": "actions",
    "CallAction": "actions",
    "CheckAction": "actions",
    "DiscardAction": "actions",
    "FoldAction": "actions",
    "RaiseAction": "actions",
    "Bot": "bot",
    "BotClient": "client",
    "evaluate": "evaluator",
    "hand_category": "evaluator",
    "bounty_hit": "payoffs",
    "hand_deltas": "payoffs",
    "ProtocolError": "protocol",
    "decode_action": "protocol",
    "decode_message": "protocol",
    "encode_action": "protocol",
    "encode_message": "protocol",
    "VARIANTS": "games",
    "BountyRules": "rules",
    "Rules": "rules",
    "RulesError": "rules",
    "SwapRules": "rules",
    "rules_from_environment": "rules",
    "parse_args": "runner",
    "run_bot": "runner",
    "GameState": "states",
    "RoundState": "states",
    "State": "states",
    "TerminalState": "states",
}


def _version() -> str:
    """The kit's version, declared once in its ``pyproject.toml``.

    A bot's vendored copy reads the version of the kit that vendored it, from its stamp;
    the kit's own copy reads its checkout's ``pyproject.toml`` (true even before a
    reinstall), else the metadata of the installed package (:func:`_installed_version`).
    """
    import json  # only when asked: `import sdk` stays cheap
    from pathlib import Path

    here = Path(__file__).resolve().parent
    try:
        stamp = json.loads((here / _STAMP).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        stamp = None
    if isinstance(stamp, dict) and isinstance(stamp.get("kit_version"), str):
        return str(stamp["kit_version"])
    try:
        text = (here.parent / "pyproject.toml").read_text(encoding="utf-8")
    except (OSError, ValueError):
        text = None
    if text is not None:
        declared = _declared_version(text)
        if declared is not None:
            return declared
    return _installed_version(here.parent)


def _declared_version(pyproject: str) -> str | None:
    """The version ``pyproject`` (a ``pyproject.toml``'s text) declares for the kit, or None
    when it is another project's.

    Its ``[project]`` table is read with two regular expressions when its name and version
    are plain one-line strings, as the kit writes them; anything else (a comment after the
    value, a multi-line string in the table) is left to ``tomllib``, whose import and parse
    took 4-5 ms of every scrimmage, to write the version in ``summary.json``.

    >>> _declared_version('[project]\\nname = "pokerbots-kit"\\nversion = "1.2.3"\\n')
    '1.2.3'
    >>> _declared_version('[project]\\nname = "pokerbots-kit"\\nversion = "1.2.3"  # a note\\n')
    '1.2.3'
    >>> _declared_version('[project]\\nname = "another"\\nversion = "1.2.3"\\n') is None
    True
    """
    import re

    table = re.search(r"^\[project\][ \t]*$(.*?)(?=^\[|\Z)", pyproject, re.M | re.S)
    if table is not None and '"""' not in table[1] and "'''" not in table[1]:
        plain = r'^(name|version)[ \t]*=[ \t]*"([^"\\\n]*)"[ \t]*$'  # a one-line basic string
        fields = dict(re.findall(plain, table[1], re.M))
        if "name" in fields and "version" in fields:
            return fields["version"] if fields["name"] == _DISTRIBUTION else None
    import tomllib

    try:
        project = tomllib.loads(pyproject).get("project", {})
    except ValueError:
        return None
    if project.get("name") == _DISTRIBUTION and isinstance(project.get("version"), str):
        return str(project["version"])
    return None


def _installed_version(site: Path) -> str:
    """The installed kit's version, from the metadata pip wrote in ``site`` beside the
    package (``pokerbots_kit-VERSION.dist-info``), else as :mod:`importlib.metadata` finds it
    (which looks through every folder of ``sys.path``: about 20 ms of every scrimmage)."""
    found = list(site.glob(f"{_DISTRIBUTION.replace('-', '_')}-*.dist-info/METADATA"))
    if len(found) == 1:
        try:
            headers = found[0].read_text(encoding="utf-8")
        except (OSError, ValueError):
            headers = ""
        for line in headers.splitlines():
            if not line:
                break  # the headers end at the first empty line
            if line.startswith("Version:"):
                return line.partition(":")[2].strip()
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(_DISTRIBUTION)
    except PackageNotFoundError:
        return "unknown"


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use."""
    if name == "__version__":
        found = _version()
        globals()[name] = found
        return found
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'sdk' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"sdk.{home}"), name)
    globals()[name] = value  # later uses skip this function
    return value


def __dir__() -> list[str]:
    """The public names, for tab completion."""
    return sorted(__all__)
