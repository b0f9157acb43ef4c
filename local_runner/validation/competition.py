"""The checks that depend on the competition profile: the upload's format, the metadata, junk.

Each reads the private copy (or the inspection report) and runs nothing.
"""

from __future__ import annotations

from pathlib import Path

from ..submission.archive import ArchiveReport
from ..submission.metadata import Metadata, MetadataError, Person, parse_readme
from ..submission.new import DEFAULT_ANSWERS
from .checks import BotFiles, CheckResult, format_bytes
from .profiles import mit_season

__all__ = ["check_junk", "check_readme", "check_submission_format", "placeholders"]

#: Domains and top-level domains reserved for examples and tests (RFC 2606): no team
#: member's e-mail is there.
_EXAMPLE_DOMAINS = ("example.org", "example.com", "example.net")
_EXAMPLE_TLDS = (".example", ".test", ".invalid", ".localhost")
_TEMPLATE = "Create it with `pokerbots new`, or write one from the template in docs/validate.md."


def _placeholder_fields(metadata: Metadata) -> list[tuple[str, str]]:
    """Each template placeholder ``metadata`` still holds: its README heading, and the value
    described.  The template's values are ``pokerbots new``'s defaults
    (:data:`~local_runner.submission.new.DEFAULT_ANSWERS`); an e-mail at a domain reserved
    for examples is no one's either."""
    found = []
    if metadata.team_name == DEFAULT_ANSWERS["team_name"]:
        found.append(("Team name", f"Team name {metadata.team_name!r}"))
    people: list[tuple[str, str, Person]] = [("Team leader", "Team leader", metadata.leader)]
    people += [("Team members", "Team member", member) for member in metadata.members]
    for heading, what, person in people:
        domain = person.email.rpartition("@")[2].lower()
        if (
            person.name == DEFAULT_ANSWERS["leader_name"]
            or domain in _EXAMPLE_DOMAINS
            or domain.endswith(_EXAMPLE_TLDS)
        ):
            found.append((heading, f"{what} {str(person)!r}"))
    return found


def placeholders(metadata: Metadata) -> list[str]:
    """The template's placeholder values ``metadata`` still holds (what `pokerbots new`
    writes when no answer is given), described."""
    return [described for _, described in _placeholder_fields(metadata)]


def _edit_sentence(fields: list[tuple[str, str]], readme: str) -> str:
    """Which lines of ``readme`` to edit, by their headings.

    >>> fields = [("Team name", ""), ("Team leader", ""), ("Team members", "")]
    >>> print(_edit_sentence(fields, "README")[:73])
    Edit the 'Team name:', 'Team leader:' and 'Team members:' lines of README
    """
    headings = [f"'{heading}:'" for heading in dict.fromkeys(h for h, _ in fields)]
    named = headings[0] if len(headings) == 1 else f"{', '.join(headings[:-1])} and {headings[-1]}"
    lines = "line" if len(headings) == 1 else "lines"
    return (
        f"Edit the {named} {lines} of {readme}: your team's real name, people and e-mails "
        "(`pokerbots new` asks for them)."
    )


def check_readme(
    files: BotFiles, profile: str, readme: Path | None
) -> tuple[CheckResult, Metadata | None]:
    """The bot's metadata (``readme``: README or README.txt, None if neither exists).

    ``mit``: optional, so a missing or malformed file is a warning, and so are the
    template's placeholders (the team left as ``pokerbots new``'s defaults).  ``acpc``: a
    file named README with every field the 2009 rules ask for, none of them the
    template's placeholders; README.txt alone is a warning (the server's check
    looks for README).
    """
    name = "readme"
    where = f"{files.show(files.root)}/"
    if readme is None:
        if profile == "mit":
            return CheckResult.warned(
                name,
                f"There is no README.txt in {where}; the MIT server does not need one.",
                "Add one to record the team, the variant and the profile (`pokerbots new` "
                "writes it); the kit then checks the bot against them.",
            ), None
        return CheckResult.failed(
            name,
            f"There is no file named README in {where}; the ACPC server's check looks "
            "for it and the 2009 rules ask for the team's details in it.",
            _TEMPLATE,
        ), None
    complain = CheckResult.warned if profile == "mit" else CheckResult.failed
    hint = (
        f"Fill in every field of the {readme.name} template (see docs/validate.md), with "
        "e-mails written 'Name <name@example.org>'."
    )
    try:
        metadata = parse_readme(readme.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        return complain(
            name, f"{readme.name} is not UTF-8 text.", f"Save {readme.name} as UTF-8."
        ), None
    except MetadataError as error:
        return complain(name, str(error).replace("README.txt", readme.name), hint), None
    described = f"{readme.name} describes {metadata.bot_name!r} by team {metadata.team_name!r}"
    left = _placeholder_fields(metadata)
    if left:
        # Every profile says so; the ACPC rules need real details, so there it fails.
        return complain(
            name,
            f"{readme.name} still holds the template's placeholders: "
            f"{', '.join(described for _, described in left)}.",
            _edit_sentence(left, readme.name),
        ), metadata
    if profile == "mit":
        return CheckResult.passed(name, described + "."), metadata
    if readme.name != "README":
        return CheckResult.warned(
            name,
            f"{described}, but the ACPC server's check looks for a file named README.",
            "Rename README.txt to README (for example `mv README.txt README`).",
        ), metadata
    return CheckResult.passed(name, described + "."), metadata


def check_submission_format(
    path: Path, report: ArchiveReport, profile: str, variant: str
) -> CheckResult:
    """The upload is of a kind and size the competition takes.

    ``mit``: a zip file within the year's upload limits (a folder is measured
    uncompressed; ``pokerbots package`` writes the zip).  ``acpc``: a jar, tar
    or zip file (the 2009 rules), or a folder.
    """
    name = "submission_format"
    if profile == "acpc":
        if report.kind == "directory":
            return CheckResult.passed(
                name,
                "A folder; the 2009 rules take it as a jar, tar or "
                "zip file (`pokerbots package` writes one).",
            )
        return CheckResult.passed(
            name, f"A {report.kind} file, as the 2009 rules ask (jar, tar or zip)."
        )
    season = mit_season(variant)
    limits = (
        f"{format_bytes(season.max_upload_bytes)} compressed, "
        f"{format_bytes(season.max_unzipped_bytes, True)} uncompressed"
    )
    package = "Run `pokerbots package BOT_DIR`, which writes a .zip and leaves out junk."
    if report.kind != "directory" and not path.name.lower().endswith(".zip"):
        return CheckResult.failed(
            name,
            f"{path.name} is not a .zip file; MIT uploads are zip files, opened with "
            "Python's zipfile.",
            package,
        )
    if report.kind != "directory" and report.compressed_bytes > season.max_upload_bytes:
        return CheckResult.failed(
            name,
            f"The zip is {format_bytes(report.compressed_bytes)}, over the "
            f"{season.label} upload limit ({limits}).",
            package,
        )
    if report.uncompressed_bytes > season.max_unzipped_bytes:
        return CheckResult.failed(
            name,
            f"The files add up to {format_bytes(report.uncompressed_bytes)}, over the "
            f"{season.label} limit ({limits}).",
            package,
        )
    what = "A folder" if report.kind == "directory" else "A zip file"
    return CheckResult.passed(name, f"{what} within the {season.label} limits ({limits}).")


def check_junk(junk: list[str], is_directory: bool) -> CheckResult:
    """No junk (``__MACOSX/``, ``.DS_Store``, ``runs/``, virtual environments, ``.git/``)."""
    name = "junk"
    if not junk:
        return CheckResult.passed(
            name, "No junk (macOS or Windows metadata, .git, runs/, virtual environments)."
        )
    shown = ", ".join(junk[:5]) + (f" and {len(junk) - 5} more" if len(junk) > 5 else "")
    if is_directory:
        return CheckResult.warned(
            name,
            f"The folder holds junk: {shown}; it was left out of the copy validated here.",
            "`pokerbots package` leaves it out of the archive; do not zip the folder by hand.",
        )
    return CheckResult.warned(
        name,
        f"The archive holds junk: {shown}.",
        "Re-create the archive with `pokerbots package BOT_DIR`, which leaves it out.",
    )
