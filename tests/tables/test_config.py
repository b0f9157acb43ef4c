"""The TOML match configuration: every parameter, defaults, overrides and clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from local_runner.tables.config import ConfigError, clock_line, load_config
from sdk.rules import BountyRules, SwapRules
from tests.conftest import ROOT

ACPC_GAME_FILE = ROOT / "tests" / "acpc_games" / "holdem-nolimit-2p.game"


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
            share_cpu = false
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
    assert config.runner.quit_grace == 0.5 and config.runner.share_cpu is False
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
    # Unset limits are the game's: 10 s a reply and to connect at MIT.
    assert config.runner.reply_timeout is None and config.runner.connect_timeout is None
    assert config.runner.reply_limit(config.rules) == config.runner.connect_limit(config.rules)
    assert config.runner.reply_limit(config.rules) == 10.0
    assert 0 <= config.seed < 2**31
    # Fresh each time (five equal draws of 31 bits would be a broken source).
    assert len({load_config(None).seed for _ in range(5)}) > 1


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
        ("[runner]\nshare_cpu = 1\n", "share_cpu must be true or false, not 1"),
        ("[runner]\nshare_cpu = 'no'\n", "share_cpu must be true or false, not 'no'"),
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


# --------------------------------------------------------------------------- the clock


def test_the_clock_follows_the_hands_in_proportion() -> None:
    """30,000 hands of toss get 30 times its season's 60 s, and say where that came from."""
    config = load_config(None).with_overrides(variant="mit-2026", rounds=30_000)
    assert config.rules.game_clock == 1800.0 and config.clock_source == "scaled"
    assert config.clock_dict() == {
        "game_clock": 1800.0,
        "source": "scaled",
        "hands": 30_000,
        "competition": "MIT Pokerbots 2026",
        "competition_clock": 60.0,
        "competition_hands": 1000,
    }
    line = clock_line(config)
    assert line is not None and line.startswith("Clock: 1,800 s per bot for 30,000 hands")
    assert "scaled from the clock of MIT Pokerbots 2026" in line and "--game-clock" in line
    # The season's own number of hands keeps its clock, and says nothing.
    season = load_config(None).with_overrides(variant="toss", rounds=1000)
    assert season.rules.game_clock == 60.0 and season.clock_source == "season"
    assert clock_line(season) is None
    # An ACPC game: 7 s a hand, whatever the number of hands.
    acpc = load_config(None).with_overrides(variant="acpc-2pl", rounds=300)
    assert acpc.rules.game_clock == 2100.0 and "7 s a hand" in str(clock_line(acpc))


def test_an_explicit_clock_wins_from_the_flag_or_the_file(tmp_path: Path) -> None:
    flag = load_config(None).with_overrides(rounds=30_000, game_clock=90)
    assert flag.rules.game_clock == 90.0 and flag.clock_source == "explicit"
    assert "set by you" in str(clock_line(flag))
    file = load_config(write(tmp_path, "[match]\nrounds = 5000\n[rules]\ngame_clock = 12.5\n"))
    assert file.rules.game_clock == 12.5 and file.clock_source == "explicit"
    # More hands from the command line keep the file's clock: it is the user's choice.
    assert file.with_overrides(rounds=20_000).rules.game_clock == 12.5
    # A file's hands without a clock get the game's clock for that many hands.
    scaled = load_config(write(tmp_path, "[match]\nrounds = 5000\n"))
    assert scaled.rules.game_clock == 150.0 and scaled.clock_source == "scaled"
    # Another game from the command line drops the file's rules, its clock among them.
    other = file.with_overrides(variant="bounty", rounds=5000)
    assert other.rules.game_clock == 300.0 and other.clock_source == "scaled"


@pytest.mark.parametrize("value", [0, -1.0, float("nan"), float("inf"), "10"])
def test_a_bad_game_clock_is_refused_with_a_sentence(value: object) -> None:
    with pytest.raises(ConfigError, match="game clock must be a positive number of seconds"):
        load_config(None).with_overrides(game_clock=value)  # type: ignore[arg-type]


def test_the_limits_are_the_games_unless_set(tmp_path: Path) -> None:
    """MIT games keep 10 s to connect and to reply; ACPC games have no connect limit and
    600 s a reply, as the ACPC server's check; a setting in the file wins in both."""
    mit = load_config(None).with_overrides(variant="toss")
    acpc = load_config(None).with_overrides(variant="acpc-3pl")
    assert mit.runner.connect_limit(mit.rules) == 10.0 and mit.runner.reply_limit(mit.rules) == 10
    assert acpc.runner.connect_limit(acpc.rules) is None
    assert acpc.runner.reply_limit(acpc.rules) == 600.0
    game_file = load_config(None).with_overrides(game=ACPC_GAME_FILE)
    assert game_file.runner.connect_limit(game_file.rules) is None  # a game file plays as ACPC
    set_ = load_config(
        write(tmp_path, '[match]\nvariant = "acpc-2pn"\n[runner]\nconnect_timeout = 10\n')
    )
    assert set_.runner.connect_limit(set_.rules) == 10.0 and set_.names_game


def test_a_config_that_names_no_game_lets_the_bots_say() -> None:
    assert not load_config(None).names_game


def test_a_configuration_built_by_hand_records_the_clock_its_rules_carry() -> None:
    from local_runner.tables.config import ScrimmageConfig
    from sdk.rules import Rules

    by_hand = ScrimmageConfig(rules=Rules(num_rounds=20), seed=1)  # 30 s for 20 hands
    assert by_hand.clock_dict()["source"] == "explicit"
    assert ScrimmageConfig(rules=Rules(), seed=1).clock_dict()["source"] == "season"
