"""Run the example transcripts of the docs against a live host.

A transcript is a fenced block tagged ``transcript`` in a docs page. Each line
is one frame on one client's connection (the client is named first and
connects on its first line):

* ``Ann → {...}``: Ann sends this message (JSON), or ``Ann → hex: 00 00 ...``
  sends these bytes as they are;
* ``Ann ← {...}``: the next frame Ann receives (the host's pings aside) must
  match: every key shown has the value shown, keys not shown may be there too;
  arrays match item by item (a last item ``"…"`` allows more); ``1`` and
  ``1.0`` differ (integers and floats are distinct msgpack types);
  ``"<name>"`` takes any value and remembers it, so later ``"<name>"`` in a
  frame to send or to match stands for that value; ``"…"`` matches anything;
  a key whose value is ``"(absent)"`` must not be there at all;
* ``Ann ← closed``: the host closes Ann's connection;
* ``Ann → close``: Ann closes her connection (a new name is a new connection);
* lines starting with ``#`` are comments; an indented line continues the one
  before it.

Every frame received must also keep to its declaration
(``partyhost.net.protocol.host_problems``), and when the transcript ends no
client may have received a frame it does not list.
"""

from __future__ import annotations

import asyncio
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from partyhost.net import protocol as p
from rawwire import RawClient

BLOCK = re.compile(r"^```transcript\n(.*?)^```", re.DOTALL | re.MULTILINE)
LINE = re.compile(r"^(?P<who>\w+) (?P<arrow>→|←) (?P<what>.*)$", re.DOTALL)
VARIABLE = re.compile(r"^<(\w+)>$")
MORE = "…"
ABSENT = "(absent)"


@dataclass(frozen=True)
class Line:
    who: str
    sends: bool
    what: str
    number: int


def transcripts(path: Path) -> list[tuple[int, list[Line]]]:
    """Every transcript block of a page: its first line number and its lines."""
    text = path.read_text(encoding="utf-8")
    found = []
    for match in BLOCK.finditer(text):
        first = text[: match.start()].count("\n") + 2
        found.append((first, _lines(match.group(1), first)))
    return found


def _lines(block: str, first: int) -> list[Line]:
    lines: list[Line] = []
    for offset, raw in enumerate(block.splitlines()):
        if not raw.strip() or raw.startswith("#"):
            continue
        if raw[0].isspace():
            last = lines[-1]
            lines[-1] = Line(last.who, last.sends, last.what + " " + raw.strip(), last.number)
            continue
        parsed = LINE.match(raw)
        if parsed is None:
            raise ValueError(f"line {first + offset}: not a transcript line: {raw!r}")
        sends = parsed.group("arrow") == "→"
        lines.append(Line(parsed.group("who"), sends, parsed.group("what"), first + offset))
    return lines


class Mismatch(AssertionError):
    pass


class Run:
    """One transcript played against a host on ``port``."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.clients: dict[str, RawClient] = {}
        self.matched: dict[str, int] = {}
        self.values: dict[str, Any] = {}

    async def play(self, lines: list[Line]) -> None:
        try:
            for line in lines:
                try:
                    await self._step(line)
                except (Mismatch, TimeoutError, ValueError) as failure:
                    raise Mismatch(f"line {line.number} ({line.who}): {failure}") from None
            await asyncio.sleep(0.3)
            for who, client in self.clients.items():
                extra = client.received[self.matched[who] :]
                if extra:
                    raise Mismatch(f"{who} also received, unlisted: {extra}")
        finally:
            for client in self.clients.values():
                await client.close()

    async def _client(self, who: str) -> RawClient:
        if who not in self.clients:
            self.clients[who] = await RawClient.open(self.port)
            self.matched[who] = 0
        return self.clients[who]

    async def _step(self, line: Line) -> None:
        client = await self._client(line.who)
        if line.sends:
            if line.what == "close":
                unlisted = client.received[self.matched[line.who] :]
                if unlisted:
                    raise Mismatch(f"unlisted frames before closing: {unlisted}")
                await client.close()
            elif line.what.startswith("hex:"):
                await client.send_bytes(bytes.fromhex(line.what[4:].replace(" ", "")))
            else:
                await client.send(self._fill(json.loads(line.what)))
            return
        index = self.matched[line.who]
        if line.what == "closed":
            await client.wait_closed()
            if len(client.received) > index:
                raise Mismatch(f"unlisted frames before closing: {client.received[index:]}")
            return
        frame = await client.next(index)
        self.matched[line.who] = index + 1
        problems = p.host_problems(frame)
        if problems:
            raise Mismatch(f"{frame} breaks its declaration: {problems}")
        self._match(json.loads(line.what), frame, "frame")

    def _fill(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {key: self._fill(item) for key, item in value.items()}
        if isinstance(value, list):
            return [self._fill(item) for item in value]
        if isinstance(value, str) and (found := VARIABLE.match(value)):
            return self.values[found.group(1)]
        return value

    def _match(self, expected: Any, got: Any, where: str) -> None:
        if expected == MORE:
            return
        if isinstance(expected, str) and (found := VARIABLE.match(expected)):
            name = found.group(1)
            if name in self.values and self.values[name] != got:
                raise Mismatch(f"{where}: {got!r}, not the {name} seen before")
            self.values.setdefault(name, got)
            return
        if isinstance(expected, dict):
            if not isinstance(got, dict):
                raise Mismatch(f"{where}: expected a map, got {got!r}")
            for key, item in expected.items():
                if item == ABSENT:
                    if key in got:
                        raise Mismatch(f"{where}: {key!r} should not be there: {got!r}")
                    continue
                if key not in got:
                    raise Mismatch(f"{where}: no {key!r} in {got!r}")
                self._match(item, got[key], f"{where}.{key}")
            return
        if isinstance(expected, list):
            self._match_list(expected, got, where)
            return
        if type(expected) is not type(got) or expected != got:
            raise Mismatch(f"{where}: expected {expected!r}, got {got!r}")

    def _match_list(self, expected: list[Any], got: Any, where: str) -> None:
        if not isinstance(got, list):
            raise Mismatch(f"{where}: expected an array, got {got!r}")
        open_ended = bool(expected) and expected[-1] == MORE
        items = expected[:-1] if open_ended else expected
        if len(got) < len(items) or (not open_ended and len(got) != len(items)):
            raise Mismatch(f"{where}: expected {len(items)} items, got {got!r}")
        for index, item in enumerate(items):
            self._match(item, got[index], f"{where}[{index}]")
