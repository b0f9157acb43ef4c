"""A bot's game from its metadata, else from its own files (each season's skeleton
identifiers, declared in sdk.games), with the reason said."""

from __future__ import annotations

from pathlib import Path

import pytest

from local_runner.submission.infer import infer_game
from local_runner.validation import ValidateOptions, validate
from sdk.games import GAMES


def _bot(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("name", "files", "word"),
    [
        ("toss", {"player.py": "from skeleton.actions import DiscardAction\n"}, "DiscardAction"),
        ("auction", {"src/main.cpp": "if (legal & BID) { return Action(BID, 3); }\n"}, "BID"),
        (
            "bounty",
            {"javabot/Player.java": "boolean[] hits = terminal.bounty_hits;\n"},
            "bounty_hits",
        ),
    ],
)
def test_a_seasons_identifiers_name_its_game(
    tmp_path: Path, name: str, files: dict[str, str], word: str
) -> None:
    found = infer_game(_bot(tmp_path, files))
    assert found.name == name
    assert word in found.reason and GAMES[name].competition.season in found.reason


def test_the_metadata_comes_first_and_may_name_a_season(tmp_path: Path) -> None:
    bot = _bot(tmp_path, {"player.py": "DiscardAction\n"})
    assert infer_game(bot, "mit-2024").name == "auction"
    assert "Variant line says mit-2024" in infer_game(bot, "mit-2024").reason
    assert infer_game(bot, "omaha").name == "toss"  # an unknown line says nothing


def test_two_seasons_are_an_ambiguity_that_names_the_flag(tmp_path: Path) -> None:
    bot = _bot(tmp_path, {"a.py": "BidAction\n", "b/c.java": "DISCARD_ACTION_TYPE\n"})
    found = infer_game(bot)
    assert found.name is None
    assert "mit-2024's BidAction in a.py" in found.reason and "--variant" in found.reason


def test_words_in_prose_and_the_vendored_sdk_are_not_identifiers(tmp_path: Path) -> None:
    bot = _bot(
        tmp_path,
        {
            "player.py": '"""A bot that bids for bounties and discards nothing."""\n',
            "sdk/actions.py": "class DiscardAction: ...\nclass BidAction: ...\n",
        },
    )
    assert infer_game(bot).name is None


@pytest.mark.slow  # a smoke match with a bot process
def test_validate_says_what_it_inferred(tmp_path: Path) -> None:
    from tests.validation.test_validate_profiles import stock_mit_bot

    bot = stock_mit_bot(tmp_path)
    (bot / "player.py").write_text(
        (bot / "player.py").read_text().replace("'nlhe'", "'toss'")
        + "\n# This bot's own code: from skeleton.actions import DiscardAction\n"
    )
    report = validate(bot, ValidateOptions(hands=20))
    assert report.stats["variant"] == "toss", report.to_json()
    assert "player.py uses DiscardAction" in report.stats["variant_reason"]
    assert report["smoke_match"].status.value == "pass", report.to_json()
