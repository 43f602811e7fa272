"""The enumeration index order, stated once in ``engines.enumeration``: its integer functions against a naive
statement (the cells of an index listed from its least significant bit; the border rows, the low bits of each
group, the orbit weights, the group ids), and every decoder that reads them (the numpy planning, the CPU
kernel, the generated kernels' source, the GPU kernel in numba's CUDA simulator) against that statement, for
n = 1 .. 5 and rectangles."""

import numpy as np
import pytest
from numba import cuda  # a global: numba's CUDA simulator swaps it in a kernel's globals

from localcount.engines import enumeration
from localcount.engines.base import GROUP_IDS

RECTANGLES = [(1, 1), (1, 5), (2, 1), (2, 2), (2, 7), (3, 3), (3, 5), (4, 4), (4, 6), (5, 2), (5, 5), (6, 4)]
SQUARES = [2, 3, 4, 5, 6]


def naive_rows_cells(n, m):
    """The rows order's cells (r, c), least significant index bit first: rows n-2 down to 1, then row n-1, then
    row 0 (most significant), each row's cells from column 0 up."""
    order = [*range(n - 2, 0, -1), n - 1, 0] if n >= 2 else [0]
    return [(r, c) for r in order for c in range(m)]


def naive_square_cells(n):
    """The square's order's cells (r, c), least significant bit first: the interior (rows 1 .. n-2, row 1 lowest,
    columns 1 .. n-2), the right column, the left column (rows 1 .. n-2), the bottom row, the top row."""
    inner = range(1, n - 1)
    interior = [(r, c) for r in inner for c in inner]
    return (
        interior
        + [(r, n - 1) for r in inner]
        + [(r, 0) for r in inner]
        + [(n - 1, c) for c in range(n)]
        + [(0, c) for c in range(n)]
    )


def naive_grid(index, cells, n, m):
    """Rows (bit c = cell c) of the grid at ``index`` whose bit p is the cell ``cells[p]``."""
    rows = [0] * n
    for p, (r, c) in enumerate(cells):
        rows[r] |= ((index >> p) & 1) << c
    return rows


def naive_index(rows, cells):
    """The index whose bit p is the cell ``cells[p]`` of the grid with these rows."""
    return sum(((rows[r] >> c) & 1) << p for p, (r, c) in enumerate(cells))


def some_indices(bits, count=40, seed=0):
    """Every index of ``bits`` bits if few, else the ends and a seeded sample."""
    if bits <= 10:
        return list(range(1 << bits))
    rng = np.random.default_rng(seed)
    return [0, (1 << bits) - 1, *(int(x) for x in rng.integers(0, 1 << bits, count, dtype=np.uint64))]


@pytest.mark.parametrize("n,m", RECTANGLES)
def test_the_rows_order_functions_state_the_naive_order(n, m):
    cells = naive_rows_cells(n, m)
    assert sorted(cells) == [(r, c) for r in range(n) for c in range(m)]
    assert [enumeration.row_shift(r, n, m) + c for r, c in cells] == list(range(n * m))
    border = {0, n - 1}
    assert enumeration.rows_low_bits(n, m) == sum(r not in border for r, _ in cells)
    assert enumeration.low_bits(n, m, "flips") == enumeration.low_bits(n, m, "none") == enumeration.rows_low_bits(n, m)
    assert enumeration.border_bits(n, m, "flips") == m * len(border)
    # the border rows, most significant first: the rows of the top bits, in the order of their highest bit
    top = [r for r, _ in reversed(cells[enumeration.rows_low_bits(n, m) :])]
    assert list(enumeration.border_rows(n)) == list(dict.fromkeys(top))


@pytest.mark.parametrize("n,m", [(n, m) for n, m in RECTANGLES if n >= 2])
def test_a_border_code_s_rows_are_the_naive_order_s(n, m):
    cells = naive_rows_cells(n, m)
    low = enumeration.rows_low_bits(n, m)
    codes = np.array([index >> low for index in some_indices(n * m)], np.uint64)
    top, bottom = enumeration.border_values(codes, n, m)
    for code, a, b in zip(codes.tolist(), top.tolist(), bottom.tolist()):
        rows = naive_grid(code << low, cells, n, m)
        assert (a, b) == (rows[0], rows[n - 1]) and enumeration.border_code(a, b, n, m) == code


@pytest.mark.parametrize("n", SQUARES)
def test_the_square_order_functions_state_the_naive_order(n):
    cells = naive_square_cells(n)
    assert sorted(cells) == [(r, c) for r in range(n) for c in range(n)]
    low = enumeration.square_interior_bits(n)
    top, bottom, left, right = enumeration.square_border_shifts(n)
    where = {}
    for r in range(1, n - 1):
        for c in range(1, n - 1):
            where[(r, c)] = enumeration.square_interior_shift(r, n) + c - 1
        where[(r, 0)] = low + left + r - 1
        where[(r, n - 1)] = low + right + r - 1
    for c in range(n):
        where[(0, c)] = low + top + c
        where[(n - 1, c)] = low + bottom + c
    assert [where[cell] for cell in cells] == list(range(n * n))
    assert low == (n - 2) ** 2 == enumeration.low_bits(n, n, "square")
    assert enumeration.border_bits(n, n, "square") == 4 * n - 4
    for r in range(1, n - 1):
        assert enumeration.square_edge_shifts(r, n) == (where[(r, 0)] - low, where[(r, n - 1)] - low)
    # the rows whole in the border code: the rows order's border rows
    assert [r for r in range(n) if all(where[(r, c)] >= low for c in range(n))] == sorted(enumeration.border_rows(n))


@pytest.mark.parametrize("n", SQUARES)
def test_the_square_row_decoders_read_the_naive_order(n):
    # square_border_row and square_row: on plain ints, and on numpy arrays of borders (the planner's _square)
    cells = naive_square_cells(n)
    low = enumeration.square_interior_bits(n)
    indices = some_indices(n * n)
    for index in indices:
        assert [enumeration.square_row(index, r, n) for r in range(n)] == naive_grid(index, cells, n, n), index
        border_only = naive_grid(index >> low << low, cells, n, n)
        assert [enumeration.square_border_row(index >> low, r, n) for r in range(n)] == border_only, index
    codes = np.array([index >> low for index in indices], np.uint64)
    for r in range(n):
        expected = [naive_grid(int(code) << low, cells, n, n)[r] for code in codes]
        assert enumeration.square_border_row(codes, r, n).tolist() == expected, r


@pytest.mark.parametrize("n,m", RECTANGLES)
def test_each_group_uses_its_order(n, m):
    # border_low (by group id, compiled by the kernels) and low_bits (by name): the square's order for its group
    for name, group in GROUP_IDS.items():
        if name == "square" and not n == m >= 2:
            continue
        if name == "square":
            low = (n - 2) ** 2  # the interior, below the border in naive_square_cells
        else:
            low = sum(r not in {0, n - 1} for r, _ in naive_rows_cells(n, m))
        assert enumeration.border_low(n, m, group) == enumeration.low_bits(n, m, name) == low, name


def test_the_group_ids_are_the_base_ones_everywhere():
    from localcount.engines.gpu import kernel as gpu_kernel
    from localcount.engines.grid import kernel as grid_kernel
    from localcount.engines.grid import specialize

    ids = (GROUP_IDS["none"], GROUP_IDS["flips"], GROUP_IDS["square"])
    for module in (grid_kernel, gpu_kernel):
        assert (module.NONE, module.FLIPS, module.SQUARE) == ids
    assert enumeration.SQUARE == GROUP_IDS["square"]
    assert f"if group == {GROUP_IDS['flips']}:" in specialize.source(3, 4)
    assert f"``group`` is {GROUP_IDS['square']}" in specialize.source(5, 5)


def naive_orbit_weight(images):
    """The weight of a border from its images under each group element, the identity's first: its orbit's size
    if it is the orbit's least, else 0."""
    return len(set(images)) if images[0] == min(images) else 0


def naive_square_images(rows, n):
    """The grid masks (bit r·n + c) of a square grid's 8 images, the identity first."""
    cell = {(r, c) for r in range(n) for c in range(n) if (rows[r] >> c) & 1}
    images = []
    for t in range(8):
        moved = {(c, r) if t & 4 else (r, c) for r, c in cell}
        moved = {(n - 1 - r if t & 1 else r, n - 1 - c if t & 2 else c) for r, c in moved}
        images.append(sum(1 << (r * n + c) for r, c in moved))
    return images


def test_the_orbit_weight_is_the_naive_one():
    # every border of the 3x3 square under its 8 symmetries, and the flips of 2x2: plain ints and numpy arrays
    cells = naive_square_cells(3)
    all_images = [naive_square_images(naive_grid(border << 1, cells, 3, 3), 3) for border in range(1 << 8)]
    for images in all_images:
        assert enumeration.orbit_weight(images[0], images) == naive_orbit_weight(images), images
    columns = [np.array(column, np.uint64) for column in zip(*all_images)]
    expected = [naive_orbit_weight(images) for images in all_images]
    assert enumeration.orbit_weight(columns[0], columns).tolist() == expected
    for a in range(4):
        for b in range(4):
            rev = [0, 2, 1, 3]
            images = [a * 4 + b, b * 4 + a, rev[a] * 4 + rev[b], rev[b] * 4 + rev[a]]
            assert enumeration.orbit_weight(images[0], images) == naive_orbit_weight(images), (a, b)


def test_the_order_functions_are_plain_python():
    # numba compiles them for the CPU and GPU kernels: plain integer arithmetic, ints in, ints out
    values = [enumeration.row_shift(2, 5, 4), enumeration.rows_low_bits(5, 4), enumeration.square_interior_bits(5),
              *enumeration.square_border_shifts(5), enumeration.square_interior_shift(2, 5),
              *enumeration.square_edge_shifts(2, 5), enumeration.square_border_row(1234, 2, 5),
              enumeration.square_row(1 << 20, 3, 5), enumeration.border_low(5, 4, 1),
              enumeration.orbit_weight(3, (3, 4, 3, 5))]  # fmt: skip
    assert all(type(v) is int for v in values)


@pytest.mark.parametrize("n", SQUARES)
def test_the_cpu_kernels_square_decoders_read_the_naive_order(n):
    from localcount.engines.grid.kernel import square_border_mask, square_rows

    cells = naive_square_cells(n)
    low = enumeration.square_interior_bits(n)
    rows = np.zeros(n, np.uint64)
    for index in some_indices(n * n):
        expected = naive_grid(index, cells, n, n)
        square_rows(np.uint64(index), n, rows)
        assert rows.tolist() == expected, index
        border_only = naive_grid(index >> low << low, cells, n, n)
        mask = sum(row << (r * n) for r, row in enumerate(border_only))
        assert int(square_border_mask(np.uint64(index >> low), n)) == mask, index


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_cpu_kernels_square_weights_are_the_naive_orbits(n):
    from localcount.engines.grid.kernel import square_weight

    cells = naive_square_cells(n)
    low = enumeration.square_interior_bits(n)
    for border in range(1 << (4 * n - 4)):
        images = naive_square_images(naive_grid(border << low, cells, n, n), n)
        assert square_weight(np.uint64(border), n) == naive_orbit_weight(images), border


@pytest.mark.parametrize("n,m", [(1, 4), (2, 3), (3, 3), (4, 2), (5, 3)])
def test_the_cpu_kernels_flip_weights_read_the_naive_order(n, m):
    # border_weight decodes row 0 and row n-1 from the border code: its weights against the naive rows' orbits
    from localcount.engines.grid.kernel import border_weight

    cells = naive_rows_cells(n, m)
    low = enumeration.rows_low_bits(n, m)
    rev = lambda x: int(format(x, f"0{m}b")[::-1], 2)

    def code(top, bottom):
        rows = [top] + [0] * (n - 2) + ([bottom] if n >= 2 else [])
        return naive_index(rows, cells) >> low

    planned = enumeration.representatives(n, m, "flips")
    for border in range(1 << (n * m - low)):
        rows = naive_grid(border << low, cells, n, m)
        a, b = rows[0], rows[n - 1]
        images = {(a, b), (rev(a), rev(b))} | ({(b, a), (rev(b), rev(a))} if n >= 2 else set())
        expected = len(images) if code(a, b) == min(code(*image) for image in images) else 0
        assert code(a, b) == border and border_weight(np.uint64(border), n, m) == expected, border
        assert planned[border] == (expected > 0), border


@pytest.mark.parametrize("n", [2, 3, 4])
def test_the_planned_square_representatives_read_the_naive_order(n):
    # enumeration's numpy decode: a border is counted where its grid mask (bit r·n + c) is its orbit's least
    cells = naive_square_cells(n)
    low = enumeration.square_interior_bits(n)
    planned = enumeration.representatives(n, n, "square")
    for border in range(1 << (4 * n - 4)):
        images = naive_square_images(naive_grid(border << low, cells, n, n), n)
        assert planned[border] == (images[0] == min(images)), border


@pytest.mark.parametrize("n,m", RECTANGLES)
def test_the_generated_kernels_decode_every_row_at_its_shift(n, m):
    from localcount.engines.codegen import u64
    from localcount.engines.grid import specialize

    source = specialize.source(n, m)
    mask = u64((1 << m) - 1)
    for r in range(n):
        assert f">> {u64(enumeration.row_shift(r, n, m))}) & {mask}" in source, r
    assert f"min({enumeration.rows_low_bits(n, m)}, inner_bits)" in source


@pytest.mark.parametrize("n", SQUARES)
def test_the_generated_square_kernels_decode_the_naive_order(n):
    # run the generated source's border decode and interior decode (plain Python, before numba) on indices
    from localcount.engines.grid import specialize

    source = specialize.source(n, n)
    lines = source.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip().startswith("right = border"))
    decode = [line.strip() for line in lines[start : start + 4 + (n - 2)]]
    rows_of = {r: next(line for line in lines if f"r{r}_0 = (e{r} |" in line or f"r{r}_s = (e{r} |" in line)
               for r in range(1, n - 1)}  # fmt: skip
    cells = naive_square_cells(n)
    low = enumeration.square_interior_bits(n)
    for index in some_indices(n * n, count=20):
        env = {"np": np, "border": np.uint64(index >> low), "index": np.uint64(index)}
        for statement in decode:
            exec(statement, env)
        got = [int(env["r0"])]
        for r in range(1, n - 1):
            expression = rows_of[r].split(" = ", 1)[1].replace("(start | np.uint64(j))", "index")
            got.append(int(eval(expression.replace("(index | np.uint64(0))", "index"), env)))
        got.append(int(env[f"r{n - 1}"]))
        assert got == naive_grid(index, cells, n, n), index


@pytest.mark.parametrize("n,m,group", [(1, 5, 1), (2, 3, 1), (3, 4, 0), (4, 3, 1), (2, 2, 2), (3, 3, 2), (4, 4, 2)])
def test_the_gpu_kernels_rows_loader_reads_the_naive_order(n, m, group):
    from localcount.engines.gpu.kernel import SQUARE, rows_loader

    load_rows = rows_loader(n, m, group)

    @cuda.jit
    def decode(indices, out):
        i = cuda.threadIdx.x
        if i < indices.size:
            load_rows(indices[i], out, i * n)

    cells = naive_square_cells(n) if group == SQUARE else naive_rows_cells(n, m)
    indices = np.array(some_indices(n * m, count=30)[:32], np.uint64)
    out = np.zeros(len(indices) * n, np.uint64)
    decode[1, len(indices)](indices, out)
    assert out.reshape(-1, n).tolist() == [naive_grid(int(i), cells, n, m) for i in indices]


@pytest.mark.parametrize("n,m,group", [(1, 3, 1), (3, 2, 1), (3, 3, 2)])
def test_the_gpu_kernels_weights_are_the_cpu_kernels(n, m, group):
    # the device's flip and square weights (numba's CUDA simulator) against the CPU kernel's, checked above
    from localcount.engines.gpu import kernel as gpu
    from localcount.engines.grid.kernel import border_weight, square_weight

    square, border = gpu.square_weight, gpu.border_weight

    @cuda.jit
    def weigh(borders, out):
        i = cuda.threadIdx.x
        if i < borders.size:
            out[i] = square(borders[i], n) if group == gpu.SQUARE else border(borders[i], n, m)

    bits = n * m - enumeration.border_low(n, m, group)
    borders = np.arange(min(1 << bits, 64), dtype=np.uint64)
    out = np.zeros(len(borders), np.int64)
    weigh[1, len(borders)](borders, out)
    cpu = [square_weight(b, n) if group == gpu.SQUARE else border_weight(b, n, m) for b in borders]
    assert out.tolist() == cpu


def test_the_cpu_kernel_file_changes_with_the_order():
    # numba's cache watches only the kernel's own file: its ORDER_DIGEST must follow engines.enumeration's order.
    from localcount.engines import enumeration
    from localcount.engines.grid import kernel
    from localcount.engines.stats import kernel as stats_kernel
    from localcount.util import generated

    for compiled in (kernel, stats_kernel):
        order = [getattr(enumeration, name) for name in compiled.ORDER_FUNCTIONS]
        assert generated.digest(*order) == compiled.ORDER_DIGEST, (
            f"engines.enumeration's order changed: renew {compiled.__name__}'s ORDER_DIGEST (numba then recompiles)"
        )
