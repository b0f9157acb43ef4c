"""The reference bots of local_runner.bots: legal play in every variant, the shipped
preflop tables, weighted ranges and Bayes updates, the budget-aware mode."""

from __future__ import annotations

import random
import sys
import threading

import pytest

from local_runner.bots.budget import Budget, Spend
from local_runner.bots.builtin import BUILTIN_BOTS, make_builtin
from local_runner.bots.equity import EquityBot
from local_runner.bots.likelihood import Kind, LikelihoodModel, Situation
from local_runner.bots.preflop import equity_vs_random, matrix
from local_runner.bots.range_bot import RangeBot
from local_runner.bots.ranges import WeightedRange, equity, preflop_equity, river_equity
from local_runner.bots.strength import NUM_BUCKETS, buckets, percentiles
from local_runner.bots.variants import (
    bounty_chance,
    showdown_stakes,
    swap_adjusted_equity,
)
from local_runner.harness import decide, play, spot
from sdk.actions import BidAction, FoldAction, RaiseAction
from sdk.games import VARIANTS
from sdk.handclass import HAND_CLASSES, class_index
from sdk.opponent_stats import OpponentStats
from sdk.rules import Rules
from sdk.states import GameState, RoundState

# -- the preflop tables -------------------------------------------------------


def test_preflop_table_aa_best_and_the_worst_hands_at_the_bottom() -> None:
    table = equity_vs_random()
    assert len(table) == 169
    order = sorted(range(169), key=table.__getitem__)
    assert HAND_CLASSES[order[-1]] == "AA"
    # Heads-up, 32o is the weakest class; the folklore's "worst hand", 72o, is close.
    assert HAND_CLASSES[order[0]] == "32o"
    assert class_index("72o") in order[:6]
    assert 0.84 < table[class_index("AA")] < 0.86
    assert 0.34 < table[class_index("72o")] < 0.36


def test_preflop_matrix_is_antisymmetric_and_plausible() -> None:
    m = matrix()
    for a in range(169):
        assert m[a][a] == 0.5
        for b in range(a + 1, 169):
            assert abs(m[a][b] + m[b][a] - 1.0) < 2e-4
    assert 0.80 < m[class_index("AA")][class_index("KK")] < 0.83


def test_table_equity_against_a_uniform_range_matches_the_vs_random_column() -> None:
    uniform = WeightedRange()
    for hand in (("Ah", "As"), ("2c", "7d"), ("Th", "9h")):
        expected = equity_vs_random()[class_index(hand)]
        assert abs(preflop_equity(hand, uniform) - expected) < 0.005


# -- ranges -------------------------------------------------------------------


def test_bayes_update_keeps_a_distribution_and_zeroes_dead_cards() -> None:
    rng = random.Random(1)
    opponent = WeightedRange()
    opponent.remove_cards(["Ah", "Kd"])
    for _ in range(5):
        opponent.update([rng.random() for _ in range(1326)], ["Ah", "Kd"])
        assert abs(sum(opponent.weights) - 1.0) < 1e-9
        assert min(opponent.weights) >= 0.0
    from local_runner.bots.cards import COMBOS

    for weight, pair in zip(opponent.weights, COMBOS, strict=True):
        if "Ah" in pair or "Kd" in pair:
            assert weight == 0.0


def test_impossible_evidence_falls_back_to_uniform_over_live_pairs() -> None:
    opponent = WeightedRange()
    opponent.update([0.0] * 1326, ["Ah"])
    live = [w for w in opponent.weights if w > 0]
    assert len(live) == 1326 - 51 and abs(sum(live) - 1.0) < 1e-9


def test_river_equity_is_exact_against_a_single_hand() -> None:
    from local_runner.bots.cards import COMBO_INDEX

    board = ["2c", "7d", "Th", "Js", "3h"]
    weights = [0.0] * 1326
    weights[COMBO_INDEX[("Qc", "Qd")]] = 1.0
    opponent = WeightedRange(weights)
    assert river_equity(["Ac", "Ad"], board, opponent) == 1.0
    assert river_equity(["8c", "8d"], board, opponent) == 0.0
    assert river_equity(["Qh", "Qs"], board, opponent) == 0.5


def test_sampled_equity_is_unbiased_against_a_uniform_range() -> None:
    # eval7's own Monte Carlo takes opponent hands in order; drawn ones must not be biased.
    rng = random.Random(2)
    estimates = [
        equity(["Ah", "Kh"], ["2c", "7d", "Th"], WeightedRange(), 300, rng) for _ in range(20)
    ]
    assert abs(sum(estimates) / len(estimates) - 0.565) < 0.02


def test_seeded_equity_is_the_same_in_two_threads_at_once() -> None:
    # eval7's compiled loop deals from one generator per process; bots in a tournament's
    # thread pool once dealt from each other's seeds (a 3-seat tournament's table changed
    # with the executor).  A tiny switch interval makes the threads interleave often.
    def series(seed: int) -> list[float]:
        rng, uniform = random.Random(seed), WeightedRange()
        return [equity(["Ah", "Kd"], ["2c", "7h", "9s"], uniform, 50, rng) for _ in range(300)]

    alone = {seed: series(seed) for seed in (1, 2)}
    together: dict[int, list[float]] = {}
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [
            threading.Thread(target=lambda seed=seed: together.update({seed: series(seed)}))
            for seed in (1, 2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert together == alone


# -- the bots -----------------------------------------------------------------

LADDER = ["equity", "range"]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", LADDER)
@pytest.mark.parametrize("opponent", ["random", "raise"])
def test_reference_bot_plays_legally_in_every_variant(
    name: str, variant: str, opponent: str
) -> None:
    # Legality is the point here, not the clock: a generous clock keeps the bots at full
    # effort (their budget would turn them frugal on a loaded machine, which
    # test_range_bot_decides_legally_when_frugal covers), so every path is played.
    rules = Rules.for_variant(variant).replace(game_clock=600.0)
    result = play(make_builtin(name, 7), opponent=opponent, rounds=300, seed=5, rules=rules)
    assert result.hands_played == 300
    assert result.players[0].fault_counts == {}


def test_a_seeded_range_bot_replays_the_same_match() -> None:
    # Where the clock does not bind (an hour for 60 hands: full effort even on a machine at
    # load 30), a seeded bot plays the same match twice; where it binds, the work of each
    # decision depends on timing (docs/reference-bots.md, the clock-aware budget).
    rules = Rules.for_variant("nlhe").replace(game_clock=3600.0)
    bots = [RangeBot(9), RangeBot(9)]
    first, second = (
        play(bot, opponent="equity", rounds=60, seed=2, rules=rules).players[0].bankroll
        for bot in bots
    )
    assert first == second
    assert all(bot.budget.tally[1:] == [0, 0, 0] for bot in bots)  # full effort throughout


def test_builtins_are_registered() -> None:
    for name in LADDER:
        assert name in BUILTIN_BOTS


def test_equity_bot_folds_trash_to_a_big_bet_and_keeps_aces() -> None:
    trash = spot(hand=("2c", "7d"), board=("Ah", "Kh", "Qs"), seat=0, pips=(0, 300))
    assert isinstance(decide(EquityBot(1), trash), FoldAction)
    aces = spot(hand=("As", "Ad"), board=("Ah", "7c", "2s"), seat=1, pips=(0, 0), street=3)
    assert isinstance(decide(EquityBot(1), aces), RaiseAction)


# -- the range bot: Bayes updates, learning, variants, budget -----------------------


def _mean_strength(opponent: WeightedRange, board: tuple[str, ...] = ()) -> float:
    table = percentiles(board)
    return sum(w * p for w, p in zip(opponent.weights, table, strict=True) if w)


def _after(kind: Kind, situation: Situation, stats: OpponentStats) -> WeightedRange:
    strength = buckets(())
    table = LikelihoodModel().table(situation, kind, stats)
    opponent = WeightedRange()
    opponent.update([table[b] for b in strength])
    return opponent


def test_aggression_shifts_the_range_up_and_checking_down() -> None:
    stats = OpponentStats()
    prior = _mean_strength(WeightedRange())
    raised = _mean_strength(_after(Kind.AGGRESSIVE, Situation(False, False), stats))
    checked = _mean_strength(_after(Kind.PASSIVE, Situation(False, False), stats))
    assert checked < prior < raised


def test_a_fold_heavy_opponent_that_calls_holds_a_stronger_range() -> None:
    folder, station = OpponentStats(), OpponentStats()
    folder.fold_to_bet.hits, folder.fold_to_bet.chances = 90, 100
    station.fold_to_bet.hits, station.fold_to_bet.chances = 2, 100
    facing = Situation(False, True)
    assert _mean_strength(_after(Kind.PASSIVE, facing, folder)) > _mean_strength(
        _after(Kind.PASSIVE, facing, station)
    )
    # And a bet into it is expected to win the pot at once more often.
    folds_folder = LikelihoodModel().fold_probabilities(facing, folder)
    folds_station = LikelihoodModel().fold_probabilities(facing, station)
    assert all(a > b for a, b in zip(folds_folder, folds_station, strict=True))


def test_showdowns_teach_the_model_that_weak_hands_bet() -> None:
    model, stats = LikelihoodModel(), OpponentStats()
    situation = Situation(True, False)
    before = model.table(situation, Kind.AGGRESSIVE, stats)[0]
    for _ in range(40):
        model.learn(situation, 0, Kind.AGGRESSIVE)
    after = model.table(situation, Kind.AGGRESSIVE, stats)[0]
    assert after > before + 0.4
    assert len(model.table(situation, Kind.PASSIVE, stats)) == NUM_BUCKETS


def test_a_raise_from_an_opponent_that_always_raises_says_little() -> None:
    stats, situation = OpponentStats(), Situation(False, True)
    stats.fold_to_bet.hits, stats.fold_to_bet.chances = 5, 100  # it rarely folds, either
    maniac, rock = LikelihoodModel(), LikelihoodModel()
    for _ in range(200):  # every action seen, none shown down
        maniac.observe(situation, Kind.AGGRESSIVE)
        rock.observe(situation, Kind.PASSIVE)

    def spread(model: LikelihoodModel) -> float:
        """How much more likely the strongest bucket raises than the weakest."""
        table = model.table(situation, Kind.AGGRESSIVE, stats)
        return table[-1] / table[0]

    assert spread(maniac) < 2.0 < spread(LikelihoodModel()) < spread(rock)
    # The calibrated shares keep the prior's order (the strong buckets raise most) and
    # their mean follows the observed rate.
    shares = maniac.aggressive_shares(situation)
    assert shares[4] > shares[3] > shares[2] > shares[1]
    assert sum(shares) / len(shares) > 0.85


def test_range_bot_learns_from_a_bluffing_opponents_showdowns() -> None:
    bot = RangeBot(3)
    play(bot, opponent="raise", rounds=200, seed=4)
    counts = bot.model.counts
    shown = sum(sum(cell) for situation in counts.values() for cell in situation)
    assert shown > 50
    # builtin:raise bets every hand, so weak buckets collect aggressive actions.
    assert sum(counts[Situation(True, False)][0]) > 0
    assert bot.stats.hands == 200 and bot.stats.pfr.value is not None and bot.stats.pfr.value > 0.8


def _charged(budget: Budget, full_cost: float) -> float:
    """Drive ``budget`` through a match on a simulated machine where a full-effort decision
    costs ``full_cost`` seconds (a frugal one a tenth, a reflex one a fiftieth: not the
    budget's own cost model): four decisions a hand, each charged
    to the clock as an engine would, over no-limit's 1000 hands.  Returns the clock used."""
    state = spot(hand=("Ah", "Kd"), board=("2c", "7d", "Th"), seat=1, street=3)
    clock = left = state.rules.game_clock
    for hand in range(1, state.rules.num_rounds + 1):
        for _ in range(4):
            spend = budget.spend(GameState(0, left, hand), state)
            if spend.reflex:
                share = 0.02
            else:
                share = 0.1 if spend.frugal else 0.3 + 0.7 * spend.samples / budget.samples
            left -= full_cost * share
    return clock - left


def test_budget_keeps_full_effort_while_it_fits_the_clock() -> None:
    # 1 ms a decision, 4 s of the 30 s clock: every decision at full effort (and so a
    # seeded bot stays deterministic wherever the clock does not bind).
    budget = Budget()
    state = spot(hand=("Ah", "Kd"), board=("2c", "7d", "Th"), seat=1, street=3)
    seen = set()
    left = 30.0
    for hand in range(1, 1001):
        for _ in range(4):
            seen.add(budget.spend(GameState(0, left, hand), state))
            left -= 0.001
    assert seen == {Spend(400, False)}


@pytest.mark.parametrize("full_cost", [0.003, 0.006, 0.02, 0.1])
def test_budget_keeps_a_slow_machine_under_a_third_of_the_clock(full_cost: float) -> None:
    # At full effort these machines would use 12, 24, 80 and 400 s of the 30 s clock (on
    # the last, frugal decisions alone would use 40 s: it answers by reflex).
    assert _charged(Budget(), full_cost) < 30.0 / 3


def test_budget_spends_less_as_the_measured_cost_grows() -> None:
    state = spot(hand=("Ah", "Kd"), board=("2c", "7d", "Th"), seat=1, street=3)

    def after(cost: float) -> Spend:
        budget = Budget()
        left = 30.0
        for hand in range(1, 51):
            for _ in range(4):
                spend = budget.spend(GameState(0, left, hand), state)
                left -= cost * budget.cost_factor(spend)
        return budget.spend(GameState(0, left, 51), state)

    # The plan (0.3 of 30 s over 1000 hands of 4 decisions) allows 2.25 ms a decision: 2.4 ms
    # is a little over it (fewer samples), 4 ms well over (frugal), 50 ms far over (reflex).
    cheap, dear, dearer, dearest = after(0.001), after(0.0024), after(0.004), after(0.05)
    assert cheap == Spend(400, False)
    assert 40 <= dear.samples < 400 and not dear.frugal
    assert dearer.frugal and not dearer.reflex and dearer.samples < dear.samples
    assert dearest.reflex


def test_budget_starts_frugal_with_almost_no_clock_but_not_near_the_end() -> None:
    state = spot(hand=("Ah", "Kd"), board=("2c", "7d", "Th"), seat=1, street=3)
    assert Budget().spend(GameState(0, 0.05, 1), state).frugal
    # Near the end of a match a little clock goes a long way again.
    assert not Budget().spend(GameState(0, 0.5, 1000), state).frugal


class _ReflexOnly(Budget):
    """A budget with no time at all: every decision by reflex."""

    def spend(self, game_state: GameState, round_state: RoundState) -> Spend:
        return Spend(0, True, True)


@pytest.mark.parametrize("variant", VARIANTS)
def test_reflex_decisions_are_legal_in_every_variant(variant: str) -> None:
    rules = Rules.for_variant(variant).replace(game_clock=600.0)
    for bot in (RangeBot(3, budget=_ReflexOnly()), EquityBot(3, budget=_ReflexOnly())):
        result = play(bot, opponent="raise", rounds=60, seed=4, rules=rules)
        assert result.players[0].fault_counts == {}, result.players[0].first_faults


def test_range_bot_decides_legally_when_frugal() -> None:
    bot = RangeBot(1)
    for board, seat in (((), 0), (("2c", "7d", "Th"), 1), (("2c", "7d", "Th", "Js", "3h"), 1)):
        state = spot(hand=("Ah", "Kd"), board=board, seat=seat, pips=(20, 0) if board else None)
        action = decide(bot, state, GameState(0, 0.01, 1))
        assert bot.last_spend is not None and bot.last_spend.frugal
        assert state.is_legal(action)


def test_range_bot_folds_trash_to_a_pot_sized_river_bet() -> None:
    folds = 0
    for seed in range(20):
        trash = spot(hand=("2c", "3d"), board=("Ah", "Kh", "Qs", "9c", "8d"), seat=0, pips=(0, 150))
        folds += isinstance(decide(RangeBot(seed), trash), FoldAction)
    assert folds >= 18


def test_range_bot_bids_in_the_auction() -> None:
    state = spot(
        hand=("Ah", "Kh"), board=("2h", "7h", "Tc"), seat=1, variant="auction", auction=True
    )
    action = decide(RangeBot(1), state)
    assert isinstance(action, BidAction) and state.is_legal(action) and action.amount > 0


def test_variant_adjustments() -> None:
    swap = Rules.for_variant("swap")
    assert 0.5 < swap_adjusted_equity(0.8, swap, 0) < swap_adjusted_equity(0.8, swap, 3) < 0.8
    assert swap_adjusted_equity(0.8, swap, 4) == 0.8
    assert swap_adjusted_equity(0.8, Rules(), 0) == 0.8
    assert bounty_chance("A", ("Ah", "2c"), ()) == 1.0
    hand = ("Ah", "2c")
    assert bounty_chance("K", hand, ()) > bounty_chance("K", hand, ("3d", "4d", "5d")) > 0.0
    assert bounty_chance("K", hand, ("3d", "4d", "5d", "6d", "7d")) == 0.0
    bounty = Rules.for_variant("bounty")
    win, lose = showdown_stakes(bounty, 100, 100, 1.0, 0.0)
    assert (win, lose) == (160.0, 100.0)
    assert showdown_stakes(Rules(), 100, 80, 1.0, 1.0) == (100.0, 80.0)


_PKRBOT_MATCHES = """
import sys
sys.modules["eval7"] = None  # as on MIT's 2026 image: no eval7
from local_runner.bots import evaluator
assert evaluator.NAME == "pkrbot", evaluator.NAME
from local_runner.bots.equity import EquityBot
from local_runner.bots.range_bot import RangeBot
del sys.modules["eval7"]  # the engine itself still evaluates showdowns with eval7
from local_runner.harness import play
for variant in ("nlhe", "swap", "auction", "bounty", "acpc-2pl"):
    result = play(RangeBot(1), opponent=EquityBot(2), rounds=120, variant=variant, seed=3)
    assert result.hands_played == 120
    assert [p.fault_counts for p in result.players] == [{}, {}], variant
print("ok")
"""


def test_bots_play_with_pkrbot_where_eval7_is_missing() -> None:
    pytest.importorskip("pkrbot", reason="pkrbot is not installed (pip install pkrbot)")
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", _PKRBOT_MATCHES], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-3000:]
