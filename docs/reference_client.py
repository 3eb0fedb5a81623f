"""A whole partyhost client in one file: plays The T-Shirt Game against the host's bots.

Only the Python standard library and msgpack; written from docs/protocol.md and
docs/games-wire.md alone. ``python reference_client.py HOST PORT [--target 500]``
opens a room, seats bots, starts, then plays what its view offers (every T-Shirt
template is a complete command) until the room is "over"; it exits 0 then.
"""

from __future__ import annotations

import argparse
import random
import select
import socket
import struct
import sys
from typing import Any

import msgpack

PROTOCOL = 1


class Connection:
    """Frames over TCP: a 4-byte big-endian length, then one msgpack map."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.buffer = b""

    def send(self, message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        self.sock.sendall(struct.pack(">I", len(body)) + body)

    def pending(self) -> bool:
        """Whether more bytes from the host are already here (a newer view, say)."""
        return bool(self.buffer) or bool(select.select([self.sock], [], [], 0)[0])

    def receive(self) -> dict[str, Any]:
        """The next frame; pings are answered here and never returned."""
        while True:
            while len(self.buffer) < 4 or len(self.buffer) < 4 + self._length():
                data = self.sock.recv(65536)
                if not data:
                    raise ConnectionError("the host closed the connection")
                self.buffer += data
            end = 4 + self._length()
            body, self.buffer = self.buffer[4:end], self.buffer[end:]
            # Host maps have text keys; relaxed key rules cost nothing and are robust.
            frame = msgpack.unpackb(body, raw=False, strict_map_key=False)
            if frame.get("t") == "ping":
                self.send({"t": "pong", "n": frame.get("n", 0)})
                continue
            return dict(frame)

    def _length(self) -> int:
        length: int = struct.unpack(">I", self.buffer[:4])[0]
        return length

    def expect(self, kind: str) -> dict[str, Any]:
        """The next frame of type ``kind``; an error on the way is fatal here."""
        while True:
            frame = self.receive()
            if frame["t"] == "error":
                raise RuntimeError(f"{frame['code']}: {frame['message']}")
            if frame["t"] == kind:
                return frame

    def close(self) -> None:
        self.sock.close()


def describe(event: dict[str, Any]) -> str | None:
    """One line for the events worth telling a person about."""
    kind = event["kind"]
    if kind == "round_started":
        return f"Round {event['round']}: seat {event['judge']} judges."
    if kind == "picked":
        return f"Seat {event['winner']} wins the round with: {event['text']}"
    if kind == "game_over":
        return f"Game over ({event['reason']})."
    return None


def play(conn: Connection, name: str, bots: int, target: int, seed: int) -> list[int]:
    """Set up a room and play to the end; returns the winners' seats."""
    conn.send({"t": "hello", "protocol": PROTOCOL, "name": name, "client": "reference/1.0"})
    welcome = conn.expect("welcome")
    print(f"Connected to {welcome['host']} (protocol {welcome['protocol']}).")
    conn.send({"t": "create_room", "game": "tshirt", "options": {"target": target}})
    joined = conn.expect("joined")
    print(f"Room {joined['code']}, seat {joined['seat']}.")
    for _ in range(bots):
        conn.send({"t": "add_bot"})
        conn.expect("room")
    conn.send({"t": "start_game"})
    chooser, ref, status, winners = random.Random(seed), 0, "lobby", []
    latest: dict[str, Any] = {}  # the newest view frame
    waiting = False  # a play is on its way: its `accepted` or `error` has not come yet
    played = -1  # the view version the last play was chosen from
    while status != "over":
        frame = conn.receive()
        kind = frame["t"]
        if kind == "room":
            status = frame["status"]
        elif kind == "accepted" and frame["ref"] == ref:
            waiting = False
        elif kind == "error":
            waiting = waiting and frame.get("ref") != ref
            print(f"Refused ({frame['code']}): {frame['message']}")
        elif kind == "notice":
            print(f"* {frame['text']}")
        elif kind == "view":
            latest, winners = frame, frame["view"]["winners"]
            for event in frame["events"]:
                line = describe(event)
                if line:
                    print(line)
        legal = latest["view"]["legal"] if latest else []
        # Choose from the newest view only: with more frames already here, read them first.
        if legal and not waiting and latest["version"] != played and not conn.pending():
            ref, waiting, played = ref + 1, True, latest["version"]
            choice = chooser.choice(legal)  # a complete command: sent as is
            conn.send({"t": "play", "cmd": choice, "ref": ref})
    return list(winners)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("host")
    parser.add_argument("port", type=int)
    parser.add_argument("--name", default="Ann")
    parser.add_argument("--bots", type=int, default=2)
    parser.add_argument("--target", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds of silence allowed")
    args = parser.parse_args(argv)
    conn = Connection(args.host, args.port, args.timeout)
    try:
        winners = play(conn, args.name, args.bots, args.target, args.seed)
    finally:
        conn.close()
    print(f"The game is over; winners: {winners}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
