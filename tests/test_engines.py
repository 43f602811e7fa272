"""Every engine provides the whole ``engines.base.Layout`` interface, and its parts agree with each other."""

import pickle

import naive
import pytest

from localcount.engines import registry
from localcount.engines.base import Layout


def small_layouts():
    """A few small layouts of every registered engine, each with the locally solvable count it must give."""
    grid, thin, stats, tiny, index, gpu, sample = (
        registry.engine(name) for name in ("grid", "thin", "stats", "tiny", "numbering", "gpu", "sample")
    )
    return [
        (grid.make(2, 5, 4), 810),
        (grid.make(3, 3, 5, "square"), 384),
        (grid.make(4, 3, 3, "none"), naive.count(4, 3)),
        (thin.make(5, 2), 810),
        (thin.make(6, 3, rows="word", symmetry="none"), naive.count(2, 6)),
        (stats.make(2, 5), 810),
        (stats.make(3, 3, 1, path="transposed", symmetry="none"), 384),
        (tiny.make(2, 5), 810),
        (tiny.make(3, 4, 5), naive.count(3, 4)),
        (tiny.make(4, 3, 2, "none"), naive.count(4, 3)),
        (tiny.make(0, 3), 1),
        (index.make(2, 5), 810),
        (index.make(4, 3, rows=2, bits=3), naive.count(4, 3)),
        (index.make(3, 3, rows=1, bits=2, symmetry="none", variant="yesnogram"), naive.count(3, 3, "yesnogram")),
        (index.make(0, 2), 1),
        (gpu.make(3, 3), 384),  # in numba's CUDA simulator (tests/conftest.py)
        (gpu.make(2, 5, 3, "none", "yesnogram"), naive.count(2, 5, "yesnogram")),
        (sample.make(3, 4, 1.0, 1500, 0), 1500),  # every grid full: every one simple
        (sample.make(4, 3, 0.0, 700, 5, nodes=20), 700),  # every grid empty, searched if not simple
    ]


LAYOUTS = small_layouts()
IDS = [lay.key for lay, _ in LAYOUTS]


def test_every_registered_engine_is_a_layout_and_is_tested_here():
    classes = {name: registry.engine(name) for name in registry.ENGINES}
    assert all(issubclass(cls, Layout) for cls in classes.values())
    assert {type(lay) for lay, _ in LAYOUTS} == set(classes.values())


@pytest.mark.parametrize("lay,solvable", LAYOUTS, ids=IDS)
def test_the_interface_agrees_with_itself(lay, solvable):
    assert registry.parse_key(lay.key) == lay and type(lay).from_key(lay.key) == lay
    assert pickle.loads(pickle.dumps(lay)) == lay  # sent to worker processes and Dask tasks
    assert (
        lay.kind in ("count", "stats", "index", "sample") and lay.code_path and lay.title.startswith(f"{lay.n}x{lay.m}")
    )
    values = [lay.compute(s) for s in range(lay.shards)]
    for value in values:
        assert lay.parse_value(lay.format_value(value)) == value
    total = lay.add(values)
    assert lay.solvable(total) == solvable
    assert lay.format_total(total) and lay.describe(total)
    in_process, threads = lay.in_process(1)
    assert lay.add([in_process]) == total and threads >= 1
    work = lay.shard_work()
    assert len(work) == lay.shards and work.min() >= 0
    assert lay.shards * lay.grids_per_shard <= 2 ** (lay.n * lay.m)
    lay.warm()


def test_two_paths_of_a_size_are_different_code_paths():
    for n, m in [(2, 5), (3, 4), (4, 4), (2, 17), (1, 20)]:
        a, b = registry.table_paths(n, m)
        assert a.code_path != b.code_path and {a.n * a.m, b.n * b.m} == {n * m}
    a, b = registry.stats_paths(3, 4)
    assert a.code_path != b.code_path


def test_the_count_command_chooses_as_documented():
    assert registry.count_layout(2, 17).method == "thin" and registry.count_layout(2, 13).method == ""
    assert registry.count_layout(3, 6).method == "tiny" and registry.count_layout(1, 20).method == "tiny"
    assert registry.count_layout(4, 5).method == "tiny" and registry.count_layout(3, 3, symmetry="flips").method == ""
    assert registry.count_layout(3, 7).method == "" and registry.count_layout(2, 11).method == ""
    assert registry.count_layout(4, 5, checkpointed=True).method == ""  # checkpointed runs keep their kernels' keys
    assert (
        registry.count_layout(4, 4, "tiny").symmetry == "flips"
        and registry.count_layout(4, 4, "tiny", "none").symmetry == "none"
    )
    assert registry.count_layout(5, 5).symmetry == "square" and registry.count_layout(4, 5).symmetry == "flips"
    assert registry.count_layout(2, 12, "thin", thin_rows="word").rows == "word"
    for bad in [
        dict(n=3, m=14, method="thin"),
        dict(n=2, m=17, symmetry="square"),
        dict(n=9, m=9),
        dict(n=4, m=4, method="quantum"),
        dict(n=5, m=5, method="tiny"),
        dict(n=2, m=11, method="tiny"),
        dict(n=3, m=3, method="tiny", symmetry="square"),
    ]:
        with pytest.raises(ValueError):
            registry.count_layout(**bad)


TINY = [(n, m) for n in range(0, 21) for m in range(n, 21) if registry.tiny_preferred(n, m) and (n or not m)]


@pytest.mark.parametrize("n,m", TINY)
def test_the_tiny_counter_equals_the_reference_and_the_recorded_counts(n, m):
    """The numpy path against tests/naive.py where that is quick, and against results/ (two kernel paths) always."""
    import pathlib

    from localcount.results.records import read_table

    tiny = registry.engine("tiny")
    got = tiny.make(n, m).in_process(1)[0]  # by orbits of the flips
    assert tiny.make(m, n, 3 if n * m >= 3 else 0, "none").in_process(1)[0] == got  # transposed, every grid, in shards
    if n * m <= 14:
        assert got == naive.count(n, m)
    recorded = {(r.n, r.m): r.count for r in read_table(pathlib.Path(__file__).resolve().parent.parent / "results")}
    assert got == recorded[(n, m)]
