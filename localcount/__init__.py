"""localcount: count locally solvable nonograms by exhaustive enumeration."""

__version__ = "0.1.0"
