"""The money table: every player in their color, their cash (as bills when there is room),
who reacts, who the table is waiting for, and what the last turn paid."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from partyhost.tui.meme.text import (
    MemeGlyphs,
    bills_text,
    color_style,
    fit,
    signed_money,
)
from partyhost.tui.text import Frame, Glyphs, Name
from rich.text import Text
from textual.widgets import Static


@dataclass(frozen=True)
class MoneyRows:
    """What the money table needs from the screen."""

    view: Frame
    name: Name
    glyphs: Glyphs
    meme: MemeGlyphs
    presence: Mapping[int, tuple[str, str]] = field(default_factory=dict)
    """A badge for each seat whose player is not there."""


class MoneyTable(Static):
    """One line per player (two with bills when ``detailed``)."""

    DEFAULT_CSS = """
    MoneyTable {
        height: auto;
        border: $edge $panel-lighten-2;
        border-title-color: $text-accent;
        border-title-style: bold;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "Money"
        self.detailed = False
        self._rows: MoneyRows | None = None

    def show(self, rows: MoneyRows, *, detailed: bool) -> None:
        self.detailed = detailed
        self._rows = rows
        self.update(self._table(rows))

    def on_resize(self) -> None:
        """Its lines are drawn for its width: draw them again at a new one."""
        if self._rows is not None:
            self.update(self._table(self._rows))

    def _table(self, rows: MoneyRows) -> Text:
        view = rows.view
        width = max(20, (self.content_region.width or self.size.width or 28))
        players = [p for p in view.get("players", []) if isinstance(p, dict)]
        show_payout = width >= 30 and view.get("last_turn") is not None
        name_width = max(6, width - 13 - (6 if show_payout else 0))
        text = Text(no_wrap=True, overflow="crop")
        for player in players:
            if text.plain:
                text.append("\n")
            text.append_text(self._line(player, rows, name_width, show_payout))
            money = int(player.get("money", 0))
            if self.detailed and money > 0:
                text.append("\n    ")
                text.append_text(bills_text(money, width=width - 4))
        if not players:
            text.append("Nobody is playing yet.", "dim italic")
        return text

    def _marker(self, player: Frame, rows: MoneyRows) -> Text:
        glyphs = rows.glyphs
        if player.get("winner"):
            return Text(glyphs.trophy, "bold yellow")
        if player.get("left"):
            return Text(glyphs.offline, "dim")
        if player.get("away"):
            return Text(glyphs.away, "yellow")
        if player.get("reactor"):
            return Text(rows.meme.reactor, "bold magenta")
        return Text(" ")

    def _line(self, player: Frame, rows: MoneyRows, name_width: int, show_payout: bool) -> Text:
        seat = player.get("seat")
        view = rows.view
        line = Text()
        line.append_text(self._marker(player, rows))
        line.append(" ")
        line.append(rows.meme.dot, color_style(view, seat))
        line.append(" ")
        name = rows.name(seat)
        if player.get("left"):
            name.stylize("strike dim")
        badge, badge_style = (
            rows.presence.get(seat, ("", "")) if isinstance(seat, int) else ("", "")
        )
        if badge:
            name = fit(name, max(3, name_width - len(badge) - 1), rows.glyphs.ellipsis)
            name.append(" ")
            name.append(badge, badge_style)
        line.append_text(fit(name, name_width, rows.glyphs.ellipsis))
        line.append(f"{'$' + str(int(player.get('money', 0))):>6}", "bold")
        line.append(" ")
        if player.get("waiting"):
            line.append(rows.meme.waiting, "yellow")
        elif view.get("phase") not in ("rolloff", "over", None):
            line.append(rows.glyphs.ready, "green")
        else:
            line.append(" ")
        payout = player.get("last_payout")
        if show_payout:
            line.append(" ")
            shown = signed_money(int(payout)) if isinstance(payout, int) else Text("")
            line.append_text(fit(shown, 5, ""))
        return line
