"""The games are declared once (sdk.games): every preset has its declaration, a season's
alias names its game everywhere a variant is taken, and a declaration that contradicts
itself is refused when it is made."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from local_runner.cli import main
from local_runner.runs.gamelog import format_hand
from local_runner.submission.new import create_bot
from local_runner.view.acpc import ACPC_VARIANTS
from local_runner.view.timeline import street_name
from sdk.gamedef import ACPC_GAMES
from sdk.games import (
    ACPC,
    GAMES,
    MIT,
    PRESETS,
    SEASONS,
    VARIANTS,
    Game,
    Street,
    find_game,
    games_speaking,
    native_wire,
    streets_of,
)
from sdk.rules import Rules, RulesError


def test_every_preset_is_declared_once_and_in_order() -> None:
    assert tuple(GAMES) == VARIANTS == tuple(PRESETS)
    for name, game in GAMES.items():
        assert game.rules is PRESETS[name]


def test_each_season_names_its_game() -> None:
    assert SEASONS == {
        "mit-2020": "permuted",
        "mit-2022": "swap",
        "mit-2023": "blood",
        "mit-2024": "auction",
        "mit-2025": "bounty",
        "mit-2026": "toss",
    }
    for alias, name in SEASONS.items():
        assert find_game(alias) is GAMES[name]
        assert Rules.for_variant(alias) is PRESETS[name]
        assert Rules.from_dict({"variant": alias, "num_rounds": 7}).variant == name


def test_an_unknown_name_lists_every_known_one() -> None:
    with pytest.raises(RulesError, match=r"Unknown variant 'mit-2019'; choose one of: nlhe, .*"):
        find_game("mit-2019")
    with pytest.raises(RulesError, match="mit-2026"):
        Rules.for_variant("omaha")


def test_a_declaration_that_contradicts_itself_is_refused_when_made() -> None:
    toss = GAMES["toss"]
    with pytest.raises(RulesError, match="'toss' contradicts itself: its discard streets"):
        replace(toss, streets=GAMES["nlhe"].streets)
    with pytest.raises(RulesError, match="the MIT wire seats two players, not 3"):
        replace(GAMES["acpc-3pl"], wires=(ACPC, MIT))
    with pytest.raises(RulesError, match="do not rise from 0"):
        replace(GAMES["nlhe"], streets=(Street(3, "flop", "Flop"), Street(0, "pre", None)))
    with pytest.raises(RulesError, match="its rules are those of 'swap'"):
        Game("nlhe", PRESETS["swap"], GAMES["swap"].streets, (MIT,), GAMES["nlhe"].competition)


def test_the_wires_are_the_declarations() -> None:
    assert games_speaking(ACPC) == ("acpc-2pl", "acpc-2pn", "acpc-3pl")
    assert set(games_speaking(MIT)) == {name for name, g in GAMES.items() if g.rules.seats == 2}
    assert native_wire(PRESETS["acpc-2pn"]) == ACPC and native_wire(PRESETS["toss"]) == MIT
    # A game definition file is no declared game, and plays the ACPC ways.
    assert native_wire(ACPC_GAMES["acpc-2pl"].to_rules()) == ACPC
    assert {"nlhe", "acpc-2pl", "acpc-2pn", "acpc-3pl"} == ACPC_VARIANTS


def test_street_names_come_from_the_declaration() -> None:
    toss = PRESETS["toss"]
    assert [street_name(s.board, toss) for s in streets_of(toss)] == [
        "preflop",
        "flop",
        "discard 1",
        "discard 2",
        "turn",
        "river",
    ]
    assert street_name(3, PRESETS["nlhe"]) == "flop" and street_name(5, None) == "river"
    # Rules combined by hand get the streets of the declared game with the same hooks.
    custom = Rules(variant="custom", auction=True)
    assert [s.asks for s in streets_of(custom)][1] == ("bid", "bet")
    with pytest.raises(RulesError, match="has no street with 2 board cards"):
        street_name(2, PRESETS["nlhe"])


def test_the_gamelog_labels_each_street_as_its_declaration_says() -> None:
    from local_runner.bots.builtin import make_builtin
    from local_runner.engine.match import Match
    from local_runner.engine.records import HandRecord
    from local_runner.engine.seats import InProcessSeat

    rules = PRESETS["toss"].replace(num_rounds=30)
    records: list[HandRecord] = []
    seats = [InProcessSeat(f"p{i}", make_builtin("checkcall", i), rules) for i in range(2)]
    Match(seats, rules, seed=5, on_hand=records.append).play()
    labels = {line.split(" [")[0] for record in records for line in format_hand(record, rules)} & {
        s.log_name for s in GAMES["toss"].streets
    }
    assert labels == {"Flop", "Discard 1", "Discard 2", "Turn", "River"}


def test_a_season_alias_works_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    argv = ["scrimmage", "builtin:checkcall", "builtin:raise", "--variant", "mit-2026"]
    assert main([*argv, "--rounds", "5", "--seed", "1", "--out", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["variant"] == "toss" and summary["rules"]["discard"] is True
    with pytest.raises(SystemExit):
        main(["scrimmage", "--variant", "mit-2019", "--out", str(tmp_path / "x")])
    assert "Unknown variant 'mit-2019'; choose one of" in capsys.readouterr().err


def test_a_new_bot_for_a_season(tmp_path: Path) -> None:
    bot = create_bot(tmp_path / "bot", {"variant": "mit-2024"})
    assert 'VARIANT = "auction"' in (bot / "player.py").read_text(encoding="utf-8")
    assert "Variant: auction" in (bot / "README.txt").read_text(encoding="utf-8")
    acpc = create_bot(tmp_path / "acpc", {"variant": "acpc-2pn"})
    run = json.loads((acpc / "commands.json").read_text(encoding="utf-8"))["run"]
    assert "--protocol" in run and run[run.index("--protocol") + 1] == ACPC


def test_the_registry_names_are_still_read_from_sdk_rules() -> None:
    # A bot's tests written before the registry held them import these from sdk.rules, and a
    # `pokerbots sdk refresh` replaces only the bot's sdk/: they must keep working.
    import sdk.rules as rules_module

    assert rules_module.VARIANTS is VARIANTS
    assert rules_module.PRESETS is PRESETS
    assert (
        tuple(name for name in VARIANTS if find_game(name).competition.profile == "mit")
        == rules_module.MIT_VARIANTS
    )
    with pytest.raises(AttributeError, match="no attribute 'NOT_A_NAME'"):
        _ = rules_module.NOT_A_NAME  # type: ignore[attr-defined]
