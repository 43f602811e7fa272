"""The GPU engine: the general kernel's count as CUDA kernels (numba.cuda), a shard per launch.

* ``layout`` — ``GpuLayout``: the general kernel's shards and symmetry groups, keys of their own,
  shards computed in the process that holds the device;
* ``count`` — the device's tables, a launch per range of indices, whether a GPU (or numba's CUDA
  simulator, ``NUMBA_ENABLE_CUDASIM=1``) is there;
* ``kernel`` — the device code: decode an index, weight its border, propagate, reduce per block.

Needs the ``gpu`` extra (numba-cuda) on a machine with an NVIDIA GPU; the tests run the same kernel
in the simulator.  May import ``engines.base``, ``lines`` (tables), ``clues`` and ``util``.
"""
