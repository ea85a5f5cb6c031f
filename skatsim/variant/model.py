"""The variant model: one pydantic section per house rule (RULES.md §6), every default the
official rule, compiled to the kernels' rule parameters by :meth:`Variant.params`."""

from __future__ import annotations

import functools
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator
from pydantic_core import PydanticCustomError

from ..engine import rules
from .combinations import combination_problems
from .keys import AllPass, BockEvent

#: A variant file larger than this is refused before parsing (real ones are ~2 KiB).
MAX_FILE_BYTES = 64 * 1024
#: Most YAML values (nodes) a document may expand to once aliases are followed.
MAX_NODES = 5_000
#: Longest chain of ``extends``.
MAX_EXTENDS = 16


class _Section(BaseModel):
    """Common settings: frozen, strict types (``"2"`` is not an integer), unknown keys refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


#: Deals per player in a list whose length is not set: 36 at a three-player table, 48 at four.
DEALS_PER_PLAYER = 12


class Scoring(_Section):
    """How a played game's score is reckoned (RULES.md §5, §6 "Pre-1999 hand losses")."""

    lost_factor: int = Field(
        2, ge=1, le=4, description="A lost game costs this many times its value (2 since 1999, ISkO 5.7)."
    )
    lost_hand_factor: int = Field(
        2,
        ge=1,
        le=4,
        description="The same for a lost hand game (1 under the pre-1999 rules). It may exceed "
        "`lost_factor`: no known table does that, but nothing depends on the order, so it is allowed.",
    )
    grand_ouvert: Literal["official", "base_36"] = Field(
        "official",
        description="A Grand ouvert's value: `official`, base value 24 with ouvert one more multiplier level "
        "(ISkO since 1999: with 4, 11 x 24 = 264); `base_36`, base value 36 and no level for ouvert "
        "(the pre-1999 rules, xskat's -oldrules: with 4, 10 x 36 = 360).",
    )


class FixedValues(_Section):
    """Fixed Ramsch values: the loser loses ``base + per_jungfrau * Jungfrauen`` (10 / 15 / 20)."""

    base: int = Field(10, ge=1, le=1000, description="Loss of the Ramsch loser without a Jungfrau.")
    per_jungfrau: int = Field(
        5, ge=0, le=1000, description="Added per player who took no trick (used when `ramsch.jungfrau` is true)."
    )


class WinnerValues(_Section):
    """Winner-Ramsch values (played in some tournaments): the player with fewest card points wins."""

    single: int = Field(23, ge=1, le=1000, description="Won by a single player with fewest card points.")
    tied: int = Field(37, ge=1, le=1000, description="Won by each of two players tied for fewest card points.")


class Ramsch(_Section):
    """Ramsch: every player for himself, Grand trumps, most card points loses (RULES.md §6).

    Counts only when a Ramsch can happen: ``all_pass`` is ``ramsch`` or
    ``schieberamsch``, or ``bock.ramsch_round_after`` is true.
    """

    skat_to: Literal["last_trick", "loser", "nobody", "each_loser"] = Field(
        "last_trick",
        description="Whose card points the skat adds to: the winner of the last trick; the loser (of players "
        "tied for most points in tricks, the one who won the later trick); nobody; or each loser (every player "
        "tied for most points in tricks loses his points and the skat's, as xskat's -skattoloser).",
    )
    tie: Literal["all_lose", "last_trick_loses", "share"] = Field(
        "all_lose",
        description="A tie for most card points: every tied player loses, the tied player who took the last "
        "trick loses, or the tied players share the loss (40:40:40 shared three ways). Not with `scoring: winner`.",
    )
    three_way_tie: Literal["by_tie_rule", "nobody_loses"] = Field(
        "by_tie_rule",
        description="All three tied for most card points (40:40:40): scored by `tie`, or nobody loses and "
        "every player scores 0 (as xskat does). Not with `scoring: winner`.",
    )
    scoring: Literal["points", "fixed", "winner"] = Field(
        "points",
        description="`points`: the loser scores minus his card points; `fixed`: minus `fixed_values`; "
        "`winner`: the player with fewest card points wins `winner_values` like a declarer.",
    )
    fixed_values: FixedValues = Field(FixedValues(), description="Values of `scoring: fixed` (only with it).")
    winner_values: WinnerValues = Field(WinnerValues(), description="Values of `scoring: winner` (only with it).")
    jungfrau: bool = Field(
        True,
        description="Each player who took no trick (Jungfrau) doubles the loss (`fixed`: adds "
        "`fixed_values.per_jungfrau`). A trick of three zero-point cards is a trick. Not with `scoring: winner`.",
    )
    durchmarsch: bool = Field(
        True,
        description="A player who takes every trick wins `durchmarsch_value` (Durchmarsch); if false he is "
        "the loser like anyone with most card points, doubled per Jungfrau.",
    )
    durchmarsch_value: int = Field(120, ge=1, le=1000, description="What a Durchmarsch wins (only with `durchmarsch`).")
    grand_hand_instead: bool | Literal["ramsch_rounds"] = Field(
        False,
        description="Before the Ramsch starts, a player may declare Grand hand instead (FH first): `true` before "
        "every Ramsch; `ramsch_rounds` only before a Ramsch of a Bock list's Ramsch round (xskat; needs "
        "`bock.ramsch_round_after`).",
    )
    every_deal: bool = Field(
        False,
        description="Every deal is a Ramsch, without bidding: Ramsch as a game of its own (the Ramsch-Ordnung; "
        "xskat's -ramschonly), Grand hand the only alternative when `grand_hand_instead`. Needs `all_pass: "
        "ramsch` or `schieberamsch`, which names the kind of Ramsch.",
    )


class Schieberamsch(_Section):
    """Schieberamsch: FH, MH, RH in turn may pick up the skat and pass two cards on (RULES.md §6).

    Counts only when a Schieberamsch can happen: ``all_pass: schieberamsch``, or a
    Bock Ramsch round of ``ramsch_round_kind: schieberamsch``.
    """

    jacks_may_be_pushed: bool = Field(False, description="Jacks may be among the two cards passed on.")
    doubling: Literal["decline", "push"] = Field(
        "decline",
        description="`decline`: each player who passes the skat on unseen doubles the result (all three: x8, "
        "as in the seeds); `push`: each player who picks it up and passes two cards doubles it.",
    )


class Kontra(_Section):
    """Kontra / Re: defenders double the game score, the declarer redoubles (RULES.md §6)."""

    enabled: bool = Field(False, description="A defender may say Kontra (x2) and the declarer answer Re (x4).")
    when: Literal["before_first_card", "after_declaration"] = Field(
        "before_first_card",
        description="When Kontra may be said: before the first card, or right after the declaration.",
    )
    only_if_bid: bool = Field(False, description="Only a defender who bid or held at least 18 may say Kontra.")
    beyond_re: int = Field(
        0,
        ge=0,
        le=3,
        description="Further doublings after Re (Bock/Hirsch, Supra, ...): 0 none (x4 is the top), 1 up to x8, "
        "2 up to x16, 3 up to x32.",
    )
    multiplies_list_points: bool = Field(
        False,
        description="Kontra/Re also multiply the Seeger-Fabian +50/-50/+40 (only with `tournament.enabled`).",
    )


class Bock(_Section):
    """Bock rounds: events queue rounds of one deal per player in which scores count double (RULES.md §6).

    Bock needs sequences of deals (lists) with the dealer rotating: a variant
    with Bock simulates lists of ``list_length`` deals.
    """

    enabled: bool = Field(False, description="Play Bock rounds.")
    events: tuple[BockEvent, ...] = Field(
        (),
        description="Events that queue a Bock round (at least one when enabled): `all_passed`; `kontra_re` "
        "(Kontra and Re said); `lost_after_kontra`; `sixty_sixty` or its other name `lost_sixty_sixty` "
        "(a game lost 60:60); `lost_grand`; `lost_grand_hand`; `value_100` (game value 100 or more); "
        "`won_grand_hand`; `won_null_ouvert_hand`; `total_multiple_100` (a running total reaches a multiple of 100); "
        "`total_three_equal_digits` (a running total ends in three equal digits: 111, ..., 999, 1000, 1111); "
        "`won_value_72`, `won_value_96` (a won game worth 72 or 96 or more before any doubling; a recognised "
        "Durchmarsch counts as won at its value).",
    )
    rounds_per_deal: Literal["one", "per_event"] = Field(
        "one",
        description="Bock rounds a deal with several events queues: `one`; or `per_event`, one per event (xskat), "
        "where related events of a deal count once: `kontra_re` with `lost_after_kontra`, `lost_grand` with "
        "`lost_grand_hand`, `won_value_72` with `won_value_96`, and the running-total events of one player.",
    )
    zero_total_counts: bool = Field(
        False,
        description="A running total returning to 0 counts for `total_multiple_100` and "
        "`total_three_equal_digits` (as 000), as xskat counts it; if false only nonzero totals count.",
    )
    ramsch_round_grand_hand: Literal["counts", "deals_again"] = Field(
        "counts",
        description="A Grand hand declared instead of a Ramsch in a Ramsch round (`ramsch.grand_hand_instead`): "
        "`counts` as one of the round's deals; `deals_again`: not counted, the same dealer deals again (xskat).",
    )
    multiplier: int = Field(2, ge=2, le=8, description="Score multiplier inside a Bock round.")
    trigger_counts_double: bool = Field(False, description="The deal that triggers a Bock round itself counts with it.")
    ramsch_round_after: bool = Field(
        False, description="A round of compulsory Ramsch (one deal per player) follows each Bock round."
    )
    ramsch_round_kind: Literal["ramsch", "schieberamsch"] = Field(
        "ramsch", description="Kind of Ramsch played in that round (only with `ramsch_round_after`)."
    )
    list_length: int = Field(
        36,
        ge=3,
        le=3000,
        description="Deals per simulated list (a positive multiple of `table.players`; not set: 12 per player, "
        "36 or 48). With `tournament.enabled` the list is `tournament.list_length` and this key must not be set.",
    )

    @field_validator("events", mode="before")
    @classmethod
    def _list_to_tuple(cls, value: Any) -> Any:
        """YAML gives lists; the frozen model keeps a tuple."""
        return tuple(value) if isinstance(value, list) else value


class ReversedGame(_Section):
    """Sächsische Spitze: a Grand-like game with reversed order, base value 20 (RULES.md §6)."""

    enabled: bool = Field(
        False,
        description="Declarers may play the reversed game: DJ HJ SJ CJ on top, then 7 8 9 10 Q K A in every "
        "suit; base value 20; matadors counted from DJ (at most 4).",
    )


class Tournament(_Section):
    """Seeger-Fabian list scoring (RULES.md §5; ISkO/SkWO)."""

    enabled: bool = Field(False, description="Keep Seeger-Fabian list points over lists of deals.")
    won_bonus: int = Field(50, ge=0, le=1000, description="List points added to a won game.")
    lost_malus: int = Field(50, ge=0, le=1000, description="List points subtracted from a lost game.")
    defender_bonus: int = Field(
        40,
        ge=0,
        le=1000,
        description="List points to each other player when the declarer loses: 40 to each defender at a "
        "three-player table; not set at a four-player table: 30 to each of the three others, the dealer "
        "sitting out included (ISkO/SkWO).",
    )
    list_length: int = Field(
        36,
        ge=3,
        le=3000,
        description="Deals per list (a positive multiple of `table.players`, so every player deals equally often; "
        "not set: 12 per player, 36 at three players, 48 at four).",
    )


class Table(_Section):
    """Who plays (RULES.md §1): three players, or four, where the dealer sits out each deal.

    At a four-player table the deal moves round four players: in each deal the dealer sits out
    and the other three play as forehand, middlehand and rearhand. Deals are played in lists
    (12 per player, 48 deals, unless `tournament.list_length` or `bock.list_length` says
    otherwise); a Bock or Ramsch round has one deal per player (four).
    """

    players: Literal[3, 4] = Field(
        3, description="Players at the table: 3, or 4 (the dealer sits out each deal; lists of 48 deals)."
    )


#: The rules between keys that :meth:`Variant._check_combinations` enforces (rendered in docs/variants.md).
COMBINATION_RULES = (
    "`ramsch` options need a rule that produces a Ramsch: `all_pass: ramsch` or `schieberamsch`, "
    "or `bock.ramsch_round_after: true`.",
    "`schieberamsch` options need `all_pass: schieberamsch`, or a Bock Ramsch round with "
    "`bock.ramsch_round_kind: schieberamsch`.",
    "`ramsch.fixed_values` needs `ramsch.scoring: fixed`; `ramsch.winner_values` needs `ramsch.scoring: winner`; "
    "`ramsch.tie` and `ramsch.jungfrau` do not apply to `scoring: winner`.",
    "`ramsch.durchmarsch_value` needs `ramsch.durchmarsch: true`; `ramsch.every_deal: true` needs `all_pass: "
    "ramsch` or `schieberamsch`.",
    "`kontra`, `bock` and `tournament` options need their section's `enabled: true`.",
    "`bock.events` must list at least one event when Bock is enabled, each once (`sixty_sixty` and "
    "`lost_sixty_sixty` are the same event); `kontra_re` and `lost_after_kontra` need `kontra.enabled: true`.",
    "`bock.ramsch_round_kind` needs `bock.ramsch_round_after: true`.",
    "`bock.list_length` must not be set with `tournament.enabled: true` (the list is `tournament.list_length`).",
    "`kontra.multiplies_list_points: true` needs `tournament.enabled: true`.",
    "`tournament.list_length` and `bock.list_length` are multiples of `table.players` (every player deals "
    "equally often).",
    "`bock.zero_total_counts` needs a running-total event (`total_multiple_100` or `total_three_equal_digits`); "
    "`bock.ramsch_round_grand_hand` needs `bock.ramsch_round_after: true` and `ramsch.grand_hand_instead`; "
    "`ramsch.grand_hand_instead: ramsch_rounds` needs `bock.ramsch_round_after: true`.",
    "`unused_options: allowed` keeps the options of rules the file leaves off instead of refusing them (every "
    "rule above that says an option needs another); it holds for the keys of the file that says it, also "
    "when another file extends it, and is not inherited.",
)


class Variant(_Section):
    """A complete rule set. Every key defaults to the official rules (ISkO)."""

    name: str = Field(
        "official",
        min_length=1,
        max_length=80,
        pattern=r"^[^\x00-\x1f\x7f]+$",
        description="Short name, stored in every row's `variant` column.",
    )
    description: str = Field("", max_length=4000, description="What the variant models and its sources.")
    extends: str | tuple[str, ...] | None = Field(
        None,
        description="Another variant file, or a list of them, whose keys this file overrides (paths relative "
        "to this file). Merged deeply: mappings merge key by key, lists and values are replaced; in a list, "
        "later files override earlier ones and this file overrides them all.",
    )

    @field_validator("extends", mode="before")
    @classmethod
    def _extends_tuple(cls, value: Any) -> Any:
        """YAML gives lists; the frozen model keeps a tuple."""
        return tuple(value) if isinstance(value, list) else value

    unused_options: Literal["refused", "allowed"] = Field(
        "refused",
        description="`allowed`: options of rules this file leaves off are kept, not refused, so that a file meant "
        "to be extended can hold a table's choice for each rule (variants/xskat.yaml). Holds for this file's "
        "own keys, also through `extends`; a file extending it has its own unused options refused.",
    )
    all_pass: AllPass = Field(
        "redeal",
        description="When all three pass: `redeal` (official; the deal is counted as `passed`), `ramsch`, or "
        "`schieberamsch`.",
    )
    scoring: Scoring = Field(Scoring(), description="Score of a played game.")
    ramsch: Ramsch = Field(Ramsch(), description="Ramsch options.")
    schieberamsch: Schieberamsch = Field(Schieberamsch(), description="Schieberamsch options.")
    kontra: Kontra = Field(Kontra(), description="Kontra / Re.")
    bock: Bock = Field(Bock(), description="Bock rounds.")
    reversed_game: ReversedGame = Field(ReversedGame(), description="Sächsische Spitze.")
    tournament: Tournament = Field(Tournament(), description="Seeger-Fabian list scoring.")
    table: Table = Field(Table(), description="Three or four players.")

    @model_validator(mode="after")
    def _check_combinations(self, info: ValidationInfo) -> Variant:
        """Refuse impossible combinations (:data:`COMBINATION_RULES`), naming the key path of each.

        All of them at once, in one error whose context lists ``(path, problem)``
        pairs, so a file with several gets one line per problem, not one per run.
        Options of rules that are off are kept under ``unused_options: allowed``, and
        for the key paths the validation context lists as ``unused_allowed`` (the keys
        of extended files that say ``unused_options: allowed``, :func:`load_variant`).
        """
        context = info.context if isinstance(info.context, dict) else {}
        kept = frozenset(context.get("unused_allowed", ()))
        problems = combination_problems(self, lambda path: self.unused_options == "allowed" or path in kept)
        if problems:
            summary = "; ".join(f"{path}: {problem}" for path, problem in problems)
            raise PydanticCustomError("impossible_combination", "{summary}", {"summary": summary, "problems": problems})
        return self

    @property
    def ramsch_possible(self) -> bool:
        """Whether any rule here produces a Ramsch deal."""
        return self.all_pass != "redeal" or self.ramsch_rounds

    @property
    def ramsch_rounds(self) -> bool:
        """Whether Bock lists here have a round of compulsory Ramsch after each Bock round."""
        return self.bock.enabled and self.bock.ramsch_round_after

    @property
    def schieberamsch_possible(self) -> bool:
        """Whether any rule here produces a Schieberamsch deal."""
        bock_round = (
            self.bock.enabled and self.bock.ramsch_round_after and self.bock.ramsch_round_kind == "schieberamsch"
        )
        return self.all_pass == "schieberamsch" or bock_round

    @property
    def needs_lists(self) -> bool:
        """Whether deals must be simulated as sequences (lists) rather than independently.

        Bock rounds carry state from deal to deal and Seeger-Fabian points are
        summed per list; both need the dealer rotating through a list. At a
        four-player table who sits out depends on the deal's place in its list.
        """
        return self.bock.enabled or self.tournament.enabled or self.table.players == 4

    @property
    def list_length(self) -> int:
        """Deals per list (0 when deals are independent): the tournament's, else Bock's, each 12 per
        player when not set (36 at three players, 48 at four); 48 at a plain four-player table."""
        if self.tournament.enabled:
            return self._length_of(self.tournament)
        if self.bock.enabled:
            return self._length_of(self.bock)
        return DEALS_PER_PLAYER * 4 if self.table.players == 4 else 0

    def _length_of(self, section: Bock | Tournament) -> int:
        """A section's list length: as written, else 12 deals per player."""
        if "list_length" in section.model_fields_set:
            return section.list_length
        return DEALS_PER_PLAYER * self.table.players

    @property
    def defender_bonus(self) -> int:
        """List points to each other player of a lost game: as written, else 40 (three players) or 30 (four)."""
        if "defender_bonus" in self.tournament.model_fields_set:
            return self.tournament.defender_bonus
        return 40 if self.table.players == 3 else 30

    def params(self) -> np.ndarray:
        """Compile to the kernels' rule parameter array (index constants of :mod:`skatsim.engine.rules`)."""
        values = self._param_values()
        p = np.zeros(rules.N_PARAMS, dtype=np.int64)
        p[list(values)] = list(values.values())
        return p

    def _param_values(self) -> dict[int, int]:
        """Each rules.py index and the value this variant gives it."""
        r, s, k, b, t = self.ramsch, self.schieberamsch, self.kontra, self.bock, self.tournament
        values = {
            rules.LOST_FACTOR: self.scoring.lost_factor,
            rules.LOST_HAND_FACTOR: self.scoring.lost_hand_factor,
            rules.LIST_SCORING: int(t.enabled),
            rules.LIST_WON_BONUS: t.won_bonus,
            rules.LIST_LOST_MALUS: t.lost_malus,
            rules.LIST_DEFENDER_BONUS: self.defender_bonus,
            rules.REVERSED_ALLOWED: int(self.reversed_game.enabled),
            rules.ALL_PASS: rules.ALL_PASS_CODES[self.all_pass],
            rules.RAMSCH_SKAT_TO: rules.RAMSCH_SKAT_TO_CODES[r.skat_to],
            rules.RAMSCH_TIE: rules.RAMSCH_TIE_CODES[r.tie],
            rules.RAMSCH_SCORING: rules.RAMSCH_SCORING_CODES[r.scoring],
            rules.RAMSCH_FIXED_BASE: r.fixed_values.base,
            rules.RAMSCH_FIXED_PER_JUNGFRAU: r.fixed_values.per_jungfrau,
            rules.RAMSCH_WINNER_SINGLE: r.winner_values.single,
            rules.RAMSCH_WINNER_TIED: r.winner_values.tied,
            rules.RAMSCH_JUNGFRAU: int(r.jungfrau),
            rules.RAMSCH_DURCHMARSCH: int(r.durchmarsch),
            rules.RAMSCH_DURCHMARSCH_VALUE: r.durchmarsch_value,
            rules.RAMSCH_GRAND_HAND: rules.RAMSCH_GRAND_HAND_CODES[r.grand_hand_instead],
            rules.SCHIEBE_JACKS: int(s.jacks_may_be_pushed),
            rules.SCHIEBE_DOUBLING: rules.SCHIEBE_DOUBLING_CODES[s.doubling],
            rules.KONTRA_ENABLED: int(k.enabled),
            rules.KONTRA_WHEN: rules.KONTRA_WHEN_CODES[k.when],
            rules.KONTRA_ONLY_IF_BID: int(k.only_if_bid),
            rules.KONTRA_BEYOND_RE: k.beyond_re,
            rules.KONTRA_LIST_POINTS: int(k.multiplies_list_points),
            rules.BOCK_ENABLED: int(b.enabled),
            rules.BOCK_EVENTS: _event_bits(b.events),
            rules.BOCK_MULTIPLIER: b.multiplier,
            rules.BOCK_TRIGGER_DOUBLE: int(b.trigger_counts_double),
            rules.BOCK_RAMSCH_ROUND: rules.ALL_PASS_CODES[b.ramsch_round_kind] if b.ramsch_round_after else 0,
            rules.LIST_LENGTH: self.list_length,
            rules.RAMSCH_EVERY_DEAL: int(r.every_deal),
            rules.RAMSCH_THREE_WAY_TIE: rules.RAMSCH_THREE_WAY_TIE_CODES[r.three_way_tie],
            rules.BOCK_RAMSCH_ROUND_GRAND: rules.BOCK_RAMSCH_ROUND_GRAND_CODES[b.ramsch_round_grand_hand],
            rules.BOCK_ZERO_TOTAL: int(b.zero_total_counts),
            rules.BOCK_PER_EVENT: rules.BOCK_PER_EVENT_CODES[b.rounds_per_deal],
            rules.GRAND_OUVERT_36: rules.GRAND_OUVERT_CODES[self.scoring.grand_ouvert],
            rules.TABLE_PLAYERS: self.table.players,
        }
        return values


@functools.cache
def _official() -> np.ndarray:
    params = Variant().params()
    params.flags.writeable = False
    return params


def official_params() -> np.ndarray:
    """The rule parameters of the official rules (ISkO): those of a variant that changes nothing."""
    return _official().copy()


def _event_bits(events: tuple[str, ...]) -> int:
    """The ``BOCK_EVENTS`` bit mask of a list of event names."""
    mask = 0
    for event in events:
        mask |= rules.BOCK_EVENT_BITS[event]
    return mask
