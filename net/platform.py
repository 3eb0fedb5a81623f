"""What differs between the operating systems partyhost runs on, in one place.

Each difference is decided by what the running Python has (a module, a
function, a signal), not by the system's name, so the tests can run the
Windows paths on POSIX.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import importlib
import importlib.util
import os
import signal
import struct
import sys
from collections.abc import Callable
from types import FrameType, ModuleType
from typing import Any

_fcntl: ModuleType | None
try:
    import fcntl as _fcntl
except ImportError:  # Windows: file locks come from msvcrt instead
    _fcntl = None


WINDOWS = sys.platform == "win32"

REUSE_ADDRESS = not WINDOWS
"""Whether the host's listening socket sets ``SO_REUSEADDR``. On POSIX it only lets a
restarted host listen again at once; on Windows it would let a second host take the
same port silently, so there it stays off."""

PSEUDO_TERMINALS = (
    _fcntl is not None
    and hasattr(os, "openpty")
    and hasattr(os, "killpg")
    and hasattr(signal, "SIGHUP")
    and importlib.util.find_spec("termios") is not None
)
"""Whether the SSH door can run here: each visitor's client needs a pseudo-terminal
of its own, which Windows does not have."""

CHILD_ENVIRONMENT: dict[str, str] = {
    name: os.environ[name] for name in ("SYSTEMROOT",) if name in os.environ
}
"""What a door visitor's client, started with a bare environment, must still inherit: on
Windows, Python cannot open a socket without ``SYSTEMROOT`` (no other system sets it)."""

_ADDRESS_IN_USE = {errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", errno.EADDRINUSE)}


def lock_exclusively(fd: int) -> bool:
    """Take the lock on ``fd``'s file without waiting; False if another process holds it."""
    try:
        if _fcntl is not None:
            _fcntl.flock(fd, _fcntl.LOCK_EX | _fcntl.LOCK_NB)
        else:
            msvcrt: Any = importlib.import_module("msvcrt")  # typed only on Windows
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def address_in_use(error: OSError) -> bool:
    """Whether ``error`` says the port asked for is taken (each system has its own number)."""
    return error.errno in _ADDRESS_IN_USE or getattr(error, "winerror", None) == 10048


def on_stop_signals(
    loop: asyncio.AbstractEventLoop, stop: Callable[[], None]
) -> Callable[[], None]:
    """Call ``stop`` on the loop when the process is asked to stop (Ctrl+C, ``kill`` where
    there is one, Ctrl+Break on Windows); returns what undoes it. The loop's own signal
    handling where it has one (POSIX); else (Windows' event loops) Python's signal handlers,
    which hand the stop to the loop."""
    names = ("SIGINT", "SIGTERM", "SIGBREAK")
    signums = [getattr(signal, name) for name in names if hasattr(signal, name)]
    undo = contextlib.ExitStack()
    try:
        for signum in signums:
            loop.add_signal_handler(signum, stop)
            undo.callback(loop.remove_signal_handler, signum)
    except NotImplementedError:
        undo.close()
    else:
        return undo.close

    def handle(signum: int, frame: FrameType | None) -> None:
        loop.call_soon_threadsafe(stop)

    for signum in signums:
        try:
            undo.callback(signal.signal, signum, signal.signal(signum, handle))
        except (OSError, ValueError):  # not the main thread, or not a signal Python may catch
            continue
    return undo.close


def in_front_of_terminal(fd: int) -> bool:
    """Whether this process may read the terminal ``fd`` (it is not a background job); where
    there is no job control (Windows), a process that has a terminal is in front."""
    if not hasattr(os, "tcgetpgrp"):
        return True
    try:
        return os.tcgetpgrp(fd) == os.getpgrp()
    except OSError:
        return False


def keep_reading_in_background() -> None:
    """Sent to the background later, a terminal read fails (EIO) instead of stopping us
    (nothing to do where there is no job control: no ``SIGTTIN``)."""
    if hasattr(signal, "SIGTTIN"):
        signal.signal(signal.SIGTTIN, signal.SIG_IGN)


def set_terminal_size(fd: int, columns: int, rows: int) -> None:
    """Tell the pseudo-terminal ``fd`` its window size (TIOCSWINSZ); only where
    :data:`PSEUDO_TERMINALS` is true."""
    assert _fcntl is not None, "pseudo-terminals need fcntl"
    termios = importlib.import_module("termios")
    _fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def owned_by_this_user(info: os.stat_result) -> bool:
    """Whether a file belongs to the user running partyhost; where files carry no owner
    number (Windows: ``os.getuid`` is missing), every file in our own folders does."""
    getuid = getattr(os, "getuid", None)
    return getuid is None or info.st_uid == getuid()


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` still runs. Where signal 0 does not merely ask (Windows, where
    ``os.kill`` ends the process), every process counts as alive: nothing is swept."""
    if WINDOWS or not hasattr(signal, "SIGHUP"):
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
