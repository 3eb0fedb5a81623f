"""Hand-written nasty inputs for the corpus, each with the outcome the docs promise.

Run ``python fuzz/seeds.py`` to (re)write them into ``corpus/``; it stops at
the first input whose outcome differs from the one written here, so these
expectations come from docs/protocol.md and the rulebooks, not from the code.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from typing import Any

import msgpack
from commandcheck import command_input
from corpus import add
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from tables import prepared

Seed = tuple[str, str, bytes, Any, str]
"""(target, file name, input, expected outcome, note)."""

HELLO = {"t": "hello", "protocol": 1, "name": "Ann"}


def pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def frame(body: bytes) -> bytes:
    return p.HEADER.pack(len(body)) + body


def _map(*items: bytes) -> bytes:
    """A raw msgpack map from already packed keys and values (for what packb won't write)."""
    return bytes((0x80 | (len(items) // 2),)) + b"".join(items)


def frame_seeds() -> Iterator[Seed]:
    hello = frame(pack(HELLO))
    yield "frame", "hello.bin", hello, ["ok:hello"], "the docs' example frame"
    yield "frame", "truncated-header.bin", b"\x00\x00\x00", ["partial"], "3 of 4 header bytes"
    yield "frame", "truncated-body.bin", hello[:-3], ["partial"], "the host waits for the rest"
    yield (
        "frame",
        "max-length.bin",
        b"\xff\xff\xff\xff" + b"x" * 8,
        ["fatal:frame_too_large"],
        "2^32-1 announced: refused before any body is read",
    )
    yield (
        "frame",
        "one-over-limit.bin",
        p.HEADER.pack(p.MAX_CLIENT_FRAME + 1),
        ["fatal:frame_too_large"],
        "the header alone is enough to refuse",
    )
    at_limit = pack({"t": "chat", "text": ""})
    at_limit = pack({"t": "chat", "text": "x" * (p.MAX_CLIENT_FRAME - len(at_limit) - 2)})
    yield (
        "frame",
        "at-limit.bin",
        frame(at_limit),
        ["bad_message"],
        f"a {len(at_limit)}-byte frame is read; its text is over the chat cap",
    )
    yield "frame", "empty-body.bin", frame(b""), ["bad_frame"], "length 0: no msgpack at all"
    yield (
        "frame",
        "two-then-oversized.bin",
        hello + frame(pack({"t": "ping", "n": 1})) + b"\x7f\xff\xff\xff",
        ["ok:hello", "ok:ping", "fatal:frame_too_large"],
        "frames before an oversized header are still whole frames",
    )
    yield (
        "frame",
        "extra-bytes-in-frame.bin",
        frame(pack(HELLO) + b"\xc0"),
        ["bad_frame"],
        "one frame, one object: trailing bytes are refused",
    )
    yield (
        "frame",
        "zero-padding.bin",
        b"\x00" * 12,
        ["bad_frame", "bad_frame", "bad_frame"],
        "three empty frames in a row",
    )


def body_seeds() -> Iterator[Seed]:
    deep = b"\x91" * 60_000 + b"\xc0"
    yield "body", "deep-60000.bin", deep, ["bad_frame"], "msgpack's own nesting limit"
    nested: Any = 1
    for _ in range(p.MAX_DEPTH):
        nested = [nested]
    too_deep = pack({"t": "play", "cmd": {"type": "x", "a": nested}})
    yield "body", "deep-play.bin", too_deep, ["too_deep"], "nesting past MAX_DEPTH"
    nested = 1
    for _ in range(p.MAX_DEPTH - 2):
        nested = [nested]
    just_fits = pack({"t": "play", "cmd": {"type": "x", "a": nested}})
    yield "body", "deep-play-limit.bin", just_fits, ["ok:play"], "exactly MAX_DEPTH levels"
    yield (
        "body",
        "array32-huge.bin",
        b"\xdd\xff\xff\xff\xff",
        ["bad_frame"],
        "an array announcing 2^32-1 items in 5 bytes",
    )
    yield "body", "str32-huge.bin", b"\xdb\xff\xff\xff\xffab", ["bad_frame"], "a 4 GiB string"
    yield "body", "map32-huge.bin", b"\xdf\xff\xff\xff\xff", ["bad_frame"], "a 4G-entry map"
    yield "body", "not-utf8.bin", _map(pack("t"), b"\xa2\xff\xfe"), ["bad_frame"], "bad UTF-8"
    yield (
        "body",
        "ext-type.bin",
        _map(pack("t"), pack("hello"), pack("name"), b"\xd4\x05\x00"),
        ["bad_frame"],
        "ext types are refused",
    )
    timestamp = b"\xd6\xff" + struct.pack(">I", 0)
    yield (
        "body",
        "timestamp.bin",
        _map(pack("t"), timestamp),
        ["bad_message"],
        "timestamp ext -1: msgpack decodes it without the ext hook; validation refuses it",
    )
    yield (
        "body",
        "bin-type.bin",
        pack({"t": "hello", "protocol": 1, "name": b"Ann"}),
        ["bad_message"],
        "bin where text is expected",
    )
    yield "body", "bin-t.bin", pack({"t": b"hello"}), ["bad_message"], "the type as bin"
    yield (
        "body",
        "bin-key-t.bin",
        pack({b"t": "hello", "protocol": 1, "name": "Ann"}),
        ["bad_message"],
        "a bin key 't' is not the text key 't'",
    )
    yield "body", "int-key.bin", _map(b"\x01", pack("hello")), ["bad_frame"], "an integer key"
    yield (
        "body",
        "nil-key.bin",
        _map(b"\xc0", pack("x"), pack("t"), pack("ping")),
        ["bad_frame"],
        "a nil key",
    )
    yield "body", "not-a-map.bin", pack(["hello"]), ["bad_message"], "a list, not a map"
    yield "body", "nil.bin", b"\xc0", ["bad_message"], "nil"
    yield "body", "uint64-max.bin", pack({"t": "ping", "n": 2**64 - 1}), ["bad_message"], "2^64-1"
    yield "body", "int64-min.bin", pack({"t": "kick", "seat": -(2**63)}), ["bad_message"], "-2^63"
    yield "body", "bool-int.bin", pack({**HELLO, "protocol": True}), ["bad_message"], "true as 1"
    yield (
        "body",
        "float-version.bin",
        pack({**HELLO, "protocol": 1.0}),
        ["bad_message"],
        "1.0 is not the integer 1",
    )
    nan = b"\xcb\x7f\xf8\x00\x00\x00\x00\x00\x00"
    yield (
        "body",
        "nan-option.bin",
        _map(
            *(pack("t"), pack("create_room"), pack("game"), pack("tshirt")),
            *(pack("options"), b"\x81" + pack("target") + nan),
        ),
        ["ok:create_room"],
        "NaN passes the wire check; every game refuses it as an option (bad_option)",
    )
    yield (
        "body",
        "nan-ping.bin",
        _map(pack("t"), pack("ping"), pack("n"), nan),
        ["bad_message"],
        "NaN is no integer",
    )
    yield (
        "body",
        "float32-inf.bin",
        _map(pack("t"), pack("play"), pack("cmd"), b"\x81" + pack("type") + b"\xca\x7f\x80\0\0"),
        ["ok:play"],
        "a float32 infinity as a command type: the wire check passes it, the game refuses it",
    )
    yield (
        "body",
        "duplicate-t.bin",
        _map(pack("t"), pack("hello"), pack("t"), pack("welcome")),
        ["unknown_type"],
        "a repeated key: the last one counts",
    )
    yield "body", "host-type.bin", pack({"t": "welcome"}), ["unknown_type"], "host-only type"
    yield "body", "long-type.bin", pack({"t": "\U000e0001" * 5000}), ["unknown_type"], "quoted cut"
    yield (
        "body",
        "unknown-fields.bin",
        pack({"t": "list_rooms", **{f"f{i}\x1b[2J": i for i in range(200)}}),
        ["bad_message"],
        "many unknown fields: the error quotes only a few",
    )
    yield (
        "body",
        "escape-chat.bin",
        pack({"t": "chat", "text": "\x1b]0;pwned\x07\x1b[2J\u202ehi\x9b31m\r\n\t!"}),
        ["ok:chat"],
        "accepted, and cleaned of escapes, controls and bidi overrides",
    )
    yield (
        "body",
        "control-name.bin",
        pack({**HELLO, "name": "\x00\x1b[31m\u2066\u200f \x85"}),
        ["ok:hello"],
        "a name of nothing but controls becomes 'Player'",
    )
    yield (
        "body",
        "fullwidth-name.bin",
        pack({**HELLO, "name": "\uff21\uff4e\uff4e\u3000\uff12" * 5}),
        ["ok:hello"],
        "full-width letters, digits and spaces (NFKC folds them)",
    )
    yield (
        "body",
        "options-junk.bin",
        pack({"t": "set_options", "options": {"rotate": [], "hints": {"a": None}, "": 1}}),
        ["ok:set_options"],
        "wire-valid options every game refuses",
    )
    yield (
        "body",
        "options-bin-value.bin",
        pack({"t": "create_room", "game": "meme", "options": {"a": b"x"}}),
        ["bad_message"],
        "bin inside options",
    )


def _command(label: str, seat: int, overlay: Any, *, bot: bool, raw: bytes = b"") -> bytes:
    """A ``command`` input: the state by label, the seat, the seat's bot move or none."""
    tables = prepared()
    index = next(i for i, table in enumerate(tables) if table.label == label)
    table = tables[index]
    base = 0
    if bot:
        view = table.game.view(table.state, seat)
        move = table.game.bot_command(view, Rng(seat + 7), table.now - 0.5)
        base = table.bases.index(move) + 1
    return command_input(index, table.seats.index(seat), base, raw or pack(overlay))


def command_seeds() -> Iterator[Seed]:
    def seed(name: str, data: bytes, expect: str, note: str) -> Seed:
        return "command", name, data, expect, note

    shared = "gridiron/seed11/50%"
    yield seed("no-type.bin", _command(shared, 0, {}, bot=False), "illegal:bad_command", "{}")
    yield seed(
        "int-type.bin", _command(shared, 0, {"type": 5}, bot=False), "illegal:bad_command", "5"
    )
    yield seed(
        "list-cmd.bin", _command(shared, 0, [1, 2], bot=False), "protocol:bad_message", "a list"
    )
    yield seed(
        "int-key-cmd.bin",
        _command(shared, 0, None, bot=False, raw=b"\x82" + pack("type") + pack("x") + b"\x01\x02"),
        "protocol:bad_frame",
        "an integer key inside the command",
    )
    deep: Any = 0
    for _ in range(p.MAX_DEPTH):
        deep = [deep]
    yield seed(
        "deep-cmd.bin",
        _command(shared, 0, {"type": "place", "card": deep}, bot=False),
        "protocol:too_deep",
        "nested past the limit",
    )
    for game, label, seat, field in (
        ("gridiron", "gridiron/seed11/50%", 1, "card"),
        ("stealing-home", "stealing-home/seed11/50%", 1, "card"),
        ("scramble", "scramble/seed11/50%", 0, "card"),
        ("four-corners", "four-corners/seed11/50%", 0, "card"),
        ("tshirt", "tshirt/seed11/25%", 0, "card"),
        ("meme", "meme/seed11/25%", 2, "meme"),
    ):
        for tag, value in (("true", True), ("float", 1.0), ("nan", float("nan")), ("str", "1")):
            yield seed(
                f"{game}-{field}-{tag}.bin",
                _command(label, seat, {field: value}, bot=True),
                "illegal:bad_command" if game != "meme" else "illegal:bad_meme",
                f"the bot's own move with {field} = {value!r}",
            )
        yield seed(
            f"{game}-player-sends-seat-left.bin",
            _command(label, seat, {"type": "seat_left", "seat": seat ^ 1}, bot=False),
            "illegal:not_host" if game not in ("tshirt", "meme") else "illegal:unknown_command",
            "a player may not speak for the host",
        )
    for game, label, seat in (
        ("gridiron", "gridiron/seed11/50%", 1),
        ("stealing-home", "stealing-home/seed11/50%", 1),
        ("four-corners", "four-corners/seed11/50%", 0),
    ):
        yield seed(
            f"{game}-off-table.bin",
            _command(label, seat, {"x": 61}, bot=True),
            "illegal:off_table",
            "x past the table's edge",
        )
        yield seed(
            f"{game}-turned-str.bin",
            _command(label, seat, {"turned": "yes"}, bot=True),
            "illegal:bad_command",
            "'turned' must be a boolean",
        )
    yield seed(
        "gridiron-stale.bin",
        _command("gridiron/seed11/50%", 1, {"v": -1}, bot=True),
        "illegal:stale",
        "a versioned command naming another version",
    )
    yield seed(
        "gridiron-huge-card.bin",
        _command("gridiron/seed11/50%", 1, {"card": 2**64 - 1}, bot=True),
        "illegal:not_in_hand",
        "uint64 max passes the wire check (no bound inside commands)",
    )
    yield seed(
        "meme-bets-junk.bin",
        _command("meme/seed11/50%", 1, {"bets": [{"seat": 0.5, "amount": 1}]}, bot=True),
        "illegal:bad_bets",
        "a bet with a fractional seat",
    )
    yield seed(
        "meme-stale-turn.bin",
        _command("meme/seed11/25%", 2, {"turn": [1]}, bot=True),
        "illegal:stale",
        "a turn that is a list",
    )
    yield seed(
        "tshirt-stranger.bin",
        _command("tshirt/seed11/25%", 6, {"type": "submit", "card": 0}, bot=False),
        "illegal:not_seated",
        "a seat nobody sits in",
    )
    yield seed(
        "host-joins-stranger-gridiron.bin",
        _command("gridiron/seed11/50%", -1, {"type": "seat_joined", "seat": 6}, bot=False),
        "illegal:no_joining",
        "gridiron takes no one mid-game",
    )


def found_seeds() -> Iterator[Seed]:
    """Inputs the fuzzers found, rebuilt from what they mean so they survive state changes."""
    tables = prepared()
    index = next(i for i, t in enumerate(tables) if t.label == "gridiron/seed11/25%")
    table = tables[index]
    base = table.bases.index({"type": "seat_away", "seat": 0}) + 1
    overlay = pack({"type": "place", "card": [[[[[0]]]]]})
    yield (
        "command",
        "gsm-host-sends-place.bin",
        command_input(index, table.seats.index(-1), base, overlay),
        "illegal:unknown_command",
        "found: the host seat sending a non-system type made every Game, Set, Match! variant "
        "emit an event evolve does not know (ValueError); fixed in engine/gsm/rules.py",
    )


def main() -> None:
    kept = 0
    every = (*frame_seeds(), *body_seeds(), *command_seeds(), *found_seeds())
    for target, name, data, expect, note in every:
        add(target, data, name, note, expect)
        kept += 1
    print(f"kept {kept} hand-written inputs")


if __name__ == "__main__":
    main()
