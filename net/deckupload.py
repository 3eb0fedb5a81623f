"""Deck files a player sends with ``create_room``: reading them, and naming them on the host.

The text is checked by the same loader as the host's own files
(:func:`partyhost.decks.files.load_deck_text`); here is only what the wire
allows and how an upload is named in messages. An upload's file name is the
sender's; it is cleaned like a chat line and never used as a path.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partyhost.net import protocol as p
from partyhost.net.names import clean_text

MAX_UPLOAD_NAME = 60


@dataclass(frozen=True)
class DeckUpload:
    """One deck file as a player sent it: its file name and its text."""

    name: str
    text: str


def upload_name(raw: str) -> str:
    """The file name an upload is shown under: no folders, no controls, never empty."""
    base = raw.replace("\\", "/").rsplit("/", 1)[-1]
    return clean_text(base, MAX_UPLOAD_NAME) or "deck.yaml"


def uploads_in(message: dict[str, Any]) -> list[DeckUpload]:
    """The uploads of a validated ``create_room``, in the order sent."""
    return [DeckUpload(item["name"], item["text"]) for item in message.get("deck_files") or []]


class DeckFileUnsendable(Exception):
    """A deck file this computer cannot send (unreadable, not text, too big for one request)."""


UPLOAD_ALLOWANCE = p.MAX_CLIENT_FRAME - 2048
"""Bytes of deck text one ``create_room`` can carry, leaving room for its other fields."""


def read_deck_files(paths: Sequence[Path]) -> list[dict[str, str]]:
    """Each file's ``{"name", "text"}``, ready for ``create_room(deck_files=...)``.

    Raises :class:`DeckFileUnsendable` saying which file and why, before
    anything is sent: the host would refuse the frame otherwise.
    """
    files: list[dict[str, str]] = []
    total = 0
    if len(paths) > p.MAX_DECK_FILES:
        raise DeckFileUnsendable(f"At most {p.MAX_DECK_FILES} deck files go with one room.")
    for path in paths:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DeckFileUnsendable(f"{path}: cannot read it ({exc.strerror}).") from None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise DeckFileUnsendable(f"{path}: not UTF-8 text.") from None
        total += len(raw) + len(path.name)
        if total > UPLOAD_ALLOWANCE:
            raise DeckFileUnsendable(
                f"{path}: deck files sent to a host may total {UPLOAD_ALLOWANCE // 1024} KiB;"
                f" this one brings them to {total // 1024} KiB. Ask the host to put it in"
                " a deck folder instead."
            )
        files.append({"name": path.name, "text": text})
    return files
