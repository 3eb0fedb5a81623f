"""A host under tracemalloc: ``python bench/traced_host.py DIR [host flags...]``.

Runs ``python -m partyhost.net`` with the given flags, with :mod:`tracemalloc` on,
and writes into ``DIR/<pid>/`` every ``TRACE_EVERY`` seconds (default 60) and on
SIGUSR1: ``snapshot-<seconds>.pickle`` (a :class:`tracemalloc.Snapshot`) and
``objects-<seconds>.json`` (live objects counted by type, from :func:`gc.get_objects`).
The package itself measures nothing; ``bench/chaos.py --trace-memory DIR`` starts
its hosts through this, and ``python bench/traced_host.py --compare DIR/<pid>``
prints what grew between the first snapshot after ``--after`` seconds and the last.
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import os
import signal
import sys
import threading
import time
import tracemalloc
from pathlib import Path

FRAMES = 12


def dump(folder: Path, started: float) -> None:
    """One snapshot and one count of live objects, named by the host's age in seconds."""
    age = int(time.monotonic() - started)
    snapshot = tracemalloc.take_snapshot()
    snapshot = snapshot.filter_traces((tracemalloc.Filter(False, tracemalloc.__file__),))
    snapshot.dump(str(folder / f"snapshot-{age:06d}.pickle"))
    counts = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
    tasks = collections.Counter(
        getattr(o.get_coro(), "__qualname__", "?")
        for o in gc.get_objects()
        if type(o).__name__ == "Task" and hasattr(o, "get_coro")
    )
    (folder / f"objects-{age:06d}.json").write_text(
        json.dumps({"types": dict(counts.most_common(400)), "tasks": dict(tasks)}, indent=0),
        encoding="utf-8",
    )


def trace(argv: list[str]) -> int:
    folder = Path(argv[0]) / str(os.getpid())
    folder.mkdir(parents=True, exist_ok=True)
    every = float(os.environ.get("TRACE_EVERY", "60"))
    tracemalloc.start(FRAMES)
    started = time.monotonic()
    wanted = threading.Event()
    signal.signal(signal.SIGUSR1, lambda *_: wanted.set())

    def dumper() -> None:
        while True:
            wanted.wait(every)
            wanted.clear()
            dump(folder, started)

    threading.Thread(target=dumper, daemon=True).start()
    from partyhost.net.__main__ import main

    return main(argv[1:])


def compare(folder: Path, after: float, top: int) -> None:
    snapshots = sorted(folder.glob("snapshot-*.pickle"))
    first = next(p for p in snapshots if int(p.stem.split("-")[1]) >= after)
    last = snapshots[-1]
    print(f"{first.name} -> {last.name}")
    old, new = tracemalloc.Snapshot.load(str(first)), tracemalloc.Snapshot.load(str(last))
    print(
        f"traced: {sum(s.size for s in old.statistics('filename')) / 2**20:.2f} MiB ->"
        f" {sum(s.size for s in new.statistics('filename')) / 2**20:.2f} MiB"
    )
    for stat in new.compare_to(old, "traceback")[:top]:
        print(f"\n{stat.size_diff / 1024:+.1f} KiB {stat.count_diff:+d} blocks")
        for line in stat.traceback.format(limit=FRAMES)[-16:]:
            print("   ", line)
    a, b = (_objects_of(snapshot) for snapshot in (first, last))
    for key in ("types", "tasks"):
        grown = sorted(((b[key].get(k, 0) - a[key].get(k, 0), k) for k in b[key]), reverse=True)
        print(f"\n{key} that grew:", ", ".join(f"{k} {d:+d}" for d, k in grown[:30] if d > 0))


def _objects_of(snapshot: Path) -> dict[str, dict[str, int]]:
    """The live objects counted when ``snapshot`` was taken."""
    name = snapshot.name.replace("snapshot", "objects").replace(".pickle", ".json")
    counts: dict[str, dict[str, int]] = json.loads(
        snapshot.with_name(name).read_text(encoding="utf-8")
    )
    return counts


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--compare":
        parser = argparse.ArgumentParser()
        parser.add_argument("--compare", type=Path)
        parser.add_argument("--after", type=float, default=0.0)
        parser.add_argument("--top", type=int, default=25)
        args = parser.parse_args()
        compare(args.compare, args.after, args.top)
    else:
        sys.exit(trace(sys.argv[1:]))
