"""Measure mail decoding against the shared email corpora.

    python bench/email_corpus.py [CORPORA_DIR] [--rounds N]

CORPORA_DIR defaults to $NOMICBOT_CORPORA, else ../shared/corpora next to the
repository.  Prints:

* the pass rate of email/expectations.json per suite and overall, judged by
  the same mapping the tests use (tests/mail/expectations.py); entries we
  answer differently on purpose count as failures and are listed;
* how many corpus message files go through decode_message + visible_text
  without an exception (or a "decoder failure" defect);
* decode throughput: the median over the rounds of messages per second (and
  MB per second) for decode_message + visible_text, over every file and over
  the files under 100 kB (typical posts; the few multi-megabyte torture tests
  dominate the first figure).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType

from bot.mail.decode import decode_message
from bot.mail.visible import visible_text

REPO_ROOT = Path(__file__).resolve().parent.parent
# A list post is rarely larger; the corpus holds a few multi-megabyte tortures.
SMALL_MESSAGE_BYTES = 100_000


def default_corpora() -> Path:
    return Path(os.environ.get("NOMICBOT_CORPORA", REPO_ROOT.parent / "shared" / "corpora"))


def load_expectation_checks() -> ModuleType:
    path = REPO_ROOT / "tests" / "mail" / "expectations.py"
    spec = importlib.util.spec_from_file_location("mail_expectations", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def report_expectations(checks: ModuleType, corpora: Path) -> None:
    passed: Counter[str] = Counter()
    total: Counter[str] = Counter()
    failures: list[str] = []
    for entry in checks.load_expectations(corpora):
        total[entry["suite"]] += 1
        problems = checks.check(entry, corpora)
        if problems:
            failures.append(f"  {checks.case_id(entry)}: {problems[0]}")
        else:
            passed[entry["suite"]] += 1
    print("expectations.json pass rate")
    for suite in sorted(total):
        rate = percent(passed[suite], total[suite])
        print(f"  {suite:28} {passed[suite]:3}/{total[suite]:<3} {rate}")
    overall, count = sum(passed.values()), sum(total.values())
    print(f"  {'overall':28} {overall:3}/{count:<3} {percent(overall, count)}")
    if failures:
        print("not passing (see KNOWN_DIFFERENCES in tests/mail/expectations.py):")
        print("\n".join(failures))


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "  n/a"


def decode_all(messages: list[bytes]) -> list[tuple[int, str]]:
    """Decode every message; return (index, problem) for each failure."""
    failures: list[tuple[int, str]] = []
    for index, raw in enumerate(messages):
        try:
            decoded = decode_message(raw)
            visible_text(decoded.body_text, sender=decoded.from_address or "")
        except Exception as error:  # the bench reports crashes instead of stopping
            failures.append((index, f"{type(error).__name__}: {error}"))
            continue
        failures.extend(
            (index, defect) for defect in decoded.defects if defect.startswith("decoder failure")
        )
    return failures


def report_corpus(files: list[Path], rounds: int) -> None:
    messages = [path.read_bytes() for path in files]
    failures = decode_all(messages)
    failed = {index for index, _ in failures}
    print(f"corpus files decoded without exception: {len(files) - len(failed)}/{len(files)}")
    for index, problem in failures:
        print(f"  {files[index]}: {problem}")
    report_throughput("all messages", messages, rounds)
    small = [raw for raw in messages if len(raw) < SMALL_MESSAGE_BYTES]
    report_throughput(f"messages under {SMALL_MESSAGE_BYTES // 1000} kB", small, rounds)


def report_throughput(label: str, messages: list[bytes], rounds: int) -> None:
    megabytes = sum(len(raw) for raw in messages) / 1e6
    durations = []
    for _ in range(rounds):
        started = time.perf_counter()
        decode_all(messages)
        durations.append(time.perf_counter() - started)
    median = statistics.median(durations)
    print(
        f"throughput, {label} (median of {rounds} rounds, decode_message + visible_text): "
        f"{len(messages) / median:.0f} msgs/s, {megabytes / median:.1f} MB/s "
        f"({len(messages)} messages, {megabytes:.1f} MB, {median:.3f} s per round)"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("corpora", nargs="?", type=Path, default=default_corpora())
    parser.add_argument("--rounds", type=int, default=5)
    arguments = parser.parse_args(argv)
    corpora: Path = arguments.corpora
    if not (corpora / "email").is_dir():
        print(f"no email corpora under {corpora}", file=sys.stderr)
        return 2
    checks = load_expectation_checks()
    report_expectations(checks, corpora)
    report_corpus(checks.corpus_message_files(corpora), arguments.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
