"""``skatsim hand``: what a hand is worth, every declaration rolled out by the bots on the same deals."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from skatsim.cli import main
from skatsim.engine.gametypes import CLUBS_GAME, DIAMONDS_GAME, GRAND, HEARTS_GAME, NULL, REVERSED, SPADES_GAME
from skatsim.engine.scoring import HAND, OUVERT, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from skatsim.errors import SkatsimError
from skatsim.variant import load_variant
from skatsim.whatif.hand import HandEvaluation, declarations, evaluate_hand, parse_hand_cards

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ROOT / "variants"


def _option(ev: HandEvaluation, label: str):  # type: ignore[no-untyped-def]
    return next(o for o in ev.options if o.label == label)


def test_every_declaration_the_variant_allows() -> None:
    """29 declarations under the official rules (suits and Grand five ways, Null four); the reversed game
    adds five where the variant allows it."""
    official = declarations(load_variant(VARIANTS / "official.yaml").variant.params())
    assert len(official) == 29
    # a suit game or Grand: after the pickup, hand, hand with Schneider or Schwarz announced, ouvert (a hand
    # game); Null: plain, hand, ouvert, ouvert hand. Suits from clubs down, as players name them.
    five_ways = (0, HAND, HAND | SCHNEIDER_ANNOUNCED, HAND | SCHWARZ_ANNOUNCED, HAND | OUVERT)
    null_ways = [(NULL, 0), (NULL, HAND), (NULL, OUVERT), (NULL, HAND | OUVERT)]
    suits_and_grand = [
        (gt, f) for gt in (CLUBS_GAME, SPADES_GAME, HEARTS_GAME, DIAMONDS_GAME, GRAND) for f in five_ways
    ]
    assert official == suits_and_grand + null_ways
    spitze = declarations(load_variant(VARIANTS / "saechsische_spitze.yaml").variant.params())
    assert len(spitze) == 34 and {gt for gt, _ in spitze} - {gt for gt, _ in official} == {7}
    assert spitze == suits_and_grand + [(REVERSED, f) for f in five_ways] + null_ways
    assert declarations(load_variant(VARIANTS / "official.yaml").variant.params(), games=[NULL]) == null_ways


def test_a_grand_with_four_jacks_and_the_aces_wins_hand() -> None:
    """Four jacks, the ace, ten and king of clubs and the other three aces: a Grand hand won in >= 95%."""
    cards = parse_hand_cards("CJ SJ HJ DJ CA CT CK SA HA DA")
    ev = evaluate_hand(cards, samples=2000, games=[GRAND])
    grand_hand = _option(ev, "grand hand")
    assert grand_hand.bid_value == 144  # with 4, game 5, hand 6: 6 x 24
    assert grand_hand.win_probability.value is not None and grand_hand.win_probability.value >= 0.95
    assert ev.bot_choice.game == "grand" and ev.bot_choice.hand and ev.bot_choice.bid_limit == 144


def test_a_safe_null_ouvert_wins_hand() -> None:
    cards = parse_hand_cards("C7 C8 C9 S7 S8 S9 H7 H8 D7 D8")
    ev = evaluate_hand(cards, samples=2000, games=[NULL])
    ouvert_hand = _option(ev, "null hand ouvert")
    assert ouvert_hand.bid_value == 59
    assert ouvert_hand.win_probability.value is not None and ouvert_hand.win_probability.value >= 0.99
    assert ouvert_hand.expected_score.value == pytest.approx(
        59 * ouvert_hand.win_probability.value - 118 * (1 - ouvert_hand.win_probability.value)
    )


def _close(a, b, what: str) -> None:  # type: ignore[no-untyped-def]
    """Two estimates from independent deals agree within their sampling error (99.9%)."""
    se = math.hypot((a.hi - a.lo) / 2 / 1.96, (b.hi - b.lo) / 2 / 1.96)
    assert abs(a.value - b.value) <= 3.29 * max(se, 1e-9), (what, a, b)


def test_swapping_two_suits_swaps_their_games() -> None:
    """Spades and hearts swapped (jacks stay): the spades game of one hand is the hearts game of the other,
    same win probability and card points within sampling error; the values differ by the base values."""
    first = parse_hand_cards("CJ SJ SA ST S9 S8 HA HK D7 C8")
    swapped = parse_hand_cards("CJ SJ HA HT H9 H8 SA SK D7 C8")
    a = evaluate_hand(first, samples=3000, games=[SPADES_GAME, HEARTS_GAME], seed=1)
    b = evaluate_hand(swapped, samples=3000, games=[SPADES_GAME, HEARTS_GAME], seed=2)
    for ours, theirs in (("spades", "hearts"), ("hearts", "spades")):
        for how in ("", " hand"):
            x, y = _option(a, ours + how), _option(b, theirs + how)
            _close(x.win_probability, y.win_probability, f"{ours}{how} win")
            _close(x.declarer_points, y.declarer_points, f"{ours}{how} points")
            assert x.bid_value * {"spades": 10, "hearts": 11}[ours] == y.bid_value * {"spades": 11, "hearts": 10}[ours]


def test_same_seed_same_numbers() -> None:
    cards = parse_hand_cards("CJ SJ CA CT C9 HA HT SK S8 D7")
    first = evaluate_hand(cards, samples=500, seed=4, jobs=2).to_json()
    assert evaluate_hand(cards, samples=500, seed=4, jobs=1).to_json() == first
    assert evaluate_hand(cards, samples=500, seed=5).to_json() != first
    clubs = _option(evaluate_hand(cards, samples=500, seed=4, games=[CLUBS_GAME]), "clubs")
    assert clubs.to_json() == next(o for o in json.loads(first)["options"] if o["label"] == "clubs")


def test_passing_is_worth_the_ramsch_that_follows() -> None:
    """Official rules: passing is worth exactly 0. Where all passing is played as a Ramsch, a hand full of
    points and high cards expects to lose it."""
    cards = parse_hand_cards("CA CT SA ST HA HT DA DT CK SK")
    official = evaluate_hand(cards, samples=400, games=[NULL])
    assert (official.passing.value, official.passing.lo, official.passing.hi) == (0.0, 0.0, 0.0)
    ramsch = evaluate_hand(
        cards, samples=400, games=[NULL], params=load_variant(VARIANTS / "ramsch.yaml").variant.params()
    )
    assert ramsch.passing.value is not None and ramsch.passing.hi is not None and ramsch.passing.hi < 0


def _hand(capsys: pytest.CaptureFixture[str], *args: object) -> tuple[int, str, str]:
    code = main(["hand", *(str(a) for a in args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_prints_a_table_sorted_by_expected_score(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _hand(capsys, "♣J ♠J ♣A ♣10 ♣9 ♥A ♥10 ♠K ♠8 ♦7", "--samples", 300, "--seat", "MH")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith("♣J ♠J ♣A ♣10 ♣9 ♠K ♠8 ♥A ♥10 ♦7  (MH; official; 300 deals per game, seed 1)")
    table = lines[lines.index(next(line for line in lines if line.startswith("game"))) + 1 : -2]
    assert len(table) == 30  # 29 declarations and passing
    scores = [float(line.split("±")[-2].split()[-1]) for line in table]
    assert scores == sorted(scores, reverse=True)
    assert lines[-1].startswith("bots' choice: bid up to ")
    assert all(len(line) <= 100 for line in lines)


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _hand(
        capsys,
        "CJ",
        "SJ",
        "CA",
        "CT",
        "C9",
        "HA",
        "HT",
        "SK",
        "S8",
        "D7",
        "--samples",
        200,
        "--skat",
        "HK D8",
        "--json",
        "--seed",
        3,
    )
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["hand"] == ["CJ", "SJ", "CA", "CT", "C9", "HA", "HT", "SK", "S8", "D7"]
    assert (data["seat"], data["variant"], data["samples"], data["seed"], data["skat"]) == (
        "FH",
        "official",
        200,
        3,
        ["HK", "D8"],
    )
    assert len(data["options"]) == 29
    for option in data["options"]:
        for key in (
            "game",
            "hand",
            "ouvert",
            "bid_value",
            "win_probability",
            "win_probability_ci",
            "expected_score",
            "expected_score_ci",
        ):
            assert key in option
        lo, hi = option["expected_score_ci"]
        assert lo <= option["expected_score"] <= hi
    scores = [o["expected_score"] for o in data["options"]]
    assert scores == sorted(scores, reverse=True)
    assert set(data["bot_choice"]) >= {"game", "hand", "bid_limit"}
    assert data["pass"]["expected_score"] == 0.0


def test_the_seat_is_shown_as_written_and_taken_in_any_case(capsys: pytest.CaptureFixture[str]) -> None:
    """--seat: help, default and error all say FH|MH|RH (not fh|mh|rh beside a default FH); mh is taken."""
    assert main(["hand", "--help"]) == 0
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--seat [FH|MH|RH] The seat holding the hand: forehand, middlehand or rearhand. [default: FH]" in help_text
    code, _, err = _hand(capsys, "CJ SJ CA CT C9 HA HT SK S8 D7", "--seat", "xh")
    assert (code, err) == (
        2,
        "skatsim: error: Invalid value for '--seat': 'xh' is not one of 'FH', 'MH', 'RH'. "
        "(see 'skatsim hand --help')\n",
    )
    code, _, err = _hand(capsys, "CJ SJ CA CT C9 HA HT SK S8 D7", "--seat", "mh", "--skat", "D9")
    assert code == 2 and "--skat: expected 2 cards, got 1" in err  # the seat was taken


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["CJ SJ CA CT C9 HA HT SK S8"], "hand: expected 10 cards, got 9"),
        (["CJ SJ CA CT C9 HA HT SK S8 S8"], "hand: S8 is given twice"),
        (["CJ SJ CA CT C9 HA HT SK S8 X9"], "hand: unknown card 'X9'"),
        (["CJ SJ CA CT C9 HA HT SK S8 D7", "--skat", "D7 D8"], "--skat: D7 is in the hand too"),
        (["CJ SJ CA CT C9 HA HT SK S8 D7", "--skat", "D9"], "--skat: expected 2 cards, got 1"),
        (["CJ SJ CA CT C9 HA HT SK S8 D7", "--skat", " "], "--skat: expected 2 cards, got 0"),
        (["CJ SJ CA CT C9 HA HT SK S8 D7", "--game", "reversed"], "--game: this variant does not allow reversed"),
        (["CJ SJ CA CT C9 HA HT SK S8 D7", "--game", "skat"], "--game: unknown game 'skat'"),
        (["CJ SJ CA CT C9 HA HT SK S8 D7", "--bots", "genius"], "--bots: unknown bot 'genius'"),
        (["CJ SJ CA CT C9 HA HT SK S8 D7", "--bid", "19"], "19 is not a bid value"),
        (["CJ SJ CA CT C9 HA HT SK S8 D7", "--bid", "9" * 23], f"{'9' * 23} is not a bid value"),  # beyond int64
        (["CJ SJ CA CT C9 HA HT SK S8 D7", "--seat", "XH"], "--seat"),
        (
            ["CJ SJ CA CT C9 HA HT SK S8 D7", "--samples", "1000000000000"],
            "--samples 1,000,000,000,000: the rollouts' rows need",
        ),
    ],
)
def test_mistakes_are_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    code, out, err = _hand(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and message in err, err


def test_the_reversed_game_where_allowed(capsys: pytest.CaptureFixture[str]) -> None:
    variant = VARIANTS / "saechsische_spitze.yaml"
    code, out, err = _hand(
        capsys, "DJ HJ C7 C8 S7 S8 H7 H8 D7 D8", "--variant", variant, "--game", "reversed", "--samples", 200, "--json"
    )
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["variant"] == "saechsische_spitze"
    assert {o["game"] for o in data["options"]} == {"reversed"} and len(data["options"]) == 5
    # four jacks: a reversed ouvert is worth 220, no bid value; the seat wins the auction at 198 and plays it
    code, out, err = _hand(
        capsys, "DJ HJ SJ CJ C7 C8 S7 S8 H7 D7", "--variant", variant, "--game", "reversed", "--samples", 100, "--json"
    )
    assert (code, err) == (0, "")
    ouvert = next(o for o in json.loads(out)["options"] if o["ouvert"])
    assert (ouvert["bid_value"], ouvert["game_value"], ouvert["win_probability"]) == (220, 220.0, 1.0)


def test_mistakes_in_the_library_too() -> None:
    with pytest.raises(SkatsimError, match="expected 10 cards"):
        evaluate_hand(parse_hand_cards("CJ SJ"))
