"""The wire, unit by unit: framing, decoding, validation, and the doc that describes it."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import msgpack
import pytest
from partyhost.engine.playertext import strip_controls
from partyhost.net import protocol as p
from partyhost.net.names import clean_name, name_key, unique_name
from partyhost.net.protocol import FrameDecoder, ProtocolError

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"


def body(value: object) -> bytes:
    return msgpack.packb(value, use_bin_type=True)


def hello(**extra: object) -> dict[str, object]:
    return {"t": "hello", "protocol": p.PROTOCOL_VERSION, "name": "Ann", **extra}


# --- framing -------------------------------------------------------------------


def test_a_frame_is_a_big_endian_length_then_a_msgpack_map() -> None:
    frame = p.encode({"t": "ping", "n": 1})
    assert frame[:4] == struct.pack(">I", len(frame) - 4)
    assert msgpack.unpackb(frame[4:]) == {"t": "ping", "n": 1}


def test_decoder_splits_a_stream_at_any_byte_boundary() -> None:
    frames = b"".join(p.encode({"t": "ping", "n": n}) for n in range(5))
    decoder = FrameDecoder(p.MAX_CLIENT_FRAME)
    bodies = []
    for i in range(len(frames)):
        bodies += decoder.feed(frames[i : i + 1])
    assert [p.decode_body(b)["n"] for b in bodies] == [0, 1, 2, 3, 4]
    assert decoder.pending == 0


def test_oversized_length_is_refused_before_the_body_arrives() -> None:
    decoder = FrameDecoder(p.MAX_CLIENT_FRAME)
    with pytest.raises(ProtocolError) as caught:
        decoder.feed(struct.pack(">I", p.MAX_CLIENT_FRAME + 1))
    assert caught.value.code == "frame_too_large"
    assert caught.value.fatal


def test_frames_before_an_oversized_length_in_the_same_read_are_not_lost() -> None:
    """Found by fuzzing: how the bytes were split into reads changed what was handled."""
    stream = p.encode({"t": "ping", "n": 1}) + struct.pack(">I", p.MAX_CLIENT_FRAME + 1)
    decoder = FrameDecoder(p.MAX_CLIENT_FRAME)
    assert [p.decode_body(body)["n"] for body in decoder.feed(stream)] == [1]
    assert decoder.error is not None and decoder.error.code == "frame_too_large"
    with pytest.raises(ProtocolError):
        decoder.feed(p.encode({"t": "ping", "n": 2}))


def test_a_frame_exactly_at_the_limit_is_fine() -> None:
    decoder = FrameDecoder(16)
    assert decoder.feed(struct.pack(">I", 16) + b"x" * 16) == [b"x" * 16]


@pytest.mark.parametrize(
    "raw",
    [b"\xc1", b"\x81\xa1t", b"", b"\x92\x01"[:1], b"\xdd\xff\xff\xff\xff"],
    ids=["reserved-byte", "truncated-map", "empty", "truncated-array", "huge-array-header"],
)
def test_bad_msgpack_is_a_bad_frame(raw: bytes) -> None:
    with pytest.raises(ProtocolError) as caught:
        p.decode_body(raw)
    assert caught.value.code == "bad_frame"
    assert not caught.value.fatal


def test_ext_types_are_refused() -> None:
    raw = msgpack.packb({"t": "ping", "n": msgpack.ExtType(5, b"boom")})
    with pytest.raises(ProtocolError) as caught:
        p.decode_body(raw)
    assert caught.value.code == "bad_frame"


def test_timestamps_never_pass_validation() -> None:
    for message in (
        {"t": msgpack.Timestamp(1, 0)},
        {"t": "chat", "text": msgpack.Timestamp(1, 0)},
        {"t": "play", "cmd": {"type": "x", "at": msgpack.Timestamp(1, 0)}},
    ):
        with pytest.raises(ProtocolError):
            p.validate_client_message(p.decode_body(msgpack.packb(message)))


@pytest.mark.parametrize(
    "raw",
    [body({1: "x"}), body({"t": "play", "cmd": {"type": "x", 2: 3}}), b"\x81\x92\x01\x02\xa1x"],
    ids=["integer key", "nested integer key", "array key"],
)
def test_maps_with_keys_other_than_text_are_bad_messages(raw: bytes) -> None:
    with pytest.raises(ProtocolError) as caught:
        p.decode_body(raw)
    assert caught.value.code == "bad_message"
    assert "keys must be text" in caught.value.message


def test_broken_msgpack_with_an_integer_key_is_still_a_bad_frame() -> None:
    with pytest.raises(ProtocolError) as caught:
        p.decode_body(body({1: "x"})[:-1])
    assert caught.value.code == "bad_frame"


def test_clients_may_relax_key_strictness_for_host_frames() -> None:
    assert p.decode_body(body({1: "x"}), strict_keys=False) == {1: "x"}


# --- validation ------------------------------------------------------------------


@pytest.mark.parametrize("value", [[1, 2], "hello", 7, None, b"bin"])
def test_a_message_must_be_a_map(value: object) -> None:
    with pytest.raises(ProtocolError) as caught:
        p.validate_client_message(value)
    assert caught.value.code == "bad_message"


def test_a_message_needs_a_text_type() -> None:
    for message in ({"n": 1}, {"t": 5}, {"t": None}):
        with pytest.raises(ProtocolError):
            p.validate_client_message(message)


def test_unknown_types_are_named_in_the_error() -> None:
    with pytest.raises(ProtocolError) as caught:
        p.validate_client_message({"t": "launch_missiles"})
    assert caught.value.code == "unknown_type"
    assert "launch_missiles" in caught.value.message


def test_host_only_types_are_unknown_from_a_client() -> None:
    with pytest.raises(ProtocolError) as caught:
        p.validate_client_message({"t": "welcome"})
    assert caught.value.code == "unknown_type"


def test_deep_nesting_is_refused_without_recursing_deeply() -> None:
    nested: object = "leaf"
    for _ in range(900):
        nested = [nested]
    message = {"t": "play", "cmd": {"type": "x", "deep": nested}}
    decoded = p.decode_body(body(message))
    with pytest.raises(ProtocolError) as caught:
        p.validate_client_message(decoded)
    assert caught.value.code == "too_deep"


def test_nesting_up_to_the_limit_is_fine() -> None:
    nested: object = 1
    for _ in range(p.MAX_DEPTH - 2):
        nested = [nested]
    p.validate_client_message({"t": "play", "cmd": {"type": "x", "a": nested}})


@pytest.mark.parametrize(
    ("message", "field"),
    [
        (hello(protocol="1"), "protocol"),
        (hello(protocol=True), "protocol"),
        (hello(name=5), "name"),
        (hello(name="x" * 201), "name"),
        ({"t": "set_ready", "ready": 1}, "ready"),
        ({"t": "kick", "seat": "0"}, "seat"),
        ({"t": "kick", "seat": 2**60}, "seat"),
        ({"t": "play", "cmd": [1]}, "cmd"),
        ({"t": "play", "cmd": {"type": "x"}, "ref": "r"}, "ref"),
        ({"t": "play", "cmd": {"type": b"bin"}}, "cmd"),
        ({"t": "play", "cmd": {"type": "x", "nested": {1: 2}}}, "cmd"),
        ({"t": "create_room", "game": "g", "options": {"a": b"x"}}, "options"),
        ({"t": "join_room", "code": "ABCD", "spectate": "yes"}, "spectate"),
        ({"t": "chat", "text": "x" * (p.MAX_CHAT_LENGTH * 4 + 1)}, "text"),
    ],
)
def test_wrong_field_types_name_the_field(message: dict[str, object], field: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        p.validate_client_message(message)
    assert caught.value.code == "bad_message"
    assert repr(field) in caught.value.message


def test_missing_required_fields_are_named() -> None:
    with pytest.raises(ProtocolError) as caught:
        p.validate_client_message({"t": "hello", "protocol": 1})
    assert "'name'" in caught.value.message


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(ProtocolError) as caught:
        p.validate_client_message({"t": "list_rooms", "sneaky": 1})
    assert "sneaky" in caught.value.message


def test_every_client_message_accepts_its_minimal_form() -> None:
    minimal = {
        "hello": hello(),
        "ping": {},
        "pong": {},
        "list_rooms": {},
        "list_decks": {},
        "create_room": {"game": "counting"},
        "join_room": {"code": "ACDE"},
        "resume_seat": {"token": "t"},
        "leave_room": {},
        "set_ready": {"ready": True},
        "set_options": {"options": {}},
        "start_game": {},
        "kick": {"seat": 1},
        "add_bot": {},
        "remove_bot": {"seat": 1},
        "replace_with_bot": {"seat": 1},
        "give_ownership": {"seat": 1},
        "pause_game": {},
        "resume_game": {},
        "chat": {"text": "hi"},
        "play": {"cmd": {"type": "x"}},
        "list_past_games": {},
        "get_replay": {"id": 1},
        "get_standings": {},
        "seen": {},
        "reclaim_answer": {"ask": 1, "yes": False},
    }
    assert set(minimal) == set(p.CLIENT_MESSAGES)
    for kind, fields in minimal.items():
        p.validate_client_message({"t": kind, **fields})


def test_protocol_mismatch_error_names_both_versions() -> None:
    frame = p.mismatch_error(99)
    assert frame["code"] == "protocol_mismatch"
    assert f"protocol {p.PROTOCOL_VERSION}" in frame["message"]
    assert "protocol 99" in frame["message"]
    assert (frame["host_protocol"], frame["client_protocol"]) == (p.PROTOCOL_VERSION, 99)


def test_room_codes_use_only_unambiguous_letters() -> None:
    assert not set(p.ROOM_CODE_LETTERS) & set("BGILOQSUVZ0123456789")


# --- names ----------------------------------------------------------------------


def test_escape_sequences_and_controls_are_stripped_from_names() -> None:
    raw = "\x1b[31mEve\x1b[0m\x07\x1b]0;pwned\x07\u202e!"
    assert clean_name(raw, 24) == "Eve!"


def test_markup_is_kept_as_typed() -> None:
    assert clean_name("[red]x[/red]", 24) == "[red]x[/red]"


def test_names_are_length_capped_and_trimmed() -> None:
    assert clean_name("  " + "a" * 40 + "  ", 24) == "a" * 24
    assert clean_name("\x1b[2J\n\t", 24) == "Player"


def test_newlines_become_spaces() -> None:
    assert strip_controls("a\nb\tc") == "a b c"


def test_names_compare_case_insensitively_and_by_compatibility_form() -> None:
    assert name_key("ANN") == name_key("ann") == name_key("\uff21nn")


def test_duplicate_names_get_a_number() -> None:
    assert unique_name("ann", ["Ann", "Ann 2"], 24) == "ann 3"
    assert unique_name("x" * 24, ["x" * 24], 24) == "x" * 22 + " 2"


# --- the document ---------------------------------------------------------------


def test_the_doc_describes_every_message_type_and_error_code() -> None:
    doc = DOC.read_text(encoding="utf-8")
    headings = set(re.findall(r"^### `([a-z_]+)`", doc, flags=re.MULTILINE))
    assert set(p.CLIENT_MESSAGES) | set(p.HOST_MESSAGES) <= headings
    for code in p.ERROR_CODES:
        assert f"`{code}`" in doc, code


def test_the_doc_names_every_host_message_field() -> None:
    doc = DOC.read_text(encoding="utf-8")
    for kind, fields in p.HOST_MESSAGES.items():
        section = doc.split(f"### `{kind}`", 1)[1].split("\n### ", 1)[0]
        for name in fields:
            assert f"`{name}`" in section, (kind, name)


def test_the_docs_example_frame_is_real() -> None:
    doc = DOC.read_text(encoding="utf-8")
    found = re.search(r"```hex\n(.*?)```", doc, flags=re.DOTALL)
    assert found
    raw = bytes.fromhex("".join(found.group(1).split()))
    (length,) = struct.unpack(">I", raw[:4])
    assert length == len(raw) - 4
    assert p.validate_client_message(p.decode_body(raw[4:]))["t"] == "hello"
