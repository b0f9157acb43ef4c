"""``pokerbots new`` for the ACPC games: the bot speaks the ACPC wire and says so.

``--set variant=acpc-2pl`` (``acpc-2pn``, ``acpc-3pl``) makes an ACPC bot: ``startme.sh
HOST PORT`` runs it with ``--protocol acpc``, ``commands.json`` says ``"protocol":
"acpc"``, the metadata file is ``README`` with ``Profile: acpc``; ``--game FILE`` makes a
bot of an ACPC game definition file, copied into it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from local_runner.programs.bot_program import BotProgram
from local_runner.submission.metadata import parse_readme, render_readme
from local_runner.submission.new import NewBotError, create_bot, readme_answers, refresh_bot
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage, speaks_acpc
from local_runner.tables.spec import read_bot_program
from sdk.games import VARIANTS
from sdk.rules import Rules
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # new bots' own tests in a subprocess, and matches


GAMES = ROOT / "tests" / "acpc_games"
TEAM = {
    "team_name": "The Folding Chairs",
    "affiliation": "Example University",
    "leader_name": "Grace Hopper",
    "leader_email": "grace@hopper.edu",
    "members": "Grace Hopper <grace@hopper.edu>",
}


@pytest.fixture(scope="module")
def acpc_bots(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One new bot per ACPC game."""
    root = tmp_path_factory.mktemp("acpc-bots")
    return {
        variant: create_bot(root / variant, {**TEAM, "variant": variant})
        for variant in ("acpc-2pl", "acpc-2pn", "acpc-3pl")
    }


@pytest.mark.parametrize("variant", ["acpc-2pl", "acpc-2pn", "acpc-3pl"])
def test_an_acpc_game_makes_a_bot_on_the_acpc_wire(
    acpc_bots: dict[str, Path], variant: str
) -> None:
    bot = acpc_bots[variant]
    startme = (bot / "startme.sh").read_text(encoding="utf-8")
    assert (
        startme.splitlines()[-1]
        == 'cd "$(dirname "$0")" && exec python3 player.py --protocol acpc "$@"'
    )
    assert (bot / "startme.sh").stat().st_mode & 0o777 == 0o755
    commands = json.loads((bot / "commands.json").read_text(encoding="utf-8"))
    assert commands == {
        "build": [],
        "run": ["python3", "player.py", "--protocol", "acpc"],
        "protocol": "acpc",
    }
    assert not (bot / "README.txt").exists()
    metadata = parse_readme((bot / "README").read_text(encoding="utf-8"))
    assert (metadata.variant, metadata.profile, metadata.game) == (variant, "acpc", None)
    program = BotProgram.from_directory(bot)
    assert program.protocol == "acpc" and speaks_acpc(program, Rules.for_variant(variant))


@pytest.mark.parametrize("variant", ["acpc-2pl", "acpc-2pn", "acpc-3pl"])
def test_the_acpc_bots_own_tests_pass(acpc_bots: dict[str, Path], variant: str) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=acpc_bots[variant],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stdout[-3000:]
    # One test per game the kit declares (the bot plays each), and three of its own.
    assert f"{len(VARIANTS) + 3} passed" in completed.stdout


@pytest.mark.parametrize("source", ["commands.json", "startme.sh"])
def test_a_new_acpc_bot_plays_its_game_in_the_runner(
    acpc_bots: dict[str, Path], tmp_path: Path, source: str
) -> None:
    bot = tmp_path / "bot"
    shutil.copytree(acpc_bots["acpc-2pl"], bot, symlinks=True)
    if source == "startme.sh":
        (bot / "commands.json").unlink()
    rules = Rules.for_variant("acpc-2pl").replace(num_rounds=200)
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:chump")]
    result = run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=4), tmp_path / "out")
    assert result.hands_played == 200
    assert result.players[0].fault_counts == {}, result.players[0].first_faults
    assert result.players[0].decisions > 100


def test_the_mit_competition_does_not_play_an_acpc_game(tmp_path: Path) -> None:
    with pytest.raises(NewBotError, match="does not play acpc-2pn, an ACPC game"):
        create_bot(tmp_path / "bot", {"variant": "acpc-2pn", "profile": "mit"})
    assert not (tmp_path / "bot").exists()


def test_a_game_file_makes_a_bot_of_that_game(tmp_path: Path) -> None:
    game = GAMES / "holdem-nolimit-2p.game"
    bot = create_bot(tmp_path / "bot", TEAM, game=game)
    assert (bot / game.name).read_text(encoding="ascii") == game.read_text(encoding="ascii")
    assert (bot / "startme.sh").read_text(encoding="utf-8").splitlines()[-1] == (
        'cd "$(dirname "$0")" && exec python3 player.py --protocol acpc --game '
        'holdem-nolimit-2p.game "$@"'
    )
    commands = json.loads((bot / "commands.json").read_text(encoding="utf-8"))
    assert commands["run"][-2:] == ["--game", "holdem-nolimit-2p.game"]
    metadata = parse_readme((bot / "README").read_text(encoding="utf-8"))
    assert (metadata.variant, metadata.profile, metadata.game) == (
        "acpc-2pn",
        "acpc",
        "holdem-nolimit-2p.game",
    )
    # --force keeps the game: nothing the template wrote has changed.
    changes = refresh_bot(bot)
    assert changes.added == () and changes.updated == () and changes.edited == ()
    assert readme_answers(bot)["game"] == "holdem-nolimit-2p.game"  # type: ignore[index]


def test_a_game_file_that_no_template_bot_plays_is_refused(tmp_path: Path) -> None:
    with pytest.raises(NewBotError, match="6-player nolimit game; the template's ACPC bots"):
        create_bot(tmp_path / "six", TEAM, game=GAMES / "holdem-nolimit-6p.game")
    with pytest.raises(NewBotError, match="of the shape of acpc-2pn, not acpc-2pl"):
        create_bot(
            tmp_path / "clash", {"variant": "acpc-2pl"}, game=GAMES / "holdem-nolimit-2p.game"
        )
    with pytest.raises(NewBotError, match="does not exist"):
        create_bot(tmp_path / "none", TEAM, game=GAMES / "missing.game")
    odd = tmp_path / "my game;rm.game"
    shutil.copyfile(GAMES / "holdem-limit-2p.game", odd)
    with pytest.raises(NewBotError, match=r"would be written into startme\.sh; rename it"):
        create_bot(tmp_path / "odd", TEAM, game=odd)
    assert not any((tmp_path / name).exists() for name in ("six", "clash", "none", "odd"))


def test_the_command_line_makes_a_bot_of_a_game_file(tmp_path: Path) -> None:
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "local_runner.cli",
            "new",
            "bot",
            "--no-input",
            "--game",
            str(GAMES / "holdem-limit-3p.game"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    metadata = parse_readme((tmp_path / "bot" / "README").read_text(encoding="utf-8"))
    assert (metadata.variant, metadata.game) == ("acpc-3pl", "holdem-limit-3p.game")
    # The next steps play the bot's own game, with a bot in each of its three seats.
    command = "pokerbots scrimmage bot builtin:chump builtin:chump --game bot/holdem-limit-3p.game"
    assert command in completed.stdout


def test_an_acpc_bot_is_refused_in_an_mit_game_with_a_sentence(
    acpc_bots: dict[str, Path], tmp_path: Path
) -> None:
    from local_runner.tables.scrimmage import UsageError

    specs = [BotSpec.parse(str(acpc_bots["acpc-2pn"])), BotSpec.parse("builtin:chump")]
    rules = Rules.for_variant("nlhe").replace(num_rounds=5)
    with pytest.raises(UsageError, match=r"checks after an all-in; play an ACPC game \(--variant"):
        run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=1), tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_commands_json_without_a_protocol_follows_the_profile(tmp_path: Path) -> None:
    bot = create_bot(tmp_path / "bot", {**TEAM, "profile": "acpc"})  # nlhe, for the ACPC
    assert "protocol" not in json.loads((bot / "commands.json").read_text(encoding="utf-8"))
    program = read_bot_program(bot)
    assert program.protocol == "auto"  # the ACPC wire in an ACPC game, the MIT wire otherwise
    assert speaks_acpc(program, Rules.for_variant("acpc-2pn"))
    assert not speaks_acpc(program, Rules.for_variant("nlhe"))
    (bot / "README").unlink()
    assert read_bot_program(bot).protocol == "mit"


def test_the_game_line_reads_back() -> None:
    text = (ROOT / "skeleton" / "README.txt").read_text(encoding="utf-8")
    metadata = parse_readme(text)
    assert metadata.game is None
    with_game = parse_readme(text.replace("Profile: mit\n", "Profile: acpc\nGame: x.game\n"))
    assert with_game.game == "x.game"
    assert render_readme(with_game).count("Game: x.game\n") == 1
