import os
import sys

# tests/naive.py is imported as a plain module by the tests.
sys.path.insert(0, os.path.dirname(__file__))

# The GPU engine's tests run its CUDA kernel in numba's CUDA simulator (there is no GPU here).  On a
# machine with one, LOCALCOUNT_TEST_GPU=device runs them on the device instead.  Set before numba loads.
if os.environ.get("LOCALCOUNT_TEST_GPU") != "device":
    os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
