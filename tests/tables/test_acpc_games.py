"""The ACPC games as presets, from game definition files, and in 3-seat in-process matches."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from local_runner.bots.builtin import make_builtin
from local_runner.harness import play
from local_runner.tables.config import ConfigError, load_config
from sdk.gamedef import GameDefError, parse_gamedef
from sdk.games import PRESETS, VARIANTS
from sdk.rules import Rules, RulesError

GAMES = Path(__file__).resolve().parents[1] / "acpc_games"


def test_every_list_of_games_is_the_preset_registry() -> None:
    assert tuple(PRESETS) == VARIANTS
    assert {"acpc-2pl", "acpc-2pn", "acpc-3pl"} <= set(VARIANTS)
    for name, rules in PRESETS.items():
        assert rules.variant == name and Rules.for_variant(name) == rules


def test_a_label_never_contradicts_its_rules() -> None:
    with pytest.raises(RulesError, match="not 'nlhe'"):
        Rules(variant="nlhe", auction=True)
    with pytest.raises(RulesError, match="not 'acpc-3pl'"):
        Rules.for_variant("acpc-3pl").replace(seats=2)
    assert Rules(variant="custom", auction=True).auction


@pytest.mark.parametrize(
    ("name", "seats", "blinds", "limit"),
    [
        ("holdem-limit-2p.game", 2, (5, 10), True),
        ("holdem-limit-3p.game", 3, (5, 10), True),
        ("holdem-nolimit-2p.game", 2, (50, 100), False),
    ],
)
def test_the_servers_holdem_games_read_into_rules(
    name: str, seats: int, blinds: tuple[int, int], limit: bool
) -> None:
    path = GAMES / name
    rules = parse_gamedef(path.read_text(encoding="utf-8")).to_rules(500)
    assert (rules.seats, (rules.small_blind, rules.big_blind)) == (seats, blinds)
    assert (rules.limit is not None) == limit and not rules.all_in_checks
    result = play(make_builtin("random", 1), "raise", rounds=100, rules=rules)
    assert result.hands_played == 100 and sum(p.bankroll for p in result.players) == 0


def test_a_game_the_kit_cannot_play_is_refused_with_a_sentence(tmp_path: Path) -> None:
    text = (GAMES / "kuhn-limit-3p.game").read_text(encoding="utf-8")
    with pytest.raises(GameDefError, match="not Texas hold'em"):
        parse_gamedef(text).to_rules()
    game = tmp_path / "kuhn.game"
    game.write_text(text, encoding="utf-8")
    config = tmp_path / "match.toml"
    config.write_text('[match]\ngame = "kuhn.game"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot play this game"):
        load_config(config)


def test_a_config_plays_a_game_file_and_limit_tables(tmp_path: Path) -> None:
    (tmp_path / "g.game").write_text(
        (GAMES / "holdem-limit-3p.game").read_text(encoding="utf-8"), encoding="utf-8"
    )
    config = tmp_path / "match.toml"
    config.write_text('[match]\ngame = "g.game"\nrounds = 50\n', encoding="utf-8")
    rules = load_config(config).rules
    assert rules.seats == 3 and rules.num_rounds == 50 and rules.limit is not None
    config.write_text(
        '[match]\nvariant = "custom"\n[rules]\nseats = 4\n[rules.limit]\n'
        "raise_sizes = [2, 2, 4, 4]\nmax_raises = [3, 4, 4, 4]\n",
        encoding="utf-8",
    )
    rules = load_config(config).rules
    assert rules.seats == 4 and rules.limit is not None and rules.limit.raise_sizes == (2, 2, 4, 4)


def test_a_three_seat_scrimmage_of_built_in_bots_writes_its_logs(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "local_runner.cli",
            "scrimmage",
            "builtin:random",
            "builtin:raise",
            "builtin:checkcall",
            "--variant",
            "acpc-3pl",
            "--rounds",
            "60",
            "--seed",
            "3",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["rounds"] == 60 and len(summary["players"]) == 3
    assert sum(p["bankroll"] for p in summary["players"]) == 0
    assert len(summary["statistics"]["players"]) == 3
    hands = [json.loads(line) for line in (out / "hands.jsonl").read_text().splitlines()]
    assert all(len(hand["players"]) == 3 and sum(hand["deltas"]) == 0 for hand in hands)
    gamelog = (out / "gamelog.txt").read_text(encoding="utf-8")
    assert gamelog.startswith("6.9630 MIT Pokerbots - random vs raise vs checkcall")
    assert "posts the blind of 5" in gamelog and "Final, " in gamelog


def test_an_mit_wire_bot_directory_at_a_three_seat_table_is_refused_with_what_to_do(
    tmp_path: Path,
) -> None:
    skeleton = Path(__file__).resolve().parents[2] / "skeleton"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "local_runner.cli",
            "scrimmage",
            str(skeleton),
            "--variant",
            "acpc-3pl",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert "MIT wire protocol, which seats two players" in run.stderr
    assert '"protocol": "acpc"' in run.stderr and "startme.sh" in run.stderr


def test_the_chump_plays_every_acpc_game_and_folds_about_six_percent_facing_a_bet() -> None:
    for variant in ("acpc-2pl", "acpc-2pn", "acpc-3pl"):
        result = play(make_builtin("chump", 1), "chump", rounds=300, variant=variant)
        assert all(p.fault_counts == {} for p in result.players)
    bot = make_builtin("chump", 2)
    facing = Rules.for_variant("acpc-2pl")
    from sdk.actions import FoldAction
    from sdk.states import GameState, RoundState

    state = RoundState.new_hand(facing)  # the button faces the big blind
    folds = sum(
        isinstance(bot.get_action(GameState(0, 1.0, 1), state, 0), FoldAction) for _ in range(5000)
    )
    assert 200 < folds < 420  # 6% of 5000 is 300
