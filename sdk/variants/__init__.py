"""One module per game the kit plays, each declaring it once (a :class:`sdk.declaration.Game`
named ``GAME``, or ``GAMES`` for a family); :mod:`sdk.games` registers them in order.

A variant's rules are checked against the registry's presets as they are made, so the
registry comes first: importing a variant module on its own (``import sdk.variants.toss``,
before anything else of the SDK) imports :mod:`sdk.games`, which declares every game in its
order, this one included.
"""

from .. import games as _registry  # noqa: F401  (the registry first: see above)
