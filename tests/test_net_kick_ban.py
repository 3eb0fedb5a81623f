"""A kicked player stays out of the room: by name, look-alikes of it, and by address.

Against a real host on loopback: Bob connects from 127.0.0.2 and is kicked;
coming back under his name, a look-alike of it, or another name from his
address is refused with ``banned``, while someone else from elsewhere still
gets in and Bob may still use other rooms. The ban is kept with the room, so a
restarted host process still refuses him.
"""

from __future__ import annotations

from pathlib import Path

from nethelpers import HostProcess, Seat, running_host
from partyhost.net import protocol as p

BOB_ADDRESS = "127.0.0.2"


async def test_a_kicked_player_cannot_join_that_room_again() -> None:
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.create_room("counting")
        code = (await ann.expect(p.JOINED))["code"]
        bob = await Seat.open(host.port, "Bob", source=BOB_ADDRESS)
        await bob.join_room(code)
        await bob.expect(p.JOINED)
        mark = bob.mark()
        await ann.kick(1)
        assert (await bob.expect(p.LEFT, since=mark))["reason"] == "kicked"

        for name, source in (
            ("Bob", BOB_ADDRESS),
            ("BOB", "127.0.0.3"),
            ("\u0412\u043eb", "127.0.0.4"),  # a Cyrillic Ve and o
            ("\uff42\uff4f\uff42", "127.0.0.5"),  # full-width
            ("Someone else", BOB_ADDRESS),
        ):
            again = await Seat.open(host.port, name, source=source)
            for spectate in (False, True):
                mark = again.mark()
                await again.join_room(code, spectate=spectate)
                error = await again.expect(p.ERROR, since=mark)
                assert error["code"] == "banned", (name, source, error)
                assert "sent you away" in error["message"]
            await again.close()

        mark = bob.mark()
        await bob.create_room("counting")  # other rooms are open to him
        await bob.expect(p.JOINED, since=mark)
        cid = await Seat.open(host.port, "Cid", source="127.0.0.6")
        await cid.join_room(code)
        await cid.expect(p.JOINED)
        for seat in (ann, bob, cid):
            await seat.close()


async def test_a_kick_outlives_a_restart_of_the_host_process(tmp_path: Path) -> None:
    """The ban list is kept with the room: the restarted host still refuses Bob."""
    first = HostProcess(tmp_path)
    try:
        port = await first.ready()
        ann = await Seat.open(port, "Ann")
        await ann.create_room("counting")
        code = (await ann.expect(p.JOINED))["code"]
        bob = await Seat.open(port, "Bob", source=BOB_ADDRESS)
        await bob.join_room(code)
        await bob.expect(p.JOINED)
        mark = bob.mark()
        await ann.kick(1)
        assert (await bob.expect(p.LEFT, since=mark))["reason"] == "kicked"
        await ann.expect(p.ROOM, since=mark, where=lambda room: len(room["seats"]) == 1)
        for seat in (ann, bob):
            await seat.close()
    finally:
        first.kill()

    second = HostProcess(tmp_path)
    try:
        port = await second.ready()
        for name, source in (("Bob", "127.0.0.3"), ("Someone else", BOB_ADDRESS)):
            again = await Seat.open(port, name, source=source)
            await again.join_room(code)
            assert (await again.expect(p.ERROR))["code"] == "banned", (name, source)
            await again.close()
        cid = await Seat.open(port, "Cid", source="127.0.0.6")  # the room is there for others
        await cid.join_room(code)
        assert (await cid.expect(p.JOINED))["code"] == code
        await cid.close()
    finally:
        second.stop()
