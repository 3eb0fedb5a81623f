"""The regression corpus: inputs kept on purpose, each with the outcome it must keep.

``corpus/<target>/`` holds the inputs (also the fuzzers' seeds) and
``corpus/<target>.json`` maps each file name to its expected outcome and a
note saying why it is there. ``tests/test_fuzz_corpus.py`` runs them all.

    python fuzz/corpus.py add TARGET FILE [--name NAME] [--note TEXT]
    python fuzz/corpus.py check
    python fuzz/corpus.py show TARGET NAME
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from targets import TARGETS

CORPUS = Path(__file__).resolve().parent / "corpus"


def index_path(target: str) -> Path:
    return CORPUS / f"{target}.json"


def load_index(target: str) -> dict[str, dict[str, Any]]:
    path = index_path(target)
    if not path.exists():
        return {}
    index: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return index


def save_index(target: str, index: dict[str, dict[str, Any]]) -> None:
    text = json.dumps(dict(sorted(index.items())), indent=1, ensure_ascii=True)
    index_path(target).write_text(text + "\n", encoding="utf-8")


def outcome(target: str, data: bytes) -> Any:
    """The target's outcome in the form the index stores (JSON: lists, not tuples)."""
    result: Any = TARGETS[target](data)
    return json.loads(json.dumps(result))


def add(target: str, data: bytes, name: str, note: str, expect: Any = None) -> Any:
    """Keep ``data`` as ``name`` with its current outcome (checked against ``expect`` if given).

    An input that still breaks a promise raises here: fix the product first.
    """
    got = outcome(target, data)
    if expect is not None and got != expect:
        raise AssertionError(f"{target}/{name}: expected {expect!r}, got {got!r}")
    folder = CORPUS / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_bytes(data)
    index = load_index(target)
    index[name] = {"expect": got, "note": note}
    save_index(target, index)
    return got


def entries() -> list[tuple[str, str, Any]]:
    """Every kept input as (target, file name, expected outcome)."""
    found = []
    for target in TARGETS:
        for name, entry in load_index(target).items():
            found.append((target, name, entry["expect"]))
    return found


def _main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="fuzz/corpus.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    adding = sub.add_parser("add", help="keep an input (e.g. a fuzzer's crash-* file, once fixed)")
    adding.add_argument("target", choices=sorted(TARGETS))
    adding.add_argument("file", type=Path)
    adding.add_argument("--name", help="file name in the corpus (default: the input's)")
    adding.add_argument("--note", default="found by the fuzzer", help="why it is kept")
    sub.add_parser("check", help="run every kept input and compare outcomes")
    showing = sub.add_parser("show", help="print a kept input's outcome")
    showing.add_argument("target", choices=sorted(TARGETS))
    showing.add_argument("name")
    args = parser.parse_args(argv)
    if args.action == "add":
        got = add(args.target, args.file.read_bytes(), args.name or args.file.name, args.note)
        print(f"kept {args.target}/{args.name or args.file.name}: {got!r}")
        return 0
    if args.action == "show":
        data = (CORPUS / args.target / args.name).read_bytes()
        print(f"{len(data)} bytes: {data[:120]!r}")
        if args.target == "command":
            from commandcheck import describe

            print(describe(data))
        print("outcome:", outcome(args.target, data))
        return 0
    bad = 0
    for target, name, expect in entries():
        got = outcome(target, (CORPUS / target / name).read_bytes())
        if got != expect:
            bad += 1
            print(f"{target}/{name}: expected {expect!r}, got {got!r}")
    print(f"{len(entries()) - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
