"""The client against a real host on loopback, in this process: the host, Ann's app, a wait.

The host and its bots run on the test's own event loop, so a wait pauses the
app's pilot (letting both run) and fails after a timeout with the screen it saw.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

from partyhost.net.hosting.host import Host, HostConfig
from partyhost.tui.app import PartyApp
from partyhost.tui.play import QuickGame
from partyhost.tui.shared.moment import RoundResultScreen
from textual.pilot import Pilot
from tuikit.pilot import screen_text

LOOPBACK = "127.0.0.1"


def host_config(**overrides: Any) -> HostConfig:
    """A loopback host on a free port whose bots play at once, unless ``overrides`` say else."""
    config = HostConfig(host=LOOPBACK, port=0, bot_delay=(0.0, 0.0), host_name="test host")
    return replace(config, **overrides)


@contextlib.asynccontextmanager
async def loopback_host(**overrides: Any) -> AsyncIterator[Host]:
    """A started host (see :func:`host_config`), closed on the way out."""
    host = Host(host_config(**overrides))
    await host.start()
    try:
        yield host
    finally:
        await host.close()


def ann_app(port: int, quick: QuickGame | None = None) -> PartyApp:
    """Ann's client for the host on ``port``, unanimated; with ``quick``, straight into a game."""
    return PartyApp(
        address=f"{LOOPBACK}:{port}",
        name="Ann",
        animate=False,
        remember=False,
        on_welcome=None if quick is None else quick.attach,
    )


async def wait_until(
    pilot: Pilot[int],
    condition: Callable[[], object],
    seconds: float = 8,
    *,
    read_results: bool = False,
) -> None:
    """Pause until ``condition()`` holds (the host and its bots run on this same loop).

    With ``read_results``, a round's result that comes up meanwhile is read and put away
    with Enter first, as a player does, so the table goes on.
    """
    for _ in range(int(seconds / 0.05)):
        if read_results and isinstance(pilot.app.screen, RoundResultScreen):
            await pilot.press("enter")
        elif condition():
            return
        await pilot.pause(0.05)
    raise AssertionError(f"timed out waiting; screen was:\n{screen_text(pilot.app)}")
