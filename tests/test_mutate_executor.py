"""``mutate`` on an executor (``executor=``, ``fnmcts mutate --executor KIND``): each mutant a task, the serial verdicts."""

from concurrent.futures import ThreadPoolExecutor

import pytest

from cli_run import run_json
from executor_matrix import need
from fnmcts.games.nim import Nim
from fnmcts.parallel import WorkerLost
from fnmcts.testing import mutate, record_golden
from test_worker_lost import _DiesAfter

GAME = Nim(heap=3)


def _verdicts(report):
    return [(v.mutant, v.verdict, v.reason, v.line, v.difference) for v in report.verdicts]


def _checked(**where):
    counts = record_golden(GAME, playthrough_seed=None)  # the counts alone, as in mutate's own example
    return mutate(GAME, laws=False, goldens=[counts], operators=["comparison"], budget=None, **where)


@pytest.mark.slow  # five mutants twice: about 5 s
def test_the_mutants_on_an_executor_get_the_serial_verdicts():
    serial = _checked()
    with ThreadPoolExecutor(2) as executor:
        assert _verdicts(_checked(executor=executor)) == _verdicts(serial)
    assert serial.total == 5 and serial.killed == 3  # the figures of mutate's own example


def test_a_lost_worker_is_one_line_with_the_report_so_far():
    with pytest.raises(WorkerLost) as lost:
        _checked(executor=_DiesAfter(0))
    assert (lost.value.partial.total, lost.value.partial.game, lost.value.partial.checks) == (0, repr(GAME), ("goldens",))
    assert str(lost.value) == ("a worker was lost (BrokenProcessPool: A process in the process pool was terminated "
                               "abruptly.); 0 chunks finished before it")


@pytest.mark.slow  # two mutants, twice
def test_a_lost_worker_keeps_the_mutants_finished():
    with pytest.raises(WorkerLost) as lost:
        _checked(executor=_DiesAfter(2))
    assert _verdicts(lost.value.partial) == _verdicts(_checked())[:2]
    assert str(lost.value).endswith("; 2 chunks finished before it")


def test_workers_and_an_executor_together_are_refused():
    with ThreadPoolExecutor(1) as executor, pytest.raises(ValueError, match="not both"):
        _checked(executor=executor, workers=2)


def _unclocked(report: dict) -> dict:
    return report | {"seconds": None, "mutants": [m | {"seconds": None} for m in report["mutants"]]}


@pytest.mark.slow
def test_mutate_on_processes_and_dask_gives_the_serial_report(capsys):
    need("distributed", "pip install 'fnmcts[dask]'")
    argv = ("mutate", "nim(heap=10, max_take=4, misere=False)", "--no-laws", "--golden", "nim 10, take 1-4",
            "--operators", "comparison,not,payoff_players", "--sample", "6", "--seed", "3")
    serial = _unclocked(run_json(capsys, *argv))
    assert serial["total"] > 4
    for kind in ("processes:2", "dask:local:2"):
        assert _unclocked(run_json(capsys, *argv, "--executor", kind)) == serial, kind
