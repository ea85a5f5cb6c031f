"""The pimc bot: perfect-information Monte Carlo card play behind the bot seam.

Its worlds honour what the seat has seen (the sampler is checked on its own); where what the seat
has seen fixes every hidden card, every world is the real deal and the bot must play a card that
wins whenever one does (checked against the solver on constructed endgames); games it plays replay
under the rules (every card legal), and a game is a pure function of (seed, index, variant, bots).
"""

from __future__ import annotations

import numpy as np
import pytest

from skatsim.bots import BOTS, MAX_WORLDS, N_BOT_PARAMS, N_CALIB, PIMC, PIMC_WORLDS, bot_arrays, parse_bots, seam
from skatsim.bots.cardplay import choose_card as heuristic_card
from skatsim.bots.pimc import choose_card, deal_hidden
from skatsim.bots.slots import X_WORLDS
from skatsim.engine import play
from skatsim.engine.block import replay_block, simulate_block
from skatsim.engine.cards import CARD_POINTS
from skatsim.engine.gametypes import GRAND, GROUP, NULL, TRUMP_GROUP
from skatsim.engine.layout import COL_DEAL, COL_GAME_TYPE, LOG_WIDTH, N_COLUMNS
from skatsim.engine.play import apply_card, legal_now
from skatsim.engine.solver import declarer_avoids_tricks, declarer_reaches, new_table, new_work
from skatsim.engine.state import new_search_state
from skatsim.errors import SkatsimError
from skatsim.variant import official_params


def test_the_registry_seats_pimc_with_the_heuristics_bidding_parameters() -> None:
    spec = BOTS["pimc"]
    assert spec.kind == PIMC
    assert [p.name for p in spec.params[:PIMC_WORLDS]] == [p.name for p in BOTS["heuristic"].params]
    assert spec.params[PIMC_WORLDS].name == "worlds"
    assert parse_bots("pimc:worlds=20") == ("pimc",) * 3  # 20 is the default
    assert parse_bots("pimc:worlds=5:loss_aversion=2")[0] == "pimc:loss_aversion=2.0:worlds=5.0"
    kinds, rows = bot_arrays(parse_bots("pimc:worlds=7,heuristic,random"), official_params())
    assert list(kinds[:1]) == [PIMC] and rows[0, N_BOT_PARAMS + N_CALIB] == 7.0  # after the calibration
    assert (rows[0, : N_BOT_PARAMS + N_CALIB] == rows[1, : N_BOT_PARAMS + N_CALIB]).all()  # bids as the heuristic
    prepared = seam.prepare(kinds, rows, official_params())
    assert prepared[0, X_WORLDS] == 7.0 and prepared[1, X_WORLDS] == 0.0
    assert (prepared[0, :X_WORLDS] == prepared[1, :X_WORLDS]).all()
    with pytest.raises(SkatsimError, match="worlds must be between 1 and 100"):
        parse_bots("pimc:worlds=0")
    assert MAX_WORLDS == 100


def test_hidden_cards_are_dealt_where_they_may_lie() -> None:
    """Every card once, the right counts, never into a seat that showed a void in its group; and with
    no constraint each card lands in each place about as often as the room there says."""
    rng = np.array([12345, 0], dtype=np.uint64)
    out = np.zeros(3, dtype=np.int64)
    gen = np.random.default_rng(5)
    for _ in range(300):
        cards = gen.permutation(32)
        hidden = sum(1 << int(c) for c in cards[:12])
        need = (5, 5, 2)
        no_a = sum(1 << int(c) for c in cards[:12] if c // 8 == cards[0] // 8)  # a's void: one suit
        allow_a = 0xFFFFFFFF & ~no_a
        assert (
            deal_hidden(
                rng, np.uint32(hidden), np.uint32(allow_a), np.uint32(0xFFFFFFFF), np.uint32(0xFFFFFFFF), *need, out
            )
            or bin(hidden & ~allow_a).count("1") > 7
        )
        if bin(hidden & ~allow_a).count("1") > 7:
            continue
        a, b, s = (int(x) for x in out)
        assert a | b | s == hidden and a & b == 0 and a & s == 0 and b & s == 0
        assert (bin(a).count("1"), bin(b).count("1"), bin(s).count("1")) == need
        assert a & no_a == 0
    counts = np.zeros((3, 32))
    hidden = (1 << 12) - 1
    for _ in range(3000):
        assert deal_hidden(
            rng, np.uint32(hidden), np.uint32(0xFFFFFFFF), np.uint32(0xFFFFFFFF), np.uint32(0xFFFFFFFF), 5, 5, 2, out
        )
        for k in range(3):
            counts[k] += [(int(out[k]) >> c) & 1 for c in range(32)]
    expected = np.array([5 / 12, 5 / 12, 2 / 12]) * 3000
    assert np.all(np.abs(counts[:, :12] - expected[:, None]) < 5 * np.sqrt(expected[:, None]))


def _groups(gt: int) -> list[int]:
    return sorted({int(GROUP[gt, c]) for c in range(32)})


def _forced_endgame(gen: np.random.Generator, n: int = 5) -> tuple[np.ndarray, int]:
    """A declarer to lead with ``n`` tricks left, whose opponents' groups do not overlap: with their
    voids shown and the skat his own, every hidden card has one place. Returns (state, declarer)."""
    while True:
        gt = int(gen.choice([0, 1, 2, 3, GRAND, NULL]))
        groups = _groups(gt)
        gen.shuffle(groups)
        cut = int(gen.integers(1, len(groups)))
        ga, gb = set(groups[:cut]), set(groups[cut:])
        cards = [int(c) for c in gen.permutation(32)]
        a = [c for c in cards if GROUP[gt, c] in ga][:n]
        b = [c for c in cards if GROUP[gt, c] in gb][:n]
        if len(a) == n and len(b) == n:
            break
    rest = [c for c in cards if c not in a and c not in b]
    mine, skat = rest[:n], rest[n : n + 2]
    d = int(gen.integers(0, 3))
    st_buf = new_search_state(official_params())
    state = st_buf["play"][0]
    hands = np.zeros(3, dtype=np.uint32)
    pa, pb = (d + 1) % 3, (d + 2) % 3
    for seat, cs in ((d, mine), (pa, a), (pb, b)):
        hands[seat] = sum(1 << c for c in cs)
    skat_mask = np.uint32(sum(1 << c for c in skat))
    play.new_play(state, gt, 0, d, hands, skat_mask)
    gone = rest[n + 2 :]
    state[play.PLAYED] = sum(1 << c for c in gone)
    state[play.TRICK_NO] = 10 - n
    state[play.LEADER] = d
    if gt == NULL:
        state[play.TRICKS0 + pa] = 10 - n
    else:
        state[play.TRICKS0 + d] = (10 - n) // 2
        state[play.TRICKS0 + pa] = 10 - n - (10 - n) // 2
        pts = sum(CARD_POINTS[c] for c in gone)
        mine_pts = int(gen.integers(0, pts + 1))
        state[play.POINTS0 + d] = mine_pts
        state[play.POINTS0 + pa] = pts - mine_pts
    for seat, gs in ((pa, ga), (pb, gb)):
        st_buf["voids"][0, seat] = sum(1 << g for g in range(TRUMP_GROUP + 1) if g not in gs)
    st_buf["kinds"][0] = PIMC
    return st_buf, d


def _wins(state: np.ndarray, tt: np.ndarray, work: np.ndarray) -> bool:
    if state[play.GT] == NULL:
        return bool(declarer_avoids_tricks(state, tt, work))
    return bool(declarer_reaches(state, tt, work, 61))


def test_when_the_seat_knows_every_card_pimc_plays_a_winning_card() -> None:
    gen = np.random.default_rng(14)
    tt, work = new_table(12), new_work()
    decided = 0
    overruled = 0
    for _ in range(400):
        buf, d = _forced_endgame(gen)
        st = buf[0]
        state = buf["play"][0]
        legal = int(legal_now(state))
        winning = []
        for c in range(32):
            if legal >> c & 1:
                child = state.copy()
                apply_card(child, d, c)
                if _wins(child, tt, work):
                    winning.append(c)
        habit = heuristic_card(state, d, buf["voids"][0], False)
        chosen = choose_card(st, d, 3)
        assert legal >> chosen & 1
        if winning:
            assert chosen in winning
            decided += len(winning) < bin(legal).count("1")
            overruled += habit not in winning
        else:
            assert chosen == habit
    assert decided >= 10 and overruled >= 3  # positions where the choice mattered, some the heuristic loses


def _simulate(bots: str, first: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    kinds, params = bot_arrays(parse_bots(bots), official_params())
    rows = np.zeros((n, N_COLUMNS), dtype=np.int64)
    logs = np.zeros((n, LOG_WIDTH), dtype=np.int16)
    simulate_block(np.uint64(3), first, kinds, params, official_params(), rows, logs)
    return rows, logs


def test_pimc_games_replay_under_the_rules_and_repeat_exactly() -> None:
    rows, logs = _simulate("pimc:worlds=4,heuristic,pimc:worlds=4", 0, 6)
    assert (rows[:, COL_GAME_TYPE] >= 0).sum() >= 3
    replayed = np.zeros_like(rows)
    errors = np.zeros((rows.shape[0], 5), dtype=np.int64)
    replay_block(rows[:, COL_DEAL].copy(), logs, official_params(), replayed, errors)
    assert not errors.any()  # every card the bot chose was legal
    again, again_logs = _simulate("pimc:worlds=4,heuristic,pimc:worlds=4", 2, 3)
    assert np.array_equal(again, rows[2:5]) and np.array_equal(again_logs, logs[2:5])


def test_only_deals_with_a_searching_bot_carry_the_search() -> None:
    from skatsim.bots import parse_bots
    from skatsim.engine.state import DEAL_STATE, SEARCH_STATE

    assert "search_tt" in SEARCH_STATE.names and "search_tt" not in DEAL_STATE.names
    # the search state carries the solver's table: 2**20 entries of 16 bytes (24 before solver3)
    assert DEAL_STATE.itemsize < 100_000 < 16 * 2**20 < SEARCH_STATE.itemsize
    params = official_params()
    assert seam.searches(bot_arrays(parse_bots("heuristic,pimc,random"), params)[0])
    assert not seam.searches(bot_arrays(parse_bots("heuristic,random,heuristic"), params)[0])


def test_a_search_state_is_no_subtype_of_the_plain_state() -> None:
    """numba would run a state whose fields extend the plain state's at the same offsets through the
    plain state's kernels (where the pimc bot has no search): the two types must not convert."""
    from numba import from_dtype

    from skatsim.engine.state import DEAL_STATE, SEARCH_STATE

    plain, search = from_dtype(DEAL_STATE), from_dtype(SEARCH_STATE)
    assert search.can_convert_to(None, plain) is None and plain.can_convert_to(None, search) is None


def test_what_if_refuses_the_pimc_bot_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    from skatsim.cli import main

    assert main(["hand", "CJ SJ HJ DJ CA CT CK SA HA DA", "--bots", "pimc", "--samples", "10"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "cannot seat the pimc bot" in err
