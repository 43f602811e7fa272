"""Every speed and size tunable of localcount in one place, one line each saying what it trades.

None of these changes a count, only how fast it comes or how much memory it takes; the tests compare every
setting's kernels with the plain ones.  Nor does any change a puzzle's verdict, but those of single puzzles
and of the page's server share out a time limit (what is undecided when it runs out), and those of making
puzzles say when making gives up and which puzzle a seed gives (``DESIGN_POOL``, ``GENERATE_WALK_MOVES``).
The measurements behind each value, dated and with the machine, are in ``docs/measurements.md``
("Tunables"); ``scripts/bench_stats_kernel.py --set NAME=VALUE`` measures a generated kernel with another
value.

The code reads these at call time (``tuning.LANES``, not a copy taken at import), so a test or a benchmark
may set one for a while; only ``LOGIC_LINE_CACHE`` is read once, when ``puzzle.solving.logic`` sizes its
cache.  A generated kernel's file is named by a hash of its source, so a kernel written with other values is
a new file, never a stale cache.  Constants that compiled kernels read themselves stay beside them
(``stats.kernel.RADIX_BITS``): numba's cache only watches the file a kernel is written in;
``docs/measurements.md`` ("Tunables") names each of them and says why.

Default shard bits (``*_SHARD_GRID_BITS``, ``*_MIN_SHARD_BITS``, ...) enter checkpoint keys and the numbering's
block bits shape its stored index: another value starts new checkpoints or a new index, never mixes them
with the old, so change them only with that in mind.

Imports nothing.
"""

# --- generated count kernels (engines.codegen, engines.grid.specialize) ---

#: Grids propagated in lockstep (a power of two): more independent work per step, but every lane waits for
#: the slowest; 4 beat 2 and 8 on 6x6.
LANES = 4
#: When the count's lanes ask whether to stop (``codegen.CHECKS``): "half" stops a step soonest, "round"
#: takes one branch a round; the count's four lanes gained nothing from "round".
COUNT_CHECK = "half"

# --- generated stats kernels (engines.stats.specialize) ---

#: Grids a stats kernel propagates in lockstep: its lanes differ in whole rows and end apart, so 2 beat 4.
STATS_LANES = 2
#: When the stats lanes ask whether to stop: "round" (after a round's second half) takes one unpredictable
#: branch a round instead of one a half pass.
STATS_CHECK = "round"
#: Most rows of a group run flat (one odometer), so lanes seldom run empty: more rows, larger flat tables.
FLAT_MAX = 3
#: Longest flat table (combinations of the flat rows' patterns): its memory against FLAT_MAX's reach.
FLAT_CAP = 1 << 15
#: Bits of the column word read by one lookup of the column-clue key table: fewer lookups, a larger table.
KEY_TABLE_BITS = 12

#: A count expected to take at least this many seconds on one core measures which generated kernel variant is
#: fastest on this CPU before it starts (``engines.grid.choice``), if that is not known yet: the measurement
#: costs 5 to 25 s on 2 cores, and a gather variant saves at most a few tenths of a count.
PROBE_PAYS_SECONDS = 1200.0
#: That measurement times CHOICE_SAMPLE_SHARDS blocks of 2^CHOICE_SAMPLE_BITS indices of the probe size (in
#: the choice's cache key, with CHOICE_ROUNDS and CHOICE_MARGIN): a larger sample is surer and takes longer ...
CHOICE_SAMPLE_SHARDS = 64
CHOICE_SAMPLE_BITS = 16
#: ... CHOICE_ROUNDS times a variant, the rounds alternating the variants: more rounds outlast a busy spell ...
CHOICE_ROUNDS = 7
#: ... and picks a gather variant only below CHOICE_MARGIN of "lanes"' time: a smaller gain is taken for noise.
CHOICE_MARGIN = 0.97

# --- stats runs (engines.stats.prepare, engines.stats.layout) ---

#: Sizes with at least this many cells run the stats kernel generated for their size (vector version 3);
#: smaller ones are not worth a compilation each and run the plain kernel (version 2, in checkpoint keys).
STATS_SPECIALIZE_MIN_CELLS = 20
#: Largest row-clue group a stats kernel sorts at once, 8 bytes a grid: its memory against the sizes it takes.
STATS_MAX_GROUP = 1 << 26
#: Stats shards of at most about 2^bits grids: shorter shards resume and balance better (in checkpoint keys) ...
STATS_SHARD_GRID_BITS = 24
#: ... and at least this many of them: work for every worker ...
STATS_MIN_SHARDS = 64
#: ... and at most this many, where that still leaves STATS_MIN_SHARDS: a checkpoint line (a vector) each.
STATS_MAX_SHARDS = 1 << 14
#: A stats estimate times random probe shards for about this many seconds: a surer estimate, a later start ...
STATS_ESTIMATE_SECONDS = 2.0
#: ... or until this many were timed ...
STATS_ESTIMATE_SHARDS = 1 << 14
#: ... each of about 2^bits grids: smaller probes draw more of the enumeration in the time.
STATS_PROBE_GRID_BITS = 20

# --- line tables (lines.tables) ---

#: Longest line with a precomputed table: 4^13 uint16 entries are 128 MiB built in about 2.5 s, and make
#: 3x13 count about 80x faster than the line solver; longer lines use the line solvers.
TABLE_MAX_LEN = 13
#: Longest line whose cells get a spread table (``lines.tables.spread_table``, 2^L words a cell).
SPREAD_MAX_LEN = 16

# --- the general kernel's runs (engines.grid.layout, engines.grid.count) ---

#: A default shard covers about 2^bits indices: longer shards cost less bookkeeping, shorter ones resume and
#: balance better (in checkpoint keys).
GRID_SHARD_GRID_BITS = 22
#: At least 2^bits default shards where the size has that many grids: work for every worker.
GRID_MIN_SHARD_BITS = 8
#: At most 2^bits default shards: a checkpoint line per shard (7x7 gets 2^20 lines).
GRID_DEFAULT_MAX_SHARD_BITS = 20
#: ``--shard-bits`` may go up to this: the parent keeps a record per shard in memory.
GRID_MAX_SHARD_BITS = 24
#: Sizes with at least this many cells count with kernels generated for their size (about 2.5x faster);
#: smaller ones are not worth a compilation each and use the plain kernel.
GRID_SPECIALIZE_MIN_CELLS = 20

# --- the CPU count in this process (engines.grid.count) ---

#: Shards an in-process count is cut into for numba's threads (2^bits, fewer for small grids): finer shards
#: balance the threads better, each costs a kernel call.
THREAD_SHARD_BITS = 12
#: An in-process count expected to take less than this many seconds on one core runs on one thread: the
#: threaded kernel's compile (about 1.5 s on 2 cores) and load (about 0.2 s) would cost more than it saves.
THREADS_PAY_SECONDS = 0.5
#: Shards (2^bits) a count on one thread is cut into: a kernel call and a progress update each.
SERIAL_SHARD_BITS = 6
#: Seconds of work between progress updates of an in-process count: fresher progress, more batches.
BATCH_SECONDS = 3.0

# --- the GPU count (engines.gpu.layout, engines.gpu.count) ---

#: A default GPU shard is about 2^bits indices: one launch of about a second on an H100 (6x7: 2^42 indices in
#: 65.5 s), well under the ten seconds a campaign's budget must leave for the last launch (in checkpoint keys).
GPU_SHARD_GRID_BITS = 36
#: At least 2^bits default GPU shards where the size has that many indices: progress and resume.
GPU_MIN_SHARD_BITS = 4
#: ``--shard-bits`` of a GPU run may go up to this: the parent keeps a record per shard in memory.
GPU_MAX_SHARD_BITS = 24
#: Threads per block where the tables take at most 48 KiB of shared memory: several blocks share a
#: multiprocessor, hiding each other's latency.
GPU_BLOCK_THREADS = 128
#: Most threads per block where the tables take more than the default shared memory: one such block fills a
#: multiprocessor's shared memory, so it gets as many threads as the kernel's registers allow, up to this.
GPU_LARGE_BLOCK_THREADS = 1024
#: Threads per block in the simulator (a power of two): it runs a Python thread per CUDA thread.
GPU_SIMULATOR_THREADS = 8

#: Grids per GPU thread in lockstep: one until a device measures more (``scripts/gpu_variants.py``).
GPU_LANES = 1
#: Consecutive indices a GPU thread enumerates (2^bits, fewer in small shards): longer stretches amortise a
#: thread's set-up, shorter ones fill the device on small shards.
PER_THREAD_BITS = 10

# --- counting runs (api.counting) ---

#: Runs expected to take less than this many seconds skip shards and checkpoints: no files for quick runs,
#: at the price of redoing them whole if stopped.
CHECKPOINT_SECONDS = 1.0
#: Sizes with at most this many cells are not estimated before they run (well under a second each): the
#: estimate would take longer than the run (``api.counting``, ``api.stats``, ``cli.table``).
NO_ESTIMATE_CELLS = 20

# --- idle runs (orchestration.yielding) ---

#: Cores other processes may keep busy before an idle run's workers step aside (SIGSTOP): one busy process
#: is enough, a typing person's editor or a monitor (a few % of a core) is not.
IDLE_BUSY_CORES = 0.5
#: Seconds the others must stay under that before the workers go on: a test suite's gaps between tests do
#: not let a campaign in, a person reading does.
IDLE_QUIET_SECONDS = 5.0
#: Seconds between two readings of the machine's load: how long a new foreground job shares the cores first.
IDLE_POLL_SECONDS = 0.5

# --- the other engines' runs (engines.tiny, engines.thin, engines.sample, engines.enumeration) ---

#: The tiny counter takes sizes of at most this many cells: 2^20 grids by their flips orbits take about 0.1 s
#: as numpy arrays; larger ones need the compiled kernels ...
TINY_MAX_CELLS = 20
#: ... and lines of at most this many cells: their tables (4^L entries) build in milliseconds (4^13 in seconds).
TINY_MAX_LINE = 10
#: Grids the tiny counter looks at together: arrays of this many int64 (512 KiB) stay in the cache (2^16 took
#: 0.05-0.1 s per 2^20 grids, 2^20 up to twice as long).
TINY_CHUNK = 1 << 16
#: Bits of a word moved by one table lookup of ``tiny.propagate.permute``: fewer lookups, larger tables.
TINY_PERMUTE_BITS = 10
#: Longest row of the thin counter: its zeta table holds 2^m int32 masks (128 MiB at m = 25).
THIN_MAX_M = 25
#: A default thin shard holds 2^bits first rows (a shard of 2x19 is about a second; in checkpoint keys).
THIN_ROWS_PER_SHARD_BITS = 4
#: Grids a sample's estimate times: a surer estimate, a later start.
SAMPLE_ESTIMATE_GRIDS = 200
#: Borders the index order handles per numpy pass (``engines.enumeration``): a few arrays of this many uint64.
ENUMERATION_CHUNK = 1 << 20

# --- the numbering and its index (engines.numbering, api.every) ---

#: Blocks of at most 2^SMALL_BLOCK_BITS grids where that makes at most 2^SMALL_KEY_BITS blocks: a query's
#: block then takes numpy a few milliseconds, and the index stays small (the index stores its blocks) ...
NUMBERING_SMALL_BLOCK_BITS = 16
NUMBERING_SMALL_KEY_BITS = 12
#: ... otherwise a block holds at most about 2^bits grids, so that ``nth`` and ``rank`` scan one quickly ...
NUMBERING_BLOCK_BITS = 24
#: ... unless that makes more than 2^bits blocks: then blocks are bigger (a smaller index, slower answers).
NUMBERING_MAX_KEY_BITS = 20
#: A default numbering shard covers about 2^bits grids (in checkpoint keys) ...
NUMBERING_SHARD_GRID_BITS = 26
#: ... and there are at least 2^bits of them where there are that many blocks: work for every worker.
NUMBERING_MIN_SHARD_BITS = 5
#: Sizes with at least this many cells number their blocks with kernels generated for the size; smaller ones
#: take milliseconds in the plain kernel, less than the seconds a compilation of their own costs.
NUMBERING_GENERATED_MIN_CELLS = 20
#: Grids per piece of work handed to a numba thread by ``numbering.count.codes``: fewer calls, worse balance.
NUMBERING_CHUNK = 1 << 14
#: Ranges of at most this many grids are numbered with numpy: no kernel call, but numpy's pace.
NUMBERING_VECTOR_MAX = 1 << 16
#: A query runs local logic over a block in pieces of at most 2^bits grids, stopping at the one it needs:
#: smaller pieces stop sooner, each costs a call.
EVERY_PIECE_BITS = 20
#: Index builds expected to take less than this many seconds run in this process, without shards or
#: checkpoint files.
EVERY_IN_PROCESS_SECONDS = 5.0

# --- orchestration (orchestration.cluster, orchestration.budget) ---

#: Dask tasks of about this many seconds: long enough to hide Dask's per-task cost (a few ms) ...
CLUSTER_TASK_SECONDS = 1.0
#: ... with at least this many tasks per worker thread, so that workers finish together.
CLUSTER_TASKS_PER_THREAD = 8
#: Dask tasks in flight per worker thread: enough to keep every worker busy between round trips.
CLUSTER_WINDOW_PER_THREAD = 3
#: A budget multiplies a shard's work-dependent expected seconds by this (equal work, unequal depth): fewer
#: shards started that overrun the budget, more of it left unused.
BUDGET_MARGIN = 1.25

# --- solving single puzzles (puzzle.solving) ---

#: Line results ``logic.line_options`` remembers (read once, at import): probing and search meet the same line
#: states over and over, each entry costs memory.
LOGIC_LINE_CACHE = 1 << 18
#: Local logic switches itself to compiled only with at least this many seconds left before its deadline (numba's
#: import and load take about a second) ...
LOGIC_LOAD_SECONDS = 2.0
#: ... or this many when numba's cache lacks the code (a compile took 6-12 s on 2 cores): else it stays interpreted.
LOGIC_COMPILE_SECONDS = 15.0
#: Cells the compiled probing tries between two looks at the clock: a deadline met sooner, more calls.
PROBING_TICK_CELLS = 32
#: Probing looks at most this long for a cell a hint can decide: a hint answers live, a later one finds more.
HINT_PROBE_SECONDS = 1.0
#: Seconds the SAT solver runs between looks at the clock: a deadline and Ctrl-C met sooner, more interruptions.
SAT_SLICE = 0.5
#: ``sat.solve_auto`` hands a puzzle to the SAT solver once the search has made this many probes: sooner gives
#: SAT the hard puzzles, later spares it the ones search ends (Forever: 0.75 s of search at 20,000, 0.15 s at 5,000,
#: SAT 0.03 s) ...
SAT_HANDOFF_PROBES = 5_000
#: ... and gives it this many seconds before it looks for a first solution with ``beliefs.dive``.
SAT_FIRST = 1.0
#: From a dive's dead end, the solver that has searched tries the dive's choices for this many seconds, then a
#: fresh one goes on (on Faase the one that had searched took 20 s where a fresh one takes 7 s).
SAT_ASSUMED_FIRST = 3.0

# --- making puzzles (puzzle.making) ---

#: Unknown cells ``design`` tries per flip (those closest to the threshold), its ``pool`` by default: a wider
#: pool may change fewer cells, each flip tried costs a run of local logic.
DESIGN_POOL = 12
#: Cells ``generate``'s rejection draws before it gives up: GENERATE_TRIES_CELLS // (n·m) grids, at least
#: GENERATE_MIN_TRIES: more tries make rarer difficulties, a refusal comes later.
GENERATE_TRIES_CELLS = 1_000_000
GENERATE_MIN_TRIES = 1000
#: Moves of one ``generate`` search walk before it restarts from a new random grid: longer walks reach further,
#: a walk stuck far from the difficulty wastes more.
GENERATE_WALK_MOVES = 3000
#: By default the search tries this many times the grids rejection draws (its grids are rarely wasted).
GENERATE_SEARCH_FACTOR = 4

# --- the page's server (web) ---

#: Threads for the requests that run in threads (parsing, converting, numbering, the GETs): the usable cores, at
#: least the first and at most the second of these.
WEB_WORKERS = (2, 8)
#: Worker processes for searches and the making commands, the usable cores within these bounds: more searches at
#: once (one more is refused with 503), each a process and its memory.
WEB_SEARCH_WORKERS = (4, 8)
#: Worker processes for the live requests that run local logic, the usable cores within these bounds: one a core.
WEB_LIVE_WORKERS = (2, 8)
#: Analyses without their search the server keeps (the page asks for one first): a fallback at no cost, memory.
WEB_LOCAL_ANSWERS = 32
#: A searched analysis is answered at most this many seconds after its ``timeout``: a later search may still come.
WEB_GRACE = 0.2
#: Local logic's answer, given if the search has not answered in time, is asked for this many seconds before that
#: time: it is there when needed (a 100x100 drawing's took 0.5 s), asked for more often.
WEB_FALLBACK_AHEAD = 1.0
#: Seconds between a worker process's looks whether its server is still there: a killed server's workers
#: linger at most this long, each look wakes them.
WEB_SERVER_CHECK = 0.25
