"""Results: every finished run with its provenance, the tables derived from them, and the files made from those.

* ``records`` — ``results/runs.csv`` and ``local.csv``, ``stats-runs.csv`` and ``stats.csv``:
  runs recorded atomically, conflicting results refused, one table row per size that two
  independent runs agree on;
* ``shipped/`` — a copy of the project's ``local.csv`` and ``stats.csv`` of each variant, shipped in the
  package for ``localcount.known`` (``publish.render`` refreshes them from the project's results/);
* ``publish`` — the generated files: results/README.md, b-files, plots, README's known values;
* ``numberings`` — numbering files (each block's histogram of steps, with provenance) for ``nth`` and
  ``rank``: the package ships some in ``shipped/index/``, the others are built into the data directory.

May import ``engines.base``/``engines.registry`` (constants), ``orchestration.checkpoint``
(machine names), ``lines`` (constants) and ``util``.
"""
