"""What the host kept: its past games (a running one's replay is the host's to refuse), and
the night's standings as the lobby shows them."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import ClassVar

from partyhost.tui.shared.base import PartyScreen, TitleBar
from partyhost.tui.shared.footer import KeyFooter, is_upright
from partyhost.tui.text import Frame, Glyphs, clean, literal, shorten
from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

PLAYERS_WIDTH = 40
COLUMNS = (
    ("Ended", "ended", 11),
    ("Game", "game", 18),
    ("Room", "room", 4),
    ("Players", "players", PLAYERS_WIDTH),
)
UPRIGHT_COLUMNS = (("Ended\nRoom", "ended", 9), ("Game\nPlayers", "game", 28))
"""Upright (43 columns, 41 inside the margins): the same cells two to a column, a game on
two lines. A game's number is not shown: it is 16 digits (random), and Enter opens the game."""
Columns = Sequence[tuple[str, str, int]]
"""Each column's label, key and width."""


class UprightTable(DataTable[Text]):
    """A table of rows with two sets of columns: one line a row, or on a phone held upright
    two lines a row (two cells to a column) under ``upright``."""

    def __init__(self, wide: Columns, upright: Columns, *, id: str) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.layouts = (wide, upright)
        """The columns by ``self.upright``: wide first."""
        self.upright: bool | None = None
        """Whether the columns are the upright ones (None: not laid out yet)."""

    def lay_out(self) -> bool:
        """The columns for the app's width now; True if they changed (the rows go with them)."""
        upright = is_upright(self.app)
        if upright == self.upright:
            return False
        self.upright = upright
        self.clear(columns=True)
        self.header_height = 2 if upright else 1
        for label, key, width in self.layouts[upright]:
            self.add_column(label, key=key, width=width)
        return True

    def add_cells(self, cells: Sequence[Text], key: str) -> None:
        self.add_row(*cells, key=key, height=2 if self.upright else 1)


class PastGamesTable(UprightTable):
    """Enter (or a click) on a row opens that game's replay."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select_cursor", "Watch")]


def ended_text(game: Frame) -> Text:
    if game.get("status") != "over":
        return Text("playing", "yellow")
    moment = game.get("ended")
    shown = time.strftime("%a %H:%M", time.localtime(moment)) if moment else "?"
    return Text(shown)


def players_text(game: Frame, ellipsis: str) -> Text:
    """``Ann*, Bob, Bot 1`` with the winners starred (names as typed, cut to fit)."""
    winners = {r.get("seat") for r in game.get("results", []) if r.get("won")}
    names = [
        clean(p.get("name", "")) + ("*" if p.get("seat") in winners else "")
        for p in game.get("players", [])
        if isinstance(p, dict)
    ]
    return literal(shorten(", ".join(names), PLAYERS_WIDTH, ellipsis))


class PastGamesScreen(PartyScreen):
    """Every game the host kept, newest first; Enter watches the highlighted one."""

    KIND = "past_games"
    AUTO_FOCUS = "#past-games"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "refresh", "Refresh"),
        Binding("escape", "back", "Back"),
    ]

    def compose(self) -> ComposeResult:
        yield TitleBar("past games", id="title")
        with Vertical(id="past-body"):
            yield Static(
                "Finished games, newest first (* won). Enter watches one again with every"
                " hand shown.",
                classes="hint",
            )
            yield PastGamesTable(COLUMNS, UPRIGHT_COLUMNS, id="past-games")
            yield Static("", id="past-empty", classes="empty")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(PastGamesTable).lay_out()
        self.watch(self.app, "past_games", self._show_games)
        self.action_refresh()

    def on_resize(self) -> None:
        tables = self.query(PastGamesTable)  # none once swapped out or closing: nothing to lay out
        if tables and tables.first().lay_out():
            self._show_games()

    def _show_games(self) -> None:
        table = self.query_one(PastGamesTable)
        table.clear()
        ellipsis = self.glyphs.ellipsis
        for game in self.party.past_games:
            title = clean(game.get("game_name") or game.get("game", ""))
            room = Text(str(game.get("room", "")))
            players = players_text(game, ellipsis)
            if table.upright:  # two lines a game: ended over room, game over players
                width = UPRIGHT_COLUMNS[1][2]
                cells = [
                    Text.assemble(ended_text(game), "\n", room),
                    Text.assemble(
                        literal(shorten(title, width, ellipsis)),
                        "\n",
                        literal(shorten(players.plain, width, ellipsis)),
                    ),
                ]
            else:
                game_cell = literal(shorten(title, COLUMNS[1][2], ellipsis))
                cells = [ended_text(game), game_cell, room, players]
            table.add_cells(cells, str(game.get("id")))
        empty = self.query_one("#past-empty", Static)
        empty.display = not self.party.past_games
        empty.update("No game has been played on this host yet.")

    def action_refresh(self) -> None:
        if self.party.link == "online":
            self.party.requests.list_past_games()

    def action_back(self) -> None:
        self.dismiss()

    @on(DataTable.RowSelected, "#past-games")
    def _row_chosen(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        game = next((g for g in self.party.past_games if str(g.get("id")) == key), None)
        if game is not None:
            self.party.open_replay(int(game["id"]))


# --- tonight's standings: the host adds the results up (``standings``) ---------------

MAX_ROWS = 6
"""Players the lobby lists (the best); the rest are counted."""
NAME_WIDTH = 14


def short_titles(welcome: Frame | None) -> dict[str, str]:
    """Each game's short title from the host's welcome: "Scramble", not its whole name."""
    titles: dict[str, str] = {}
    for game in (welcome or {}).get("games", []):
        if isinstance(game, dict) and isinstance(game.get("id"), str):
            titles[game["id"]] = str(game.get("name") or game["id"]).rsplit(" - ", 1)[-1]
    return titles


def game_title(game: object, titles: Mapping[str, str]) -> str:
    """A game's short title; from its id ("four-corners": "Four corners") if the host named none."""
    return titles.get(str(game)) or str(game).replace("-", " ").capitalize()


def standings_table(
    standings: Frame | None,
    glyphs: Glyphs,
    titles: Mapping[str, str],
    rows: int = MAX_ROWS,
    *,
    narrow: bool = False,
) -> Table | Text:
    """Tonight's table, best first, or a line saying no game has finished; ``narrow`` (a phone
    held upright) drops the games played and the games one by one."""
    players = [row for row in (standings or {}).get("rows", []) if isinstance(row, dict)]
    if not players:
        return Text("No game has finished tonight yet.", "dim")
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=True)
    table.add_column("Tonight", no_wrap=True, min_width=NAME_WIDTH)
    headings = ("Won", "Points", "Money") if narrow else ("Won", "Played", "Points", "Money")
    for heading in headings:
        table.add_column(heading, justify="right", no_wrap=True, min_width=len(heading))
    if not narrow:
        table.add_column("By game (won/played)", no_wrap=True, overflow="ellipsis", ratio=1)
    for row in players[:rows]:
        name = literal(shorten(clean(row.get("name", "")), NAME_WIDTH, glyphs.ellipsis), "bold")
        if row.get("bot"):
            name.append(f" {glyphs.bot}", "dim")
        games = ", ".join(
            f"{game_title(g.get('game'), titles)} {g.get('won', 0)}/{g.get('played', 0)}"
            for g in row.get("games", [])
            if isinstance(g, dict)
        )
        points = "-" if row.get("points") is None else str(row["points"])
        money = "-" if row.get("money") is None else f"${row['money']}"
        if narrow:
            table.add_row(name, str(row.get("won", 0)), points, money)
        else:
            played = str(row.get("played", 0))
            table.add_row(
                name, str(row.get("won", 0)), played, points, money, literal(games, "dim")
            )
    if len(players) > rows:
        blanks = [""] * (3 if narrow else 5)
        table.add_row(Text(f"and {len(players) - rows} more", "dim"), *blanks)
    return table
