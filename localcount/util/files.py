"""Atomic writes: a crash leaves the old file or the new one, never part of either."""

from __future__ import annotations

import os
import pathlib
import tempfile


def write_atomic(path, data) -> None:
    """Replace ``path`` with ``data`` (text or bytes) atomically: a synced temp file beside it, then os.replace."""
    path = pathlib.Path(path)
    raw = data.encode() if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def write_if_changed(path, data) -> bool:
    """Write ``data`` atomically unless ``path`` already holds it; True if it was written."""
    path = pathlib.Path(path)
    raw = data.encode() if isinstance(data, str) else data
    if path.exists() and path.read_bytes() == raw:
        return False
    write_atomic(path, raw)
    return True
