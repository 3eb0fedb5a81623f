"""The shared worker's terminal driver: one visitor can neither stall nor flood the others.

A worker serves several visitors in one event loop, so the driver never blocks
on a visitor's pty: output a visitor's terminal does not take piles up only to
a ceiling, then that visitor is hung up; input is metered per visitor.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from typing import Any

from partyhost.tui.doorterminal import (
    INPUT_BURST,
    INPUT_BYTES_PER_SECOND,
    MAX_UNSENT,
    Terminal,
    TerminalDriver,
    attach,
)
from textual import events
from textual.app import App


class Recording(App[None]):
    """An app that is never run: it only collects what its driver posts."""

    def __init__(self) -> None:
        super().__init__()
        self.posted: list[Any] = []

    def post_message(self, message: Any) -> bool:
        self.posted.append(message)
        return True


def driver_on_pty(app: App[Any], hangups: list[bool]) -> tuple[TerminalDriver, int, int]:
    master, terminal = os.openpty()
    attach(app, Terminal(terminal, (80, 24), lambda: hangups.append(True)))
    return TerminalDriver(app), master, terminal


async def test_a_visitor_whose_terminal_stops_reading_is_hung_up_not_waited_for() -> None:
    hangups: list[bool] = []
    driver, master, terminal = driver_on_pty(Recording(), hangups)
    try:
        os.set_blocking(terminal, False)
        frame = "x" * 65536
        for _ in range(2 * MAX_UNSENT // len(frame)):  # nobody reads the master end
            driver.write(frame)
            driver.flush()  # returns at once: the pty is full, the rest waits in memory
            if hangups:
                break
        assert hangups == [True]
        driver.write("more")  # after the hangup, output is dropped, not kept
        assert not driver._unsent
    finally:
        os.close(master)
        os.close(terminal)


async def test_a_flood_of_keys_is_read_no_faster_than_the_meter_allows() -> None:
    app = Recording()
    driver, master, terminal = driver_on_pty(app, [])
    loop = asyncio.get_running_loop()
    os.set_blocking(master, False)
    try:
        driver.start_application_mode()
        started = time.monotonic()
        deadline = started + 1.5
        while time.monotonic() < deadline:  # type as fast as the pty takes it
            try:
                os.write(master, b"a" * 1024)
            except BlockingIOError:
                await asyncio.sleep(0.01)
            with contextlib.suppress(BlockingIOError):
                os.read(master, 65536)  # the screen output, drained
        elapsed = time.monotonic() - started
        keys = sum(isinstance(message, events.Key) for message in app.posted)
        assert 0 < keys <= INPUT_BURST + INPUT_BYTES_PER_SECOND * elapsed
        driver.stop_application_mode()
        await asyncio.sleep(0)
        assert loop.is_running()
    finally:
        driver.close()
        os.close(master)
        os.close(terminal)


async def test_a_window_change_reaches_the_app_as_a_resize() -> None:
    app = Recording()
    driver, master, terminal = driver_on_pty(app, [])
    try:
        driver.resize(132, 43)
        [resize] = [m for m in app.posted if isinstance(m, events.Resize)]
        assert (resize.size.width, resize.size.height) == (132, 43)
    finally:
        os.close(master)
        os.close(terminal)
