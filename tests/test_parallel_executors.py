"""Every common executor gives the serial result: simulate, a tournament, an evaluation, root-parallel search.

Each test runs the four workloads of ``executor_matrix.workloads`` on one kind
of executor and compares them with the same workloads run chunk by chunk in
this process. Threads, processes and ``multiprocessing.Pool`` run in the
default suite; the cluster kinds (a Dask ``LocalCluster``, a Dask scheduler
and two workers started as separate commands, Ray's ``Pool`` on a local Ray,
mpi4py's ``MPIPoolExecutor`` under ``mpiexec -n 3``) are marked slow. Their
packages come with the ``cluster`` and ``dask`` extras and OpenMPI's
``mpiexec`` (Debian: ``openmpi-bin``); where they are missing a test skips,
except under CI (``CI`` set), where a missing one fails: CI's slow step
installs them all.
"""

import os
import pickle
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from fnmcts.parallel import mapped_on

from executor_matrix import dask_cluster, need, need_command, stop, workloads

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def serial():
    return workloads(None)


def test_the_serial_workloads_are_not_trivial(serial):
    """The matrix compares results that depend on every chunk's seed."""
    assert serial["simulate"].games == 6_000 and 0 < serial["simulate"].win < 6_000
    assert serial["tournament"].games == 16 and 0 < serial["tournament"].wins[1] < 16
    assert serial["evaluation"]["vs_random"]["games"] == 120
    assert serial["mcts_move"].iterations == 3_000
    assert workloads(None) == serial  # the same seeds give the same results


def test_threads_give_the_serial_results(serial):
    with ThreadPoolExecutor(2) as executor:
        assert workloads(executor) == serial


def test_processes_give_the_serial_results(serial):
    with ProcessPoolExecutor(2) as executor:
        assert workloads(executor) == serial


@pytest.mark.parametrize("kind", ["threads", "processes", "pool"])
def test_mapped_on_keeps_the_items_order_on_any_executor(kind):
    import multiprocessing

    make = {"threads": ThreadPoolExecutor, "processes": ProcessPoolExecutor, "pool": multiprocessing.Pool}[kind]
    items = list(range(-40, 40, 3))
    with make(2) as executor:
        results, futures = mapped_on(executor, abs, items)
        assert list(results) == [abs(x) for x in items] and futures is None


def test_a_multiprocessing_pool_gives_the_serial_results(serial):
    import multiprocessing

    with multiprocessing.Pool(2) as pool:
        assert workloads(pool) == serial


@pytest.mark.slow
def test_a_dask_local_cluster_gives_the_serial_results(serial):
    distributed = need("distributed", "pip install 'fnmcts[dask]'")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        assert workloads(client) == serial
        results, futures = mapped_on(client, abs, [-3, 2, -1])
        assert list(results) == [3, 2, 1] and len(futures) == 3


@pytest.mark.slow
def test_a_dask_scheduler_with_two_worker_processes_gives_the_serial_results(serial, tmp_path):
    """A cluster started as a user starts one: ``dask scheduler``, then ``dask worker tcp://...`` twice."""
    distributed = need("distributed", "pip install 'fnmcts[dask]'")
    dask = need_command("dask", "pip install 'fnmcts[dask]'")
    with dask_cluster(dask, tmp_path / "cluster.log") as address, distributed.Client(address, timeout=60) as client:
        client.wait_for_workers(2, timeout=120)
        pids = set(client.run(os.getpid).values())
        assert len(pids) == 2 and os.getpid() not in pids  # two processes, neither of them this one
        assert workloads(client) == serial
        results, futures = mapped_on(client, abs, [-3, 2, -1])
        assert list(results) == [3, 2, 1] and len(futures) == 3


@pytest.mark.slow
def test_rays_pool_on_a_local_ray_gives_the_serial_results(serial):
    ray = need("ray", "pip install 'fnmcts[cluster]'")
    from ray.util.multiprocessing import Pool

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        pool = Pool(2)
        try:
            assert workloads(pool) == serial
        finally:
            pool.terminate()
    finally:
        ray.shutdown()


@pytest.mark.slow
def test_mpi4pys_pool_under_mpiexec_gives_the_serial_results(serial, tmp_path):
    """``mpiexec -n 3 python -m mpi4py.futures``: rank 0 runs the workloads, ranks 1 and 2 are its workers."""
    need("mpi4py", "pip install 'fnmcts[cluster]' (OpenMPI first: apt-get install openmpi-bin libopenmpi-dev)")
    mpiexec = need_command("mpiexec", "apt-get install openmpi-bin libopenmpi-dev")
    out = tmp_path / "results.pkl"
    command = [mpiexec, "-n", "3", "--oversubscribe"]
    if os.geteuid() == 0:
        command.append("--allow-run-as-root")
    command += [sys.executable, "-m", "mpi4py.futures", str(HERE / "executor_matrix.py"), str(out)]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])))
    env.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=600)
    finally:
        stop([process])
    assert process.returncode == 0, output.decode(errors="replace")[-3000:]
    results = pickle.loads(out.read_bytes())
    assert results.pop("world") == 3
    assert results == serial
