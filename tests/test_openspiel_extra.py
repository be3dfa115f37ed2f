"""The OpenSpiel extra stays optional: fnmcts never imports pyspiel, and without it the error names the extra.

These tests run whether or not OpenSpiel is installed (each in a fresh interpreter).
"""

import subprocess
import sys


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_importing_fnmcts_and_its_command_line_never_imports_pyspiel():
    done = _run(
        "import sys, fnmcts, fnmcts.openspiel, fnmcts.cli\n"
        "fnmcts.cli.build()\n"
        "print('pyspiel' in sys.modules)"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_without_openspiel_making_a_game_is_an_import_error_that_names_the_extra():
    done = _run(
        "import sys\n"
        "sys.modules['pyspiel'] = None  # as if OpenSpiel were not installed\n"
        "from fnmcts import from_openspiel\n"
        "try:\n"
        "    from_openspiel('tic_tac_toe')\n"
        "except ImportError as error:\n"
        "    print(error)\n"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "OpenSpiel's games need the open_spiel package, the openspiel extra: pip install 'fnmcts[openspiel]'"
    )
