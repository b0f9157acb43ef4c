"""The TOML match configuration: every parameter, defaults, overrides and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from local_runner.tables.config import ConfigError, load_config
from sdk.rules import BountyRules, SwapRules


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "match.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_every_parameter_is_read(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            """
            [match]
            variant = "swap"
            rounds = 250
            seed = 7
            [rules]
            starting_stack = 300
            big_blind = 4
            small_blind = 2
            game_clock = 45.5
            [rules.swap]
            flop = 0.3
            turn = 0.2
            [runner]
            build_timeout = 20
            connect_timeout = 3.5
            reply_timeout = 2
            log_limit = 1000
            quit_grace = 0.5
            [limits]
            address_space = 1073741824
            cpu_seconds = 60
            open_files = 64
            """,
        )
    )
    rules = config.rules
    assert (rules.variant, rules.num_rounds, rules.starting_stack) == ("swap", 250, 300)
    assert (rules.big_blind, rules.small_blind, rules.game_clock) == (4, 2, 45.5)
    assert rules.swap == SwapRules(0.3, 0.2)
    assert config.seed == 7
    assert config.runner.build_timeout == 20.0 and config.runner.connect_timeout == 3.5
    assert config.runner.reply_timeout == 2.0 and config.runner.log_limit == 1000
    assert config.runner.quit_grace == 0.5
    assert (config.limits.address_space, config.limits.cpu_seconds) == (2**30, 60)
    assert config.limits.open_files == 64


def test_variant_defaults_apply_and_flags_override(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[match]\nvariant = "bounty"\nseed = 3\n'))
    assert config.rules.bounty == BountyRules() and config.rules.game_clock == 60.0
    overridden = config.with_overrides(variant="swap", rounds=10, seed=9)
    assert overridden.rules.variant == "swap" and overridden.rules.starting_stack == 200
    assert overridden.rules.num_rounds == 10 and overridden.seed == 9


def test_no_file_gives_defaults_with_a_fresh_seed() -> None:
    config = load_config(None)
    assert config.rules.variant == "nlhe" and config.rules.num_rounds == 1000
    assert config.runner.reply_timeout == 10.0
    assert 0 <= config.seed < 2**31


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[match]\nvariant = 'omaha'\n", "Unknown variant 'omaha'"),
        ("[match]\nrounds = 0\n", "num_rounds must be a whole number of at least 1"),
        ("[match]\nseed = -1\n", "seed must be a whole number >= 0"),
        ("[match]\nhands = 5\n", "unknown setting(s) in [match]: hands"),
        ("[rules]\nstack = 5\n", "Unknown rules parameter(s): stack"),
        ("[rules]\nsmall_blind = 5\n", "small_blind (5) must not exceed big_blind (2)"),
        ("[rules.swap]\nflop = 1.5\n", "swap.flop must be a probability in [0, 1]"),
        ("[runner]\nreply_timeout = 'soon'\n", "reply_timeout must be a number >= 0"),
        ("[runner]\nlog_limit = 1.5\n", "log_limit must be a whole number >= 0"),
        ("[runner]\nreplytimeout = 1\n", "unknown setting(s) in [runner]: replytimeout"),
        ("[engine]\nx = 1\n", "unknown section(s) engine"),
        ("[match\n", "is not valid TOML"),
    ],
)
def test_bad_configs_are_refused_with_a_clear_message(
    tmp_path: Path, text: str, message: str
) -> None:
    with pytest.raises(ConfigError) as error:
        load_config(write(tmp_path, text))
    assert message in str(error.value)


def test_a_missing_config_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")
