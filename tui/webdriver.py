"""The browser door's client driver: Textual's web driver that ends when its page is gone.

When the page goes away unasked (its host was killed, say), standard input ends
and writes fail, but the plain driver only stops reading: the client would run on,
holding its seat, with no one to see it. The door names this driver in
``TEXTUAL_DRIVER``, so nothing else imports it.
"""

from __future__ import annotations

import contextlib
import os
import threading
from functools import partial
from typing import Any

from textual.app import App
from textual.drivers.web_driver import WebDriver

PAGE_GONE_CODE = 3
"""The client's exit code when its page went away (its input ended or its output broke)."""
HARD_EXIT_SECONDS = 5.0
"""How long the app has to end once its page is gone before the process ends anyway."""


class VisitorWebDriver(WebDriver):
    """A web driver whose client ends once nothing reads its screen or sends it keys."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self._write_out = self._write
        self._write = partial(self._write_to_page)  # every packet to the page goes through it
        self._gone = threading.Event()
        self._gone_lock = threading.Lock()

    def _write_to_page(self, data: bytes) -> int:
        """Write to the page's pipe; once it is gone (or its write fails), write nothing."""
        if not self._gone.is_set():
            try:
                return self._write_out(data)
            except (OSError, ValueError):  # a broken pipe, or a standard output closed under us
                self.page_went_away()
        return 0

    def run_input_thread(self) -> None:
        """Read the page's input; an end the app did not ask for means the page is gone."""
        try:
            super().run_input_thread()
        finally:
            if not self.exit_event.is_set():
                self.page_went_away()

    def page_went_away(self) -> None:
        """Stop writing, ask the app to exit, and end the process after
        :data:`HARD_EXIT_SECONDS` if it still runs; safe from any thread, more than once."""
        with self._gone_lock:
            if self._gone.is_set():
                return
            self._gone.set()
        if self.exit_event.is_set():
            return  # the app is already ending (the page went away as it said goodbye)
        last_resort = threading.Timer(HARD_EXIT_SECONDS, os._exit, (PAGE_GONE_CODE,))
        last_resort.name = "page-gone-exit"
        last_resort.daemon = True
        last_resort.start()
        with contextlib.suppress(RuntimeError):  # a loop already closed: the last resort
            self._loop.call_soon_threadsafe(self._exit_app)

    def _exit_app(self) -> None:
        self._app.exit(PAGE_GONE_CODE, return_code=PAGE_GONE_CODE)
