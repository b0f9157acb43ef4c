"""The ACPC 2009 games: heads-up limit, heads-up no-limit (Doyle's game) and 3-player
limit hold'em, each played by the ACPC dealer; the heads-up ones over the MIT wire too."""

from __future__ import annotations

from ..declaration import ACPC, HOLDEM_STREETS, MIT, Game, acpc_competition
from ..rules import PRESETS

GAMES = tuple(
    Game(
        name,
        PRESETS[name],
        HOLDEM_STREETS,
        wires,
        acpc_competition(PRESETS[name]),
        page="acpc.md",
    )
    for name, wires in (("acpc-2pl", (ACPC, MIT)), ("acpc-2pn", (ACPC, MIT)), ("acpc-3pl", (ACPC,)))
)
