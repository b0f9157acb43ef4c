"""Permuted Hold'em (MIT 2020): the value order drawn from the match's seed by the MIT prior,
showdowns ranked through it, nothing of it in the rules a bot is handed, and the order in the
gamelog (as the 2020 engine wrote it) and in hands.jsonl (so the run replays)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import pytest

import local_runner as kit
from local_runner.bots.builtin import make_builtin
from local_runner.engine.dealer import showdown_ranks
from local_runner.engine.match import Match
from local_runner.engine.seats import InProcessSeat
from local_runner.runs.errors import RunError
from local_runner.runs.hands import parse_hand
from local_runner.runs.layout import leg_runs
from local_runner.runs.reader import open_run
from local_runner.submission.infer import infer_game
from local_runner.view.timeline import walk
from sdk.games import find_game
from sdk.rules import RANKS, PermutationRules, Rules, RulesError
from sdk.variants.permuted import draw_values, true_cards, values_from_draws
from tests.modules import load_file

PERMUTED = Rules.for_variant("mit-2020")


def test_the_season_is_hold_em_for_200_chips_with_only_the_prior_in_the_rules() -> None:
    game = find_game("mit-2020")
    assert (game.name, game.competition.season, game.competition.name) == (
        "permuted",
        "mit-2020",
        "MIT Pokerbots 2020",
    )
    assert (PERMUTED.starting_stack, PERMUTED.num_rounds, PERMUTED.game_clock) == (200, 1000, 30)
    assert [street.board for street in game.streets] == [0, 3, 4, 5]
    handed = json.loads(PERMUTED.to_json())  # what POKERBOTS_RULES carries
    assert handed["permutation"] == {"p": 0.25}
    assert Rules.from_json(PERMUTED.to_json()) == PERMUTED
    assert not any(isinstance(v, str) and sorted(v) == sorted(RANKS) for v in handed.values())


@pytest.mark.parametrize("p", [0, -0.1, 1.5, "0.25", True])
def test_a_prior_out_of_range_is_refused_with_a_sentence(p: object) -> None:
    with pytest.raises(RulesError, match=r"permutation.p must be a probability in \(0, 1\]"):
        PERMUTED.replace(permutation=PermutationRules(p=p))  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=r"not 'permuted'.*a permuted value order"):
        PERMUTED.replace(permutation=None)
    assert Rules.from_dict({"variant": "permuted", "permutation": {"p": 0.5}}).permutation == (
        PermutationRules(0.5)
    )


def _engine_prior(draws: list[int]) -> str:
    """The 2020 engine's permute_values, in our words: the values kept in descending order,
    and for printed rank j the entry at m - 1 - (s mod m) taken."""
    pool = list(range(13))[::-1]
    taken = [pool.pop(len(pool) - 1 - (s % len(pool))) for s in draws]
    return "".join(RANKS[v] for v in taken)


def test_the_order_is_the_mit_prior_made_of_the_same_draws() -> None:
    rng = random.Random(5)
    for _ in range(500):
        draws = [min(int(rng.expovariate(0.3)), 60) for _ in range(13)]
        assert values_from_draws(draws) == _engine_prior(draws)


def test_the_draws_follow_the_prior_and_the_seed() -> None:
    prior = PermutationRules()
    assert draw_values(3, prior) == draw_values(3, prior)
    assert draw_values(3, prior) != draw_values(4, prior)
    assert draw_values(3, PermutationRules(1.0)) == RANKS  # every draw 0: the identity
    counts = [0] * 13
    n = 3000
    for seed in range(n):
        counts[RANKS.index(draw_values(seed, prior)[0])] += 1
    # The printed 2 plays as value k with probability p q^k / (1 - q^13).
    for k in range(4):
        expected = 0.25 * 0.75**k / (1 - 0.75**13)
        assert abs(counts[k] / n - expected) < 0.03, (k, counts)


def test_a_showdown_is_ranked_by_the_true_values() -> None:
    # The printed 2 plays as an ace and the ace as a 2: the deuces win.
    values = "A3456789TJQK2"
    hands = (("2c", "2d"), ("Ac", "Ad"))
    board = ("5h", "7s", "9d", "Jc", "Kh")
    plain = showdown_ranks(hands, board, (False, False))
    permuted = showdown_ranks(hands, board, (False, False), values)
    assert plain[1] > plain[0] and permuted[0] > permuted[1]  # type: ignore[operator]
    assert true_cards(hands[1], values) == ("2c", "2d")
    # A straight is five consecutive true values: printed 3 4 5 6 8 with the 8 playing as 7.
    straight = "2345687" + "9TJQKA"
    hands = (("3c", "8d"), ("Ac", "Ad"))
    board = ("4h", "5s", "6d", "Qc", "9h")
    plain = showdown_ranks(hands, board, (False, False))
    permuted = showdown_ranks(hands, board, (False, False), straight)
    assert plain[1] > plain[0] and permuted[0] > permuted[1]  # type: ignore[operator]


def test_a_match_uses_one_order_in_both_seatings_and_its_log_replays(tmp_path: Path) -> None:
    rules = PERMUTED.replace(num_rounds=40)
    values = draw_values(9, rules.permutation)  # type: ignore[arg-type]
    for names in (("a", "b"), ("b", "a")):  # the two halves of a duplicate match
        seats = [InProcessSeat(n, make_builtin("random", 1), rules) for n in names]
        match = Match(seats, rules, 9)
        assert match.values == values
        assert match.play_hand(1).values == values
    config = kit.ScrimmageConfig(rules=rules, seed=9)
    specs = [kit.BotSpec.parse("builtin:random"), kit.BotSpec.parse("builtin:raise")]
    kit.play_table(specs, config, tmp_path / "run")
    gamelog = (tmp_path / "run" / "gamelog.txt").read_text(encoding="utf-8").splitlines()
    assert gamelog[1:5] == [
        "-" * 27,
        " 2 3 4 5 6 7 8 9 T J Q K A ",
        "[" + " ".join(values) + "]",
        "-" * 27,
    ]
    dealt = next(line for line in gamelog if " dealt " in line)
    printed = dealt.split(" dealt ")[1].split(" [")[0].split()
    assert dealt.endswith(f"[{' '.join(true_cards(printed, values))}]")
    run = open_run(tmp_path / "run")
    showdowns = 0
    for hand in run.hands():
        assert hand.values == values
        assert tuple(walk(hand, run.rules).terminal.deltas) == hand.deltas
        showdowns += hand.showdown
    assert showdowns > 0
    # A hand whose order was removed does not replay quietly by the printed ranks.
    lines = (tmp_path / "run" / "hands.jsonl").read_text().splitlines()
    line = next(json.loads(text) for text in lines if '"showdown":true' in text)
    del line["values"]
    with pytest.raises(RunError, match="no order of the card values"):
        walk(parse_hand(line), run.rules)
    line["values"] = "22345678TJQKA"
    with pytest.raises(RunError, match="values should be the 13 ranks"):
        parse_hand(line)


def test_a_2020_bot_is_known_by_its_readme_not_by_its_skeleton(tmp_path: Path) -> None:
    # The 2020 skeletons differ from the base engine's only by STARTING_STACK = 200, which
    # the 2022 skeletons share: no identifier names the season.
    (tmp_path / "skeleton").mkdir()
    (tmp_path / "skeleton" / "states.py").write_text(
        "NUM_ROUNDS = 1000\nSTARTING_STACK = 200\nclass RoundState: ...\n", encoding="utf-8"
    )
    assert not find_game("permuted").markers
    assert infer_game(tmp_path).name is None
    found = infer_game(tmp_path, "mit-2020")
    assert found.name == "permuted" and "mit-2020" in found.reason


def _conformance_script() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "scripts" / "mit_conformance.py"
    return load_file("mit_conformance", path)


def test_the_kit_ranks_the_real_2020_engines_showdowns_as_it_did() -> None:
    # The first hands of a gamelog of the MIT 2020 engine (scripts/mit_conformance.py
    # --record): every showdown ranked the kit's way under the order its header shows.
    recorded = Path(__file__).resolve().parents[1] / "conformance" / "mit-2020-gamelog.txt"
    gamelog = recorded.read_text(encoding="ascii")
    check = _conformance_script().permuted_showdowns
    showdowns, disagreements = check(gamelog)
    assert showdowns >= 15 and disagreements == []
    # The same hands under the printed order: the check sees the difference.
    lines = gamelog.splitlines()
    lines[3] = "[" + " ".join(RANKS) + "]"
    assert check("\n".join(lines))[1]


def test_both_halves_of_a_duplicate_match_play_one_order(tmp_path: Path) -> None:
    config = kit.ScrimmageConfig(rules=PERMUTED.replace(num_rounds=10), seed=21)
    specs = [kit.BotSpec.parse("builtin:random"), kit.BotSpec.parse("builtin:checkcall")]
    kit.play_table(specs, config, tmp_path / "dup", duplicate=True)
    legs = leg_runs(tmp_path / "dup")
    orders = {hand.values for leg in legs for hand in open_run(leg).hands()}
    assert len(legs) == 2 and orders == {draw_values(21, PermutationRules())}
