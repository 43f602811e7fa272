"""The ways of counting, each behind one interface (``base.Layout``), and the registry that names them.

* ``base`` — the interface every engine's layout provides, size checks, symmetry group ids;
* ``registry`` — the engines by name, checkpoint keys to layouts, and the one policy that
  chooses the engine and paths for a size (count command, ``table``, scripts);
* ``enumeration`` — the general kernel's index order and orbit representatives in numpy: which
  borders are counted and the work of each shard, for planning without a compiled kernel;
* ``codegen`` — source generators (strings, nothing compiled) for local logic in lockstep: the
  statements the grid, stats and numbering engines' generated kernels propagate with, and their modules'
  assembly;
* ``grid`` — the general numba kernel (any n×m with n·m ≤ 64);
* ``thin`` — the 2×m counter;
* ``stats`` — the stats enumeration (uniqueness, difficulty, stuck grids);
* ``tiny`` — small sizes with numpy, nothing compiled;
* ``numbering`` — every grid's steps in the order of ``docs/numbering.md``, per block;
* ``gpu`` — the general kernel's count as CUDA kernels (numba.cuda), a shard per launch.

* ``sample`` — random grids of any size to 62×62: the simple fraction, steps, and (asked) uniqueness.

Engines may import ``lines``, ``clues`` and ``util``, never orchestration, results or cli,
and not each other (``codegen``, no engine, is theirs to share); ``sample`` also uses the single-puzzle search beside it (``puzzle.solving``,
imported inside its ``compute`` when uniqueness is asked for).  Importing this package, ``base`` or ``registry`` loads no engine.
"""
