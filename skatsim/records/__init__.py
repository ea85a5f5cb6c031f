"""Game records: one game as played (:class:`~.record.GameRecord`), its replay through the engine's
deal flow, the International Skat Server's format (:mod:`.iss`, :mod:`.importer`) and the
trick-by-trick view (:mod:`.gameview`)."""
