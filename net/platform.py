"""What differs between the operating systems partyhost runs on, in one place.

Everything else in the package imports no POSIX-only (or Windows-only) module;
an import-linter contract holds it. The SSH door's pseudo-terminals are the
other exception: the door runs only where there are pseudo-terminals
(``net/door/doorclients.py``).
"""

from __future__ import annotations

import sys

if sys.platform == "win32":
    import msvcrt

    def lock_exclusively(fd: int) -> bool:
        """Take the lock on ``fd``'s file without waiting; False if another process holds it."""
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:
    import fcntl

    def lock_exclusively(fd: int) -> bool:
        """Take the lock on ``fd``'s file without waiting; False if another process holds it."""
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True
