"""Run a fuzz target under atheris (libFuzzer), or every target for a bounded time.

    python fuzz/run.py TARGET [libFuzzer flags...]   # one target, until stopped or a flag says
    python fuzz/run.py TARGET FILE...                # just run these inputs (reproduce a crash)
    python fuzz/run.py --all SECONDS                 # each target in turn for SECONDS

New inputs the fuzzer finds go to ``build/fuzz/<target>/`` (not kept);
``fuzz/corpus/<target>/`` is read as seeds. A failing input is written as
``build/fuzz/<target>-crash-*``: see fuzz/README.md for keeping it.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
WORK = HERE.parent / "build" / "fuzz"
NAMES = ("frame", "body", "command")
MAX_LEN = {"frame": 4096, "body": 4096, "command": 1024}
INSTRUMENTED = ["partyhost", "framecheck", "commandcheck", "tables", "targets"]
"""Modules atheris instruments for coverage (msgpack is C: its branches are not seen)."""


def _vocabulary() -> tuple[str, ...]:
    """Protocol words plus every key and text value of the games' own commands."""
    from mutate import words
    from tables import prepared

    found: set[str] = set()
    for table in prepared():
        for base in table.bases:
            found.update(str(key) for key in base)
            found.update(value for value in base.values() if isinstance(value, str))
    return words(found)


def _dictionary(target: str, vocabulary: tuple[str, ...]) -> Path:
    """libFuzzer tokens: the packed words, so byte mutations stay plausible too."""
    import msgpack

    tokens = sorted(msgpack.packb(word) for word in vocabulary)
    path = WORK / f"{target}.dict"
    lines = ['"' + "".join(f"\\x{byte:02x}" for byte in token) + '"' for token in tokens]
    path.write_text("\n".join(lines) + "\n", encoding="ascii")
    return path


def fuzz(target: str, flags: list[str]) -> None:
    """Hand over to libFuzzer; it exits the process when done."""
    atheris: Any = importlib.import_module("atheris")
    with atheris.instrument_imports(include=INSTRUMENTED):
        from tables import prepared
        from targets import TARGETS

        # Inside the block: the games are imported on first use, and must be instrumented
        # too; building the states now also keeps it off the fuzzing clock.
        prepared()
    import random

    import mutate

    check = TARGETS[target]
    found, seeds = WORK / target, HERE / "corpus" / target
    found.mkdir(parents=True, exist_ok=True)
    vocabulary = _vocabulary()
    structural = {
        "frame": mutate.mutate_frames,
        "body": mutate.mutate_msgpack,
        "command": mutate.mutate_command,
    }[target]

    def mutator(data: bytes, max_size: int, seed: int) -> bytes:
        return structural(data, max_size, random.Random(seed), vocabulary, atheris.Mutate)

    defaults = [
        f"-dict={_dictionary(target, vocabulary)}",
        f"-max_len={MAX_LEN[target]}",
        f"-artifact_prefix={WORK}/{target}-",
        "-timeout=10",
        "-rss_limit_mb=2048",
        "-print_final_stats=1",
    ]
    argv = [sys.argv[0], *defaults, *flags]
    if not any(not flag.startswith("-") for flag in flags):
        argv += [str(found), str(seeds)]  # no inputs named: fuzz from the corpus
    atheris.Setup(argv, lambda data: check(bytes(data)), custom_mutator=mutator)
    atheris.Fuzz()


def run_all(seconds: int) -> int:
    """Each target in its own process for ``seconds``; the first failure stops the run."""
    for target in NAMES:
        print(f"--- fuzzing {target} for {seconds}s", flush=True)
        command = [sys.executable, __file__, target, f"-max_total_time={seconds}"]
        code = subprocess.call(command)
        if code != 0:
            print(f"--- {target} found a failing input (exit {code}); see {WORK}", flush=True)
            return code
    return 0


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(HERE))
    if len(argv) == 2 and argv[0] == "--all":
        return run_all(int(argv[1]))
    if not argv or argv[0] not in NAMES:
        print(__doc__)
        return 2
    fuzz(argv[0], argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
