"""Statistics for people: tables with intervals, paired variant comparisons, reports.

* :mod:`~skatsim.analysis.sources` -- :func:`scan` run folders, ISS imports and Parquet files;
* :mod:`~skatsim.analysis.tables` -- game mix, win rates, bids, values, scores, house-rule statistics;
* :func:`bid_values` -- hand bidding values per seat, winning bids, and what each bid and seat brought;
* :mod:`~skatsim.analysis.intervals` -- Wilson, CLT and bootstrap intervals;
* :mod:`~skatsim.analysis.paired`, :mod:`~skatsim.analysis.summary` -- paired analysis of two runs joined on
  ``game_id`` (means, rates among declared games, spreads, outcome changes), and unpaired differences;
* :mod:`~skatsim.analysis.compare` -- paired comparison of two variants on the same deals;
* :mod:`~skatsim.analysis.report` -- self-contained HTML and Markdown reports.
"""

from __future__ import annotations

from .bid_values import BidValues, bid_values
from .intervals import bootstrap_mean, clt_interval, wilson
from .sources import Source, collect, find_sources, scan, source_columns
from .tables import (
    bid_distribution,
    bid_reached,
    bid_shares,
    bock_stats,
    game_mix,
    hand_value_distribution,
    hand_values,
    headline_rates,
    kontra_stats,
    list_lengths,
    list_scores,
    list_totals,
    max_bid_distribution,
    overbid_rate,
    ramsch_stats,
    role_scores,
    seat_scores,
    win_rates,
)

__all__ = [
    "BidValues",
    "Source",
    "bid_distribution",
    "bid_values",
    "bid_reached",
    "bid_shares",
    "bock_stats",
    "bootstrap_mean",
    "clt_interval",
    "collect",
    "find_sources",
    "game_mix",
    "hand_value_distribution",
    "hand_values",
    "headline_rates",
    "kontra_stats",
    "list_lengths",
    "list_scores",
    "list_totals",
    "max_bid_distribution",
    "overbid_rate",
    "ramsch_stats",
    "role_scores",
    "scan",
    "seat_scores",
    "source_columns",
    "wilson",
    "win_rates",
]
