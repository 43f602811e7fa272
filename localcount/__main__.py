"""``python -m localcount``: see ``localcount.cli``."""

import sys

from .cli import main

sys.exit(main())
