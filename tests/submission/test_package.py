"""``pokerbots package``: a clean archive of a bot folder that then passes validation."""

from __future__ import annotations

import contextlib
import io
import json
import os
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from local_runner.cli import main
from local_runner.submission.new import create_bot
from local_runner.submission.package import PackageError, is_excluded, package_bot
from local_runner.validation import Status, ValidateOptions, validate
from tests.validation.test_validate import make_good_bot, snapshot

pytestmark = pytest.mark.slow  # the CLI and bot processes


STATIC = ValidateOptions(run_match=False)

JUNK = [
    "__pycache__/player.cpython-311.pyc",
    ".mypy_cache/3.11/x.json",
    ".pytest_cache/v/x",
    ".ruff_cache/x",
    ".venv/bin/python",
    "venv/lib/x.py",
    "myenv/pyvenv.cfg",
    "myenv/lib/x.py",
    ".git/HEAD",
    "bot.log",
    "logs/old.log",
    "runs/scrimmage-1/gamelog.txt",
    "build/pokerbot",
    "dist/bot.whl",
    "bot.egg-info/PKG-INFO",
    "strategy.pyc",
    "lib/__pycache__/x.pyc",
]
KEPT = ["data/table.bin", "lib/helpers.py", "logs/README.md"]


def junk_bot(tmp_path: Path) -> Path:
    bot = make_good_bot(tmp_path)
    for name in JUNK + KEPT:
        (bot / name).parent.mkdir(parents=True, exist_ok=True)
        (bot / name).write_text(name)
    return bot


def zip_names(archive: Path) -> set[str]:
    with zipfile.ZipFile(archive) as opened:
        return {info.filename for info in opened.infolist()}


def test_zip_leaves_out_junk_and_keeps_run_bits(tmp_path: Path) -> None:
    bot = junk_bot(tmp_path)
    archive = package_bot(bot)
    assert archive == tmp_path / "goodbot.zip" and archive.is_file()
    names = zip_names(archive)
    assert all(name == "goodbot/" or name.startswith("goodbot/") for name in names)
    for junk in JUNK:
        assert f"goodbot/{junk}" not in names, junk
    for top in ("__pycache__", ".git", ".venv", "venv", "myenv", "runs", "build", "dist"):
        assert f"goodbot/{top}/" not in names
    for kept in [
        *KEPT,
        "startme.sh",
        "commands.json",
        "README.txt",
        "player.py",
        "sdk/states.py",
        "sdk/VENDORED.json",
    ]:
        assert f"goodbot/{kept}" in names, kept
    with zipfile.ZipFile(archive) as opened:
        startme = opened.getinfo("goodbot/startme.sh")
        mode = startme.external_attr >> 16
        assert startme.create_system == 3 and stat.S_ISREG(mode) and stat.S_IMODE(mode) == 0o755
        assert stat.S_IMODE(opened.getinfo("goodbot/player.py").external_attr >> 16) == 0o644
        assert stat.S_ISDIR(opened.getinfo("goodbot/sdk/").external_attr >> 16)
    report = validate(archive, STATIC)
    assert report.ok, report.to_json()
    assert report["startme_executable"].status is Status.PASS


def test_tar_gz_output_keeps_modes(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    (tmp_path / "out").mkdir()
    archive = package_bot(bot, tmp_path / "out" / "bot.tar.gz")
    with tarfile.open(archive) as opened:
        startme = opened.getmember("goodbot/startme.sh")
        assert startme.mode == 0o755 and startme.uid == 0 and startme.uname == ""
        assert all(m.name.startswith("goodbot") for m in opened.getmembers())
    # MIT uploads are zip files: a tar of an MIT bot fails that check and nothing else.
    mit = validate(archive, STATIC)
    assert {check.name for check in mit.failures} == {"submission_format"}
    assert "not a .zip" in mit["submission_format"].message
    with pytest.raises(PackageError, match="zip uploads only"):
        package_bot(bot, tmp_path / "out" / "again.tgz", profile="mit")
    assert not (tmp_path / "out" / "again.tgz").exists()


def test_links_are_stored_as_files(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    outside = tmp_path / "shared.txt"
    outside.write_text("shared table")
    os.symlink(outside, bot / "table.txt")
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "m.bin").write_text("weights")
    os.symlink("../models", bot / "models")
    archive = package_bot(bot)
    with zipfile.ZipFile(archive) as opened:
        assert opened.read("goodbot/table.txt") == b"shared table"
        assert opened.read("goodbot/models/m.bin") == b"weights"
        assert not any(stat.S_ISLNK(info.external_attr >> 16) for info in opened.infolist())
    assert validate(archive, STATIC).ok


def test_a_development_sdk_link_becomes_a_copy(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    sdk_source = tmp_path / "kit-sdk"
    (bot / "sdk").rename(sdk_source)
    os.symlink(sdk_source, bot / "sdk")
    report = validate(bot, STATIC)
    assert {check.name for check in report.failures} == {"link_escape"}
    archive = package_bot(bot)
    packaged = validate(archive, STATIC)
    assert packaged.ok and packaged["vendored_sdk"].status is Status.PASS


def test_link_loops_and_broken_links_are_errors(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    os.symlink("..", bot / "loop")
    with pytest.raises(PackageError, match="loop"):
        package_bot(bot)
    (bot / "loop").unlink()
    os.symlink("missing.txt", bot / "dangling")
    with pytest.raises(PackageError, match="does not exist"):
        package_bot(bot)
    assert not list(tmp_path.glob("*.zip")) and not list(tmp_path.glob(".goodbot.zip*"))


def test_refuses_what_is_not_a_bot(tmp_path: Path) -> None:
    with pytest.raises(PackageError, match="not a folder"):
        package_bot(tmp_path / "missing")
    (tmp_path / "plain").mkdir()
    with pytest.raises(PackageError, match=r"neither commands\.json nor startme\.sh"):
        package_bot(tmp_path / "plain")
    bot = make_good_bot(tmp_path)
    with pytest.raises(PackageError, match=r"\.zip, \.jar"):
        package_bot(bot, tmp_path / "bot.rar")


def test_an_output_inside_the_bot_does_not_contain_itself(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    first = package_bot(bot, bot / "upload.zip")
    second = package_bot(bot, bot / "upload.zip")
    assert first == second == bot / "upload.zip"
    assert "goodbot/upload.zip" not in zip_names(second)
    assert not [p for p in bot.iterdir() if p.name.startswith(".upload.zip")]


def test_packaging_writes_only_the_archive(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    before = snapshot(tmp_path, tmp_path / "none")
    archive = package_bot(bot)
    after = snapshot(tmp_path, tmp_path / "none")
    assert set(after) - set(before) == {archive.name} and before.items() <= after.items()


def test_is_excluded(tmp_path: Path) -> None:
    (tmp_path / "env").mkdir()
    (tmp_path / "env" / "pyvenv.cfg").write_text("")
    (tmp_path / "src").mkdir()
    assert is_excluded(tmp_path / "env") and is_excluded(tmp_path / "x.log")
    assert not is_excluded(tmp_path / "src") and not is_excluded(tmp_path / "player.py")


def test_cli_package_then_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bot = junk_bot(tmp_path)
    assert main(["package", str(bot), "--hands", "6"]) == 0
    out = capsys.readouterr().out
    assert "Wrote" in out and "Valid" in out
    assert (
        main(["package", str(bot), "-o", str(tmp_path / "b.zip"), "--static-only", "--json"]) == 0
    )
    captured = capsys.readouterr()
    assert json.loads(captured.out)["ok"] is True and "Wrote" in captured.err
    assert json.loads(captured.out)["stats"]["profile"] == "mit"
    assert main(["package", str(bot), "-o", str(tmp_path / "b.tgz"), "--static-only"]) == 2
    assert "zip uploads only" in capsys.readouterr().err  # the folder is an MIT bot
    (bot / "README.txt").unlink()  # optional for MIT: a warning, a failure with --strict
    assert main(["package", str(bot), "--static-only"]) == 0
    assert main(["package", str(bot), "--static-only", "--strict"]) == 1
    assert main(["package", str(tmp_path / "missing")]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_a_new_bot_packages_and_validates(tmp_path: Path) -> None:
    team = {"team_name": "Packers", "leader_name": "Zoe Nandu", "members": ""}
    bot = create_bot(
        tmp_path / "fresh-bot", {**team, "leader_email": "zoe@packers.net", "variant": "auction"}
    )
    archive = package_bot(bot)
    report = validate(archive, ValidateOptions(hands=6))
    assert report.ok, report.to_json()
    assert all(check.status is Status.PASS for check in report.checks), report.to_json()
    assert report.stats["variant"] == "auction"


def test_package_says_where_the_profile_came_from(tmp_path: Path) -> None:
    """No --profile given: the archive is checked for the folder's profile, and the report
    says it came from the folder, not from a --profile that was never passed."""
    bot = create_bot(tmp_path / "said-bot", {"team_name": "Packers"})
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["package", str(bot), "--static-only", "--json"]) == 0
    stats = json.loads(out.getvalue())["stats"]
    assert stats["profile"] == "mit"
    assert stats["profile_reason"] == (
        f"the Profile line of README.txt, in the folder {bot} the archive was made from"
    )
    with contextlib.redirect_stdout(io.StringIO()) as given:
        assert main(["package", str(bot), "--static-only", "--json", "--profile", "mit"]) == 0
    assert json.loads(given.getvalue())["stats"]["profile_reason"] == "chosen with --profile"
