"""``python -m localcount``: see ``localcount.cli``."""

import os
import sys

from .cli import main, quick_exit

# Guarded: processes started with "spawn" (Dask's workers) import this module as __mp_main__.
if __name__ == "__main__":
    try:
        status = main()
        if quick_exit(sys.argv[1:]) and "numba" in sys.modules:
            # A long solve, generate or design switched to compiled code: its output is all written, and
            # numba's teardown would add about 0.3 s to the command's time (its --timeout included).
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)
        sys.exit(status)
    except BrokenPipeError:
        # stdout went to a pipe that closed early (e.g. `| head`): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
