"""Turning host frames into app messages: the worker's only real logic, kept pure.

Kept apart from the app so it can be tested without a terminal, and so the
event log (which must survive a newer view replacing an older one in the
message queue) has one owner. The host's notices ("Ann lost connection.")
go into that log too, between the game's events.
"""

from __future__ import annotations

from typing import Any

from partyhost.tui import messages as m
from textual.message import Message

Frame = dict[str, Any]
LOG_LIMIT = 200
NOTICE = "notice"
"""The key of a host notice in the game log (a game's events have a ``kind`` instead)."""


class FrameReader:
    """Maps frames to messages and keeps the room's game event log."""

    def __init__(self) -> None:
        self.events: list[Frame] = []

    def read(self, frame: Frame) -> Message | None:
        kind = frame.get("t")
        if kind == "connection":
            return m.ConnectionChanged(str(frame.get("state", "")), str(frame.get("detail", "")))
        if kind == "rooms":
            return m.RoomsListed(_maps(frame.get("rooms")))
        if kind == "joined":
            self.events = []
            seat, token = frame.get("seat"), frame.get("token")
            return m.Joined(
                str(frame.get("code", "")),
                seat if isinstance(seat, int) else None,
                token if isinstance(token, str) else None,
            )
        if kind == "room":
            return m.RoomUpdated(frame)
        if kind == "view":
            view = frame.get("view")
            if not isinstance(view, dict):
                return None
            self.events.extend(_maps(frame.get("events")))
            del self.events[:-LOG_LIMIT]
            now = frame.get("now")
            clock = (
                float(now) if isinstance(now, int | float) and not isinstance(now, bool) else None
            )
            return m.ViewUpdated(view, tuple(self.events), clock)
        if kind == "chat_line":
            return m.ChatReceived(frame)
        if kind == "notice":
            text = str(frame.get("text", ""))
            self.events.append({NOTICE: text})
            del self.events[:-LOG_LIMIT]
            return m.NoticeReceived(text, tuple(self.events))
        if kind == "decks":
            return m.DecksListed(_maps(frame.get("decks")))
        if kind == "error":
            return m.HostError(
                str(frame.get("code", "error")),
                str(frame.get("message", "")),
                tuple(_maps(frame.get("problems"))),
            )
        if kind == "left":
            self.events = []
            return m.LeftRoom(str(frame.get("reason", "")))
        if kind == "bye":
            return m.HostClosing(str(frame.get("reason", "")))
        if kind == "past_games":
            return m.PastGamesListed(_maps(frame.get("games")))
        if kind == "standings":
            return m.StandingsShown(frame)
        if kind == "replay":
            return _replay_page(frame)
        return None


def _maps(value: Any) -> list[Frame]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


def _replay_page(frame: Frame) -> Message | None:
    game_id, first, total, info = (frame.get(key) for key in ("id", "first", "total", "info"))
    if not (isinstance(game_id, int) and isinstance(first, int) and isinstance(total, int)):
        return None
    return m.ReplayPage(
        game_id, info if isinstance(info, dict) else {}, first, _maps(frame.get("steps")), total
    )
