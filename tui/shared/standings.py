"""The night's standings as the lobby shows them: who played what, who won, points and money.

Only presentation: the host adds the results up (``standings``). Names are
other people's text, so they go through ``literal``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from partyhost.tui.text import Glyphs, clean, literal, shorten
from rich.table import Table
from rich.text import Text

Frame = dict[str, Any]
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
    standings: Frame | None, glyphs: Glyphs, titles: Mapping[str, str], rows: int = MAX_ROWS
) -> Table | Text:
    """Tonight's table, best first, or one line saying nobody has finished a game yet."""
    players = [row for row in (standings or {}).get("rows", []) if isinstance(row, dict)]
    if not players:
        return Text("No game has finished tonight yet.", "dim")
    table = Table(box=None, padding=(0, 1), show_edge=False, expand=True)
    table.add_column("Tonight", no_wrap=True, min_width=NAME_WIDTH)
    for heading in ("Won", "Played", "Points", "Money"):
        table.add_column(heading, justify="right", no_wrap=True, min_width=len(heading))
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
        table.add_row(
            name,
            str(row.get("won", 0)),
            str(row.get("played", 0)),
            "-" if row.get("points") is None else str(row["points"]),
            "-" if row.get("money") is None else f"${row['money']}",
            literal(games, "dim"),
        )
    if len(players) > rows:
        table.add_row(Text(f"and {len(players) - rows} more", "dim"), "", "", "", "", "")
    return table
