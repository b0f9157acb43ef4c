"""The base class every bot derives from.

The callback names and arguments are those of the MIT Pokerbots skeleton, so a
bot written for it ports by changing its imports from ``skeleton.`` to ``sdk.``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from .actions import Action
from .states import GameState, RoundState, TerminalState

__all__ = ["Bot"]


class Bot(ABC):
    """A poker bot: override :meth:`get_action`, and the two hand callbacks if useful.

    ``active`` is always your seat for the current hand (0 = dealer, 1 = big
    blind); index ``round_state.hands``, ``pips`` and ``stacks`` with it.
    """

    masked_view: bool = False
    """True lets the kit's in-process seats (``kit.play``, a scrimmage's built-in bots) hand
    this bot a masked copy of the engine's own states instead of the states its client
    rebuilds from the engine's messages: equal values (the opponents' hidden cards, bounty
    ranks and sealed bids masked as the wire masks them), with less work per hand: no
    message is made and no state is stepped a second time.
    The states are new objects either way; leave it False if a bot relies on anything but
    their values.  It changes nothing for a bot process."""

    def handle_new_round(self, game_state: GameState, round_state: RoundState, active: int) -> None:
        """Called when a hand starts, with your hole cards in ``round_state.hands[active]``."""

    def handle_round_over(
        self, game_state: GameState, terminal_state: TerminalState, active: int
    ) -> None:
        """Called when a hand ends; ``terminal_state.deltas[active]`` is what you won or lost.

        ``game_state.bankroll`` already includes this hand's delta.
        """

    @abstractmethod
    def get_action(self, game_state: GameState, round_state: RoundState, active: int) -> Action:
        """Return one of ``round_state.legal_actions()`` (raises and bids within their bounds)."""
