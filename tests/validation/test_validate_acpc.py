"""``pokerbots validate`` in an ACPC game: the ACPC server's ``validate_submission.pl`` matches.

End to end, with real processes and sockets: a bot made by ``pokerbots new --set
variant=acpc-2pn`` is validated with the full 12,000 hands against ``builtin:chump``
through the command line; broken ACPC bots fail with a sentence saying what is wrong.
The live tests (``POKERBOTS_ACPC_DEALER``) validate the ACPC server's own
``example_player`` wrapped in a two-line ``startme.sh``.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from local_runner.engine.records import MatchResult, PlayerResult
from local_runner.results.match_stats import MatchStats
from local_runner.submission.metadata import Metadata, Person, render_readme
from local_runner.tables.config import ConfigError
from local_runner.validation import ValidateOptions, ValidateUsageError, validate
from local_runner.validation.acpc_matches import (
    ACPC_CHECKS,
    CHUMP,
    acpc_game,
    check_acpc_result,
    describe_rules,
    match_plan,
)
from local_runner.validation.checks import CheckResult, Status
from local_runner.validation.dynamic import SmokeMatch
from local_runner.validation.profiles import detect_profile
from tests.acpc_checks import STALE_ECHO
from tests.conftest import ROOT, MakeBot

pytestmark = pytest.mark.slow  # validates real bot processes


DEALER = os.environ.get("POKERBOTS_ACPC_DEALER")
needs_dealer = pytest.mark.skipif(
    not DEALER,
    reason="set POKERBOTS_ACPC_DEALER to the folder of a built ACPC dealer and example_player",
)
TEAM = [
    "--set",
    "team_name=The Folding Chairs",
    "--set",
    "affiliation=Example University",
    "--set",
    "leader_name=Grace Hopper",
    "--set",
    "leader_email=grace@hopper.edu",
    "--set",
    "members=Grace Hopper <grace@hopper.edu>",
]
SERVER_NOLIMIT = ROOT / "tests" / "acpc_games" / "holdem-nolimit-2p.game"


def pokerbots(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the kit's command line as a user would, in ``cwd``."""
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    return subprocess.run(
        [sys.executable, "-m", "local_runner.cli", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def checks_of(report: dict[str, object]) -> dict[str, dict[str, str]]:
    """The checks of a JSON report, by name."""
    return {check["name"]: check for check in report["checks"]}  # type: ignore[attr-defined]


def readme(tmp: Path, variant: str) -> None:
    """A complete ACPC README (no placeholder) in the bot folder ``tmp``."""
    leader = Person("Grace Hopper", "grace@hopper.edu")
    text = render_readme(
        Metadata(
            bot_name=tmp.name,
            team_name="The Folding Chairs",
            affiliation="Example University",
            leader=leader,
            members=(leader,),
            location="Arlington, Virginia, USA",
            variant=variant,
            technique="A test bot.",
            profile="acpc",
        )
    )
    (tmp / "README").write_text(text, encoding="utf-8")


# --- the plan: games, matches, hands -------------------------------------------------------


def test_the_script_plays_four_matches_heads_up_and_twelve_with_three_players() -> None:
    assert match_plan(12_000, 3000) == (3000,) * 4
    assert match_plan(12_000, 1000) == (1000,) * 12
    assert match_plan(12_001, 3000) == (3000,) * 5  # ⌈hands / hands per match⌉ full matches
    assert match_plan(600, 3000) == (600,)  # a shorter test: one match


def test_the_presets_are_the_2009_games_and_a_game_file_is_its_own_game() -> None:
    doyle = acpc_game("acpc-2pn")
    rules = doyle.rules
    assert (rules.small_blind, rules.big_blind, rules.starting_stack) == (1, 2, 400)
    assert doyle.rules.num_rounds == 3000 and doyle.rules.game_clock == 7.0 * 3000
    assert doyle.label == (
        "acpc-2pn (heads-up no-limit, blinds 1/2, 400 chips reset every hand; the 2009 rules)"
    )
    assert acpc_game("acpc-3pl").rules.num_rounds == 1000
    assert describe_rules(acpc_game("acpc-2pl").rules) == "heads-up limit, blinds 5/10"
    server = acpc_game("acpc-2pl", SERVER_NOLIMIT)  # the file wins over the variant
    assert server.rules.big_blind == 100 and server.rules.starting_stack == 20_000
    assert "blinds 50/100, 20,000 chips" in server.label and "game definition file" in server.label
    with pytest.raises(ConfigError, match="not an ACPC game"):
        acpc_game("nlhe")
    with pytest.raises(ConfigError, match="does not exist"):
        acpc_game("acpc-2pn", SERVER_NOLIMIT.with_name("missing.game"))


def test_a_commands_json_on_the_acpc_wire_is_an_acpc_entry(tmp_path: Path) -> None:
    (tmp_path / "commands.json").write_text(
        json.dumps({"build": [], "run": ["./bot"], "protocol": "acpc"}), encoding="utf-8"
    )
    assert detect_profile(tmp_path) == ("acpc", 'the commands.json says "protocol": "acpc"')


# --- end to end: scaffold, validate -----------------------------------------------------------


def test_a_new_acpc_bot_passes_the_acpc_servers_check(tmp_path: Path) -> None:
    """`pokerbots new --set variant=acpc-2pn`, then `pokerbots validate`: 12,000 hands in four
    matches against the chump, no fault, not losing, nothing left running; the game named."""
    made = pokerbots(
        "new", "my-acpc-bot", "--no-input", "--set", "variant=acpc-2pn", *TEAM, cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    bot = tmp_path / "my-acpc-bot"
    assert (bot / "README").is_file() and not (bot / "README.txt").exists()
    run = pokerbots("validate", "my-acpc-bot", "--json", cwd=tmp_path)
    report = json.loads(run.stdout)
    checks = checks_of(report)
    failed = [check for check in checks.values() if check["status"] != "pass"]
    assert run.returncode == 0 and report["ok"], failed
    assert [name for name in checks][-len(ACPC_CHECKS) :] == list(ACPC_CHECKS)
    assert all(check["status"] == "pass" for check in checks.values()), checks
    assert (
        "Played 4 matches, 12,000 hands of acpc-2pn (heads-up no-limit, blinds 1/2"
        in checks["acpc_matches"]["message"]
    )
    assert checks["acpc_result"]["message"].startswith("The bot did not lose to builtin:chump: +")
    stats = report["stats"]
    assert stats["game"].startswith("acpc-2pn (")
    assert "validate_submission.pl" in stats["competition"]
    assert [m["hands"] for m in stats["matches"]] == [3000] * 4
    assert [m["seed"] for m in stats["matches"]] == [1, 2, 3, 4]
    shown = pokerbots("validate", "my-acpc-bot", "--static-only", cwd=tmp_path)
    assert "playing acpc-2pn (heads-up no-limit, blinds 1/2, 400 chips" in shown.stdout


def test_an_acpc_bot_of_a_game_file_validates_that_game(tmp_path: Path) -> None:
    made = pokerbots(
        "new", "server-bot", "--no-input", "--game", str(SERVER_NOLIMIT), *TEAM, cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    options = ValidateOptions(hands=400)
    report = validate(tmp_path / "server-bot", options)
    assert report.ok, [c for c in report.checks if c.status != "pass"]
    assert report.stats["game"].startswith(
        "holdem-nolimit-2p.game (heads-up no-limit, blinds 50/100, 20,000 chips"
    )
    assert report["acpc_matches"].status == "warn"  # 400 hands: shorter than the server's test
    assert "at least 12,000 hands" in report["acpc_matches"].message


FOLDER = """
    from sdk.actions import CheckAction, FoldAction
    from sdk.bot import Bot
    from sdk.runner import parse_args, run_bot

    class Folder(Bot):
        def get_action(self, game_state, round_state, active):
            legal = round_state.legal_actions()
            return CheckAction() if CheckAction in legal else FoldAction()

    run_bot(Folder(), parse_args(), protocol="acpc")
"""


def test_a_bot_that_answers_old_states_fails_with_the_dealers_reason(make_bot: MakeBot) -> None:
    bot = make_bot("stale", STALE_ECHO, startme=True)
    readme(bot, "acpc-2pl")
    report = validate(bot, ValidateOptions(hands=50))
    check = report["acpc_matches"]
    assert not report.ok and check.status == "fail"
    assert check.message.startswith("Faults in the ACPC matches (1 match, 50 hands of acpc-2pl")
    assert "misformatted; first, hand 1: response misformatted: the reply echoes" in check.message
    assert check.message.endswith(
        "only when it is your turn. The ACPC server's check fails on any warning of its dealer."
    )
    assert check.hint.startswith("Speak the ACPC wire (VERSION:2.0.0 first")


def judged(deltas: list[int], wanted: int = 12_000) -> CheckResult:
    """acpc_result for one heads-up limit match whose hands the bot won or lost by ``deltas``."""
    stats = MatchStats(2)
    for delta in deltas:
        stats.players[0].add(delta)
        stats.players[1].add(-delta)
    game = acpc_game("acpc-2pl")
    players = (PlayerResult("bot", bankroll=sum(deltas)), PlayerResult(CHUMP, -sum(deltas)))
    result = MatchResult(game.rules, 1, len(deltas), players)
    match = SmokeMatch(CHUMP, result, Path("bot.log"))
    return check_acpc_result([match], stats, game, wanted)


def test_a_loss_over_fewer_hands_than_the_server_plays_is_judged_by_its_interval() -> None:
    # 20 hands of limit hold'em, 50 chips down: the 95% interval spans 0 by far.
    noisy = [10, -20, 30, -40, 5, -10, 20, -30, -10, 10] * 2
    result = judged(noisy)
    assert sum(noisy) < 0 and result.status is Status.WARN
    assert result.message.startswith(
        "The bot lost to builtin:chump over fewer hands than the ACPC server's check plays: -"
    )
    assert "cannot tell the loss from chance" in result.message
    assert "over 12,000 hands" in result.message and "--hands 12000" in result.hint
    # The same hands as the whole check: the script's rule alone (any loss fails).
    assert judged(noisy, wanted=len(noisy)).status is Status.FAIL
    # A steady loss is a loss however few the hands.
    steady = judged([-5, -10] * 10)
    assert steady.status is Status.FAIL
    assert steady.message.startswith("The bot lost to builtin:chump: -150 chips over 20 hands")
    assert judged([5, -10, 20] * 7).status is Status.PASS


def test_a_bot_that_loses_to_the_chump_fails(make_bot: MakeBot) -> None:
    bot = make_bot("folder", FOLDER, startme=True)
    readme(bot, "acpc-2pn")
    report = validate(bot, ValidateOptions(hands=300))
    assert report["acpc_matches"].status == "warn"  # no fault: only fewer hands than 12,000
    result = report["acpc_result"]
    assert result.status == "fail" and not report.ok
    assert result.message.startswith("The bot lost to builtin:chump: -")
    assert "requires at least 0 mbb/hand" in result.message
    assert report["cleanup"].status == "pass"


def test_an_mit_wire_bot_entered_in_an_acpc_game_is_told_to_speak_the_acpc_wire(
    tmp_path: Path,
) -> None:
    made = pokerbots("new", "mit-bot", "--no-input", "--set", "profile=acpc", *TEAM, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    report = validate(tmp_path / "mit-bot", ValidateOptions(variant="acpc-2pn", hands=20))
    check = report["acpc_matches"]
    assert check.status == "fail" and "1 crash" in check.message
    assert check.hint.startswith(
        "The bot reads the MIT wire, but the ACPC dealer sends "
        "MATCHSTATE lines: start it with --protocol acpc"
    )


def test_an_acpc_bot_validated_in_an_mit_game_fails_with_the_runners_sentence(
    tmp_path: Path,
) -> None:
    made = pokerbots(
        "new", "acpc-bot", "--no-input", "--set", "variant=acpc-2pl", *TEAM, cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    # The bot's README names the acpc profile, which plays no MIT game: a usage error.
    with pytest.raises(ValidateUsageError, match="nlhe is an MIT game: pass --variant acpc-2pl"):
        validate(tmp_path / "acpc-bot", ValidateOptions(variant="nlhe", hands=5))
    options = ValidateOptions(variant="nlhe", hands=5, profile="mit")
    report = validate(tmp_path / "acpc-bot", options)
    check = report["smoke_match"]
    assert check.status == "fail" and "speak(s) the ACPC wire" in check.message
    assert report["build"].status == "skip"


def test_a_missing_game_named_by_readme_fails_with_a_sentence(tmp_path: Path) -> None:
    made = pokerbots(
        "new", "server-bot", "--no-input", "--game", str(SERVER_NOLIMIT), *TEAM, cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    (tmp_path / "server-bot" / "holdem-nolimit-2p.game").unlink()
    report = validate(tmp_path / "server-bot", ValidateOptions(hands=10))
    check = report["acpc_matches"]
    assert check.status == "fail" and "holdem-nolimit-2p.game does not exist" in check.message
    assert report["build"].status == "skip"


def test_three_players_fill_two_seats_with_chumps(tmp_path: Path) -> None:
    made = pokerbots("new", "three", "--no-input", "--set", "variant=acpc-3pl", *TEAM, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    report = validate(tmp_path / "three", ValidateOptions(hands=100))
    check = report["acpc_matches"]
    assert report.ok, [c for c in report.checks if c.status == "fail"]
    assert check.status == "warn"  # fewer hands than the script's 12,000: said, not failed
    assert "1 match, 100 hands of acpc-3pl (3-player limit" in check.message
    assert report.stats["game"].startswith("acpc-3pl (3-player limit, blinds 5/10")


# --- live: the ACPC server's own example_player -------------------------------------------


def example_player_bot(tmp_path: Path, game: str) -> Path:
    """The ACPC server's example_player as a submission: the binary, its game file, and a
    two-line startme.sh, as the server's scripts start it (``./startme.sh HOST PORT``)."""
    build = Path(str(DEALER))
    bot = tmp_path / "submission_2pl"
    bot.mkdir()
    shutil.copy2(build / "example_player", bot / "example_player")
    shutil.copyfile(build / game, bot / game)
    startme = bot / "startme.sh"
    startme.write_text(
        textwrap.dedent(f"""\
        #!/bin/sh
        cd "$(dirname "$0")" && exec ./example_player {game} "$1" "$2"
    """),
        encoding="utf-8",
    )
    startme.chmod(0o755)
    readme(bot, "acpc-2pl")
    return bot


@pytest.mark.live
@needs_dealer
@pytest.mark.parametrize(
    ("options", "game"),
    [
        ({"variant": "acpc-2pl"}, "holdem.limit.2p.reverse_blinds.game"),
        (
            {"game": "holdem.nolimit.2p.reverse_blinds.game"},
            "holdem.nolimit.2p.reverse_blinds.game",
        ),
    ],
)
def test_the_example_player_wrapped_in_startme_is_validated(
    tmp_path: Path, options: dict[str, str], game: str
) -> None:
    """The full 12,000 hands without a fault or a lingering process.  The example player
    plays at random, like the chump: whether it loses is a coin toss (the ACPC server's
    check would fail it as often), so the result is only required to be judged."""
    bot = example_player_bot(tmp_path, game)
    given = {key: (bot / value if key == "game" else value) for key, value in options.items()}
    report = validate(bot, ValidateOptions(**given))  # type: ignore[arg-type]
    failed = [c for c in report.checks if c.status == "fail" and c.name != "acpc_result"]
    assert failed == [], failed
    assert report["acpc_matches"].status == "pass"
    assert "Played 4 matches, 12,000 hands" in report["acpc_matches"].message
    result = report["acpc_result"]
    assert result.message.startswith(
        ("The bot did not lose to builtin:chump: +", "The bot lost to builtin:chump: -")
    )
    assert report["cleanup"].status == "pass"


@pytest.mark.live
@needs_dealer
@pytest.mark.parametrize(
    ("label", "variant", "game"),
    [
        ("acpc-2pl", "acpc-2pl", None),
        ("acpc-2pn", "acpc-2pn", None),
        ("acpc-3pl", "acpc-3pl", None),
        ("nolimit-2p-server", None, "holdem.nolimit.2p.reverse_blinds.game"),
    ],
)
def test_a_new_acpc_bot_plays_the_real_dealer(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    label: str,
    variant: str | None,
    game: str | None,
) -> None:
    """A bot made by `pokerbots new` plays the real dealer against example_player, started by
    its own startme.sh HOST PORT: no dealer WARNING or ERROR, nothing printed, every line
    passes the codec's checks."""
    from tests.acpc_checks import check_all, live_match

    build = Path(str(DEALER))
    args = ["--set", f"variant={variant}"] if variant else ["--game", str(build / str(game))]
    made = pokerbots("new", "bot", "--no-input", *args, *TEAM, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    # startme.sh runs `python3`: this interpreter, which has the bot's requirements (eval7).
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    workdir = tmp_path / "match"
    workdir.mkdir()
    startme = tmp_path / "bot" / "startme.sh"
    assert startme.stat().st_mode & stat.S_IXOTH
    command = [str(startme), "127.0.0.1", "PORT"]
    golden = live_match(build, label, 300, 11, workdir, last_seat=command)
    hands = check_all(golden)
    assert sorted(hands) == list(range(300))


@pytest.mark.live
@needs_dealer
def test_the_acpc_profile_plays_the_example_player_over_the_acpc_wire(tmp_path: Path) -> None:
    """The ACPC server's example_player, its README naming no game, validated with
    ``--profile acpc``: an ACPC game is played over the ACPC wire (before, an MIT nlhe smoke
    match sent it MIT lines), with no connect limit, as the ACPC server's check."""
    from sdk.gamedef import ACPC_GAMES

    bot = example_player_bot(tmp_path, "holdem.limit.2p.reverse_blinds.game")
    # The game it is told to play is the one the acpc profile plays when none is named.
    (bot / "holdem.limit.2p.reverse_blinds.game").write_text(ACPC_GAMES["acpc-2pn"].to_text())
    readme_file = bot / "README"
    text = readme_file.read_text(encoding="utf-8")
    readme_file.write_text(text.replace("Variant: acpc-2pl\n", ""), encoding="utf-8")
    report = validate(bot, ValidateOptions(profile="acpc", hands=300))
    assert report.stats["variant"] == "acpc-2pn", report.to_json()
    assert "the acpc profile plays ACPC games" in report.stats["variant_reason"]
    assert "smoke_match" not in {check.name for check in report.checks}
    assert "no time limit" in report["connect"].message
    matches = report["acpc_matches"]
    assert matches.status == "warn" and "300 hands of acpc-2pn" in matches.message, matches
    assert "without a fault" in matches.message


def test_a_kit_acpc_bot_under_the_acpc_profile_plays_its_own_game(tmp_path: Path) -> None:
    """`pokerbots validate --profile acpc` on a bot from `pokerbots new --set
    variant=acpc-2pn`: its README's game, over the ACPC wire, with the ACPC's limits."""
    made = pokerbots(
        "new", "kit-acpc", "--no-input", "--set", "variant=acpc-2pn", *TEAM, cwd=tmp_path
    )
    assert made.returncode == 0, made.stderr
    bot = str(tmp_path / "kit-acpc")
    run = pokerbots("validate", bot, "--profile", "acpc", "--hands", "60", "--json", cwd=tmp_path)
    report = json.loads(run.stdout)
    stats = report["stats"]
    assert stats["variant"] == "acpc-2pn" and "Variant line" in stats["variant_reason"]
    checks = {check["name"]: check for check in report["checks"]}
    assert "smoke_match" not in checks
    assert checks["connect"]["status"] == "pass" and "no time limit" in checks["connect"]["message"]
    assert checks["acpc_matches"]["status"] == "warn", checks["acpc_matches"]
    assert "without a fault" in checks["acpc_matches"]["message"]
