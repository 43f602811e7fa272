"""``python -m localcount``: see ``localcount.cli``."""

import os
import sys

from .cli import main

# Guarded: processes started with "spawn" (Dask's workers) import this module as __mp_main__.
if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        # stdout went to a pipe that closed early (e.g. `| head`): not an error worth a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(0)
