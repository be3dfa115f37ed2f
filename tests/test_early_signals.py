"""Ctrl-C and SIGTERM at any moment of a command: status 130 or 143 and one line, never a traceback."""

from __future__ import annotations

import signal
import subprocess
import sys
import time

import pytest
from test_interrupts import as_a_terminal_job

from fnmcts import cli

_SELF_SIGNAL = """
import os, signal, sys
import fnmcts.cli as cli
real = cli.build
def build():
    os.kill(os.getpid(), signal.{name})   # while the command modules are imported
    return real()
cli.build = build
cli.console()
"""


@pytest.mark.parametrize("name, status", [("SIGINT", 130), ("SIGTERM", 143)])
def test_a_signal_while_the_commands_are_imported_ends_the_command_cleanly(name, status):
    done = subprocess.run([sys.executable, "-c", _SELF_SIGNAL.format(name=name), "simulate", "coin"],
                          capture_output=True, text=True, timeout=120, preexec_fn=as_a_terminal_job)
    assert done.returncode == status
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [f"fnmcts: interrupted by {name}"]


def test_main_leaves_the_signal_handlers_as_it_found_them():
    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    assert cli.main(["simulate", "coin", "--games", "10", "--seed", "1", "--json"]) == 0
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_importing_the_command_line_package_is_light():
    # main hears signals from its first line: the package must not import the commands before it runs
    done = subprocess.run([sys.executable, "-c", "import sys, fnmcts.cli; print('fnmcts.cli._common' in sys.modules)"],
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "False"
    from fnmcts.cli import CliError  # still there, on first use

    assert issubclass(CliError, Exception)


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_any_time_after_start_up_ends_the_command_cleanly(signum):
    # the interpreter's own start-up (before any fnmcts code runs) is outside fnmcts: start at 0.5 s
    bad = []
    for delay in [0.5 + 0.05 * k for k in range(11)]:
        p = subprocess.Popen([sys.executable, "-m", "fnmcts", "simulate", "coin", "--games", "1e9", "--seed", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=as_a_terminal_job)
        time.sleep(delay)
        p.send_signal(signum)
        _, err = p.communicate(timeout=120)
        if p.returncode != 128 + signum or "Traceback" in err:
            bad.append((delay, p.returncode, err[-300:]))
    assert bad == []
