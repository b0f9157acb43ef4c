"""Create a bot project from the cookiecutter template: the library behind ``pokerbots new``.

:func:`create_bot` validates the answers (all of them, before anything is written),
renders the template ``templates/bot`` with the real ``cookiecutter`` package into a
temporary directory, vendors the installed kit's SDK into its ``sdk/`` with
:func:`local_runner.submission.vendor.vendor_sdk`, and only then copies the finished project to
its place::

    from pathlib import Path
    from local_runner.submission.new import create_bot

    create_bot(Path("my-bot"), {"team_name": "The Folding Chairs", "variant": "auction"})

Answers are plain strings keyed as in :data:`QUESTIONS`; a missing answer takes its
value from :data:`DEFAULT_ANSWERS`, except the bot name, which defaults to the name of
the project's directory.  Two answers hold lists: ``members`` separates people with
``;`` (``"Ada Lovelace <ada@example.org>; Alan Turing <alan@example.org>"``; empty means
the leader alone), and ``references`` puts one reference per line.

User text never reaches Jinja as a template: cookiecutter renders every public context
value, so the answers travel only inside the README text, which is computed here with
:func:`local_runner.submission.metadata.render_readme` and handed over as the private (never
rendered) value ``_readme``.  The public values, ``bot_name`` and ``variant``, are
validated to a small alphabet first.  A value like ``{{ 7*7 }}`` therefore ends up in
README.txt literally, and no answer is ever executed.
"""

from __future__ import annotations

import json
import re
import shutil
import stat
import tempfile
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from sdk.errors import KitError
from sdk.gamedef import ACPC_GAMES, GameDef, GameDefError, parse_gamedef
from sdk.games import GAMES, MIT_VARIANTS, SEASONS, VARIANTS, native_wire
from sdk.rules import Rules

from .metadata import (
    PROFILES,
    Metadata,
    MetadataError,
    Person,
    is_email,
    metadata_path,
    paragraphs,
    parse_readme,
    render_readme,
)
from .strategies import install_strategy, strategy_problem
from .vendor import SdkRefresh, SdkRefreshError, plan_sdk_refresh, refresh_sdk, vendor_sdk

__all__ = [
    "BOT_NAME_PATTERN",
    "DEFAULT_ANSWERS",
    "GAME_FILE_PATTERN",
    "MEMBER_SEPARATOR",
    "NewBotError",
    "OVERWRITE_FLAG",
    "ProjectChanges",
    "QUESTIONS",
    "Question",
    "answer_problem",
    "create_bot",
    "default_profile",
    "game_file_variant",
    "game_variant",
    "metadata_from_answers",
    "normalize_answers",
    "readme_answers",
    "refresh_bot",
    "target_problem",
    "template_directory",
]

#: The command-line flag that lets ``--force`` overwrite files the author edited.
OVERWRITE_FLAG = "--overwrite-edited"

#: A bot name is used as a directory name and an identifier: a letter, then letters,
#: digits, ``-`` or ``_``, at most 64 characters in all.
BOT_NAME_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,63}")

#: What separates team members in the ``members`` answer.
MEMBER_SEPARATOR = ";"


@dataclass(frozen=True, slots=True)
class Question:
    """One answer ``pokerbots new`` asks for."""

    key: str
    """The answer's key in the answers mapping (and in ``--set KEY=VALUE``)."""
    prompt: str
    """The question as the interactive prompt asks it."""
    required: bool = True
    """False when the answer may be empty."""
    multiline: bool = False
    """True for answers of several lines (the technique summary, the references)."""
    choices: tuple[str, ...] = ()
    """The allowed answers, when there is a fixed set."""


#: Every question, in the order they are asked.
QUESTIONS: tuple[Question, ...] = (
    Question("bot_name", "Bot name (letters, digits, '-' and '_'; starts with a letter)"),
    Question("team_name", "Team name"),
    Question("affiliation", "Affiliation (university or company)"),
    Question("leader_name", "Team leader's name"),
    Question("leader_email", "Team leader's e-mail"),
    Question(
        "members",
        "Team members as 'Name <e-mail>', separated by ';' (empty: the leader alone)",
        required=False,
    ),
    Question("city", "City"),
    Question("region", "Province or state (may be empty)", required=False),
    Question("country", "Country"),
    Question("technique", "Technique summary, one or two paragraphs", multiline=True),
    Question("references", "References, one per line (may be empty)", False, multiline=True),
    # An ACPC game makes an ACPC bot: startme.sh HOST PORT on the ACPC wire, profile acpc.
    Question("variant", "Target variant", choices=VARIANTS),
    Question("profile", "Competition (mit: MIT Pokerbots; acpc: the ACPC rules)", choices=PROFILES),
)

_KEYS = tuple(question.key for question in QUESTIONS)
_BY_KEY = {question.key: question for question in QUESTIONS}

#: The answers ``pokerbots new --no-input`` uses where none is given; ``skeleton/`` is
#: the template rendered with exactly these.
DEFAULT_ANSWERS: Mapping[str, str] = MappingProxyType(
    {
        "bot_name": "my-bot",
        "team_name": "My Team",
        "affiliation": "Independent",
        "leader_name": "Ada Lovelace",
        "leader_email": "ada@example.org",
        "members": "Ada Lovelace <ada@example.org>",
        "city": "Cambridge",
        "region": "Massachusetts",
        "country": "USA",
        "technique": (
            "A rule-based starter bot. Before the flop it rates its two hole cards (pairs, "
            "high cards and suited cards score higher); after the flop it rates the category "
            "of its best five-card hand with eval7.\n"
            "It bets the pot with strong hands, checks when it can, calls when its strength "
            "beats the pot odds by a margin and folds otherwise; in the auction it bids a "
            "quarter of the pot."
        ),
        "references": "",
        "variant": "nlhe",
        "profile": "mit",
    }
)

_NAMES = {
    "bot_name": "bot name",
    "team_name": "team name",
    "affiliation": "affiliation",
    "leader_name": "team leader's name",
    "leader_email": "team leader's e-mail",
    "members": "team members",
    "city": "city",
    "region": "province or state",
    "country": "country",
    "technique": "technique summary",
    "references": "references",
    "variant": "variant",
    "profile": "competition profile",
}


class NewBotError(KitError, ValueError):
    """Answers or a target that ``create_bot`` refuses; ``problems`` lists each, with its fix."""

    def __init__(self, problems: list[str] | str) -> None:
        self.problems = (problems,) if isinstance(problems, str) else tuple(problems)
        super().__init__(" ".join(self.problems))


def template_directory() -> Path:
    """The cookiecutter template ``templates/bot`` of this kit.

    Looked for inside the package first (``local_runner/templates/bot``, where an
    installed wheel keeps it), then in the kit's checkout (``templates/bot`` next to
    ``local_runner/``).
    """
    package = Path(__file__).resolve().parents[1]  # local_runner/
    for candidate in (package / "templates" / "bot", package.parent / "templates" / "bot"):
        if (candidate / "cookiecutter.json").is_file():
            return candidate
    raise NewBotError(
        f"The bot template (templates/bot/cookiecutter.json) was not found next to {package}; "
        "reinstall the kit from its checkout (pip install -e .), or run from the checkout."
    )


def default_profile(variant: str) -> str:
    """The competition a game is played in: ``mit`` for the MIT games, ``acpc`` for the
    ACPC ones (the profile's default answer follows the variant)."""
    name = variant.strip().lower()
    game = GAMES.get(SEASONS.get(name, name))
    return game.competition.profile if game is not None else "acpc"


#: What a game definition file's name may hold: it is written into startme.sh,
#: commands.json and README, so nothing a shell or a template would read.
GAME_FILE_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


def game_variant(game: GameDef) -> str | None:
    """The 2009 game a game definition file has the shape of (players and betting), or
    None: ``acpc-2pl``, ``acpc-2pn`` or ``acpc-3pl``, whatever its blinds and stacks."""
    for variant, preset in ACPC_GAMES.items():
        if (preset.num_players, preset.betting) == (game.num_players, game.betting):
            return variant
    return None


def _read_game(path: Path) -> tuple[str, str, str]:
    """The file name, text and 2009 variant of the game definition file ``path``;
    :class:`NewBotError` says why it cannot be the game of a bot."""
    if not GAME_FILE_PATTERN.fullmatch(path.name):
        raise NewBotError(
            f"The game file's name {path.name!r} would be written into startme.sh; rename it "
            "with letters, digits, '.', '-' and '_' only (such as holdem.nolimit.2p.game)."
        )
    try:
        text = path.read_text(encoding="ascii")
    except FileNotFoundError:
        raise NewBotError(f"The game definition file {path} does not exist.") from None
    except (OSError, UnicodeDecodeError) as error:
        raise NewBotError(f"The game definition file {path} cannot be read: {error}.") from None
    try:
        game = parse_gamedef(text)
        game.to_rules()
    except GameDefError as error:
        raise NewBotError(f"{path}: {error}") from None
    variant = game_variant(game)
    if variant is None:
        raise NewBotError(
            f"{path} is a {game.num_players}-player {game.betting} game; the template's ACPC "
            "bots play the shapes of the 2009 games: heads-up limit or no-limit, and "
            "three-player limit."
        )
    return path.name, text, variant


def game_file_variant(path: Path) -> str:
    """The 2009 variant a bot playing the game definition file ``path`` is written for;
    :class:`NewBotError` says why the file cannot be a bot's game."""
    return _read_game(Path(path))[2]


def _bad_character(text: str, multiline: bool) -> str | None:
    """The first character that cannot go into README.txt, described, or None."""
    for character in text:
        if multiline and character == "\n":
            continue
        category = unicodedata.category(character)
        if category == "Cc" or category in ("Zl", "Zp"):
            if character in "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029":
                return "a line break"
            return f"the control character U+{ord(character):04X}"
    return None


def _person_problem(text: str, what: str) -> str | None:
    """Why ``text`` is not ``Name <e-mail>``, or None."""
    match = re.fullmatch(r"(.+?)\s*<([^<>]*)>", text)
    if not match:
        return f"{what} {text!r} needs a name and an e-mail, written 'Name <name@example.org>'."
    name, email = match.group(1).strip(), match.group(2).strip()
    if any(mark in name for mark in "<>;"):
        return f"{what} {text!r} has '<', '>' or ';' in the name; remove them from the name."
    if not is_email(email):
        return f"{what} {name!r} has a malformed e-mail {email!r}; write it like name@example.org."
    return None


def answer_problem(key: str, value: str) -> str | None:
    """Why ``value`` cannot be the answer ``key``, as a sentence with the fix; None if it can.

    This checks one answer on its own (the interactive prompt asks again on a problem);
    :func:`normalize_answers` checks them all, together.
    """
    question = _BY_KEY.get(key)
    if question is None:
        return f"There is no question {key!r}; the answers are: {', '.join(_KEYS)}."
    if not isinstance(value, str):
        return f"The {_NAMES[key]} must be text, not {type(value).__name__}."
    name = _NAMES[key]
    text = _clean(value, question.multiline)
    bad = _bad_character(text, question.multiline)
    if bad is not None:
        where = "" if question.multiline else " (it must be on one line)"
        return f"The {name} contains {bad}{where}; remove it."
    if question.required and not text:
        return f"The {name} is empty; every README.txt field except the references is required."
    if key == "bot_name" and not BOT_NAME_PATTERN.fullmatch(text):
        return (
            f"The bot name {text!r} cannot be used as a folder name and identifier; use "
            "letters, digits, '-' and '_', starting with a letter (at most 64 characters), "
            "for example 'my-bot'."
        )
    if key == "variant" and text.lower() not in VARIANTS and text.lower() not in SEASONS:
        names = ", ".join([*VARIANTS, *SEASONS])
        return f"The variant {text!r} is unknown; choose one of: {names}."
    if key == "profile" and text.lower() not in PROFILES:
        return f"The profile {text!r} is unknown; choose one of: {', '.join(PROFILES)}."
    if key == "leader_email" and not is_email(text):
        return f"The team leader's e-mail {text!r} is malformed; write it like name@example.org."
    if key == "leader_name" and any(mark in text for mark in "<>;"):
        return "The team leader's name has '<', '>' or ';'; remove them (the e-mail is asked next)."
    if key == "members":
        for member in _split_members(text):
            problem = _person_problem(member, "The team member")
            if problem is not None:
                return problem
    return None


def _clean(value: str, multiline: bool) -> str:
    """Whitespace as README.txt keeps it: lines stripped, one blank line between paragraphs."""
    return paragraphs(value) if multiline else value.strip()


def _split_members(text: str) -> list[str]:
    return [part.strip() for part in text.split(MEMBER_SEPARATOR) if part.strip()]


def normalize_answers(
    answers: Mapping[str, str], directory_name: str | None = None
) -> dict[str, str]:
    """Every answer, checked and in canonical form; :class:`NewBotError` lists all problems.

    Missing answers take :data:`DEFAULT_ANSWERS`, except ``bot_name``, which defaults to
    ``directory_name`` when that is given.  Whitespace is normalised the way README.txt
    keeps it (ends of lines trimmed, blank lines dropped), the variant is lower-cased,
    and ``members`` is rewritten as ``Name <e-mail>; ...`` (the leader alone when empty).
    """
    problems: list[str] = []
    unknown = sorted(set(answers) - set(_KEYS))
    if unknown:
        problems.append(
            f"Unknown answer(s): {', '.join(unknown)}; the answers are: {', '.join(_KEYS)}."
        )
    merged = dict(DEFAULT_ANSWERS)
    if directory_name is not None:
        merged["bot_name"] = directory_name
    merged.update({key: value for key, value in answers.items() if key in _BY_KEY})
    season = str(merged["variant"]).strip().lower()
    if season in SEASONS:  # a season's alias names its game: mit-2026 is toss
        merged["variant"] = SEASONS[season]
    if "profile" not in answers and isinstance(merged["variant"], str):
        merged["profile"] = default_profile(merged["variant"])
    result: dict[str, str] = {}
    for key in _KEYS:
        problem = answer_problem(key, merged[key])
        if problem is not None:
            if key == "bot_name" and "bot_name" not in answers and directory_name is not None:
                problem += " The name comes from the folder name; pass bot_name to choose another."
            problems.append(problem)
            continue
        result[key] = _clean(merged[key], _BY_KEY[key].multiline)
    if problems:
        raise NewBotError(problems)
    result["variant"] = result["variant"].lower()
    result["profile"] = result["profile"].lower()
    if result["profile"] == "mit" and result["variant"] not in MIT_VARIANTS:
        raise NewBotError(
            f"The MIT Pokerbots competition does not play {result['variant']}, an ACPC game; "
            "leave the profile out (an ACPC game makes an ACPC bot) or set profile=acpc."
        )
    leader = Person(result["leader_name"], result["leader_email"])
    members = _split_members(result["members"]) or [str(leader)]
    result["members"] = f"{MEMBER_SEPARATOR} ".join(str(_person(m)) for m in members)
    metadata = metadata_from_answers(result)
    try:
        read_back = parse_readme(render_readme(metadata))
    except MetadataError as error:
        raise NewBotError(f"The answers do not make a readable README.txt: {error}") from None
    if read_back != metadata:
        changed = [
            heading
            for heading, attribute in _README_FIELDS
            if getattr(read_back, attribute) != getattr(metadata, attribute)
        ]
        raise NewBotError(
            f"The {', '.join(changed)} would not read back from README.txt as given; "
            "simplify the punctuation of those answers."
        )
    return result


_README_FIELDS = (
    ("bot name", "bot_name"),
    ("team name", "team_name"),
    ("affiliation", "affiliation"),
    ("team leader", "leader"),
    ("team members", "members"),
    ("location", "location"),
    ("variant", "variant"),
    ("profile", "profile"),
    ("technique summary", "technique"),
    ("references", "references"),
)


def _person(text: str) -> Person:
    match = re.fullmatch(r"(.+?)\s*<([^<>]*)>", text.strip())
    assert match is not None, "checked by answer_problem"
    return Person(match.group(1).strip(), match.group(2).strip())


def metadata_from_answers(answers: Mapping[str, str]) -> Metadata:
    """The README.txt metadata of normalised answers (see :func:`normalize_answers`); an
    extra ``game`` entry names the bot's ACPC game definition file."""
    location = ", ".join(
        part for part in (answers["city"], answers["region"], answers["country"]) if part
    )
    return Metadata(
        bot_name=answers["bot_name"],
        team_name=answers["team_name"],
        affiliation=answers["affiliation"],
        leader=Person(answers["leader_name"], answers["leader_email"]),
        members=tuple(_person(member) for member in _split_members(answers["members"])),
        location=location,
        variant=answers["variant"],
        technique=answers["technique"],
        references=tuple(line for line in answers["references"].split("\n") if line),
        profile=answers["profile"],
        game=answers.get("game") or None,
    )


def target_problem(path: Path, force: bool = False) -> str | None:
    """Why a project cannot be created at ``path``, as a sentence with the fix; None if it can."""
    if path.exists() and not path.is_dir():
        return f"{path} exists and is not a folder; choose another path for the bot."
    if path.is_dir() and any(path.iterdir()) and not force:
        return (
            f"The folder {path} already exists and is not empty; choose a new path, or pass "
            "--force to write the template's files into it (files you edited are listed and "
            f"kept unless you also pass {OVERWRITE_FLAG}; other files are kept). To update "
            "only the vendored SDK, run `pokerbots sdk refresh BOT_DIR`."
        )
    return None


def readme_answers(path: Path) -> dict[str, str] | None:
    """The answers held by the metadata (README, else README.txt) of the bot folder
    ``path``; None without usable ones.

    ``pokerbots new --force`` starts from these, so refreshing a bot keeps its team's
    details, profile and game file (an extra ``game`` entry).  A README the answers could
    not have produced (unreadable, or a location without a country) gives None.
    """
    readme = metadata_path(path)
    if readme is None:
        return None
    try:
        metadata = parse_readme(readme.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, MetadataError):
        return None
    parts = metadata.location.split(", ")
    if len(parts) < 2:
        return None
    answers = {
        "bot_name": metadata.bot_name,
        "team_name": metadata.team_name,
        "affiliation": metadata.affiliation,
        "leader_name": metadata.leader.name,
        "leader_email": metadata.leader.email,
        "members": f"{MEMBER_SEPARATOR} ".join(str(member) for member in metadata.members),
        "city": parts[0],
        "region": ", ".join(parts[1:-1]),
        "country": parts[-1],
        "technique": metadata.technique,
        "references": "\n".join(metadata.references),
        "variant": metadata.variant,
    }
    if metadata.profile is not None:
        answers["profile"] = metadata.profile
    try:
        normalized = normalize_answers(answers)
    except NewBotError:
        return None
    if metadata.game is not None and GAME_FILE_PATTERN.fullmatch(metadata.game):
        normalized["game"] = metadata.game
    return normalized


@dataclass(frozen=True, slots=True)
class ProjectChanges:
    """What ``pokerbots new --force`` changed in an existing bot folder (relative names).

    ``edited`` lists the files that differed from what the template wrote for the bot's
    own README answers (so the author, or an older kit, wrote them) and were overwritten
    because that was asked for; ``sdk`` is what happened to the vendored SDK (None when
    ``sdk/`` was written afresh).
    """

    added: tuple[str, ...]
    updated: tuple[str, ...]
    unchanged: tuple[str, ...]
    edited: tuple[str, ...]
    sdk: SdkRefresh | None


def _relative_files(root: Path) -> list[str]:
    """The files of a rendered project, relative and sorted (it holds no sdk/ yet)."""
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file())


def _same_file(first: Path, second: Path) -> bool:
    return (
        first.is_file()
        and not first.is_symlink()
        and second.is_file()
        and first.read_bytes() == second.read_bytes()
    )


def refresh_bot(
    path: Path, answers: Mapping[str, str] | None = None, overwrite_edited: bool = False
) -> ProjectChanges:
    """Write the template's files and the SDK into the existing bot folder ``path``.

    Answers not given are those of the bot's README.txt (:func:`readme_answers`), else the
    defaults.  A file is the author's when it differs both from the new rendering and from
    what the template renders for the README's answers; the vendored SDK's edits are told
    by ``sdk/VENDORED.json``.  Unless ``overwrite_edited``, any such file raises
    :class:`NewBotError` listing them all, before anything is written.  Files the template
    does not write are kept.
    """
    path = Path(path)
    existing = readme_answers(path)
    merged = {**(existing or {}), **(answers or {})}
    game = merged.pop("game", None)  # not a question: it comes from README's Game line
    normalized = normalize_answers(merged, directory_name=path.resolve().name)
    if game is not None and normalized["variant"] == (existing or {}).get("variant"):
        normalized["game"] = game
    template = template_directory()
    with tempfile.TemporaryDirectory(prefix="pokerbots-new-") as scratch:
        (Path(scratch) / "new").mkdir()
        (Path(scratch) / "old").mkdir()
        readme = render_readme(metadata_from_answers(normalized))
        rendered = _render(template, normalized, readme, Path(scratch) / "new")
        original = None
        if existing is not None:
            old_readme = render_readme(metadata_from_answers(existing))
            original = _render(template, existing, old_readme, Path(scratch) / "old")
        added, updated, unchanged, edited = [], [], [], []
        for name in _relative_files(rendered):
            target = path / name
            if not target.exists() and not target.is_symlink():
                added.append(name)
            elif _same_file(target, rendered / name):
                unchanged.append(name)
            elif original is not None and _same_file(target, original / name):
                updated.append(name)
            else:
                edited.append(name)
        sdk_dir = path / "sdk"
        sdk_plan = None
        if sdk_dir.is_dir() and not sdk_dir.is_symlink():
            try:
                sdk_plan = plan_sdk_refresh(sdk_dir)
            except SdkRefreshError as error:
                raise NewBotError(str(error)) from None
        sdk_edited = [f"sdk/{name}" for name in (sdk_plan.edited if sdk_plan else ())]
        if (edited or sdk_edited) and not overwrite_edited:
            raise NewBotError(
                f"These files in {path} differ from what the template wrote there (you "
                f"edited them, or an older kit wrote them): {', '.join(edited + sdk_edited)}. "
                f"--force overwrites them only with {OVERWRITE_FLAG}: save your changes "
                "elsewhere and pass it as well, or run `pokerbots sdk refresh BOT_DIR` to "
                "update only the SDK."
            )
        for name in added + updated + edited:
            target = path / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.is_symlink() or target.is_file():
                target.unlink()
            elif target.is_dir():
                shutil.rmtree(target)
            shutil.copy2(rendered / name, target)
        if sdk_plan is not None:
            refresh_sdk(sdk_dir, overwrite_edited=True)
        else:
            if sdk_dir.is_symlink() or sdk_dir.is_file():
                sdk_dir.unlink()
            vendor_sdk(sdk_dir)
    return ProjectChanges(
        tuple(added), tuple(updated), tuple(unchanged), tuple(edited + sdk_edited), sdk_plan
    )


def create_bot(
    path: Path,
    answers: Mapping[str, str] | None = None,
    force: bool = False,
    overwrite_edited: bool = False,
    strategy: str = "starter",
    game: Path | None = None,
) -> Path:
    """Create the bot project at ``path`` from ``answers``; return the project's path.

    Everything is checked before anything is written: the answers
    (:func:`normalize_answers`) and the target, which must not exist or be an empty
    folder unless ``force`` is True.  With ``force`` a non-empty folder is refreshed
    with :func:`refresh_bot`: files the author edited are refused unless
    ``overwrite_edited``.  Problems raise :class:`NewBotError` and leave the target as it
    was; an operating system error while writing (a full disk) raises ``OSError`` after
    removing what this call created.  With the ``acpc`` profile the metadata file is named
    ``README`` (the ACPC server's check looks for that name) instead of ``README.txt``.
    ``strategy`` (one of :data:`local_runner.submission.strategies.STRATEGIES`) picks the rung of
    the reference ladder the bot starts from.  ``game``, an ACPC game definition file (as
    the ACPC dealer and its ``example_player`` take), makes an ACPC bot that plays that
    game: the file is copied into the bot, ``startme.sh`` passes it with ``--game``, README
    names it on a ``Game:`` line, and the variant is the 2009 game of its shape.
    """
    strategy_error = strategy_problem(strategy)
    if strategy_error is not None:
        raise NewBotError(strategy_error)
    path = Path(path)
    game_text = None
    answers = dict(answers or {})
    if game is not None:
        game_name, game_text, variant = _read_game(Path(game))
        given = answers.setdefault("variant", variant)
        if isinstance(given, str) and given.strip().lower() != variant:
            raise NewBotError(
                f"{Path(game).name} is a game of the shape of {variant}, not {given}; leave "
                "the variant out (it follows the game file) or choose another file."
            )
    if force and path.is_dir() and any(path.iterdir()):
        if game is not None:
            raise NewBotError(
                "--game makes a new bot; to change the game of an existing one, copy the file "
                "into its folder and edit the --game argument of its startme.sh and the Game "
                "line of its README."
            )
        refresh_bot(path, answers, overwrite_edited)
        return path
    directory_name = path.resolve().name
    normalized = normalize_answers(answers, directory_name=directory_name)
    if game is not None:
        if normalized["profile"] != "acpc":
            raise NewBotError(
                "A bot with an ACPC game file is entered in the ACPC competition; "
                "leave the profile out or set profile=acpc."
            )
        normalized["game"] = game_name
    problem = target_problem(path, force)
    if problem is not None:
        raise NewBotError(problem)
    template = template_directory()
    readme = render_readme(metadata_from_answers(normalized))
    with tempfile.TemporaryDirectory(prefix="pokerbots-new-") as scratch:
        rendered = _render(template, normalized, readme, Path(scratch))
        if game_text is not None:
            (rendered / normalized["game"]).write_text(game_text, encoding="ascii")
        vendor_sdk(rendered / "sdk")
        install_strategy(rendered, strategy, normalized["variant"])
        _install(rendered, path)
    return path


def _render(template: Path, answers: Mapping[str, str], readme: str, scratch: Path) -> Path:
    """Run cookiecutter on ``template`` into ``scratch``; return the rendered project."""
    from cookiecutter.exceptions import CookiecutterException
    from cookiecutter.main import cookiecutter

    # A config of our own keeps cookiecutter away from the user's ~/.cookiecutterrc
    # (whose default_context could change the output) and writes its replay file, which
    # holds the answers, into the scratch directory rather than the user's home.
    config = scratch / "cookiecutter-config.json"  # JSON is YAML
    config.write_text(
        json.dumps(
            {
                "cookiecutters_dir": str(scratch / "cookiecutters"),
                "replay_dir": str(scratch / "replay"),
                "default_context": {},
                "abbreviations": {},
            }
        ),
        encoding="utf-8",
    )
    context = {
        "bot_name": answers["bot_name"],
        "variant": answers["variant"],
        "wire": native_wire(Rules.for_variant(answers["variant"])),
        "game_file": answers.get("game", ""),
        "_readme": readme,
    }
    try:
        project = cookiecutter(
            str(template),
            no_input=True,
            extra_context=context,
            output_dir=str(scratch / "out"),
            config_file=str(config),
            accept_hooks=False,
        )
    except CookiecutterException as error:
        raise NewBotError(
            f"The bot template at {template} could not be rendered ({error}); "
            "this is a bug in the kit, please report it."
        ) from None
    rendered = Path(project)
    # An installer byte-compiles the template's .py files next to them (pip does), and
    # cookiecutter would copy those caches into the project: drop them.
    for cache in sorted(rendered.rglob("__pycache__")):
        shutil.rmtree(cache)
    for compiled in rendered.rglob("*.py[co]"):
        compiled.unlink()
    # The template's startme.sh is executable, but an archive may lose the mode on the
    # way to the user's disk; the engine needs it executable.
    startme = rendered / "startme.sh"
    startme.chmod(startme.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    if answers["profile"] == "acpc":  # the ACPC server's check looks for this name
        (rendered / "README.txt").rename(rendered / "README")
    return rendered


def _install(rendered: Path, target: Path) -> None:
    """Copy the rendered project to ``target``; on failure remove what was created."""
    created = not target.exists()
    was_empty = not created and not any(target.iterdir())
    try:
        if created:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copytree(rendered, target, symlinks=True)
            return
        sdk = target / "sdk"
        if sdk.is_symlink() or sdk.is_file():
            sdk.unlink()
        elif sdk.is_dir():
            shutil.rmtree(sdk)
        shutil.copytree(rendered, target, symlinks=True, dirs_exist_ok=True)
    except BaseException:  # an OSError, or Ctrl-C: leave nothing half-written behind
        if created:
            shutil.rmtree(target, ignore_errors=True)
        elif was_empty:
            for child in target.iterdir():
                if child.is_dir() and not child.is_symlink():
                    shutil.rmtree(child, ignore_errors=True)
                else:
                    child.unlink(missing_ok=True)
        raise
