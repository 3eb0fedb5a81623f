"""Showing other people's text safely, and the glyphs the client draws with.

Names, chat lines and deck text reach the screen only through :func:`literal`: never
parsed as markup, control characters shown in caret notation, so ``[red]x`` or an ANSI
escape shows exactly as typed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.style import Style
from rich.text import Text

Frame = dict[str, Any]
"""A decoded wire message (or a part of one), as the host sent it."""
Name = Callable[[object], Text]
"""A seat's name as the screen draws it (always literal)."""

_BIDI_CONTROLS = {*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F}


def _visible(char: str, keep_newlines: bool) -> str:
    code = ord(char)
    if char == "\n" and keep_newlines:
        return char
    if char == "\t":
        return " "
    if code < 0x20:
        return "^" + chr(code + 0x40)
    if code == 0x7F:
        return "^?"
    if 0x80 <= code < 0xA0:
        return f"\\x{code:02x}"
    if code in _BIDI_CONTROLS:
        return f"\\u{code:04x}"
    return char


def clean(text: object, *, multiline: bool = False) -> str:
    """``text`` as a string whose control characters are shown, not obeyed."""
    raw = text if isinstance(text, str) else str(text)
    if raw.isprintable() and "\t" not in raw:
        return raw
    return "".join(_visible(char, multiline) for char in raw)


def tap_to(action: str, style: str = "") -> Style:
    """``style`` that runs ``action`` when its text is tapped or clicked (Textual's ``@click``;
    ``screen.`` names the screen's actions): keys named in a line work for a finger too."""
    return Style.parse(style) + Style(meta={"@click": action})


def literal(text: object, style: str = "", *, multiline: bool = False) -> Text:
    """Player- or deck-supplied text as Rich ``Text``: shown literally, never markup."""
    return Text(clean(text, multiline=multiline), style=style)


def quoted(text: object) -> Text:
    """Player or deck text in quotes and italics, shown literally."""
    return Text.assemble('"', literal(text, "italic"), '"')


def names(seats: object, name: Callable[[object], Text]) -> Text:
    """``Ann, Bea and Carl`` for a list of seats, each drawn by ``name``."""
    listed = [seat for seat in seats if isinstance(seat, int)] if isinstance(seats, list) else []
    text = Text()
    for number, seat in enumerate(listed):
        if number:
            text.append(" and " if number == len(listed) - 1 else ", ")
        text.append_text(name(seat))
    return text


def number_of(value: object) -> float | None:
    """A number from the wire as a float; None for anything else (a bool too)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def a_number(number: object) -> str:
    """``a 7``, ``an 8``, ``an 11``: a number with the article it is spoken with (up to 99)."""
    said = str(number)
    return f"{'an' if said.startswith('8') or said in ('11', '18') else 'a'} {said}"


def counted(number: object, word: str) -> str:
    """``1 card``, ``3 cards`` (anything but a whole number counts as none)."""
    value = int(number) if isinstance(number, int) else 0
    return f"{value} {word}{'' if value == 1 else 's'}"


def number_keys(count: int) -> str:
    """The keys that pick one of ``count`` things: ``1`` for one alone (not ``1-1``), ``1-5``,
    ``1-9,0`` (0 is the tenth)."""
    if count <= 1:
        return "1"
    return f"1-{min(count, 9)}" + (",0" if count >= 10 else "")


def clock_text(seconds: int) -> Text:
    """A running timer for the front of a status line, reversed so it shows without color."""
    return Text(
        f" {seconds} s left ", "bold reverse yellow" if seconds > 10 else "bold reverse red"
    )


def shorten(text: str, width: int, ellipsis: str) -> str:
    """``text`` cut to ``width`` cells with ``ellipsis`` marking the cut."""
    if len(text) <= width:
        return text
    return text[: max(0, width - len(ellipsis))] + ellipsis


@dataclass(frozen=True)
class Glyphs:
    """Every symbol the client draws, in one place so ``--ascii`` can swap them all (the
    defaults are the Unicode ones; :data:`ASCII` has the others)."""

    owner: str = "★"
    bot: str = "⚙"
    ready: str = "✔"
    not_ready: str = "·"
    away: str = "☾"
    offline: str = "○"
    here: str = "●"
    gone: str = "✗"
    judge: str = "⚖"
    submitted: str = "✔"
    you: str = "▶"
    bar_full: str = "█"
    bar_empty: str = "░"
    hot: str = "♨"
    booyah: str = "✦"
    bullet: str = "•"
    ellipsis: str = "…"
    arrow: str = "→"
    lock: str = "✱"
    trophy: str = "♛"


UNICODE = Glyphs()
ASCII = Glyphs(
    owner="*",
    bot="@",
    ready="+",
    not_ready="-",
    away="~",
    offline="x",
    here="o",
    gone="/",
    judge="J",
    submitted="+",
    you=">",
    bar_full="#",
    bar_empty=".",
    hot="*",
    booyah="!",
    bullet="-",
    ellipsis="...",
    arrow="->",
    lock="#",
    trophy="W",
)


def glyphs_for(ascii_only: bool) -> Glyphs:
    return ASCII if ascii_only else UNICODE


def progress_bar(value: int, target: int, width: int, glyphs: Glyphs) -> str:
    """A bar of ``width`` cells filled in proportion to ``value`` / ``target``."""
    if target <= 0 or width <= 0:
        return ""
    filled = max(0, min(width, round(width * value / target)))
    return glyphs.bar_full * filled + glyphs.bar_empty * (width - filled)
