"""The rules engine: compiled kernels over compact data, and the one flow of a deal.

Cards are ints 0..31 and sets of cards bits of a ``uint32`` (:mod:`.cards`); every
rule is a small kernel over plain arrays (bidding, declaration, tricks, play,
scoring, Kontra, Ramsch, Bock); a variant reaches them as one ``int64`` parameter
array (:mod:`.rules`). :mod:`.flow` walks one deal through its phases, asking the
seat's player at every decision through the bot seam (:mod:`skatsim.bots.seam`);
:mod:`.lists` seats the players deal by deal; :mod:`.block` plays a block of games
into result rows laid out by :mod:`.layout`. Nothing here imports polars.
"""
