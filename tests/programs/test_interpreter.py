"""Which ``python3`` a bot runs: the user's on PATH, the kit's, or one named in the config."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from local_runner.programs.interpreter import (
    InterpreterError,
    _same_file,
    choose_python,
    start_probe,
)
from local_runner.tables.config import ConfigError, ScrimmageConfig, load_config
from local_runner.tables.scrimmage import BotSpec, run_scrimmage
from sdk.errors import KitError
from sdk.rules import Rules

pytestmark = pytest.mark.slow  # bot processes


def fake_python(directory: Path, *, has_eval7: bool, extra_path: Path | None = None) -> Path:
    """A ``python3`` in ``directory``: the kit's interpreter behind a wrapper, either without
    its site-packages (``-S``: a user's Python where eval7 is not installed) or with them, and
    ``extra_path`` added (a user's Python with packages of its own)."""
    directory.mkdir(parents=True, exist_ok=True)
    script = directory / "python3"
    lines = ["#!/bin/sh"]
    if extra_path is not None:
        lines.append(f'export PYTHONPATH="{extra_path}"')
    flags = "" if has_eval7 else " -S"
    lines.append(f'exec "{sys.executable}"{flags} "$@"')
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_kit_puts_the_kits_interpreter_first() -> None:
    choice = choose_python("kit")
    assert choice.executable == sys.executable
    assert choice.bot_path("/usr/bin").split(os.pathsep) == [
        str(Path(sys.executable).parent),
        "/usr/bin",
    ]


def test_path_leaves_path_alone(tmp_path: Path) -> None:
    user = fake_python(tmp_path / "bin", has_eval7=False)
    choice = choose_python("path", path=str(tmp_path / "bin"))
    assert choice.executable == str(user)
    assert choice.bot_path("/x:/y") == "/x:/y"


def test_auto_takes_the_users_python_when_it_has_eval7(tmp_path: Path) -> None:
    user = fake_python(tmp_path / "bin", has_eval7=True)
    choice = choose_python("auto", path=str(tmp_path / "bin"))
    assert choice.executable == str(user) and choice.first_on_path is None


def test_auto_falls_back_to_the_kit_when_the_users_python_lacks_eval7(tmp_path: Path) -> None:
    fake_python(tmp_path / "bin", has_eval7=False)
    choice = choose_python("auto", path=str(tmp_path / "bin"))
    assert choice.executable == sys.executable
    assert "has no eval7" in choice.reason and str(tmp_path / "bin") in choice.reason


def test_the_probe_finds_eval7_without_importing_it(tmp_path: Path) -> None:
    """The question is whether eval7 is installed for that interpreter; importing it took the
    probe 50 ms more. A user's eval7 that marks its import is found, and never imported."""
    packages = tmp_path / "packages"
    marker = tmp_path / "imported"
    (packages / "eval7").mkdir(parents=True)
    (packages / "eval7" / "__init__.py").write_text(
        f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8"
    )
    # Without its site-packages, this interpreter's only eval7 is the one in `packages`.
    user = fake_python(tmp_path / "bin", has_eval7=False, extra_path=packages)
    choice = choose_python("auto", path=str(tmp_path / "bin"))
    assert choice.executable == str(user) and choice.first_on_path is None
    assert not marker.exists()
    # The same interpreter without that folder has none: the kit's comes first.
    bare = fake_python(tmp_path / "bare", has_eval7=False)
    choice = choose_python("auto", path=str(bare.parent))
    assert choice.executable == sys.executable and "has no eval7" in choice.reason


def test_a_probe_started_early_is_the_one_choose_python_reads(tmp_path: Path) -> None:
    """``pokerbots`` asks the user's python3 about eval7 while it imports its own modules:
    the answer is collected, not asked a second time."""
    user = fake_python(tmp_path / "bin", has_eval7=False)
    asked = tmp_path / "asked"
    text = user.read_text(encoding="utf-8").replace(
        "#!/bin/sh\n", f'#!/bin/sh\necho >> "{asked}"\n'
    )
    user.write_text(text, encoding="utf-8")
    path = str(tmp_path / "bin")
    start_probe(path)
    start_probe(path)  # once per interpreter
    choice = choose_python("auto", path=path)
    assert "has no eval7" in choice.reason
    assert asked.read_text(encoding="utf-8").count("\n") == 1


def test_an_answer_nobody_reads_is_stopped_at_exit(tmp_path: Path) -> None:
    """A probe whose answer the command never needed (its config chose "kit") is stopped
    when the command exits, not waited for."""
    slow = tmp_path / "bin" / "python3"
    slow.parent.mkdir()
    finished = tmp_path / "finished"
    slow.write_text(f'#!/bin/sh\nsleep 5\ntouch "{finished}"\n', encoding="utf-8")
    slow.chmod(0o755)
    code = (
        "from local_runner.programs import interpreter; "
        f"interpreter.start_probe({str(slow.parent)!r})"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    assert not finished.exists()  # killed at exit: a wait would have let it finish


def test_a_named_interpreter_is_python3_and_python_for_the_bot(tmp_path: Path) -> None:
    # A virtual environment's interpreter, named by path, with a package only it has: the
    # bot's python3 and python must be that venv (a symbolic link to its interpreter from
    # another folder starts the base Python without the venv's packages).
    venv = tmp_path / "my venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    code = "import sys; print(sys.prefix)"
    site = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import site; print(site.getsitepackages()[0])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "only_in_my_venv.py").write_text("MARK = 7\n", encoding="utf-8")
    choice = choose_python(str(venv / "bin" / "python"))
    assert choice.first_on_path is not None
    for name in ("python3", "python"):
        shim = Path(choice.first_on_path) / name
        run = subprocess.run(
            [str(shim), "-c", f"import only_in_my_venv; {code}"], capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        assert Path(run.stdout.strip()) == venv


def test_a_bad_named_interpreter_is_a_config_error_that_says_what_to_use(tmp_path: Path) -> None:
    with pytest.raises(InterpreterError, match='Use "auto", "path", "kit"'):
        choose_python(str(tmp_path / "missing"))
    assert issubclass(InterpreterError, KitError)  # the command line reports it as a usage error


def test_the_config_file_chooses_the_interpreter(tmp_path: Path) -> None:
    path = tmp_path / "match.toml"
    path.write_text('[runner]\npython = "path"\n', encoding="utf-8")
    assert load_config(path).runner.python == "path"
    path.write_text("[runner]\npython = 3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="python must be a string"):
        load_config(path)


USES_USER_PACKAGE = """
    import userpkg  # installed only for the user's own Python
    from sdk import Bot, CheckAction, CallAction, parse_args, run_bot

    class Player(Bot):
        def get_action(self, game_state, round_state, active):
            legal = round_state.legal_actions()
            return CheckAction() if CheckAction in legal else CallAction()

    run_bot(Player(), parse_args())
"""


def test_a_bot_finds_the_packages_of_the_users_python_and_a_missing_one_is_explained(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packages = tmp_path / "site"
    (packages / "userpkg").mkdir(parents=True)
    (packages / "userpkg" / "__init__.py").write_text("", encoding="utf-8")
    user_bin = tmp_path / "userbin"
    fake_python(user_bin, has_eval7=True, extra_path=packages)
    monkeypatch.setenv("PATH", os.pathsep.join([str(user_bin), os.environ["PATH"]]))
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "player.py").write_text(textwrap.dedent(USES_USER_PACKAGE), encoding="utf-8")
    os.symlink(Path(__file__).resolve().parents[2] / "sdk", bot / "sdk")
    (bot / "commands.json").write_text(
        json.dumps({"build": [], "run": ["python3", "player.py"]}), encoding="utf-8"
    )
    rules = Rules.for_variant("nlhe").replace(num_rounds=20)
    specs = [BotSpec.parse(str(bot)), BotSpec.parse("builtin:checkcall")]

    result = run_scrimmage(specs, ScrimmageConfig(rules=rules, seed=1), tmp_path / "auto")
    assert result.players[0].fault_counts == {}  # auto: the user's python3 (it has eval7)
    assert result.players[0].decisions > 0

    kit = ScrimmageConfig(rules=rules, seed=1).with_overrides(python="kit")
    result = run_scrimmage(specs, kit, tmp_path / "kit")
    assert result.players[0].decisions == 0
    log = (tmp_path / "kit" / "bot.log").read_text(encoding="utf-8")
    assert "python3 for this bot: the kit's own interpreter" in log
    assert "No module named 'userpkg'" in log


def test_the_kits_own_python3_on_path_is_not_asked_about_eval7(tmp_path: Path) -> None:
    """With the kit's virtualenv first on PATH (an activated venv), its ``python3`` is the
    kit's interpreter under another name: nothing to ask.  Another folder's link to the same
    file (another virtualenv, with packages of its own) is asked."""
    kit = Path(sys.executable)
    here = tmp_path / "venv" / "bin"
    here.mkdir(parents=True)
    (here / "python").symlink_to(os.path.realpath(kit))
    (here / "python3").symlink_to("python")
    assert _same_file(str(here / "python3"), str(here / "python"))
    other = tmp_path / "other" / "bin"
    other.mkdir(parents=True)
    (other / "python3").symlink_to(os.path.realpath(kit))
    assert not _same_file(str(other / "python3"), str(here / "python"))
