"""Turning host frames into app messages: the worker's only real logic, kept pure.

Kept apart from the app so it can be tested without a terminal, and so the
event log (which must survive a newer view replacing an older one in the
message queue) has one owner.
"""

from __future__ import annotations

from typing import Any

from partyhost.tui import messages as m
from textual.message import Message

Frame = dict[str, Any]
LOG_LIMIT = 200


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
            seat = frame.get("seat")
            return m.Joined(str(frame.get("code", "")), seat if isinstance(seat, int) else None)
        if kind == "room":
            return m.RoomUpdated(frame)
        if kind == "view":
            view = frame.get("view")
            if not isinstance(view, dict):
                return None
            self.events.extend(_maps(frame.get("events")))
            del self.events[:-LOG_LIMIT]
            return m.ViewUpdated(view, tuple(self.events))
        if kind == "chat_line":
            return m.ChatReceived(frame)
        if kind == "notice":
            return m.NoticeReceived(str(frame.get("text", "")))
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
        return None


def _maps(value: Any) -> list[Frame]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]
