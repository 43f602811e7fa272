"""The package's version, in one place (``localcount.__version__`` re-exports it; pyproject reads it here)."""

__version__ = "0.1.0"
