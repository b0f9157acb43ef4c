"""Match rules: one frozen object per variant, holding every parameter.

A variant is data plus a few named hooks.  The hooks are switched on by the
fields of :class:`Rules`:

* ``swap`` (:class:`SwapRules`): hole cards may be replaced after the flop and
  the turn are dealt (Swap Hold'em, MIT 2022).
* ``auction``: a sealed second-price auction for a third hole card after the
  flop (Auction Hold'em, MIT 2024).
* ``bounty`` (:class:`BountyRules`): a bounty rank per player that changes the
  payoff of a won hand (Bounty Hold'em, MIT 2025).

The runner hands the rules of a match to each bot process in the environment
variable ``POKERBOTS_RULES`` (JSON).  :func:`rules_from_environment` reads it,
and falls back to a variant's defaults when it is absent (as on the MIT engine).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal, get_args

__all__ = [
    "BountyRules",
    "ENVIRONMENT_VARIABLE",
    "RANKS",
    "Rules",
    "RulesError",
    "SUITS",
    "SwapRules",
    "VARIANTS",
    "Variant",
    "default_rules",
    "rules_from_environment",
]

#: The environment variable the runner uses to hand a bot its match rules.
ENVIRONMENT_VARIABLE = "POKERBOTS_RULES"

#: Card ranks, lowest first, and suits, as they appear on the wire (``"Ah"``).
RANKS = "23456789TJQKA"
SUITS = "cdhs"

Variant = Literal["nlhe", "swap", "auction", "bounty"]
#: Every variant the kit plays.
VARIANTS: tuple[str, ...] = get_args(Variant)


class RulesError(ValueError):
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

    def __post_init__(self) -> None:
        self.validate()

    @staticmethod
    def for_variant(variant: str) -> Rules:
        """The competition defaults of ``variant`` (one of :data:`VARIANTS`)."""
        if variant == "nlhe":
            return Rules(variant="nlhe")
        if variant == "swap":
            return Rules(variant="swap", starting_stack=200, swap=SwapRules())
        if variant == "auction":
            return Rules(variant="auction", auction=True)
        if variant == "bounty":
            return Rules(
                variant="bounty", game_clock=60.0, bounty=BountyRules(), fold_always_legal=True
            )
        raise RulesError(f"Unknown variant {variant!r}; choose one of: {', '.join(VARIANTS)}.")

    def replace(self, **changes: Any) -> Rules:
        """A copy of these rules with some fields changed (validated)."""
        return replace(self, **changes)

    def validate(self) -> None:
        """Raise :class:`RulesError` with a clear message if a parameter is out of range."""
        if self.variant not in VARIANTS:
            raise RulesError(
                f"Unknown variant {self.variant!r}; choose one of: {', '.join(VARIANTS)}."
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
        variant = data.get("variant", "nlhe")
        base = Rules.for_variant(str(variant))
        known = set(Rules.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown and not strict:
            data = {key: value for key, value in data.items() if key in known}
        elif unknown:
            raise RulesError(
                f"Unknown rules parameter(s): {', '.join(unknown)}. "
                f"Known parameters: {', '.join(sorted(known))}."
            )
        changes: dict[str, Any] = {k: v for k, v in data.items() if k not in ("swap", "bounty")}
        if "swap" in data:
            changes["swap"] = _sub_rules(SwapRules, data["swap"], "swap")
        if "bounty" in data:
            changes["bounty"] = _sub_rules(BountyRules, data["bounty"], "bounty")
        return replace(base, **changes)

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
    return cls(**value)


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
