"""Names that would show nothing are never shown: checked against a real host."""

from __future__ import annotations

import pytest
from nethelpers import Seat, running_host
from partyhost.net import protocol as p

BLANK_NAMES = [
    "\u200b\u200d\u2060",  # zero-width characters
    "\U000e0041\U000e006e\U000e006e",  # tag characters spelling "Ann"
    "\u3164\u115f\uffa0",  # Hangul fillers
    "\u0301\u0308\u20dd",  # combining marks only
    "\u2800\U0001d159",  # drawn, but as empty space
]


@pytest.mark.parametrize("blank", BLANK_NAMES)
async def test_a_name_that_shows_nothing_is_seated_under_the_default(blank: str) -> None:
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.create_room("counting")
        code = (await ann.expect(p.JOINED))["code"]
        ghost = await Seat.open(host.port, blank)
        await ghost.join_room(code)
        await ghost.expect(p.JOINED)
        room = await ann.expect(p.ROOM, where=lambda r: len(r["seats"]) == 2)
        assert [seat["name"] for seat in room["seats"]] == ["Ann", "Player"]
