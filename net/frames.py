"""Frame bytes: the length header, one message's frame, and the view frames of a change.

Every frame is a 4-byte big-endian length, then one msgpack map. The host
sends most frames with :func:`encode`; the views of one change go out as
:class:`ViewFrames`, which packs what the seats' views share only once.
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Mapping, Sequence
from typing import Any, Final

import msgpack
from partyhost.net.messages import VIEW

HEADER: Final = struct.Struct(">I")


def encode(message: dict[str, Any]) -> bytes:
    """One frame: length prefix plus the msgpack map."""
    body = msgpack.packb(message, use_bin_type=True)
    return HEADER.pack(len(body)) + body


def _map_header(size: int) -> bytes:
    if size < 16:
        return bytes((0x80 | size,))
    if size < 0x10000:
        return b"\xde" + size.to_bytes(2, "big")
    return b"\xdf" + size.to_bytes(4, "big")


def _array_header(size: int) -> bytes:
    if size < 16:
        return bytes((0x90 | size,))
    if size < 0x10000:
        return b"\xdc" + size.to_bytes(2, "big")
    return b"\xdd" + size.to_bytes(4, "big")


class ViewFrames:
    """The ``view`` frames of one change, one per seat, packing what the seats share once.

    After a change every seat gets its own view, but most of a view is the
    same objects in every seat's copy (a game builds its public parts once per
    state). Keys whose values are the very same object in every view are
    packed once; per seat only the other values are packed. Events shown alike
    to several seats are packed once too. Each frame is byte for byte
    ``encode(message)`` of the message it stands for:
    ``{"t": "view", "version": ..., "view": ..., "events": ..., "now": ...}``.
    """

    def __init__(self, version: int, views: Sequence[dict[str, Any]], now: float) -> None:
        self._pack = msgpack.Packer(use_bin_type=True).pack
        self._head = _map_header(5) + self._items(["t", VIEW, "version", version, "view"])
        self._events_key: bytes = self._pack("events")
        self._tail = self._items(["now", now])
        self._events: dict[int, bytes] = {}
        self._views = list(views)
        self._planned: set[int] = set()
        self._map_header = b""
        self._slots: list[tuple[bytes, str]] = []
        """Per key that differs between views: the packed shared items before it, then it."""
        self._rest = b""
        """The packed shared items after the last key that differs."""
        if len(views) > 1:
            self._plan(views)

    def _items(self, items: list[Any]) -> bytes:
        """The packed items back to back: a list's packing without its header."""
        packed: bytes = self._pack(items)
        return packed[len(_array_header(len(items))) :]

    def _plan(self, views: Sequence[dict[str, Any]]) -> None:
        first, others = views[0], views[1:]
        keys = list(first)
        if any(list(view) != keys for view in others):
            return  # views of different shapes: each is packed whole
        values = list(first.values())
        same: Any = [True] * len(values)
        for view in others:
            same = list(map(operator.and_, same, map(operator.is_, values, view.values())))
        if not any(same):
            return
        pending: list[Any] = []
        for key, value, shared in zip(keys, values, same, strict=True):
            pending.append(key)
            if shared:
                pending.append(value)
            else:
                self._slots.append((self._items(pending), key))
                pending = []
        self._rest = self._items(pending)
        self._map_header = _map_header(len(keys))
        self._planned = {id(view) for view in views}

    def _view(self, view: dict[str, Any]) -> list[bytes]:
        if id(view) not in self._planned:
            return [self._pack(view)]
        pack = self._pack
        parts = [self._map_header]
        for before, key in self._slots:
            parts.append(before)
            parts.append(pack(view[key]))
        parts.append(self._rest)
        return parts

    def event(self, index: int, kind: str, data: Mapping[str, Any]) -> bytes:
        """Event ``index`` as every seat without private fields sees it, packed once."""
        packed = self._events.get(index)
        if packed is None:
            packed = self._events[index] = self._pack({"kind": kind, **data})
        return packed

    def pack(self, value: Any) -> bytes:
        """``value`` packed on its own (an event only one seat sees that way)."""
        packed: bytes = self._pack(value)
        return packed

    def frame(self, view: dict[str, Any], events: Sequence[bytes]) -> bytes:
        """One seat's frame: its view (one of those given) and its events, each packed.

        Pack events with :meth:`event` (shown alike to several seats) or :meth:`pack`.
        """
        parts = [b"", self._head, *self._view(view), self._events_key, _array_header(len(events))]
        parts.extend(events)
        parts.append(self._tail)
        parts[0] = HEADER.pack(sum(map(len, parts)))
        return b"".join(parts)
