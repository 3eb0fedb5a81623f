"""Bring your own deck: a deck file sent with the room request, several decks in one room,
and deck folders the host keeps watching while it runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from nethelpers import DECK_DIR, Seat, deck_text, running_host, table
from partyhost.net import deckshelf as shelf_module
from partyhost.net import protocol as p
from partyhost.net.clients.client import DeckFileUnsendable, read_deck_files

UPLOADED = deck_text(12).replace("secret-word", "uploaded-word").replace("Counting words", "Mine")


def folder_contents() -> dict[Path, bytes]:
    return {path: path.read_bytes() for path in DECK_DIR.iterdir()}


async def create_with_upload(seat: Seat, text: str, **extra: Any) -> None:
    await seat.create_room(
        "counting", deck_files=[{"name": "/home/ann/decks/mine.yaml", "text": text}], **extra
    )


async def test_a_room_plays_the_cards_of_a_sent_deck_and_the_journal_keeps_them(
    tmp_path: Path,
) -> None:
    before = folder_contents()
    async with running_host(data_dir=tmp_path / "data") as host:
        ann = await Seat.open(host.port, "Ann")
        await create_with_upload(ann, UPLOADED)
        joined = await ann.expect(p.JOINED)
        room = await ann.expect(p.ROOM)
        assert room["decks"] == [{"name": "mine", "title": "Mine", "source": "upload"}]
        bob = await Seat.open(host.port, "Bob")
        await bob.join_room(joined["code"])
        await bob.expect(p.JOINED)
        await bob.set_ready()
        await ann.expect(p.ROOM, where=lambda r: len(r["seats"]) == 2 and r["seats"][1]["ready"])
        await ann.start_game()
        view = (await ann.expect(p.VIEW))["view"]
        assert all(card["word"].startswith("uploaded-word-") for card in view["hand"])
    async with running_host(data_dir=tmp_path / "data") as again:
        back = await Seat.open(again.port, "Ann", token=joined["token"])
        room = await back.expect(p.ROOM)
        assert room["decks"] == [{"name": "mine", "title": "Mine", "source": "upload"}]
        view = (await back.expect(p.VIEW))["view"]
        assert all(card["word"].startswith("uploaded-word-") for card in view["hand"])
    assert folder_contents() == before


async def test_a_broken_sent_deck_is_answered_with_every_problem_at_its_line() -> None:
    broken = UPLOADED.replace("version: 1", "version: 1\nversion: 2").replace(
        "cards:", "cards: !!python/name:os.system\n  bogus:"
    )
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        await create_with_upload(ann, broken)
        error = await ann.expect(p.ERROR)
        assert error["code"] == "bad_deck"
        assert [(e["file"], e["line"], e["column"]) for e in error["problems"]] == [
            ("mine.yaml", 3, 1),
            ("mine.yaml", 6, 8),
        ]
        assert "duplicate key 'version'" in error["problems"][0]["message"]
        assert "mine.yaml:3:1" in error["message"]
        assert host.lobby is not None and not host.lobby.rooms


async def test_decks_of_the_host_and_a_sent_one_play_together_and_are_named() -> None:
    async with running_host() as host:
        await table(host.port, ["Ann", "Bob"], start=False)
        ann = await Seat.open(host.port, "Cy")
        await create_with_upload(ann, UPLOADED, decks=["counting"])
        room = await ann.expect(p.ROOM)
        assert [d["name"] for d in room["decks"]] == ["counting", "mine"]
        assert room["deck"] == "counting + mine"
        assert host.lobby is not None
        decks = {room.code: room.deck for room in host.lobby.rooms.values()}
        assert len(decks[room["code"]]) == 400 + 12
        others = [deck for code, deck in decks.items() if code != room["code"]]
        assert len(others[0]) == 400


async def test_rooms_with_the_same_deck_share_it() -> None:
    async with running_host() as host:
        _, first = await table(host.port, ["Ann", "Bob"], start=False)
        _, second = await table(host.port, ["Cy", "Di"], start=False)
        ed = await Seat.open(host.port, "Ed")
        await create_with_upload(ed, UPLOADED)
        third = (await ed.expect(p.JOINED))["code"]
        fay = await Seat.open(host.port, "Fay")
        await create_with_upload(fay, UPLOADED)
        fourth = (await fay.expect(p.JOINED))["code"]
        assert host.lobby is not None
        rooms = host.lobby.rooms
        assert rooms[first].deck is rooms[second].deck
        assert rooms[third].deck is rooms[fourth].deck
        assert rooms[first].deck_data is rooms[second].deck_data


async def test_a_new_deck_file_is_listed_while_the_host_runs(tmp_path: Path) -> None:
    folder = tmp_path / "decks"
    folder.mkdir()
    async with running_host(deck_dirs=(DECK_DIR, folder), deck_poll_seconds=0.05) as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.list_decks()
        listed = await ann.expect(p.DECKS)
        assert "fresh" not in [d["name"] for d in listed["decks"]]
        mark = ann.mark()
        (folder / "fresh.yaml").write_text(UPLOADED.replace("Mine", "Fresh"), encoding="utf-8")
        (folder / "broken.yaml").write_text("game: counting\ncards: [\n", encoding="utf-8")
        pushed = await ann.expect(
            p.DECKS,
            since=mark,
            where=lambda m: {"fresh", "broken"} <= {d["name"] for d in m["decks"]},
        )
        by_name = {d["name"]: d for d in pushed["decks"]}
        assert by_name["fresh"]["title"] == "Fresh" and by_name["fresh"]["problem"] is None
        assert by_name["broken"]["game"] == "counting"
        assert by_name["broken"]["problem"].startswith("broken.yaml:2:8: this `[` never closes")
        bob = await Seat.open(host.port, "Bob")
        games = {g["id"]: g for g in bob.conn.welcome["games"]}
        assert [d["name"] for d in games["counting"]["decks"]] == ["counting", "fresh"]
        await bob.create_room("counting", deck="fresh")
        assert (await bob.expect(p.ROOM))["decks"][0]["title"] == "Fresh"
        mark = ann.mark()
        (folder / "fresh.yaml").unlink()
        await ann.expect(
            p.DECKS, since=mark, where=lambda m: "fresh" not in {d["name"] for d in m["decks"]}
        )


async def test_deck_files_of_the_wrong_shape_are_a_bad_message() -> None:
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.create_room("counting", deck_files=[{"text": "x"}])
        error = await ann.expect(p.ERROR)
        assert error["code"] == "bad_message" and "deck_files" in error["message"]


def test_a_notepad_unicode_deck_file_is_sent_as_text(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_bytes(UPLOADED.replace("\n", "\r\n").encode("utf-16"))
    assert read_deck_files([path]) == [
        {"name": "mine.yaml", "text": UPLOADED.replace("\n", "\r\n")}
    ]


def test_a_cp1252_deck_file_is_not_sent_and_the_reason_names_where(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_bytes(b"game: counting\nname: caf\xe9\n")
    with pytest.raises(DeckFileUnsendable) as refused:
        read_deck_files([path])
    assert str(refused.value) == f"{path}:2:10: not UTF-8 text: save the file as UTF-8."


async def _upload_answer(seat: Seat, text: str) -> dict[str, Any]:
    """Create a room with ``text`` as its deck; the answer (``joined`` or ``error``)."""
    mark = seat.mark()
    await create_with_upload(seat, text)
    await seat.until(lambda: any(m["t"] in (p.JOINED, p.ERROR) for m in seat.log[mark:]))
    answer = next(m for m in seat.log[mark:] if m["t"] in (p.JOINED, p.ERROR))
    if answer["t"] == p.JOINED:
        mark = seat.mark()
        await seat.leave_room()
        await seat.expect(p.LEFT, since=mark)
    return answer


async def test_one_address_sending_new_deck_files_cannot_use_up_everyone_elses() -> None:
    async with running_host() as host:
        burst = host.config.upload_address_burst
        assert burst < host.config.upload_burst
        flooder = await Seat.open(host.port, "Mallory", source="127.0.0.2")
        answers = [
            await _upload_answer(flooder, UPLOADED.replace("uploaded-word", f"flood{n}-word"))
            for n in range(burst + 5)
        ]
        assert [a["t"] for a in answers] == [p.JOINED] * burst + [p.ERROR] * 5
        assert all(a["code"] == "rate_limited" for a in answers[burst:])
        again = await _upload_answer(flooder, UPLOADED.replace("uploaded-word", "flood0-word"))
        assert again["t"] == p.JOINED  # a file read before is not read again: it costs nothing
        for address in ("127.0.0.3", "127.0.0.4"):  # everyone else still gets theirs read
            friend = await Seat.open(host.port, f"Friend at {address}", source=address)
            text = UPLOADED.replace("uploaded-word", f"friend-{address}-word")
            assert (await _upload_answer(friend, text))["t"] == p.JOINED
            await friend.close()
        await flooder.close()


SHIPPED_TSHIRT = Path(shelf_module.__file__).resolve().parent.parent / "decks"


async def test_a_sent_deck_cannot_take_a_shipped_decks_name_and_shows_it_was_sent() -> None:
    """A copy of the shipped deck sent as ``the-t-shirt-game.yaml`` (same title, one card
    changed) is marked as sent wherever the room is listed, under a name of its own."""
    shipped = _shipped_tshirt()
    copy = shipped.replace("slogans:", 'slogans:\n  - "A slogan only the copy has"', 1)
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.create_room(
            "tshirt", deck_files=[{"name": "the-t-shirt-game.yaml", "text": copy}]
        )
        room = await ann.expect(p.ROOM)
        assert room["decks"] == [
            {"name": "the-t-shirt-game (sent)", "title": "Classic", "source": "upload"}
        ]
        assert room["deck"] == "the-t-shirt-game (sent)"
        bob = await Seat.open(host.port, "Bob")
        await bob.list_rooms()
        listed = (await bob.expect(p.ROOMS))["rooms"]
        assert [(r["deck"], r["decks"]) for r in listed] == [
            ("the-t-shirt-game (sent)", room["decks"])
        ]
        cy = await Seat.open(host.port, "Cy")  # the shipped deck by name is still the shipped one
        await cy.create_room("tshirt", deck="the-t-shirt-game")
        shipped_room = await cy.expect(p.ROOM)
        assert shipped_room["decks"] == [
            {"name": "the-t-shirt-game", "title": "Classic", "source": "host"}
        ]


def _shipped_tshirt() -> str:
    return (SHIPPED_TSHIRT / "the-t-shirt-game.yaml").read_text(encoding="utf-8")


async def _refusal(seat: Seat, text: str) -> list[tuple[int, str]]:
    """The lines and messages of the problems the host finds in a sent T-Shirt deck."""
    mark = seat.mark()
    await seat.create_room("tshirt", deck_files=[{"name": "mine.yaml", "text": text}])
    error = await seat.expect(p.ERROR, since=mark)
    assert error["code"] == "bad_deck", error
    return [(e["line"], e["message"]) for e in error["problems"]]


@pytest.mark.parametrize(
    "blank",
    [
        "\u200b\u200b",  # zero-width spaces
        "\U000e0041\U000e0042",  # tag characters
        "\u3164\u115f",  # Hangul fillers
        "\u0301\u0302",  # combining marks only
        "\u2800 \U0001d159",  # drawn as empty space
    ],
)
async def test_cards_and_titles_that_show_nothing_are_refused(blank: str) -> None:
    shipped = _shipped_tshirt()
    card = shipped.replace('"I survived the group chat"', f'"{blank}"', 1)
    titled = shipped.replace("name: Classic", f'name: "{blank}"', 1)
    assert card != shipped and titled != shipped
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        for text, line in ((card, 20), (titled, 15)):
            problems = await _refusal(ann, text)
            assert [found for found, _ in problems] == [line], problems
            assert "shows nothing" in problems[0][1]
        assert host.lobby is not None and not host.lobby.rooms


async def test_a_deck_title_with_a_line_break_is_refused() -> None:
    shipped = _shipped_tshirt()
    broken = shipped.replace("name: Classic", 'name: "Classic\\nand more"', 1)
    assert broken != shipped
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        problems = await _refusal(ann, broken)
        assert [line for line, _ in problems] == [15], problems
        assert "one line" in problems[0][1]


async def test_a_sent_file_name_of_invisible_characters_is_shown_as_deck() -> None:
    async with running_host() as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.create_room(
            "counting", deck_files=[{"name": "\u200b\u2060\u3164.yaml", "text": UPLOADED}]
        )
        room = await ann.expect(p.ROOM)
        assert room["decks"] == [{"name": "deck", "title": "Mine", "source": "upload"}]
