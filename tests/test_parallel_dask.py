"""A Dask ``distributed.Client`` is an executor like any other: same seed, same record.

Runs when the ``dask`` extra is installed (``pip install -e '.[dask,test]'``).
"""

import pytest

distributed = pytest.importorskip("distributed")

from fnmcts.games.shut_the_box import ShutTheBox  # noqa: E402
from fnmcts.montecarlo import simulate  # noqa: E402


def test_a_dask_client_gives_the_serial_record():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        distributed_record = simulate(ShutTheBox(), 60_000, seed=3, chunk_size=10_000, executor=client)
    assert distributed_record == simulate(ShutTheBox(), 60_000, seed=3, chunk_size=10_000)
