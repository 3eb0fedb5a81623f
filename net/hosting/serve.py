"""Running a host as a process (``partyhost serve``, ``python -m partyhost.net``).

What belongs to the process rather than to the :class:`~partyhost.net.hosting.host.Host`:
the start-up text, signals and the console typed into its terminal.
"""

from __future__ import annotations

import asyncio
import sys
from typing import TextIO

from partyhost.net.address import join_instructions
from partyhost.net.config import HostConfig
from partyhost.net.hosting.console import HostConsole, console_input
from partyhost.net.hosting.host import Host
from partyhost.net.platform import on_stop_signals
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
    """Serve until Ctrl+C, SIGTERM or ``quit``, then close gracefully (``partyhost serve``).

    ``console``: take commands typed into this terminal (see :mod:`.console`);
    ``observer``: hears of every room request handled (see :class:`.Observer`).
    """
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    # Before listening: a stop asked for as soon as it listens still cleans up.
    undo_signals = on_stop_signals(loop, stop.set)
    try:
        host = Host(config, observer)
        await host.start()
        instructions = join_instructions(
            config.display_name,
            config.host,
            host.port,
            ssh_port=host.lan.ssh_port if host.lan is not None else None,
            ssh_password=config.ssh_password is not None,
            web_port=host.lan.web_port if host.lan is not None else None,
            discovery=config.discovery,
        )
        print(instructions, flush=True)
        if host.lan is not None and host.lan.web_url is not None:
            print(door_code(host.lan.web_url, sys.stdout), flush=True)
        typed = console_input() if console else None
        if typed is not None and host.lobby is not None:
            HostConsole(host.lobby, stop.set, sys.stdout).start(typed)
            print("Type help for the host's commands (rooms, close CODE, quit).", flush=True)
        try:
            await stop.wait()
        finally:
            await host.close("The host is shutting down; reconnect when it is back.")
            print("partyhost host stopped.", flush=True)
    finally:
        undo_signals()
