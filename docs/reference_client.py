"""A whole partyhost client in one file: plays The T-Shirt Game against the host's bots.

Only the Python standard library and msgpack (``pip install msgpack``). It
follows docs/protocol.md and docs/games-wire.md and nothing else:

    python reference_client.py HOST PORT [--name Ann] [--bots 2] [--target 500]

It connects, says hello, opens a room, seats bots, starts the game and then
plays whatever its view offers (every T-Shirt template is a complete command)
until the room's status is "over". It prints what happens as it goes and
exits 0 when the game has ended.
"""

from __future__ import annotations

import argparse
import random
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
        self.stream = self.sock.makefile("rb")

    def send(self, message: dict[str, Any]) -> None:
        body = msgpack.packb(message, use_bin_type=True)
        self.sock.sendall(struct.pack(">I", len(body)) + body)

    def receive(self) -> dict[str, Any]:
        """The next frame; pings are answered here and never returned."""
        while True:
            header = self.stream.read(4)
            if len(header) < 4:
                raise ConnectionError("the host closed the connection")
            (length,) = struct.unpack(">I", header)
            # Host maps have text keys; relaxed key rules cost nothing and are robust.
            frame = msgpack.unpackb(self.stream.read(length), raw=False, strict_map_key=False)
            if frame.get("t") == "ping":
                self.send({"t": "pong", "n": frame.get("n", 0)})
                continue
            return dict(frame)

    def expect(self, kind: str) -> dict[str, Any]:
        """The next frame of type ``kind``; an error on the way is fatal here."""
        while True:
            frame = self.receive()
            if frame["t"] == "error":
                raise RuntimeError(f"{frame['code']}: {frame['message']}")
            if frame["t"] == kind:
                return frame

    def close(self) -> None:
        self.stream.close()
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
    while status != "over":
        frame = conn.receive()
        kind = frame["t"]
        if kind == "room":
            status = frame["status"]
        elif kind == "error":
            print(f"Refused ({frame['code']}): {frame['message']}")
        elif kind == "view":
            view = frame["view"]
            for event in frame["events"]:
                line = describe(event)
                if line:
                    print(line)
            winners = view["winners"]
            if view["legal"]:
                ref += 1
                choice = chooser.choice(view["legal"])  # a complete command: sent as is
                conn.send({"t": "play", "cmd": choice, "ref": ref})
        elif kind == "notice":
            print(f"* {frame['text']}")
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
