"""The competition metadata of a bot: the fields of its README.txt.

The ACPC rules ask every submission for a README.txt naming the team, its
affiliation, leader and members with e-mails, location, a short summary of
the technique and references.  ``pokerbots new`` writes it and
``pokerbots validate`` reads it back; both use this module, so the format is
defined once::

    Bot name: my-bot
    Team name: The Folding Chairs
    Affiliation: Example University
    Team leader: Ada Lovelace <ada@example.org>
    Team members:
      - Ada Lovelace <ada@example.org>
      - Alan Turing <alan@example.org>
    Location: Cambridge, Massachusetts, USA
    Variant: nlhe
    Profile: mit
    Game: holdem.nolimit.2p.reverse_blinds.game

    Technique summary:
      One or two paragraphs ...

    References:
      - ...

``Profile`` names the competition the bot is entered in (``mit`` or ``acpc``,
see :data:`PROFILES`), and ``Game`` the ACPC game definition file (in the bot's
folder) that an ACPC bot plays instead of its variant's preset; both headings are
optional, so README files written before them still read back (with None).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from sdk.errors import KitError

__all__ = [
    "EMAIL_PATTERN",
    "FIELDS",
    "METADATA_NAMES",
    "PROFILES",
    "Metadata",
    "MetadataError",
    "Person",
    "declared_profile",
    "declared_variant",
    "is_email",
    "metadata_path",
    "parse_person",
    "paragraphs",
    "parse_readme",
    "render_readme",
]

#: A deliberately plain e-mail check: something@domain.tld, no spaces or angle brackets.
EMAIL_PATTERN = re.compile(r"^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,.]+$")

#: The competitions a bot can be entered in: MIT Pokerbots, or the ACPC (2009 rules).
PROFILES: tuple[str, ...] = ("mit", "acpc")

#: README.txt headings, in order, with the attribute each fills.
FIELDS: tuple[tuple[str, str], ...] = (
    ("Bot name", "bot_name"),
    ("Team name", "team_name"),
    ("Affiliation", "affiliation"),
    ("Team leader", "leader"),
    ("Team members", "members"),
    ("Location", "location"),
    ("Variant", "variant"),
    ("Profile", "profile"),
    ("Game", "game"),
    ("Technique summary", "technique"),
    ("References", "references"),
)


class MetadataError(KitError, ValueError):
    """Metadata that is missing or malformed; the message names the field and the fix."""


def is_email(text: str) -> bool:
    """Whether ``text`` looks like an e-mail address."""
    return bool(EMAIL_PATTERN.match(text))


@dataclass(frozen=True, slots=True)
class Person:
    """A team member: a name and an e-mail address."""

    name: str
    email: str

    def __str__(self) -> str:
        return f"{self.name} <{self.email}>"


def parse_person(text: str, what: str = "team member") -> Person:
    """Read ``Name <email>`` (or ``Name, email``); :class:`MetadataError` if malformed."""
    text = text.strip()
    match = re.fullmatch(r"(.+?)\s*<([^<>]*)>", text) or re.fullmatch(r"(.+?)\s*,\s*(\S+)", text)
    if not match:
        raise MetadataError(
            f"The {what} {text!r} needs a name and an e-mail, written 'Name <name@example.org>'."
        )
    name, email = match.group(1).strip(), match.group(2).strip()
    if not name:
        raise MetadataError(f"The {what} {text!r} has no name before the e-mail address.")
    if not is_email(email):
        raise MetadataError(
            f"The {what} {name!r} has a malformed e-mail {email!r}; write it like name@example.org."
        )
    return Person(name, email)


@dataclass(frozen=True, slots=True)
class Metadata:
    """Everything README.txt says about a bot and its team."""

    bot_name: str
    team_name: str
    affiliation: str
    leader: Person
    members: tuple[Person, ...]
    location: str
    variant: str
    technique: str
    references: tuple[str, ...] = field(default=())
    profile: str | None = None
    """The competition (one of :data:`PROFILES`), or None when README.txt does not say."""
    game: str | None = None
    """The ACPC game definition file the bot plays (a file name in its folder), or None:
    the preset of its variant."""

    def validate(self) -> None:
        """Raise :class:`MetadataError` for an empty required field or an unknown profile."""
        if self.profile is not None and self.profile not in PROFILES:
            raise MetadataError(
                f"Profile {self.profile!r} is unknown; write one of {', '.join(PROFILES)} "
                "after 'Profile:' (or remove the line)."
            )
        for heading, attribute in FIELDS:
            value = getattr(self, attribute)
            if attribute in ("references", "profile", "game"):
                continue  # "References to relevant papers, if any"; profile and game optional
            if isinstance(value, str) and not value.strip():
                raise MetadataError(
                    f"{heading} is empty; every README.txt field must be filled in."
                )
            if attribute == "members" and not value:
                raise MetadataError("Team members is empty; list at least the team leader.")


def paragraphs(text: str) -> str:
    """``text`` with each line stripped and paragraphs separated by exactly one blank line.

    This is how README.txt keeps a multi-line answer, so it reads back unchanged.
    """
    blocks: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.strip():
            blocks[-1].append(line.strip())
        elif blocks[-1]:
            blocks.append([])
    return "\n\n".join("\n".join(block) for block in blocks if block)


def _indent(text: str) -> list[str]:
    return ["  " + line if line.strip() else "" for line in text.strip().splitlines()]


def render_readme(metadata: Metadata) -> str:
    """The README.txt text for ``metadata`` (ends with a newline)."""
    lines = [
        f"Bot name: {metadata.bot_name}",
        f"Team name: {metadata.team_name}",
        f"Affiliation: {metadata.affiliation}",
        f"Team leader: {metadata.leader}",
        "Team members:",
        *(f"  - {member}" for member in metadata.members),
        f"Location: {metadata.location}",
        f"Variant: {metadata.variant}",
        *([f"Profile: {metadata.profile}"] if metadata.profile is not None else []),
        *([f"Game: {metadata.game}"] if metadata.game is not None else []),
        "",
        "Technique summary:",
        *_indent(metadata.technique),
        "",
        "References:",
        *(f"  - {reference}" for reference in metadata.references),
    ]
    if not metadata.references:
        lines.append("  (none)")
    return "\n".join(lines) + "\n"


_OPTIONAL_HEADINGS = ("Profile", "Game")
_HEADING = re.compile(r"^([A-Z][A-Za-z ]+):\s*(.*)$")


def parse_readme(text: str) -> Metadata:
    """Read README.txt back; :class:`MetadataError` names the first missing or malformed field."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for raw in text.splitlines():
        match = _HEADING.match(raw)
        if match and match.group(1) in dict(FIELDS):
            current = sections.setdefault(match.group(1), [])
            if match.group(2).strip():
                current.append(match.group(2).strip())
        elif current is not None:
            current.append(raw.strip())  # blank lines kept: they separate paragraphs
    missing = [
        heading
        for heading, _ in FIELDS
        if heading not in sections and heading not in _OPTIONAL_HEADINGS
    ]
    if missing:
        raise MetadataError(
            f"README.txt has no {', '.join(repr(h + ':') for h in missing)} heading; "
            "regenerate it with `pokerbots new` or add the heading with its value."
        )

    def one(heading: str) -> str:
        return " ".join(line for line in sections[heading] if line)

    def items(heading: str) -> list[str]:
        lines = (line.removeprefix("- ").strip() for line in sections[heading])
        return [line for line in lines if line and line != "(none)"]

    metadata = Metadata(
        bot_name=one("Bot name"),
        team_name=one("Team name"),
        affiliation=one("Affiliation"),
        leader=parse_person(one("Team leader"), "team leader"),
        members=tuple(parse_person(line) for line in items("Team members")),
        location=one("Location"),
        variant=one("Variant"),
        technique=paragraphs("\n".join(sections["Technique summary"])),
        references=tuple(items("References")),
        profile=one("Profile").strip().lower() if "Profile" in sections else None,
        game=one("Game").strip() or None if "Game" in sections else None,
    )
    metadata.validate()
    return metadata


#: The names of the metadata file, in the order they are looked for: the ACPC server's check
#: looks for ``README``; ``pokerbots new`` writes ``README.txt`` for the MIT profile.
METADATA_NAMES = ("README", "README.txt")
_PROFILE_LINE = re.compile(rb"^Profile:[ \t]*([A-Za-z]*)[ \t]*\r?$", re.MULTILINE)
_READ = 1 << 16  # bytes of a README searched for the Profile line
_VARIANT_LINE = re.compile(rb"^Variant:[ \t]*([A-Za-z0-9_.-]*)[ \t]*\r?$", re.MULTILINE)


def metadata_path(root: Path) -> Path | None:
    """The bot's metadata file: ``README`` (the ACPC name), else ``README.txt``, else None."""
    for name in METADATA_NAMES:
        if (root / name).is_file():
            return root / name
    return None


def _metadata_line(root: Path, line: re.Pattern[bytes]) -> tuple[str, Path] | None:
    """The value of one metadata line (``line`` captures it) and the file it is in; None
    without a metadata file, the line, or a value.  Only the file's start is read, so a
    README that is otherwise incomplete still says it."""
    readme = metadata_path(root)
    if readme is None:
        return None
    try:
        with open(readme, "rb") as file:
            found = line.search(file.read(_READ))
    except OSError:
        return None
    if found is None or not found.group(1):
        return None
    return found.group(1).decode(), readme


def declared_profile(root: Path) -> tuple[str, Path] | None:
    """The profile the ``Profile:`` line of the bot's metadata names, and that file; None
    when there is no such line (or it names no known profile)."""
    found = _metadata_line(root, _PROFILE_LINE)
    if found is None or found[0].lower() not in PROFILES:
        return None
    return found[0].lower(), found[1]


def declared_variant(root: Path) -> str | None:
    """What the ``Variant:`` line of the bot's metadata says (None without the line);
    whether it names a game is for :func:`~local_runner.submission.infer.infer_game` to say."""
    found = _metadata_line(root, _VARIANT_LINE)
    return None if found is None else found[0]
