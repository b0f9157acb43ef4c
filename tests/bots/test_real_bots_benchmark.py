"""``benchmarks/real_bots.py`` extracts a declared bot from a fetched copy at run time, and
plays it in a duplicate match: checked on a tiny repository made here (no network)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from local_runner.submission.vendor import vendor_sdk
from tests.modules import load_file

ROOT = Path(__file__).resolve().parents[2]


def _real_bots() -> ModuleType:
    return load_file("real_bots", ROOT / "benchmarks" / "real_bots.py", register=True)


def _git(repo: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args],
        check=True,
        capture_output=True,
        text=True,
    )
    return result.stdout.strip()


@pytest.fixture
def mirror(tmp_path: Path) -> tuple[Path, str]:
    """A folder of fetched copies holding ``someone+bots``: a checkall bot (a copy of the
    kit's skeleton, made to check or call) with a big file it never reads, and a shared
    module its repository's build step would copy in; returns the folder and the commit."""
    repo = tmp_path / "mirrors" / "someone+bots" / "repo"
    bot = repo / "bots" / "caller"
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (bot / "ai").mkdir(parents=True)
    (bot / "ai" / "weights.bin").write_bytes(b"\0" * 64)
    (bot / "player.py").write_text(
        "import shared\n"
        "from sdk.actions import CallAction, CheckAction\n"
        "from sdk.bot import Bot\n"
        "from sdk.runner import parse_args, run_bot\n\n"
        "class Player(Bot):\n"
        "    def handle_new_round(self, game_state, round_state, active):\n"
        "        pass\n\n"
        "    def handle_round_over(self, game_state, terminal_state, active):\n"
        "        pass\n\n"
        "    def get_action(self, game_state, round_state, active):\n"
        "        legal = round_state.legal_actions()\n"
        "        return CheckAction() if CheckAction in legal else CallAction()\n\n"
        "if __name__ == '__main__':\n"
        "    run_bot(Player(), parse_args())\n",
        encoding="utf-8",
    )
    (bot / "commands.json").write_text(
        '{"build": [], "run": ["python3", "player.py"]}', encoding="utf-8"
    )
    vendor_sdk(bot / "sdk")  # as `pokerbots new` does: the SDK's sources, never a build of them
    (repo / "lib").mkdir()
    (repo / "lib" / "shared.py").write_text("VALUE = 1\n", encoding="utf-8")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "a bot")
    return tmp_path / "mirrors", _git(repo, "rev-parse", "HEAD")


def test_extract_takes_the_declared_commit_and_path_and_leaves_out_what_is_named(
    mirror: tuple[Path, str], tmp_path: Path
) -> None:
    module = _real_bots()
    mirrors, commit = mirror
    bot = module.RealBot(
        "caller", "someone/bots", commit, "bots/caller", "nlhe", leave_out=("ai",), extras=("lib",)
    )
    folder = module.extract(bot, mirrors, tmp_path / "out")
    assert isinstance(folder, Path)
    assert (folder / "player.py").is_file() and (folder / "shared.py").is_file()
    assert not (folder / "ai").exists()
    assert bot.variant == "nlhe"
    assert module.RealBot("x", "a/b", commit, "p", "mit-2025").variant == "bounty"


def test_extract_says_why_when_the_copy_or_the_commit_is_missing(
    mirror: tuple[Path, str], tmp_path: Path
) -> None:
    module = _real_bots()
    mirrors, commit = mirror
    absent = module.RealBot("x", "nobody/nothing", commit, "bots/caller", "nlhe")
    assert "no copy of nobody/nothing" in module.extract(absent, mirrors, tmp_path / "a")
    wrong = module.RealBot("x", "someone/bots", "0" * 40, "bots/caller", "nlhe")
    assert "has no bots/caller at 000000000000" in module.extract(wrong, mirrors, tmp_path / "b")


def _play_caller(
    mirror: tuple[Path, str], tmp_path: Path, needs: str | None = None
) -> tuple[ModuleType, dict[str, Any]]:
    """The benchmark module, and the row of the fixture's caller (made to import ``needs``
    first, if given) extracted and played against ``builtin:checkcall``, 20 hand pairs."""
    module = _real_bots()
    mirrors, commit = mirror
    bot = module.RealBot("caller", "someone/bots", commit, "bots/caller", "nlhe", extras=("lib",))
    folder = module.extract(bot, mirrors, tmp_path / "bots")
    if needs is not None:
        player = folder / "player.py"
        player.write_text(f"import {needs}\n" + player.read_text(), "utf-8")
    specs = [module.BotSpec.parse(str(folder)), module.BotSpec.parse("builtin:checkcall")]
    # A generous clock: the point is the pairing, not the speed of a loaded machine.
    return module, module.play(specs, 1, "nlhe", 20, 3, tmp_path / "match", 100.0)


def test_an_extracted_bot_plays_a_duplicate_match_against_a_reference_bot(
    mirror: tuple[Path, str], tmp_path: Path
) -> None:
    _, row = _play_caller(mirror, tmp_path)
    # Two calling stations: every hand goes to a showdown of the same cards in each half,
    # so every hand pair sums to zero.
    assert row["samples"] == 20 and row["sample"] == "hand pair"
    assert row["mbb_per_hand"] == 0.0 and row["low"] == 0.0 and row["high"] == 0.0
    assert row["faults"] == {"caller": {}, "checkcall": {}} and row["tracebacks"] == []
    assert row["missing_modules"] == [] and row["verdict"] == "not distinguishable"


def test_pure_cfr_agent_needs_the_player_and_the_game_s_strategy(tmp_path: Path) -> None:
    module = _real_bots()
    folder = tmp_path / "opcfr"
    folder.mkdir()
    assert module.pure_cfr_agent("acpc-2pl", folder, tmp_path / "w", 1) is None
    (folder / "pure_cfr_player").write_text("", encoding="utf-8")
    (folder / "acpc-2pl.player").write_text("", encoding="utf-8")
    agent = module.pure_cfr_agent("acpc-2pl", folder, tmp_path / "w", 1)
    assert agent is not None
    startme = (agent / "startme.sh").read_text(encoding="utf-8")
    assert "pure_cfr_player" in startme and "acpc-2pl.player" in startme


def test_a_bot_missing_a_package_makes_its_match_void_and_names_the_package(
    mirror: tuple[Path, str], tmp_path: Path
) -> None:
    # A real bot that needs a package nobody installed (as bounty-cfr needs pandas).
    module, row = _play_caller(mirror, tmp_path, needs="pokerbots_kit_no_such_package")
    assert row["missing_modules"] == ["pokerbots_kit_no_such_package"]
    verdict = module._verdict(row)
    assert row["verdict"] == verdict
    assert verdict.startswith("void: a bot could not import pokerbots_kit_no_such_package")
    assert "pip install pokerbots_kit_no_such_package" in verdict
    # A match without trouble keeps its verdict.
    assert module._verdict({"low": 1.0, "high": 2.0, "missing_modules": []}) == "ahead"
