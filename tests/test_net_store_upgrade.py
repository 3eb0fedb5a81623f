"""A data folder from the two-file layout opens whole, and a fresh one holds one database.

``tests/data/two-file-folder`` was written by the host of the two-file layout
(``host.sqlite3``, the journal, and ``history.sqlite3``, the game history,
each folded into its file with ``VACUUM``): room YRDH played Four Corners to
the end (Ann beat Bob), room JCMK Gridiron (Cy beat ann), and room DJHW was
left in the middle of a Scramble (Di and Ed, four moves in). The replay
digests are of ``partyhost replay N --export jsonl`` as that host's release
wrote them.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import msgpack
import pytest
from nethelpers import Seat, counting, play_out, running_host, table
from partyhost.cli import main
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.names import name_key
from partyhost.net.store import migration as storemigration
from partyhost.net.store.database import DB_FILE, Store, read_store
from partyhost.net.store.records import SCHEMA_VERSION
from partyhost.net.store.space import RESERVE_FILE

OLD_FOLDER = Path(__file__).parent / "data" / "two-file-folder"
OLD_HISTORY = "history.sqlite3"
NIGHT = "2026-12-04"
REPLAY_DIGESTS = {
    1: "9c5cf61eae028ea4777f298078709a77f928d88491cac3e41ef23b4b46efb8ec",
    2: "a2da0043409d960d38c132f2e3994e2417484aef45b629b69d36ec5aea60bf3e",
}
NEWER_RULES = {"friends_take_bots"}
"""Room options added since that release: a game replayed today lists them in its rules
(at their defaults); everything else must be what that release exported."""
SQLITE_SIDE_FILES = {f"{DB_FILE}-wal", f"{DB_FILE}-shm"}

FORMAT_1_FOLDER = Path(__file__).parent / "data" / "format-1-folder"
"""Written by the host of format 1 (one ``decks`` row per deck combination), with the test
game: games 1 to 3 played to the end, with the uploads ``alpha.yaml`` and ``beta.yaml`` in
both orders and then the host's ``counting`` deck; room RJJW left four moves into a game
with ``alpha.yaml`` alone. Then ``VACUUM``."""
FORMAT_1_GAMES = {
    # id: (status, deck, commands, sha256 of the deck as that host's replays read it)
    4: ("playing", "alpha", 4, "568864cc59b947a9c87b1fcda12482d629fc1d120cbeba49e495aff8dfb7717b"),
    3: ("over", "counting", 8, "8aba67a033e815cbef1efaa6014c6f05c4403aabb3196ba2b3be2e4037d78485"),
    2: (
        "over",
        "beta + alpha",
        9,
        "97d64a2762a5f57bf9cd07fedefae82ee0d8569355488adeeaf97be0451b7321",
    ),
    1: (
        "over",
        "alpha + beta",
        7,
        "4e1efe5dad2ae8553e248566c4cc3c71f7cbc5382011dff62bbfdf560101f20f",
    ),
}


def without_newer_rules(export: Path) -> bytes:
    """The JSON-lines export with :data:`NEWER_RULES` taken out of every ``rules`` map,
    written as ``replay --export jsonl`` writes."""

    def strip(value: Any, key: str = "") -> Any:
        if isinstance(value, dict):
            dropped = NEWER_RULES if key == "rules" else set()
            return {k: strip(v, k) for k, v in value.items() if k not in dropped}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value

    lines = export.read_text(encoding="utf-8").splitlines()
    records = [strip(json.loads(line)) for line in lines]
    written = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records)
    return written.encode("utf-8")


@pytest.fixture
def old_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(OLD_FOLDER, folder)
    folder.chmod(0o700)
    return folder


def test_replay_and_stats_read_an_old_folder_as_its_host_left_it(
    old_folder: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["replay", "--data", str(old_folder)]) == 0
    listed = capsys.readouterr().out.splitlines()[1:]
    assert [line.split()[0] for line in listed] == ["3", "2", "1"]
    assert ["DJHW" in listed[0], "JCMK" in listed[1], "YRDH" in listed[2]] == [True] * 3
    assert "playing" in listed[0] and "Cy*" in listed[1] and "Ann*" in listed[2]
    for game_id, digest in REPLAY_DIGESTS.items():
        target = tmp_path / f"game{game_id}.jsonl"
        command = ["replay", str(game_id), "--data", str(old_folder), "--export", "jsonl"]
        assert main([*command, "-o", str(target)]) == 0
        assert hashlib.sha256(without_newer_rules(target)).hexdigest() == digest
    assert main(["replay", "3", "--data", str(old_folder), "--export", "jsonl"]) == 1
    assert "still being played" in capsys.readouterr().err

    assert main(["stats", "--data", str(old_folder), "--all"]) == 0
    rows = {line.split()[0]: line.split()[1:3] for line in capsys.readouterr().out.splitlines()}
    assert (rows["Cy"], rows["ann"], rows["Bob"]) == (["1", "1"], ["2", "1"], ["1", "0"])
    store = read_store(old_folder)
    try:
        assert store.nights() == [NIGHT]
        table_of_night = [
            (row.name, row.games_played, row.games_won) for row in store.standings(NIGHT)
        ]
    finally:
        store.close()
    assert table_of_night == [("Cy", 1, 1), ("ann", 2, 1), ("Bob", 1, 0)]
    assert not (old_folder / OLD_HISTORY).exists()


async def test_a_host_on_an_old_folder_brings_back_every_room_and_game(
    old_folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="partyhost.net")
    async with running_host(data_dir=old_folder) as host:
        assert "rebuilt 3 room(s) from the store" in caplog.text
        # The finished games' rooms close at once (their players' grace ended long ago);
        # their games stay kept. The game in the middle keeps its seats for its players.
        assert host.lobby is not None
        rooms = host.lobby.rooms
        assert {code: room.status for code, room in rooms.items()} == {"DJHW": p.PLAYING}
        running = rooms["DJHW"].table
        assert running is not None and running.index == 4  # every move made before the stop
        assert [m.name for m in rooms["DJHW"].members] == ["Di", "Ed"]
        zed = await Seat.open(host.port, "Zed")
        await zed.send({"t": p.LIST_PAST_GAMES})
        games = (await zed.expect(p.PAST_GAMES))["games"]
        assert [(g["id"], g["room"], g["status"]) for g in games] == [  # none running
            (2, "JCMK", "over"),
            (1, "YRDH", "over"),
        ]
        await zed.close()
    assert {path.name for path in old_folder.iterdir()} == {
        DB_FILE,
        RESERVE_FILE,
        "host-id",
        "host.lock",
    }
    with sqlite3.connect(old_folder / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] >= 1
        commands = dict(db.execute("SELECT game_id, COUNT(*) FROM commands GROUP BY game_id"))
    assert commands == {1: 25, 2: 13, 3: 4}  # each command once, under its game


async def test_a_second_start_finds_the_folder_upgraded_and_changes_nothing(
    old_folder: Path,
) -> None:
    for _ in range(2):
        async with running_host(data_dir=old_folder) as host:
            assert host.lobby is not None and list(host.lobby.rooms) == ["DJHW"]
            table_of_djhw = host.lobby.rooms["DJHW"].table
            assert table_of_djhw is not None and table_of_djhw.index == 4
            assert host.journal is not None
            assert [entry.id for entry in host.journal.games()] == [3, 2, 1]
        with sqlite3.connect(old_folder / DB_FILE) as db:
            assert db.execute("SELECT COUNT(*) FROM commands").fetchone()[0] == 42
        assert not (old_folder / OLD_HISTORY).exists()


def test_an_upgrade_cut_short_leaves_the_old_files_to_upgrade_again(
    old_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(db: sqlite3.Connection) -> None:
        raise KeyboardInterrupt  # the host killed in the middle of the upgrade

    with monkeypatch.context() as patched:
        patched.setattr(storemigration, "_link_rooms_to_games", crash)
        with pytest.raises(KeyboardInterrupt):
            Store(old_folder)
    assert (old_folder / OLD_HISTORY).is_file()
    with sqlite3.connect(old_folder / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 0
        columns = {row[1] for row in db.execute("PRAGMA table_info(commands)")}
        assert "code" in columns and "game_id" not in columns
        assert db.execute("SELECT COUNT(*) FROM commands").fetchone()[0] == 42
    store = Store(old_folder)
    try:
        assert [entry.id for entry in store.games()] == [3, 2, 1]
        assert {stored.room.code: len(stored.commands) for stored in store.load()} == {
            "YRDH": 25,
            "JCMK": 13,
            "DJHW": 4,
        }
    finally:
        store.close()
    assert not (old_folder / OLD_HISTORY).exists()


def test_a_damaged_old_history_is_named_and_the_rooms_wait_untouched(old_folder: Path) -> None:
    (old_folder / OLD_HISTORY).write_bytes(b"this is no database" * 100)
    with pytest.raises(OSError) as caught:
        Store(old_folder)
    message = str(caught.value)
    assert OLD_HISTORY in message and "move it aside" in message and "\n" not in message
    (old_folder / OLD_HISTORY).unlink()
    store = Store(old_folder)  # the folder is free again, and upgrades without the history
    try:
        assert [stored.room.code for stored in store.load()] == ["YRDH", "JCMK", "DJHW"]
        assert [entry.room for entry in store.games()] == ["DJHW", "JCMK", "YRDH"]
    finally:
        store.close()


async def test_a_fresh_data_folder_holds_one_database_after_a_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    async with running_host(data_dir=data) as host:
        seats, _ = await table(host.port, ["Ann", "Bob"], options={"target": 15})
        await play_out(seats, counting(), Rng(4))
        for seat in seats:
            await seat.until(lambda s=seat: s.room is not None and s.room["status"] == p.OVER)
        open_files = {path.name for path in data.iterdir()}
        assert open_files - SQLITE_SIDE_FILES == {DB_FILE, RESERVE_FILE, "host-id", "host.lock"}
        running = read_store(data)  # what replay and stats see while the host runs
        try:
            assert [entry.status for entry in running.games()] == ["over"]
        finally:
            running.close()
        for seat in seats:
            await seat.close()
    assert {path.name for path in data.iterdir()} == {DB_FILE, RESERVE_FILE, "host-id", "host.lock"}
    store = read_store(data)
    try:
        (game,) = store.games()
    finally:
        store.close()
    assert game.status == "over" and len(game.outcomes) == 2


async def test_a_format_1_folder_opens_with_its_games_and_stores_each_deck_once(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    shutil.copytree(FORMAT_1_FOLDER, folder)
    folder.chmod(0o700)
    with sqlite3.connect(folder / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1
        assert db.execute("SELECT COUNT(*) FROM decks").fetchone()[0] == 4  # per combination
    store = read_store(folder)  # upgraded on the way
    try:
        found = {}
        for entry in store.games():
            archived = store.archived(entry.id)
            assert archived is not None
            packed = msgpack.packb(archived.deck_data, use_bin_type=True)
            digest = hashlib.sha256(packed).hexdigest()
            found[entry.id] = (entry.status, entry.deck_name, len(archived.commands), digest)
    finally:
        store.close()
    assert found == FORMAT_1_GAMES  # every game, its deck exactly as it was played
    with sqlite3.connect(folder / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert db.execute("SELECT COUNT(*) FROM decks").fetchone()[0] == 3  # alpha, beta, counting
        assert db.execute("SELECT COUNT(*) FROM game_decks").fetchone()[0] == 2 + 2 + 1
    async with running_host(data_dir=folder) as host:
        assert host.lobby is not None and list(host.lobby.rooms) == ["RJJW"]
        running = host.lobby.rooms["RJJW"].table
        assert running is not None and running.index == 4
        seat = await Seat.open(host.port, "Ann")
        for game_id in (1, 2, 3):  # host decks and uploads, alone or together, replay
            mark = seat.mark()
            await seat.get_replay(game_id, first=0, count=100)
            replay = await seat.expect(p.REPLAY, since=mark)
            commands = FORMAT_1_GAMES[game_id][2]
            assert replay["total"] == len(replay["steps"]) == commands + 1  # the deal, then each
        await seat.close()


def test_a_format_2_folder_gains_the_columns_of_a_rooms_hold(tmp_path: Path) -> None:
    """Format 2 had no round result's hold: upgrading adds its columns, empty."""
    folder = tmp_path / "data"
    store = Store(folder)
    store.close()
    hold = ("held_at", "hold_until", "hold_waiting")
    with sqlite3.connect(folder / DB_FILE) as db:
        for table_name in ("rooms", "set_aside_rooms"):
            for column in hold:
                db.execute(f"ALTER TABLE {table_name} DROP COLUMN {column}")
        db.execute("PRAGMA user_version=2")
    Store(folder).close()
    with sqlite3.connect(folder / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        for table_name in ("rooms", "set_aside_rooms"):
            columns = {row[1] for row in db.execute(f"PRAGMA table_info({table_name})")}
            assert set(hold) <= columns, table_name


FORMAT_3_FOLDER = Path(__file__).parent / "data" / "format-3-folder"
"""``FORMAT_1_FOLDER`` as the host of format 3 left it (games numbered 1 to 4, none with a
password or its players' keys), then ``VACUUM``."""


async def test_a_format_3_folder_keeps_its_games_numbers_and_new_games_get_random_ones(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    shutil.copytree(FORMAT_3_FOLDER, folder)
    folder.chmod(0o700)
    with sqlite3.connect(folder / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 3
        assert "player_keys" not in {row[1] for row in db.execute("PRAGMA table_info(games)")}
    async with running_host(data_dir=folder) as host:
        ann = await Seat.open(host.port, "Ann")
        await ann.list_past_games()
        listed = (await ann.expect(p.PAST_GAMES))["games"]
        assert [(g["id"], g["locked"]) for g in listed] == [(3, False), (2, False), (1, False)]
        for game_id in (1, 2, 3):  # kept before the upgrade: replayed by anyone, as before
            mark = ann.mark()
            await ann.get_replay(game_id, first=0, count=1)
            assert (await ann.expect(p.REPLAY, since=mark))["total"] > 1
        seats, code = await table(host.port, ["Bo", "Cy"], options={"target": 12})
        await play_out(seats, counting(), Rng(3))
        (stored,) = host.journal.rooms(code)
        assert stored.game_id is not None and stored.game_id > 2**20, "a random number"
        await ann.close()
        for seat in seats:
            await seat.close()
    with sqlite3.connect(folder / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
        assert {"password_hash", "player_keys"} <= columns
        kept = sorted(row[0] for row in db.execute("SELECT id FROM games WHERE id < 5"))
        assert kept == [1, 2, 3, 4], "the old games keep their numbers"


FORMAT_4_FOLDER = Path(__file__).parent / "data" / "format-4-folder"
"""Written by the host of format 4 (a room's ban list only in memory): room RWEF, Ann and
Bob three moves into a test game, then ``VACUUM``."""
BANS = ("banned_names", "banned_addresses")


async def test_a_format_4_folder_keeps_its_room_and_then_keeps_its_kicks(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "data"
    shutil.copytree(FORMAT_4_FOLDER, folder)
    folder.chmod(0o700)
    with sqlite3.connect(folder / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 4
        assert not set(BANS) & {row[1] for row in db.execute("PRAGMA table_info(rooms)")}
    async with running_host(data_dir=folder) as host:
        assert host.lobby is not None and list(host.lobby.rooms) == ["RWEF"]
        running = host.lobby.rooms["RWEF"].table
        assert running is not None and running.index == 3  # every move made before the stop
        (stored,) = host.journal.rooms("RWEF")
        assert not stored.room.banned_names and not stored.room.banned_addresses
        cy = await Seat.open(host.port, "Cy", source="127.0.0.7")  # nobody was banned before
        await cy.join_room("RWEF", spectate=True)
        await cy.expect(p.JOINED)
        await cy.close()
    with sqlite3.connect(folder / DB_FILE) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 5
        for table_name in ("rooms", "set_aside_rooms"):
            columns = {row[1] for row in db.execute(f"PRAGMA table_info({table_name})")}
            assert set(BANS) <= columns, table_name
        # The upgraded room keeps a ban like a new one: Bob's name and address.
        db.execute(
            "UPDATE rooms SET banned_names = ?, banned_addresses = ? WHERE code = 'RWEF'",
            (msgpack.packb([name_key("Bob")]), msgpack.packb(["127.0.0.2"])),
        )
    async with running_host(data_dir=folder) as host:
        for name, source in (("BOB", "127.0.0.3"), ("Di", "127.0.0.2")):
            visitor = await Seat.open(host.port, name, source=source)
            await visitor.join_room("RWEF", spectate=True)
            assert (await visitor.expect(p.ERROR))["code"] == "banned", name
            await visitor.close()
