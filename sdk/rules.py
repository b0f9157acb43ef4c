"""Match rules: one frozen object per variant, holding every parameter.

A variant is data plus a few named hooks.  The hooks are switched on by the
fields of :class:`Rules`:

* ``swap`` (:class:`SwapRules`): hole cards may be replaced after the flop and
  the turn are dealt (Swap Hold'em, MIT 2022).
* ``auction``: a sealed second-price auction for a third hole card after the
  flop (Auction Hold'em, MIT 2024).
* ``bounty`` (:class:`BountyRules`): a bounty rank per player that changes the
  payoff of a won hand (Bounty Hold'em, MIT 2025).
* ``discard``: three hole cards; on a two-card flop each player in turn (the big blind
  first) discards one face up onto the board, and betting resumes with four board cards
  (Toss Hold'em, MIT 2026).
* ``permutation`` (:class:`PermutationRules`): a secret order of the card values, drawn
  once per match from a prior, decides every showdown (Permuted Hold'em, MIT 2020).

The betting structure is data too: ``seats`` (2 to 10), ``limit``
(:class:`LimitRules`: fixed bet sizes and a cap on raises; None for no-limit),
``all_in_checks`` (MIT: a seat with no chips left still checks each street; ACPC: it is
skipped and the board runs out once fewer than two seats can act) and ``on_illegal``
(what an illegal action is played as: MIT's check-or-fold, or the ACPC 2009 rules' closest
legal action).  Each game's preset of these rules is declared with the game, in its module
of :mod:`sdk.variants`; :mod:`sdk.games` is their registry (``PRESETS``, ``VARIANTS``), and
this module names no game of its own.

The runner hands the rules of a match to each bot process in the environment
variable ``POKERBOTS_RULES`` (JSON).  :func:`rules_from_environment` reads it,
and falls back to a variant's defaults when it is absent (as on the MIT engine).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any, Literal, get_args

from .errors import KitError

__all__ = [
    "BountyRules",
    "CUSTOM",
    "ENVIRONMENT_VARIABLE",
    "LimitRules",
    "OnIllegal",
    "PermutationRules",
    "RANKS",
    "Rules",
    "RulesError",
    "SUITS",
    "SwapRules",
    "default_rules",
    "rules_from_environment",
]

#: The environment variable the runner uses to hand a bot its match rules.
ENVIRONMENT_VARIABLE = "POKERBOTS_RULES"

#: Card ranks, lowest first, and suits, as they appear on the wire (``"Ah"``).
RANKS = "23456789TJQKA"
SUITS = "cdhs"

#: The label for rules that match no preset (hooks combined for an experiment).
CUSTOM = "custom"
#: What an illegal action is played as: MIT's default (check, else fold), or the ACPC 2009
#: rules' closest legal action (a raise clamped to its bounds, anything else a call or check).
OnIllegal = Literal["check-fold", "call"]
_ON_ILLEGAL: tuple[str, ...] = get_args(OnIllegal)
#: Most seats at a table (the ACPC dealer's limit).
MAX_SEATS = 10


class RulesError(KitError, ValueError):
    """Raised when a rules parameter is out of range or unknown."""


@dataclass(frozen=True, slots=True)
class SwapRules:
    """Swap Hold'em: each hole card is independently replaced, with these
    probabilities, right after the flop and right after the turn are dealt."""

    flop: float = 0.10
    turn: float = 0.05


@dataclass(frozen=True, slots=True)
class BountyRules:
    """Bounty Hold'em: a winner who hits its bounty rank wins
    ``ratio * normal winnings + constant``; ranks are redrawn every ``period`` hands."""

    ratio: float = 1.5
    constant: int = 10
    period: int = 25


@dataclass(frozen=True, slots=True)
class PermutationRules:
    """Permuted Hold'em: once per match a secret order of the thirteen card values is drawn,
    and showdowns are ranked by it (suits stay).  ``p`` is the prior's parameter: for the
    printed ranks 2 to A in turn, a geometric(``p``) draw less one, taken modulo the values
    left, picks which of them (0: the smallest) the rank plays as.  Only the prior is part
    of the rules: the order drawn is the engine's secret."""

    p: float = 0.25


@dataclass(frozen=True, slots=True)
class LimitRules:
    """Fixed-limit betting: the size of every bet and raise, and the most bets and raises
    allowed, per round (preflop, flop, turn, river).  The ACPC counts only ``r`` actions
    against the cap: the big blind is not a bet."""

    raise_sizes: tuple[int, int, int, int] = (10, 10, 20, 20)
    max_raises: tuple[int, int, int, int] = (3, 4, 4, 4)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every parameter of a match's game.

    Build one with :meth:`for_variant` (the competition defaults) and adjust
    fields with :meth:`replace`.  ``validate()`` is called on construction.
    """

    variant: str = "nlhe"
    num_rounds: int = 1000
    starting_stack: int = 400
    big_blind: int = 2
    small_blind: int = 1
    game_clock: float = 30.0
    swap: SwapRules | None = None
    auction: bool = False
    bounty: BountyRules | None = None
    fold_always_legal: bool = False
    """A fold is legal whenever a seat is asked to act, also when a check is free and when
    the seat is all in (the MIT 2025 engine's rule, which Bounty Hold'em follows); otherwise
    a fold is legal only when facing a bet."""
    seats: int = 2
    """Players at the table, 2 to 10.  Heads-up the button posts the small blind; with more
    seats the two seats after the button post the blinds."""
    limit: LimitRules | None = None
    """Fixed-limit betting; None for no-limit."""
    all_in_checks: bool = True
    """MIT: a seat with no chips left is still asked to check on each street (the engine
    plays the check for it).  ACPC (False): it is skipped, and once fewer than two seats
    can act the board runs out to the showdown."""
    on_illegal: str = "check-fold"
    """What an illegal action is played as: ``"check-fold"`` (MIT: check, else fold) or
    ``"call"`` (ACPC 2009: a raise out of range is clamped, anything else is a call or a
    check).  The engine records an ``illegal`` fault either way."""
    discard: bool = False
    """Toss Hold'em (MIT 2026): three hole cards each; after the preflop betting two board
    cards are dealt, the big blind discards one hole card face up onto the board (the small
    blind acknowledges with a check), then the small blind does (the big blind
    acknowledges); betting resumes on four board cards, BB first, and a turn and a river
    card make six.  Showdown: the best five of eight cards."""
    permutation: PermutationRules | None = None
    """Permuted Hold'em (MIT 2020): the prior of the secret value order that ranks the
    showdowns (see :class:`PermutationRules`); None: the cards play as printed."""

    def __post_init__(self) -> None:
        self.validate()

    @staticmethod
    def for_variant(variant: str) -> Rules:
        """The competition defaults of ``variant``: a game's name (:data:`sdk.games.VARIANTS`)
        or a season's alias (``mit-2026``); :mod:`sdk.games` declares them."""
        from .games import find_game  # the games declare their presets, and import this module

        return find_game(variant).rules

    def replace(self, **changes: Any) -> Rules:
        """A copy of these rules with some fields changed (validated)."""
        return replace(self, **changes)

    def validate(self) -> None:
        """Raise :class:`RulesError` with a clear message if a parameter is out of range."""
        presets = _presets()
        if presets is not None and self.variant not in presets and self.variant != CUSTOM:
            raise RulesError(
                f"Unknown variant {self.variant!r}; choose one of: {', '.join(presets)} "
                f"(or {CUSTOM!r} for hooks combined by hand)."
            )
        for name in ("num_rounds", "starting_stack", "big_blind", "small_blind"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise RulesError(f"{name} must be a whole number of at least 1, not {value!r}.")
        if self.small_blind > self.big_blind:
            raise RulesError(
                f"small_blind ({self.small_blind}) must not exceed big_blind ({self.big_blind})."
            )
        if self.big_blind > self.starting_stack:
            raise RulesError(
                f"big_blind ({self.big_blind}) must not exceed starting_stack "
                f"({self.starting_stack})."
            )
        if not isinstance(self.game_clock, (int, float)) or self.game_clock <= 0:
            raise RulesError(
                f"game_clock must be a positive number of seconds, not {self.game_clock!r}."
            )
        if not isinstance(self.fold_always_legal, bool):
            raise RulesError(
                f"fold_always_legal must be true or false, not {self.fold_always_legal!r}."
            )
        self._validate_table()
        if self.swap is not None:
            for street in ("flop", "turn"):
                p = getattr(self.swap, street)
                if not isinstance(p, (int, float)) or not 0.0 <= p <= 1.0:
                    raise RulesError(f"swap.{street} must be a probability in [0, 1], not {p!r}.")
        if self.bounty is not None:
            b = self.bounty
            if not isinstance(b.ratio, (int, float)) or b.ratio < 1:
                raise RulesError(f"bounty.ratio must be a number of at least 1, not {b.ratio!r}.")
            if not isinstance(b.constant, int) or b.constant < 0:
                raise RulesError(
                    f"bounty.constant must be a whole number >= 0, not {b.constant!r}."
                )
            if not isinstance(b.period, int) or b.period < 1:
                raise RulesError(f"bounty.period must be a whole number >= 1, not {b.period!r}.")
        if self.permutation is not None:
            p = self.permutation.p
            if not isinstance(p, (int, float)) or isinstance(p, bool) or not 0.0 < p <= 1.0:
                raise RulesError(
                    f"permutation.p must be a probability in (0, 1] (the geometric prior's "
                    f"chance; MIT 2020 used 0.25), not {p!r}."
                )
        self._validate_label()

    def _validate_label(self) -> None:
        """A preset's name only on rules with that preset's hooks (seats, betting, variant)."""
        presets = _presets()
        preset = presets.get(self.variant) if presets is not None else None
        if preset is not None and _hooks(self) != _hooks(preset):
            raise RulesError(
                f"These rules are not {self.variant!r}: {_describe_hooks(self)}, where "
                f"{self.variant} has {_describe_hooks(preset)}. Use that variant's hooks, or "
                f"variant = {CUSTOM!r} for a combination of your own."
            )

    def _validate_table(self) -> None:
        """The seats and the betting structure."""
        if (
            not isinstance(self.seats, int)
            or isinstance(self.seats, bool)
            or not 2 <= self.seats <= MAX_SEATS
        ):
            raise RulesError(
                f"seats must be a whole number from 2 to {MAX_SEATS}, not {self.seats!r}."
            )
        if self.on_illegal not in _ON_ILLEGAL:
            raise RulesError(
                f"on_illegal must be one of {', '.join(_ON_ILLEGAL)}, not {self.on_illegal!r}."
            )
        if not isinstance(self.all_in_checks, bool):
            raise RulesError(f"all_in_checks must be true or false, not {self.all_in_checks!r}.")
        if self.seats > 2 and (self.swap or self.auction or self.bounty or self.discard):
            raise RulesError(
                "Swaps, the auction, bounties and discards are heads-up games; use seats = 2 "
                "with them."
            )
        if not isinstance(self.discard, bool):
            raise RulesError(f"discard must be true or false, not {self.discard!r}.")
        if self.discard and (
            self.swap or self.auction or self.limit is not None or not self.all_in_checks
        ):
            raise RulesError(
                "discard (Toss Hold'em) is played no-limit with all_in_checks = true, and "
                "without swaps or an auction; drop those settings, or set discard = false."
            )
        if self.limit is not None:
            for name in ("raise_sizes", "max_raises"):
                values = getattr(self.limit, name)
                if (
                    not isinstance(values, tuple)
                    or len(values) != 4
                    or not all(
                        isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in values
                    )
                ):
                    raise RulesError(
                        f"limit.{name} must be four whole numbers of at least 1 (preflop, flop, "
                        f"turn, river), not {values!r}."
                    )

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary of every parameter (the inverse of :meth:`from_dict`)."""
        return asdict(self)

    def to_json(self) -> str:
        """The rules as compact JSON, as handed to bot processes."""
        return json.dumps(self.to_dict(), separators=(",", ":"), sort_keys=True)

    @staticmethod
    def from_dict(data: dict[str, Any], *, strict: bool = True) -> Rules:
        """Rules from a dictionary (a parsed config table or :meth:`to_dict` output).

        Missing keys take the defaults of the named variant; unknown keys are an
        error that names them, unless ``strict`` is False, when they are left out (a bot
        whose vendored SDK is older than the runner that started it).
        """
        if not isinstance(data, dict):
            raise RulesError(f"Rules must be a table of parameters, not {type(data).__name__}.")
        variant = str(data.get("variant", "nlhe"))
        base = Rules(variant=CUSTOM) if variant == CUSTOM else Rules.for_variant(variant)
        if "variant" in data:  # a season's alias names its game
            data = {**data, "variant": base.variant}
        known = set(Rules.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown and not strict:
            data = {key: value for key, value in data.items() if key in known}
        elif unknown:
            raise RulesError(
                f"Unknown rules parameter(s): {', '.join(unknown)}. "
                f"Known parameters: {', '.join(sorted(known))}."
            )
        nested = ("swap", "bounty", "limit", "permutation")
        changes: dict[str, Any] = {k: v for k, v in data.items() if k not in nested}
        if "swap" in data:
            changes["swap"] = _sub_rules(SwapRules, data["swap"], "swap")
        if "bounty" in data:
            changes["bounty"] = _sub_rules(BountyRules, data["bounty"], "bounty")
        if "limit" in data:
            changes["limit"] = _sub_rules(LimitRules, data["limit"], "limit")
        if "permutation" in data:
            changes["permutation"] = _sub_rules(
                PermutationRules, data["permutation"], "permutation"
            )
        try:
            return replace(base, **changes)
        except TypeError as error:  # a value of the wrong shape for a nested table
            raise RulesError(f"Rules parameter error: {error}.") from None

    @staticmethod
    def from_json(text: str, *, strict: bool = True) -> Rules:
        """Rules from :meth:`to_json` output (``strict`` as for :meth:`from_dict`)."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RulesError(f"The rules are not valid JSON: {error}.") from None
        return Rules.from_dict(data, strict=strict)


def _sub_rules(cls: type[Any], value: Any, name: str) -> Any:
    if value is None or value is False:
        return None
    if value is True:
        return cls()
    if not isinstance(value, dict):
        raise RulesError(f"{name} must be a table of parameters (or false), not {value!r}.")
    known = set(cls.__dataclass_fields__)
    unknown = sorted(set(value) - known)
    if unknown:
        raise RulesError(
            f"Unknown {name} parameter(s): {', '.join(unknown)}. Known: {', '.join(sorted(known))}."
        )
    # JSON and TOML give lists; the rules keep tuples (hashable, frozen).
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in value.items()})


def _hooks(rules: Rules) -> tuple[bool, bool, bool, int, bool, bool, bool]:
    """What makes a game this game: swaps, auction, bounty, seats, limit betting, discards,
    a permuted value order."""
    return (
        rules.swap is not None,
        rules.auction,
        rules.bounty is not None,
        rules.seats,
        rules.limit is not None,
        rules.discard,
        rules.permutation is not None,
    )


def _describe_hooks(rules: Rules) -> str:
    swap, auction, bounty, seats, limit, discard, permutation = _hooks(rules)
    parts = [f"{seats} seats", "limit" if limit else "no-limit"]
    parts += [
        name
        for name, on in (
            ("swaps", swap),
            ("an auction", auction),
            ("bounties", bounty),
            ("discards", discard),
            ("a permuted value order", permutation),
        )
        if on
    ]
    return ", ".join(parts)


#: Names that moved to :mod:`sdk.games`, the registry, and are still read here: a bot's
#: tests written before (``from sdk.rules import VARIANTS``) keep working after
#: ``pokerbots sdk refresh`` replaces only its ``sdk/``.
_REGISTRY_NAMES = ("MIT_VARIANTS", "PRESETS", "VARIANTS")

if TYPE_CHECKING:
    MIT_VARIANTS: tuple[str, ...]
    PRESETS: dict[str, Rules]
    VARIANTS: tuple[str, ...]


def __getattr__(name: str) -> Any:
    """``sdk.rules.VARIANTS`` and the other names the registry now holds, read from it."""
    if name in _REGISTRY_NAMES:
        from . import games

        return getattr(games, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _presets() -> dict[str, Rules] | None:
    """Every game's preset, by name (:data:`sdk.games.PRESETS`); None while the games are
    being declared (their presets are rules too, checked as they are made, before the
    registry exists)."""
    from . import games  # the games declare the presets, and import this module

    presets: dict[str, Rules] | None = getattr(games, "PRESETS", None)
    return presets


def rules_from_environment(default_variant: str = "nlhe") -> Rules:
    """The rules handed over by the runner, or ``default_variant``'s defaults.

    The runner puts the match's rules in ``POKERBOTS_RULES``; engines that do
    not (the MIT engines) leave it unset, and the bot plays with the
    competition defaults of the variant it was written for.
    """
    text = os.environ.get(ENVIRONMENT_VARIABLE)
    if not text:
        return Rules.for_variant(default_variant)
    # Not strict: a newer runner may hand over parameters this copy of the SDK does not know
    # yet; the bot still starts, with the parameters it knows.
    return Rules.from_json(text, strict=False)


def default_rules() -> Rules:
    """The rules of the current process: from the environment, else no-limit hold'em."""
    return rules_from_environment("nlhe")
