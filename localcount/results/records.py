"""The results files: every counting run with its provenance, and one row per size.

``results/runs.csv`` keeps one row per run (a shard layout counted to the
end: orientation, symmetry group and shard bits are in its ``layout`` key),
``results/local.csv`` one row per size n ≤ m that REQUIRED_RUNS independent
runs (different layouts) agree on, derived from the runs.  Both
are written only through ``add_run`` (temp file + ``os.replace``, so a crash
leaves the old or the new file, never half of one).  A run whose count
differs from a count already recorded for its size, in either orientation,
is refused with ``ConflictError`` and nothing is written: a mismatch is a
bug to find, never something to overwrite.

``stats-runs.csv`` and ``stats.csv`` do the same for ``stats`` runs
(uniqueness, difficulty, stuck grids), through ``add_stats_run``; a stats
run's locally solvable count must also equal the size's counting runs.
The step histogram (stats vector version 2) came later: its columns are the
last ones, so files written before it still read (the columns are empty
there), and a run without it agrees with one that has it when everything
both have is equal.  A size's steps enter ``stats.csv`` once REQUIRED_RUNS
runs with steps agree; ``table --stats`` runs a size again until then.

Each puzzle family has its own directory (``variant_dir``: yesnograms in
``results/yesnogram/``), and a file never mixes them: a run whose layout
key names another variant (``variant_of``: keys ending in ``-yes``) than the
runs already there is refused with ``ConflictError``.
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import io
import pathlib
from dataclasses import MISSING, asdict, dataclass, fields

from ..util.version import __version__
from ..engines.base import variant_of_key
from ..util.files import write_atomic
from ..util.provenance import cpu_model, git_commit, utc_now

RUNS = "runs.csv"
TABLE = "local.csv"
STATS_RUNS = "stats-runs.csv"
STATS_TABLE = "stats.csv"
#: Independent runs that must agree before a size enters the table.
REQUIRED_RUNS = 2
#: Where each variant's results live, under the results directory ("": the directory itself).
VARIANT_DIRS = {"nonogram": "", "yesnogram": "yesnogram"}
#: The copy of the project's tables that the package ships (``known``): local.csv and stats.csv of each variant,
#: as in results/.
SHIPPED = pathlib.Path(__file__).resolve().parent / "shipped"
#: The project's own results directory, in a checkout (``publish.render`` refreshes SHIPPED from it).
PROJECT_RESULTS = pathlib.Path(__file__).resolve().parent.parent.parent / "results"


def variant_of(layout_key: str) -> str:
    """The puzzle family a run's layout key names (``engines.base.VARIANT_SUFFIX``: yesnogram keys end in '-yes')."""
    return variant_of_key(layout_key)


def variant_dir(results, variant: str) -> pathlib.Path:
    """The directory of a variant's results under ``results``."""
    return pathlib.Path(results) / VARIANT_DIRS[variant]


class ConflictError(Exception):
    """Two runs of the same size disagree."""


@dataclass(frozen=True)
class Run:
    """One counting run to the end, with how and where it was made."""

    n: int  # the size, n ≤ m (a run of m×n is recorded under n×m; its layout says which)
    m: int
    layout: str  # the shard layout key, e.g. '12x3-v1-s14-sym': orientation, logic version, shards, group
    count: int
    grids: int  # 2^(n·m)
    wall_s: float  # wall time of the session that finished the count (report.active_seconds: all sessions)
    compute_s: float  # seconds summed over every shard (all processes, all resumptions)
    processes: int
    version: str  # localcount version
    commit: str  # git commit of the code, '+dirty' if it had changes
    date: str  # UTC, when the count was finished
    cpu: str
    command: str

    @property
    def size(self) -> tuple:
        """(n, m)."""
        return self.n, self.m

    @property
    def measures(self) -> tuple:
        """What two runs of a size must agree on."""
        return (self.count,)

    def agrees(self, other) -> bool:
        """Whether two runs of a size give the same count."""
        return self.measures == other.measures

    @property
    def complete(self) -> bool:
        """Whether the run has every measure this version records (always, for counts)."""
        return True

    @property
    def gave(self) -> str:
        """The result, for messages."""
        return str(self.count)

    @property
    def summary(self) -> tuple:
        """What ``table`` prints after the size."""
        return (self.count,)


@dataclass(frozen=True)
class Row:
    """One size of the table: the count and the provenance of its first run."""

    n: int
    m: int
    count: int
    grids: int
    fraction: str  # count / grids, 12 significant digits
    wall_s: float
    processes: int
    version: str
    commit: str
    date: str
    cpu: str
    command: str
    runs: int  # independent runs (different layouts) that agree on the count
    layouts: str  # their layout keys, ';'-separated (details in runs.csv)


def _convert(cls, raw: dict):
    """A dataclass from a CSV row, with the field types restored (a column the file lacks takes its default)."""
    out = {}
    for f in fields(cls):
        if f.name not in raw:
            continue
        value = raw[f.name]
        out[f.name] = int(value) if f.type == "int" else float(value) if f.type == "float" else value
    return cls(**out)


def _read_csv(path: pathlib.Path, cls) -> list:
    """The rows of a results CSV as ``cls`` instances; [] if the file does not exist."""
    if not path.exists():
        return []
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        want = [f.name for f in fields(cls)]
        required = [f.name for f in fields(cls) if f.default is MISSING]
        if reader.fieldnames not in (want, required):  # files written before the defaulted columns lack them
            raise ValueError(f"{path}: unexpected columns {reader.fieldnames}; expected {want}")
        try:
            return [_convert(cls, row) for row in reader]
        except (ValueError, KeyError, TypeError) as err:
            raise ValueError(f"{path}: line {reader.line_num}: {err}") from None


def read_runs(directory) -> list:
    """The runs recorded in ``directory`` (empty if there is no runs file yet)."""
    return _read_csv(pathlib.Path(directory) / RUNS, Run)


def read_table(directory) -> list:
    """The rows of ``local.csv`` in ``directory`` (empty if there is none)."""
    return _read_csv(pathlib.Path(directory) / TABLE, Row)


def known(n: int, m: int, variant: str = "nonogram"):
    """The shipped table's Row of n×m (either orientation: the count is the same), or None if it has none."""
    a, b = sorted((n, m))
    return next((r for r in read_table(variant_dir(SHIPPED, variant)) if (r.n, r.m) == (a, b)), None)


def known_stats(n: int, m: int, variant: str = "nonogram"):
    """The shipped stats table's StatsRow of n×m (recorded as n ≤ m, rows first), or None if it has none."""
    a, b = sorted((n, m))
    return next((r for r in read_stats_table(variant_dir(SHIPPED, variant)) if (r.n, r.m) == (a, b)), None)


def _by_size(runs) -> list:
    """[((n, m), [runs])] sorted by cells, then n; ConflictError if a size's runs disagree.

    Works for Run and StatsRun alike: every two runs of a size must ``agree``.
    """
    by_size: dict = {}
    for run in runs:
        by_size.setdefault(run.size, []).append(run)
    out = sorted(by_size.items(), key=lambda kv: (kv[0][0] * kv[0][1], kv[0]))
    for (n, m), group in out:
        if not all(a.agrees(b) for a in group for b in group):
            raise ConflictError(f"{n}x{m}: the recorded runs disagree: {_describe(group)}")
    return out


def pending(runs) -> list:
    """Sizes with fewer than REQUIRED_RUNS runs (counting or stats) so far: [(n, m, [runs])]."""
    return [(n, m, group) for (n, m), group in _by_size(runs) if len(group) < REQUIRED_RUNS]


def table_rows(runs) -> list:
    """One Row per size that REQUIRED_RUNS runs agree on (sorted by cells, then n)."""
    rows = []
    for (n, m), group in _by_size(runs):
        if len(group) < REQUIRED_RUNS:
            continue
        first = group[0]
        rows.append(
            Row(
                n, m, first.count, first.grids, f"{first.count / first.grids:.12g}", first.wall_s, first.processes,
                first.version, first.commit, first.date, first.cpu, first.command, len(group),
                ";".join(r.layout for r in group),
            )
        )  # fmt: skip
    return rows


def _describe(runs) -> str:
    return "; ".join(f"{r.layout} gave {r.gave} ({r.date})" for r in runs)


def add_run(directory, run: Run) -> bool:
    """Record a run; False if its layout was already recorded with the same count.

    Raises ConflictError, writing nothing, if a recorded run of the same
    size (either orientation) has a different count.
    """
    directory = pathlib.Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    with _locked(directory):
        return _add_run(directory, run)


@contextlib.contextmanager
def _locked(directory: pathlib.Path):
    """Hold an exclusive lock on the results directory (several ``table`` runs may share it).

    Without it two processes adding runs at once could each rewrite
    runs.csv from what they read, and one run would be lost.
    """
    with open(directory / ".runs.lock", "a") as f:
        fcntl.lockf(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.lockf(f, fcntl.LOCK_UN)


def _add_run(directory: pathlib.Path, run: Run) -> bool:
    """add_run with the lock held."""
    return _append(directory, run, read_runs(directory), [], RUNS, write_table)


def _append(directory: pathlib.Path, run, runs: list, others: list, name: str, write) -> bool:
    """Add a run to the recorded ``runs`` (file ``name``, table by ``write``) unless it conflicts.

    ``others`` are recorded runs of other kinds that disagree with it.
    """
    mixed = [r for r in runs if variant_of(r.layout) != variant_of(run.layout)]
    if mixed:
        raise ConflictError(
            f"{run.layout} is a {variant_of(run.layout)} run, but {directory / name} records "
            f"{variant_of(mixed[0].layout)} runs; each variant has its own results directory (table --variant)"
        )
    same = [r for r in runs if r.size == run.size]
    bad = [r for r in same if not r.agrees(run)] + others
    if bad:
        raise ConflictError(
            f"{run.n}x{run.m}: {run.layout} gave {run.gave}, but {_describe(bad)}; nothing was written. "
            "A mismatch is a bug: find it before recording either result"
        )
    if any(r.layout == run.layout for r in same):
        return False
    runs.append(run)
    _write_csv(directory / name, [asdict(r) for r in runs], [f.name for f in fields(type(run))])
    write(directory, runs)
    return True


def write_table(directory, runs) -> None:
    """(Re)write local.csv from the runs."""
    path = pathlib.Path(directory) / TABLE
    _write_csv(path, [asdict(r) for r in table_rows(runs)], [f.name for f in fields(Row)])


def _write_csv(path: pathlib.Path, rows: list, columns: list) -> None:
    """Write a CSV atomically (``util.files.write_atomic``)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    write_atomic(path, buf.getvalue())


@dataclass(frozen=True)
class StatsRun:
    """One ``stats`` enumeration to the end (``stats.Stats`` of n×m, n ≤ m, rows first), with its provenance."""

    n: int
    m: int
    layout: str  # the StatsLayout key, e.g. '5x5-stats1-d2-tr-all': path and group
    grids: int
    solvable: int
    unique: int
    stuck_start: int
    rounds: str  # the difficulty histogram, 'rounds:grids' pairs: '1:48 2:4'
    wall_s: float
    compute_s: float
    processes: int
    version: str
    commit: str
    date: str
    cpu: str
    command: str
    steps: str = ""  # the difficulty histogram in steps, 'steps:grids' pairs; '' for runs before stats version 2

    @property
    def size(self) -> tuple:
        """(n, m)."""
        return self.n, self.m

    @property
    def measures(self) -> tuple:
        """What two runs of a size must agree on (and ``steps`` when both have it)."""
        return self.grids, self.solvable, self.unique, self.stuck_start, self.rounds

    def agrees(self, other) -> bool:
        """Whether two stats runs of a size agree: every measure both recorded is equal."""
        both = self.complete and other.complete
        return self.measures == other.measures and (not both or self.steps == other.steps)

    @property
    def complete(self) -> bool:
        """Whether the run has the step histogram (stats vector version 2 and later)."""
        return bool(self.steps)

    @property
    def gave(self) -> str:
        """The result, for messages."""
        steps = f", steps {self.steps}" if self.steps else ""
        return f"solvable {self.solvable}, unique {self.unique}, stuck {self.stuck_start}, rounds {self.rounds}{steps}"

    def histogram(self) -> dict:
        """{rounds: grids} of the locally solvable grids."""
        return parse_rounds(self.rounds)

    @property
    def summary(self) -> tuple:
        """What ``table --stats`` prints after the size: solvable, unique, stuck, max rounds (and max steps)."""
        out = (self.solvable, self.unique, self.stuck_start, max(self.histogram(), default=0))
        return out + (max(parse_rounds(self.steps), default=0),) if self.steps else out


@dataclass(frozen=True)
class StatsRow:
    """One size of the stats table: the measures, the provenance of the first run, the agreeing runs."""

    n: int
    m: int
    grids: int
    solvable: int
    unique: int
    stuck_start: int
    rounds: str
    mean_rounds: str  # 6 decimals
    max_rounds: int
    wall_s: float
    processes: int
    version: str
    commit: str
    date: str
    cpu: str
    command: str
    runs: int
    layouts: str
    steps: str = ""  # from the runs with steps, once REQUIRED_RUNS of them agree; else ''
    mean_steps: str = ""  # 6 decimals
    max_steps: str = ""


def rounds_text(histogram) -> str:
    """'1:48 2:4' from a histogram indexed by rounds (zeros left out)."""
    return " ".join(f"{k}:{v}" for k, v in enumerate(histogram) if v)


def parse_rounds(text: str) -> dict:
    """{rounds: grids} from '1:48 2:4' (``rounds_text``'s inverse)."""
    return {int(k): int(v) for k, v in (item.split(":") for item in text.split())}


def read_stats_runs(directory) -> list:
    """The stats runs recorded in ``directory``."""
    return _read_csv(pathlib.Path(directory) / STATS_RUNS, StatsRun)


def read_stats_table(directory) -> list:
    """The rows of ``stats.csv`` in ``directory``."""
    return _read_csv(pathlib.Path(directory) / STATS_TABLE, StatsRow)


def stats_rows(runs) -> list:
    """One StatsRow per size that REQUIRED_RUNS stats runs agree on."""
    rows = []
    for (n, m), group in _by_size(runs):
        if len(group) < REQUIRED_RUNS:
            continue
        f = group[0]
        hist = parse_rounds(f.rounds)
        with_steps = [r for r in group if r.complete]
        steps = with_steps[0].steps if len(with_steps) >= REQUIRED_RUNS else ""
        rows.append(
            StatsRow(
                n, m, f.grids, f.solvable, f.unique, f.stuck_start, f.rounds, _mean(hist, f.solvable),
                max(hist, default=0), f.wall_s, f.processes, f.version, f.commit, f.date, f.cpu, f.command,
                len(group), ";".join(r.layout for r in group), steps,
                _mean(parse_rounds(steps), f.solvable) if steps else "",
                str(max(parse_rounds(steps), default=0)) if steps else "",
            )
        )  # fmt: skip
    return rows


def _mean(hist: dict, solvable: int) -> str:
    """The mean of a {value: grids} histogram over ``solvable`` grids, 6 decimals."""
    return f"{sum(k * v for k, v in hist.items()) / solvable if solvable else 0.0:.6f}"


def add_stats_run(directory, run: StatsRun) -> bool:
    """Record a stats run; False if its layout was already recorded with the same measures.

    Raises ConflictError, writing nothing, if a recorded stats run of the
    size disagrees, or if its locally solvable count differs from a counting
    run of the size.
    """
    directory = pathlib.Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    with _locked(directory):
        counted = [r for r in read_runs(directory) if r.size == run.size and r.count != run.solvable]
        return _append(directory, run, read_stats_runs(directory), counted, STATS_RUNS, write_stats_table)


def write_stats_table(directory, runs) -> None:
    """(Re)write stats.csv from the stats runs."""
    path = pathlib.Path(directory) / STATS_TABLE
    _write_csv(path, [asdict(r) for r in stats_rows(runs)], [f.name for f in fields(StatsRow)])


def make_stats_run(lay, s, wall_s: float, compute_s: float, processes: int, command: str, cpu=None) -> StatsRun:
    """A StatsRun for a finished stats layout of n×m (n ≤ m), with this machine's provenance (or ``cpu``'s)."""
    return StatsRun(
        s.n, s.m, lay.key, s.grids, s.solvable, s.unique, s.stuck_start, rounds_text(s.rounds), round(wall_s, 3),
        round(compute_s, 3), processes, __version__, git_commit(), utc_now(), cpu or cpu_model(), command,
        rounds_text(s.steps),
    )  # fmt: skip


def make_run(lay, count: int, wall_s: float, compute_s: float, processes: int, command: str, cpu=None) -> Run:
    """A Run for a finished layout, with this machine's provenance (``cpu``: the machines that ran it, if others)."""
    n, m = sorted((lay.n, lay.m))
    return Run(
        n, m, lay.key, int(count), 2 ** (n * m), round(wall_s, 3), round(compute_s, 3), processes, __version__,
        git_commit(), utc_now(), cpu or cpu_model(), command,
    )  # fmt: skip


#: Per layout kind (``engines.base.Layout.kind``): how its runs are read, made and recorded.
KINDS = {
    "count": (read_runs, make_run, add_run),
    "stats": (read_stats_runs, make_stats_run, add_stats_run),
}


def read_kind(directory, kind: str) -> list:
    """The recorded runs of one layout kind."""
    return KINDS[kind][0](directory)


def record(directory, lay, result, wall_s: float, compute_s: float, processes: int, command: str, cpu=None):
    """Record a finished layout's result (``lay.finish(total)``) in its kind's file; the run recorded.

    ConflictError, writing nothing, if it disagrees with a recorded run.
    """
    _, make, add = KINDS[lay.kind]
    run = make(lay, result, wall_s, compute_s, processes, command, cpu)
    add(directory, run)
    return run
