"""A stopped pool's manager thread is quieted by one hook for the process: stopping pools does not grow a chain."""

from __future__ import annotations

import gc
import threading

import pytest

from fnmcts import parallel


class _Pool:
    """Just what ``_quiet_manager`` reads of an executor: its manager thread."""

    def __init__(self, target):
        self._executor_manager_thread = threading.Thread(target=target)


def _fail():
    raise RuntimeError("the manager thread failed")


@pytest.fixture
def recorded(monkeypatch):
    """The hook in place before any pool stops records the threads it hears of."""
    heard = []
    monkeypatch.setattr(threading, "excepthook", lambda args: heard.append(args.thread))
    monkeypatch.setattr(parallel, "_QUIET_HOOK", {})
    return heard


def test_many_stops_install_one_hook_in_front_of_the_previous_one(recorded):
    previous = threading.excepthook
    pools = [_Pool(_fail) for _ in range(50)]
    for pool in pools:
        parallel._quiet_manager(pool)
        assert threading.excepthook is parallel._quiet_hook
        assert parallel._QUIET_HOOK == {"previous": previous}  # the same one each time: no wrapper of a wrapper
    for pool in pools[:5]:
        pool._executor_manager_thread.start()
        pool._executor_manager_thread.join()
    assert recorded == []  # the stopped pools' threads are quiet
    other = threading.Thread(target=_fail)
    other.start()
    other.join()
    assert recorded == [other]  # every other thread's exception still reaches the previous hook, once


@pytest.mark.slow
def test_a_quiet_thread_is_forgotten_once_it_is_gone(recorded):
    before = len(parallel._QUIET_THREADS)
    pool = _Pool(lambda: None)
    parallel._quiet_manager(pool)
    assert len(parallel._QUIET_THREADS) == before + 1
    pool._executor_manager_thread.start()
    pool._executor_manager_thread.join()
    del pool
    gc.collect()
    assert len(parallel._QUIET_THREADS) == before


def test_a_hook_put_in_front_later_is_kept_and_no_loop_forms(recorded):
    parallel._quiet_manager(_Pool(_fail))
    ours = threading.excepthook
    later = []

    def wrapper(args):  # another library's hook, wrapping ours
        later.append(args.thread)
        ours(args)

    threading.excepthook = wrapper
    parallel._quiet_manager(_Pool(_fail))  # ours goes in front again, calling the wrapper, which calls ours
    other = threading.Thread(target=_fail)
    other.start()
    other.join()
    assert later == [other]  # heard once: the loop is cut, the exception still printed by Python's own hook
