"""Small utilities every layer may use: atomic file writes, messages to stderr, provenance.

Bottom layer: imports only the standard library (and ``localcount.__version__``).
"""
