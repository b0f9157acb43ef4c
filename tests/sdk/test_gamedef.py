"""sdk.gamedef: reading ACPC game definitions, the kit's playability check, the 2009 presets.

The fixtures in tests/acpc_games/ are written from the parameter values of the ACPC
server's example games (see the README there); the presets are checked against them and
against the 2009 competition rules.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sdk.gamedef import (
    ACPC_GAMES,
    NO_STACK_LIMIT,
    UNLIMITED_RAISES,
    GameDef,
    GameDefError,
    parse_gamedef,
)

GAMES = Path(__file__).resolve().parents[1] / "acpc_games"


def read(name: str) -> GameDef:
    return parse_gamedef((GAMES / f"{name}.game").read_text())


HOLDEM = {"num_suits": 4, "num_ranks": 13, "num_hole_cards": 2, "num_board_cards": (0, 3, 1, 1)}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        (
            "holdem-limit-2p",
            GameDef(
                betting="limit",
                num_players=2,
                num_rounds=4,
                stack=(NO_STACK_LIMIT,) * 2,
                blind=(10, 5),
                raise_size=(10, 10, 20, 20),
                first_player=(2, 1, 1, 1),
                max_raises=(3, 4, 4, 4),
                **HOLDEM,  # type: ignore[arg-type]
            ),
        ),
        (
            "holdem-nolimit-2p",
            GameDef(
                betting="nolimit",
                num_players=2,
                num_rounds=4,
                stack=(20000, 20000),
                blind=(100, 50),
                raise_size=(0, 0, 0, 0),
                first_player=(2, 1, 1, 1),
                max_raises=(UNLIMITED_RAISES,) * 4,
                **HOLDEM,  # type: ignore[arg-type]
            ),
        ),
        (
            "holdem-limit-3p",
            GameDef(
                betting="limit",
                num_players=3,
                num_rounds=4,
                stack=(NO_STACK_LIMIT,) * 3,
                blind=(5, 10, 0),
                raise_size=(10, 10, 20, 20),
                first_player=(3, 1, 1, 1),
                max_raises=(3, 4, 4, 4),
                **HOLDEM,  # type: ignore[arg-type]
            ),
        ),
        (
            "holdem-nolimit-3p",
            GameDef(
                betting="nolimit",
                num_players=3,
                num_rounds=4,
                stack=(20000,) * 3,
                blind=(50, 100, 0),
                raise_size=(0,) * 4,
                first_player=(3, 1, 1, 1),
                max_raises=(UNLIMITED_RAISES,) * 4,
                **HOLDEM,  # type: ignore[arg-type]
            ),
        ),
        (
            "holdem-nolimit-6p",
            GameDef(
                betting="nolimit",
                num_players=6,
                num_rounds=4,
                stack=(20000,) * 6,
                blind=(50, 100, 0, 0, 0, 0),
                raise_size=(0,) * 4,
                first_player=(3, 1, 1, 1),
                max_raises=(UNLIMITED_RAISES,) * 4,
                **HOLDEM,  # type: ignore[arg-type]
            ),
        ),
        (
            "kuhn-limit-3p",
            GameDef(
                betting="limit",
                num_players=3,
                num_rounds=1,
                stack=(NO_STACK_LIMIT,) * 3,
                blind=(1, 1, 1),
                raise_size=(1,),
                first_player=(1,),
                max_raises=(1,),
                num_suits=1,
                num_ranks=4,
                num_hole_cards=1,
                num_board_cards=(0,),
            ),
        ),
    ],
)
def test_fixtures_parse(name: str, expected: GameDef) -> None:
    game = read(name)
    assert game == expected
    assert parse_gamedef(game.to_text()) == game


@pytest.mark.parametrize(
    "name",
    [
        "holdem-limit-2p",
        "holdem-nolimit-2p",
        "holdem-limit-3p",
        "holdem-nolimit-3p",
        "holdem-nolimit-6p",
    ],
)
def test_the_servers_holdem_games_are_playable(name: str) -> None:
    game = read(name)
    assert game.unplayable_reason() is None
    assert game.playable


def test_kuhn_poker_is_not_playable_and_says_why() -> None:
    game = read("kuhn-limit-3p")
    assert not game.playable
    assert game.unplayable_reason() == (
        "The kit cannot play this game: it is not Texas hold'em (a deck of 1 suit of 4 ranks, "
        "1 hole card, 1 round with 0 board cards), and the kit plays only hold'em: 4 suits of "
        "13 ranks, 2 hole cards, 4 rounds with 0 3 1 1 board cards."
    )


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"blind": (5, 10)}, "the blinds by position are 5 10, where the kit needs 'big small'"),
        ({"blind": (10, 0)}, "needs 'big small' with 0 < small <= big"),
        ({"first_player": (1, 1, 1, 1)}, "firstPlayer is 1 1 1 1, where the kit plays 2 1 1 1"),
        ({"stack": (400, 500)}, "the stacks differ by position (400 500)"),
        ({"max_raises": (3, 4, 4, 4)}, "maxRaises caps the raises of a no-limit game at 3 4 4 4"),
        ({"num_board_cards": (0, 3, 2, 0)}, "it is not Texas hold'em"),
    ],
)
def test_unplayable_hold_em_variations_say_why(change: dict[str, object], reason: str) -> None:
    game = replace(ACPC_GAMES["acpc-2pn"], **change)  # type: ignore[arg-type]
    message = game.unplayable_reason()
    assert message is not None and reason in message, message
    assert message.startswith("The kit cannot play this game: ") and message.endswith(".")


def test_ring_blinds_must_be_small_big_then_zero() -> None:
    game = replace(ACPC_GAMES["acpc-3pl"], blind=(10, 5, 0))
    assert "where the kit needs 'small big 0'" in (game.unplayable_reason() or "")
    game = replace(read("holdem-nolimit-6p"), blind=(50, 100, 0, 0, 0, 25))
    assert "'small big 0 0 0 0'" in (game.unplayable_reason() or "")


def test_presets_agree_with_the_servers_games_and_the_2009_rules() -> None:
    two_limit, two_nolimit, three_limit = (
        ACPC_GAMES["acpc-2pl"],
        ACPC_GAMES["acpc-2pn"],
        ACPC_GAMES["acpc-3pl"],
    )
    # The limit games are exactly the server's example games.
    assert two_limit == read("holdem-limit-2p")
    assert three_limit == read("holdem-limit-3p")
    # 2009 rules, heads-up limit: reverse blinds 5/10 (the dealer, position 1, posts the
    # small one), small bet 10 preflop and flop, big bet 20 turn and river.
    assert (two_limit.blind, two_limit.raise_size) == ((10, 5), (10, 10, 20, 20))
    # 2009 rules, no-limit: "1-2", 400 chips each, reset every hand; the server's example
    # file plays the same game at 50/100 with 20,000 chips (also 200 big blinds).
    assert (two_nolimit.blind, two_nolimit.stack) == ((2, 1), (400, 400))
    server = read("holdem-nolimit-2p")
    assert replace(server, blind=(2, 1), stack=(400, 400)) == two_nolimit
    assert server.stack[0] // server.blind[0] == two_nolimit.stack[0] // two_nolimit.blind[0]
    # 3-player: a button, a small blind and a big blind; play starts left of the big blind.
    assert three_limit.blind == (5, 10, 0) and three_limit.first_player == (3, 1, 1, 1)
    assert all(game.playable for game in ACPC_GAMES.values())
    assert sorted(ACPC_GAMES) == ["acpc-2pl", "acpc-2pn", "acpc-3pl"]


def test_the_dealers_defaults() -> None:
    game = parse_gamedef(
        "GAMEDEF\nnumPlayers 2\nnumRounds 1\nblind 2 1\nraiseSize 2\nnumSuits 4\nnumRanks 13\n"
        "numHoleCards 2\nnumBoardCards 0\nEND GAMEDEF\n"
    )
    assert game.betting == "limit"  # the default betting type
    assert game.stack == (NO_STACK_LIMIT, NO_STACK_LIMIT)
    assert game.first_player == (1,)
    assert game.max_raises == (UNLIMITED_RAISES,)


def test_nothing_is_read_after_end_gamedef_and_comments_are_skipped() -> None:
    text = (
        "# a comment first\n\n"
        + ACPC_GAMES["acpc-2pl"].to_text()
        + "this line is not a parameter\n"
    )
    assert parse_gamedef(text) == ACPC_GAMES["acpc-2pl"]
    assert parse_gamedef(text.replace("\n", "\r\n")) == ACPC_GAMES["acpc-2pl"]


BASE = ACPC_GAMES["acpc-2pl"].to_text()


def edit(old: str, new: str) -> str:
    """The acpc-2pl text with one line replaced (``new`` may be several lines or none)."""
    assert old in BASE
    return BASE.replace(old + "\n", new + "\n" if new else "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no GAMEDEF line"),
        ("numPlayers = 2\nGAMEDEF\n", "line 1: expected the line GAMEDEF"),
        (BASE.replace("END GAMEDEF\n", ""), "without an END GAMEDEF line"),
        (edit("limit", "limit 3"), "line 2: 'limit' takes no values"),
        (edit("limit", "limit\nnolimit"), "line 3: the betting type is given twice"),
        (edit("numRounds = 4", "numRound = 4"), "line 4: unknown parameter 'numRound'"),
        (edit("numRounds = 4", "= 4"), "line 4: expected a parameter name"),
        (edit("numRounds = 4", "numRounds = 4\nnumrounds 4"), "line 5: numRounds is given twice"),
        (edit("numRounds = 4", "numRounds ="), "line 4: numRounds has no value"),
        (edit("numRounds = 4", "numRounds = four"), "not 'four'"),
        (edit("numRounds = 4", "numRounds = 4 4"), "line 4: numRounds takes one value, not 2"),
        (edit("numRounds = 4", ""), "has no numRounds line; add one"),
        (edit("raiseSize = 10 10 20 20", ""), "a limit game needs raiseSize"),
        (edit("numPlayers = 2", "numPlayers = 11"), "line 3: numPlayers is 11"),
        (edit("numRounds = 4", "numRounds = 5"), "line 4: numRounds is 5"),
        (edit("blind = 10 5", "blind = 10"), "line 5: blind has 1 values, but numPlayers is 2"),
        (edit("raiseSize = 10 10 20 20", "raiseSize = 10 20"), "line 6: raiseSize has 2 values"),
        (edit("raiseSize = 10 10 20 20", "raiseSize = 10 0 20 20"), "line 6: raiseSize: a limit"),
        (edit("blind = 10 5", "blind = 10 -5"), "line 5: blind: position 1's blind is -5"),
        (edit("blind = 10 5", "stack = 8 400\nblind = 10 5"), "line 6: blind: position 0's blind"),
        (edit("firstPlayer = 2 1 1 1", "firstPlayer = 3 1 1 1"), "line 7: firstPlayer: each"),
        (edit("maxRaises = 3 4 4 4", "maxRaises = 3 4 4 256"), "line 8: maxRaises"),
        (edit("numSuits = 4", "numSuits = 5"), "line 9: numSuits: 5 suits"),
        (edit("numRanks = 13", "numRanks = 14"), "line 10: numRanks: 14 ranks"),
        (edit("numHoleCards = 2", "numHoleCards = 4"), "line 11: numHoleCards: 4"),
        (edit("numRanks = 13", "numRanks = 2"), "deals 9 cards (2 x 2 hole cards and 5 on"),
        (edit("numBoardCards = 0 3 1 1", "numBoardCards = 0 3 1 -1"), "line 12: numBoardCards"),
        (edit("numSuits = 4", "GAMEDEF"), "line 9: a second GAMEDEF"),
    ],
)
def test_bad_input_names_the_line_and_the_problem(text: str, message: str) -> None:
    with pytest.raises(GameDefError) as caught:
        parse_gamedef(text)
    assert message in str(caught.value), str(caught.value)


def test_construction_is_checked_too() -> None:
    with pytest.raises(GameDefError, match="blind: 1 values for 2 positions"):
        replace(ACPC_GAMES["acpc-2pl"], blind=(10,))
    with pytest.raises(GameDefError, match="the betting type is 'pot'"):
        replace(ACPC_GAMES["acpc-2pl"], betting="pot")  # type: ignore[arg-type]
    with pytest.raises(GameDefError, match="is not whole numbers"):
        replace(ACPC_GAMES["acpc-2pl"], num_suits=4.0)  # type: ignore[arg-type]


@st.composite
def games(draw: st.DrawFn) -> GameDef:
    """Random valid game definitions (any deck, betting, seats and rounds the dealer allows)."""
    players = draw(st.integers(2, 10))
    rounds = draw(st.integers(1, 4))
    betting: Literal["limit", "nolimit"] = "limit" if draw(st.booleans()) else "nolimit"
    suits, ranks = draw(st.integers(1, 4)), draw(st.integers(1, 13))
    hole = draw(st.integers(1, 3))
    board = draw(st.lists(st.integers(0, 3), min_size=rounds, max_size=rounds))
    if players * hole + sum(board) > suits * ranks or sum(board) > 7:
        suits, ranks, hole, board = 4, 13, 1, [0] * rounds
    stack = draw(st.lists(st.integers(1, NO_STACK_LIMIT), min_size=players, max_size=players))
    blind = [draw(st.integers(0, s)) for s in stack]
    per_round = st.lists(st.integers(1, 50), min_size=rounds, max_size=rounds)
    return GameDef(
        betting=betting,
        num_players=players,
        num_rounds=rounds,
        stack=tuple(stack),
        blind=tuple(blind),
        raise_size=tuple(draw(per_round)) if betting == "limit" else (0,) * rounds,
        first_player=tuple(
            draw(st.lists(st.integers(1, players), min_size=rounds, max_size=rounds))
        ),
        max_raises=tuple(
            draw(st.lists(st.integers(0, UNLIMITED_RAISES), min_size=rounds, max_size=rounds))
        ),
        num_suits=suits,
        num_ranks=ranks,
        num_hole_cards=hole,
        num_board_cards=tuple(board),
    )


@settings(max_examples=300, deadline=None)
@given(games(), st.booleans())
def test_text_round_trip(game: GameDef, shout: bool) -> None:
    text = game.to_text()
    assert parse_gamedef(text.upper() if shout else text) == game
    reason = game.unplayable_reason()
    assert (reason is None) == game.playable
    if reason is not None:
        assert reason.startswith("The kit cannot play this game: ")
