"""Cleaning player-supplied text (names, chat) before anyone else sees it.

Two names count as the same when they look the same (case, look-alike
letters, invisible characters), so they cannot sit in one room.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from importlib import resources

from partyhost.engine.playertext import clean_text, looks_blank, strip_invisible

CONFUSABLES_FILE = "confusables.tsv"


def clean_name(raw: str, max_length: int, fallback: str = "Player") -> str:
    """A display name as typed but safe and visible; ``fallback`` when nothing would show."""
    name = clean_text(strip_invisible(raw), max_length)
    return fallback if looks_blank(name) else name


@functools.cache
def _confusables() -> dict[int, str]:
    """Unicode's confusables table (UTS #39): a character to the prototype it looks like."""
    table: dict[int, str] = {}
    text = resources.files("partyhost.net").joinpath(CONFUSABLES_FILE).read_text("utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        source, target = line.split("\t")
        table[int(source, 16)] = "".join(chr(int(point, 16)) for point in target.split())
    return table


def _skeleton(text: str) -> str:
    """UTS #39's skeleton: decomposed, invisible characters dropped, look-alikes mapped."""
    decomposed = unicodedata.normalize("NFD", strip_invisible(text))
    return unicodedata.normalize("NFD", decomposed.translate(_confusables()))


def name_key(name: str) -> str:
    """The form two names are compared in: equal keys mean the names look alike. ``Ann``,
    ``ANN``, ``Ann`` with a full-width or a Cyrillic A and ``Ann`` with invisible characters
    all share one key. Case is folded between two skeleton passes, so letters that look alike
    in either case collide too."""
    compatible = unicodedata.normalize("NFKC", strip_invisible(name))
    return _skeleton(_skeleton(compatible).casefold())


def written_name(raw: str, max_length: int) -> str:
    """A name as its writer typed it, without controls but with every invisible character:
    taking a seat back by name asks for it exactly as written (``A\u200bnn`` is not ``Ann``)."""
    return clean_text(raw, max_length)


def written_alike(typed: str, name: str) -> bool:
    """Whether ``typed`` is ``name`` as written, up to Unicode normal form (NFC) and case;
    stricter than :func:`name_key`: ``ann`` matches ``Ann``, but a Cyrillic or full-width
    letter or an invisible character inside does not."""
    return _written_key(typed) == _written_key(name)


def _written_key(text: str) -> str:
    return unicodedata.normalize("NFC", unicodedata.normalize("NFC", text).casefold())


def unique_name(name: str, taken: Iterable[str], max_length: int) -> str:
    """``name``, or ``name 2``, ``name 3``... so no two names in ``taken`` collide."""
    keys = {name_key(other) for other in taken}
    if name_key(name) not in keys:
        return name
    number = 2
    while True:
        suffix = f" {number}"
        candidate = name[: max(1, max_length - len(suffix))].rstrip() + suffix
        if name_key(candidate) not in keys:
            return candidate
        number += 1
