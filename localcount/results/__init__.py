"""Results: every finished run with its provenance, the tables derived from them, and the files made from those.

* ``records`` — ``results/runs.csv`` and ``local.csv``, ``stats-runs.csv`` and ``stats.csv``:
  runs recorded atomically, conflicting results refused, one table row per size that two
  independent runs agree on;
* ``publish`` — the generated files: results/README.md, b-files, plots, README's known values.

May import ``engines.base``/``engines.registry`` (constants), ``orchestration.checkpoint``
(machine names), ``lines`` (constants) and ``util``.
"""
