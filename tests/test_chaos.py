"""The chaos bench, short: every game over a host that is SIGKILLed, cut off and attacked.

``bench/chaos.py`` runs for ten minutes on demand; here it runs for well under
a minute with faults coming faster, and must end with zero divergence from the
fault-free replays, no host crash or traceback and no process left behind.
The referee itself is tested too, so a run that passes cannot pass by
checking nothing.
"""

from __future__ import annotations

import dataclasses
import os
import random
import sys
from pathlib import Path
from typing import Any

import msgpack
import pytest
from partyhost.engine.registry import get_game
from partyhost.net.store.database import Store
from partyhost.net.store.records import (
    CommandRecord,
    GameStart,
    MemberRecord,
    Player,
    RoomRecord,
    StoredRoom,
)
from playedgames import keep_game, play_game

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

from chaos import PLANS, ChaosSettings, run_chaos
from chaos_check import check_replay, check_room, replay_states
from chaos_host import ChaosHost
from chaos_memory import MemoryWatch, Sample, anonymous_kib, memory_kib
from chaos_players import POLICY, AwayOnce, ChaosBot, RoomPlan, SeenView, digest
from chaos_resizes import SIZES, resize_visit


@pytest.mark.timeout(240)
async def test_every_game_survives_kills_cuts_and_hostile_clients(tmp_path: Path) -> None:
    settings = ChaosSettings(
        seconds=35.0,
        rooms=6,
        seed=20261129,
        kill_every=(2.5, 6.0),
        down_for=(0.05, 0.8),
        drop_every=(0.2, 1.0),
        hostile_every=(0.1, 0.5),
        room_timeout=120.0,
        resize_every=None,  # the web door has its own test below: its clients cost seconds
    )
    report = await run_chaos(settings, tmp_path)

    assert report.divergences == []
    assert report.tracebacks == [] and report.host_crashes == 0
    assert report.leftover_processes == []
    assert set(report.rooms) == {plan.game for plan in PLANS}, "every game and variant finished"
    assert report.kills >= 3, "the host was killed while games were running"
    assert report.drops > 0 and report.reconnects >= report.kills
    assert report.hostile_frames > 0
    assert report.views_checked > 10 * sum(report.rooms.values())
    assert report.replays == report.rooms, "every finished game's replay matched its journal"
    assert report.replay_steps_checked == report.versions_replayed
    assert report.missing_from_history == []
    assert report.games_in_history == sum(report.rooms.values())
    assert report.uploads["accepted"] > 0 and report.uploads["refused:bad_deck"] > 0
    assert report.upload_files["valid"] > 0 and report.upload_files["broken"] > 0
    assert report.replay_requests["served"] > 0
    assert sum(report.reclaims.values()) > 0 and sum(report.reclaim_answers.values()) > 0
    assert report.memory.samples > 0 and report.memory.kind in ("PSS", "RSS")


# --- the referee ------------------------------------------------------------------


def played_room(
    game_id: str = "four-corners",
    seed: int = 5,
    seats: int = 2,
    options: dict[str, Any] | None = None,
) -> StoredRoom:
    """A finished game as the journal would hold it, played by the engine's bot policy."""
    played = play_game(game_id, seats, seed, options)
    record = RoomRecord(
        code="TEST",
        game=game_id,
        deck_name=played.deck_name,
        deck_data=played.deck_data,
        options={},
        password_hash=None,
        bot_takeover=True,
        owner=0,
        status="over",
        next_member=seats,
        created=0.0,
        seed=seed,
        start_seats=played.seats,
        rules=played.rules,
    )
    commands = played.commands
    return StoredRoom(record, [], commands)


def honest_bots(stored: StoredRoom) -> list[ChaosBot]:
    """Two bots that were shown exactly the replayed views, every version."""
    game = get_game(stored.room.game)
    bots = []
    for seat in (0, 1):
        bot = ChaosBot("127.0.0.1", 1, f"Seat {seat}", delay=(0, 0), seed=seat)
        bot.seat = seat
        for state in replay_states(stored):
            view = game.view(state, seat)
            bot.views.append(SeenView(state.version, digest(view_on_wire(view))))
        bots.append(bot)
    return bots


def view_on_wire(view: object) -> object:
    return msgpack.unpackb(msgpack.packb(view, use_bin_type=True), raw=False)


def test_the_referee_passes_an_honest_room() -> None:
    stored = played_room()
    verdict = check_room(stored, honest_bots(stored))
    assert verdict.problems == []
    assert verdict.views_checked == 2 * verdict.versions > 10


def test_the_referee_sees_a_view_that_is_not_the_replays() -> None:
    stored = played_room()
    bots = honest_bots(stored)
    seen = bots[1].views[3]
    bots[1].views[3] = SeenView(seen.version, digest("another board"))
    (problem,) = check_room(stored, bots).problems
    assert f"version {seen.version}" in problem and "differs" in problem


def test_the_referee_sees_an_acknowledged_command_the_journal_lost() -> None:
    stored = played_room()
    bots = honest_bots(stored)
    stored.commands.pop(len(stored.commands) // 2)
    problems = check_room(stored, bots).problems
    assert problems, "a lost command went unnoticed"


def test_the_referee_sees_a_player_sent_back_in_time() -> None:
    stored = played_room()
    bots = honest_bots(stored)
    bots[0].views.append(bots[0].views[2])
    problems = check_room(stored, bots).problems
    assert any("after version" in problem for problem in problems)


def test_the_referee_sees_a_game_that_never_ended() -> None:
    stored = played_room()
    del stored.commands[-1]
    bots = honest_bots(stored)
    problems = check_room(stored, bots).problems
    assert any("not over" in problem for problem in problems)


def freed_after_the_end(stored: StoredRoom, left: bool = True) -> list[ChaosBot]:
    """Honest bots, the second of which went away before the last views and came back past
    the grace, after the game's end, to a seat the host had let go (``token_unknown``)."""
    bots = honest_bots(stored)
    away = bots[1]
    del away.views[len(away.views) // 2 :]
    away.seat_freed = True
    stored.members[:] = [
        MemberRecord(seat, seat, bot.name, "hash", False, 0, False, seat == 1 and left)
        for seat, bot in enumerate(bots)
    ]
    return bots


def test_the_referee_accepts_a_seat_freed_after_the_end() -> None:
    stored = played_room()
    bots = freed_after_the_end(stored)
    verdict = check_room(stored, bots)
    assert verdict.problems == []
    assert verdict.freed_after_the_end == ["Seat 1"]


def test_the_referee_still_sees_a_divergence_of_a_bot_whose_seat_was_freed() -> None:
    stored = played_room()
    bots = freed_after_the_end(stored)
    seen = bots[1].views[2]
    bots[1].views[2] = SeenView(seen.version, digest("another board"))
    (problem,) = check_room(stored, bots).problems
    assert f"version {seen.version}" in problem and "differs" in problem


def test_the_referee_sees_a_token_refused_while_the_journal_still_holds_the_seat() -> None:
    stored = played_room()
    verdict = check_room(stored, freed_after_the_end(stored, left=False))
    (problem,) = verdict.problems
    assert "token was refused" in problem and "still holds the seat" in problem
    assert verdict.freed_after_the_end == []


def test_the_referee_sees_a_bot_that_missed_the_end_with_its_seat_still_its_own() -> None:
    stored = played_room()
    bots = freed_after_the_end(stored)
    bots[1].seat_freed = False
    (problem,) = check_room(stored, bots).problems
    assert "last saw version" in problem


def kept(stored: StoredRoom, commands: list[CommandRecord]) -> Store:
    """A store holding the room's game with ``commands``, as a host would keep it."""
    room = stored.room
    assert room.seed is not None and room.start_seats is not None and room.rules is not None
    start = GameStart(
        room.code,
        room.seed,
        room.game,
        room.deck_name,
        room.deck_data,
        room.rules,
        room.start_seats,
        0.0,
        [Player(0, "Ann", False), Player(1, "Bob", False)],
    )
    store = Store(None)
    keep_game(store, start, commands, [], 1.0)
    return store


@pytest.mark.parametrize("plan", PLANS, ids=lambda plan: plan.game)
def test_the_referee_passes_a_replay_that_matches_the_journal(plan: RoomPlan) -> None:
    stored = played_room(plan.game, seats=plan.seats, options=plan.options)
    verdict = check_replay(stored, kept(stored, stored.commands))
    assert verdict.problems == []
    assert verdict.steps_checked == len(stored.commands) + 1


def test_the_referee_sees_a_replay_that_lost_a_command() -> None:
    stored = played_room()
    commands = list(stored.commands)
    commands.pop(len(commands) // 2)
    problems = check_replay(stored, kept(stored, commands)).problems
    assert problems and "differ" in problems[0]


def test_a_bot_stepping_away_waits_once_then_comes_back_as_fast_as_after_any_cut() -> None:
    delays = AwayOnce(**dataclasses.asdict(POLICY), away=3.0).delays()
    assert delays[0] == 3.0 and len(delays) == POLICY.attempts
    assert max(delays[1:]) <= POLICY.max_delay * 1.2


# --- the memory watch ---------------------------------------------------------------


def test_the_memory_watch_reads_this_process_and_measures_the_last_life_after_warm_up() -> None:
    kib, kind = memory_kib(os.getpid()) or (0, "")
    assert kib > 1024 and kind in ("PSS", "RSS")
    assert memory_kib(2**22 + 1) is None, "a process that is gone has no memory"
    watch = MemoryWatch(warmup_seconds=10.0)
    for life, age, size in [(1, 0, 900), (1, 20, 5000), (2, 0, 100), (2, 5, 150)]:
        watch.samples.append(Sample(life, age, size))
    assert watch.figures().growth_percent is None, "the last life never warmed up"
    watch.samples += [Sample(2, 10, 200), Sample(2, 15, 260), Sample(2, 20, 210)]
    figures = watch.figures()
    assert (figures.watched_life, figures.lives_sampled) == (2, 2)
    assert (figures.start_kib, figures.after_warmup_kib) == (100, 200)
    assert (figures.end_kib, figures.peak_after_warmup_kib) == (210, 260)
    assert figures.growth_percent == pytest.approx(5.0)


def test_the_memory_watch_splits_growth_by_what_was_running() -> None:
    watch = MemoryWatch(warmup_seconds=10.0)
    replays, hostile = frozenset({"replays"}), frozenset({"hostile"})
    for age, size, running in [(0, 50, replays), (10, 100, replays), (20, 160, replays)]:
        watch.samples.append(Sample(1, age, size, running))
    watch.samples += [Sample(1, 30, 160, hostile), Sample(1, 40, 220, replays | hostile)]
    split = watch.figures().by_kind
    assert (split["replays"].kib_with, split["replays"].seconds_with) == (120, 20)
    assert (split["replays"].kib_without, split["replays"].seconds_without) == (0, 10)
    assert (split["hostile"].kib_with, split["hostile"].kib_without) == (60, 60)


def test_the_memory_watch_also_reads_anonymous_memory_which_shared_libraries_do_not_move() -> None:
    own = anonymous_kib(os.getpid())
    if own is None:
        pytest.skip("no smaps_rollup on this kernel")
    assert own > 1024
    assert anonymous_kib(2**22 + 1) is None, "a process that is gone has no memory"
    watch = MemoryWatch(warmup_seconds=10.0)
    watch.sample(os.getpid(), 1, 0.0)
    watch.sample(os.getpid(), 1, 10.0)
    watch.sample(os.getpid(), 1, 20.0)
    figures = watch.figures()
    assert figures.anonymous_after_warmup_kib is not None and figures.anonymous_end_kib
    assert figures.anonymous_after_warmup_kib > 1024


# --- the web door's pages -------------------------------------------------------------


@pytest.mark.timeout(120)
async def test_a_web_door_page_resized_to_absurd_sizes_is_still_drawn(tmp_path: Path) -> None:
    host = ChaosHost(tmp_path / "data", tmp_path, web_door=True)
    host.data_dir.mkdir(parents=True)
    await host.start()
    try:
        assert host.web_port is not None
        outcome, sent = await resize_visit(host.web_port, random.Random(1), sizes=SIZES)
    finally:
        await host.stop()
    assert (outcome, sent) == ("redrawn", len(SIZES) + 1)
    assert host.tracebacks() == [] and host.stats.unexpected_exits == []
    assert host.leftovers() == []
