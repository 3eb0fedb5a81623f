"""A Python shaped like Windows', so partyhost's real commands can be run that way on Linux.

:func:`windows_shaped_env` writes a ``sitecustomize.py`` (and a small ``msvcrt``)
into a folder and returns an environment whose Pythons start with it. What it
changes, and why each is as close to Windows as a Linux Python can get:

- The POSIX-only modules (``fcntl``, ``termios``, ``tty``, ``pty``, ``pwd``,
  ``grp``, ``resource``) cannot be imported.
- The POSIX-only names partyhost could reach for are gone: job control and
  process groups (``os.tcgetpgrp``, ``os.getpgrp``, ``os.setsid``, ``os.killpg``),
  ``os.fork``, ``os.openpty``, ``os.fchmod`` (missing on Windows before 3.13),
  ``os.getuid`` and friends; ``signal.SIGHUP``, ``SIGUSR1``, ``SIGTTIN``,
  ``SIGTTOU``, ``SIGTSTP``, ``SIGKILL`` and the other signals Windows lacks;
  ``socket.AF_UNIX`` (``socket.socketpair`` then pairs loopback TCP sockets, as
  on Windows).
- The event loop's ``add_signal_handler`` raises ``NotImplementedError``, as
  Windows' loops do.
- Text opened without an encoding is cp1252 (``open``, ``Path.read_text`` and the
  like go through ``io.open``, which is wrapped; ``locale.getpreferredencoding``
  and ``locale.getencoding`` say cp1252), and redirected output is cp1252 with
  strict errors (``PYTHONIOENCODING=cp1252``, ``PYTHONUTF8=0``). Only a locale
  the machine has can change the C-level default of ``io.TextIOWrapper``; Linux
  CI has no cp1252 locale, so that one stays UTF-8.
- ``msvcrt`` exists, with just ``locking`` and its ``LK_*`` modes (built on POSIX
  record locks, taken before ``fcntl`` goes away), for the host's data-folder lock.
  It is put in ``sys.modules`` after ``subprocess`` is imported: Python 3.11's
  ``subprocess`` decides it runs on Windows when ``msvcrt`` imports, and would then
  need ``_winapi``.

What stays Linux: ``sys.platform`` and ``os.name``. Setting ``sys.platform`` to
``win32`` makes ``asyncio`` and ``subprocess`` import ``_overlapped`` and
``_winapi``, which only exist on Windows, so nothing would run at all; partyhost
therefore decides what to do by what a Python has, never by its name
(``partyhost.net.platform``), and this shape tests exactly that. Libraries that
choose their half by ``sys.platform`` get their Linux half: ``platformdirs`` is
imported before ``os.getuid`` goes (its Unix half binds it at import; its Windows
half would need none), and Textual's terminal driver would need ``termios``, so
``play`` runs under Textual's headless driver. ``REUSE_ADDRESS`` is the one
difference still read from ``sys.platform`` (it is about the Windows socket
option's meaning, not about what Python has); a Linux listener refuses a taken
port with or without it, so the taken-port test holds either way.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SITECUSTOMIZE = '''\
"""This Python looks like Windows' to what it runs (tests/windowsshape.py says how and why)."""
import asyncio.unix_events
import builtins
import io
import locale
import os
import signal
import socket
import sys
import warnings

import subprocess  # before msvcrt exists: 3.11's subprocess takes Windows for any msvcrt

import _fake_msvcrt  # beside this file: it takes the real fcntl before fcntl goes

sys.modules["msvcrt"] = _fake_msvcrt

try:  # its Unix half (chosen by sys.platform) binds os.getuid at import; Windows' needs none
    import platformdirs
except ImportError:
    pass

POSIX_ONLY = frozenset({"fcntl", "termios", "tty", "pty", "pwd", "grp", "resource"})


class _WindowsHasNo:
    """A finder that refuses the POSIX-only modules, as Windows' Python has none of them."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name in POSIX_ONLY:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


for _name in POSIX_ONLY:
    sys.modules.pop(_name, None)
sys.meta_path.insert(0, _WindowsHasNo())

for _name in (
    "tcgetpgrp", "tcsetpgrp", "getpgrp", "setpgrp", "getpgid", "setpgid", "setsid", "getsid",
    "fork", "forkpty", "openpty", "killpg", "fchmod", "fchown", "chown", "lchown",
    "getuid", "geteuid", "getgid", "getegid", "setuid", "setgid", "getgroups",
    "pidfd_open", "mkfifo", "ttyname", "ctermid",
):
    if hasattr(os, _name):
        delattr(os, _name)

for _name in (
    "SIGHUP", "SIGQUIT", "SIGKILL", "SIGUSR1", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGCHLD",
    "SIGCLD", "SIGTTIN", "SIGTTOU", "SIGTSTP", "SIGCONT", "SIGSTOP", "SIGWINCH", "SIGIO",
    "SIGPOLL", "SIGPROF", "SIGVTALRM", "SIGXCPU", "SIGXFSZ", "SIGSYS", "SIGTRAP", "SIGBUS",
    "SIGURG", "SIGPWR", "SIGIOT", "SIGSTKFLT", "SIGRTMIN", "SIGRTMAX",
    "alarm", "pause", "setitimer", "getitimer", "siginterrupt", "pthread_kill",
    "pthread_sigmask", "sigpending", "sigwait", "sigwaitinfo", "sigtimedwait",
):
    if hasattr(signal, _name):
        delattr(signal, _name)


def _loopback_socketpair(family=socket.AF_INET, type=socket.SOCK_STREAM, proto=0):
    """Windows' socketpair: two loopback TCP sockets connected to each other."""
    with socket.socket(family, type, proto) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        first = socket.socket(family, type, proto)
        first.connect(listener.getsockname())
        second, _ = listener.accept()
    return first, second


del socket.AF_UNIX
socket.socketpair = _loopback_socketpair


def _no_signal_handlers(self, sig, *args):
    raise NotImplementedError


asyncio.unix_events._UnixSelectorEventLoop.add_signal_handler = _no_signal_handlers
asyncio.unix_events._UnixSelectorEventLoop.remove_signal_handler = _no_signal_handlers

_open = io.open


def _cp1252_by_default(file, mode="r", buffering=-1, encoding=None, *args, **kwargs):
    if "b" not in mode and encoding in (None, "locale"):
        if encoding is None and sys.flags.warn_default_encoding:
            warnings.warn("'encoding' argument not specified", EncodingWarning, stacklevel=2)
        encoding = "cp1252"
    return _open(file, mode, buffering, encoding, *args, **kwargs)


io.open = builtins.open = _cp1252_by_default
locale.getpreferredencoding = lambda do_setlocale=True: "cp1252"
locale.getencoding = lambda: "cp1252"
'''

FAKE_MSVCRT = '''\
"""Just enough of Windows' msvcrt for a file lock, on POSIX record locks (tests only)."""
import fcntl as _fcntl

LK_UNLCK, LK_LOCK, LK_NBLCK, LK_RLCK, LK_NBRLCK = 0, 1, 2, 3, 4


def locking(fd, mode, nbytes):
    """Lock (or unlock) ``nbytes`` from the file's position; a held lock raises, as on Windows."""
    if mode == LK_UNLCK:
        _fcntl.lockf(fd, _fcntl.LOCK_UN, nbytes)
        return
    flags = _fcntl.LOCK_EX | (_fcntl.LOCK_NB if mode in (LK_NBLCK, LK_NBRLCK) else 0)
    try:
        _fcntl.lockf(fd, flags, nbytes)
    except BlockingIOError:
        raise PermissionError(13, "Permission denied") from None
'''

PROBE = """\
import asyncio, importlib, io, json, locale, os, pathlib, signal, socket, sys, tempfile

found = {}
for name in ("fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "msvcrt"):
    try:
        importlib.import_module(name)
    except ModuleNotFoundError:
        found[name] = False
    else:
        found[name] = True
found["os"] = sorted(n for n in ("tcgetpgrp", "getpgrp", "fchmod", "getuid", "fork", "setsid",
                                 "openpty", "killpg") if hasattr(os, n))
found["signal"] = sorted(n for n in ("SIGUSR1", "SIGHUP", "SIGTTIN", "SIGTTOU", "SIGTSTP",
                                     "SIGKILL", "SIGINT", "SIGTERM") if hasattr(signal, n))
found["AF_UNIX"] = hasattr(socket, "AF_UNIX")
first, second = socket.socketpair()
first.sendall(b"x")
found["socketpair"] = [first.family.name, second.recv(1).decode("ascii")]


async def handlers():
    try:
        asyncio.get_running_loop().add_signal_handler(signal.SIGINT, print)
    except NotImplementedError:
        return "NotImplementedError"
    return "added"

found["add_signal_handler"] = asyncio.run(handlers())
with tempfile.TemporaryDirectory() as folder:
    path = pathlib.Path(folder) / "t.txt"
    with open(path, "w") as file:
        found["open"] = file.encoding
        file.write("caf\\u00e9")
    found["bytes"] = path.read_bytes().hex()
    found["read_text"] = path.read_text()
found["preferred"] = locale.getpreferredencoding(False)
found["stdout"] = [sys.stdout.encoding, sys.stdout.errors]
found["platform"] = [sys.platform, os.name]
print(json.dumps(found))
"""

EXPECTED = {
    **dict.fromkeys(("fcntl", "termios", "tty", "pty", "pwd", "grp", "resource"), False),
    "msvcrt": True,
    "os": [],
    "signal": ["SIGINT", "SIGTERM"],
    "AF_UNIX": False,
    "socketpair": ["AF_INET", "x"],
    "add_signal_handler": "NotImplementedError",
    "open": "cp1252",
    "bytes": "636166e9",  # "café" in cp1252
    "read_text": "caf\u00e9",
    "preferred": "cp1252",
    "stdout": ["cp1252", "strict"],
    "platform": ["linux", "posix"],  # see the module's notes
}


def windows_shaped_env(folder: Path, **extra: str) -> dict[str, str]:
    """An environment whose Pythons (unless run with ``-I``) start Windows-shaped."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    (folder / "_fake_msvcrt.py").write_text(FAKE_MSVCRT, encoding="utf-8")
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "TMUX")) and key not in ("LC_ALL", "LC_CTYPE", "LANG")
    }
    env.update(
        PYTHONPATH=str(folder),
        PYTHONUTF8="0",
        PYTHONIOENCODING="cp1252",
        LC_ALL="C.UTF-8",
        TERM="xterm-256color",
    )
    env.update(extra)
    return env


def assert_windows_shaped(env: dict[str, str]) -> None:
    """Fail unless a Python started with ``env`` looks as :data:`EXPECTED` says."""
    probe = subprocess.run(
        [sys.executable, "-c", PROBE],
        env=env,
        capture_output=True,
        encoding="utf-8",
        check=False,
        timeout=60,
    )
    assert probe.returncode == 0, probe.stderr
    assert json.loads(probe.stdout) == EXPECTED
