"""Small pieces every What Do You Meme? widget draws with: glyphs, colors, bills, widths."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from partyhost.tui.shared.seats import seat_style
from rich.cells import cell_len
from rich.color import Color, ColorParseError
from rich.text import Text

Frame = dict[str, Any]


@dataclass(frozen=True)
class MemeGlyphs:
    """The game's own symbols, swapped as a set for ``--ascii``."""

    token: str
    free: str
    """A token not placed yet."""
    dot: str
    shade: str
    reactor: str
    right: str
    wrong: str
    pencil: str
    waiting: str
    box: str
    """Die outline: top-left, top, top-right, side, bottom-left, bottom-right."""


MEME_UNICODE = MemeGlyphs("●", "○", "●", "░", "◆", "✔", "✘", "✎", "…", "╭─╮│╰╯")
MEME_ASCII = MemeGlyphs("o", "-", "*", ".", "R", "+", "x", "~", "?", "+-+|++")


def meme_glyphs(ascii_only: bool) -> MemeGlyphs:
    return MEME_ASCII if ascii_only else MEME_UNICODE


def player_of(view: Frame, seat: object) -> Frame:
    for entry in view.get("players", []):
        if isinstance(entry, dict) and entry.get("seat") == seat:
            return entry
    return {}


def color_style(view: Frame, seat: object) -> str:
    """The seat's meme color as a style (deck data, so parsed before use)."""
    terminal = player_of(view, seat).get("terminal")
    if isinstance(terminal, str):
        try:
            Color.parse(terminal)
        except ColorParseError:
            pass
        else:
            return terminal
    return seat_style(seat)


def bill_counts(amount: int) -> list[tuple[int, int]]:
    """``amount`` dollars as funny-money bills, largest first: [(100, n), (10, n)...]."""
    counts = []
    left = max(0, amount)
    for bill in (100, 10, 5, 1):
        number, left = divmod(left, bill)
        if number:
            counts.append((bill, number))
    return counts


BILL_STYLES = {
    1: "black on green",
    5: "black on cyan",
    10: "black on yellow",
    100: "white on magenta",
}


def bills_text(amount: int, *, width: int = 24) -> Text:
    """Bills as little banknotes (``$10 $10 $5 $1``); ``$10x7 $5 $1`` when wider than ``width``."""
    counts = bill_counts(amount)
    for compact in (False, True):
        text = Text()
        for bill, number in counts:
            for _ in range(1 if compact else number):
                if text.plain:
                    text.append(" ")
                text.append(f"${bill}", f"bold {BILL_STYLES[bill]}")
            if compact and number > 1:
                text.append(f"x{number}", "bold")
        if compact or text.cell_len <= width:
            return text
    return Text()


def signed_money(amount: int) -> Text:
    if amount > 0:
        return Text(f"+${amount}", "bold green")
    if amount < 0:
        return Text(f"-${-amount}", "bold red")
    return Text("$0", "dim")


def fit(text: Text, width: int, ellipsis: str) -> Text:
    """``text`` cut (with ``ellipsis``) or padded to exactly ``width`` cells."""
    text = text.copy()
    if text.cell_len > width:
        text.truncate(max(0, width - cell_len(ellipsis)))
        text.append(ellipsis, "dim")
    text.pad_right(width - text.cell_len)
    return text
