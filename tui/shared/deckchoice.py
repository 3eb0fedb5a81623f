"""What the create-room dialog shows about decks: the host's, their previews, broken ones,
and a deck file from this computer.

Deck text comes from other people (the host's folders, a friend's file), so it
reaches the screen only through :func:`~partyhost.tui.text.literal`.
"""

from __future__ import annotations

from pathlib import Path

from partyhost.decks.catalog import declared_game
from partyhost.decks.files import DeckFileError, load_deck_file
from partyhost.net.clients.client import DeckFileUnsendable, read_deck_files
from partyhost.tui.text import Frame, literal
from rich.text import Text

BROKEN_SHOWN = 3
SAMPLES_SHOWN = 3


def host_decks(listed: tuple[Frame, ...], game: Frame | None) -> tuple[list[Frame], list[Frame]]:
    """The host's usable decks of ``game`` and its broken ones (those of no known game too).

    ``listed`` is the host's newest ``decks`` listing; before one arrives the
    welcome's decks of the game stand in (they are all usable).
    """
    if game is None:
        return [], []
    if not listed:
        found = [d for d in game.get("decks", []) if isinstance(d, dict) and d.get("name")]
        return found, []
    deck_game = game.get("deck_game", game.get("id"))
    usable = [d for d in listed if d.get("game") == deck_game and not d.get("problem")]
    broken = [d for d in listed if d.get("problem") and d.get("game") in (deck_game, None)]
    return usable, broken


def preview(deck: Frame) -> Text:
    """Its description, how many cards of each kind, and a few of them (a line each)."""
    lines: list[Text] = []
    if deck.get("description"):
        lines.append(literal(deck["description"]))
    cards = deck.get("cards")
    if isinstance(cards, dict) and cards:
        lines.append(Text(", ".join(f"{n} {kind}" for kind, n in cards.items()), "bold"))
    samples = [s for s in deck.get("samples", []) if isinstance(s, str)][:SAMPLES_SHOWN]
    if samples:
        quoted = [Text.assemble('"', literal(sample, "italic"), '"') for sample in samples]
        lines.append(Text.assemble("e.g. ", Text(", ").join(quoted)))
    return Text("\n").join(lines)


def broken_lines(broken: list[Frame]) -> Text:
    """One line per broken deck with its first problem (``file:line:column: ...``).

    Only a problem's first line is shown: a syntax problem's second line is the
    YAML parser's own wording, which ``partyhost decks validate`` prints.
    """
    text = Text()
    for number, deck in enumerate(broken[:BROKEN_SHOWN]):
        text.append("\n" if number else "")
        text.append("Not offered: ", "bold")
        text.append_text(literal(str(deck.get("problem", "")).split("\n", 1)[0]))
    if len(broken) > BROKEN_SHOWN:
        text.append(f"\n... and {len(broken) - BROKEN_SHOWN} more broken deck(s)")
    return text


def deck_file_payload(raw: str) -> list[dict[str, str]]:
    """The ``deck_files`` to send with ``create_room`` for a path typed in the dialog.

    Raises :class:`DeckFileUnsendable` with a sentence for the person.
    """
    return read_deck_files([Path(raw).expanduser()])


def deck_file_note(raw: str) -> Text:
    """What the dialog says about a typed path: the file it will send, what to fix in it
    first, or that there is none.

    The file is checked here, by the rules the host applies, so a mistake is shown
    while the dialog is open instead of after the room has been asked for.
    """
    path = Path(raw).expanduser()
    try:
        size = path.stat().st_size
    except OSError:
        return Text(f"No file at {raw} (yet).")
    try:
        load_deck_file(path)
    except DeckFileError as exc:
        first = exc.errors[0]
        more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
        return Text.assemble(
            literal(path.name, "bold"),
            f": fix first, line {first.line}, column {first.column}: ",
            literal(first.message.split("\n", 1)[0]),
            more,
        )
    return Text.assemble(
        literal(path.name, "bold"), f", {max(1, round(size / 1024))} KiB: sent with the request"
    )


def game_of_file(raw: str) -> str | None:
    """The ``game:`` a deck file on this computer declares, if it can be read."""
    try:
        files = read_deck_files([Path(raw).expanduser()])
    except DeckFileUnsendable:
        return None
    return declared_game(files[0]["text"])
