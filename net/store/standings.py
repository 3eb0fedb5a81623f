"""The night's standings: every player's results added up across the games they finished.

Players are joined the way seats are (:func:`~partyhost.net.names.name_key`):
"Ann" at one table and "ANN" at the next are one row, shown with the name
they used last. People and bots with the same name stay apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ResultRow:
    """One seat's result in one finished game, in the order the games ended."""

    game: str
    name: str
    name_key: str
    bot: bool
    won: bool
    points: int | None
    money: int | None


@dataclass
class Standing:
    """One player's night: games played and won per game, points and money in total."""

    name: str
    bot: bool
    played: dict[str, int] = field(default_factory=dict)
    won: dict[str, int] = field(default_factory=dict)
    points: int | None = None
    """Points summed over the games that keep points (None: no such game played)."""
    money: int | None = None
    """Money summed over the games played for money (None: no such game played)."""

    @property
    def games_played(self) -> int:
        return sum(self.played.values())

    @property
    def games_won(self) -> int:
        return sum(self.won.values())

    def add(self, result: ResultRow) -> None:
        self.name = result.name
        self.played[result.game] = self.played.get(result.game, 0) + 1
        if result.won:
            self.won[result.game] = self.won.get(result.game, 0) + 1
        if result.points is not None:
            self.points = (self.points or 0) + result.points
        if result.money is not None:
            self.money = (self.money or 0) + result.money

    def describe(self) -> dict[str, Any]:
        """The row on the wire (``standings``); per-game counts are lists of ``{game, ...}``."""
        return {
            "name": self.name,
            "bot": self.bot,
            "played": self.games_played,
            "won": self.games_won,
            "games": [
                {"game": game, "played": count, "won": self.won.get(game, 0)}
                for game, count in sorted(self.played.items())
            ],
            "points": self.points,
            "money": self.money,
        }


def standings(results: Iterable[ResultRow]) -> list[Standing]:
    """Rows for the results given (in the order games ended), best night first: by games won,
    points, money, then fewest games played (more wins of fewer games rank higher), name."""
    rows: dict[tuple[str, bool], Standing] = {}
    for result in results:
        key = (result.name_key, result.bot)
        row = rows.get(key)
        if row is None:
            row = rows[key] = Standing(result.name, result.bot)
        row.add(result)
    return sorted(
        rows.values(),
        key=lambda row: (
            -row.games_won,
            -(row.points or 0),
            -(row.money or 0),
            row.games_played,
            row.name.casefold(),
        ),
    )
