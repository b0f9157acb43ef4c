"""Tests for local_runner.results.rankings: bankroll, instant run-off and cross tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from local_runner.results.rankings import (
    MatchOutcome,
    PairResult,
    RankEntry,
    bankroll_ranking,
    cross_table,
    instant_runoff_ranking,
)


def match(a: str, b: str, chips_a: int, chips_b: int | None = None) -> MatchOutcome:
    """A match where ``a`` wins ``chips_a`` (and ``b`` the negation unless given)."""
    return MatchOutcome((a, b), (chips_a, -chips_a if chips_b is None else chips_b))


# A beats everyone, B beats C and D, C beats D.  Totals: A 120, B 15, C -50, D -85.
CLEAR = [
    match("A", "B", 30),
    match("A", "C", 40),
    match("D", "A", -50),
    match("B", "C", 20),
    match("B", "D", 25),
    match("C", "D", 10),
]


def test_clear_order() -> None:
    assert bankroll_ranking(CLEAR) == [
        RankEntry(1, "A", 120, 3),
        RankEntry(2, "B", 15, 3),
        RankEntry(3, "C", -50, 3),
        RankEntry(4, "D", -85, 3),
    ]
    # Run-off: D goes first (-85); then among A, B, C: A 70, B -10, C -60; then A 30, B -30.
    # A, alone at the end, reports the round it won: 30 over its 1 match against B.
    assert instant_runoff_ranking(CLEAR) == [
        RankEntry(1, "A", 30, 1),
        RankEntry(2, "B", -30, 1),
        RankEntry(3, "C", -60, 2),
        RankEntry(4, "D", -85, 3),
    ]


def test_three_way_tie() -> None:
    # Rock-paper-scissors among A, B, C; each beats D by 5.
    outcomes = [
        match("A", "B", 10),
        match("B", "C", 10),
        match("C", "A", 10),
        match("A", "D", 5),
        match("B", "D", 5),
        match("C", "D", 5),
    ]
    assert bankroll_ranking(outcomes) == [
        RankEntry(1, "A", 5, 3),
        RankEntry(1, "B", 5, 3),
        RankEntry(1, "C", 5, 3),
        RankEntry(4, "D", -15, 3),
    ]
    assert instant_runoff_ranking(outcomes) == [
        RankEntry(1, "A", 0, 2),
        RankEntry(1, "B", 0, 2),
        RankEntry(1, "C", 0, 2),
        RankEntry(4, "D", -15, 3),
    ]


def test_bankroll_and_instant_runoff_pick_different_winners() -> None:
    # A crushes the weak D but loses to B and C; without D, A is worst.
    outcomes = [
        match("A", "D", 1000),
        match("A", "B", -100),
        match("A", "C", -100),
        match("B", "C", 50),
        match("B", "D", 100),
        match("C", "D", 100),
    ]
    assert bankroll_ranking(outcomes) == [
        RankEntry(1, "A", 800, 3),
        RankEntry(2, "B", 250, 3),
        RankEntry(3, "C", 150, 3),
        RankEntry(4, "D", -1200, 3),
    ]
    # Round 1: D (-1200) out.  Round 2: A -200, B 150, C 50: A out.  Round 3: B 50, C -50.
    assert instant_runoff_ranking(outcomes) == [
        RankEntry(1, "B", 50, 1),
        RankEntry(2, "C", -50, 1),
        RankEntry(3, "A", -200, 2),
        RankEntry(4, "D", -1200, 3),
    ]


def test_tied_bots_are_eliminated_together_and_share_a_rank() -> None:
    outcomes = [
        match("A", "B", 10),
        match("A", "C", 20),
        match("A", "D", 20),
        match("B", "C", 20),
        match("B", "D", 20),
        match("C", "D", 0),
    ]
    assert instant_runoff_ranking(outcomes) == [
        RankEntry(1, "A", 10, 1),
        RankEntry(2, "B", -10, 1),
        RankEntry(3, "C", -40, 3),
        RankEntry(3, "D", -40, 3),
    ]
    assert [e.rank for e in bankroll_ranking(outcomes)] == [1, 2, 3, 3]


def test_tie_in_the_middle_skips_the_next_rank() -> None:
    outcomes = [match("A", "B", 10), match("A", "C", 10), match("B", "D", 5), match("C", "D", 5)]
    assert bankroll_ranking(outcomes) == [
        RankEntry(1, "A", 20, 2),
        RankEntry(2, "B", -5, 2),
        RankEntry(2, "C", -5, 2),
        RankEntry(4, "D", -10, 2),
    ]


def test_final_two_tied_both_rank_first() -> None:
    outcomes = [match("B", "A", 0), match("A", "C", 30), match("B", "C", 30)]
    assert instant_runoff_ranking(outcomes) == [
        RankEntry(1, "A", 0, 1),
        RankEntry(1, "B", 0, 1),
        RankEntry(3, "C", -60, 2),
    ]


def test_bot_with_no_matches() -> None:
    bots = ["A", "B", "C", "D", "E"]
    assert bankroll_ranking(CLEAR, bots) == [
        RankEntry(1, "A", 120, 3),
        RankEntry(2, "B", 15, 3),
        RankEntry(3, "E", 0, 0),
        RankEntry(4, "C", -50, 3),
        RankEntry(5, "D", -85, 3),
    ]
    # E never loses a chip, so the run-off keeps it to the end, tied with A at 0 (A reports
    # its last contested round, 30 over 1 match against B; E never played).
    assert instant_runoff_ranking(CLEAR, bots) == [
        RankEntry(1, "A", 30, 1),
        RankEntry(1, "E", 0, 0),
        RankEntry(3, "B", -30, 1),
        RankEntry(4, "C", -60, 2),
        RankEntry(5, "D", -85, 3),
    ]
    assert bankroll_ranking([], ["x", "y"]) == [RankEntry(1, "x", 0, 0), RankEntry(1, "y", 0, 0)]
    assert instant_runoff_ranking([], ["x"]) == [RankEntry(1, "x", 0, 0)]
    assert bankroll_ranking([]) == instant_runoff_ranking([]) == []


def test_multiple_matches_per_pair_are_summed() -> None:
    outcomes = [
        match("A", "B", 10),
        match("B", "A", 4),
        match("A", "B", 7),
        match("A", "C", -2),
        match("B", "C", 1, -3),  # not zero-sum: each side keeps its own figure
    ]
    assert bankroll_ranking(outcomes) == [
        RankEntry(1, "A", 11, 4),
        RankEntry(2, "C", -1, 2),
        RankEntry(3, "B", -12, 4),
    ]
    assert cross_table(outcomes) == {
        "A": {"B": PairResult(13, 3), "C": PairResult(-2, 1)},
        "B": {"A": PairResult(-13, 3), "C": PairResult(1, 1)},
        "C": {"A": PairResult(2, 1), "B": PairResult(-3, 1)},
    }


def test_cross_table_is_sorted_and_sparse() -> None:
    table = cross_table([match("z", "a", 5), match("m", "z", 1)])
    assert list(table) == ["a", "m", "z"]
    assert list(table["z"]) == ["a", "m"]
    assert "m" not in table["a"]
    assert cross_table([]) == {}


def test_errors() -> None:
    with pytest.raises(ValueError, match="two different bots"):
        match("A", "A", 1)
    with pytest.raises(ValueError, match="missing from the given list of bots: C"):
        bankroll_ranking([match("A", "C", 1)], ["A", "B"])
    with pytest.raises(ValueError, match="more than once"):
        instant_runoff_ranking([], ["A", "A"])


# -- three-player tables -------------------------------------------------------------


def trio(players: str, *chips: int) -> MatchOutcome:
    return MatchOutcome(tuple(players), chips)


def test_three_player_runoff_stops_at_three_and_ranks_them_by_their_match() -> None:
    outcomes = [
        trio("ABC", 30, -10, -20),
        trio("ABD", -60, 30, 30),
        trio("ACD", 5, 5, -10),
        trio("BCD", -40, 30, 10),
    ]
    # Totals: A -25, B -20, C 15, D 30: bankroll ranks D first.
    assert [(e.rank, e.bot, e.bankroll, e.matches) for e in bankroll_ranking(outcomes)] == [
        (1, "D", 30, 3),
        (2, "C", 15, 3),
        (3, "B", -20, 3),
        (4, "A", -25, 3),
    ]
    # A goes; only BCD has all its players still in: C 30, D 10, B -40.
    assert instant_runoff_ranking(outcomes, table=3) == [
        RankEntry(1, "C", 30, 1),
        RankEntry(2, "D", 10, 1),
        RankEntry(3, "B", -40, 1),
        RankEntry(4, "A", -25, 3),
    ]


def test_three_player_runoff_counts_only_matches_whose_players_are_all_in() -> None:
    # Five bots, all ten groups of three.  E loses everywhere and goes first; then the
    # groups with E no longer count, so D, who beat E heavily, drops next.
    groups = ["ABC", "ABD", "ABE", "ACD", "ACE", "ADE", "BCD", "BCE", "BDE", "CDE"]
    chips = {
        "ABC": (10, 0, -10),
        "ABD": (5, 5, -10),
        "ABE": (10, 10, -20),
        "ACD": (0, 10, -10),
        "ACE": (10, 10, -20),
        "ADE": (0, 200, -200),
        "BCD": (0, 10, -10),
        "BCE": (10, 10, -20),
        "BDE": (0, 200, -200),
        "CDE": (0, 200, -200),
    }
    outcomes = [trio(group, *chips[group]) for group in groups]
    assert bankroll_ranking(outcomes)[0].bot == "D"  # the bankroll winner
    # Totals of all five: A 35, B 25, C 30, D 570, E -660: E goes.  Among A, B, C, D (the
    # groups without E): A 15, B 5, C 10, D -30; D goes.  Then ABC alone: A 10, B 0, C -10.
    assert instant_runoff_ranking(outcomes, table=3) == [
        RankEntry(1, "A", 10, 1),
        RankEntry(2, "B", 0, 1),
        RankEntry(3, "C", -10, 1),
        RankEntry(4, "D", -30, 3),
        RankEntry(5, "E", -660, 6),
    ]


def test_a_tie_that_would_leave_fewer_than_three_ranks_the_round_instead() -> None:
    # Four bots; B and C tie at the lowest total.  Dropping both would leave two bots and
    # no three-player match to count, so all four are ranked by this round's totals.
    outcomes = [
        trio("ABC", 20, -10, -10),
        trio("ABD", 10, -5, -5),
        trio("ACD", 10, -5, -5),
        trio("BCD", 0, 0, 0),
    ]
    # Totals: A 40, B -15, C -15, D -10.
    assert instant_runoff_ranking(outcomes, table=3) == [
        RankEntry(1, "A", 40, 3),
        RankEntry(2, "D", -10, 3),
        RankEntry(3, "B", -15, 3),
        RankEntry(3, "C", -15, 3),
    ]


def test_three_player_runoff_with_three_bots_is_the_bankroll_ranking() -> None:
    outcomes = [trio("ABC", 5, -7, 2), trio("CAB", 1, 1, -2)]
    assert instant_runoff_ranking(outcomes, table=3) == bankroll_ranking(outcomes)


def test_three_player_outcome_errors() -> None:
    with pytest.raises(ValueError, match="three different bots, but 'A' is named more than once"):
        trio("ABA", 1, 2, 3)
    with pytest.raises(ValueError, match="one chip count per player: 3 players, 2 chip counts"):
        MatchOutcome(("A", "B", "C"), (1, 2))
    with pytest.raises(ValueError, match="pairs heads-up results"):
        cross_table([trio("ABC", 1, 2, 3)])
    with pytest.raises(ValueError, match="at least two bots, not 1"):
        instant_runoff_ranking([], ["A"], table=1)


# -- heads-up, the run-off is the same as before the table-size rule ------------------


def _runoff_before_tables(outcomes: list[MatchOutcome], bots: list[str]) -> list[RankEntry]:
    """The heads-up run-off as the kit computed it before 3-player tables (kept verbatim)."""

    def totals_of(among: set[str]) -> dict[str, tuple[int, int]]:
        totals = dict.fromkeys(sorted(among), (0, 0))
        for outcome in outcomes:
            if outcome.players[0] in among and outcome.players[1] in among:
                for player, chips in zip(outcome.players, outcome.chips, strict=True):
                    bankroll, matches = totals[player]
                    totals[player] = (bankroll + chips, matches + 1)
        return totals

    in_play = set(bots)
    eliminated: list[RankEntry] = []
    last_contested: dict[str, tuple[int, int]] = {}
    while in_play:
        totals = totals_of(in_play)
        for bot, (bankroll, matches) in totals.items():
            if matches:
                last_contested[bot] = (bankroll, matches)
        lowest = min(bankroll for bankroll, _ in totals.values())
        losers = [bot for bot in sorted(totals) if totals[bot][0] == lowest]
        rank = len(in_play) - len(losers) + 1
        eliminated += [
            RankEntry(rank, bot, *last_contested.get(bot, (0, 0))) for bot in reversed(losers)
        ]
        in_play.difference_update(losers)
    return eliminated[::-1]


NAMES = ["A", "B", "C", "D", "E", "F"]


@given(
    st.lists(
        st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES), st.integers(-3, 3)),
        max_size=25,
    ),
    st.integers(min_value=1, max_value=6),
)
def test_heads_up_runoff_is_unchanged(games: list[tuple[str, str, int]], count: int) -> None:
    outcomes = [match(a, b, chips) for a, b, chips in games if a != b]
    bots = sorted({p for o in outcomes for p in o.players} | set(NAMES[:count]))
    assert instant_runoff_ranking(outcomes, bots) == _runoff_before_tables(outcomes, bots)
