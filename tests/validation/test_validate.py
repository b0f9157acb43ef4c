"""``pokerbots validate``: a corpus of bad packages, each failing on the right named check.

Every package is generated here, in tmp_path, from the kit's skeleton bot.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from local_runner.cli import main
from local_runner.engine.faults import Fault, FaultKind
from local_runner.engine.records import MatchResult, PlayerResult
from local_runner.submission.archive import ArchiveLimits
from local_runner.submission.metadata import Metadata, Person, render_readme
from local_runner.submission.vendor import vendor_sdk
from local_runner.validation import (
    DYNAMIC_CHECKS,
    STATIC_CHECKS,
    Status,
    ValidateOptions,
    ValidateUsageError,
    ValidationReport,
    validate,
)
from local_runner.validation.acpc_matches import ACPC_CHECKS
from local_runner.validation.checks import CheckResult, format_bytes
from local_runner.validation.dynamic import SmokeMatch, check_memory, check_reply_times
from local_runner.validation.processes import check_cleanup, processes_inside
from sdk.rules import Rules

pytestmark = pytest.mark.slow  # validates real bot processes

ROOT = Path(__file__).resolve().parents[2]
#: A real-looking team: none of the template's placeholders, which every profile reports.
ZOE = Person("Zoe Nandu", "zoe@folding-chairs.org")
METADATA = Metadata(
    bot_name="goodbot",
    team_name="The Folding Chairs",
    affiliation="Example University",
    leader=ZOE,
    members=(ZOE, Person("Rui Costa", "rui@folding-chairs.org")),
    location="Cambridge, Massachusetts, USA",
    variant="nlhe",
    technique="Plays its made hand and sizes bets by strength.",
)

#: Metadata an ACPC entry may carry: no template placeholder, no example domain.
ACPC_METADATA = Metadata(
    bot_name="acpcbot",
    team_name="Hopper's Raisers",
    affiliation="Arlington Poker Lab",
    leader=Person("Grace Hopper", "grace@hopper-lab.edu"),
    members=(
        Person("Grace Hopper", "grace@hopper-lab.edu"),
        Person("Howard Aiken", "howard@hopper-lab.edu"),
    ),
    location="Arlington, Virginia, USA",
    variant="nlhe",
    technique="Counterfactual regret minimisation on an abstraction of the game.",
    references=(
        "Zinkevich et al. (2007), Regret minimization in games with incomplete information",
    ),
    profile="acpc",
)
STATIC = ValidateOptions(run_match=False)
ACPC_STATIC = ValidateOptions(run_match=False, profile="acpc")
FAST = ValidateOptions(hands=10)

# --------------------------------------------------------------------------- builders


def make_good_bot(parent: Path, name: str = "goodbot", vendored: bool = True) -> Path:
    """The skeleton, with a real sdk/ (vendored with its manifest) and a fresh README.txt."""
    bot = parent / name
    shutil.copytree(
        ROOT / "skeleton",
        bot,
        symlinks=False,
        ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"),
    )
    if vendored:
        shutil.rmtree(bot / "sdk")
        vendor_sdk(bot / "sdk")
    (bot / "README.txt").write_text(render_readme(METADATA), encoding="utf-8")
    return bot


def make_acpc_bot(parent: Path, name: str = "acpcbot") -> Path:
    """A good bot with the ACPC's README (no README.txt) naming a real-looking team, whose
    startme.sh has it speak the ACPC wire (the acpc profile plays only ACPC games)."""
    bot = make_good_bot(parent, name)
    (bot / "README.txt").unlink()
    (bot / "README").write_text(render_readme(ACPC_METADATA), encoding="utf-8")
    startme = bot / "startme.sh"
    startme.write_text(startme.read_text().replace('"$@"', '--protocol acpc "$@"'))
    return bot


def set_player(bot: Path, source: str) -> Path:
    (bot / "player.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return bot


def set_commands(bot: Path, build: list[str], run: list[str] | None = None) -> Path:
    commands = {"build": build, "run": run or ["python3", "player.py"]}
    (bot / "commands.json").write_text(json.dumps(commands), encoding="utf-8")
    return bot


def zip_directory(
    directory: Path, target: Path, extra: list[tuple[str, bytes]] | None = None
) -> Path:
    """Zip ``directory`` (as its own top-level folder) with Unix modes, plus ``extra`` members."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(directory.rglob("*")):
            if path.is_file():
                info = zipfile.ZipInfo(path.relative_to(directory.parent).as_posix())
                info.create_system = 3
                info.external_attr = (0o100000 | (path.stat().st_mode & 0o777)) << 16
                archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
        for name, data in extra or []:
            archive.writestr(name, data, zipfile.ZIP_DEFLATED)
    return target


def tar_directory(
    directory: Path, target: Path, extra: list[tarfile.TarInfo] | None = None
) -> Path:
    with tarfile.open(target, "w:gz") as archive:
        archive.add(directory, arcname=directory.name)
        for info in extra or []:
            archive.addfile(info, io.BytesIO(b"x" * info.size) if info.size else None)
    return target


def failed(report: ValidationReport) -> set[str]:
    return {check.name for check in report.failures}


def statuses(report: ValidationReport) -> dict[str, str]:
    return {check.name: check.status.value for check in report.checks}


BotSource = str

CALLER: BotSource = """
    from sdk import Bot, CallAction, CheckAction, parse_args, run_bot

    class Player(Bot):
        def get_action(self, game_state, round_state, active):
            return CheckAction() if CheckAction in round_state.legal_actions() else CallAction()

    run_bot(Player(), parse_args())
"""

# --------------------------------------------------------------------------- canary


def snapshot(root: Path, skip: Path) -> dict[str, tuple[int, int, int, bytes]]:
    """Every entry below ``root`` (except ``skip``) with its mode, size, mtime and content."""
    entries = {}
    for directory, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if Path(directory, d) != skip]
        for name in dirnames + filenames:
            path = Path(directory, name)
            info = path.lstat()
            data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
            entries[str(path.relative_to(root))] = (
                info.st_mode,
                info.st_size,
                info.st_mtime_ns,
                data,
            )
    return entries


@pytest.fixture
def private_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Make tempfile use tmp_path/tmp, and check it is left empty."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    yield temp
    assert list(temp.iterdir()) == []


# --------------------------------------------------------------------------- good packages


def test_good_bot_folder_passes_every_check(tmp_path: Path, private_tmp: Path) -> None:
    bot = make_good_bot(tmp_path)
    before = snapshot(tmp_path, private_tmp)
    report = validate(bot, FAST)
    assert snapshot(tmp_path, private_tmp) == before  # nothing written outside the temp dir
    assert report.ok, report.to_json()
    assert all(check.status is Status.PASS for check in report.checks), report.to_json()
    names = [check.name for check in report.checks]
    assert names == ["safety", "sizes", *STATIC_CHECKS, *DYNAMIC_CHECKS]
    assert report.stats["kind"] == "directory" and report.stats["compressed_bytes"] is None
    assert report.stats["matches"][0] == {
        "opponent": "builtin:random",
        "hands": 10,
        "bankroll": report.stats["matches"][0]["bankroll"],
        "faults": {},
    }
    assert report.stats["matches"][1]["hands"] == 5
    assert report.stats["decisions"] > 0 and report.stats["peak_memory_bytes"] > 0
    assert "per decision" in report["reply_times"].message
    assert report.verdict().startswith("Valid")


def test_good_zip_passes_and_reports_sizes(tmp_path: Path, private_tmp: Path) -> None:
    archive = zip_directory(make_good_bot(tmp_path), tmp_path / "goodbot.zip")
    before = snapshot(tmp_path, private_tmp)
    report = validate(archive, FAST)
    assert snapshot(tmp_path, private_tmp) == before
    assert report.ok, report.to_json()
    stats = report.stats
    assert stats["kind"] == "zip" and stats["compressed_bytes"] == archive.stat().st_size
    assert stats["uncompressed_bytes"] > stats["compressed_bytes"] and stats["file_count"] > 10
    assert "compressed" in report["sizes"].message


def test_json_shape(tmp_path: Path) -> None:
    report = validate(make_good_bot(tmp_path), STATIC)
    data = json.loads(report.to_json())
    assert set(data) == {"ok", "checks", "stats"} and data["ok"] is True
    for check in data["checks"]:
        assert set(check) == {"name", "status", "message", "hint"}
        assert check["status"] in {"pass", "warn", "fail", "skip"}
    assert {c["name"]: c["status"] for c in data["checks"]}["build"] == "skip"


def test_sdk_without_manifest_is_a_warning_and_strict_makes_it_fail(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path, vendored=False)  # the skeleton's sdk link, copied as files
    report = validate(bot, STATIC)
    assert report.ok and report["vendored_sdk"].status is Status.WARN
    assert "VENDORED.json" in report["vendored_sdk"].message and report["vendored_sdk"].hint
    strict = validate(bot, ValidateOptions(run_match=False, strict=True))
    assert not strict.ok and failed(strict) == {"vendored_sdk"}


# --------------------------------------------------------------------------- unsafe archives


def test_zip_slip_is_refused_without_writing(tmp_path: Path, private_tmp: Path) -> None:
    bot = make_good_bot(tmp_path / "src")
    archive = zip_directory(bot, tmp_path / "slip.zip", [("../escaped.txt", b"gotcha")])
    report = validate(archive, FAST)
    assert failed(report) == {"parent_path"}
    assert not list(tmp_path.rglob("escaped.txt"))
    assert not (tmp_path.parent / "escaped.txt").exists()
    assert report["bot_root"].status is Status.SKIP and report["build"].status is Status.SKIP
    assert report["parent_path"].hint


def test_absolute_path_is_refused(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path / "src")
    evil = tarfile.TarInfo(str(tmp_path / "absolute.txt"))
    evil.size = 3
    report = validate(tar_directory(bot, tmp_path / "abs.tar.gz", [evil]), FAST)
    assert failed(report) == {"absolute_path"}
    assert not (tmp_path / "absolute.txt").exists()


def test_symlink_escaping_an_archive_is_refused(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path / "src")
    link = tarfile.TarInfo("goodbot/data")
    link.type, link.linkname = tarfile.SYMTYPE, "../../../etc"
    report = validate(tar_directory(bot, tmp_path / "link.tgz", [link]), FAST)
    assert failed(report) == {"link_escape"}


def test_symlink_escaping_a_folder_is_refused(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    (tmp_path / "outside").mkdir()
    os.symlink(tmp_path / "outside", bot / "data")
    report = validate(bot, FAST)
    assert failed(report) == {"link_escape"}
    assert "pokerbots package" in report["link_escape"].hint


def test_zip_bomb_is_refused(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path / "src")
    archive = zip_directory(bot, tmp_path / "bomb.zip", [("goodbot/pad.bin", bytes(5 * 10**6))])
    report = validate(archive, FAST)
    assert failed(report) == {"compression_ratio"}
    assert "zip bomb" in report["compression_ratio"].message


def test_too_many_files(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    for index in range(30):
        (bot / f"table{index}.txt").write_text("x")
    report = validate(bot, ValidateOptions(limits=ArchiveLimits(max_files=25)))
    assert failed(report) == {"too_many_files"}


def test_archive_over_the_compressed_limit(tmp_path: Path) -> None:
    archive = zip_directory(make_good_bot(tmp_path / "src"), tmp_path / "big.zip")
    report = validate(archive, ValidateOptions(limits=ArchiveLimits(max_compressed=1000)))
    assert failed(report) == {"too_large_compressed"}


def test_a_symlink_inside_a_folder_is_kept_and_absolute_ones_point_into_the_copy(
    tmp_path: Path, private_tmp: Path
) -> None:
    bot = make_good_bot(tmp_path)
    (bot / "data").mkdir()
    (bot / "data" / "table.txt").write_text("1 2 3")
    os.symlink("data/table.txt", bot / "relative.txt")
    os.symlink(bot / "data" / "table.txt", bot / "absolute.txt")
    before = snapshot(tmp_path, private_tmp)
    report = validate(bot, STATIC)
    assert report.ok, report.to_json()
    assert snapshot(tmp_path, private_tmp) == before


# --------------------------------------------------------------------------- static checks


def startme_bot(
    tmp_path: Path, content: bytes, mode: int = 0o755, keep_commands: bool = True
) -> Path:
    bot = make_good_bot(tmp_path)
    (bot / "startme.sh").write_bytes(content)
    (bot / "startme.sh").chmod(mode)
    if not keep_commands:
        (bot / "commands.json").unlink()
    return bot


GOOD_STARTME = b'#!/bin/sh\ncd "$(dirname "$0")" && exec python3 player.py "$@"\n'


def acpc_startme_bot(tmp_path: Path, content: bytes, mode: int = 0o755) -> Path:
    bot = make_acpc_bot(tmp_path)
    (bot / "startme.sh").write_bytes(content)
    (bot / "startme.sh").chmod(mode)
    return bot


@pytest.mark.parametrize(
    "content, mode, check, hint",
    [
        (GOOD_STARTME.replace(b"\n", b"\r\n"), 0o755, "startme_line_endings", "dos2unix"),
        (GOOD_STARTME, 0o644, "startme_executable", "chmod 755"),
        (GOOD_STARTME.split(b"\n", 1)[1], 0o755, "startme_shebang", "#!/bin/sh"),
    ],
)
def test_a_broken_startme_fails_for_acpc_and_warns_beside_commands_json_for_mit(
    tmp_path: Path, content: bytes, mode: int, check: str, hint: str
) -> None:
    acpc = validate(acpc_startme_bot(tmp_path / "acpc", content, mode), STATIC)
    assert acpc.stats["profile"] == "acpc" and failed(acpc) == {check}
    assert hint in acpc[check].hint
    mit = validate(startme_bot(tmp_path / "mit", content, mode), STATIC)
    assert mit.stats["profile"] == "mit" and mit.ok, mit.to_json()
    assert mit[check].status is Status.WARN and "MIT server does not run" in mit[check].message


def test_startme_below_0755_fails_only_for_acpc(tmp_path: Path) -> None:
    acpc = validate(acpc_startme_bot(tmp_path / "acpc", GOOD_STARTME, mode=0o700), STATIC)
    assert failed(acpc) == {"startme_executable"} and "0755" in acpc["startme_executable"].message
    mit = validate(startme_bot(tmp_path / "mit", GOOD_STARTME, mode=0o700), STATIC)
    assert mit.ok and mit["startme_executable"].status is Status.PASS


def test_a_startme_only_bot_with_a_broken_startme_is_not_run(tmp_path: Path) -> None:
    bot = acpc_startme_bot(tmp_path, GOOD_STARTME.replace(b"\n", b"\r\n"))
    (bot / "commands.json").unlink()
    report = validate(bot, FAST)
    assert report.stats["profile"] == "acpc" and failed(report) == {"startme_line_endings"}
    assert report["commands_json"].status is Status.SKIP  # the ACPC server runs startme.sh
    for name in ACPC_CHECKS:  # the acpc profile plays the ACPC server's matches
        assert report[name].status is Status.SKIP
        assert "startme_line_endings" in report[name].message


ACPC_STARTME = GOOD_STARTME.replace(b'"$@"', b'--protocol acpc "$@"')


def test_a_startme_only_bot_plays_an_acpc_game_over_the_acpc_wire(tmp_path: Path) -> None:
    bot = acpc_startme_bot(tmp_path, ACPC_STARTME)
    (bot / "commands.json").unlink()
    report = validate(bot, FAST)
    # Nothing names its game, so the acpc profile plays the heads-up no-limit ACPC game.
    assert report.stats["variant"] == "acpc-2pn", report.to_json()
    assert "the acpc profile plays ACPC games" in report.stats["variant_reason"]
    assert "smoke_match" not in {check.name for check in report.checks}
    assert report["connect"].status is Status.PASS
    assert "no time limit" in report["connect"].message  # the ACPC server's check sets none
    # Fewer hands than the server's 12,000 is a warning; no fault is what this proves.
    matches = report["acpc_matches"]
    assert matches.status is Status.WARN and "without a fault" in matches.message, matches
    # The same bot on the MIT wire is not played an MIT match: the ACPC dealer's lines
    # reach it, and the hint says how to make it speak the ACPC wire.
    (bot / "startme.sh").write_bytes(GOOD_STARTME)
    mit_wired = validate(bot, FAST)
    assert mit_wired["acpc_matches"].status is Status.FAIL
    assert "--protocol acpc" in mit_wired["acpc_matches"].hint
    mit = validate(bot, ValidateOptions(run_match=False, profile="mit"))
    assert failed(mit) == {"commands_json"}  # the MIT server finds a bot only by it
    assert "only by it" in mit["commands_json"].message


def test_paths_into_the_authors_machine(tmp_path: Path) -> None:
    bot = set_commands(make_good_bot(tmp_path), [], ["/home/ada/venv/bin/python", "player.py"])
    (bot / "startme.sh").write_bytes(
        b"#!/bin/sh\n# /home/ada is fine in a comment\ncd /Users/ada/bot && python3 player.py\n"
    )
    report = validate(bot, STATIC)
    assert failed(report) == {"machine_paths"}
    assert "startme.sh:3" in report["machine_paths"].message
    assert "commands.json:1" in report["machine_paths"].message


@pytest.mark.parametrize(
    "old, new, expected",
    [
        ("Location: Arlington, Virginia, USA\n", "", "Location"),
        ("Affiliation: Arlington Poker Lab", "Affiliation:", "Affiliation"),
        ("howard@hopper-lab.edu", "howard-at-hopper-lab", "e-mail"),
        ("Team leader: Grace Hopper <grace@hopper-lab.edu>", "Team leader: Grace Hopper", "e-mail"),
        (
            "  Counterfactual regret minimisation on an abstraction of the game.\n",
            "",
            "Technique summary",
        ),
    ],
)
def test_acpc_metadata_must_be_complete_and_mit_only_warns(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    bot = make_acpc_bot(tmp_path)
    text = (bot / "README").read_text()
    assert old in text
    (bot / "README").write_text(text.replace(old, new))
    report = validate(bot, STATIC)
    assert failed(report) == {"readme"} and expected in report["readme"].message
    assert report["variant"].status is Status.SKIP
    mit = validate(bot, ValidateOptions(run_match=False, profile="mit"))
    assert mit.ok and mit["readme"].status is Status.WARN and expected in mit["readme"].message


def test_no_readme(tmp_path: Path) -> None:
    bot = make_acpc_bot(tmp_path)
    (bot / "README").unlink()
    report = validate(bot, ACPC_STATIC)
    assert failed(report) == {"readme"} and "named README" in report["readme"].message
    mit = validate(bot, STATIC)  # commands.json and no metadata: an MIT bot
    assert mit.stats["profile"] == "mit" and mit.ok
    assert mit["readme"].status is Status.WARN and "README.txt" in mit["readme"].message


@pytest.mark.parametrize(
    "content, expected",
    [
        ('{"build": [], "run": ["python3", "player.py"]', "not valid JSON"),
        ('{"build": "make", "run": ["python3", "player.py"]}', "list of strings"),
        ('{"build": [], "run": ["python3", 3]}', "not a string"),
        ('{"run": ["python3", "player.py"]}', '"build"'),
        ('["python3", "player.py"]', "JSON object"),
    ],
)
def test_malformed_commands_json(tmp_path: Path, content: str, expected: str) -> None:
    bot = make_good_bot(tmp_path)
    (bot / "commands.json").write_text(content)
    report = validate(bot, FAST)
    assert failed(report) == {"commands_json"}
    assert expected in report["commands_json"].message
    assert str(tmp_path) not in report["commands_json"].message  # no private paths shown
    for name in DYNAMIC_CHECKS:
        assert report[name].status is Status.SKIP and "commands_json" in report[name].message


def test_syntax_error_is_reported_with_file_and_line(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    (bot / "strategy.py").write_text("x = 1\n\ndef broken(:\n    pass\n")
    report = validate(bot, STATIC)
    assert failed(report) == {"python_sources"}
    assert report["python_sources"].message.startswith("goodbot/strategy.py:3:")
    assert not list(bot.rglob("*.pyc"))  # compiling wrote nothing


def test_more_than_one_bot_root(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    (bot / "old").mkdir()
    (bot / "old" / "commands.json").write_text('{"build": [], "run": ["python3", "x.py"]}')
    report = validate(bot, FAST)
    assert failed(report) == {"bot_root"}
    assert "goodbot/" in report["bot_root"].message and "goodbot/old/" in report["bot_root"].message
    assert report["build"].status is Status.SKIP


def test_no_bot_root(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "player.py").write_text("print('hi')\n")
    report = validate(tmp_path / "empty", FAST)
    assert failed(report) == {"bot_root"}
    assert report["readme"].status is Status.SKIP


def test_modified_vendored_sdk_is_a_warning_naming_the_files(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    with open(bot / "sdk" / "states.py", "a") as file:
        file.write("\n# my tweak\n")
    (bot / "sdk" / "extra.py").write_text("")
    report = validate(bot, STATIC)
    assert report.ok and report["vendored_sdk"].status is Status.WARN
    assert "states.py" in report["vendored_sdk"].message
    assert "extra.py (added)" in report["vendored_sdk"].message


def test_a_bot_that_imports_sdk_without_vendoring_it(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    shutil.rmtree(bot / "sdk")
    report = validate(bot, STATIC)
    assert report["vendored_sdk"].status is Status.WARN
    assert "imports sdk" in report["vendored_sdk"].message


def test_variant_mismatch_is_a_warning(tmp_path: Path) -> None:
    report = validate(make_good_bot(tmp_path), ValidateOptions(run_match=False, variant="bounty"))
    assert report.ok and report["variant"].status is Status.WARN
    assert report.stats["variant"] == "bounty"


def test_oversized_files_are_named(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    # Larger than any file of the vendored SDK, so it heads the list of the largest files.
    (bot / "model.bin").write_bytes(os.urandom(64_000))
    report = validate(bot, ValidateOptions(run_match=False, max_file_bytes=4000))
    assert report["large_files"].status is Status.WARN
    assert "goodbot/model.bin (64 kB)" in report["large_files"].message


# --------------------------------------------------------------------------- dynamic checks


def test_a_build_that_exits_1(tmp_path: Path) -> None:
    bot = set_commands(make_good_bot(tmp_path), ["sh", "-c", "echo 'missing header foo.h'; exit 1"])
    report = validate(bot, FAST)
    assert failed(report) == {"build"}
    assert "status 1" in report["build"].message
    assert "missing header foo.h" in report["build"].hint
    assert statuses(report)["connect"] == "skip" and statuses(report)["cleanup"] == "pass"


def test_a_build_that_hangs(tmp_path: Path) -> None:
    bot = set_commands(make_good_bot(tmp_path), ["sleep", "30"])
    began = time.monotonic()
    report = validate(bot, ValidateOptions(hands=10, build_timeout=0.5))
    # The build sleeps 30 s; 15 s proves it was killed, not waited for.
    assert time.monotonic() - began < 15
    assert failed(report) == {"build"} and "timed out" in report["build"].message


def test_a_build_that_succeeds(tmp_path: Path) -> None:
    bot = set_commands(make_good_bot(tmp_path), ["sh", "-c", "echo built > built.txt"])
    report = validate(bot, FAST)
    assert report.ok and "exit status 0" in report["build"].message


def test_a_bot_that_never_connects(tmp_path: Path) -> None:
    bot = set_player(make_good_bot(tmp_path), "import time\ntime.sleep(300)\n")
    began = time.monotonic()
    report = validate(bot, ValidateOptions(hands=10, connect_timeout=0.5))
    assert failed(report) == {"connect"}
    # Ended for not connecting: not reported as lingering (but given the grace period).  The
    # bot sleeps 300 s; 60 s proves it was stopped, not waited for.
    assert time.monotonic() - began < 60
    assert "did not connect within 0.5 s" in report["connect"].message
    assert report["smoke_match"].status is Status.SKIP and report["cleanup"].status is Status.PASS


def test_a_bot_that_crashes_on_start_shows_its_error(tmp_path: Path) -> None:
    bot = set_player(make_good_bot(tmp_path), "import numpy_that_does_not_exist\n")
    report = validate(bot, FAST)
    assert failed(report) == {"connect"}
    assert "exited before connecting" in report["connect"].message
    assert "ModuleNotFoundError" in report["connect"].hint


def test_a_bot_that_plays_illegally(tmp_path: Path) -> None:
    bot = set_player(
        make_good_bot(tmp_path),
        """
        from sdk import Bot, RaiseAction, parse_args, run_bot

        class Player(Bot):
            def get_action(self, game_state, round_state, active):
                return RaiseAction(10**6)

        run_bot(Player(), parse_args())
    """,
    )
    report = validate(bot, FAST)
    assert failed(report) == {"smoke_match"}
    assert "illegal" in report["smoke_match"].message and "hand 1" in report["smoke_match"].message


def test_a_bot_that_times_out(tmp_path: Path) -> None:
    bot = set_player(
        make_good_bot(tmp_path),
        """
        import time
        from sdk import Bot, CallAction, CheckAction, parse_args, run_bot

        class Player(Bot):
            def get_action(self, game_state, round_state, active):
                if game_state.round_num == 2:
                    time.sleep(0.6)
                return CheckAction() if CheckAction in round_state.legal_actions() else CallAction()

        run_bot(Player(), parse_args())
    """,
    )
    report = validate(bot, ValidateOptions(hands=4, reply_timeout=0.3))
    assert "reply_times" in failed(report) and "smoke_match" in failed(report)
    assert "0.3 s or more" in report["reply_times"].message
    assert "timeout" in report["smoke_match"].message


def _sleepers(marker: str) -> list[int]:
    pids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cmdline", "rb") as file:
                    if marker.encode() in file.read():
                        pids.append(int(name))
            except OSError:
                pass
    return pids


def test_a_detached_child_left_behind_fails_cleanup_and_is_ended(tmp_path: Path) -> None:
    marker = f"1000.{os.getpid()}{time.monotonic_ns() % 10**6}"
    bot = set_player(
        make_good_bot(tmp_path),
        f"""
        import os, subprocess
        from sdk import Bot, CallAction, CheckAction, parse_args, run_bot

        subprocess.Popen(["sleep", "{marker}"], start_new_session=True)  # setsid
        if os.fork() == 0:  # a double fork into a new session
            os.setsid()
            if os.fork() == 0:
                os.execvp("sleep", ["sleep", "{marker}"])
            os._exit(0)

        class Player(Bot):
            def get_action(self, game_state, round_state, active):
                return CheckAction() if CheckAction in round_state.legal_actions() else CallAction()

        run_bot(Player(), parse_args())
    """,
    )
    try:
        # The grace is short here; the CLI's is 10 s (test_the_cli_gives_a_bot_10_s_to_exit).
        report = validate(bot, ValidateOptions(hands=10, linger_grace=0.5))
        assert failed(report) == {"cleanup"}, report.to_json()
        message = report["cleanup"].message
        assert "still running 0.5 s after the match" in message and f"sleep {marker}" in message
        assert report["smoke_match"].status is Status.PASS  # it played legally
        assert _sleepers(marker) == []  # the runner ended them
    finally:
        for pid in _sleepers(marker):
            os.kill(pid, signal.SIGKILL)


def test_the_leftover_detector_finds_a_real_process(tmp_path: Path) -> None:
    directory = tmp_path / "copy"
    directory.mkdir()
    sleeper = subprocess.Popen(["sleep", "1000"], cwd=directory, start_new_session=True)
    try:
        assert processes_inside(directory) == [sleeper.pid]
        assert processes_inside(tmp_path / "elsewhere") == []
        check = check_cleanup(directory)  # names the survivor, then kills it
        assert check.status is Status.FAIL and str(sleeper.pid) in check.message
        assert "sleep 1000" in check.message and check.hint
        assert sleeper.wait(timeout=5) == -signal.SIGKILL
    finally:
        sleeper.kill()
        sleeper.wait()
    assert processes_inside(directory) == []
    assert check_cleanup(directory).status is Status.PASS


def smoke(
    reply_times: list[float],
    time_used: float,
    hands: int = 100,
    peak: int | None = None,
    faults: dict[FaultKind, int] | None = None,
) -> SmokeMatch:
    player = PlayerResult(
        "submission",
        time_used=time_used,
        reply_times=reply_times,
        peak_memory_bytes=peak,
        fault_counts=faults or {},
        first_faults=[Fault(kind, 3, "detail") for kind in faults or {}],
    )
    result = MatchResult(Rules(), 1, hands, (player, PlayerResult("random")))
    return SmokeMatch("builtin:random", result, Path("/nonexistent.log"))


def test_reply_times_are_judged_by_what_happened() -> None:
    rules, options = Rules(), ValidateOptions()  # 30 s for 1000 hands
    fast = check_reply_times([smoke([0.001] * 300, 0.3)], rules, options)
    assert fast.status is Status.PASS and "median 1.0 ms" in fast.message.lower()
    assert "projected 3.00 ± 0.00 s of the 30 s clock" in fast.message
    assert "at most 1.0% of its clock used in one of its matches" in fast.message
    slow = check_reply_times([smoke([0.01] * 300, 2.0)], rules, options)  # 20 s per 1000 hands
    assert slow.status is Status.WARN and slow.hint
    # Projected past the clock, but the bot did not run out: a warning with its uncertainty.
    budgeting = check_reply_times([smoke([0.02, 0.04] * 150, 3.05)], rules, options)
    assert budgeting.status is Status.WARN and "did not run out of clock" in budgeting.message
    assert "projected 30.50 ± 1.15 s of the 30 s clock" in budgeting.message
    assert "--rounds 1000" in budgeting.hint
    ran_out = check_reply_times(
        [smoke([0.001] * 300, 30.0, faults={FaultKind.TIMEOUT: 1})], rules, options
    )
    assert ran_out.status is Status.FAIL and "ran out of clock" in ran_out.message
    one_long = check_reply_times([smoke([0.001] * 299 + [10.0], 10.3)], rules, options)
    assert one_long.status is Status.FAIL and "10 s or more" in one_long.message
    assert check_reply_times([smoke([], 0.0)], rules, options).status is Status.SKIP


def test_memory_limit() -> None:
    limit = 2**30
    assert check_memory([smoke([0.1], 0.1, peak=100 * 2**20)], limit).status is Status.PASS
    over = check_memory([smoke([0.1], 0.1, peak=2 * 2**30)], limit)
    assert over.status is Status.FAIL and "2 GiB" in over.message and "1 GiB" in over.message
    assert check_memory([smoke([0.1], 0.1)], limit).status is Status.SKIP


# --------------------------------------------------------------------------- report and CLI


def test_strict_turns_warnings_into_failures() -> None:
    checks = [CheckResult.passed("a", "fine"), CheckResult.warned("b", "hmm", "do x")]
    assert ValidationReport.create(checks, {}).ok
    strict = ValidationReport.create(checks, {}, strict=True)
    assert not strict.ok and strict["b"].status is Status.FAIL
    assert strict.verdict() == "Not valid: 1 check(s) failed (b)."
    with pytest.raises(KeyError):
        strict["c"]


def test_usage_errors(tmp_path: Path) -> None:
    with pytest.raises(ValidateUsageError, match="does not exist"):
        validate(tmp_path / "missing")
    (tmp_path / "bot.rar").write_bytes(b"Rar!")
    with pytest.raises(ValidateUsageError, match="neither a folder nor"):
        validate(tmp_path / "bot.rar")
    with pytest.raises(ValueError, match="variant"):
        ValidateOptions(variant="omaha")


def test_format_bytes() -> None:
    assert [format_bytes(n) for n in (0, 999, 1500, 50 * 10**6)] == [
        "0 B",
        "999 B",
        "1.5 kB",
        "50 MB",
    ]
    assert format_bytes(4 * 2**30, binary=True) == "4 GiB"


def test_cli_exit_statuses_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "300")  # long temporary paths stay on one line
    bot = make_good_bot(tmp_path)
    assert main(["validate", str(bot), "--static-only", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is True and data["stats"]["kind"] == "directory"
    assert data["stats"]["profile"] == "mit"
    (bot / "startme.sh").chmod(0o644)
    assert main(["validate", str(bot), "--static-only", "--profile", "acpc"]) == 1
    out = capsys.readouterr().out
    assert "startme_executable" in out and "Not valid" in out and "chmod 755" in out
    assert "profile acpc: chosen with --profile" in out
    assert main(["validate", str(tmp_path / "missing")]) == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        main(["validate", str(bot), "--hands", "0"])
    assert exit_info.value.code == 2


def test_cli_strict_and_a_full_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bot = make_good_bot(tmp_path, vendored=False)  # warns: no manifest
    assert main(["validate", str(bot), "--hands", "6", "--seed", "3"]) == 0
    assert "Valid" in capsys.readouterr().out
    assert main(["validate", str(bot), "--static-only", "--strict", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] is False
    assert {c["name"]: c["status"] for c in data["checks"]}["vendored_sdk"] == "fail"


def test_the_kit_cli_runs_as_a_program(tmp_path: Path) -> None:
    bot = make_good_bot(tmp_path)
    completed = subprocess.run(
        [sys.executable, "-m", "local_runner.cli", "validate", str(bot), "--static-only", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["ok"] is True


def test_the_memory_limit_holds_a_greedy_bot(tmp_path: Path) -> None:
    greedy = "hoard = b'x' * (400 * 2**20)\n" + textwrap.dedent(CALLER)
    bot = set_player(make_good_bot(tmp_path), greedy)
    report = validate(bot, ValidateOptions(hands=4, memory_limit=300 * 2**20))
    assert failed(report) == {"connect"}, report.to_json()
    assert "MemoryError" in report["connect"].hint
    assert report["memory"].status is Status.SKIP


def test_peak_memory_is_measured(tmp_path: Path) -> None:
    heavy = "hoard = b'x' * (80 * 2**20)\n" + textwrap.dedent(CALLER)
    bot = set_player(make_good_bot(tmp_path), heavy)
    report = validate(bot, ValidateOptions(hands=4))
    assert report.ok, report.to_json()
    assert report.stats["peak_memory_bytes"] >= 80 * 2**20
    assert "Peak memory" in report["memory"].message


def test_exceptions_the_sdk_covered_for_are_bot_error_faults(tmp_path: Path) -> None:
    bot = set_player(
        make_good_bot(tmp_path),
        """
        from sdk import Bot, parse_args, run_bot

        class Player(Bot):
            def get_action(self, game_state, round_state, active):
                return {}["oops"]

        run_bot(Player(), parse_args())
    """,
    )
    report = validate(bot, FAST)
    assert not report.ok and report["smoke_match"].status is Status.FAIL
    message = report["smoke_match"].message
    assert "bot_error" in message and "KeyError: 'oops'" in message
