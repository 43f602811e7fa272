"""Small utilities every layer may use: atomic file writes, messages to stderr, provenance.

Bottom layer: imports only the standard library.  ``version`` holds the version, ``errors`` the
usage error every layer raises for bad input, ``generated`` the loader of per-size generated kernels
(and their header line and the digest of source), ``cores`` how many cores a run may use (the
default number of worker processes), ``priority`` the idle priority of ``--idle``.
"""
