"""``partyhost replay`` and ``partyhost stats`` straight from a host's data folder.

The data folder is filled the way a host fills it (its store), with
games the engine's bots played to the end, and one still running.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import pytest
from partyhost.cli import main
from partyhost.engine.registry import get_game
from partyhost.net.store.database import Store, read_store
from partyhost.net.store.records import GameStart, Player, night_of
from playedgames import PlayedGame, keep_game, play_game

NAMES = ["Ann", "Bob", "Cy", "Di"]
DAY = 24 * 3600.0
ROOMS = ("ACDE", "FHJK", "MNPR", "TWXY")


def keep(store: Store, played: PlayedGame, room: str, ended: float) -> None:
    players = [Player(seat, NAMES[seat], seat == 3) for seat in played.seats]
    start = GameStart(
        room,
        played.seed,
        played.game,
        played.deck_name,
        played.deck_data,
        played.rules,
        played.seats,
        ended - 60,
        players,
    )
    results = get_game(played.game).results(played.final)
    keep_game(store, start, played.commands, results, ended)


def number_of(data: Path, room: str) -> str:
    """The (random) number the store gave room ``room``'s game, as the command line takes it."""
    store = read_store(data)
    try:
        return next(str(entry.id) for entry in store.games() if entry.room == room)
    finally:
        store.close()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """Tonight: a T-Shirt Game and a meme game over, a Scramble still running; one last week."""
    now = time.time()
    store = Store(tmp_path)
    keep(store, play_game("tshirt", 4, seed=3, options={"target": 1000}), "ACDE", now - 120)
    keep(store, play_game("meme", 3, seed=4), "FHJK", now - 60)
    keep(store, play_game("four-corners", 2, seed=5), "MNPR", now - 7 * DAY)
    running = play_game("scramble", 2, seed=6)
    keep_game(
        store,
        GameStart(
            "TWXY",
            running.seed,
            "scramble",
            running.deck_name,
            running.deck_data,
            running.rules,
            running.seats,
            now,
            [Player(0, "Ann", False), Player(1, "Bob", False)],
        ),
        [],
    )
    store.close()
    return tmp_path


def test_replay_without_a_game_lists_the_kept_games_newest_first(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "--data", str(data)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:5] == ["#", "NIGHT", "ENDED", "GAME", "ROOM"]
    rooms = [next(room for room in ROOMS if room in line) for line in lines[1:]]
    assert rooms == ["TWXY", "FHJK", "ACDE", "MNPR"]
    assert "playing" in lines[1]
    assert "*" in lines[2], "the winners are marked"


def test_a_running_game_is_refused_from_the_data_folder_too(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    running = number_of(data, "TWXY")
    assert main(["replay", running, "--data", str(data), "--export", "jsonl"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "still being played" in captured.err and "TWXY" in captured.err


def test_export_jsonl_writes_one_object_per_step_with_every_hand(
    data: Path, tmp_path: Path
) -> None:
    target = tmp_path / "game.jsonl"
    game = number_of(data, "ACDE")
    assert main(["replay", game, "--data", str(data), "--export", "jsonl", "-o", str(target)]) == 0
    steps = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [step["step"] for step in steps] == list(range(len(steps)))
    assert {step["game_id"] for step in steps} == {int(game)} and steps[0]["game"] == "tshirt"
    assert steps[0]["kind"] == "setup" and steps[-1]["view"]["phase"] == "over"
    dealt = next(step["view"]["hands"] for step in steps if step["view"]["round"] == 1)
    assert [hand["seat"] for hand in dealt] == [0, 1, 2, 3]
    held = [card for hand in dealt for card in hand["cards"]]
    assert len(held) >= 9 and all(card["text"] for card in held), "three hands of slogans"


def test_export_text_tells_the_game_round_by_round(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = number_of(data, "FHJK")
    assert main(["replay", game, "--data", str(data), "--export", "text"]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"What Do You Meme?: game {game} in room FHJK\n")
    assert "Players: Ann (seat 0), Bob (seat 1), Cy (seat 2)" in text
    assert "step 1, round 1: " in text and "\nResult:\n" in text
    assert "rolls a" in text, "events are narrated as the table's log tells them"
    assert text.count("won") >= 1 and "$" in text


def test_an_unknown_game_or_folder_is_a_clear_error(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", "99", "--data", str(data), "--export", "text"]) == 1
    assert "no game 99" in capsys.readouterr().err
    assert main(["stats", "--data", str(tmp_path / "nowhere")]) == 1
    assert "no games are kept" in capsys.readouterr().err
    assert main(["replay", "--export", "text", "--data", str(data)]) == 2


def test_stats_prints_tonights_standings(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--data", str(data)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"Tonight ({night_of(time.time())}): 4 players")
    assert lines[1].split()[:5] == ["PLAYER", "PLAYED", "WON", "POINTS", "MONEY"]
    rows = {line.split()[0]: line for line in lines[2:]}
    assert set(rows) == {"Ann", "Bob", "Cy", "Di"}
    assert "The T-Shirt Game" in rows["Ann"] and "What Do You Meme?" in rows["Ann"]
    assert "(bot)" in rows["Di"] and "What Do You Meme?" not in rows["Di"]
    assert "Four Corners" not in "\n".join(lines), "last week's game is another night"


def test_stats_all_prints_every_night_kept(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "--data", str(data), "--all"]) == 0
    out = capsys.readouterr().out
    last_week = night_of(time.time() - 7 * DAY)
    assert out.startswith(f"The night of {last_week}: 2 players")
    assert f"Tonight ({night_of(time.time())})" in out


async def test_replay_asks_a_running_host_when_given_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from nethelpers import counting, play_out, running_host, step, table
    from partyhost.engine.rng import Rng

    async with running_host() as host:
        address = f"127.0.0.1:{host.port}"
        seats, _ = await table(host.port, ["Ann", "Bob"], options={"target": 12})
        await play_out(seats, counting(), Rng(1))
        _, code = await table(host.port, ["Cy", "Di"], options={"target": 500})
        assert await asyncio.to_thread(main, ["replay", "--host", address]) == 0
        listed = capsys.readouterr().out
        assert "Counting" in listed and "playing" not in listed, "the host lists no running game"
        (finished,) = (line.split()[0] for line in listed.splitlines()[1:])

        target = tmp_path / "one.jsonl"
        export = ["replay", finished, "--host", address, "--export", "jsonl", "-o", str(target)]
        assert await asyncio.to_thread(main, export) == 0
        steps = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
        assert steps[0]["kind"] == "setup" and steps[-1]["view"]["over"]
        assert set(steps[-1]["view"]["hands"]) == {"0", "1"}

        (stored,) = host.journal.rooms(code)
        running = ["replay", str(stored.game_id), "--host", address, "--export", "text"]
        assert await asyncio.to_thread(main, running) == 1
        assert "still being played" in capsys.readouterr().err
        assert await step(seats, counting(), Rng(1)) is False, "the finished game stays over"


def test_stats_counts_one_player_and_one_game_in_the_singular() -> None:
    from partyhost.historycommands import standings_table
    from partyhost.net.store.standings import Standing

    ann = Standing("Ann", bot=False, played={"tshirt": 1}, won={"tshirt": 1})
    bob = Standing("Bob", bot=False, played={"tshirt": 2}, won={"tshirt": 1})
    assert standings_table("2026-12-04", [ann], "2026-12-04")[0] == (
        "Tonight (2026-12-04): 1 player, 1 game won"
    )
    assert standings_table("2026-12-03", [ann, bob], "2026-12-04")[0] == (
        "The night of 2026-12-03: 2 players, 2 games won"
    )
    none_won = Standing("Cy", bot=True, played={"tshirt": 1})
    assert standings_table("2026-12-04", [none_won], "2026-12-04")[0].endswith(
        "1 player, 0 games won"
    )
