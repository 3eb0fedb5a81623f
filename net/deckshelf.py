"""Which decks this host offers, kept current while it runs, and the decks rooms deal from.

Files are read once per version and polled for changes; broken ones are listed
with their first problem. Uploaded decks are read at a bounded rate and kept
only in the room's journal, never as files. Rooms playing the same cards share
one :class:`TableDeck`. A room journals its deck's *data*: a single host deck
as it is, anything else as ``{"decks": [{"name", "title", "source", "data"}, ...]}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import hashlib
import logging
import operator
import os
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from partyhost.decks.catalog import DECK_SUFFIXES, deck_files_in, deck_folders, declared_game
from partyhost.decks.combine import CombineError, combine_decks, located
from partyhost.decks.files import (
    DeckError,
    DeckFileError,
    LoadedDeck,
    build_from_text,
    load_deck_text,
    read_deck_text,
)
from partyhost.decks.preview import card_counts, sample_cards
from partyhost.engine.core import Game
from partyhost.engine.playertext import clean_text, looks_blank, strip_invisible
from partyhost.engine.registry import all_games
from partyhost.net import protocol as p
from partyhost.net.addresslimits import BucketsByAddress, TokenBucket, take_all
from partyhost.net.config import HostConfig

log = logging.getLogger(__name__)

POLL_SECONDS = 2.0
"""How often the deck folders are checked for new, changed and removed files."""
MAX_PROBLEMS_SENT = 50

FileKey = tuple[int, int, int]
"""A file's version: modification time (ns), size and inode."""
MAX_UPLOAD_NAME = 60
UPLOAD = "upload"
"""The source of a deck a player sent with the room request."""


@dataclass(frozen=True)
class DeckUpload:
    """One deck file as a player sent it: its file name and its text."""

    name: str
    text: str


def upload_name(raw: str) -> str:
    """The file name an upload is shown under: no folders, no controls, no invisible
    characters, never empty or blank."""
    base = raw.replace("\\", "/").rsplit("/", 1)[-1]
    name = clean_text(strip_invisible(base), MAX_UPLOAD_NAME)
    suffix = next((s for s in DECK_SUFFIXES if name.casefold().endswith(s)), "")
    stem = name[: len(name) - len(suffix)]
    return f"deck{suffix or '.yaml'}" if looks_blank(stem) else name


SENT_MARK = " (sent)"
"""Added to an uploaded deck's name that is also the name of a deck on this host's shelf."""


RECENT_UPLOADS = 16

UPLOADER: contextvars.ContextVar[str] = contextvars.ContextVar("UPLOADER", default="")
"""The address of the client whose request is answered (``asyncio.to_thread`` carries it to
the worker thread reading the files)."""


class UploadsTooFast(Exception):
    """More deck files than the host reads in a while; nothing was read."""


class UploadReader:
    """Reads uploaded deck text on the host, so that uploads cannot starve the rooms: reading
    shares the interpreter with the event loop, so one deck is read at a time, each new text
    takes a token from its address's bucket and the host's, and the last
    :data:`RECENT_UPLOADS` outcomes are kept: a text sent again costs nothing."""

    def __init__(self, config: HostConfig | None = None) -> None:
        self._config = config or HostConfig()
        self._bucket = TokenBucket(self._config.uploads_per_second, self._config.upload_burst)
        self._by_address = BucketsByAddress(
            self._config.uploads_per_address_per_second, self._config.upload_address_burst
        )
        self._lock = threading.Lock()
        self._recent: OrderedDict[tuple[str, str], LoadedDeck | DeckFileError] = OrderedDict()

    def read(self, upload: DeckUpload, address: str = "") -> LoadedDeck:
        """The upload as a deck (raises DeckFileError, or UploadsTooFast)."""
        file = upload_name(upload.name)
        key = (file, hashlib.sha256(upload.text.encode("utf-8", "surrogatepass")).hexdigest())
        with self._lock:
            outcome = self._recent.get(key)
            if outcome is None:
                if not take_all((self._by_address.of(address), self._bucket)):
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
            return load_deck_text(text, file, stem, UPLOAD)
        except DeckFileError as exc:
            return exc
        except Exception as exc:  # a shape nobody foresaw is still this file's problem
            problem = f"cannot be read ({type(exc).__name__}: {exc})"
            return DeckFileError([DeckError(file, 1, 1, problem)])


@dataclass(frozen=True)
class DeckPart:
    """One deck of a room's cards, as the room names it."""

    name: str
    title: str
    source: str
    """``shipped``, ``host`` (a deck folder of the host) or ``upload``."""

    def describe(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "source": self.source}


@dataclass(frozen=True, eq=False)
class TableDeck:
    """A room's cards: the decks in play, their journal form and the game's deck object."""

    parts: tuple[DeckPart, ...]
    data: dict[str, Any]
    """The journal form (see the module's docstring); shared, never changed."""
    deck: Any

    @property
    def name(self) -> str:
        return " + ".join(part.name for part in self.parts)

    def describe(self) -> list[dict[str, Any]]:
        return [part.describe() for part in self.parts]


def _part(name: str, data: dict[str, Any], source: str) -> DeckPart:
    """A deck as a room names it: titled by its ``name:``, else by its file name."""
    title = data.get("name")
    return DeckPart(name, title if isinstance(title, str) else name, source)


def parts_in(deck_name: str, data: dict[str, Any]) -> list[tuple[DeckPart, dict[str, Any]]]:
    """The decks (and their data) of a room's journal form."""
    if "game" in data or not isinstance(data.get("decks"), list):  # a single host deck
        return [(_part(deck_name, data, "host"), data)]
    found = []
    for item in data["decks"]:
        part = DeckPart(str(item["name"]), str(item["title"]), str(item["source"]))
        found.append((part, item["data"]))
    return found


def decks_in_play(deck_name: str, data: dict[str, Any]) -> list[dict[str, Any]]:
    """The ``decks`` a room message names: ``[{name, title, source}, ...]``."""
    return [part.describe() for part, _ in parts_in(deck_name, data)]


class DeckNotFound(p.Refused):
    """A deck request that cannot be met; ``problems`` lists every problem of a deck that
    failed its checks, each at its file, line and column."""

    def __init__(self, code: str, message: str, problems: Sequence[DeckError] = ()) -> None:
        super().__init__(code, message)
        self.problems = list(problems)

    def frame(self, ref: int | None = None) -> dict[str, Any]:
        """The ``error`` frame that answers the request, with ``problems`` if there are any."""
        frame = super().frame(ref)
        if self.problems:
            frame["problems"] = [asdict(error) for error in self.problems[:MAX_PROBLEMS_SENT]]
        return frame


@dataclass(frozen=True, eq=False)
class FileVersion:
    """One version of one deck file: the deck, or why it cannot be used."""

    key: FileKey
    loaded: LoadedDeck | None
    errors: tuple[DeckError, ...]
    game: str | None
    """The ``game:`` it declares (read from the text even when it does not parse)."""


@dataclass(frozen=True, eq=False)
class ShelfEntry:
    """A deck file as the host lists it."""

    name: str
    source: str
    path: Path
    version: FileVersion
    shadowed_by: str | None = None
    described: dict[str, Any] = field(default_factory=dict)

    @property
    def usable(self) -> bool:
        return self.version.loaded is not None and self.shadowed_by is None


def file_key(path: Path) -> FileKey | None:
    """The file's version now (None: it is gone or unreadable)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def _read_version(path: Path, key: FileKey, source: str) -> FileVersion:
    try:
        text = read_deck_text(path)
    except DeckFileError as exc:
        errors = tuple(DeckError(path.name, e.line, e.column, e.message) for e in exc.errors)
        return FileVersion(key, None, errors, None)
    try:
        game, data, deck = build_from_text(text, path.name)
    except DeckFileError as exc:
        return FileVersion(key, None, tuple(exc.errors), declared_game(text))
    except Exception as exc:  # one broken file never hides the others
        log.exception("cannot read deck %s", path)
        problem = f"cannot be read ({type(exc).__name__}: {exc})"
        return FileVersion(key, None, (DeckError(path.name, 1, 1, problem),), declared_game(text))
    loaded = LoadedDeck(path.stem, str(path), source, game.deck_game, data, deck)
    return FileVersion(key, loaded, (), game.deck_game)


def _describe(entry: ShelfEntry) -> dict[str, Any]:
    """The entry as ``decks`` and ``welcome`` list it (no folder names: they are the host's)."""
    version = entry.version
    loaded = version.loaded
    data = loaded.data if loaded is not None else {}
    title = data.get("name")
    description = data.get("description")
    # the sections a deck previews first, as its games declare them
    preview_first = next((g.deck_preview for g in all_games() if g.deck_game == version.game), ())
    problem = None
    if version.errors:
        error = version.errors[0]
        problem = f"{entry.path.name}:{error.line}:{error.column}: {error.message}"
        if len(version.errors) > 1:
            problem += f" (and {len(version.errors) - 1} more)"
    elif entry.shadowed_by is not None:
        problem = (
            f"{entry.path.name}: a {entry.shadowed_by} deck has the same name {entry.name!r};"
            " rename this file"
        )
    return {
        "name": entry.name,
        "title": title if isinstance(title, str) else entry.name,
        "description": description if isinstance(description, str) else "",
        "game": version.game,
        "source": "shipped" if entry.source == "shipped" else "host",
        "cards": card_counts(data),
        "samples": sample_cards(data, preview_first),
        "problem": problem,
    }


@dataclass(eq=False)
class DeckShelf:
    """The decks this host can deal from, read once per file version, kept current."""

    extra_dirs: tuple[Path, ...] = ()
    poll_interval: float = POLL_SECONDS
    uploads: UploadReader = field(default_factory=UploadReader)
    on_change: Callable[[], None] | None = field(default=None, init=False)
    """Called on the event loop after the poll found the listing changed."""
    entries: tuple[ShelfEntry, ...] = field(default=(), init=False)
    """Every deck file the last :meth:`scan` found, in search order, usable or not."""
    _tables: weakref.WeakValueDictionary[str, TableDeck] = field(
        default_factory=weakref.WeakValueDictionary, init=False
    )
    """Every table deck some room still uses, by digest: equal cards are built once."""
    _versions: dict[Path, FileVersion] = field(default_factory=dict, init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False)
    _watcher: asyncio.Task[None] | None = field(default=None, init=False)

    # --- reading the folders (worker threads) ---------------------------------

    def version_of(self, path: Path, source: str) -> FileVersion | None:
        """The file as it is now: the cached version if unchanged, else read again."""
        key = file_key(path)
        if key is None:
            return None
        with self._lock:
            cached = self._versions.get(path)
            if cached is not None and cached.key == key:
                return cached
            version = _read_version(path, key, source)
            self._versions[path] = version
            return version

    def scan(self) -> bool:
        """Look at every deck file; read new and changed ones. Whether the listing changed."""
        entries: list[ShelfEntry] = []
        first_of: dict[str, str] = {}
        previous = {entry.path: entry for entry in self.entries}
        for source, folder in deck_folders(self.extra_dirs):
            for path in deck_files_in(folder):
                version = self.version_of(path, source)
                if version is None:
                    continue  # removed between the listing and the stat
                shadowed_by = first_of.get(path.stem)
                entry = previous.get(path)
                if entry is None or (entry.version, entry.shadowed_by) != (version, shadowed_by):
                    entry = ShelfEntry(path.stem, source, path, version, shadowed_by)
                    entry.described.update(_describe(entry))
                entries.append(entry)
                first_of.setdefault(path.stem, source)
        with self._lock:
            current = {entry.path for entry in entries}
            for path in list(self._versions):
                if path not in current:
                    del self._versions[path]
        before = self.entries
        self.entries = tuple(entries)
        return len(before) != len(entries) or any(map(operator.is_not, before, entries))

    # --- what the lobby shows ------------------------------------------------------

    def listing(self) -> list[dict[str, Any]]:
        """Every deck file, usable or not, as the ``decks`` message lists them."""
        return [entry.described for entry in self.entries]

    def for_game(self, game: Game) -> list[dict[str, Any]]:
        """The usable decks of ``game``, as ``welcome`` lists them."""
        return [
            entry.described
            for entry in self.entries
            if entry.usable and entry.version.game == game.deck_game
        ]

    # --- the decks of a new room (worker threads) ----------------------------------

    def for_request(self, game: Game, message: dict[str, Any]) -> TableDeck:
        """The cards a validated ``create_room`` asks for (``deck``, ``decks``, ``deck_files``)."""
        names = message.get("decks") or ([message["deck"]] if message.get("deck") else [])
        files = message.get("deck_files") or []
        return self.table_deck(game, names, [DeckUpload(f["name"], f["text"]) for f in files])

    def table_deck(
        self, game: Game, names: Sequence[str], uploads: Sequence[DeckUpload] = ()
    ) -> TableDeck:
        """The cards of a new room: decks of this host by name (none: the game's default)
        plus uploaded ones; raises :class:`DeckNotFound`."""
        wanted = list(dict.fromkeys(names))
        if not wanted and not uploads:
            wanted = [game.default_deck]
        if len(wanted) + len(uploads) > p.MAX_ROOM_DECKS:
            raise DeckNotFound(
                "bad_deck", f"A room plays at most {p.MAX_ROOM_DECKS} decks together."
            )
        chosen = [self._named(game, name) for name in wanted]
        chosen += [self._uploaded(game, upload) for upload in uploads]
        parts = tuple(
            _part(self._sent_name(loaded.name), loaded.data, UPLOAD)
            if loaded.source == UPLOAD
            else _part(loaded.name, loaded.data, "host")
            for loaded in chosen
        )
        datas = [loaded.data for loaded in chosen]
        journal = datas[0]  # the journal form: see the module's docstring
        if len(parts) > 1 or parts[0].source == UPLOAD:
            pairs = zip(parts, datas, strict=True)
            journal = {"decks": [{**part.describe(), "data": data} for part, data in pairs]}
        try:
            return self._shared(game, parts, datas, journal, lambda: chosen[0].deck)
        except CombineError as clash:
            texts: list[str | None] = [None] * len(wanted) + [upload.text for upload in uploads]
            for index, loaded in enumerate(chosen[: len(wanted)]):
                with contextlib.suppress(DeckFileError):
                    texts[index] = read_deck_text(Path(loaded.path))
            # a problem names a file by its name only (folders are the host's business)
            shown = [Path(d.path).name if d.source != UPLOAD else d.path for d in chosen]
            errors = located(clash.problems, shown, texts)
            raise DeckNotFound(
                "bad_deck", f"These decks cannot be played together: {errors[0]}", errors
            ) from None

    def _named(self, game: Game, name: str) -> LoadedDeck:
        titled = (
            d["name"] for d in self.for_game(game) if d["title"].casefold() == name.casefold()
        )
        entry = self.find(name) or self.find(next(titled, ""))  # by file name, else by title
        if entry is None:
            names = ", ".join(d["name"] for d in self.for_game(game)) or "none"
            raise DeckNotFound(
                "unknown_deck", f"No deck {name!r} for {game.name}; this host has: {names}."
            )
        loaded = entry.version.loaded
        if loaded is None:
            raise DeckNotFound(
                "bad_deck",
                f"Deck {entry.name!r} cannot be used: {entry.described['problem']}",
                entry.version.errors,
            )
        if loaded.deck_game != game.deck_game:
            raise DeckNotFound(
                "unknown_deck", f"Deck {entry.name!r} is for another game ({loaded.deck_game})."
            )
        return loaded

    def find(self, name: str) -> ShelfEntry | None:
        """The first file of that name on the search path, as it is now."""
        if not name or "/" in name or "\\" in name or name.startswith(".") or "\0" in name:
            return None  # names only: a client may not make the host read paths
        for source, folder in deck_folders(self.extra_dirs):
            for suffix in DECK_SUFFIXES:
                path = folder / f"{name}{suffix}"
                version = self.version_of(path, source) if path.is_file() else None
                if version is not None:
                    entry = ShelfEntry(name, source, path, version)
                    entry.described.update(_describe(entry))
                    return entry
        return None

    def _sent_name(self, name: str) -> str:
        """An uploaded deck's name, marked if it is one of this host's: an upload must not
        pass for a shipped deck."""
        taken = {entry.name.casefold() for entry in self.entries}
        if name.casefold() in taken or self.find(name) is not None:
            return name + SENT_MARK
        return name

    def _uploaded(self, game: Game, upload: DeckUpload) -> LoadedDeck:
        file = upload_name(upload.name)
        try:
            loaded = self.uploads.read(upload, UPLOADER.get())
        except UploadsTooFast:
            raise DeckNotFound(
                "rate_limited", "Deck files arrive faster than this host reads them; try again."
            ) from None
        except DeckFileError as exc:
            raise DeckNotFound(
                "bad_deck",
                f"Deck file {file!r} has {len(exc.errors)} problem(s); the first: {exc.errors[0]}",
                exc.errors,
            ) from None
        if loaded.deck_game != game.deck_game:
            raise DeckNotFound(
                "bad_deck",
                f"Deck file {file!r} is for another game ({loaded.deck_game}),"
                f" not {game.name} ({game.deck_game}).",
                [DeckError(file, 1, 1, f"this deck is for game {loaded.deck_game!r}")],
            )
        return loaded

    def restore(self, game: Game, deck_name: str, data: dict[str, Any]) -> TableDeck:
        """The cards of a journaled room, shared with rooms playing the same ones."""
        found = parts_in(deck_name, data)
        parts = tuple(part for part, _ in found)
        datas = [part_data for _, part_data in found]
        return self._shared(game, parts, datas, data, lambda: game.build_deck(datas[0]))

    def _shared(
        self,
        game: Game,
        parts: tuple[DeckPart, ...],
        datas: Sequence[dict[str, Any]],
        journal: dict[str, Any],
        single: Callable[[], Any],
    ) -> TableDeck:
        """The table deck with this journal form: found by its digest, else built (``single``
        builds one part's deck; several are combined, which may raise ``CombineError``)."""
        packed = msgpack.packb([game.deck_game, journal], use_bin_type=True)
        digest = hashlib.sha256(packed).hexdigest()
        with self._lock:
            found = self._tables.get(digest)
        if found is not None:
            return found
        if len(parts) == 1:
            deck = single()
        else:
            _, deck = combine_decks(game, [part.name for part in parts], datas)
        built = TableDeck(parts, journal, deck)
        with self._lock:
            return self._tables.setdefault(digest, built)

    # --- keeping the listing current ---------------------------------------------

    def start_watching(self) -> None:
        """Poll the deck folders from now on (call on the event loop)."""
        if self._watcher is None:
            self._watcher = asyncio.create_task(self._watch(), name="deck folders")

    async def stop_watching(self) -> None:
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(self.poll_interval)
            try:
                changed = await asyncio.to_thread(self.scan)
            except Exception:  # a broken folder must not stop the host
                log.exception("could not read the deck folders (will retry)")
                continue
            if changed and self.on_change is not None:
                self.on_change()
