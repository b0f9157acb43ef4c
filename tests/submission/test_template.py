"""The bot template: baked with default and awkward answers, then checked like a bot author would.

Each baked project must read its README.txt back as the answers, carry an executable
LF-only startme.sh, a valid commands.json and a pristine vendored SDK, pass its own
tests and ``mypy --strict``, and play a scrimmage without a fault.  Bad answers must be
refused before anything is written, and ``skeleton/`` must be exactly the template
rendered with the default answers.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

import sdk
from local_runner.cli import main as cli_main
from local_runner.programs.bot_program import BotProgram
from local_runner.submission.metadata import Metadata, Person, parse_readme, render_readme
from local_runner.submission.new import (
    DEFAULT_ANSWERS,
    NewBotError,
    create_bot,
    normalize_answers,
    template_directory,
)
from local_runner.submission.vendor import check_vendored_sdk, sdk_files, sdk_source
from local_runner.tables.config import ScrimmageConfig
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from sdk.rules import Rules
from tests.conftest import ROOT
from tests.modules import load_file

pytestmark = pytest.mark.slow  # new bots' own tests in subprocesses, and matches


AWKWARD = {
    "bot_name": "zoe_bot-2",
    "team_name": 'The "Folding" Chairs\' {{ 7*7 }} {% raw %}',
    "affiliation": "Université de Montréal \\ École {% endraw %}",
    "leader_name": "Zoë Ñandú",
    "leader_email": "zoe.nandu@example.org",
    "members": 'Zoë Ñandú <zoe.nandu@example.org>;  Seán O\'Brien "Bob" <sean@example.ie> ;',
    "city": "São Paulo",
    "region": "{{ cookiecutter.bot_name }}",
    "country": "Brasil; $(touch pwned) `id`",
    "technique": (
        "  First paragraph: {{ 7*7 }} and {% raw %}x{% endraw %}.\n\n"
        "Second paragraph, a backslash \\n, quotes \" ' and ünïcödé.\r\n"
        "{{ cookiecutter._readme }}\n"
    ),
    "references": 'Zinkevich et al. (2007): "Regret minimization"; NIPS\n\n{{ 7*7 }}\n',
    "variant": "bounty",
}

AWKWARD_METADATA = Metadata(
    bot_name="zoe_bot-2",
    team_name='The "Folding" Chairs\' {{ 7*7 }} {% raw %}',
    affiliation="Université de Montréal \\ École {% endraw %}",
    leader=Person("Zoë Ñandú", "zoe.nandu@example.org"),
    members=(
        Person("Zoë Ñandú", "zoe.nandu@example.org"),
        Person('Seán O\'Brien "Bob"', "sean@example.ie"),
    ),
    location="São Paulo, {{ cookiecutter.bot_name }}, Brasil; $(touch pwned) `id`",
    variant="bounty",
    technique=(
        "First paragraph: {{ 7*7 }} and {% raw %}x{% endraw %}.\n\n"
        "Second paragraph, a backslash \\n, quotes \" ' and ünïcödé.\n"
        "{{ cookiecutter._readme }}"
    ),
    references=('Zinkevich et al. (2007): "Regret minimization"; NIPS', "{{ 7*7 }}"),
    profile="mit",
)

#: Text only the awkward answers contain: it must appear in README.txt and nowhere else.
AWKWARD_MARKERS = ("Folding", "Zoë", "Montréal", "São Paulo", "touch pwned", "Regret")

CLI_MEMBERS = "Ada Lovelace <ada@example.org>; Alan Turing <alan@example.org>"


@dataclass(frozen=True)
class Baked:
    """A baked project and the metadata its README.txt must hold."""

    path: Path
    expected: Metadata


def _default_metadata(bot_name: str, **changes: object) -> Metadata:
    answers = dict(DEFAULT_ANSWERS)
    leader = Person(answers["leader_name"], answers["leader_email"])
    metadata = Metadata(
        bot_name=bot_name,
        team_name=answers["team_name"],
        affiliation=answers["affiliation"],
        leader=leader,
        members=(leader,),
        location="Cambridge, Massachusetts, USA",
        variant="nlhe",
        technique=answers["technique"],
        references=(),
        profile="mit",
    )
    return dataclasses.replace(metadata, **changes)  # type: ignore[arg-type]


def _environment() -> dict[str, str]:
    """This environment, minus anything that would change a bot's rules."""
    return {key: value for key, value in os.environ.items() if key != "POKERBOTS_RULES"}


def _pokerbots() -> list[str]:
    script = Path(sys.executable).with_name("pokerbots")
    return [str(script)] if script.exists() else [sys.executable, "-m", "local_runner.cli"]


@pytest.fixture(scope="module")
def bakery(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bakery")


@pytest.fixture(scope="module")
def default_project(bakery: Path) -> Baked:
    path = create_bot(bakery / "my-bot", {})
    return Baked(path, _default_metadata("my-bot"))


@pytest.fixture(scope="module")
def awkward_project(bakery: Path) -> Baked:
    path = create_bot(bakery / "awkward", AWKWARD)
    return Baked(path, AWKWARD_METADATA)


@pytest.fixture(scope="module")
def cli_project(bakery: Path) -> Baked:
    path = bakery / "cli-bot"
    completed = subprocess.run(
        [
            *_pokerbots(),
            "new",
            str(path),
            "--no-input",
            "--set",
            "team_name=Les Bluffeurs d'Été",
            "--set",
            "variant=swap",
            "--set",
            f"members={CLI_MEMBERS}",
        ],
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert "Created the bot" in completed.stdout
    members = (Person("Ada Lovelace", "ada@example.org"), Person("Alan Turing", "alan@example.org"))
    expected = _default_metadata(
        "cli-bot", team_name="Les Bluffeurs d'Été", variant="swap", members=members
    )
    return Baked(path, expected)


@pytest.fixture(params=["default_project", "awkward_project", "cli_project"])
def baked(request: pytest.FixtureRequest) -> Baked:
    project: Baked = request.getfixturevalue(request.param)
    return project


# -- every baked project -------------------------------------------------------------


def test_readme_reads_back_as_the_answers(baked: Baked) -> None:
    text = (baked.path / "README.txt").read_text(encoding="utf-8")
    assert parse_readme(text) == baked.expected
    assert text == render_readme(baked.expected)  # rendered by the metadata module, verbatim


def test_the_project_has_every_file(baked: Baked) -> None:
    names = {
        path.relative_to(baked.path).as_posix()
        for path in baked.path.rglob("*")
        if "sdk" not in path.parent.parts and "__pycache__" not in path.parts
    }
    assert names == {
        "player.py",
        "startme.sh",
        "commands.json",
        "README.txt",
        "requirements.txt",
        ".gitignore",
        "sdk",
        "tests",
        "tests/conftest.py",
        "tests/test_player.py",
    }
    assert "eval7" in (baked.path / "requirements.txt").read_text()
    assert "__pycache__/" in (baked.path / ".gitignore").read_text().splitlines()


def test_startme_is_executable_with_lf_endings(baked: Baked) -> None:
    startme = baked.path / "startme.sh"
    data = startme.read_bytes()
    assert b"\r" not in data and data.endswith(b"\n")
    assert data.startswith(b"#!/bin/sh\n")
    assert b'cd "$(dirname "$0")" && exec python3 player.py "$@"\n' in data
    mode = startme.stat().st_mode
    assert mode & stat.S_IXUSR and mode & stat.S_IXGRP and mode & stat.S_IXOTH


def test_no_file_has_crlf_line_endings(baked: Baked) -> None:
    for path in baked.path.rglob("*"):
        if path.is_file():
            assert b"\r" not in path.read_bytes(), path


def test_commands_json_runs_the_same_entry_point(baked: Baked) -> None:
    commands = json.loads((baked.path / "commands.json").read_text())
    assert commands == {"build": [], "run": ["python3", "player.py"]}


def test_player_declares_the_variant(baked: Baked) -> None:
    source = (baked.path / "player.py").read_text()
    assert f'VARIANT = "{baked.expected.variant}"\n' in source
    assert "run_bot(Player(), parse_args(), variant=VARIANT)" in source


def test_vendored_sdk_is_the_kits_with_its_version_and_hashes(baked: Baked) -> None:
    check = check_vendored_sdk(baked.path / "sdk")
    assert check.pristine and check.version == sdk.__version__
    manifest = json.loads((baked.path / "sdk" / "VENDORED.json").read_text())
    kit = sdk_source()
    assert manifest["files"] == {
        path.as_posix(): hashlib.sha256((kit / path).read_bytes()).hexdigest()
        for path in sdk_files(kit)
    }


def test_the_projects_own_tests_pass(baked: Baked) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=baked.path,
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=120,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    summary = completed.stdout.strip().splitlines()[-1]
    assert "passed" in summary and "skipped" not in summary and "failed" not in summary
    assert "warning" not in summary, completed.stdout  # eval7's DeprecationWarnings are hidden


def test_the_projects_tests_are_skipped_with_a_reason_without_the_kit(
    default_project: Baked,
) -> None:
    # sys.modules[name] = None makes `import local_runner` fail, as it does without the kit.
    # No -rs: the reason must show without asking for it.
    hide_the_kit = (
        "import sys, pytest; sys.modules['local_runner'] = None; "
        "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider']))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", hide_the_kit],
        cwd=default_project.path,
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=120,
    )
    assert completed.returncode == 5, completed.stdout  # pytest: no test was collected
    assert "1 skipped" in completed.stdout
    assert "SKIPPED: the pokerbots kit is not installed" in completed.stdout
    assert f"{sys.executable} -m pip install -e PATH/TO/pokerbots-kit" in completed.stdout
    assert "pip install pokerbots-kit" not in completed.stdout  # not on any package index


def test_player_is_clean_under_mypy_strict(baked: Baked) -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", os.devnull, "player.py"],
        cwd=baked.path,
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=120,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def _scrimmage(bot: Path, variant: str, out: Path) -> None:
    config = ScrimmageConfig(rules=Rules.for_variant(variant).replace(num_rounds=100), seed=1)
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:random")]
    result = run_scrimmage(specs, config, out)
    assert result.hands_played == 100
    for player in result.players:
        assert player.fault_counts == {}, (player.name, player.first_faults)
    assert result.players[0].decisions > 0


def test_plays_a_scrimmage_without_faults(baked: Baked, tmp_path: Path) -> None:
    assert BotProgram.from_directory(baked.path).source == "commands.json"
    _scrimmage(baked.path, baked.expected.variant, tmp_path / "out")


def test_plays_a_scrimmage_through_startme_sh(baked: Baked, tmp_path: Path) -> None:
    copy = tmp_path / "startme-only"
    shutil.copytree(baked.path, copy, symlinks=True)
    (copy / "commands.json").unlink()
    assert BotProgram.from_directory(copy).source == "startme.sh"
    _scrimmage(copy, baked.expected.variant, tmp_path / "out")


# -- awkward answers -----------------------------------------------------------------


def test_awkward_answers_appear_literally_and_only_in_the_readme(awkward_project: Baked) -> None:
    readme = (awkward_project.path / "README.txt").read_text(encoding="utf-8")
    for literal in ("{{ 7*7 }}", "{% raw %}", "{% endraw %}", "{{ cookiecutter.bot_name }}"):
        assert literal in readme
    assert "49" not in readme
    assert "Zoë Ñandú" in readme and "\\ École" in readme
    for path in awkward_project.path.rglob("*"):
        # Bytecode caches hold no text (a test that ran the bot may have written them).
        if path.is_file() and path.name != "README.txt" and "__pycache__" not in path.parts:
            text = path.read_text(encoding="utf-8")
            assert not any(marker in text for marker in AWKWARD_MARKERS), path
    assert not (awkward_project.path / "pwned").exists()
    assert not Path("pwned").exists()


def test_the_folder_name_and_the_bot_name_may_differ(awkward_project: Baked) -> None:
    assert awkward_project.path.name == "awkward"
    assert parse_readme((awkward_project.path / "README.txt").read_text()).bot_name == "zoe_bot-2"


# -- refusals: nothing is written ----------------------------------------------------


@pytest.mark.parametrize(
    ("answers", "message"),
    [
        ({"team_name": "  "}, "The team name is empty"),
        ({"leader_email": "ada@"}, "e-mail 'ada@' is malformed"),
        ({"members": "Ada <ada@example.org>; Alan <alan at example.org>"}, "malformed e-mail"),
        ({"members": "Ada Lovelace"}, "needs a name and an e-mail"),
        ({"variant": "limit"}, "The variant 'limit' is unknown"),
        ({"bot_name": "my bot"}, "cannot be used as a folder name"),
        ({"bot_name": "{{7*7}}"}, "cannot be used as a folder name"),
        ({"bot_name": "-x"}, "cannot be used as a folder name"),
        ({"team_name": "Line\nbreak"}, "contains a line break"),
        ({"city": "Tab\there"}, "control character U+0009"),
        ({"technique": "\n \n"}, "The technique summary is empty"),
        ({"colour": "blue"}, "Unknown answer(s): colour"),
    ],
)
def test_bad_answers_are_refused_before_anything_is_written(
    tmp_path: Path, answers: dict[str, str], message: str
) -> None:
    target = tmp_path / "bot"
    with pytest.raises(NewBotError) as caught:
        create_bot(target, answers)
    assert message in str(caught.value)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    with pytest.raises(NewBotError) as caught:
        create_bot(tmp_path / "bot", {"team_name": "", "leader_email": "x", "variant": "omaha"})
    assert len(caught.value.problems) == 3


def test_a_folder_name_that_is_no_bot_name_needs_an_explicit_one(tmp_path: Path) -> None:
    with pytest.raises(NewBotError, match="comes from the folder name"):
        create_bot(tmp_path / "My Bot", {})
    assert not (tmp_path / "My Bot").exists()
    assert create_bot(tmp_path / "My Bot", {"bot_name": "my_bot"}).is_dir()


def _snapshot(root: Path) -> dict[str, bytes]:
    return {
        path.relative_to(root).as_posix(): path.read_bytes()
        for path in root.rglob("*")
        if path.is_file()
    }


def test_an_existing_non_empty_folder_is_left_alone_without_force(tmp_path: Path) -> None:
    target = tmp_path / "bot"
    target.mkdir()
    (target / "player.py").write_text("mine\n")
    (target / "notes.txt").write_text("keep me\n")
    before = _snapshot(target)
    with pytest.raises(NewBotError, match="already exists and is not empty"):
        create_bot(target, {})
    assert _snapshot(target) == before


def test_force_overwrites_edited_files_only_when_told_and_keeps_others(tmp_path: Path) -> None:
    target = tmp_path / "bot"
    target.mkdir()
    (target / "player.py").write_text("mine\n")
    (target / "notes.txt").write_text("keep me\n")
    (target / "sdk").symlink_to(ROOT / "sdk")
    with pytest.raises(NewBotError, match=r"player\.py\. --force overwrites them only with"):
        create_bot(target, {"variant": "auction"}, force=True)  # player.py is not the template's
    assert (target / "player.py").read_text() == "mine\n" and (target / "sdk").is_symlink()
    create_bot(target, {"variant": "auction"}, force=True, overwrite_edited=True)
    assert (target / "notes.txt").read_text() == "keep me\n"
    assert 'VARIANT = "auction"' in (target / "player.py").read_text()
    assert not (target / "sdk").is_symlink() and check_vendored_sdk(target / "sdk").pristine
    assert (ROOT / "sdk" / "__init__.py").is_file()  # the symlink's target was not touched


def test_an_empty_folder_is_fine_without_force(tmp_path: Path) -> None:
    target = tmp_path / "bot"
    target.mkdir()
    assert create_bot(target, {}) == target
    assert (target / "player.py").is_file()


def test_a_file_in_the_way_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "bot"
    target.write_text("a file\n")
    with pytest.raises(NewBotError, match="is not a folder"):
        create_bot(target, {}, force=True)
    assert target.read_text() == "a file\n"


def test_cookiecutter_leaves_the_home_folder_and_user_config_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    config = home / "cookiecutterrc"
    config.write_text("default_context:\n  variant: auction\n  bot_name: evil\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("COOKIECUTTER_CONFIG", str(config))
    project = create_bot(tmp_path / "bot", {})
    assert sorted(path.name for path in home.iterdir()) == ["cookiecutterrc"]
    assert 'VARIANT = "nlhe"' in (project / "player.py").read_text()
    assert "Bot name: bot\n" in (project / "README.txt").read_text()


def test_byte_compiled_template_files_stay_out_of_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pip byte-compiles an installed template's .py files into __pycache__ next to them.
    template = tmp_path / "template"
    shutil.copytree(template_directory(), template, ignore=_caches)
    inner = template / "{{cookiecutter.bot_name}}"
    for folder in (inner, inner / "tests"):
        (folder / "__pycache__").mkdir()
        (folder / "__pycache__" / "player.cpython-311.pyc").write_bytes(b"\x00\x01")
    (inner / "startme.sh").chmod(0o644)  # an archive that lost the mode
    monkeypatch.setattr("local_runner.submission.new.template_directory", lambda: template)
    project = create_bot(tmp_path / "bot", {})
    assert not [path for path in project.rglob("*") if path.name == "__pycache__"]
    assert (project / "startme.sh").stat().st_mode & stat.S_IXUSR


def test_answers_are_normalised_the_way_readme_keeps_them() -> None:
    answers = normalize_answers(
        {"members": " ; ", "variant": "AUCTION", "technique": " a \r\n\r\n b "}, "x"
    )
    assert answers["members"] == "Ada Lovelace <ada@example.org>"
    assert answers["variant"] == "auction"
    assert answers["technique"] == "a\n\nb"  # paragraphs survive, one blank line apart
    assert answers["bot_name"] == "x"


# -- the command line ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--set", "team_name="], "The team name is empty"),
        (["--set", "leader_email=nobody"], "e-mail 'nobody' is malformed"),
        (["--set", "variant=limit"], "The variant 'limit' is unknown"),
        (["--set", "colour=blue"], "--set 'colour' is not a question"),
        (["--set", "variant"], "has no '='"),
    ],
)
def test_cli_refuses_bad_answers_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    target = tmp_path / "bot"
    status = cli_main(["new", str(target), "--no-input", *arguments])
    captured = capsys.readouterr()
    assert status == 2
    assert message in captured.err and "Nothing was written." in captured.err
    assert "Traceback" not in captured.err + captured.out
    assert not target.exists()


def test_cli_refuses_a_non_empty_folder_unless_forced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "bot"
    target.mkdir()
    (target / "notes.txt").write_text("keep me\n")
    assert cli_main(["new", str(target), "--no-input"]) == 2
    assert "--force" in capsys.readouterr().err
    assert [path.name for path in target.iterdir()] == ["notes.txt"]
    assert cli_main(["new", str(target), "--no-input", "--force"]) == 0
    assert (target / "player.py").is_file() and (target / "notes.txt").is_file()


def test_cli_asks_each_question_and_asks_again_after_a_bad_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    replies: Iterator[str] = iter(
        [
            "",  # bot name: the folder's
            "Team {{ 7*7 }}",
            "",  # affiliation
            "Grace Hopper",
            "not-an-email",  # asked again
            "grace@example.org",
            "",  # members: the leader alone
            "Arlington",
            "Virginia",
            "USA",
            "Line one.",
            "Line two.",
            "",  # end of the technique
            "A reference",
            "",  # end of the references
            "sideways",  # asked again
            "swap",
            "",  # profile: mit
        ]
    )
    monkeypatch.setattr("builtins.input", lambda prompt="": next(replies))
    target = tmp_path / "asked"
    assert cli_main(["new", str(target)]) == 0
    assert "malformed" in capsys.readouterr().out
    metadata = parse_readme((target / "README.txt").read_text())
    assert metadata.bot_name == "asked" and metadata.team_name == "Team {{ 7*7 }}"
    assert metadata.leader == Person("Grace Hopper", "grace@example.org")
    assert metadata.members == (metadata.leader,)
    assert metadata.location == "Arlington, Virginia, USA" and metadata.variant == "swap"
    assert metadata.technique == "Line one.\nLine two." and metadata.references == ("A reference",)


def test_cli_stops_cleanly_when_the_input_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_more(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", no_more)
    target = tmp_path / "bot"
    assert cli_main(["new", str(target)]) == 2
    assert "--no-input" in capsys.readouterr().err
    assert not target.exists()


# -- the template and the skeleton ---------------------------------------------------


def _regenerate_script() -> ModuleType:
    return load_file("regenerate_skeleton", ROOT / "scripts" / "regenerate_skeleton.py")


def test_the_template_holds_no_sdk_and_renders_no_user_text() -> None:
    template = template_directory()
    assert template == ROOT / "templates" / "bot"
    assert not [path for path in template.rglob("*") if path.name == "sdk"]
    context = json.loads((template / "cookiecutter.json").read_text())
    # Cookiecutter renders public values as Jinja: only validated ones may be public (the
    # game file's name matches GAME_FILE_PATTERN: letters, digits, '.', '-', '_'; the wire
    # is the kit's own word for the game's declared wire, mit or acpc).
    assert {key for key in context if not key.startswith("_")} == {
        "bot_name",
        "variant",
        "wire",
        "game_file",
    }
    startme = template / "{{cookiecutter.bot_name}}" / "startme.sh"
    assert startme.stat().st_mode & stat.S_IXUSR


def test_the_skeleton_is_the_template_rendered_with_default_answers(tmp_path: Path) -> None:
    script = _regenerate_script()
    rendered = script.render_default(tmp_path)
    found = script.differences(rendered)
    assert found == [], "\n".join(found) + "\nRun: python scripts/regenerate_skeleton.py"
    assert (ROOT / "skeleton" / "sdk").resolve() == sdk_source()


def test_the_drift_check_notices_changes(tmp_path: Path) -> None:
    script = _regenerate_script()
    rendered = script.render_default(tmp_path / "rendered")
    skeleton = tmp_path / "skeleton"
    shutil.copytree(ROOT / "skeleton", skeleton, symlinks=True, ignore=_caches)
    (skeleton / "player.py").write_text("drifted\n")
    (skeleton / "startme.sh").chmod(0o644)
    (skeleton / "extra.txt").write_text("extra\n")
    (skeleton / "sdk").unlink()
    (skeleton / "sdk").symlink_to(tmp_path)
    found = "\n".join(script.differences(rendered, skeleton))
    assert "skeleton/player.py differs" in found
    assert "skeleton/startme.sh differs from the template in its executable bit" in found
    assert "skeleton/extra.txt is not in the template" in found
    assert "skeleton/sdk is not a symlink to the kit's SDK" in found
    assert script.regenerate(rendered, skeleton)
    left = script.differences(rendered, skeleton)  # ../sdk does not exist in tmp_path
    assert left == [f"skeleton/sdk is not a symlink to the kit's SDK at {sdk_source()}."]
    assert os.readlink(skeleton / "sdk") == "../sdk"


def _caches(directory: str, names: list[str]) -> list[str]:
    return [name for name in names if name in ("__pycache__", ".pytest_cache", ".mypy_cache")]
