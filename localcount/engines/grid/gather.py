"""Lanes of grids as LLVM vectors, looked up by table gathers: the numba intrinsics of the gather kernels.

The lanes of ``codegen.lockstep`` look up each line of each grid with a scalar load.
Here the W grids of a step (W in WIDTHS) are the W elements of an LLVM
vector, and every line of a half pass is one ``llvm.masked.gather`` of W
64-bit entries (``vpgatherqq``: 4 elements on AVX2, 8 on AVX-512; LLVM
splits wider vectors).  Gathers take 32- or 64-bit elements, so the tables
are not the 16-bit line tables: entry ``(p << L) | k`` of a *gather table*
is line 0's new knowledge, already spread to the crossing encoding
(``gather_table``); line i's is that word shifted left by i
(``tables.spread_table``: line i's cell c goes to bit ``c*lines + i``).  The
half pass ORs the W shifted words of every line, which is the crossing
layout's whole knowledge, as ``codegen.half_pass`` does.

* ``half_pass(lines, length, lanes)``: one half pass of one direction.  Its
  arguments are the gather table, the W grids in this direction's layout
  (their lines' cells), the W knowledge words in that layout and their
  counts of known cells; it returns the W words in the crossing encoding,
  their counts, and whether to go on (``codegen.lockstep``'s rule).
* ``lane_setup(m, lanes, spec)``: the start of a step, the W grids' rows
  that differ (``spec``), their words in both encodings and their first row
  pass (``first_table``), from what the lanes share.

So the propagation loop (``codegen.gather_lockstep``) is vector code but
for its branch: numba passes the tuples in registers, and LLVM folds the
round trips between vectors and tuples of consecutive calls.  The shapes are
constants of the emitted code, so each shape is its own intrinsic (cached
here; a generated module makes up to four).

numba and llvmlite are imported when an intrinsic is made: the layouts
import nothing of this module.
"""

from __future__ import annotations

import functools

#: The vector widths the generated kernels may gather with (``specialize.KERNELS``).
WIDTHS = (4, 8, 16)


def gather_table(table, spread):
    """The gather table of a line table: ``spread[0, table[x]]`` for every entry x, as uint64.

    ``spread`` is the lines' ``tables.spread_table`` (line 0's row of it is
    the one the kernels shift).
    """
    import numpy as np

    out = np.ascontiguousarray(spread[0][table], dtype=np.uint64)
    out.flags.writeable = False
    return out


def _splat(ir, builder, vec_type, value):
    """A vector of ``vec_type`` with every element ``value`` (an i64 value)."""
    i32 = ir.IntType(32)
    undef = ir.Constant(vec_type, ir.Undefined)
    one = builder.insert_element(undef, value, ir.Constant(i32, 0))
    return builder.shuffle_vector(one, undef, ir.Constant(ir.VectorType(i32, vec_type.count), [0] * vec_type.count))


def _to_vector(ir, builder, vec_type, tup):
    """The elements of an LLVM array (a numba UniTuple) as a vector."""
    i32 = ir.IntType(32)
    vec = ir.Constant(vec_type, ir.Undefined)
    for g in range(vec_type.count):
        vec = builder.insert_element(vec, builder.extract_value(tup, g), ir.Constant(i32, g))
    return vec


def _from_vector(ir, builder, llty, vec):
    """A vector's elements as an LLVM array of type ``llty`` (a numba UniTuple)."""
    i32 = ir.IntType(32)
    out = ir.Constant(llty, ir.Undefined)
    for g in range(vec.type.count):
        out = builder.insert_value(out, builder.extract_element(vec, ir.Constant(i32, g)), g)
    return out


def _gather_function(ir, cgutils, builder, ptr_type, lanes: int):
    """The declaration of ``llvm.masked.gather`` of ``lanes`` i64 through pointers of ``ptr_type``."""
    vt = ir.VectorType(ir.IntType(64), lanes)
    args = [ir.VectorType(ptr_type, lanes), ir.IntType(32), ir.VectorType(ir.IntType(1), lanes), vt]
    return cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(vt, args), f"llvm.masked.gather.v{lanes}i64.v{lanes}p0"
    )


def _gather(ir, builder, function, base, index):
    """``function``'s gather of the i64 elements ``index`` (a vector) of the array at ``base`` (a splat address)."""
    vt = index.type
    ptrs_t = function.function_type.args[0]
    addr = builder.inttoptr(builder.add(base, builder.shl(index, ir.Constant(vt, [3] * vt.count))), ptrs_t)
    every = ir.Constant(function.function_type.args[2], [1] * vt.count)
    return builder.call(function, [addr, ir.Constant(ir.IntType(32), 8), every, ir.Constant(vt, [0] * vt.count)])


def _ctpop(ir, cgutils, builder, vec):
    """The vector of the bit counts of ``vec``'s elements."""
    vt = vec.type
    function = cgutils.get_or_insert_function(builder.module, ir.FunctionType(vt, [vt]), f"llvm.ctpop.v{vt.count}i64")
    return builder.call(function, [vec])


def _emit_half(ir, cgutils, builder, data, grids, words, lines: int, length: int):
    """IR of one half pass: the OR over lines i of gather(data + index_i) << i, as a vector."""
    vt = grids.type
    gather = _gather_function(ir, cgutils, builder, data.type, vt.count)
    const = lambda x: ir.Constant(vt, [x] * vt.count)
    base = _splat(ir, builder, vt, builder.ptrtoint(data, ir.IntType(64)))
    words_out = []
    for i in range(lines):
        cells = builder.and_(builder.lshr(grids, const(i * length)), const((1 << length) - 1))
        known = builder.and_(builder.lshr(words, const(i * length)), const((1 << length) - 1))
        got = _gather(ir, builder, gather, base, builder.or_(builder.shl(cells, const(length)), known))
        words_out.append(builder.shl(got, const(i)) if i else got)
    while len(words_out) > 1:  # a balanced OR tree: the lines' gathers are independent
        pairs = zip(words_out[::2], words_out[1::2])
        words_out = [builder.or_(a, b) for a, b in pairs] + words_out[len(words_out) & ~1 :]
    return words_out[0]


def _emit_stop(ir, cgutils, builder, new, known, full: int):
    """(counts, active): the known cells of each lane of ``new``, and an i1 that is 1 while some lane is
    unsolved and changed (its count grew: knowledge only grows), as ``codegen.lockstep`` tests."""
    vt = new.type
    counts = _ctpop(ir, cgutils, builder, new)
    unsolved = builder.icmp_unsigned("!=", new, ir.Constant(vt, [full] * vt.count))
    changed = builder.icmp_unsigned("!=", counts, known)
    lanes = builder.bitcast(builder.and_(unsolved, changed), ir.IntType(vt.count))
    return counts, builder.icmp_unsigned("!=", lanes, ir.Constant(ir.IntType(vt.count), 0))


@functools.cache
def half_pass(lines: int, length: int, lanes: int):
    """The intrinsic ``f(table, grids, words, known) -> (words', known', active)`` of one half pass (module doc).

    ``table``: a C-contiguous uint64 array (``gather_table``); ``grids``,
    ``words`` and ``known`` (each lane's number of known cells): tuples of
    ``lanes`` uint64.  ``known'`` counts the cells of ``words'``; ``active``
    is True while a lane is unsolved and this half pass raised its count.
    ``lines * length`` <= 64.
    """
    if lanes not in WIDTHS or lines < 1 or length < 1 or lines * length > 64:
        raise ValueError(f"no gather half pass for {lines} lines of {length} cells on {lanes} lanes")
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    tuple_t = types.UniTuple(types.uint64, lanes)
    result_t = types.Tuple((tuple_t, tuple_t, types.boolean))
    full = (1 << (lines * length)) - 1

    def typer(typingctx, table, grids, words, known):
        if not (isinstance(table, types.Array) and table.dtype == types.uint64 and table.layout == "C"):
            return None
        if grids != tuple_t or words != tuple_t or known != tuple_t:
            return None
        return result_t(table, grids, words, known), codegen

    def codegen(context, builder, sig, args):
        vt = ir.VectorType(ir.IntType(64), lanes)
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        grids, words, known = (_to_vector(ir, builder, vt, a) for a in args[1:])
        new = _emit_half(ir, cgutils, builder, data, grids, words, lines, length)
        counts, active = _emit_stop(ir, cgutils, builder, new, known, full)
        tuple_ll = context.get_value_type(tuple_t)
        parts = [_from_vector(ir, builder, tuple_ll, new), _from_vector(ir, builder, tuple_ll, counts)]
        return context.make_tuple(builder, result_t, [*parts, active])

    typer.__name__ = f"_gather_half_{lines}x{length}_w{lanes}"
    return intrinsic(typer)


def _emit_setup(ir, cgutils, builder, arrays, scalars, lanes: int, m: int, spec):
    """IR of ``lane_setup``: the lanes' rows, grid words and first row pass, as vectors (gr, gc, kc, counts)."""
    vt = ir.VectorType(ir.IntType(64), lanes)
    gather = _gather_function(ir, cgutils, builder, arrays[0].type, lanes)
    const = lambda x: ir.Constant(vt, [x] * lanes)
    spread, first = (_splat(ir, builder, vt, builder.ptrtoint(a, ir.IntType(64))) for a in arrays)
    index, extra, grid, cols, known = scalars
    index = builder.or_(_splat(ir, builder, vt, index), ir.Constant(vt, list(range(lanes))))
    grid, cols, known = (_splat(ir, builder, vt, x) for x in (grid, cols, known))

    def look(base, row, cells):  # element [row, cells] of a table of rows of 2^m entries
        return _gather(ir, builder, gather, base, builder.add(cells, const(row << m)))

    for q, (row, shift, mask, lshift) in enumerate(spec):
        cells = builder.and_(builder.lshr(index, const(shift)), const(mask))
        cells = builder.or_(builder.shl(cells, const(lshift)), _splat(ir, builder, vt, builder.extract_value(extra, q)))
        grid = builder.or_(grid, builder.shl(cells, const(row * m)))
        cols = builder.or_(cols, look(spread, row, cells))
        known = builder.or_(known, look(first, row, cells))
    return grid, cols, known, _ctpop(ir, cgutils, builder, known)


@functools.cache
def lane_setup(m: int, lanes: int, spec: tuple):
    """The intrinsic ``f(rspread, rfirst, index, extra, grid, cols, known) -> (GR, GC, KC, counts)`` that starts
    the ``lanes`` grids of a step (``codegen.gather_lockstep``'s inputs) as vectors.

    Lane g's enumeration index is ``index | g``; ``spec`` says which rows
    differ between the lanes: (row, shift, mask, lshift) per row, whose
    cells are ``(((index | g) >> shift) & mask) << lshift | extra[q]``.
    ``grid``, ``cols`` and ``known`` are what the lanes share: the other rows'
    cells in row encoding, their cells in column encoding and their first row
    pass (column encoding).  The lane rows add their cells, their column bits
    (``rspread[row, cells]``) and their first pass (``rfirst[row, cells]``,
    ``first_table``).  Returns the grids in row encoding and in column encoding,
    the knowledge after the first row pass (column encoding) and its counts,
    as tuples of ``lanes`` uint64.  ``rspread`` and ``rfirst``: C-contiguous
    uint64 arrays of rows of 2^m entries.
    """
    if lanes not in WIDTHS or not spec:
        raise ValueError(f"no gather lane set-up for {lanes} lanes and rows {spec}")
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    tuple_t = types.UniTuple(types.uint64, lanes)
    extra_t = types.UniTuple(types.uint64, len(spec))
    result_t = types.UniTuple(tuple_t, 4)

    def typer(typingctx, rspread, rfirst, index, extra, grid, cols, known):
        for table in (rspread, rfirst):
            if not (isinstance(table, types.Array) and table.dtype == types.uint64 and table.layout == "C"):
                return None
        if extra != extra_t or any(x != types.uint64 for x in (index, grid, cols, known)):
            return None
        return result_t(rspread, rfirst, index, extra, grid, cols, known), codegen

    def codegen(context, builder, sig, args):
        arrays = [context.make_array(t)(context, builder, a).data for t, a in zip(sig.args[:2], args[:2])]
        vectors = _emit_setup(ir, cgutils, builder, arrays, args[2:], lanes, m, spec)
        tuple_ll = context.get_value_type(tuple_t)
        return context.make_tuple(builder, result_t, [_from_vector(ir, builder, tuple_ll, v) for v in vectors])

    typer.__name__ = f"_gather_setup_{m}_w{lanes}"
    return intrinsic(typer)


def first_table(table, spread, length: int):
    """``first[i, x]``: the first row pass of line i with cells x (nothing known), in the crossing encoding:
    ``spread[i, table[x << length]]``, as uint64 (``lane_setup``)."""
    import numpy as np

    cells = np.arange(1 << length, dtype=np.int64)
    out = np.ascontiguousarray(spread[:, table[cells << length]], dtype=np.uint64)
    out.flags.writeable = False
    return out
