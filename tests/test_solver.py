"""The open-hand solver against a deliberately plain minimax over the play kernels.

The reference (:func:`reference`) walks every line of play with :func:`skatsim.engine.play.legal_now`
and :func:`skatsim.engine.play.apply_card` on copies of the state, with no pruning, no table and no
card merging, and scores the finished state with :func:`skatsim.engine.play.declarer_result`: the
solver's tables, equivalences, bounds and early-end handling must give exactly its values. Endgames
of at most four tricks are generated from a fixed seed for every declared game type, with and without
announced Schwarz, from trick boundaries and from the middle of a trick. Along real ISS games, the
full-depth solver must agree with itself: a position's value is its best child's value.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from skatsim._jit import allocating_kernel
from skatsim.cli import main
from skatsim.engine import play, solver
from skatsim.engine.cards import CARD_POINTS, from_mask, iss_name
from skatsim.engine.gametypes import BEATERS, GRAND, N_GAME_TYPES, NULL, RAMSCH, REVERSED
from skatsim.engine.play import apply_card, declarer_result, legal_now, to_move
from skatsim.engine.scoring import HAND, SCHNEIDER_ANNOUNCED, SCHWARZ_ANNOUNCED
from skatsim.engine.solver_eval import GT_SHIFT, close_trick
from skatsim.engine.solver_tables import (
    FROM_POS,
    P_BY_POINTS,
    P_GROUP,
    P_GROUP_MASK,
    P_N_RUNS,
    P_RANKS8,
    P_RUNS,
    POINT_VALUES,
    TO_POS,
    canonical,
    pext,
    to_cards,
    to_positions,
)
from skatsim.engine.tricks import legal_moves, trick_winner
from skatsim.errors import SkatsimError
from skatsim.records.importer import find_iss_line
from skatsim.records.record import GameRecord
from skatsim.solve import Solver, position, solve_record

FIXTURE = Path(__file__).parent / "fixtures" / "iss" / "real_games.sgf"
VARIANTS = Path(__file__).resolve().parents[1] / "variants"
#: The declared game types (Ramsch has no declarer).
DECLARED = (0, 1, 2, 3, GRAND, NULL, REVERSED)


@allocating_kernel
def reference(state: np.ndarray) -> tuple[int, int, int]:
    """Plain minimax of a play state: (the declarer's final points with the declarer maximising them,
    his final tricks with him maximising them, his final tricks with him minimising them); the
    defenders always play against him. Depth-first over copies of the state, nothing pruned."""
    depth = 32
    stack = np.zeros((depth, state.shape[0]), dtype=np.int64)
    values = np.zeros((depth, 3), dtype=np.int64)
    next_card = np.zeros(depth, dtype=np.int64)
    stack[0, :] = state
    sp = 0
    fresh = True
    while True:
        st = stack[sp]
        if fresh:
            fresh = False
            next_card[sp] = 0
            if st[play.OVER]:
                points, tricks, _ = declarer_result(st)
                values[sp, 0] = points
                values[sp, 1] = tricks
                values[sp, 2] = tricks
                next_card[sp] = 32
            elif to_move(st) == st[play.DECLARER]:
                values[sp, 0] = -1
                values[sp, 1] = -1
                values[sp, 2] = 99
            else:
                values[sp, 0] = 999
                values[sp, 1] = 99
                values[sp, 2] = -1
        legal = legal_now(st) if not st[play.OVER] else np.uint32(0)
        c = next_card[sp]
        while c < 32 and not (legal >> np.uint32(c) & np.uint32(1)):
            c += 1
        if c < 32:
            next_card[sp] = c + 1
            stack[sp + 1, :] = st
            apply_card(stack[sp + 1], to_move(st), c)
            sp += 1
            fresh = True
            continue
        if sp == 0:
            return values[0, 0], values[0, 1], values[0, 2]
        p, t, n = values[sp, 0], values[sp, 1], values[sp, 2]
        sp -= 1
        parent = stack[sp]
        if to_move(parent) == parent[play.DECLARER]:
            values[sp, 0] = max(values[sp, 0], p)
            values[sp, 1] = max(values[sp, 1], t)
            values[sp, 2] = min(values[sp, 2], n)
        else:
            values[sp, 0] = min(values[sp, 0], p)
            values[sp, 1] = min(values[sp, 1], t)
            values[sp, 2] = max(values[sp, 2], n)


def endgame(rng: np.random.Generator, gt: int, schwarz: bool, tricks_left: int, in_trick: int) -> np.ndarray:
    """A play state with ``tricks_left`` tricks to play (``in_trick`` cards of the first already played):
    a random deal of the remaining cards, earlier tricks given to winners the rules allow (Null: never
    the declarer; announced Schwarz: always the declarer) with the points of random played cards."""
    deck = rng.permutation(32)
    declarer = int(rng.integers(3))
    flags = HAND | SCHNEIDER_ANNOUNCED | SCHWARZ_ANNOUNCED if schwarz else int(rng.choice([0, HAND]))
    live, skat, gone = deck[: 3 * tricks_left], deck[3 * tricks_left : 3 * tricks_left + 2], deck[3 * tricks_left + 2 :]
    done = 10 - tricks_left
    if gt == NULL:
        winners = [int(rng.choice([s for s in range(3) if s != declarer])) for _ in range(done)]
    elif schwarz:
        winners = [declarer] * done
    else:
        winners = [int(rng.integers(3)) for _ in range(done)]
    hands = np.array([sum(1 << int(c) for c in live[s::3]) for s in range(3)], dtype=np.uint32)
    state = np.zeros(play.N_FIELDS, dtype=np.int64)
    play.new_play(state, gt, flags, declarer, hands, np.uint32(sum(1 << int(c) for c in skat)))
    leader = winners[-1] if winners else 0
    state[play.TRICK_NO] = done
    state[play.LEADER] = leader
    state[play.LAST_WINNER] = leader if done else -1
    state[play.PLAYED] = sum(1 << int(c) for c in gone)
    for t, w in enumerate(winners):
        state[play.TRICKS0 + w] += 1
        state[play.POINTS0 + w] += int(CARD_POINTS[gone[3 * t : 3 * t + 3]].sum())
    for _ in range(in_trick):
        cards = from_mask(int(legal_now(state)))
        apply_card(state, to_move(state), int(rng.choice(cards)))
    return state


def endgames(seed: int, n: int) -> list[np.ndarray]:
    """``n`` endgames of 1..4 tricks over every declared game type; 30% with Schwarz announced (not
    Null), 40% starting in the middle of a trick."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        gt = int(rng.choice(DECLARED))
        schwarz = gt != NULL and bool(rng.random() < 0.3)
        in_trick = int(rng.integers(1, 3)) if rng.random() < 0.4 else 0
        out.append(endgame(rng, gt, schwarz, int(rng.integers(1, 5)), in_trick))
    return out


def expected(state: np.ndarray) -> tuple[int, int, bool, bool, bool]:
    """The reference's answers to the solver's questions: points, tricks, takes all, takes one, takes none."""
    points, most, least = (int(v) for v in reference(state.copy()))
    so_far = int(state[play.TRICKS0 + state[play.DECLARER]])
    left = 10 - int(state[play.TRICK_NO])
    return points, most, most == so_far + left, most >= so_far + 1, least == so_far


def solved(state: np.ndarray, tt: np.ndarray, work: np.ndarray) -> tuple[int, int, bool, bool, bool]:
    """The solver's answers to the same questions."""
    return (
        int(solver.solve_points(state, tt, work)),
        int(solver.solve_tricks(state, tt, work)),
        bool(solver.declarer_takes_all(state, tt, work)),
        bool(solver.declarer_takes_one(state, tt, work)),
        bool(solver.declarer_avoids_tricks(state, tt, work)),
    )


def test_positions_follow_the_engine_rules() -> None:
    """The solver's card order gives the engine's trick winner for every game type and every three cards,
    and its following rule the engine's legal cards."""
    rng = np.random.default_rng(14)
    for gt in range(N_GAME_TYPES):
        ctx = gt << GT_SHIFT
        p = TO_POS[gt]
        assert sorted(FROM_POS[gt, p]) == list(range(32))
        for c0 in range(32):
            for c1 in range(32):
                for c2 in range(32):
                    if len({c0, c1, c2}) == 3:
                        winner, _, _ = close_trick(ctx, 0, p[c0], p[c1], p[c2])
                        assert winner == trick_winner(gt, c0, c1, c2), (gt, c0, c1, c2)
        for _ in range(300):
            hand = np.uint32(rng.integers(1, 2**32))
            led = int(rng.integers(-1, 32))
            positions = to_positions(gt, hand)
            assert to_cards(gt, positions) == hand
            if led < 0:
                continue
            follow = positions & P_GROUP_MASK[gt, P_GROUP[gt, p[led]]]
            legal = to_cards(gt, follow if follow else positions)
            assert legal == legal_moves(gt, hand, led)
        # Inside a group, the position order is the engine's beating order.
        for c in range(32):
            for x in range(32):
                if P_GROUP[gt, p[c]] == P_GROUP[gt, p[x]] and x != c:
                    assert (p[x] > p[c]) == bool(BEATERS[gt, c] >> x & 1)


def test_endgames_match_the_plain_minimax() -> None:
    """12,000 endgames of at most four tricks: card points, tricks, and the three yes/no questions are the
    reference's exactly; half of them through a tiny table, so that replacement is exercised too."""
    states = endgames(2006, 12_000)
    kinds = [(int(s[play.GT]), bool(s[play.FLAGS] & SCHWARZ_ANNOUNCED), int(s[play.N_IN_TRICK]) > 0) for s in states]
    for gt in DECLARED:
        assert sum(k[0] == gt for k in kinds) >= 1500
    assert sum(k[1] for k in kinds) >= 2500 and sum(k[2] for k in kinds) >= 4000
    big = (solver.new_table(16), solver.new_work())
    tiny = (solver.new_table(4), solver.new_work())
    wrong = []
    for i, state in enumerate(states):
        before = state.copy()
        tt, work = big if i % 2 else tiny
        got, want = solved(state, tt, work), expected(state)
        assert (state == before).all(), "the solver modified the state"
        if got != want:
            wrong.append((i, kinds[i], got, want))
    assert not wrong, f"{len(wrong)} endgames differ, first: {wrong[:3]}"


def test_a_defenders_partner_who_must_overtake_takes_the_lead() -> None:
    """Reversed game (sevens on top), middlehand declares hand, three tricks left, forehand (a defender)
    on lead with S-Q S-10 H-10; middlehand C-8 H-7 D-7, rearhand C-K S-8 D-8. Forehand's spades are
    higher than all the declarer's (he has none), but his partner must follow a spade lead with his
    higher S-8, takes the lead and cannot give it back: the declarer then catches forehand's S-Q, 43
    card points in all. The static bound once counted both spades for the defence and gave 40 (one of
    16 such endgames in a million found in stop 32; none of suit games or Grand)."""
    state = np.array(
        [7, HAND, 1, 2623488, 33554689, 1073872898, 1536, 0, 0, 0, 0, 0, 7, 3, 2, 2, 37, 26, 30, 3184914684, 0, 0]
        + [33556225, 0, 0, 0],
        dtype=np.int64,
    )
    assert state[play.GT] == REVERSED
    assert [iss_name(c) for c in from_mask(int(state[play.HAND0]))] == ["HT", "ST", "SQ"]
    assert expected(state)[0] == 43
    assert solver.solve_points(state, solver.new_table(12), solver.new_work()) == 43


def test_best_moves_are_the_optimal_children() -> None:
    """The best cards of 2,000 endgames are exactly the legal cards whose child has the optimal
    reference value: card points, and the yes/no questions asked of the position (its tricks to come)."""
    tt, work = solver.new_table(16), solver.new_work()
    for state in endgames(1999, 2000):
        if state[play.OVER]:
            continue
        seat = to_move(state)
        maximise = seat == state[play.DECLARER]
        so_far = int(state[play.TRICKS0 + state[play.DECLARER]])
        left = 10 - int(state[play.TRICK_NO])
        children = {}
        for c in from_mask(int(legal_now(state))):
            child = state.copy()
            apply_card(child, seat, c)
            points, most, least = (int(v) for v in reference(child))
            children[c] = (points, most == so_far + left, most >= so_far + 1, least == so_far)
        for objective, index in (
            (solver.OBJ_POINTS, 0),
            (solver.OBJ_ALL_TRICKS, 1),
            (solver.OBJ_ONE_TRICK, 2),
            (solver.OBJ_NO_TRICK, 3),
        ):
            values = {c: int(v[index]) for c, v in children.items()}
            best = max(values.values()) if maximise else min(values.values())
            want = {c for c, v in values.items() if v == best}
            assert set(from_mask(int(solver.best_moves(state, tt, work, objective)))) == want, objective


def test_root_moves_a_search_settles_are_the_childrens() -> None:
    """What a null-window search reports of its root moves (``ROOT_HIGH`` / ``ROOT_LOW``, which the pimc
    bot counts instead of searching those cards again) is the reference's verdict on each child: a card
    in ``ROOT_HIGH`` reaches the target, one in ``ROOT_LOW`` misses it; the move asked for with
    ``ROOT_FIRST`` is tried first. 1,500 endgames, targets near the value, every objective."""
    tt, work = solver.new_table(12), solver.new_work()
    rng = np.random.default_rng(61)
    settled = 0
    first_settled = 0
    for state in endgames(4242, 1500):
        if state[play.OVER]:
            continue
        gt = int(state[play.GT])
        seat = to_move(state)
        so_far = int(state[play.TRICKS0 + state[play.DECLARER]])
        left = 10 - int(state[play.TRICK_NO])
        legal = from_mask(int(legal_now(state)))
        children = {}
        for c in legal:
            child = state.copy()
            apply_card(child, seat, c)
            points, most, least = (int(v) for v in reference(child))
            children[c] = (points, most == so_far + left, least == so_far)
        points_now = int(reference(state.copy())[0])
        first = int(rng.choice(legal))
        work[solver.ROOT_FIRST] = int(TO_POS[gt, first]) + 1
        work[solver.ROOT_HIGH] = work[solver.ROOT_LOW] = 0  # a question answered without a search leaves them
        if gt == NULL:
            solver.declarer_avoids_tricks(state, tt, work)
            reaches = {c: v[2] for c, v in children.items()}
        elif state[play.FLAGS] & SCHWARZ_ANNOUNCED:
            solver.declarer_takes_all(state, tt, work)
            reaches = {c: v[1] for c, v in children.items()}
        else:
            target = points_now + int(rng.integers(-3, 4))
            solver.declarer_reaches(state, tt, work, target)
            reaches = {c: v[0] >= target for c, v in children.items()}
        work[solver.ROOT_FIRST] = 0
        high = set(from_mask(int(to_cards(gt, np.uint32(work[solver.ROOT_HIGH])))))
        low = set(from_mask(int(to_cards(gt, np.uint32(work[solver.ROOT_LOW])))))
        assert high <= set(legal) and low <= set(legal) and not high & low
        assert all(reaches[c] for c in high) and not any(reaches[c] for c in low), (gt, high, low, reaches)
        settled += len(high) + len(low)
        first_settled += first in high | low
    assert settled >= 1000 and first_settled >= 500, (settled, first_settled)


def test_canonical_hands_are_the_plain_definition() -> None:
    """The table key's canonical hands (computed with a byte-wise ``pext`` over all the blocks at once) are
    the definition done card by card: in each block of ``P_RUNS``, the live cards moved to the block's
    bottom in order with their owners, every other card where it was; and ``pext`` is the instruction's
    definition. Random hands of every size, every game type, both modes."""
    rng = np.random.default_rng(32)
    for _ in range(3000):
        gt = int(rng.integers(N_GAME_TYPES))
        k = int(rng.integers(0, 11))
        deck = rng.permutation(32)
        hands = [np.uint32(sum(1 << int(p) for p in deck[s * k : (s + 1) * k])) for s in range(3)]
        for mode in (0, 1):
            want = [int(h) for h in hands]
            for r in range(int(P_N_RUNS[mode, gt])):
                run = int(P_RUNS[mode, gt, r])
                live = [p for p in range(32) if run >> p & 1 and any(int(h) >> p & 1 for h in hands)]
                want = [w & ~run for w in want]
                base = min(p for p in range(32) if run >> p & 1)
                for i, p in enumerate(live):
                    owner = next(s for s in range(3) if int(hands[s]) >> p & 1)
                    want[owner] |= 1 << (base + i)
            assert [int(c) for c in canonical(gt, mode, *hands)] == want, (gt, mode)
        x, m = np.uint32(rng.integers(2**32)), np.uint32(rng.integers(2**32))
        bits = [int(x) >> p & 1 for p in range(32) if int(m) >> p & 1]
        assert int(pext(x, m)) == sum(b << i for i, b in enumerate(bits))


def test_point_rank_table_is_the_plain_definition() -> None:
    """``P_RANKS8[gt, j, b]``: for the live cards ``b`` (a byte at byte ``j`` of the positions), in order, whether
    each is worth at least 2, 3, 4, 10 and 11 points, one byte each from the bottom (the live cards' ranks
    among the point classes): every entry against the definition done card by card."""
    for gt in range(N_GAME_TYPES):
        for k in range(1, len(POINT_VALUES)):
            worth = {p for p in range(32) if any(int(P_BY_POINTS[gt, v]) >> p & 1 for v in range(k, len(POINT_VALUES)))}
            for j in range(4):
                for b in range(256):
                    live = [8 * j + q for q in range(8) if b >> q & 1]
                    packed = sum(1 << i for i, p in enumerate(live) if p in worth)
                    assert int(P_RANKS8[gt, j, b]) >> (8 * (k - 1)) & 255 == packed, (gt, k, j, b)


def test_canonical_hands_keep_the_value() -> None:
    """Moving the live cards of a block to its bottom (what the table keys on) keeps the value: the
    reference gives the renamed position the same card points (equal-point blocks) and tricks (whole
    suits)."""
    for state in endgames(77, 600):
        if state[play.N_IN_TRICK] or state[play.OVER]:
            continue
        gt = int(state[play.GT])
        hands = [to_positions(gt, np.uint32(state[play.HAND0 + s])) for s in range(3)]
        points, most, _ = reference(state.copy())
        for mode, want in ((0, points), (1, most)):
            renamed = state.copy()
            for s, h in enumerate(canonical(gt, mode, *hands)):
                renamed[play.HAND0 + s] = int(to_cards(gt, h))
            got = reference(renamed)[mode]
            assert got == want, (gt, mode)


def test_solution_flags_match_the_reference() -> None:
    """:meth:`Solver.solve` turns the searches into won / Schneider / Schwarz as the reference's values say."""
    engine = Solver(log2_entries=16)
    for state in endgames(3, 1500):
        points, most, least = (int(v) for v in reference(state.copy()))
        flags, gt = int(state[play.FLAGS]), int(state[play.GT])
        sol = engine.solve(state)
        if gt == NULL:
            assert (sol.declarer_points, sol.won, sol.schneider, sol.schwarz) == (None, least == 0, False, False)
        elif flags & SCHWARZ_ANNOUNCED:
            assert (sol.declarer_points, sol.won, sol.schwarz) == (points, most == 10, most == 10)
        else:
            assert sol.declarer_points == points
            assert sol.won == (points >= (90 if flags & SCHNEIDER_ANNOUNCED else 61))
            assert sol.schneider == (points >= 90 or points <= 30)
            assert sol.schwarz == (most in (0, 10))
        if not state[play.OVER]:
            assert sol.best_cards and set(sol.best_cards) <= set(from_mask(int(legal_now(state))))


def iss_positions(after: tuple[int, ...]) -> list[tuple[int, int, np.ndarray]]:
    """(line, cards played, state) of every declared ISS fixture game after each of ``after`` cards
    while play goes on."""
    out = []
    for line in range(1, len(FIXTURE.read_text().splitlines()) + 1):
        _, game = find_iss_line(FIXTURE, line=line)
        for k in after:
            try:
                state = position(game.record, k)
            except SkatsimError:
                continue
            if not state[play.OVER]:
                out.append((line, k, state))
    return out


def check_best_child(state: np.ndarray, tt: np.ndarray, work: np.ndarray, where: str) -> None:
    """A position's solved value is its best child's solved value for the seat to move (card points;
    in Null whether the declarer wins), and the best cards are exactly the children reaching it."""
    null = state[play.GT] == NULL
    seat = to_move(state)
    children = {}
    for c in from_mask(int(legal_now(state))):
        child = state.copy()
        apply_card(child, seat, c)
        if null:
            clean = child[play.TRICKS0 + child[play.DECLARER]] == 0
            children[c] = int(clean and solver.declarer_avoids_tricks(child, tt, work))
        else:
            children[c] = int(solver.solve_points(child, tt, work))
    value = int(solver.declarer_avoids_tricks(state, tt, work)) if null else int(solver.solve_points(state, tt, work))
    best = max(children.values()) if seat == state[play.DECLARER] else min(children.values())
    assert value == best, where
    objective = solver.OBJ_NO_TRICK if null else solver.OBJ_POINTS
    got = set(from_mask(int(solver.best_moves(state, tt, work, objective))))
    assert got == {c for c, v in children.items() if v == best}, where


def test_real_games_value_is_the_best_childs_value() -> None:
    """Along every real game (after 12 and 18 cards: six and four tricks to go), the solver agrees with
    itself one card deeper."""
    tt, work = solver.new_table(20), solver.new_work()
    positions = iss_positions((12, 18))
    assert len(positions) >= 60
    for line, k, state in positions:
        check_best_child(state, tt, work, f"line {line} after {k} cards")


#: Real games whose full-depth solve from the first lead takes well under a second.
FULL_DEPTH_LINES = (3, 6, 8, 14, 16, 18, 21, 39, 40)


def test_full_depth_solves_agree_with_their_children() -> None:
    """From the first lead (all ten tricks) and after the first trick's second card, the full-depth value
    is the best child's value, for several real games (suit games, Grand, Null)."""
    tt, work = solver.new_table(20), solver.new_work()
    kinds = set()
    for line in FULL_DEPTH_LINES:
        _, game = find_iss_line(FIXTURE, line=line)
        for k in (0, 2):
            state = position(game.record, min(k, len(game.record.cards)))
            kinds.add(int(state[play.GT]))
            check_best_child(state, tt, work, f"line {line} after {k} cards")
    assert {GRAND, NULL} <= kinds and kinds & {0, 1, 2, 3}


def test_real_game_endgames_match_the_plain_minimax() -> None:
    """Real games with four tricks left (after 18 cards) and mid-trick (after 20): the reference's values."""
    tt, work = solver.new_table(16), solver.new_work()
    states = [s for _, _, s in iss_positions((18, 20))]
    assert len(states) >= 40
    for state in states:
        assert solved(state, tt, work) == expected(state)


# The command line.


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["solve", str(FIXTURE), *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    """``skatsim solve --json`` prints the position's solution; after 18 cards it is the reference's value."""
    code, out, err = run(capsys, "--line", "21", "--after", "18", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert set(data) >= {"declarer_points", "won", "schneider", "schwarz", "best_cards", "nodes", "seconds"}
    _, game = find_iss_line(FIXTURE, line=21)
    state = position(game.record, 18)
    points, most, _ = (int(v) for v in reference(state.copy()))
    assert data["declarer_points"] == points
    assert data["won"] == (points >= 61) and data["schneider"] == (points >= 90 or points <= 30)
    assert data["schwarz"] == (most in (0, 10))
    seat = to_move(state)
    values = {}
    for c in from_mask(int(legal_now(state))):
        child = state.copy()
        apply_card(child, seat, c)
        values[iss_name(c)] = int(reference(child)[0])
    best = max(values.values()) if seat == state[play.DECLARER] else min(values.values())
    assert set(data["best_cards"]) == {c for c, v in values.items() if v == best}
    assert data["nodes"] > 0 and data["seconds"] >= 0


def test_a_solves_seconds_are_its_searchs_not_the_kernels_loading() -> None:
    """In a new process the first solve loads (or compiles) the solver's kernels: its ``seconds`` are the
    search's alone, as long as the same solve's again (they held the loading before: 20 ms from numba's
    cache against 30 microseconds, 18 s on a first use)."""
    script = (
        "from skatsim.solve import solve_iss_line\n"
        f"first, again = (solve_iss_line({str(FIXTURE)!r}, 21, 24) for _ in range(2))\n"
        "print(first.seconds, again.seconds)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=True)
    first, again = (float(x) for x in done.stdout.split())
    assert first < 5 * again + 0.005, (first, again)


def test_solve_command_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--line", "21", "--after", "30")
    assert code == 0
    assert "ISS game 4912828" in out and "87 card points, won" in out and "the game is over" in out
    code, out, _ = run(capsys, "--line", "21")
    assert code == 0 and "best cards for FH:" in out and "nodes:" in out


@pytest.mark.parametrize(
    ("line", "declaration"),
    [("2", "clubs hand, declarer RH"), ("21", "grand, declarer MH"), ("3", "null hand ouvert, declarer MH")],
)
def test_solve_command_text_names_the_whole_declaration(
    capsys: pytest.CaptureFixture[str], line: str, declaration: str
) -> None:
    """A hand (or ouvert) game is said so, worded as hand and whatif word a declaration."""
    code, out, _ = run(capsys, "--line", line)
    assert code == 0 and out.splitlines()[1].startswith(declaration + ", after 0 cards: "), out


def test_solve_of_a_folder_without_a_run_says_what_solve_takes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An ISS import's folder or a plain folder: solve names what it takes (not replay's 'give the Parquet
    file', which solve does not read, nor 'is a run folder' for an import)."""
    from skatsim.records.importer import import_iss

    import_iss(FIXTURE, tmp_path / "import")
    (tmp_path / "plain").mkdir()
    for args, message in (
        (("import", "--game", "1"), f"{tmp_path / 'import'} is an ISS import: solve its games from the ISS file"),
        (("import", "--line", "1"), f"{tmp_path / 'import'} is an ISS import: solve its games from the ISS file"),
        (("plain", "--game", "1"), "not a run folder (no manifest.json); solve takes a run folder or an ISS file"),
    ):
        code = main(["solve", str(tmp_path / args[0]), *args[1:]])
        out, err = capsys.readouterr()
        assert (code, out) == (2, "") and err.count("\n") == 1 and message in err, err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--line", "1"), "real_games.sgf line 1: the game was aborted before a declaration"),
        (("--line", "12"), "real_games.sgf line 12: all players passed"),
        (("--line", "46"), "real_games.sgf line 46: the declarer forfeited before discarding"),
        (("--line", "21", "--after", "31"), "real_games.sgf line 21: --after 31: the record has 30 cards of play"),
        (("--line", "999"), "real_games.sgf: no line 999"),
    ],
)
def test_solve_command_errors(capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str) -> None:
    """One line naming the problem and where it is: the file and the line of the game."""
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert err.startswith("skatsim: error: ") and message in err and err.count("\n") == 1


def test_solve_command_rejects_a_line_that_is_not_a_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.sgf"
    bad.write_text("not a game\n")
    assert main(["solve", str(bad), "--line", "1"]) == 2
    _, err = capsys.readouterr()
    assert "not an ISS game record" in err and "Traceback" not in err


def test_a_ramsch_has_no_declarer_to_solve_for() -> None:
    """A Ramsch record (under a variant that plays one) is refused with a one-line reason."""
    from skatsim.variant import load_variant

    params = load_variant(Path(__file__).parents[1] / "variants" / "ramsch.yaml").variant.params()
    rng = np.random.default_rng(5)
    deal = tuple(int(c) for c in rng.permutation(32))
    hands = np.array([sum(1 << c for c in deal[10 * s : 10 * s + 10]) for s in range(3)], dtype=np.uint32)
    state = np.zeros(play.N_FIELDS, dtype=np.int64)
    play.new_play(state, RAMSCH, 0, -1, hands, np.uint32(0))
    cards = []
    while not state[play.OVER]:
        c = int(rng.choice(from_mask(int(legal_now(state)))))
        apply_card(state, to_move(state), c)
        cards.append(c)
    record = GameRecord(deal=deal, bids=((1, -1), (2, -1), (0, -1)), game_type=RAMSCH, cards=tuple(cards))
    with pytest.raises(SkatsimError, match="Ramsch has no declarer"):
        solve_record(record, params=params)


def test_solve_a_game_of_a_recorded_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``skatsim solve RUN_DIR --game N``: the run's recorded game, replayed under the run's rules; after
    its last card the value is the points the bots actually made, from the first lead a full solution."""
    import polars as pl

    from skatsim.run.runner import run_simulation

    folder = tmp_path / "run"
    run_simulation(str(VARIANTS / "official.yaml"), 12, 7, str(folder), jobs=1, chunk_size=5, record_play=True,
                   progress=False)  # fmt: skip
    rows = pl.read_parquet(folder / "*.parquet").sort("game_id")
    played = rows.filter(pl.col("game_type").is_in(["null"]).not_() & pl.col("declarer_points").is_not_null())
    game = int(played["game_id"][0])
    record = GameRecord.from_json(rows.filter(pl.col("game_id") == game)["record"][0])
    code = main(["solve", str(folder), "--game", str(game), "--after", str(len(record.cards)), "--json"])
    out, err = capsys.readouterr()
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["declarer_points"] == int(played["declarer_points"][0]) and data["best_cards"] == []
    assert main(["solve", str(folder), "--game", str(game)]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith(f"{folder} game {game}\n") and "best cards for FH:" in out
    passed = rows.filter(pl.col("game_type").is_null())
    if passed.height:
        assert main(["solve", str(folder), "--game", str(int(passed["game_id"][0]))]) == 2
        assert "all players passed" in capsys.readouterr().err
    for args, message in (
        (("--line", "1"), "is a run folder: name the game with --game N"),
        (("--game", "12"), "--game 12 out of range"),
    ):
        assert main(["solve", str(folder), *args]) == 2
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1
    bare = tmp_path / "bare"
    run_simulation(str(VARIANTS / "official.yaml"), 3, 7, str(bare), jobs=1, progress=False)
    assert main(["solve", str(bare), "--game", "0"]) == 2
    assert "--record-play" in capsys.readouterr().err
    assert main(["solve", str(FIXTURE), "--game", "0"]) == 2
    assert "an ISS file needs --line N" in capsys.readouterr().err
