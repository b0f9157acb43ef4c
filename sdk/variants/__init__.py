"""One module per game the kit plays, each declaring it once (a :class:`sdk.declaration.Game`
named ``GAME``, or ``GAMES`` for a family); :mod:`sdk.games` registers them in order."""
