"""Whole games on OpenSpiel's decisive games at the defaults: every game finishes, no move runs away, memory stays small.

    python benchmarks/bench_decisive.py [--quick] [--json] [--games 60] [--iterations 400] [--workers 2]
        [--specs connect_four,...] [--opponents default,mctsbot] [--seed S] [--cap-gb 3]

For each game (OpenSpiel's ``connect_four``, ``hex(board_size=5)``,
``breakthrough(rows=6,columns=6)``) and each opponent, ``--games`` whole
games, sides alternating, fnmcts at its defaults (``mcts_move`` with
``--iterations`` dives a move, a seed per game) against itself (``default``)
or against OpenSpiel's ``MCTSBot`` (``mctsbot``: UCT with c = sqrt 2, one
random rollout an evaluation, its solver on, ``--iterations`` simulations).
Each game runs in a process of its own under an address-space cap of
``--cap-gb`` (so a game that runs away fails alone, as a user's would), and
reports its moves, the longest move of each side (wall time, and fnmcts's
processor time: the machine may be shared) and the process's peak resident
memory (``ru_maxrss``). A game whose process fails (an exception,
a crash, the cap, ``--timeout`` seconds) is *unfinished*.

Targets (issue 32): 0 unfinished games, no move over 30 s, peak memory under
1 GB in every process. ``--quick`` plays two short games of tic_tac_toe, fnmcts against itself.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from harness import Bench, Measured  # noqa: E402

SPECS = ("connect_four", "hex(board_size=5)", "breakthrough(rows=6,columns=6)")
OPPONENTS = ("default", "mctsbot")
MOVE_LIMIT = 30.0
MEMORY_LIMIT_MB = 1024


def play(spec: str, opponent: str, iterations: int, fnmcts_side: int, seed: int) -> dict:
    """One whole game in this process: its result, moves, the longest move of each side, the peak memory."""
    import resource

    from fnmcts.mcts import mcts_move
    from fnmcts.openspiel import from_openspiel
    from fnmcts.protocol import CHANCE, sample_outcome

    game = from_openspiel(spec)
    rng = random.Random(seed)
    bot = None
    if opponent == "mctsbot":
        from bench_openspiel import _bot

        bot = _bot(game, iterations, seed)
    state, moves, longest, cpu = game.start(), 0, [0.0, 0.0], [0.0, 0.0]
    while (who := game.to_move(state)) is not None:
        if who is CHANCE:
            state = game.play(state, sample_outcome(game, state, rng))
            continue
        started, processor = time.perf_counter(), time.process_time()
        if bot is not None and who != fnmcts_side:
            move = bot(game.native_state(state))[0]
        else:
            move = mcts_move(game, state, iterations, rng).move
        side = 0 if who == fnmcts_side else 1
        longest[side] = max(longest[side], time.perf_counter() - started)
        cpu[side] = max(cpu[side], time.process_time() - processor)
        state = game.play(state, move)
        moves += 1
    return {"payoff": list(game.payoff(state)), "moves": moves, "fnmcts_side": fnmcts_side,
            "longest_fnmcts": longest[0], "longest_other": longest[1], "longest_fnmcts_cpu": cpu[0],
            "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def in_child(script, payload, cap_gb: float, timeout: float) -> dict:
    """``script --one JSON(payload)`` in a child process under an address-space cap of ``cap_gb``: its last line's JSON.

    The child runs at a lower priority; ``{"unfinished": why, "seconds": s}``
    when it fails (an exception, a crash, the cap, ``timeout`` seconds): a
    game that runs away fails alone, as a user's would.
    """
    command = [sys.executable, str(script), "--one", json.dumps(payload)]

    def cap():
        import resource

        limit = int(cap_gb * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        os.nice(5)

    started = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, preexec_fn=cap)
    except subprocess.TimeoutExpired:
        return {"unfinished": f"over {timeout} s", "seconds": timeout}
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["?"])[-1][:200]
        return {"unfinished": f"exit {done.returncode}: {tail}", "seconds": seconds}
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "seconds": seconds}


def _one(spec, opponent, iterations, side, seed, cap_gb, timeout) -> dict:
    """``play`` in a child process under the memory cap; ``{"unfinished": why}`` when it fails."""
    return in_child(Path(__file__).resolve(), [spec, opponent, iterations, side, seed], cap_gb, timeout)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--one"]:  # a child: one game
        print(json.dumps(play(*json.loads(argv[1]))))
        return 0

    def options(parser):
        parser.add_argument("--games", type=int, default=None, help="games per game and opponent (default 60)")
        parser.add_argument("--iterations", type=int, default=400, help="dives (simulations) a move (default 400)")
        parser.add_argument("--workers", type=int, default=2, help="games at once, each in its own process (default 2)")
        parser.add_argument("--specs", default=None, help=f"OpenSpiel games (default {','.join(SPECS)}; ';' between)")
        parser.add_argument("--opponents", default=",".join(OPPONENTS), help="default, mctsbot or both (default both)")
        parser.add_argument("--seed", type=int, default=1, help="the seed of the games (default 1)")
        parser.add_argument("--cap-gb", type=float, default=3.0, help="each game's address-space cap in GB (default 3)")
        parser.add_argument("--timeout", type=float, default=1800.0, help="seconds a game may take (default 1,800)")

    bench = Bench("bench_decisive", __doc__, argv, options=options)
    args = bench.args
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        bench.note("OpenSpiel is not installed (pip install fnmcts[openspiel]): nothing to play")
        return bench.finish()
    specs = args.specs.split(";") if args.specs else bench.size(list(SPECS), ["tic_tac_toe"])
    games = args.games or bench.size(60, 2)
    iterations = args.iterations if not bench.quick else min(args.iterations, 50)
    opponents = args.opponents.split(",") if not bench.quick else ["default"]
    bench.note(f"{games} games a game and opponent, {iterations} dives a move, {args.workers} at once, "
               f"each process capped at {args.cap_gb} GB, seed {args.seed}")
    met = True
    for spec in specs:
        for opponent in opponents:
            jobs = [(spec, opponent, iterations, i % 2, args.seed * 1_000_003 + 7_919 * i) for i in range(games)]
            holder = {}

            def run(jobs=jobs, holder=holder):
                started = time.perf_counter()
                with ThreadPoolExecutor(args.workers) as pool:
                    holder["found"] = list(pool.map(lambda job: _one(*job, args.cap_gb, args.timeout), jobs))
                return Measured(time.perf_counter() - started, len(jobs))

            bench.compare(f"{spec} against {opponent}", {f"fnmcts vs {opponent}": run}, unit="games", rounds=1,
                          warmup=0)
            found = holder["found"]
            done = [g for g in found if "unfinished" not in g]
            unfinished = [g["unfinished"] for g in found if "unfinished" in g]
            longest = max((g["longest_fnmcts"] for g in done), default=0.0)
            longest_other = max((g["longest_other"] for g in done), default=0.0)
            longest_cpu = max((g["longest_fnmcts_cpu"] for g in done), default=0.0)
            peak = max((g["peak_mb"] for g in done), default=0.0)
            score = [(g["payoff"][g["fnmcts_side"]] + 1) / 2 for g in done]
            label = f"{spec} vs {opponent}"
            bench.figure(f"{label}: games finished", len(done), f"of {len(found)}")
            if unfinished:
                bench.figure(f"{label}: why unfinished", "; ".join(sorted(set(unfinished)))[:500])
            bench.figure(f"{label}: fnmcts's longest move", round(longest, 3), "s",
                         note=f"its processor time {longest_cpu:.3f} s"
                              + (f"; the opponent's longest {longest_other:.3f} s" if opponent != "default" else ""))
            bench.figure(f"{label}: peak resident memory of a game's process", round(peak, 1), "MB")
            bench.figure(f"{label}: moves a game", round(sum(g["moves"] for g in done) / max(1, len(done)), 1))
            if opponent != "default" and score:
                bench.figure(f"{label}: fnmcts's score (win 1, draw 1/2)", round(sum(score) / len(score), 3),
                             note=f"+{sum(s == 1 for s in score)} ={sum(s == 0.5 for s in score)} "
                                  f"-{sum(s == 0 for s in score)}")
            met &= bench.target(f"{label}: every game finishes", not unfinished,
                                f"{len(unfinished)} unfinished of {len(found)}")
            met &= bench.target(f"{label}: no move over {MOVE_LIMIT:.0f} s", longest <= MOVE_LIMIT,
                                f"longest {longest:.2f} s")
            met &= bench.target(f"{label}: peak memory under {MEMORY_LIMIT_MB} MB", peak < MEMORY_LIMIT_MB,
                                f"{peak:.0f} MB")
    bench.figure("all targets met", met)
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
