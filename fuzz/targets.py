"""The fuzz targets by name: plain functions, importable and runnable without atheris.

Each target takes the fuzzer's bytes and returns the outcome the host would
reach (a list of per-frame outcomes, or one string). It raises only when a
promise is broken: that exception is what the fuzzer reports as a crash and
what the corpus test reports as a failure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from commandcheck import check_command
from framecheck import check_body, check_frame

TARGETS: dict[str, Callable[[bytes], Any]] = {
    "frame": check_frame,
    "body": check_body,
    "command": check_command,
}
"""Target name -> check. ``frame``: a raw client byte stream; ``body``: one frame body
(framed for you); ``command``: a ``play`` command against a prepared game state."""

__all__ = ["TARGETS", "check_body", "check_command", "check_frame"]
