"""``partyhost decks list|show|validate``: what people use to make their own decks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from partyhost.decks.catalog import find_deck, list_decks, search_path
from partyhost.decks.files import DeckFileError, load_deck_file

_META_KEYS = ("game", "version", "name", "description", "author")


def _is_card_section(value: Any) -> bool:
    """Lists, and mappings of cards (not of settings such as a card's shape)."""
    if isinstance(value, list):
        return True
    return isinstance(value, dict) and not all(
        isinstance(item, (int, float, bool)) for item in value.values()
    )


def _count_cards(data: dict[str, Any]) -> str:
    parts = [
        f"{len(value)} {key}"
        for key, value in data.items()
        if key not in _META_KEYS and _is_card_section(value)
    ]
    return ", ".join(parts)


def list_command() -> int:
    listings = list_decks()
    for source, folder in search_path():
        print(f"{source} decks: {folder}")
    print()
    if not listings:
        print("No deck files found.")
        return 0
    for listing in listings:
        if listing.deck is None:
            status = f"INVALID ({len(listing.errors)} problem(s); run: partyhost decks validate"
            status += f" {listing.path})"
            print(f"  {listing.name:<28} {listing.source:<8} {status}")
            continue
        deck = listing.deck
        note = (
            "  (shadowed by the shipped deck of the same name: rename it)"
            if listing.shadowed
            else ""
        )
        title = str(deck.data.get("name", ""))
        print(f"  {listing.name:<28} {listing.source:<8} {deck.deck_game:<16} {title}{note}")
        print(f"  {'':<28} {'':<8} {_count_cards(deck.data)}")
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
        if key in _META_KEYS:
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


def validate_command(paths: list[str]) -> int:
    """Check each file; print every problem; exit 1 if any file has one."""
    failed = 0
    for raw in paths:
        path = Path(raw)
        try:
            deck = load_deck_file(path)
        except DeckFileError as exc:
            failed += 1
            for error in exc.errors:
                print(error)
            print(f"{path}: {len(exc.errors)} problem(s)")
            continue
        print(f"{path}: ok ({deck.deck_game}: {_count_cards(deck.data)})")
    return 1 if failed else 0
