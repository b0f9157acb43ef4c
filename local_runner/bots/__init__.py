"""The reference bots of the ladder (random < checkcall < equity < range).

One module per bot (:mod:`.equity`, :mod:`.range_bot`), sharing the card
indexing (:mod:`.cards`), the preflop tables (:mod:`.preflop`), weighted ranges
and equity (:mod:`.ranges`), bet arithmetic for no-limit and limit (:mod:`.betting`) and
what a table of three or more needs (:mod:`.field`).  They need
eval7; ``docs/reference-bots.md`` explains how each works.
"""
