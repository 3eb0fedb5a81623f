"""net/platform.py: each difference between the systems, both ways, in this process."""

from __future__ import annotations

import asyncio
import errno
import os
import signal
from pathlib import Path

import pytest
from partyhost.net import platform


def test_a_taken_port_is_recognised_by_either_systems_number() -> None:
    assert platform.address_in_use(OSError(errno.EADDRINUSE, "in use"))
    windows = OSError(errno.EADDRINUSE, "in use")
    windows.winerror = 10048  # type: ignore[attr-defined]
    assert platform.address_in_use(windows)
    assert not platform.address_in_use(OSError(errno.EACCES, "denied"))


def test_the_lock_is_held_once(tmp_path: Path) -> None:
    path = tmp_path / "host.lock"
    first = os.open(path, os.O_RDWR | os.O_CREAT)
    second = os.open(path, os.O_RDWR)
    try:
        assert platform.lock_exclusively(first)
        assert not platform.lock_exclusively(second)  # flock: per open file, even here
    finally:
        os.close(first)
        os.close(second)


async def test_stop_signals_use_the_loops_handlers_where_it_has_them() -> None:
    stopped = asyncio.Event()
    undo = platform.on_stop_signals(asyncio.get_running_loop(), stopped.set)
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(stopped.wait(), 5)
    finally:
        undo()


async def test_stop_signals_fall_back_to_pythons_handlers_where_the_loop_has_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    loop = asyncio.get_running_loop()

    def not_here(*args: object) -> None:
        raise NotImplementedError

    monkeypatch.setattr(loop, "add_signal_handler", not_here)
    before = signal.getsignal(signal.SIGTERM)
    stopped = asyncio.Event()
    undo = platform.on_stop_signals(loop, stopped.set)
    try:
        assert signal.getsignal(signal.SIGTERM) != before
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(stopped.wait(), 5)
    finally:
        undo()
    assert signal.getsignal(signal.SIGTERM) == before


def test_without_job_control_a_terminal_is_in_front(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "tcgetpgrp")
    monkeypatch.delattr(signal, "SIGTTIN")
    assert platform.in_front_of_terminal(0)
    platform.keep_reading_in_background()  # nothing to ignore, and no AttributeError


def test_this_system_can_open_the_ssh_door() -> None:
    assert platform.PSEUDO_TERMINALS  # Linux and macOS: what the door's tests run on
