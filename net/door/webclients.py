"""A browser visitor's client: a fresh ``partyhost join`` process speaking textual-serve's pipes.

Unlike textual-serve's own, it is started without a shell, isolated, in a private folder,
with an SSH door visitor's bare environment; links and downloads are dropped. No pty is
needed, so this door runs on Windows hosts too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from partyhost.net.door.visitorenv import JOIN_OPTIONS, client_environment, fit_screen
from partyhost.net.platform import CHILD_ENVIRONMENT
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

log = logging.getLogger(__name__)

WEB_CLIENT_START = "import sys\nfrom partyhost.cli import main\nsys.exit(main(sys.argv[1:]))\n"
"""What the isolated interpreter runs: the ordinary command line, given ``join``'s arguments."""
QUIT_SECONDS = 3.0
"""How long a visitor's client may take to quit when asked before it is killed."""
ERRORS_FILE = "client-errors.txt"
"""Where a client's standard error goes, in its private folder (removed with it): never the
host's console."""
ERRORS_SHOWN = 2000
"""How much of a failed client's standard error the door logs."""
WEB_DRIVER = "partyhost.tui.webdriver:VisitorWebDriver"
"""The client's Textual driver (imported by the client, never here): it ends the client once
its page is gone, even if this host is not there to stop it."""


def web_client_command(address: str, *, kept: bool = False, resume: bool = False) -> list[str]:
    """This Python, isolated, to run ``partyhost join`` locked to ``address``; ``kept``: it
    remembers name and seats in its folder, kept for the browser."""
    options = [option for option in JOIN_OPTIONS if not (kept and option == "--no-remember")]
    if resume:
        options.append("--resume")
    return [sys.executable, "-I", "-c", WEB_CLIENT_START, "join", address, *options]


def web_client_environment(home: Path, columns: int, rows: int) -> dict[str, str]:
    """The SSH door's bare environment, plus what the client's web driver needs."""
    return {
        **client_environment(None, {}, home),
        **CHILD_ENVIRONMENT,
        "TEXTUAL_DRIVER": WEB_DRIVER,
        "TEXTUAL_FPS": "60",
        "TEXTUAL_COLOR_SYSTEM": "truecolor",
        "TERM_PROGRAM": "textual",
        "COLUMNS": str(columns),
        "ROWS": str(rows),
    }


class WebVisitorClient(AppService):
    """One browser visitor's client process and the relay of its pipes to the websocket."""

    def __init__(
        self,
        address: str,
        folder: Path,
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        kept: bool = False,
        resume: bool = False,
    ) -> None:
        super().__init__(
            "partyhost join",
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=DownloadManager(),
        )
        self.folder = folder
        self.arguments = web_client_command(address, kept=kept, resume=resume)
        self._stopped = False
        self._starting = False
        self._start_over = asyncio.Event()

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def returncode(self) -> int | None:
        """The client's exit code once it ended (3: its page went away), else None."""
        return self._process.returncode if self._process is not None else None

    async def start(self, width: int, height: int) -> None:
        """As textual-serve starts it; a :meth:`stop` meanwhile waits for the start to end, so
        a client started as the door closes is stopped too."""
        self._starting = True
        try:
            await super().start(width, height)
        finally:
            self._start_over.set()

    async def _open_app_process(
        self, width: int = 80, height: int = 24
    ) -> asyncio.subprocess.Process:
        columns, rows = fit_screen(width, height)
        with (self.folder / ERRORS_FILE).open("wb") as errors:
            self._process = process = await asyncio.create_subprocess_exec(
                *self.arguments,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=errors,
                env=web_client_environment(self.folder, columns, rows),
                cwd=self.folder,
            )
        # textual-serve copies what it reads here to the host's console: it reads nothing.
        quiet = asyncio.StreamReader()
        quiet.feed_eof()
        process.stderr = quiet
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def ended(self) -> None:
        """Until the client's process has ended (it quit, or died), and its screen is read."""
        if self._process is not None:
            await self._process.wait()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.shield(self._task)

    def errors(self) -> str:
        """The end of what the client wrote to its standard error (a traceback, say)."""
        try:
            with (self.folder / ERRORS_FILE).open("rb") as file:
                file.seek(0, 2)
                file.seek(max(0, file.tell() - ERRORS_SHOWN))
                return file.read().decode("utf-8", "replace").strip()
        except OSError:
            return ""

    async def set_terminal_size(self, width: int, height: int) -> None:
        await super().set_terminal_size(*fit_screen(width, height))

    async def on_meta(self, data: bytes) -> None:
        """Only the client's exit reaches the page: no links opened, no files delivered."""
        with contextlib.suppress(ValueError):
            meta = json.loads(data)
            if isinstance(meta, dict) and meta.get("type") == "exit":
                await self.remote_close()

    async def on_packed(self, payload: bytes) -> None:
        """File chunks: dropped (the door delivers no files)."""

    async def stop(self) -> None:
        """Ask the client to quit; kill it if it lingers; wait until it is gone."""
        if self._starting:
            await self._start_over.wait()
        process = self._process
        if process is None or self._stopped:
            return
        self._stopped = True
        # A reader that died with its page (ConnectionError mid-screen) leaves the client's
        # screen pipe unread: the client blocks writing it, reads no input, and its exit is
        # never seen (asyncio waits for the pipe's end). What it still writes is thrown away.
        discard = None
        if process.stdout is not None and (self._task is None or self._task.done()):
            discard = asyncio.ensure_future(_read_to_end(process.stdout))
        if self._task is not None:
            # Bounded: a client blocked writing a screen nobody reads any more (its page cut
            # mid-stream ends the reader) reads no input, and a full pipe would wait forever.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.send_meta({"type": "quit"}), QUIT_SECONDS)
        try:
            await asyncio.wait_for(process.wait(), QUIT_SECONDS)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            task = self._task
            if discard is None and process.stdout is not None and task is not None and task.done():
                discard = asyncio.ensure_future(_read_to_end(process.stdout))  # died meanwhile
            await process.wait()
        if self._task is not None:
            task, self._task = self._task, None
            # The screen's reader may have died with the page (ConnectionError): it is over.
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if discard is not None:
            discard.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await discard
        if process.returncode not in (0, None) and (text := self.errors()):
            log.warning(
                "Web door: client pid %d ended with %s: %s", process.pid, process.returncode, text
            )


async def _read_to_end(stream: asyncio.StreamReader) -> None:
    """Read ``stream`` until it ends, keeping nothing."""
    while await stream.read(2**16):
        pass
