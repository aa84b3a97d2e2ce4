"""What preparing one post costs, the preparing process's share of a replay.

    .venv/bin/python bench/prepare_cost.py [--posts 4000] [--rounds 5] [--seed 1639]
        [--baseline REF] [--workdir DIR]

Generates bench/pipeline.py's archive (the same planner and mail writer,
the same seed) and, for each round, runs one child process per code tree
(this checkout, then the git revision ``--baseline`` exported to a scratch
folder and put first on ``PYTHONPATH``), in turn, so that machine noise hits
both.  Each child reads the posts as the replay does, warms up (the post
grammar, a first pass over some posts), then times over every post:

* ``_prepare``: ``bot.engine.prepare._prepare``, all the pure stages, what
  the preparing process of ``nomicbot replay`` does per post;
* ``decode``: ``decode_headers`` then ``with_body``, the decoding alone;
* ``headers`` and ``body``: its two stages apart, ``decode_headers`` (the
  pipeline's ``decode``) over every post, then ``with_body`` (``decode_body``)
  over every post given its headers;
* ``bare``: ``email.message_from_bytes(policy=default)`` + ``get_body`` +
  ``get_content``, the bare decode that bench/pipeline.py compares against.

Prints milliseconds per post, the median of the rounds, for each code tree,
and the ratios of the medians (baseline / this checkout: above 1 is faster).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from archive_game import plan_archive
from archive_mail import write_archive, write_config
from pipeline import export_revision, parse_bare, read_back, timed
from runs import ROOT, measured_in_child, print_per_post_medians, print_speed_ups, workspace

WARM_UP_POSTS = 200
MEASURES = ("_prepare", "decode", "headers", "body", "bare")
# The measures compared between the two code trees.
COMPARED = ("_prepare", "decode", "headers", "body")


# --- in a child: one round on one code tree ------------------------------------------


def measure(archive: Path, config: Path) -> dict[str, float]:
    """Seconds for each measure over every post of ``archive``, with the ``bot`` on the path."""
    from bot.app import build_services
    from bot.config import load_settings
    from bot.engine.prepare import _prepare
    from bot.mail.decode import decode_headers, with_body
    from bot.parser.grammar import post_grammar

    raws = read_back(archive)
    settings = build_services(load_settings(config, environ={})).pipeline_settings
    post_grammar(settings.areas)

    def prepare_all(posts: Sequence[bytes]) -> None:
        for raw in posts:
            _prepare(raw, settings)

    def decode_all(posts: Sequence[bytes]) -> None:
        for raw in posts:
            with_body(raw, decode_headers(raw))

    def headers_all(posts: Sequence[bytes]) -> None:
        for raw in posts:
            decode_headers(raw)

    actions: dict[str, Callable[[Sequence[bytes]], object]] = {
        "_prepare": prepare_all,
        "decode": decode_all,
        "headers": headers_all,
        "bare": parse_bare,
    }
    for action in actions.values():
        action(raws[:WARM_UP_POSTS])
    results = {name: timed(functools.partial(action, raws)) for name, action in actions.items()}
    firsts = [decode_headers(raw) for raw in raws]

    def body_all() -> None:
        for raw, first in zip(raws, firsts, strict=True):
            with_body(raw, first)

    results["body"] = timed(body_all)
    return results


# --- in the parent: the archive and the rounds ------------------------------------------


def run_child(code: Path, archive: Path, config: Path) -> dict[str, float]:
    return measured_in_child(__file__, code, ["--measure", str(archive), "--config", str(config)])


def print_results(rounds: dict[str, list[dict[str, float]]], posts: int) -> None:
    medians = print_per_post_medians(rounds, MEASURES, posts, digits=3)
    for tree, found in medians.items():
        print(f"{tree:>9}: _prepare / bare decode = {found['_prepare'] / found['bare']:.3f}")
    if "baseline" in medians:
        print_speed_ups(rounds, medians, COMPARED, digits=3)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--posts", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1639)
    parser.add_argument("--baseline", default="", help="git revision also timed, e.g. main")
    parser.add_argument("--workdir", type=Path, help="keep the archive here")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)  # in a child
    parser.add_argument("--config", type=Path, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    if arguments.measure is not None:
        print(json.dumps(measure(arguments.measure, arguments.config)))
        return 0
    with workspace(arguments.workdir, prefix="nomicbot-prepare-") as folder:
        archive = folder / "game.mbox"
        shapes = write_archive(
            archive, plan_archive(arguments.posts, arguments.seed), arguments.seed
        )
        data = folder / "data"
        data.mkdir(exist_ok=True)
        config = write_config(data / "nomicbot.toml", data)
        print(f"archive: {arguments.posts} posts, MIME shapes {dict(shapes.most_common())}")
        trees = {"checkout": ROOT}
        if arguments.baseline:
            trees["baseline"] = export_revision(arguments.baseline, folder / "baseline-code")
            print(f"baseline: {arguments.baseline}")
        rounds: dict[str, list[dict[str, float]]] = {tree: [] for tree in trees}
        for number in range(1, arguments.rounds + 1):
            for tree, code in trees.items():
                rounds[tree].append(run_child(code, archive, config))
            print(
                f"  round {number}: "
                + ", ".join(f"{t} {r[-1]['_prepare']:.2f} s" for t, r in rounds.items())
            )
        print_results(rounds, arguments.posts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
