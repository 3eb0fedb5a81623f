"""Running a host as a process (``partyhost serve``, ``python -m partyhost.net``).

What belongs to the process rather than to the :class:`~partyhost.net.hosting.host.Host`:
the start-up text, signals, and the console: ``rooms``, ``close CODE``, ``quit`` and
``help`` typed into its terminal. Console lines are read by a daemon thread and run on
the event loop; only a pipe or a terminal with this process in the foreground is read
(from ``/dev/null`` or a file, a service or ``serve &``, there is nothing to type).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
import threading
from collections.abc import Callable
from typing import TextIO

from partyhost.net.address import join_instructions
from partyhost.net.config import HostConfig
from partyhost.net.hosting.host import Host
from partyhost.net.hosting.lobby import Lobby
from partyhost.net.platform import in_front_of_terminal, keep_reading_in_background, on_stop_signals
from partyhost.net.qrdrawing import blocks_fit, draw_qr
from partyhost.net.rooms.roomqueue import Observer


def door_code(url: str, out: TextIO) -> str:
    """The browser door's URL and its QR code, for a phone pointed at the host's terminal.

    Half blocks where ``out`` can write them, else ASCII (a cp1252 or ASCII terminal).
    """
    drawing = draw_qr(url, ascii_only=not blocks_fit(getattr(out, "encoding", None)))
    return "\n".join([f"Phones and browsers join at {url}", *drawing])


async def run_host(
    config: HostConfig, console: bool = False, observer: Observer | None = None
) -> None:
    """Serve until Ctrl+C, SIGTERM or ``quit``, then close gracefully (``partyhost serve``),
    with a ``console`` for commands typed into this terminal (:class:`HostConsole`)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    # Before listening: a stop asked for as soon as it listens still cleans up.
    undo_signals = on_stop_signals(loop, stop.set)
    try:
        host = Host(config, observer)
        await host.start()
        lan, lobby = host.lan, host.lobby
        assert lan is not None and lobby is not None, "a started host has both"
        instructions = join_instructions(
            config.display_name,
            config.host,
            host.port,
            ssh_port=lan.ssh_port,
            ssh_password=config.ssh_password is not None,
            web_port=lan.web_port,
            discovery=config.discovery,
        )
        print(instructions, flush=True)
        if lan.web_url is not None:
            print(door_code(lan.web_url, sys.stdout), flush=True)
        typed = console_input() if console else None
        if typed is not None:
            HostConsole(lobby, stop.set, sys.stdout).start(typed)
            print("Type help for the host's commands (rooms, close CODE, quit).", flush=True)
        try:
            await stop.wait()
        finally:
            await host.close("The host is shutting down; reconnect when it is back.")
            print("partyhost host stopped.", flush=True)
    finally:
        undo_signals()


HELP = """Host commands:
  rooms        list the open rooms
  close CODE   close a room: everyone in it goes back to the lobby
  quit         stop the host (like Ctrl-C)
  help         this list"""


class HostConsole:
    """Reads commands for ``host`` and answers on ``out``; ``quit`` calls ``stop``."""

    def __init__(self, host: Lobby, stop: Callable[[], None], out: TextIO) -> None:
        self._host = host
        self._stop = stop
        self._out = out

    def start(self, stream: TextIO) -> None:
        """Read ``stream`` in a daemon thread until it ends; each line runs on this loop."""
        loop = asyncio.get_running_loop()
        thread = threading.Thread(
            target=self._read, args=(stream, loop), name="host console", daemon=True
        )
        thread.start()

    def _read(self, stream: TextIO, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            try:
                line = stream.readline()
            except (OSError, ValueError):  # EIO in the background, or stdin closed
                return
            if not line:
                return
            try:
                loop.call_soon_threadsafe(self.handle, line)
            except RuntimeError:  # the loop has closed: the host is gone
                return

    def handle(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        command, arguments = words[0].lower(), words[1:]
        if command in ("help", "?"):
            self._say(HELP)
        elif command == "rooms":
            self._say(self._rooms())
        elif command == "close" and len(arguments) == 1:
            self._close(arguments[0])
        elif command == "close":
            self._say("Usage: close CODE (the room's four letters; `rooms` lists them).")
        elif command in ("quit", "exit", "stop"):
            self._say("Stopping the host...")
            self._stop()
        else:
            self._say(f"Unknown command {words[0]!r}; type help for the list.")

    def _rooms(self) -> str:
        rooms = self._host.room_listing()
        if not rooms:
            return "No open rooms."
        lines = []
        for room in rooms:
            owner = room.get("owner_name") or "nobody"
            creator = room.get("creator") or "unknown (made before a restart)"
            lines.append(
                f"{room['code']}  {room['game_name']}, {room['status']},"
                f" {room['seats']}/{room['max_seats']} seats, {room['spectators']} watching,"
                f" owner {owner}, created from {creator}"
            )
        return "\n".join(lines)

    def _close(self, code: str) -> None:
        code = code.upper()
        if self._host.close_room(code):
            self._say(f"Closing room {code}: everyone in it goes back to the lobby.")
        else:
            self._say(f"No open room has the code {code}; `rooms` lists them.")

    def _say(self, text: str) -> None:
        with contextlib.suppress(OSError, ValueError):
            print(text, file=self._out, flush=True)


def console_input(stream: TextIO | None = None) -> TextIO | None:
    """Stdin if someone can type commands into it, else None (see the module's notes)."""
    stream = sys.stdin if stream is None else stream
    if stream is None:
        return None
    try:
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError):
        return None
    if os.isatty(fd):
        if not in_front_of_terminal(fd):
            return None
        keep_reading_in_background()
        return stream
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return stream
    return None
