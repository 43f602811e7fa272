"""Running layouts: shard groups, checkpoints, worker processes, Dask, and reading checkpoints back.

* ``launch`` — ``launch``: the one way down from the API, a layout run in this process or shard by shard;
* ``groups`` — ``--shard K/N`` (res/mod groups that nest);
* ``checkpoint`` — the append-only, checksummed, locked log of finished shards, and its sessions file;
* ``runner`` — ``run``: the missing shards of a group over worker processes, each recorded durably;
* ``yielding`` — an idle run's workers step aside (SIGSTOP) while other work keeps the machine busy;
* ``budget`` — ``--max-seconds``: take a shard only while it is expected to end within the budget;
* ``verify`` — a GPU count's seeded sample of shards, recounted by its CPU twin and compared;
* ``cluster`` — ``workers`` (local processes or a Dask client), the same shards as Dask tasks (optional extra ``dask``);
* ``status`` — ``merge`` and ``status``: totals and progress from checkpoint files.

Works with any engine through ``engines.base.Layout`` only: imports ``engines.base``,
``engines.registry`` (to parse a checkpoint key) and ``util``, never an engine package.
"""
