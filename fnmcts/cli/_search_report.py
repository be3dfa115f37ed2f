"""The report of ``fnmcts search shut-the-box``: what the tree's policies are worth against the exact optimum.

The win report (the tutorial's Shut the Box) and the score report (a box scored
by the levers left up) share their heading, the run's fields and its lines.
"""

from __future__ import annotations

from ..exact import evaluate_policy, value
from ..games.shut_the_box import box_to_mask, box_values
from ..mcts import mean, win_rate
from ..views import backed_up_values, greedy_policy
from .shut_the_box import rules_text

__all__ = []


def _report(game, tree, settings, done, target, ran, seconds, args):
    """``(payload, text)`` of a finished (or stopped) search."""
    root = game.start()
    greedy = value(evaluate_policy(game, greedy_policy(tree), root), root)[0]
    backed = value(evaluate_policy(game, greedy_policy(tree, backed_up_values(game, tree)), root), root)[0]
    optimum = box_values(game)[box_to_mask(root)]  # solve(game, root)'s value, on box masks
    rate = win_rate(tree[root]) if root in tree else None
    if game.scoring != "win":
        return _report_scores(game, tree, settings, done, target, ran, seconds, args, greedy, backed, optimum)
    payload = {
        **_settings_payload(game, settings, done, target),
        "win_rate": rate,
        "greedy_value": float(greedy),
        "greedy_probability": f"{greedy.numerator}/{greedy.denominator}",
        "backed_up_value": float(backed),
        "optimum": float(optimum),
        "optimum_probability": f"{optimum.numerator}/{optimum.denominator}",
        "greedy_share_of_optimum": float(greedy / optimum) if optimum else None,
        **_run_payload(tree, root, ran, seconds, args),
    }
    share = f"{float(greedy / optimum):.1%}" if optimum else "n/a"
    backed_share = f"{float(backed / optimum):.1%}" if optimum else "n/a"
    lines = [
        _heading(game, settings, done),
        f"dives' win rate        {'n/a (no dives)' if rate is None else f'{rate:.4f}'}",
        f"greedy policy (exact)  {float(greedy):.6f}  ({share} of the optimum)",
        f"expectimax read-off    {float(backed):.6f}  ({backed_share} of the optimum)",
        f"optimum (exact)        {float(optimum):.6f}",
        *_proven_lines(payload["proven"], lambda v: f"{v:.6f}"),
    ]
    return payload, "\n".join(lines + _run_lines(tree, settings, done, target, ran, seconds, args, payload["proven"]))


def _heading(game, settings, done) -> str:
    """The report's first line: the rules, the dives and the search's settings."""
    return (f"Shut the Box, {rules_text(game)}: {done:,} dive{'' if done == 1 else 's'}, rule {settings['rule']}, "
            f"backup {settings['backup']}, solver {'on' if settings['solver'] else 'off'}, seed {settings['seed']}")


def _run_payload(tree, root, ran, seconds, args) -> dict:
    """The report's JSON fields about the run (win or score alike): size, time, files, proof."""
    return {
        "states": len(tree),
        "seconds": seconds,
        "dives_per_s": ran / seconds if seconds > 0 else None,
        "resumed_from": args.resume,
        "saved_to": args.save,
        "proven": _proven(tree, root),
    }


def _run_lines(tree, settings, done, target, ran, seconds, args, proven) -> list:
    """The report's lines about the run (win or score alike): tree size, speed, then ``_ending``."""
    speed = f"{ran / seconds:,.0f}" if seconds > 0 else "n/a"
    return [
        f"states in the tree     {len(tree)}" + (f" (at most {settings['max_nodes']:,})" if settings["max_nodes"] else ""),
        f"dives per second       {speed}",
        *_ending(done, target, args, proven is not None),
    ]


def _proven(tree, root):
    """The root's exact value the solver proved, as JSON (a list, one number a player), or None."""
    value = tree[root].get("proven") if root in tree else None
    return None if value is None else [int(x) if x == int(x) else float(x) for x in value]


def _proven_lines(proven, shown) -> list:
    """The report's line of a proven root: its exact value, the search stopped there (none when not proven)."""
    if proven is None:
        return []
    return [f"proven (exact)         {shown(proven[0])}  (the search proved the root and stopped)"]


def _settings_payload(game, settings, done, target) -> dict:
    """The JSON report's first keys: the dives and the search's settings and rules."""
    ucb_name = settings["rule"]
    return {
        "dives": done,
        "target_dives": target,
        "seed": settings["seed"],
        "rule": ucb_name,
        "z": settings["z"] if ucb_name == "tutorial" else None,
        "c": settings["c"] if ucb_name == "ucb1" else None,
        "rules": "simplified" if game.simplified else "full",
        "levers": game.levers,
        "dice": game.dice,
        "scoring": game.scoring,
        "backup": settings["backup"],
        "solver": settings["solver"],
        "max_nodes": settings["max_nodes"],
    }


def _ending(done, target, args, proven=False) -> list:
    """The report's last lines: dives left to do, where the search came from and went."""
    lines = []
    if done < target:
        lines.append(f"dives done             {done:,} of {target:,}" + (" (the root is proven)" if proven else ""))
    if args.resume is not None:
        lines.append(f"resumed from           {args.resume}")
    if args.save is not None:
        lines.append(f"saved to               {args.save} (continue with --resume {args.save})")
    return lines


def _report_scores(game, tree, settings, done, target, ran, seconds, args, greedy, backed, optimum):
    """``(payload, text)`` under a score: expected scores (lower is better), not win shares."""
    root = game.start()
    low, high = game.payoff_range()
    dives_score = -(low + mean(tree[root]) * (high - low)) if root in tree else None
    payload = {
        **_settings_payload(game, settings, done, target),
        "dives_score": dives_score,
        "greedy_score": float(-greedy),
        "greedy_expected_score": f"{-greedy.numerator}/{greedy.denominator}",
        "backed_up_score": float(-backed),
        "optimum_score": float(-optimum),
        "optimum_expected_score": f"{-optimum.numerator}/{optimum.denominator}",
        "greedy_excess": float(optimum - greedy),
        **_run_payload(tree, root, ran, seconds, args),
    }
    lines = [
        _heading(game, settings, done) + " (expected scores: lower is better)",
        f"dives' mean score      {'n/a (no dives)' if dives_score is None else f'{dives_score:.6g}'}",
        f"greedy policy (exact)  {float(-greedy):.6g}  ({float(optimum - greedy):+.6g} over the optimum)",
        f"expectimax read-off    {float(-backed):.6g}  ({float(optimum - backed):+.6g} over the optimum)",
        f"optimum (exact)        {float(-optimum):.6g}",
        *_proven_lines(payload["proven"], lambda v: f"{-v:.6g}"),
    ]
    return payload, "\n".join(lines + _run_lines(tree, settings, done, target, ran, seconds, args, payload["proven"]))
