"""Source generators for local logic on bit masks, in lockstep: what every generated kernel propagates with.

The count's kernels (``engines.grid.specialize``), the statistics' kernels
(``engines.stats.specialize``) and the numbering's kernels
(``engines.numbering.fast``) are generated per size; all propagate local logic
with the statements written here, so a count, its statistics and the index
run one kernel source.  A half pass updates every line of one direction from
the knowledge in that direction's layout (``KR``: bit ``r*m + c``, ``KC``:
bit ``c*n + r``), by the line table or, for columns too long for one, the
word line solver; ``tuning.LANES`` grids run the passes side by side until every lane
has stopped (module doc of ``engines.grid.specialize``).

The names the statements use, which the generated module defines or
imports: the tables ``rtab``, ``ctab``, ``rspread`` and ``cspread``; a lane
g's rows ``r{i}_{g}`` and columns ``c{i}_{g}`` (cells of the line, in the
line tables' layout); ``np`` (numpy) and ``popcount`` (``lines.bits``); for
solver columns also ``ALL``, ``clues``, the scratch ``F, G, bad, cover, Q``
(``engines.grid.kernel.scratch_arrays``), ``line_clue_into``
(``lines.bits``), ``update_line_by_solver`` and ``spread_line``
(``engines.grid.kernel``).

One style for every generator: a generated module is ``module_source``'s
(the header line and digest of ``util.generated``, the imports, then its
parts); a part is an f-string of fixed code (a function, a few definitions)
with the size's constants in it, and the unrolled code goes into it as a
statement list (this module's helpers, the generator's own), indented by
``block``.  No ``str.format`` template: a statement that depends on a lane
or an index comes from a function of it (like the ``name`` every helper
here takes).

Strings only: nothing here is compiled, and only ``util.generated`` is
imported (no numba, no engine: ``engines`` packages may import this module;
it imports none of them).
"""

from __future__ import annotations

from ..util import generated


def module_source(generator: str, what: str, called: tuple, imports: list, *parts: str) -> str:
    """A generated module: ``generated.header`` (``generator``'s module name, ``what`` it is for), the digest of
    the modules its code calls (``called``: a change there makes a new file, as numba's cache would not
    notice it), numpy and numba, the ``imports`` (lines), then the ``parts`` as they are."""
    return "\n".join(
        [
            generated.header(generator, what),
            "",
            f"# Digest of the modules called here {generated.digest(*called)}: a change there makes a new file, "
            "so no stale numba cache.",
            "import numpy as np",
            "from numba import njit, prange",
            "",
            *imports,
            "".join(parts),
        ]
    )


def block(lines: list, indent: str) -> str:
    """Statements as source lines indented by ``indent``."""
    return "\n".join(indent + line for line in lines)


def u64(x: int) -> str:
    """The source of the constant x as a numpy uint64."""
    return f"np.uint64({x})"


def or_tree(terms: list) -> str:
    """The OR of source expressions as a balanced tree: ``((a | b) | c) | (d | e)`` is three ORs deep where
    ``a | b | c | d | e`` is four (six terms: three against five), and LLVM keeps the grouping.  Where the lookups feeding it are on a lane's
    critical path (the statistics' two lanes), that is shorter: measured 0.93 of the time on 6x6 (the count's
    four lanes are not held up by it: 1.0)."""
    if len(terms) == 1:
        return terms[0]
    half = (len(terms) + 1) // 2
    return f"({or_tree(terms[:half])} | {or_tree(terms[half:])})"


def first_row_pass(rows, m: int, name, kc: str, base: str | None) -> list:
    """Statements for the first row pass of ``rows`` (nothing known yet: the entry is table[p << m]).

    Sets ``kc`` (column encoding) to ``base`` (None: nothing) plus what these rows deduce; row r's cells are
    ``name(r)``, its result ``f{r}``.
    """
    out = [f"f{r} = np.uint64(rtab[{name(r)} << {u64(m)}])" for r in rows]
    out.append(f"{kc} = " + " | ".join([base or "np.uint64(0)"] + [f"rspread[{r}, f{r}]" for r in rows]))
    return out


def half_pass(lines: int, length: int, word: str, other: str, name, table: str, spread: str) -> list:
    """Source lines updating every line of one direction from ``word``; the result goes to ``other``.

    ``word`` holds the knowledge in this direction's layout.  A line's new
    known cells include its old ones, and every cell is on one line of each
    direction, so the lines' results spread to the crossing encoding are the
    whole knowledge: ``other`` is assigned, and ``word`` needs no update
    (the next half pass reads ``other``).  ``name(i)`` holds line i's cells.
    """
    mask = (1 << length) - 1
    out = []
    for i in range(lines):
        shift = f" >> {u64(i * length)}" if i else ""
        out.append(f"k{i} = np.uint64({table}[({name(i)} << {u64(length)}) | (({word}{shift}) & {u64(mask)})])")
    out.append(f"{other} = " + or_tree([f"{spread}[{i}, k{i}]" for i in range(lines)]))
    return out


def solver_half_pass(lines: int, length: int, word: str, other: str, name, g: int, spread_table: bool) -> list:
    """``half_pass`` for columns too long for a table: the word line solver.

    Column i of lane g gets its clue on its first update (``t{i}_{g}``, in
    ``clues[g * lines + i]``) and keeps the solver's last result in
    ``l{i}_{g}`` (``ALL`` before the first): a column whose knowledge is that
    result, or complete, is not solved again (a line update is idempotent).
    """
    mask = u64((1 << length) - 1)
    out = []
    for i in range(lines):
        shift = f" >> {u64(i * length)}" if i else ""
        row = f"clues[{g * lines + i}]"
        out += [
            f"k{i} = ({word}{shift}) & {mask}",
            f"if k{i} != l{i}_{g} and k{i} != {mask}:",
            f"    if l{i}_{g} == ALL:",
            f"        t{i}_{g} = line_clue_into({name(i)}, {length}, {row})",
            f"    k{i} = update_line_by_solver({name(i)}, k{i}, {length}, {row}, t{i}_{g}, F, G, bad, cover, Q)",
            f"    l{i}_{g} = k{i}",
        ]
    if spread_table:
        out.append(f"{other} = " + " | ".join(f"cspread[{i}, k{i}]" for i in range(lines)))
    else:
        out.append(
            f"{other} = "
            + " | ".join(f"spread_line({i}, k{i}, {lines}, {length}, cspread, False)" for i in range(lines))
        )
    return out


#: How the columns are updated: by the line table, or by the word line solver with or without a
#: spread table (columns longer than the tables).
COLUMN_MODES = ("table", "solver+spread", "solver")

#: Which half pass every lane has done before ``lockstep``'s loop: the loop runs the other one first.
DONE = ("rows", "columns")

#: Where ``lockstep`` asks whether any lane is still active: after each half pass, or only after the
#: second half of each round (a lane that stopped after the first half rides along the second unchanged).
CHECKS = ("half", "round")


def lockstep(n: int, m: int, lanes: int, columns: str = "table", steps: bool = False, done: str = "rows",
             check: str = "half") -> list:  # fmt: skip
    """Statements propagating ``lanes`` grids in lockstep to their fixpoints.

    ``done``: the half pass every lane has done before the loop: "rows"
    (``KC{g}`` set), so the loop runs the columns, then the rows; or
    "columns" (``KR{g}`` set), so it runs the rows, then the columns.
    Every lane runs until all lanes have stopped: a solved lane stays solved
    and a stuck lane is at a fixpoint, so extra passes change neither.  The
    lines go inline into the enumeration loop (numba will not inline a
    function with this many arguments).  After the loop ``known{g}`` is the
    number of cells lane g knows.
    ``columns``: one of COLUMN_MODES.
    ``steps``: also count each lane's steps, in registers (the loop writes
    no memory): after the loop ``st{g}`` is, for a lane that ends solved, the
    half passes up to the one that solved it, the one before the loop
    included, and ``u{g}`` is 1 while lane g is unsolved, else 0.
    ``check``: "half" leaves the loop after any half pass that left every lane
    stopped; "round" looks only after the second half of each round.  The
    statistics' two lanes, which differ in whole rows, run faster with one
    unpredictable branch a round (measured on 6x6: 0.96 of the time); the
    count's four lanes do not (1.0), and keep "half".
    """
    if check not in CHECKS:
        raise ValueError(f"check must be one of {CHECKS}, not {check!r}")
    if done not in DONE:
        raise ValueError(f"done must be one of {DONE}, not {done!r}")
    if columns not in COLUMN_MODES:
        raise ValueError(f"columns must be one of {COLUMN_MODES}, not {columns!r}")
    full = u64((1 << (n * m)) - 1)
    cols = (m, n, "KC", "KR", "c", "ctab", "cspread")
    rows = (n, m, "KR", "KC", "r", "rtab", "rspread")
    halves = (cols, rows) if done == "rows" else (rows, cols)
    # Knowledge only grows, so a half pass changed something iff it raised the
    # number of known cells (``known{g}``, counted in either layout).
    body = [f"known{g} = popcount({halves[0][2]}{g})" for g in range(lanes)]
    if steps:
        body += [f"st{g} = 1" for g in range(lanes)]
    body.append("while True:")
    for second, (lines, length, word, other, pat, table, spread) in enumerate(halves):
        for g in range(lanes):
            name = lambda i, g=g, pat=pat: f"{pat}{i}_{g}"
            if pat == "c" and columns != "table":
                half = solver_half_pass(lines, length, f"{word}{g}", f"{other}{g}", name, g, columns == "solver+spread")
            else:
                half = half_pass(lines, length, f"{word}{g}", f"{other}{g}", name, table, spread)
            body += ["    " + line for line in half]
        for g in range(lanes):
            body.append(f"    o{g} = known{g}")
            body.append(f"    known{g} = popcount({other}{g})")
            if steps:
                body.append(f"    u{g} = np.int64({other}{g} != {full})")
                body.append(f"    st{g} += np.int64(o{g} != {n * m})")
        if check == "round" and not second:
            continue
        # A lane is active while unsolved and changed by this half pass.
        if steps:
            active = " | ".join(f"(u{g} & np.int64(known{g} != o{g}))" for g in range(lanes))
        else:
            active = " | ".join(f"(({other}{g} != {full}) & (known{g} != o{g}))" for g in range(lanes))
        body.append(f"    if not ({active}):")
        body.append("        break")
    return body


def gather_lockstep(n: int, m: int, lanes: int) -> list:
    """``lockstep`` (done "rows", check "half", table columns) with each half pass one call of a gather intrinsic.

    The generated module defines ``_rows_half`` and ``_cols_half``
    (``engines.grid.gather.half_pass``) and the gather tables ``rgat`` and
    ``cgat``; the lanes' grids are the tuples ``GR`` (row encoding) and ``GC``
    (column encoding), their first row pass ``KCs`` and its counts of known
    cells ``knowns`` (``gather.lane_setup``).  The intrinsic says when to
    stop, by the rule of ``lockstep``, and after the loop ``known{g}`` is
    the number of cells lane g knows, as there: only the lookups moved.
    """
    body = ["while True:"]
    body.append("    KRs, knowns, go = _cols_half(cgat, GC, KCs, knowns)")
    body += ["    if not go:", "        break"]
    body.append("    KCs, knowns, go = _rows_half(rgat, GR, KRs, knowns)")
    body += ["    if not go:", "        break"]
    body.append(", ".join(f"known{g}" for g in range(lanes)) + " = knowns")
    return body
