"""Modules generated per size: Python source written to the kernel cache and imported from there.

A kernel specialised for one size is Python source with the size's constants in it; it is written
to ``<cache>/kernels/<name>_<hash>.py`` (temp file + ``os.replace``) and imported from that file, so
numba's ``cache=True`` keeps the machine code beside it and later runs load it instead of
compiling.  The hash covers the source, so a changed generator never meets a stale cache.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import pathlib
import sys

from .files import write_atomic

CACHE_ENV = "LOCALCOUNT_KERNEL_DIR"


def kernel_dir() -> pathlib.Path:
    """Where generated kernels live: $LOCALCOUNT_KERNEL_DIR, else the per-user cache."""
    if os.environ.get(CACHE_ENV):
        return pathlib.Path(os.environ[CACHE_ENV]).expanduser()
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return pathlib.Path(cache) / "localcount" / "kernels"


def load(prefix: str, src: str):
    """The module of generated source ``src``, named ``<prefix>_<hash>`` (written on first use)."""
    digest = hashlib.sha256(src.encode()).hexdigest()[:16]
    name = f"{prefix}_{digest}"
    directory = kernel_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.py"
    if not path.exists() or path.read_text() != src:
        write_atomic(path, src)
    modname = f"localcount_generated.{name}"
    if modname in sys.modules:
        return sys.modules[modname]
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    spec.loader.exec_module(mod)
    return mod
