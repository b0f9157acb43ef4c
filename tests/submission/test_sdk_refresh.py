"""Keeping the bot author's work safe: ``pokerbots sdk refresh`` and ``pokerbots new --force``.

The commands run as a user runs them (a real ``pokerbots`` process, off a terminal); the
library functions behind them are checked for what they leave on disk.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import sdk
from local_runner.submission.new import NewBotError, create_bot, readme_answers, refresh_bot
from local_runner.submission.vendor import MANIFEST, check_vendored_sdk, plan_sdk_refresh
from sdk.games import VARIANTS
from tests.conftest import ROOT

pytestmark = pytest.mark.slow  # the CLI in subprocesses


def pokerbots(*args: str) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    return subprocess.run(
        [sys.executable, "-m", "local_runner.cli", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


@pytest.fixture
def bot(tmp_path: Path) -> Path:
    return create_bot(tmp_path / "bot", {"team_name": "The Folding Chairs", "variant": "auction"})


def as_if_an_older_kit_wrote(bot: Path, name: str, version: str = "0.0.1") -> None:
    """Change ``sdk/name`` and record the change in the manifest, as an older kit would have."""
    path = bot / "sdk" / name
    path.write_text(path.read_text(encoding="utf-8") + "# old\n", encoding="utf-8")
    manifest = json.loads((bot / "sdk" / MANIFEST).read_text(encoding="utf-8"))
    manifest["files"][name] = hashlib.sha256(path.read_bytes()).hexdigest()
    manifest["kit_version"] = version
    (bot / "sdk" / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


# -- pokerbots sdk refresh -------------------------------------------------------------


def test_a_current_sdk_is_left_alone(bot: Path) -> None:
    before = snapshot(bot)
    run = pokerbots("sdk", "refresh", str(bot))
    assert run.returncode == 0, run.stderr
    assert (
        run.stdout
        == f"{bot}/sdk/ already holds the kit's SDK {sdk.__version__}; nothing changed.\n"
    )
    assert snapshot(bot) == before


def test_an_older_sdk_is_updated_and_nothing_else_is_touched(bot: Path) -> None:
    as_if_an_older_kit_wrote(bot, "client.py")
    (bot / "player.py").write_text("# my strategy\n", encoding="utf-8")
    (bot / "sdk" / "NOTES.md").write_text("mine\n", encoding="utf-8")
    run = pokerbots("sdk", "refresh", str(bot))
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[:2] == [
        f"{bot}/sdk/ goes from kit 0.0.1 to {sdk.__version__}.",
        "Updated: client.py.",
    ]
    assert check_vendored_sdk(bot / "sdk").pristine
    assert (bot / "player.py").read_text(encoding="utf-8") == "# my strategy\n"
    assert (bot / "sdk" / "NOTES.md").read_text(encoding="utf-8") == "mine\n"


def test_an_edited_sdk_file_is_kept_unless_asked(bot: Path) -> None:
    edited = bot / "sdk" / "bot.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "# my fix\n", encoding="utf-8")
    as_if_an_older_kit_wrote(bot, "client.py")
    before = snapshot(bot)
    run = pokerbots("sdk", "refresh", str(bot))
    assert run.returncode == 1
    assert "sdk/bot.py" in run.stderr and "--overwrite-edited" in run.stderr
    assert "sdk/client.py" not in run.stderr  # written by the kit: not the author's
    assert run.stderr.endswith("Nothing was written.\n") and run.stderr.count("\n") == 1
    assert snapshot(bot) == before
    forced = pokerbots("sdk", "refresh", str(bot), "--overwrite-edited")
    assert forced.returncode == 0, forced.stderr
    assert "Updated: bot.py, client.py." in forced.stdout
    assert "Overwritten although edited (--overwrite-edited): bot.py." in forced.stdout
    assert check_vendored_sdk(bot / "sdk").pristine


def test_a_dry_run_writes_nothing(bot: Path) -> None:
    as_if_an_older_kit_wrote(bot, "rules.py")
    before = snapshot(bot)
    run = pokerbots("sdk", "refresh", str(bot), "--dry-run")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Dry run: nothing was written.\n")
    assert "Updated: rules.py." in run.stdout
    assert snapshot(bot) == before


def test_files_the_kit_dropped_are_removed_and_added_ones_refused(bot: Path) -> None:
    stale = bot / "sdk" / "legacy.py"
    stale.write_text("# from an older kit\n", encoding="utf-8")
    manifest = json.loads((bot / "sdk" / MANIFEST).read_text(encoding="utf-8"))
    manifest["files"]["legacy.py"] = hashlib.sha256(stale.read_bytes()).hexdigest()
    (bot / "sdk" / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    plan = plan_sdk_refresh(bot / "sdk")
    assert plan.removed == ("legacy.py",) and plan.edited == ()
    (bot / "sdk" / "helpers.py").write_text("# mine\n", encoding="utf-8")  # not in the manifest
    assert plan_sdk_refresh(bot / "sdk").edited == ("helpers.py",)
    run = pokerbots("sdk", "refresh", str(bot))
    assert run.returncode == 1 and "sdk/helpers.py" in run.stderr
    assert stale.is_file()
    (bot / "sdk" / "helpers.py").unlink()
    run = pokerbots("sdk", "refresh", str(bot))
    assert run.returncode == 0, run.stderr
    assert "Removed: legacy.py." in run.stdout and not stale.exists()


def test_without_a_manifest_only_files_equal_to_the_kits_count_as_untouched(bot: Path) -> None:
    (bot / "sdk" / MANIFEST).unlink()
    assert plan_sdk_refresh(bot / "sdk").edited == ()
    states = bot / "sdk" / "states.py"
    states.write_text("# who knows\n", encoding="utf-8")
    assert plan_sdk_refresh(bot / "sdk").edited == ("states.py",)


def test_links_and_folders_that_are_no_bot_are_refused(tmp_path: Path) -> None:
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "commands.json").write_text("{}", encoding="utf-8")
    (linked / "sdk").symlink_to(ROOT / "sdk")
    run = pokerbots("sdk", "refresh", str(linked))
    assert run.returncode == 1 and "is a link, not a folder" in run.stderr
    assert (linked / "sdk").is_symlink()
    run = pokerbots("sdk", "refresh", str(tmp_path))
    assert run.returncode == 2 and "neither commands.json nor startme.sh" in run.stderr
    run = pokerbots("sdk", "refresh", str(tmp_path / "missing"))
    assert run.returncode == 2 and "is not a folder" in run.stderr


# -- pokerbots new --force ---------------------------------------------------------------


def test_force_keeps_the_readme_answers_and_changes_nothing_on_a_fresh_bot(bot: Path) -> None:
    answers = readme_answers(bot)
    assert answers is not None and answers["team_name"] == "The Folding Chairs"
    before = snapshot(bot)
    run = pokerbots("new", str(bot), "--no-input", "--force")
    assert run.returncode == 0, run.stderr
    assert snapshot(bot) == before
    assert "Unchanged: .gitignore, README.txt, commands.json, player.py" in run.stdout


def test_force_updates_the_files_the_author_left_alone(bot: Path) -> None:
    (bot / "notes.txt").write_text("keep me\n", encoding="utf-8")
    run = pokerbots("new", str(bot), "--no-input", "--force", "--set", "variant=bounty")
    assert run.returncode == 0, run.stderr
    assert "Updated: README.txt, player.py." in run.stdout
    assert 'VARIANT = "bounty"' in (bot / "player.py").read_text(encoding="utf-8")
    readme = (bot / "README.txt").read_text(encoding="utf-8")
    assert "The Folding Chairs" in readme and "Variant: bounty" in readme
    assert (bot / "notes.txt").read_text(encoding="utf-8") == "keep me\n"


def test_force_refuses_to_overwrite_edited_files_and_lists_them(bot: Path) -> None:
    player = bot / "player.py"
    player.write_text(player.read_text(encoding="utf-8") + "# my strategy\n", encoding="utf-8")
    (bot / "tests" / "test_player.py").write_text("# my tests\n", encoding="utf-8")
    as_if_an_older_kit_wrote(bot, "client.py")
    before = snapshot(bot)
    run = pokerbots("new", str(bot), "--no-input", "--force", "--set", "variant=nlhe")
    assert run.returncode == 2
    assert "player.py, tests/test_player.py." in run.stderr
    assert "--overwrite-edited" in run.stderr and "Nothing was written." in run.stderr
    assert snapshot(bot) == before
    run = pokerbots("new", str(bot), "--no-input", "--force", "--overwrite-edited")
    assert run.returncode == 0, run.stderr
    assert (
        "Overwritten although edited (--overwrite-edited): player.py, tests/test_player.py."
        in run.stdout
    )
    assert "Updated: client.py." in run.stdout
    assert "# my strategy" not in player.read_text(encoding="utf-8")
    assert check_vendored_sdk(bot / "sdk").pristine


def test_an_edited_sdk_file_stops_force_too(bot: Path) -> None:
    edited = bot / "sdk" / "actions.py"
    edited.write_text(edited.read_text(encoding="utf-8") + "# mine\n", encoding="utf-8")
    with pytest.raises(NewBotError, match=r"sdk/actions\.py.*pokerbots sdk refresh"):
        refresh_bot(bot)
    assert edited.read_text(encoding="utf-8").endswith("# mine\n")


def test_a_hand_written_readme_counts_as_edited(bot: Path) -> None:
    readme = bot / "README.txt"
    readme.write_text(readme.read_text(encoding="utf-8") + "\nMy own notes.\n", encoding="utf-8")
    with pytest.raises(NewBotError, match=r"README\.txt"):
        refresh_bot(bot, {"variant": "swap"})
    assert readme.read_text(encoding="utf-8").endswith("My own notes.\n")


def test_force_asks_with_the_readme_answers_as_defaults(bot: Path) -> None:
    before = snapshot(bot)
    env = {key: value for key, value in os.environ.items() if key != "COLUMNS"}
    run = subprocess.run(
        [sys.executable, "-m", "local_runner.cli", "new", str(bot), "--force"],
        cwd=ROOT,
        env=env,
        input="\n" * 20,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "Team name [The Folding Chairs]: " in run.stdout
    assert f"Target variant ({'/'.join(VARIANTS)}) [auction]: " in run.stdout
    assert snapshot(bot) == before  # every default kept: nothing to change
