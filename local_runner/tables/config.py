"""Match configuration: one TOML file holds every parameter; command-line flags override it.

A complete file (every key optional; defaults shown)::

    [match]
    variant = "nlhe"          # nlhe swap auction bounty acpc-2pl acpc-2pn acpc-3pl
    # game = "holdem.nolimit.2p.reverse_blinds.game"  # or an ACPC game definition file
    rounds = 1000
    seed = 12345              # omit for a fresh random seed (recorded in summary.json)

    [rules]                   # any game parameter; defaults are the variant's
    starting_stack = 400
    big_blind = 2
    small_blind = 1
    game_clock = 30.0         # seconds of thinking time per bot per match; omitted: the
                              # game's clock, in proportion when rounds differ from its own
    # [rules.swap]   flop = 0.10, turn = 0.05
    # [rules.bounty] ratio = 1.5, constant = 10, period = 25

    [runner]
    build_timeout = 180.0     # seconds for a bot's build step (the MIT scrimmage server's)
    connect_timeout = 10.0    # seconds for a bot to connect after it starts; omitted: the
                              # game's (MIT: 10 s; ACPC: no limit)
    reply_timeout = 10.0      # seconds for any single reply; omitted: the game's
                              # (MIT: 10 s; ACPC: 600 s)
    log_limit = 524288        # bytes of output kept per bot
    quit_grace = 2.0          # seconds a bot has to exit after the match
    spin_wait = 0.0003        # deprecated and ignored (the runner no longer polls: it
                              # sleeps until a reply comes); accepted so old files still load
    python = "auto"           # a bot's python3: "auto", "path", "kit" or an interpreter's path
    share_cpu = true          # the runner and the bots on one CPU while they take turns
                              # (given back when a bot thinks in parallel or the CPU is
                              # crowded); tournaments and validate never share

    [limits]                  # per bot process; 0 = no limit
    address_space = 4294967296
    cpu_seconds = 0
    open_files = 1024
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from sdk.errors import KitError
from sdk.gamedef import GameDefError, parse_gamedef
from sdk.games import ACPC, ACPC_DEFAULT_GAME, GAMES, Competition, game_of, native_wire
from sdk.rules import Rules, RulesError

__all__ = [
    "CLOCK_SOURCES",
    "ConfigError",
    "Limits",
    "RunnerSettings",
    "ScrimmageConfig",
    "clock_line",
    "competition_of",
    "load_config",
    "read_game_file",
]

#: Where a match's game clock came from: the game's own for its own number of hands
#: (``season``), the game's in proportion to a different number of hands (``scaled``), or
#: the user's ``--game-clock`` or ``game_clock`` in the config file (``explicit``).
CLOCK_SOURCES = ("season", "scaled", "explicit")


class ConfigError(KitError, ValueError):
    """A configuration file or flag that cannot be used; the message says what to change."""


@dataclass(frozen=True, slots=True)
class RunnerSettings:
    """How the runner treats bot processes."""

    build_timeout: float = 180.0
    """The MIT scrimmage server's (its engine's local default is 10 s, too short for a C++
    bot with Boost); `pokerbots validate` uses the same default."""
    connect_timeout: float | None = None
    """Seconds for a bot to connect after it starts; None: the game's competition's
    (:meth:`connect_limit`: 10 s in an MIT game, no limit in an ACPC game)."""
    reply_timeout: float | None = None
    """Seconds for any one reply; None: the game's competition's (:meth:`reply_limit`)."""
    log_limit: int = 512 * 1024
    quit_grace: float = 2.0
    spin_wait: float = 0.0003
    """Deprecated and ignored since 2026-11-25: the runner sleeps in ``select`` until a reply
    comes, with the deadline as its timeout, and never polls.  Accepted (and kept, at its old
    default, in a tournament's recorded settings) so that old configuration files still load."""
    python: str = "auto"
    """The interpreter bots get as ``python3``: see :mod:`local_runner.programs.interpreter`."""
    share_cpu: bool = True
    """Place the runner and every bot process on one CPU once the bots have connected, as
    long as that pays: see :mod:`local_runner.programs.cpu_share`."""

    def connect_limit(self, rules: Rules) -> float | None:
        """Seconds a bot of a ``rules`` match has to connect: the setting, else the game's
        competition's (None: no limit, as the ACPC server's check sets none)."""
        if self.connect_timeout is not None:
            return self.connect_timeout
        return competition_of(rules).connect

    def reply_limit(self, rules: Rules) -> float:
        """Seconds for one reply in a ``rules`` match: the setting, else the game's
        competition's (10 s at MIT, 600 s at the ACPC; 10 s where the game sets none)."""
        if self.reply_timeout is not None:
            return self.reply_timeout
        response = competition_of(rules).response
        return _MIT_REPLY if response is None else response


#: The reply limit where a competition declares none (the MIT engines' socket timeout).
_MIT_REPLY = 10.0


def competition_of(rules: Rules) -> Competition:
    """The competition whose limits a ``rules`` match follows: its declared game's, else
    (a game definition file, rules combined by hand) the ACPC 2009 heads-up game's when
    it plays the ACPC ways, and the base MIT engine's otherwise."""
    game = game_of(rules)
    if game is not None:
        return game.competition
    return GAMES[ACPC_DEFAULT_GAME if native_wire(rules) == ACPC else "nlhe"].competition


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits per bot process (0 = unlimited)."""

    address_space: int = 4 * 2**30
    cpu_seconds: int = 0
    open_files: int = 1024


@dataclass(frozen=True, slots=True)
class ScrimmageConfig:
    """Everything a scrimmage needs besides the bots."""

    rules: Rules = field(default_factory=Rules)
    seed: int = 0
    runner: RunnerSettings = field(default_factory=RunnerSettings)
    limits: Limits = field(default_factory=Limits)
    clock_source: str = "season"
    """Where ``rules.game_clock`` came from: one of :data:`CLOCK_SOURCES`."""
    names_game: bool = False
    """Whether the config file named the game (a variant or a game file), so that a
    scrimmage does not work it out from the bots."""

    def with_overrides(
        self,
        *,
        variant: str | None = None,
        rounds: int | None = None,
        seed: int | None = None,
        python: str | None = None,
        game: Path | None = None,
        game_clock: float | None = None,
    ) -> ScrimmageConfig:
        """This configuration with command-line values applied on top (``game``: an ACPC
        game definition file, which replaces the variant).

        The game clock follows the number of hands (the game's clock in proportion,
        :meth:`~sdk.games.Competition.clock_for`) unless ``game_clock`` sets it, or the
        config file did and the game is still the file's.
        """
        config = self
        if game_clock is not None and not (
            isinstance(game_clock, (int, float)) and game_clock > 0 and game_clock < float("inf")
        ):
            raise ConfigError(
                f"The game clock must be a positive number of seconds, not {game_clock!r}."
            )
        try:
            if game is not None:
                rules = read_game_file(game, config.rules.num_rounds)
                config = replace(config, rules=rules, clock_source="season")
            elif variant is not None and variant != config.rules.variant:
                config = replace(config, rules=_rules_for(variant, {}), clock_source="season")
            if rounds is not None:
                config = replace(config, rules=config.rules.replace(num_rounds=rounds))
            if game_clock is not None:
                rules = config.rules.replace(game_clock=float(game_clock))
                config = replace(config, rules=rules, clock_source="explicit")
        except RulesError as error:
            raise ConfigError(str(error)) from None
        if seed is not None:
            config = replace(config, seed=seed)
        if python is not None:
            config = replace(config, runner=replace(config.runner, python=python))
        return config.fitted_clock()

    def fitted_clock(self) -> ScrimmageConfig:
        """This configuration with the clock its number of hands gets: unchanged when the
        clock was set explicitly; else the competition's clock, in proportion to the hands
        when they differ from the competition's (``clock_source`` says which)."""
        if self.clock_source == "explicit":
            return self
        competition = competition_of(self.rules)
        rounds = self.rules.num_rounds
        clock = competition.clock_for(rounds)
        source = "season" if rounds == competition.rounds else "scaled"
        return replace(self, rules=self.rules.replace(game_clock=clock), clock_source=source)

    def clock_dict(self) -> dict[str, Any]:
        """The clock as ``summary.json`` records it: its seconds per bot, where they came
        from, and the competition's own clock and hands it was scaled from.

        A configuration built by hand (``ScrimmageConfig(rules=...)``, as validate's smoke
        matches are) whose clock is not the competition's for its hands records
        ``explicit``: the clock is the one its rules were given.
        """
        competition = competition_of(self.rules)
        source = self.clock_source
        fitted = competition.clock_for(self.rules.num_rounds)
        if source != "explicit" and not math.isclose(self.rules.game_clock, fitted):
            source = "explicit"
        return {
            "game_clock": self.rules.game_clock,
            "source": source,
            "hands": self.rules.num_rounds,
            "competition": competition.name,
            "competition_clock": competition.clock,
            "competition_hands": competition.rounds,
        }


def read_game_file(path: Path, num_rounds: int = 3000) -> Rules:
    """The rules of an ACPC game definition file (``GAMEDEF ... END GAMEDEF``), as the ACPC
    dealer plays it; :class:`ConfigError` saying what is wrong, or why the kit cannot play it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"The game definition file {path} does not exist.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"The game definition file {path} cannot be read: {error}.") from None
    try:
        return parse_gamedef(text).to_rules(num_rounds)
    except GameDefError as error:
        raise ConfigError(f"{path}: {error}") from None


def _rules_for(variant: str, table: dict[str, Any]) -> Rules:
    return Rules.from_dict({**table, "variant": variant})


def _section(data: dict[str, Any], name: str, source: str) -> dict[str, Any]:
    section = data.get(name, {})
    if not isinstance(section, dict):
        raise ConfigError(f"{source}: [{name}] must be a table of settings.")
    return section


def _settings(cls: type[Any], table: dict[str, Any], name: str, source: str) -> Any:
    known = {f.name: f for f in fields(cls)}
    unknown = sorted(set(table) - set(known))
    if unknown:
        raise ConfigError(
            f"{source}: unknown setting(s) in [{name}]: {', '.join(unknown)}. "
            f"Known: {', '.join(sorted(known))}."
        )
    values: dict[str, Any] = {}
    for key, value in table.items():
        default = known[key].default
        if default is None:  # a limit that defaults to the game's: seconds when set
            default = 0.0
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise ConfigError(f"{source}: [{name}] {key} must be true or false, not {value!r}.")
            values[key] = value
            continue
        if isinstance(default, str):
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{source}: [{name}] {key} must be a string, not {value!r}.")
            values[key] = value
            continue
        expected = float if isinstance(default, float) else int
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or (expected is int and not isinstance(value, int))
            or value < 0
        ):
            kind = "a whole number" if expected is int else "a number"
            raise ConfigError(f"{source}: [{name}] {key} must be {kind} >= 0, not {value!r}.")
        values[key] = expected(value)
    return cls(**values)


def _fresh_seed() -> int:
    """A seed from the system's randomness, for a match whose seed nobody chose.

    ``random.SystemRandom`` draws from the same source as ``secrets``, whose import (``hmac``
    and ``hashlib``) cost every command about 3 ms.
    """
    return random.SystemRandom().getrandbits(31)


def load_config(path: Path | None) -> ScrimmageConfig:
    """The configuration in ``path`` (a TOML file), or the defaults when None."""
    if path is None:
        return ScrimmageConfig(seed=_fresh_seed())
    import tomllib  # only when there is a file to read (a default run has none)

    source = str(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"The config file {source} does not exist.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"The config file {source} cannot be read: {error}.") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{source} is not valid TOML: {error}.") from None
    unknown = sorted(set(data) - {"match", "rules", "runner", "limits"})
    if unknown:
        raise ConfigError(
            f"{source}: unknown section(s) {', '.join(unknown)}; "
            "use [match], [rules], [runner] and [limits]."
        )
    match = _section(data, "match", source)
    extra = sorted(set(match) - {"variant", "rounds", "seed", "game"})
    if extra:
        raise ConfigError(f"{source}: unknown setting(s) in [match]: {', '.join(extra)}.")
    rules_table = dict(_section(data, "rules", source))
    names_game = "variant" in match or "game" in match or "variant" in rules_table
    variant = match.get("variant", rules_table.pop("variant", "nlhe"))
    if "rounds" in match:
        rules_table["num_rounds"] = match["rounds"]
    try:
        if "game" in match:  # an ACPC game definition file, relative to this config file
            game = read_game_file(path.parent / str(match["game"]), match.get("rounds", 3000))
            rules = Rules.from_dict({**game.to_dict(), **rules_table})
        else:
            rules = _rules_for(str(variant), rules_table)
    except (RulesError, TypeError) as error:
        raise ConfigError(f"{source}: {error}") from None
    seed = match.get("seed", _fresh_seed())
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ConfigError(f"{source}: [match] seed must be a whole number >= 0, not {seed!r}.")
    return ScrimmageConfig(
        rules=rules,
        seed=seed,
        runner=_settings(RunnerSettings, _section(data, "runner", source), "runner", source),
        limits=_settings(Limits, _section(data, "limits", source), "limits", source),
        # A game_clock in the file is the user's choice; otherwise the clock follows the hands.
        clock_source="explicit" if "game_clock" in rules_table else "season",
        names_game=names_game,
    ).fitted_clock()


def clock_line(config: ScrimmageConfig) -> str | None:
    """One line saying which clock a match gets, when it is not the game's own for its own
    number of hands (None then): scaled to the hands, or set by the user.

    >>> config = ScrimmageConfig(seed=1).with_overrides(variant="toss", rounds=30_000)
    >>> import textwrap
    >>> print(textwrap.fill(str(clock_line(config)), 80))
    Clock: 1,800 s per bot for 30,000 hands (60 s per 1,000, scaled from the clock
    of MIT Pokerbots 2026); set --game-clock to change it.
    """
    rules = config.rules
    hands = f"{rules.game_clock:,.6g} s per bot for {rules.num_rounds:,} hands"
    if config.clock_source == "explicit":
        return f"Clock: {hands} (set by you: --game-clock or game_clock in the config)."
    if config.clock_source != "scaled":
        return None
    competition = competition_of(rules)
    per_hand = competition.clock / competition.rounds
    # ACPC's rule is "7 s a hand"; an MIT season's clock is small per hand, so per 1,000.
    rate = f"{per_hand:g} s a hand" if per_hand >= 1 else f"{per_hand * 1000:g} s per 1,000"
    return (
        f"Clock: {hands} ({rate}, scaled from the clock of {competition.name}); "
        "set --game-clock to change it."
    )
