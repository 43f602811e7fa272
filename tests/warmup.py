"""The kernels most test files compile, compiled once per run before the tests start, each pytest-xdist worker
taking its share (``conftest.pytest_sessionstart``).

numba keeps what it compiles on disk; a worker that needs a kernel another one has compiled loads it (a tenth
of a second) instead of compiling it again (seconds), and so do the command-line tests' subprocesses.  Without
this, both workers of ``python -m pytest`` compiled every common kernel, one first test each.  The shares are
balanced by their cold cost on 2 cores (2026-11-29): about 18 s each (with a share, the quick suite took 221 s from
a clean clone, against 245 s without; measurements.md).  Each call is a public one at a size the
tests count anyway, so the signatures are the tests' own.
"""


def _grid_serial():
    from localcount.engines.grid.count import count_shard, plan, solve_grids

    count_shard(plan(3, 4, 2), 0, True)  # the plain kernel, rows' and square's enumerations
    count_shard(plan(3, 3, 2), 0, True)
    solve_grids([0, 1], 3, 3)


def _grid_threaded():
    from localcount.engines.grid.count import count_shards, plan

    count_shards(plan(3, 4, 2), [0, 1], True)


def _line_dp():
    from localcount.engines.grid.count import count

    count(3, 4, table_max=0, spread_max=0)  # the line solvers in the plain kernel (test_count's line-dp cases)


def _compiled_logic():
    import localcount as lc
    from localcount.puzzle.solving import logic

    logic.use_compiled(True)
    try:
        lc.Puzzle(rows=[[1, 1], [1], [3]], columns=[[1, 1], [2], [1, 1]]).solve()
    finally:
        logic.use_compiled(False)


def _numbering():
    from localcount.engines.numbering.count import codes, hist

    hist(3, 3, 0, 512)  # the plain numbering kernels, serial and threaded
    codes(3, 3, 0, 512, how="plain", parallel=False)
    codes(3, 3, 0, 512, how="plain")


def _generated_5x5():
    import localcount as lc

    lc.count(5, 5)


def _stats():
    import localcount as lc

    lc.stats(3, 3)


def _thin():
    import localcount as lc

    lc.count(2, 14)


def _sample():
    import localcount as lc

    lc.sample(8, 8, count=100, seed=1)


#: (share of worker 0, share of worker 1): each a list of calls.
SHARES = (
    (_grid_serial, _generated_5x5, _sample, _line_dp),
    (_grid_threaded, _stats, _thin, _compiled_logic, _numbering),
)


def warm(worker: int, workers: int) -> None:
    """Compile (or load) this worker's share of the common kernels: with two workers its half of SHARES, with
    more the shares in turn; one worker alone compiles as the tests go."""
    if workers < 2:
        return
    calls = [call for i, share in enumerate(SHARES) if i % workers == worker for call in share]
    for call in calls:
        call()
