"""Tests for local_runner.submission.archive: every hostile archive is built here, in tmp_path."""

from __future__ import annotations

import io
import os
import stat
import struct
import tarfile
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from local_runner.submission import archive as archive_module
from local_runner.submission.archive import (
    RATIO_MIN_BYTES,
    ArchiveLimits,
    ArchiveReport,
    UnsafeArchiveError,
    archive_kind,
    extract_archive,
    inspect_archive,
    inspect_directory,
)

MB = 10**6
SMALL = ArchiveLimits(max_files=3, max_uncompressed=100, max_compressed=10**6)

# --------------------------------------------------------------------------- builders

ZipEntry = tuple["str | zipfile.ZipInfo", bytes]


def make_zip(path: Path, entries: list[ZipEntry], method: int = zipfile.ZIP_DEFLATED) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=method) as zf, warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "Duplicate name" is what we want
        for name, data in entries:
            zf.writestr(name, data)
    return path


def zip_info(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.create_system = 3  # Unix, so external_attr carries a mode
    info.external_attr = mode << 16
    return info


def tar_entry(
    name: str,
    data: bytes = b"",
    *,
    kind: bytes = tarfile.REGTYPE,
    linkname: str = "",
    mode: int = 0o644,
) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.mode = kind, linkname, mode
    info.size = len(data) if kind == tarfile.REGTYPE else 0
    return info, data


def make_tar(path: Path, entries: list[tuple[tarfile.TarInfo, bytes]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    gz = path.name.endswith(("gz", ".tgz"))
    with tarfile.open(path, "w:gz") if gz else tarfile.open(path, "w") as tf:
        for info, data in entries:
            tf.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return path


def patch_zip(path: Path, *, usize: int | None = None, flags: int | None = None) -> Path:
    """Rewrite the first member's headers: uncompressed size and/or general-purpose flags."""
    raw = bytearray(path.read_bytes())
    local, central = raw.index(b"PK\x03\x04"), raw.index(b"PK\x01\x02")
    if usize is not None:
        raw[local + 22 : local + 26] = struct.pack("<I", usize)
        raw[central + 24 : central + 28] = struct.pack("<I", usize)
    if flags is not None:
        raw[central + 8 : central + 10] = struct.pack("<H", flags)
    path.write_bytes(bytes(raw))
    return path


# Each builder makes one hostile archive under root/"archives" and returns it with
# the limits to use and the check that must refuse it.  ``canary`` is a file that
# a successful attack would overwrite; the destination is root/"dest".
Case = tuple[Path, ArchiveLimits, str]
DEFAULT = ArchiveLimits()


def _zip(root: Path, name: str, entries: list[ZipEntry]) -> Path:
    return make_zip(root / "archives" / name, entries)


def _tgz(root: Path, name: str, entries: list[tuple[tarfile.TarInfo, bytes]]) -> Path:
    return make_tar(root / "archives" / name, entries)


def canary(root: Path) -> Path:
    return root / "canary.txt"


BAD: dict[str, Callable[[Path], Case]] = {
    "zip_slip": lambda r: (_zip(r, "a.zip", [("../evil.txt", b"pwned")]), DEFAULT, "parent_path"),
    "zip_slip_nested": lambda r: (
        _zip(r, "a.zip", [("bot/../../canary.txt", b"pwned")]),
        DEFAULT,
        "parent_path",
    ),
    "zip_slip_backslash": lambda r: (
        _zip(r, "a.zip", [("..\\canary.txt", b"pwned")]),
        DEFAULT,
        "parent_path",
    ),
    "zip_absolute": lambda r: (
        _zip(r, "a.zip", [(str(canary(r)), b"pwned")]),
        DEFAULT,
        "absolute_path",
    ),
    "zip_windows_drive": lambda r: (
        _zip(r, "a.zip", [("C:\\evil.txt", b"x")]),
        DEFAULT,
        "absolute_path",
    ),
    "zip_leading_backslash": lambda r: (
        _zip(r, "a.zip", [("\\evil.txt", b"x")]),
        DEFAULT,
        "absolute_path",
    ),
    "tar_absolute": lambda r: (
        _tgz(r, "a.tgz", [tar_entry(str(canary(r)), b"pwned")]),
        DEFAULT,
        "absolute_path",
    ),
    "tar_slip": lambda r: (
        _tgz(r, "a.tar.gz", [tar_entry("./../evil.txt", b"pwned")]),
        DEFAULT,
        "parent_path",
    ),
    "tar_symlink_etc_passwd": lambda r: (
        _tgz(r, "a.tgz", [tar_entry("link", kind=tarfile.SYMTYPE, linkname="/etc/passwd")]),
        DEFAULT,
        "link_escape",
    ),
    "tar_symlink_parent": lambda r: (
        _tgz(r, "a.tgz", [tar_entry("bot/link", kind=tarfile.SYMTYPE, linkname="../../x")]),
        DEFAULT,
        "link_escape",
    ),
    "tar_symlink_then_write": lambda r: (
        _tgz(
            r,
            "a.tgz",
            [
                tar_entry("up", kind=tarfile.SYMTYPE, linkname=".."),
                tar_entry("up/canary.txt", b"pwned"),
            ],
        ),
        DEFAULT,
        "link_escape",
    ),
    "tar_write_beneath_inside_symlink": lambda r: (
        _tgz(
            r,
            "a.tgz",
            [
                tar_entry("sub", kind=tarfile.DIRTYPE, mode=0o755),
                tar_entry("alias", kind=tarfile.SYMTYPE, linkname="sub"),
                tar_entry("alias/x.txt", b"x"),
            ],
        ),
        DEFAULT,
        "link_escape",
    ),
    "tar_hardlink_absolute": lambda r: (
        _tgz(r, "a.tgz", [tar_entry("hard", kind=tarfile.LNKTYPE, linkname=str(canary(r)))]),
        DEFAULT,
        "link_escape",
    ),
    "tar_hardlink_parent": lambda r: (
        _tgz(r, "a.tgz", [tar_entry("hard", kind=tarfile.LNKTYPE, linkname="../canary.txt")]),
        DEFAULT,
        "link_escape",
    ),
    "tar_hardlink_missing": lambda r: (
        _tgz(r, "a.tgz", [tar_entry("hard", kind=tarfile.LNKTYPE, linkname="nowhere.txt")]),
        DEFAULT,
        "archive_format",
    ),
    "zip_symlink_escape": lambda r: (
        _zip(r, "a.zip", [(zip_info("link", stat.S_IFLNK | 0o777), b"../canary.txt")]),
        DEFAULT,
        "link_escape",
    ),
    "tar_fifo": lambda r: (
        _tgz(r, "a.tgz", [tar_entry("pipe", kind=tarfile.FIFOTYPE)]),
        DEFAULT,
        "special_file",
    ),
    "tar_char_device": lambda r: (
        _tgz(r, "a.tar", [tar_entry("null", kind=tarfile.CHRTYPE)]),
        DEFAULT,
        "special_file",
    ),
    "tar_block_device": lambda r: (
        _tgz(r, "a.tar", [tar_entry("sda", kind=tarfile.BLKTYPE)]),
        DEFAULT,
        "special_file",
    ),
    "zip_fifo_mode": lambda r: (
        _zip(r, "a.zip", [(zip_info("pipe", stat.S_IFIFO | 0o644), b"")]),
        DEFAULT,
        "special_file",
    ),
    "zip_bomb_small_limit": lambda r: (
        _zip(r, "a.zip", [("zeros.bin", bytes(5 * MB))]),
        ArchiveLimits(max_ratio=50),
        "compression_ratio",
    ),
    "tgz_bomb": lambda r: (
        _tgz(r, "a.tgz", [tar_entry("zeros.bin", bytes(5 * MB))]),
        DEFAULT,
        "compression_ratio",
    ),
    "too_many_files": lambda r: (
        _zip(r, "a.zip", [(f"f{i}.txt", b"x") for i in range(5)]),
        SMALL,
        "too_many_files",
    ),
    "too_large_uncompressed": lambda r: (
        _zip(r, "a.zip", [("big.txt", b"x" * 200)]),
        SMALL,
        "too_large_uncompressed",
    ),
    "tar_too_large_uncompressed": lambda r: (
        _tgz(r, "a.tgz", [tar_entry("big", b"x" * 200)]),
        SMALL,
        "too_large_uncompressed",
    ),
    "too_large_compressed": lambda r: (
        _zip(r, "a.zip", [("a.txt", b"hello")]),
        ArchiveLimits(max_compressed=10),
        "too_large_compressed",
    ),
    "duplicate_zip": lambda r: (
        _zip(r, "a.zip", [("a.txt", b"1"), ("a.txt", b"2")]),
        DEFAULT,
        "duplicate_member",
    ),
    "duplicate_tar_dot_slash": lambda r: (
        _tgz(r, "a.tgz", [tar_entry("a.txt", b"1"), tar_entry("./a.txt", b"2")]),
        DEFAULT,
        "duplicate_member",
    ),
    "file_under_file": lambda r: (
        _zip(r, "a.zip", [("a", b"1"), ("a/b", b"2")]),
        DEFAULT,
        "duplicate_member",
    ),
    "encrypted_zip": lambda r: (
        patch_zip(_zip(r, "a.zip", [("a.txt", b"x")]), flags=1),
        DEFAULT,
        "archive_format",
    ),
}


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def _truncated(path: Path) -> Path:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    return path


BAD.update(
    {
        "corrupt_zip": lambda r: (
            _write(r / "archives" / "a.zip", os.urandom(4096)),
            DEFAULT,
            "archive_format",
        ),
        "empty_zip_file": lambda r: (
            _write(r / "archives" / "a.jar", b""),
            DEFAULT,
            "archive_format",
        ),
        "truncated_zip": lambda r: (
            _truncated(_zip(r, "a.zip", [("a.bin", os.urandom(50_000))])),
            DEFAULT,
            "archive_format",
        ),
        "truncated_tgz": lambda r: (
            _truncated(
                _tgz(
                    r,
                    "a.tgz",
                    [
                        tar_entry("a.bin", os.urandom(50_000)),
                        tar_entry("b.bin", os.urandom(50_000)),
                    ],
                )
            ),
            DEFAULT,
            "archive_format",
        ),
        "garbage_tgz": lambda r: (
            _write(r / "archives" / "a.tgz", b"not gzip at all" * 100),
            DEFAULT,
            "archive_format",
        ),
    }
)

# Archives whose headers look fine but which extraction must refuse (and clean up).
LATE: dict[str, Callable[[Path], Case]] = {
    # sub/a -> ".." stays inside, and so does b -> sub/a/../canary.txt lexically, but on
    # disk sub/a/.. is the parent of the destination.
    "symlink_chain": lambda r: (
        _tgz(
            r,
            "a.tgz",
            [
                tar_entry("sub/keep.txt", b"x"),
                tar_entry("sub/a", kind=tarfile.SYMTYPE, linkname=".."),
                tar_entry("b", kind=tarfile.SYMTYPE, linkname="sub/a/../canary.txt"),
            ],
        ),
        DEFAULT,
        "link_escape",
    ),
    # the headers claim 10 bytes, the stored data holds 1000 (zipfile's CRC check trips)
    "lying_zip_header": lambda r: (
        patch_zip(_zip(r, "a.zip", [("big.txt", b"A" * 1000), ("ok.txt", b"fine")]), usize=10),
        DEFAULT,
        "archive_format",
    ),
}


def snapshot(root: Path, exclude: Path) -> dict[str, tuple[int, int, int, bytes | str | None]]:
    """Every path under root except ``exclude``, with mode, size, mtime and content."""
    result: dict[str, tuple[int, int, int, bytes | str | None]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if Path(dirpath, d) != exclude]
        for name in dirnames + filenames:
            path = Path(dirpath, name)
            info = os.lstat(path)
            content: bytes | str | None = None
            if stat.S_ISLNK(info.st_mode):
                content = os.readlink(path)
            elif stat.S_ISREG(info.st_mode):
                content = path.read_bytes()
            result[str(path.relative_to(root))] = (
                info.st_mode,
                info.st_size,
                info.st_mtime_ns,
                content,
            )
    return result


# --------------------------------------------------------------------------- bad archives


@pytest.mark.parametrize("case", sorted(BAD))
def test_inspection_refuses_bad_archive(tmp_path: Path, case: str) -> None:
    path, limits, check = BAD[case](tmp_path)
    report = inspect_archive(path, limits)
    assert not report.ok
    assert check in {p.check for p in report.problems}, report.problems
    for problem in report.problems:
        for sentence in (problem.message, problem.hint):
            assert sentence[0].isupper() and sentence.endswith("."), sentence


@pytest.mark.parametrize("case", sorted(BAD) + sorted(LATE))
def test_canary_nothing_escapes_and_destination_stays_empty(tmp_path: Path, case: str) -> None:
    path, limits, check = {**BAD, **LATE}[case](tmp_path)
    canary(tmp_path).write_bytes(b"canary")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "keep.txt").write_bytes(b"keep")
    destination = tmp_path / "dest"
    destination.mkdir()
    before = snapshot(tmp_path, destination)

    inspect_archive(path, limits)
    with pytest.raises(UnsafeArchiveError) as refused:
        extract_archive(path, destination, limits)

    assert check in {p.check for p in refused.value.report.problems}
    assert snapshot(tmp_path, destination) == before
    assert list(destination.iterdir()) == []
    assert canary(tmp_path).read_bytes() == b"canary"


@pytest.mark.parametrize("case", sorted(LATE))
def test_late_cases_pass_inspection(tmp_path: Path, case: str) -> None:
    path, limits, _check = LATE[case](tmp_path)
    assert inspect_archive(path, limits).ok


def test_zip_bomb_with_default_limits(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "bomb.zip", [("zeros.bin", bytes(20 * MB))])
    assert path.stat().st_size < 100_000
    report = inspect_archive(path)
    assert [p.check for p in report.problems] == ["compression_ratio"]
    assert report.problems[0].member == "zeros.bin"
    assert report.uncompressed_bytes == 20 * MB


def test_small_files_may_compress_well(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "ok.zip", [("zeros.bin", bytes(RATIO_MIN_BYTES))])
    assert inspect_archive(path).ok


def test_too_many_files_stops_reading_early(tmp_path: Path) -> None:
    path = make_tar(tmp_path / "many.tar", [tar_entry(f"f{i}", b"x") for i in range(50)])
    report = inspect_archive(path, SMALL)
    assert [p.check for p in report.problems] == ["too_many_files"]
    assert report.file_count == SMALL.max_files + 1


def test_hardlink_copies_count_towards_the_size_limit(tmp_path: Path) -> None:
    entries = [
        tar_entry("data", b"x" * 60),
        tar_entry("copy", kind=tarfile.LNKTYPE, linkname="data"),
    ]
    report = inspect_archive(make_tar(tmp_path / "a.tar", entries), SMALL)
    assert report.uncompressed_bytes == 120
    assert [p.check for p in report.problems] == ["too_large_uncompressed"]


def test_byte_counting_guard_during_extraction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even if the archive library hands over more bytes than declared, nothing more is kept."""
    path = make_zip(tmp_path / "a.zip", [("a.txt", b"0123456789")])
    monkeypatch.setattr(
        archive_module, "_open_member", lambda archive, member: io.BytesIO(b"x" * 10_000)
    )
    destination = tmp_path / "dest"
    destination.mkdir()
    with pytest.raises(UnsafeArchiveError) as refused:
        extract_archive(path, destination)
    assert [p.check for p in refused.value.report.problems] == ["too_large_uncompressed"]
    assert list(destination.iterdir()) == []


@pytest.mark.parametrize(
    ("size", "limit", "expected"),
    [
        (0, 0, 0),
        (5, 10, 5),
        (10, 10, 10),
        (11, 10, 11),
        (10_000, 10, 11),
        (200_000, 150_000, 150_001),
        (150_000, 150_000, 150_000),
    ],
)
def test_copy_limited(size: int, limit: int, expected: int) -> None:
    target = io.BytesIO()
    assert archive_module._copy_limited(io.BytesIO(b"y" * size), target, limit) == expected
    written = len(target.getvalue())
    assert written == size if size <= limit else written <= limit


def test_error_message_lists_problems(tmp_path: Path) -> None:
    path, limits, _ = BAD["zip_slip"](tmp_path)
    destination = tmp_path / "dest"
    destination.mkdir()
    with pytest.raises(UnsafeArchiveError) as refused:
        extract_archive(path, destination, limits)
    text = str(refused.value)
    assert text.startswith("The zip archive was refused:")
    assert "'../evil.txt'" in text and refused.value.report.problems[0].hint in text


# --------------------------------------------------------------------------- good archives


def test_good_tgz_extracts_with_exec_bits(tmp_path: Path) -> None:
    script = b"#!/bin/sh\nexec python3 bot/main.py\n"
    path = make_tar(
        tmp_path / "bot.tgz",
        [
            tar_entry(".", kind=tarfile.DIRTYPE, mode=0o755),
            tar_entry("./startme.sh", script, mode=0o755),
            tar_entry("./bot", kind=tarfile.DIRTYPE, mode=0o700),
            tar_entry("./bot/main.py", b"print('hi')\n", mode=0o600),
            tar_entry("./bot/sticky", b"s", mode=0o755 | stat.S_ISVTX),
            tar_entry("./bot/deep/er/x.txt", b"deep"),
            tar_entry("./current", kind=tarfile.SYMTYPE, linkname="bot/main.py"),
            tar_entry("./bot/copy.py", kind=tarfile.LNKTYPE, linkname="bot/main.py"),
        ],
    )
    destination = tmp_path / "dest"
    destination.mkdir()
    report = extract_archive(path, destination)

    assert report.ok and report.kind == "tar"
    assert report.file_count == 8
    assert report.uncompressed_bytes == len(script) + 12 + 1 + 4 + 12
    assert (destination / "startme.sh").read_bytes() == script
    assert stat.S_IMODE((destination / "startme.sh").stat().st_mode) == 0o755
    assert stat.S_IMODE((destination / "bot" / "main.py").stat().st_mode) == 0o644
    assert stat.S_IMODE((destination / "bot" / "sticky").stat().st_mode) == 0o755
    for directory in ("bot", "bot/deep", "bot/deep/er"):
        assert stat.S_IMODE((destination / directory).stat().st_mode) == 0o755
    assert (destination / "bot/deep/er/x.txt").read_bytes() == b"deep"
    assert os.readlink(destination / "current") == "bot/main.py"
    assert (destination / "current").read_bytes() == b"print('hi')\n"
    copy = destination / "bot" / "copy.py"
    assert not copy.is_symlink() and copy.read_bytes() == b"print('hi')\n"


def test_plain_tar_and_inspection_writes_nothing(tmp_path: Path) -> None:
    path = make_tar(tmp_path / "bot.TAR", [tar_entry("startme.sh", b"run", mode=0o755)])
    before = snapshot(tmp_path, tmp_path / "none")
    report = inspect_archive(path)
    assert snapshot(tmp_path, tmp_path / "none") == before
    assert report == ArchiveReport("tar", path.stat().st_size, 3, 1, ())


def test_jar_extracts(tmp_path: Path) -> None:
    path = make_zip(
        tmp_path / "bot.jar",
        [
            ("META-INF/", b""),
            ("META-INF/MANIFEST.MF", b"Manifest-Version: 1.0\nMain-Class: Bot\n"),
            ("Bot.class", b"\xca\xfe\xba\xbe" + bytes(100)),
            (zip_info("run.sh", stat.S_IFREG | 0o755), b"#!/bin/sh\n"),
            (zip_info("here", stat.S_IFLNK | 0o777), b"Bot.class"),
        ],
    )
    destination = tmp_path / "dest"
    destination.mkdir()
    report = extract_archive(path, destination)
    assert report.ok and report.kind == "zip" and report.file_count == 5
    assert (destination / "META-INF" / "MANIFEST.MF").read_bytes().startswith(b"Manifest")
    assert (destination / "Bot.class").read_bytes()[:4] == b"\xca\xfe\xba\xbe"
    assert stat.S_IMODE((destination / "run.sh").stat().st_mode) == 0o755
    assert stat.S_IMODE((destination / "Bot.class").stat().st_mode) == 0o644
    assert stat.S_IMODE((destination / "META-INF").stat().st_mode) == 0o755
    assert os.readlink(destination / "here") == "Bot.class"


def test_destination_must_be_empty(tmp_path: Path) -> None:
    path = make_zip(tmp_path / "a.zip", [("a.txt", b"x")])
    destination = tmp_path / "dest"
    destination.mkdir()
    (destination / "old.txt").write_text("old")
    with pytest.raises(ValueError, match="not empty"):
        extract_archive(path, destination)
    assert [p.name for p in destination.iterdir()] == ["old.txt"]


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("bot.zip", "zip"),
        ("Bot.JAR", "zip"),
        ("bot.tar", "tar"),
        ("bot.tar.gz", "tar"),
        ("bot.TGZ", "tar"),
        ("bot.gz", None),
        ("bot.rar", None),
        ("bot", None),
        ("zip", None),
    ],
)
def test_archive_kind(name: str, kind: str | None) -> None:
    assert archive_kind(Path("some/dir") / name) == kind


def test_unsupported_suffix_is_a_value_error(tmp_path: Path) -> None:
    path = _write(tmp_path / "bot.rar", b"Rar!")
    with pytest.raises(ValueError, match="not a supported archive"):
        inspect_archive(path)


@given(st.lists(st.sampled_from(["a", "b", ".", "..", "", "\\", "c:", "/"]), max_size=6))
def test_accepted_names_stay_inside(pieces: list[str]) -> None:
    name = "/".join(pieces)
    parts, problem = archive_module._split_name(name)
    if problem is None:
        root = "/root/dest"
        joined = os.path.normpath(os.path.join(root, *parts))
        assert joined == root or joined.startswith(root + "/")
        assert ".." not in parts
    else:
        assert problem.check in ("absolute_path", "parent_path")


# --------------------------------------------------------------------------- directories


def test_good_directory(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    (bot / "lib").mkdir(parents=True)
    (bot / "startme.sh").write_bytes(b"12345")
    (bot / "lib" / "x.py").write_bytes(b"123")
    (bot / "alias").symlink_to("lib/x.py")
    (bot / "libs").symlink_to("lib")
    report = inspect_directory(bot)
    assert report == ArchiveReport("directory", 8, 8, 5, ())


def test_directory_problems(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (tmp_path / "secret").write_text("s")
    (bot / "up").symlink_to("../secret")
    (bot / "abs").symlink_to(tmp_path / "secret")
    (bot / "hop").symlink_to("up")  # escapes through another link
    os.mkfifo(bot / "pipe")
    report = inspect_directory(bot)
    found = sorted((p.check, p.member) for p in report.problems)
    assert found == [
        ("link_escape", "abs"),
        ("link_escape", "hop"),
        ("link_escape", "up"),
        ("special_file", "pipe"),
    ]


def test_directory_limits(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    (bot / "sub").mkdir(parents=True)
    for i in range(10):
        (bot / "sub" / f"{i}.txt").write_bytes(b"x" * 20)
    checks = {p.check for p in inspect_directory(bot, SMALL).problems}
    assert checks == {"too_many_files"}
    big = ArchiveLimits(max_uncompressed=100)
    assert {p.check for p in inspect_directory(bot, big).problems} == {"too_large_uncompressed"}


@pytest.mark.parametrize(
    "entry, check",
    [
        (tar_entry("bot/helper", b"#!", mode=0o4755), "setuid_file"),
        (tar_entry("bot/helper", b"#!", mode=0o2711), "setuid_file"),
        (tar_entry("bot/line\nbreak.txt", b"x"), "unsafe_name"),
        (tar_entry("bot/esc\x1b[31m.txt", b"x"), "unsafe_name"),
        (tar_entry("bot/dir\rname", kind=tarfile.DIRTYPE, mode=0o755), "unsafe_name"),
    ],
)
def test_setuid_files_and_control_characters_are_refused_before_writing(
    tmp_path: Path, entry: tuple[tarfile.TarInfo, bytes], check: str
) -> None:
    path = make_tar(tmp_path / "bad.tar", [tar_entry("bot/player.py", b"pass\n"), entry])
    report = inspect_archive(path)
    assert [problem.check for problem in report.problems] == [check]
    assert report.problems[0].hint
    destination = tmp_path / "dest"
    destination.mkdir()
    with pytest.raises(UnsafeArchiveError):
        extract_archive(path, destination)
    assert list(destination.iterdir()) == []


def test_a_zip_member_with_the_setuid_bit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zip_info("bot/player.py", 0o100644), b"pass\n")
        zf.writestr(zip_info("bot/su", 0o104755), b"x")
    report = inspect_archive(path)
    assert [(p.check, p.member) for p in report.problems] == [("setuid_file", "bot/su")]
    assert "setuid bit (mode 4755)" in report.problems[0].message
