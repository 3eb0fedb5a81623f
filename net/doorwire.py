"""What the door, its session server and its workers say to each other.

Every message is one JSON object in one ``SOCK_SEQPACKET`` datagram, so
message boundaries come for free and descriptors (the visitor's pty, the
session's own socket) travel with the message that explains them.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE = 64 * 1024
HANGUP_SECONDS = 3.0
"""How long a visitor's client may take to end after a hangup before it is killed."""

Message = dict[str, Any]


def encode(message: Message) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


def decode(data: bytes) -> Message:
    """One message; anything but a JSON object reads as an empty one."""
    try:
        message = json.loads(data)
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


def send_quietly(channel: socket.socket, message: Message) -> bool:
    """Send without blocking; False if the peer is gone or not reading."""
    try:
        channel.send(encode(message), socket.MSG_DONTWAIT)
    except OSError:
        return False
    return True


def seqpacket_pair() -> tuple[socket.socket, socket.socket]:
    return socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)


@dataclass(frozen=True)
class Request:
    """One visitor's client: which host, what name, which environment and folder."""

    address: str
    name: str
    env: dict[str, str]
    folder: str

    @classmethod
    def parse(cls, message: Message) -> Request | None:
        address, name = message.get("address"), message.get("name")
        env, folder = message.get("env"), message.get("folder")
        if not (isinstance(address, str) and isinstance(name, str) and isinstance(folder, str)):
            return None
        if not (isinstance(env, dict) and all(isinstance(v, str) for v in env.values())):
            return None
        return cls(address, name, {str(k): v for k, v in env.items()}, folder)

    def message(self) -> Message:
        return {"address": self.address, "name": self.name, "env": self.env, "folder": self.folder}

    def arguments(self) -> list[str]:
        """``partyhost`` arguments for this client: this host only, nothing kept on disk."""
        return [
            "join",
            self.address,
            f"--name={self.name}",
            "--no-discovery",
            "--no-remember",
            "--locked",
        ]


def close_quietly(*fds: int) -> None:
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
