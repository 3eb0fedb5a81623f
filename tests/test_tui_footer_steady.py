"""The footer is rebuilt only when its keys change: a tap never lands on a footer in flux.

Its keys press on the mouse's down; a footer replaced just then (as Textual's is on every
room frame) swallows the tap, which a browser visitor sees as a key that did not answer.
"""

from __future__ import annotations

import copy

from partyhost.tui.shared.roomscreen import RoomScreen
from textual.widgets._footer import FooterKey
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, settle
from tuikit.samples import sample_room, seat_entry


async def test_a_room_frame_that_changes_no_key_leaves_the_footer_as_it_is() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(93, 18)) as pilot:
        await settle(pilot)
        room = sample_room(seats=[seat_entry(0, "Ann"), seat_entry(1, "Bot 1", bot=True)])
        host.room = copy.deepcopy(room)
        host.last.push({"t": "joined", "code": "KQZD", "seat": 0, "token": "t"}, room)
        await settle(pilot)
        assert isinstance(app.screen, RoomScreen)
        before = list(app.screen.query(FooterKey))
        assert "Start" in [key.description for key in before]
        # A bot gets ready: the seats change, the keys do not.
        again = sample_room(
            seats=[seat_entry(0, "Ann"), seat_entry(1, "Bot 1", bot=True, ready=True)]
        )
        host.last.push(copy.deepcopy(again))
        await settle(pilot)
        assert list(app.screen.query(FooterKey)) == before
        assert all(key.is_attached for key in before)
        # Ann no longer owns the room: Start goes, so the footer is drawn again.
        host.last.push(sample_room(owner=1, seats=again["seats"]))
        await settle(pilot)
        after = [key.description for key in app.screen.query(FooterKey)]
        assert "Start" not in after and after
