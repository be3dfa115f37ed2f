"""A new install's short searches on compiled rules: a process of its own compiles the rules loop
(``_rules_kernel.compile_elsewhere``), and the searches run it once it is on disk, with the draws they had in Python.

The check runs in a process whose Numba cache is an empty directory (``NUMBA_CACHE_DIR``), as a new install's is:
no search there is long enough to compile the loop itself (``KERNEL_MIN_DIVES``), yet the loop comes to run.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("numba", reason="the compiled rules loop needs Numba")

CHILD = textwrap.dedent("""
    import json, os, random, time
    from fnmcts.games.connect_four import ConnectFour
    from fnmcts.mcts import mcts_move
    from fnmcts.mcts import _rules_kernel as rk
    from fnmcts.mcts._kernel import KERNEL_MIN_DIVES

    game = ConnectFour()
    rules = game.compiled_rules()
    first = mcts_move(game, game.start(), 100, random.Random(7))  # in Python: nothing compiled, nothing on disk
    before = rk.compiled(rules)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(rk.__file__))))
    lock = rk._lock(root, 1)
    second = rk._locked(lock)  # (as another new process would find it: the lock is taken, none started)
    started = time.monotonic()
    while not rk.compiled(rules) and time.monotonic() - started < 240:
        mcts_move(game, game.start(), 50, random.Random(1))
        time.sleep(0.2)
    waited = time.monotonic() - started
    in_process_before = rk._entry(None, 1) is not rk._dives  # (the machine code was made elsewhere, not here)
    again = mcts_move(game, game.start(), 100, random.Random(7))
    for _ in range(100):  # (the compiling process removes its lock as it ends)
        if not os.path.exists(lock):
            break
        time.sleep(0.1)
    print(json.dumps({"before": before, "second": second, "lock_left": os.path.exists(lock), "on_disk": rk.compiled(rules), "made_here": in_process_before,
                      "runs_compiled": rk._entry(None, 1) is not rk._dives, "waited": waited,
                      "same": [first.move, first.iterations, repr(first.tree)] == [again.move, again.iterations,
                                                                                repr(again.tree)],
                      "short": 100 < KERNEL_MIN_DIVES}))
""")


@pytest.mark.slow
def test_a_new_install_s_short_searches_come_to_run_compiled_with_the_same_draws(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    env.pop("FNMCTS_COMPILE_ELSEWHERE", None)  # (the suite's own setting: no process started)
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, timeout=400)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["short"] and not found["before"] and not found["made_here"]
    assert found["second"] is False and not found["lock_left"], found
    assert found["on_disk"] and found["runs_compiled"], found
    assert found["same"], found
    assert os.listdir(tmp_path / "numba")  # the compiling process kept its machine code in the cache given


def test_the_suite_starts_no_compiling_process():
    """conftest.py sets ``FNMCTS_COMPILE_ELSEWHERE=0``: ``compile_elsewhere`` says it started nothing."""
    from fnmcts.mcts import _rules_kernel

    from fnmcts.games.connect_four import ConnectFour

    assert os.environ.get(_rules_kernel.ELSEWHERE) == "0"
    assert _rules_kernel.compile_elsewhere(1, ConnectFour()) is False
