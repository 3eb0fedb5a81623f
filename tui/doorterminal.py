"""A Textual driver on one visitor's pty, inside the worker's event loop.

Textual's own Linux driver owns the process: it reads ``sys.stdin`` in a
thread and listens for SIGWINCH. A door worker serves several visitors from one
process, so this driver works on the pty it is given, with the event loop's
reader and writer callbacks: no threads, no signals, no blocking writes (a
visitor whose terminal stops reading is hung up once their unsent output passes
a ceiling, instead of stalling the others). Input is metered per visitor, so
a flood of keys or a giant paste costs its sender time, not the other visitors.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import termios
import time
import tty
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from textual import constants, events
from textual._xterm_parser import XTermParser
from textual.app import App
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message

READ_BYTES = 4096
WRITE_BYTES = 65536
INPUT_BYTES_PER_SECOND = 2048.0
"""Sustained input a visitor may send: far above typing and mouse moves, far below a flood."""
INPUT_BURST = 8192.0
MAX_UNSENT = 2 * 1024 * 1024
"""Screen output waiting for a visitor's terminal; past this the visitor is hung up."""
TICK_SECONDS = constants.ESCAPE_DELAY + 0.02
"""After input stops, when a lone Escape is taken as the Escape key."""
KITTY_KEYS = 0b00001 | 0b01000 | 0b10000
"""Kitty keyboard protocol: disambiguate escapes, report all keys and their text."""
START = (
    "\x1b[?1049h"  # alternate screen
    "\x1b[?25l"  # hide the cursor
    "\x1b[?1004h"  # focus in/out reports
    "\x1b[?2026$p"  # ask about synchronized output
    "\x1b[?2004h"  # bracketed paste
    "\x1b[?7l"  # no line wrap
)
MOUSE_ON = "\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"
MOUSE_OFF = "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l"
STOP = (
    "\x1b[?2004l"  # bracketed paste off
    "\x1b[?7h"  # line wrap back on
    "\x1b[<u"  # pop the keyboard protocol
    "\x1b[?1049l"  # main screen
    "\x1b[?25h"  # show the cursor
    "\x1b[?1004l"  # focus reports off
)


@dataclass
class Terminal:
    """One visitor's pty (terminal end), its size, and what to do when it hangs up."""

    fd: int
    size: tuple[int, int]
    on_hangup: Callable[[], None]
    driver: TerminalDriver | None = field(default=None, repr=False)


_TERMINALS: weakref.WeakKeyDictionary[App[Any], Terminal] = weakref.WeakKeyDictionary()


def attach(app: App[Any], terminal: Terminal) -> None:
    """Make ``app`` run on ``terminal`` (before ``run_async``)."""
    _TERMINALS[app] = terminal
    app.driver_class = TerminalDriver


class TerminalDriver(Driver):
    """Drives one app on one pty from the running event loop."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        terminal = _TERMINALS[app]
        super().__init__(app, debug=debug, mouse=mouse, size=size or terminal.size)
        terminal.driver = self
        self.terminal = terminal
        self._fd = terminal.fd
        self._parser = XTermParser()
        self._decode = codecs.getincrementaldecoder("utf-8")(errors="replace").decode
        self._unsent = bytearray()
        self._attrs_before: list[Any] | None = None
        self._reading = False
        self._writing = False
        self._flush_soon: asyncio.Handle | None = None
        self._tick: asyncio.TimerHandle | None = None
        self._resume: asyncio.TimerHandle | None = None
        self._allowance = INPUT_BURST
        self._allowance_at = time.monotonic()
        self._hung_up = False

    # --- output -----------------------------------------------------------------------------

    def write(self, data: str) -> None:
        if self._hung_up:
            return
        self._unsent += data.encode("utf-8", "replace")
        if len(self._unsent) > MAX_UNSENT:
            self._unsent.clear()
            self._hang_up()
            return
        if self._flush_soon is None and not self._writing:
            self._flush_soon = self._loop.call_soon(self.flush)

    def flush(self) -> None:
        self._flush_soon = None
        if self._hung_up or self._writing:
            return
        self._write_some()

    def _write_some(self) -> None:
        while self._unsent:
            with memoryview(self._unsent) as unsent:
                try:
                    written = os.write(self._fd, unsent[:WRITE_BYTES])
                except BlockingIOError:
                    break
                except OSError:
                    written = -1
            if written < 0:
                self._unsent.clear()
                self._hang_up()
                return
            del self._unsent[:written]
        wanted = bool(self._unsent)
        if wanted and not self._writing:
            self._loop.add_writer(self._fd, self._write_some)
        elif not wanted and self._writing:
            self._loop.remove_writer(self._fd)
        self._writing = wanted

    async def drain(self, seconds: float) -> None:
        """Give the last output (the terminal reset) up to ``seconds`` to reach the pty."""
        self.flush()
        deadline = time.monotonic() + seconds
        while self._unsent and not self._hung_up and time.monotonic() < deadline:
            await asyncio.sleep(0.02)

    # --- input ------------------------------------------------------------------------------

    def send_message(self, message: Message) -> None:
        self._app.post_message(message)

    def _on_readable(self) -> None:
        now = time.monotonic()
        self._allowance = min(
            INPUT_BURST, self._allowance + (now - self._allowance_at) * INPUT_BYTES_PER_SECOND
        )
        self._allowance_at = now
        if self._allowance < 1:
            self._pause_input((1 - self._allowance) / INPUT_BYTES_PER_SECOND)
            return
        try:
            data = os.read(self._fd, min(READ_BYTES, int(self._allowance)))
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._hang_up()
            return
        self._allowance -= len(data)
        for event in self._parser.feed(self._decode(data)):
            self.process_message(event)
        if self._tick is not None:
            self._tick.cancel()
        self._tick = self._loop.call_later(TICK_SECONDS, self._on_tick)

    def _on_tick(self) -> None:
        self._tick = None
        for event in self._parser.tick():
            self.process_message(event)

    def _pause_input(self, seconds: float) -> None:
        self._stop_reading()
        self._resume = self._loop.call_later(seconds, self._start_reading)

    def _start_reading(self) -> None:
        self._resume = None
        if not self._reading and not self._hung_up:
            self._loop.add_reader(self._fd, self._on_readable)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._reading:
            self._loop.remove_reader(self._fd)
            self._reading = False
        for handle in (self._resume, self._tick):
            if handle is not None:
                handle.cancel()
        self._resume = self._tick = None

    def _hang_up(self) -> None:
        """The visitor is gone (or stuck): stop all I/O and let the worker end the app."""
        if self._hung_up:
            return
        self._hung_up = True
        self._stop_reading()
        if self._writing:
            self._loop.remove_writer(self._fd)
            self._writing = False
        self.terminal.on_hangup()

    # --- the app's life ---------------------------------------------------------------------

    def resize(self, columns: int, rows: int) -> None:
        """The visitor's window changed size."""
        self.terminal.size = self._size = (columns, rows)
        size = Size(columns, rows)
        self._app.post_message(events.Resize(size, size))

    def start_application_mode(self) -> None:
        with contextlib.suppress(termios.error):
            self._attrs_before = termios.tcgetattr(self._fd)
            raw = termios.tcgetattr(self._fd)
            raw[tty.LFLAG] &= ~(termios.ECHO | termios.ICANON | termios.IEXTEN | termios.ISIG)
            raw[tty.IFLAG] &= ~(
                termios.IXON | termios.IXOFF | termios.ICRNL | termios.INLCR | termios.IGNCR
            )
            raw[tty.CC][termios.VMIN] = 1
            termios.tcsetattr(self._fd, termios.TCSANOW, raw)
        os.set_blocking(self._fd, False)
        columns, rows = self.terminal.size
        self.resize(columns, rows)
        self.write(START)
        if self._mouse:
            self.write(MOUSE_ON)
        if not constants.DISABLE_KITTY_KEY:
            self.write(f"\x1b[>{KITTY_KEYS}u")
        self.flush()
        self._start_reading()

    def disable_input(self) -> None:
        self._stop_reading()
        if self._mouse:
            self.write(MOUSE_OFF)

    def stop_application_mode(self) -> None:
        self.disable_input()
        if self._attrs_before is not None:
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self._fd, termios.TCSANOW, self._attrs_before)
        self.write(STOP)
        self.flush()

    def close(self) -> None:
        if self._flush_soon is not None:
            self._flush_soon.cancel()
            self._flush_soon = None
