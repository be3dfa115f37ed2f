"""The search's defaults judged on games nobody tuned for: the public generator's random games against exact values.

    python benchmarks/bench_generated_defaults.py [--quick] [--json] [--seeds 1-4] [--games 12] [--players 1|2]
        [--chance yes|no] [--budgets 100,1000] [--decisions 12] [--max-states 3000] [--variants V,...]

Games are drawn from ``fnmcts.testing.strategies.random_games`` (tables and
seeded games: chance nodes, graded payoffs anywhere in the range, draws,
transpositions, states that repeat through chance), ``--games`` per
Hypothesis seed of ``--seeds`` (``hypothesis.seed``: the same games on every
run and machine for a seed), solved exactly (``fnmcts.exact.solve``; a game
of more than ``--max-states`` states is left out and counted). In each, the
decisions where the moves differ in exact value (where a move can be wrong),
``--decisions`` of them drawn; each searched once by ``mcts_move`` with each
variant's options and each budget of dives, and the move judged: the share of
exact-best moves with its 95% Wilson interval, and the mean regret (the best
move's value less the move's, on the payoff range scaled to [0, 1]) with its
95% interval.

Tuning and reporting use different seeds: the defaults of
``fnmcts.mcts.search_options`` were chosen on seeds 1-4 and are reported on
seeds 5-8 (docs/scoreboard.md). ``--quick`` draws two small games of one seed.
"""

from __future__ import annotations

import math
import random
import sys
import time
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from harness import Bench, Measured  # noqa: E402

from fnmcts.exact import solve  # noqa: E402
from fnmcts.limits import TooLarge  # noqa: E402
from fnmcts.mcts import mcts_move  # noqa: E402
from fnmcts.montecarlo import mean_interval, wilson_interval  # noqa: E402
from fnmcts.protocol import CHANCE, payoff_range  # noqa: E402
from fnmcts.rng import child_seed  # noqa: E402

VARIANTS = {
    "defaults": {},
    "expectimax c=0.2": {"c": 0.2, "backup": "expectimax"},
    "expectimax c=0.5": {"c": 0.5, "backup": "expectimax"},
    "expectimax c=0.7": {"c": 0.7, "backup": "expectimax"},
    "expectimax c=1": {"c": 1.0, "backup": "expectimax"},
    "expectimax c=sqrt2": {"c": math.sqrt(2), "backup": "expectimax"},
    "expectimax c=2": {"c": 2.0, "backup": "expectimax"},
    "expectimax c=4": {"c": 4.0, "backup": "expectimax"},
    "mean c=sqrt2": {"c": math.sqrt(2), "backup": "mean"},
    "mean c=0.7": {"c": 0.7, "backup": "mean"},
    "rave k=100": {"rave": 100},
    "grave k=100 ref=25": {"rave": 100, "rave_ref": 25},
}
"""The variants, by name (no commas): options of ``mcts_move``."""

TIE = 1e-9
"""Two exact values closer than this (on the rescaled scale) are a tie: the values of games whose states repeat are floats."""


def draw_games(seed: int, count: int, players, chance, max_states: int) -> list:
    """``count`` games of ``random_games`` drawn under Hypothesis seed ``seed`` (the same games for the same seed)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    from fnmcts.testing.strategies import random_games

    found = []
    strategy = random_games(players=players, chance=chance, max_nodes=24, max_states=max_states)

    @hypothesis_seed(seed)
    @settings(max_examples=count, phases=[Phase.generate], database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(game):
        found.append(game)

    collect()
    return found[:count]


class Judged:
    """A game solved: its decisions where a move can be wrong (``every``: all its decisions), each move's rescaled value there."""

    def __init__(self, game, max_states=None, every=False):
        self.game = game
        self.solution = solve(game, limit=max_states)
        low, high = payoff_range(game)
        self.low, self.span = Fraction(low), Fraction(high) - Fraction(low)
        self.decisions = []
        for state in self.solution:
            player = game.to_move(state)
            if player is None or player is CHANCE or (len(game.possible_moves(state)) < 2 and not every):
                continue
            values = self.move_values(state)
            if every or max(values.values()) - min(values.values()) > TIE:
                self.decisions.append(state)
        self.decisions.sort(key=repr)

    def regret(self, state, move) -> float:
        """The best move's value less ``move``'s at ``state``, on the payoff range scaled to [0, 1]."""
        values = self.move_values(state)
        return max(values.values()) - values[move]

    def move_values(self, state) -> dict:
        game, player = self.game, self.game.to_move(state)
        return {m: float((Fraction(self.solution[game.play(state, m)][player]) - self.low) / self.span)
                for m in game.possible_moves(state)}


def cell(regrets) -> dict:
    """Best share and mean regret, with their 95% intervals."""
    n = len(regrets)
    best = sum(r <= TIE for r in regrets)
    total, squares = sum(regrets), sum(r * r for r in regrets)
    low, high = wilson_interval(best, n) if n else (float("nan"), float("nan"))
    r_low, r_high = mean_interval(total, squares, n, 0.0, 1.0) if n else (float("nan"), float("nan"))
    return {"decisions": n, "best": best, "share": best / n if n else float("nan"), "share_interval": [low, high],
            "regret": total / n if n else float("nan"), "regret_interval": [r_low, r_high],
            "worst": max(regrets, default=0.0)}


def text(c: dict) -> str:
    low, high = c["share_interval"]
    r_low, r_high = c["regret_interval"]
    return (f"{100 * c['share']:.1f}% [{100 * low:.1f}, {100 * high:.1f}]; {c['regret']:.4f} "
            f"[{r_low:.4f}, {r_high:.4f}] (n={c['decisions']}, worst {c['worst']:.3f})")


def _range(text_: str) -> list:
    out = []
    for part in text_.split(","):
        a, _, b = part.partition("-")
        out += list(range(int(a), int(b or a) + 1))
    return out


def main(argv=None) -> int:
    def options(parser):
        parser.add_argument("--seeds", default=None, help="Hypothesis seeds of the games, e.g. 1-4 or 5,7 (default 1-4)")
        parser.add_argument("--games", type=int, default=None, help="games drawn per seed (default 12)")
        parser.add_argument("--players", default="1", help="1, 2 or 3: the players of the games (default 1); or 2,3")
        parser.add_argument("--chance", choices=("yes", "no", "any"), default="yes", help="chance nodes (default yes)")
        parser.add_argument("--budgets", default=None, help="dives a search, e.g. 100,1000 (default 100,1000)")
        parser.add_argument("--decisions", type=int, default=None, help="decisions drawn per game (default 12)")
        parser.add_argument("--max-states", type=int, default=3_000, help="the largest game solved (default 3,000)")
        parser.add_argument("--variants", default=None, help=f"variants, comma-separated (default all: {', '.join(VARIANTS)})")

    bench = Bench("bench_generated_defaults", __doc__, argv, options=options)
    args = bench.args
    seeds = _range(args.seeds) if args.seeds else bench.size(list(range(1, 5)), [1])
    count = args.games or bench.size(12, 2)
    players = tuple(int(p) for p in args.players.split(","))
    chance = {"yes": True, "no": False, "any": None}[args.chance]
    budgets = [int(b) for b in args.budgets.split(",")] if args.budgets else bench.size([100, 1_000], [16])
    per_game = args.decisions or bench.size(12, 3)
    names = args.variants.split(",") if args.variants else bench.size(list(VARIANTS), ["defaults", "expectimax c=1"])
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        raise SystemExit(f"unknown variants {unknown}: choose from {', '.join(VARIANTS)}")
    judged, skipped = [], 0
    for s in seeds:
        for game in draw_games(s, count, players, chance, args.max_states):
            try:
                one = Judged(game, args.max_states)
            except TooLarge:
                skipped += 1
                continue
            if one.decisions:
                picks = random.Random(s).sample(one.decisions, min(per_game, len(one.decisions)))
                judged.append((s, one, picks))
    decisions = sum(len(p) for _, _, p in judged)
    bench.say(f"\n{len(judged)} games with a decision that matters (seeds {args.seeds or seeds}, {count} a seed, "
              f"players {args.players}, chance {args.chance}; {skipped} over {args.max_states:,} states left out), "
              f"{decisions} decisions")
    bench.result["games"] = [repr(one.game)[:300] for _, one, _ in judged]
    table = {}
    for name in names:
        for budget in budgets:
            regrets, holder = [], {}

            def run(name=name, budget=budget, holder=holder):
                started, dives, out = time.perf_counter(), 0, []
                for k, (s, one, picks) in enumerate(judged):
                    for j, state in enumerate(picks):
                        found = mcts_move(one.game, state, budget, random.Random(child_seed(s, 1000 * k + j)),
                                          **VARIANTS[name])
                        dives += found.iterations
                        out.append(one.regret(state, found.move))
                holder["regrets"] = out
                return Measured(time.perf_counter() - started, dives)

            bench.compare(f"{name}, {budget:,} dives", {name: run}, unit="dives", rounds=1, warmup=0)
            regrets = holder["regrets"]
            table.setdefault(name, {})[str(budget)] = cell(regrets)
            bench.figure(f"{name} at {budget:,} dives", text(table[name][str(budget)]))
    bench.result["table"] = table
    bench.say("\n| variant | " + " | ".join(f"{b:,} dives" for b in budgets) + " |")
    bench.say("|---|" + "---|" * len(budgets))
    for name in names:
        bench.say(f"| {name} | " + " | ".join(text(table[name][str(b)]) for b in budgets) + " |")
    return bench.finish()


if __name__ == "__main__":
    sys.exit(main())
