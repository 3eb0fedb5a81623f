"""Every transcript in the docs, played against a live host, gets the answers shown.

The transcripts are the fenced ``transcript`` blocks of docs/protocol.md (how
to read them: tests/transcripts.py and the page itself). Each runs against a
fresh host on loopback with the default limits and bots too slow to move.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from nethelpers import running_host
from partyhost.net import protocol as p
from transcripts import Line, Run, transcripts

DOCS = Path(__file__).resolve().parent.parent / "docs"
FOUND = [
    (page, first, lines) for page in ("protocol.md",) for first, lines in transcripts(DOCS / page)
]


def test_the_docs_have_transcripts() -> None:
    assert len(FOUND) >= 4


@pytest.mark.parametrize(
    ("page", "first", "lines"), FOUND, ids=[f"{page}:{first}" for page, first, _ in FOUND]
)
async def test_a_transcript_plays_as_written(page: str, first: int, lines: list[Line]) -> None:
    async with running_host(heartbeat_interval=5.0, bot_delay=(60.0, 60.0)) as host:
        await Run(host.port).play(lines)


def test_the_byte_by_byte_frame_is_real() -> None:
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    block = text.split("```hex\n", 1)[1].split("```", 1)[0]
    raw = bytes.fromhex("".join(block.split()))
    (length,) = struct.unpack(">I", raw[:4])
    assert length == len(raw) - 4
    hello = p.validate_client_message(p.decode_body(raw[4:]))
    assert hello == {"t": "hello", "protocol": 1, "name": "Ann", "client": "partyhost-python/0.1.0"}
