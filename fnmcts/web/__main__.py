"""``python -m fnmcts.web``: fetch Pyodide, build the live page into a folder, serve it locally."""

from __future__ import annotations

import argparse
import sys
import time

__all__: list = []


def _port(text: str) -> int:
    """A TCP port: a whole number from 0 to 65535 (0: a free one).

    >>> _port("8080")
    8080
    >>> _port("x")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: takes a port, a whole number from 0 to 65535, got 'x'
    """
    value = int(text) if text.isascii() and text.isdigit() else -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"takes a port, a whole number from 0 to 65535, got {text!r}")
    return value


def main(argv=None) -> int:
    """Run the command ``argv`` (default: the command line's); return the exit status."""
    from . import PYODIDE_VERSION, pyodide_cache
    from ._build import build, fetch, serve

    parser = argparse.ArgumentParser(prog="python -m fnmcts.web", description=__doc__.split(":")[1].strip())
    verbs = parser.add_subparsers(dest="verb", required=True)
    get = verbs.add_parser("fetch", help=f"fetch Pyodide {PYODIDE_VERSION} from the npm registry (npm pack), once")
    get.add_argument("--to", default=None, help=f"the folder (default: $FNMCTS_PYODIDE, else {pyodide_cache()})")
    make = verbs.add_parser("build", help="build the page into DIR: page, Pyodide's files, the wheels")
    make.add_argument("dir")
    make.add_argument("--pyodide", default=None, help="a folder holding Pyodide's files (default: fetch's)")
    run = verbs.add_parser("serve", help="serve a built DIR on http://127.0.0.1:PORT/")
    run.add_argument("dir")
    run.add_argument("--port", type=_port, default=8000, help="the port, 0 to 65535 (0: a free one; default 8000)")
    args = parser.parse_args(argv)
    try:
        if args.verb == "fetch":
            print(fetch(args.to))
        elif args.verb == "build":
            began = time.perf_counter()
            folder = build(args.dir, args.pyodide)
            size = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())
            print(f"built {folder} ({size / 1e6:.1f} MB) in {time.perf_counter() - began:.1f} s; "
                  f"serve it with: python -m fnmcts.web serve {folder}")
        else:
            serve(args.dir, args.port)
    except (RuntimeError, OSError) as error:
        print(f"python -m fnmcts.web {args.verb}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
