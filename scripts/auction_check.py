"""How the bots' outcome model reads a declarer's chance against what self-play shows, by auction.

    python scripts/auction_check.py --games 1000000

The bots bid by their model's log-odds before the pickup, one model over every auction
(docs/bots.md, Outcome probabilities; it tells forehand from the others, nothing more). This
plays ``--games`` games of self-play under ``--variant`` (``variants/tournament.yaml`` by
default; the default bots, seed ``--seed``, in this process) and, for every suit game and Grand
declared with the skat, sets the declarer's observed win rate beside the mean chance the model
gave his ten cards for that game before the pickup (no confidence added: the model alone), by
the final bid and the declarer's seat. The declared games are those the skat favoured, so the
model reads them low on the whole (docs/bots.md, Kontra: the model's own bias); the differences
between the rows are the auction's: a cheap auction is won against weak hands, a dear one against
strong ones, and rearhand wins an auction only by outbidding, against hands weaker than those
middlehand meets (docs/bots.md, Break-even, by seat).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from skatsim.bots import parse_bots
from skatsim.bots.handeval import BEFORE_PICKUP, GRAND_CLASS, SUIT_CLASS
from skatsim.bots.winprob import game_logit
from skatsim.engine.deal import unpack_deal
from skatsim.engine.gametypes import GAME_TYPE_NAMES, GRAND
from skatsim.run.chunks import simulate_frame
from skatsim.variant import load_variant

sys.path.insert(0, str(Path(__file__).parent))
from realism import add_self_play_options  # noqa: E402  (a script beside this one)

#: The games counted (the four suits and Grand), by their names in the rows.
GAME_TYPES = {name: gt for gt, name in enumerate(GAME_TYPE_NAMES[: GRAND + 1])}
#: Final bids, grouped: the cheapest auction, the rest of the suit games' range, up to 48, and above.
BIDS = ((18, 18), (20, 33), (35, 47), (48, 59), (60, 264))
SEATS = ("forehand", "middlehand", "rearhand")
#: Rows with fewer declarations are left out (a win rate's standard error at 200 is about 3 points).
MIN_GAMES = 200


def declarations(games: int, seed: int, variant_path: str, bots: str) -> np.ndarray:
    """One row per suit game or Grand declared with the skat: Grand (1) or not, the declarer's seat, the
    final bid, won (1) or not, and the model's chance before the pickup for that game and his ten cards."""
    variant = load_variant(variant_path).variant
    frame = simulate_frame(seed, 0, games, variant.params(), parse_bots(bots), variant.name)
    picked_up = frame.filter(frame["game_type"].cast(str).is_in(list(GAME_TYPES)) & ~frame["hand"])
    hands = np.zeros(3, dtype=np.uint32)
    rows = []
    for game, seat, bid, won, deal in picked_up.select(["game_type", "declarer", "bid", "won", "deal"]).iter_rows():
        unpack_deal(np.int64(deal), hands)
        gt = GAME_TYPES[game]
        cls = GRAND_CLASS if gt == GRAND else SUIT_CLASS
        z = game_logit(cls, BEFORE_PICKUP, gt, np.uint32(hands[seat]), 0.0, seat)
        rows.append((gt == GRAND, seat, bid, won, 1.0 / (1.0 + np.exp(-z))))
    return np.array(rows, dtype=np.float64).reshape(-1, 5)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_self_play_options(parser)
    args = parser.parse_args()
    grand, seat, bid, won, chance = declarations(args.games, args.seed, args.variant, args.bots).T
    print(
        f"{args.games:,} games, variant {Path(args.variant).stem}, bots {args.bots}, seed {args.seed}: "
        "games declared with the skat\n"
    )
    print("| game | final bid | declarer | games | won | model before the pickup | won - model |")
    print("| --- | --- | --- | ---: | ---: | ---: | ---: |")
    for name, is_grand in (("suit", 0), ("Grand", 1)):
        for lo, hi in BIDS:
            for s, seat_name in enumerate(SEATS):
                rows = (grand == is_grand) & (seat == s) & (bid >= lo) & (bid <= hi)
                n = int(rows.sum())
                if n < MIN_GAMES:
                    continue
                w, m = 100 * won[rows].mean(), 100 * chance[rows].mean()
                print(f"| {name} | {lo}-{hi} | {seat_name} | {n:,} | {w:.1f} | {m:.1f} | {w - m:+.1f} |")


if __name__ == "__main__":
    main()
