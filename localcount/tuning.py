"""Every speed and size tunable of localcount in one place, one line each saying what it trades.

None of these changes a count, only how fast it comes or how much memory it takes; the tests compare every
setting's kernels with the plain ones.  The measurements behind each value, dated and with the machine,
are in ``docs/measurements.md`` ("Tunables"); ``scripts/bench_stats_kernel.py --set NAME=VALUE`` measures a
generated kernel with another value.

The code generators and planners read these at call time (``tuning.LANES``, not a copy taken at import),
so a test or a benchmark may set one for a while.  A generated kernel's file is named by a hash of its
source, so a kernel written with other values is a new file, never a stale cache.  Constants that compiled
kernels read themselves stay beside them (``stats.kernel.RADIX_BITS``): numba's cache only watches the
file a kernel is written in.

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

# --- line tables (lines.tables) ---

#: Longest line with a precomputed table: 4^13 uint16 entries are 128 MiB built in about 2.5 s, and make
#: 3x13 count about 80x faster than the line solver; longer lines use the line solvers.
TABLE_MAX_LEN = 13

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

# --- the GPU count (engines.gpu.count) ---

#: Grids per GPU thread in lockstep: one until a device measures more (``scripts/gpu_variants.py``).
GPU_LANES = 1
#: Consecutive indices a GPU thread enumerates (2^bits, fewer in small shards): longer stretches amortise a
#: thread's set-up, shorter ones fill the device on small shards.
PER_THREAD_BITS = 10

# --- counting runs (api.counting) ---

#: Runs expected to take less than this many seconds skip shards and checkpoints: no files for quick runs,
#: at the price of redoing them whole if stopped.
CHECKPOINT_SECONDS = 1.0
