"""Game records: one game as played (:class:`~.record.GameRecord`), its replay through the engine's
deal flow, the International Skat Server's format (:mod:`.iss` with its compiled parser
:mod:`.issparse`; the archive import :mod:`.importer`, reading files with :mod:`.issfile` and
importing batches of lines with :mod:`.issbatch`; :mod:`.export` the other way) and the
trick-by-trick view (:mod:`.gameview`)."""
