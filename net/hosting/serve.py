"""Running a host as a process (``partyhost serve``, ``python -m partyhost.net``).

What belongs to the process rather than to the :class:`~partyhost.net.hosting.host.Host`:
the start-up text, signals and the console typed into its terminal.
"""

from __future__ import annotations

import asyncio
import sys

from partyhost.net.address import join_instructions
from partyhost.net.config import HostConfig
from partyhost.net.hosting.console import HostConsole, console_input
from partyhost.net.hosting.host import Host
from partyhost.net.platform import on_stop_signals
from partyhost.net.rooms.roomqueue import Observer


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
