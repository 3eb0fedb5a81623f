"""``partyhost party``: a LAN host with its doors open, and the host's own client locked to it.

The way in for friends is printed before the client takes the terminal; quitting the
client ends the party, so it asks first while friends are connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, TextIO

from partyhost.net.address import lan_address, local_address, web_url, with_port
from partyhost.net.names import written_name
from partyhost.net.qrdrawing import blocks_fit, draw_qr
from partyhost.tui.app import PartyApp
from partyhost.tui.play import BOT_DELAY, QuickGame, running_host, until_interrupted
from partyhost.tui.shared.dialogs import ConfirmScreen

if TYPE_CHECKING:
    from partyhost.net.config import HostConfig
    from partyhost.net.hosting.host import Host
    from rich.console import RenderableType

PARTY_LOG = "party.log"
"""The host's warnings and errors during ``partyhost party``, in the state folder: the
client owns the terminal."""


def join_lines(
    host_name: str,
    address: str,
    port: int,
    *,
    ssh_port: int | None,
    ssh_password: bool,
    web_port: int | None,
    ssh_off: str | None = None,
    web_code: Sequence[str] = (),
) -> str:
    """What friends type (or open) to join, one line per way in, then how the party ends
    (``ssh_off``: why this system has no SSH door)."""
    lines = [f"partyhost party: the host {host_name!r} is open. Friends join with:"]
    lines.append(f"  partyhost join {with_port(address, port)}")
    if ssh_port is not None:
        how = "the party password" if ssh_password else "no password"
        lines.append(f"  ssh -t -p {ssh_port} NAME@{address}   (NAME: their name; {how})")
    if web_port is not None:
        lines.append(f"  http://{with_port(address, web_port)}/   (in a browser: phones too)")
        lines.extend(web_code)
    if ssh_off is not None:
        lines.append(f"No SSH door: {ssh_off}.")
    lines.append("The party stops when you quit your client.")
    return "\n".join(lines)


def party_code(listen_host: str, web_port: int | None, out: TextIO) -> list[str]:
    """The web door's URL as a QR code a phone's camera reads off this terminal (none
    without the door); ASCII where ``out`` cannot write half blocks."""
    if web_port is None:
        return []
    url = web_url(listen_host, web_port)
    return draw_qr(url, ascii_only=not blocks_fit(getattr(out, "encoding", None)))


def stop_question(friends: int) -> str:
    """The question before quitting ends the party for ``friends`` other people."""
    who = "1 friend is" if friends == 1 else f"{friends} friends are"
    return f"{who} still at the table: stop the party?"


class HostingApp(PartyApp):
    """The host's own client: quitting stops the host, so with friends connected it asks
    (in :meth:`exit`, which every way out goes through)."""

    def __init__(self, friends: Callable[[], int], **options: Any) -> None:
        super().__init__(**options)
        self.friends = friends
        """How many other people are connected to the host right now."""
        self._stop_agreed = False

    def exit(
        self,
        result: int | None = None,
        return_code: int = 0,
        message: RenderableType | None = None,
    ) -> None:
        friends = self.friends()
        if self._stop_agreed or friends <= 0:
            super().exit(result, return_code, message)
            return
        if isinstance(self.screen, StopPartyScreen):
            return  # already asking

        def answered(stop: bool | None) -> None:
            if stop:
                self._stop_agreed = True
                super(HostingApp, self).exit(result, return_code, message)

        self.push_screen(StopPartyScreen(stop_question(friends), "Stop the party"), answered)


class StopPartyScreen(ConfirmScreen):
    """The question before the host's client quits and takes the party with it."""


def friends_connected(host: Host, player: str) -> int:
    """People connected to ``host`` besides the host's own client, which said hello as
    ``player`` (door visitors count too: each door session is a client of the host)."""
    greeted = [connection for connection in host.connections if connection.greeted]
    hello = written_name(player, host.config.max_name_length)
    own = any(connection.written_name == hello for connection in greeted)
    return len(greeted) - own


async def enter_pressed(stream: TextIO) -> None:
    """Wait for a line on ``stream`` without holding up the host on this loop (a daemon
    thread reads it, so a Ctrl+C meanwhile still ends the process)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def finish() -> None:
        if not done.done():
            done.set_result(None)

    def read() -> None:
        with contextlib.suppress(OSError, ValueError):
            stream.readline()
        with contextlib.suppress(RuntimeError):  # the loop has closed meanwhile
            loop.call_soon_threadsafe(finish)

    threading.Thread(target=read, name="waiting for Enter", daemon=True).start()
    await done


ClientRunner = Callable[[PartyApp], Awaitable[object]]


async def host_party(
    config: HostConfig,
    table: QuickGame | None,
    player: str,
    *,
    ascii_only: bool = False,
    wait: Callable[[], Awaitable[None]] | None = None,
    out: TextIO,
    ssh_off: str | None = None,
    run_client: ClientRunner | None = None,
) -> int:
    """Run the host and, once ``wait`` returns, the host's client (``table`` makes its room);
    stop both when it quits. ``run_client`` runs the app (by default full screen)."""
    farewell = "The party is over: its host stopped."
    async with running_host(replace(config, bot_delay=BOT_DELAY), PARTY_LOG, farewell) as host:
        lan = host.lan
        web_port = lan.web_port if lan is not None else None
        print(
            join_lines(
                config.display_name,
                lan_address(config.host),
                host.port,
                ssh_port=lan.ssh_port if lan is not None else None,
                ssh_password=config.ssh_password is not None,
                web_port=web_port,
                ssh_off=ssh_off,
                web_code=party_code(config.host, web_port, out),
            ),
            file=out,
            flush=True,
        )
        if wait is not None:
            print("Press Enter to sit down at the table.", file=out, flush=True)
            await wait()
        app = HostingApp(
            lambda: friends_connected(host, player),
            address=with_port(local_address(config.host), host.port),
            name=player,
            ascii_only=ascii_only,
            remember=False,
            locked=True,
            on_welcome=None if table is None else table.attach,
        )
        await (app.run_async() if run_client is None else run_client(app))
    return app.return_code or 0


def run_party(
    config: HostConfig,
    table: QuickGame | None,
    player: str,
    *,
    ascii_only: bool,
    wait: bool,
    ssh_off: str | None,
    stdin: TextIO,
    out: TextIO,
) -> int:
    """``partyhost party``: returns the exit code (OSError if the host cannot listen)."""
    return until_interrupted(
        host_party(
            config,
            table,
            player,
            ascii_only=ascii_only,
            wait=partial(enter_pressed, stdin) if wait else None,
            out=out,
            ssh_off=ssh_off,
        )
    )
