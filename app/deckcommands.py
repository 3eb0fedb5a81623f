"""``partyhost decks list|show|validate|new``: what people use to make their own decks."""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from partyhost.decks.catalog import DECK_SUFFIXES, deck_folders, shipped_decks_dir
from partyhost.decks.combine import HEADER_KEYS
from partyhost.decks.files import DeckFileError, LoadedDeck, build_from_text, load_deck_file
from partyhost.decks.preview import describe_counts
from partyhost.engine.core import Game
from partyhost.engine.registry import all_games
from partyhost.net.deckshelf import DeckShelf, file_key
from partyhost.paths import user_decks_dir

WATCH_SECONDS = 0.5
DECK_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,59}")
"""What a deck's file name (without ``.yaml``) may be: it is also its name in the lobby."""
_NAME_LINE = re.compile(r"^name: .*$", re.MULTILINE)


def list_command() -> int:
    shelf = DeckShelf()
    shelf.scan()
    for source, folder in deck_folders():
        print(f"{source} decks: {folder}")
    print()
    if not shelf.entries:
        print("No deck files found.")
        return 0
    for entry in shelf.entries:
        deck, errors = entry.version.loaded, entry.version.errors
        if deck is None:
            status = f"INVALID ({len(errors)} problem(s); run: partyhost decks validate"
            status += f" {entry.path})"
            print(f"  {entry.name:<28} {entry.source:<8} {status}")
            first = str(errors[0]).split("\n", 1)[0]  # the YAML parser's wording: see validate
            print(f"  {'':<28} {'':<8} first: {first}")
            continue
        note = (
            f"  (shadowed by the {entry.shadowed_by} deck of the same name: rename it)"
            if entry.shadowed_by is not None
            else ""
        )
        title = str(deck.data.get("name", ""))
        print(f"  {entry.name:<28} {entry.source:<8} {deck.deck_game:<16} {title}{note}")
        print(f"  {'':<28} {'':<8} {describe_counts(deck.data)}")
    return 0


def _describe_item(item: Any) -> list[str]:
    if not isinstance(item, dict):
        return [str(item)]
    lines: list[str] = []
    for key, value in item.items():
        text = str(value)
        if "\n" in text.rstrip("\n"):
            lines.append(f"{key}:")
            lines.extend(f"    {row}" for row in text.rstrip("\n").split("\n"))
        else:
            lines.append(f"{key}: {text}")
    return lines


def find_deck(name_or_path: str) -> LoadedDeck:
    """A deck by file path, or by name as the host's deck shelf finds it; raises DeckFileError
    with every problem, or naming the folders searched."""
    path = Path(name_or_path).expanduser()
    if path.suffix in DECK_SUFFIXES and path.is_file():
        return load_deck_file(path, "file")
    entry = DeckShelf().find(name_or_path)
    if entry is None:
        searched = ", ".join(str(folder) for _, folder in deck_folders())
        problem = f"no deck named {name_or_path!r} (searched {searched})"
        raise DeckFileError.one(name_or_path, problem)
    if entry.version.loaded is None:
        raise DeckFileError(list(entry.version.errors))
    return entry.version.loaded


def show_command(name: str) -> int:
    try:
        deck = find_deck(name)
    except DeckFileError as exc:
        for error in exc.errors:
            print(error)
        return 1
    data = deck.data
    print(f"{data.get('name', deck.name)}  [{deck.deck_game}, {deck.source}: {deck.path}]")
    if data.get("description"):
        print(data["description"])
    for key, value in data.items():
        if key in HEADER_KEYS:
            continue
        if isinstance(value, list):
            print(f"\n{key} ({len(value)}):")
            for number, item in enumerate(value, start=1):
                first, *rest = _describe_item(item) or [""]
                print(f"  {number:>3}. {first}")
                for line in rest:
                    print(f"       {line}")
        else:
            print(f"\n{key}:")
            for line in _describe_item(value):
                print(f"  {line}")
    return 0


def _validate(path: Path) -> bool:
    try:
        deck = load_deck_file(path)
    except DeckFileError as exc:
        for error in exc.errors:
            print(error)
        print(f"{path}: {len(exc.errors)} problem(s)")
        return False
    print(f"{path}: ok ({deck.deck_game}: {describe_counts(deck.data)})")
    return True


def watch_command(
    raw: str, *, sleep: Callable[[float], None] = time.sleep, max_checks: int | None = None
) -> int:
    """Check the file now and again every time it is saved, until Ctrl+C; exits with the last
    check's result (0: the deck is fine)."""
    path = Path(raw)
    print(f"Watching {path}: every save is checked again. Ctrl+C to stop.", flush=True)
    ok = _validate(path)
    seen = file_key(path)
    checks = 1
    try:
        while max_checks is None or checks < max_checks:
            sleep(WATCH_SECONDS)
            version = file_key(path)
            if version == seen:
                continue
            seen = version
            checks += 1
            print(f"\n--- {time.strftime('%H:%M:%S')}: {path} changed ---", flush=True)
            ok = version is not None and _validate(path)
            if version is None:
                print(
                    f"{path}: the file is gone (renamed or deleted?); waiting for it to come back"
                )
    except KeyboardInterrupt:
        print()
    return 0 if ok else 1


def starter_deck(game: Game, name: str) -> str:
    """The game's commented starter deck (``decks/starters``, valid as written), titled after
    ``name`` (``office-party``: ``Office party``) and checked as any deck; raises ValueError
    if there is none, DeckFileError if the checker refuses it."""
    template = shipped_decks_dir() / "starters" / f"{game.deck_game}.yaml"
    if not template.is_file():
        raise ValueError(f"There is no starter deck for {game.name} yet.")
    words = " ".join(name.replace("_", " ").replace("-", " ").split()) or name
    title = f"name: {json.dumps(words[:1].upper() + words[1:])}"
    text = _NAME_LINE.sub(lambda _: title, template.read_text(encoding="utf-8"), count=1)
    build_from_text(text, f"{name}.yaml")
    return text


def new_command(game_id: str, name: str) -> int:
    """Write a commented starter deck for the game into the user's deck folder."""
    games = all_games()  # by id (stealing-home) or by its decks' game: (game-set-match)
    game = next((game for game in games if game_id in (game.id, game.deck_game)), None)
    if game is None:
        known = ", ".join(sorted({game.id for game in games}))
        print(f"partyhost decks new: no game {game_id!r}; one of: {known}")
        return 2
    if not DECK_NAME.fullmatch(name):
        print(
            f"partyhost decks new: {name!r} cannot be a deck name: use letters, digits,"
            " - and _ (at most 60), starting with a letter or digit, e.g. office-party"
        )
        return 2
    if any((shipped_decks_dir() / f"{name}{suffix}").exists() for suffix in DECK_SUFFIXES):
        print(f"partyhost decks new: {name!r} is the name of a shipped deck; pick another")
        return 2
    folder = user_decks_dir()
    path = folder / f"{name}.yaml"
    if path.exists() or path.with_suffix(".yml").exists():
        print(f"partyhost decks new: {path} already exists; pick another name")
        return 1
    try:
        text = starter_deck(game, name)
        folder.mkdir(parents=True, exist_ok=True)
        with path.open("x", encoding="utf-8") as handle:
            handle.write(text)
    except (DeckFileError, ValueError, OSError) as exc:  # a starter the checker refuses too
        print(f"partyhost decks new: {exc}")
        return 1
    print(f"Wrote {path}")
    print(f"A starter deck for game: {game.deck_game}. Its comments explain every part.")
    print("Edit it, and keep this running to check every save:")
    print(f"  partyhost decks validate --watch {path}")
    return 0


def cmd_decks(args: argparse.Namespace) -> int:
    if args.decks_command == "list":
        return list_command()
    if args.decks_command == "show":
        return show_command(args.name)
    if args.decks_command == "new":
        return new_command(args.game, args.name)
    if args.watch:
        if len(args.paths) != 1:
            print("partyhost decks validate: --watch takes one file", file=sys.stderr)
            return 2
        return watch_command(args.paths[0])
    checked = [_validate(Path(raw)) for raw in args.paths]  # every file, each problem printed
    return 0 if all(checked) else 1
