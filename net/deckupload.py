"""Deck files a player sends with ``create_room``: reading them, and naming them on the host.

The text is checked by the same loader as the host's own files
(:func:`partyhost.decks.files.load_deck_text`); here is only what the wire
allows and how an upload is named in messages. An upload's file name is the
sender's; it is cleaned like a chat line and never used as a path.
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partyhost.decks.files import DeckError, DeckFileError, LoadedDeck, load_deck_text
from partyhost.net import protocol as p
from partyhost.net.addresslimits import TokenBucket
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


UPLOADS_PER_SECOND = 1.0
UPLOAD_BURST = 5
RECENT_UPLOADS = 16


class UploadsTooFast(Exception):
    """More deck files than the host reads in a while; nothing was read."""


class UploadReader:
    """Reads uploaded deck text on the host, so that uploads cannot starve the rooms.

    Reading a deck costs milliseconds of CPU in a worker thread, and threads
    share the interpreter with the event loop. So one deck is read at a time,
    new texts are read at :data:`UPLOADS_PER_SECOND` (bursts of
    :data:`UPLOAD_BURST`) across the host, and the outcome of each of the
    last :data:`RECENT_UPLOADS` texts is kept: a text sent again (the same
    file for a second room, or retried unchanged) is not read again.
    """

    def __init__(self) -> None:
        self._bucket = TokenBucket(UPLOADS_PER_SECOND, UPLOAD_BURST)
        self._lock = threading.Lock()
        self._recent: OrderedDict[tuple[str, str], LoadedDeck | DeckFileError] = OrderedDict()

    def read(self, upload: DeckUpload) -> LoadedDeck:
        """The upload as a deck (raises DeckFileError, or UploadsTooFast)."""
        file = upload_name(upload.name)
        key = (file, hashlib.sha256(upload.text.encode("utf-8", "surrogatepass")).hexdigest())
        with self._lock:
            outcome = self._recent.get(key)
            if outcome is None:
                if not self._bucket.take():
                    raise UploadsTooFast()
                outcome = self._load(upload.text, file)
            self._recent[key] = outcome
            self._recent.move_to_end(key)
            while len(self._recent) > RECENT_UPLOADS:
                self._recent.popitem(last=False)
        if isinstance(outcome, DeckFileError):
            raise DeckFileError(outcome.errors)
        return outcome

    @staticmethod
    def _load(text: str, file: str) -> LoadedDeck | DeckFileError:
        stem = os.path.splitext(file)[0] or "upload"
        try:
            return load_deck_text(text, file, stem, "upload")
        except DeckFileError as exc:
            return exc
        except Exception as exc:  # a shape nobody foresaw is still this file's problem
            problem = f"cannot be read ({type(exc).__name__}: {exc})"
            return DeckFileError([DeckError(file, 1, 1, problem)])
