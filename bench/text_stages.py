"""What the two text stages cost per post: visible text and action parsing.

    .venv/bin/python bench/text_stages.py [--posts 4000] [--rounds 5] [--seed 1639]
        [--baseline REF] [--workdir DIR] [--profile STAGE]

Generates bench/pipeline.py's archive (the same planner and mail writer, the
same seed) and, for each round, runs one child process per code tree (this
checkout, then the git revision ``--baseline`` exported to a scratch folder
and put first on ``PYTHONPATH``), in turn, so that machine noise hits both.
Each child runs the pipeline's stages up to ``decode_body`` over every post
once, untimed, then times, over every post that reaches them:

* ``visible``: the ``extract_visible_text`` stage (quotes, signatures and
  comments dropped);
* ``parse``: the ``parse_actions`` stage (sentences, prefilter, grammar).

A round's figure for a stage is the least of ``PASSES`` passes over the
posts in its child (the pass least disturbed by other processes).

Prints milliseconds per post (over all the archive's posts), the median of
the rounds, for each code tree, and the ratios of the medians (baseline /
this checkout: above 1 is faster).  Each child also prints a digest of every
post's visible text and parsed actions, and the parent says whether the two
code trees' digests agree: the stages must give the same results.

``--profile visible`` (or ``parse``) runs the stage once over the archive
under cProfile in this process and prints the top functions instead.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from archive_game import plan_archive
from archive_mail import write_archive, write_config
from pipeline import export_revision, read_back
from runs import ROOT, measured_in_child, print_per_post_medians, print_speed_ups, workspace

MEASURES = ("visible", "parse")
PASSES = 3
STAGE_NAMES = {"visible": "extract_visible_text", "parse": "parse_actions"}


# --- in a child: one round on one code tree ------------------------------------------


Stages = dict[str, Callable[..., None]]


def decoded_contexts(archive: Path, config: Path) -> tuple[list[Any], Stages]:
    """Each post's context after the stages before the text stages, and those two stages."""
    from bot.app import build_services
    from bot.config import load_settings
    from bot.parser.grammar import post_grammar
    from bot.pipeline import STAGES, PostContext

    settings = build_services(load_settings(config, environ={})).pipeline_settings
    post_grammar(settings.areas, settings.grammar_folder)
    by_name = {stage.__name__: stage for stage in STAGES}
    first_text_stage = list(by_name).index(STAGE_NAMES["visible"])
    before = list(by_name.values())[:first_text_stage]
    contexts = []
    for raw in read_back(archive):
        context = PostContext(raw=raw, settings=settings)
        for stage in before:
            stage(context)
            if context.stop_reason is not None:
                break
        if context.stop_reason is None:
            contexts.append(context)
    stages = {measure: by_name[STAGE_NAMES[measure]] for measure in MEASURES}
    return contexts, stages


def run_stage(stage: Callable[..., None], contexts: Sequence[Any]) -> float:
    started = time.perf_counter()
    for context in contexts:
        stage(context)
    return time.perf_counter() - started


def digest(contexts: Sequence[Any]) -> str:
    """One hash of every post's visible text and parse result, in order."""
    hashed = hashlib.sha256()
    for context in contexts:
        hashed.update(context.visible_text.encode())
        hashed.update(repr(context.parsed).encode())
    return hashed.hexdigest()


def measure(archive: Path, config: Path) -> dict[str, Any]:
    contexts, stages = decoded_contexts(archive, config)
    # A first pass warms caches the live process would have warm too (the
    # prefilter's patterns, the regular expression cache).
    for stage in stages.values():
        run_stage(stage, contexts[:200])
    # The least of a few passes: the pass least disturbed by other processes.
    seconds = {
        name: min(run_stage(stage, contexts) for _ in range(PASSES))
        for name, stage in stages.items()
    }
    return {**seconds, "digest": digest(contexts), "posts_timed": len(contexts)}


def profile(archive: Path, config: Path, measure_name: str) -> None:
    contexts, stages = decoded_contexts(archive, config)
    for stage in stages.values():
        run_stage(stage, contexts)  # the parse stage reads the visible text
    profiler = cProfile.Profile()
    profiler.runcall(run_stage, stages[measure_name], contexts)
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


# --- in the parent: the archive and the rounds ------------------------------------------


def run_child(code: Path, archive: Path, config: Path) -> dict[str, Any]:
    return measured_in_child(__file__, code, ["--measure", str(archive), "--config", str(config)])


def print_results(rounds: dict[str, list[dict[str, Any]]], posts: int) -> None:
    medians = print_per_post_medians(rounds, MEASURES, posts, digits=4)
    if "baseline" in medians:
        print_speed_ups(rounds, medians, MEASURES, digits=2)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--posts", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1639)
    parser.add_argument("--baseline", default="", help="git revision also timed, e.g. main")
    parser.add_argument("--workdir", type=Path, help="keep the archive here")
    parser.add_argument("--profile", choices=MEASURES, help="profile one stage instead")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # in a child
    parser.add_argument("--config", type=Path, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if arguments.measure is not None:
        print(json.dumps(measure(arguments.measure, arguments.config)))
        return 0
    with workspace(arguments.workdir, prefix="nomicbot-text-stages-") as folder:
        archive = folder / "game.mbox"
        if not archive.exists():
            write_archive(archive, plan_archive(arguments.posts, arguments.seed), arguments.seed)
        data = folder / "data"
        data.mkdir(exist_ok=True)
        config = write_config(data / "nomicbot.toml", data)
        if arguments.profile:
            profile(archive, config, arguments.profile)
            return 0
        print(f"archive: {arguments.posts} posts")
        trees = {"checkout": ROOT}
        if arguments.baseline:
            trees["baseline"] = export_revision(arguments.baseline, folder / "baseline-code")
            print(f"baseline: {arguments.baseline}")
        rounds: dict[str, list[dict[str, Any]]] = {tree: [] for tree in trees}
        for number in range(1, arguments.rounds + 1):
            for tree, code in trees.items():
                rounds[tree].append(run_child(code, archive, config))
            print(
                f"  round {number}: "
                + ", ".join(
                    f"{t} visible {r[-1]['visible']:.2f} s parse {r[-1]['parse']:.2f} s"
                    for t, r in rounds.items()
                )
            )
        print_results(rounds, arguments.posts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
