"""Watching a checkpoint log while a run writes it (tests that stop runs mid-way)."""

import time


def record_shards(path):
    """Shard numbers of every record line of a checkpoint log, duplicates included."""
    if not path.exists():
        return []
    return [int(line.split()[0]) for line in path.read_text().splitlines()[1:] if line.strip()]


def wait_for_records(path, proc, at_least, timeout=120):
    """Wait until the log holds at least `at_least` records; fail if `proc` ends first or time runs out."""
    deadline = time.time() + timeout
    while len(record_shards(path)) < at_least:
        assert proc.poll() is None, proc.communicate()
        assert time.time() < deadline
        time.sleep(0.005)
