"""A wire-level hidden-information audit of every game over a real host on loopback.

Bots play seeded games of every game (each Game, Set, Match! variant too) in
lockstep while every raw frame each seat and two spectators receive is kept:
welcome, joined, room, view, events, notices, chat and errors. From the state
the host held at each version (rebuilt from its journal), ``hiddenaudit``
decides what that seat may not see there (other hands, face-down cards,
authors before the pick, the reactor's meme, Scramble boards, pile contents
and order, seeds, generator states, other seats' tokens) and searches the
frame for it, without asking the engines' own ``view`` functions. Frames
without a version are judged by the newest version their seat had seen, and
each entry of a first view's log by its own version (what it tells happened
then).

A friend who joins mid-game and takes over a bot's seat is judged as a
spectator until the frame that seats them, then as that seat.

The audit is checked too: leaks planted in real frames, and a host patched
to leak (private event fields to everyone, another hand in a view), must be
reported.
"""

from __future__ import annotations

import asyncio
import atexit
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hiddenaudit import Auditor, cells_of
from nethelpers import DECK_DIR, Seat, connect, running_host, seat_number, swap_game
from partyhost.engine.core import Event, Game
from partyhost.engine.gsm.views import cards_view
from partyhost.engine.registry import all_games, get_game
from partyhost.engine.rng import Rng
from partyhost.net import protocol as p
from partyhost.net.rooms import roomgame
from partyhost.net.rooms.roombroadcast import RoomBroadcast
from partyhost.net.store.records import StoredRoom
from test_net_every_game import replay
from test_net_takeover import autoplay, seated

AUDIT_DECKS = Path(tempfile.mkdtemp(prefix="partyhost-auditdecks-"))
atexit.register(shutil.rmtree, AUDIT_DECKS, ignore_errors=True)
TSHIRT_DECK = "hidden-audit-tshirt"
HOT_POINTS = (150, 200, 250, -100, 300, 100, 400, 50, 200, 0)
BOOYAH = 6


def tshirt_deck_text() -> str:
    """Every text a unique marker; small, so with 4 seats and hands of 7 piles get reshuffled."""
    lines = ["game: tshirt", "version: 1", "name: Hidden audit", "slogans:"]
    lines += [f'  - "<slogan-{n:04d}>"' for n in range(45)]
    lines.append("tshirts:")
    lines += [f'  - {{picture: "<shirt-{n:04d}>", art: "<art-{n:04d}>"}}' for n in range(6)]
    lines.append("hot_or_not:")
    for n, points in enumerate(HOT_POINTS):
        booyah = ", booyah: true" if n == BOOYAH else ""
        lines.append(f'  - {{points: {points}, verdict: "<verdict-{n:04d}>"{booyah}}}')
    return "\n".join(lines) + "\n"


(AUDIT_DECKS / f"{TSHIRT_DECK}.yaml").write_text(tshirt_deck_text(), encoding="utf-8")


@dataclass(frozen=True)
class Spec:
    players: int
    options: dict[str, Any]
    deck: str | None = None


SPECS: dict[str, Spec] = {
    "tshirt": Spec(4, {"hand_size": 7, "target": 20000}, TSHIRT_DECK),
    "meme": Spec(3, {}),
    "stealing-home": Spec(3, {"tie_window_ms": 40}),
    "scramble": Spec(3, {"match": "best-of-3"}),
    "gridiron": Spec(4, {"rotate": False}),
    "four-corners": Spec(2, {}),
}
SEEDS = (0x5EED_0001_A11D_17ED, 0x5EED_0002_C0FF_EE00, 0x5EED_0003_B0A7_CAFE)
NAMES = ("Ann", "Bob", "Cy", "Di")
SPECTATORS = ("Watcher", "Latecomer")


class SeededSecrets:
    """``secrets`` where a room draws its game seed, with that seed fixed (replayable games)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randbits(self, bits: int) -> int:
        return self.seed & ((1 << bits) - 1)

    def __getattr__(self, name: str) -> Any:
        return getattr(secrets, name)


@dataclass
class Recording:
    """Every frame each connection got, who sat where, and the room's journal."""

    game_id: str
    frames: dict[str, list[dict[str, Any]]]
    seat_of: dict[str, int | None]
    tokens: dict[str, str]
    stored: StoredRoom
    steps: int
    seated_from: dict[str, int] = field(default_factory=dict)
    """Per name, the first frame at which it holds its seat (before it, it only watched)."""


async def lockstep(seats: Sequence[Seat], game: Game, rng: Rng, max_steps: int) -> int:
    """Bots move one at a time, each move seen by all; timers are awaited, not slept through."""
    for taken in range(max_steps):
        marks = [len(seat.log) for seat in seats]
        mover, command = None, None
        for seat in seats:
            view = seat.view
            command = game.bot_command(view["view"], rng, time.time()) if view else None
            if command is not None:
                mover = seat
                break
        if mover is None or command is None:
            room = seats[0].room
            if room is not None and room["status"] == p.OVER:
                return taken
            async with asyncio.timeout(5):  # a timer (opening tick, tie window) moves it on
                while all(len(seat.log) == mark for seat, mark in zip(seats, marks, strict=True)):
                    await asyncio.sleep(0.005)
            continue
        version = mover.version
        await mover.play(command)
        for other in seats:
            await other.until(lambda o=other, v=version: o.version > v)
    return max_steps


async def record(game_id: str, seed: int, max_steps: int = 4000) -> Recording:
    """Play one seeded game (or its first ``max_steps`` moves) and keep every frame."""
    spec, game = SPECS[game_id], get_game(game_id)
    raw: dict[str, list[bytes]] = {}
    welcomes: dict[str, dict[str, Any]] = {}

    async def opener(name: str) -> Seat:
        raw[name] = []
        conn = await connect(port, name, tap=raw[name].append)
        welcomes[name] = conn.welcome
        return Seat(conn)

    # The host's heartbeat as shipped (15 s of silence before a drop), not the tests' quick
    # 1 s: a spectator only answers pings, and a busy machine can hold a pong back for 3 s.
    async with running_host(deck_dirs=(DECK_DIR, AUDIT_DECKS), heartbeat_interval=5.0) as host:
        port = host.port
        owner = await opener(NAMES[0])
        await owner.create_room(game_id, deck=spec.deck, options=spec.options)
        code = (await owner.expect(p.JOINED))["code"]
        seats = [owner]
        for name in NAMES[1 : spec.players]:
            seat = await opener(name)
            await seat.join_room(code)
            await seat.expect(p.JOINED)
            seats.append(seat)
        await owner.start_game()
        for seat in seats:
            await seat.expect(p.VIEW)
        watchers = [await opener(SPECTATORS[0])]
        await watchers[0].join_room(code, spectate=True)
        await watchers[0].expect(p.VIEW)
        steps = await lockstep(seats, game, Rng(seed), min(6, max_steps))
        # Mid-game: a late spectator, a chat line and a refused command (an error frame).
        watchers.append(await opener(SPECTATORS[1]))
        await watchers[1].join_room(code, spectate=True)
        await watchers[1].expect(p.VIEW)
        mark = owner.mark()
        await owner.chat("good luck, everyone")
        await owner.expect(p.CHAT_LINE, since=mark)
        await owner.play({"type": "audit-no-such-command"})
        await owner.expect(p.ERROR, since=mark)
        steps += await lockstep(seats, game, Rng(seed + 1), max_steps - steps)
        final = seats[0].version
        for seat in [*seats, *watchers]:
            await seat.until(lambda s=seat: s.version == final)
        await asyncio.sleep(0.05)  # let trailing room and notice frames arrive
        assert host.journal is not None
        (stored,) = [item for item in host.journal.load() if item.room.code == code]
        named = list(zip(NAMES[: len(seats)], seats, strict=True))
        tokens = {name: seat.conn.token for name, seat in named}
        seat_of: dict[str, int | None] = {name: seat_number(seat) for name, seat in named}
    frames = {
        name: [welcomes[name], *(p.decode_body(f[p.HEADER.size :], strict_keys=False) for f in got)]
        for name, got in raw.items()
    }
    seat_of.update(dict.fromkeys(SPECTATORS))
    clean_tokens = {name: token for name, token in tokens.items() if isinstance(token, str)}
    assert len(clean_tokens) == spec.players, "every seat got its token"
    return Recording(game_id, frames, seat_of, clean_tokens, stored, steps)


def audit(recording: Recording) -> tuple[list[str], Auditor]:
    """Every leak in every frame of ``recording``, and the auditor (for its counts)."""
    game = get_game(recording.game_id)
    states, _, _ = replay(game, recording.stored)
    numbers = {m.bot_seed: "a member's bot seed" for m in recording.stored.members}
    numbers[recording.stored.room.seed or 0] = "the room's seed"
    auditor = Auditor(recording.game_id, states, numbers)
    hashes = {m.token_hash: "a token hash" for m in recording.stored.members if m.token_hash}
    leaks: list[str] = []
    for name, frames in recording.frames.items():
        seat = recording.seat_of[name]
        banned = dict(hashes)
        banned.update(
            {t: f"{who}'s seat token" for who, t in recording.tokens.items() if who != name}
        )
        version: int | None = None
        for index, frame in enumerate(frames):
            if frame["t"] == p.VIEW:
                version = frame["version"]
            sees_as = seat if index >= recording.seated_from.get(name, 0) else None
            for part, at in dated_parts(frame, version):
                for leak in auditor.check(part, at, sees_as, banned):
                    leaks.append(f"{name} frame {index} ({part['t']}, v{at}): {leak}")
    return leaks, auditor


def dated_parts(frame: dict[str, Any], version: int | None) -> list[tuple[dict[str, Any], Any]]:
    """The frame to judge at ``version``; a first view's log entries apart, each at its own."""
    log = frame.get("log") if frame["t"] == p.VIEW else None
    if not isinstance(log, list):
        return [(frame, version)]
    rest = {key: value for key, value in frame.items() if key != "log"}
    return [(rest, version)] + [({"t": "log entry", **entry}, entry["version"]) for entry in log]


_recorded: dict[tuple[str, int], Recording] = {}


async def recorded(game_id: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> Recording:
    """One recording per game and seed, shared by the audit and the checks of the audit."""
    if (game_id, seed) not in _recorded:
        monkeypatch.setattr(roomgame, "secrets", SeededSecrets(seed))
        _recorded[game_id, seed] = await record(game_id, seed)
    return _recorded[game_id, seed]


def test_every_game_is_audited() -> None:
    shipped = {game.id for game in all_games()} - {"counting"}  # the net tests' own game
    assert set(SPECS) == shipped


@pytest.mark.parametrize("seed", SEEDS, ids=hex)
@pytest.mark.parametrize("game_id", sorted(SPECS))
async def test_no_frame_tells_a_seat_what_it_may_not_see(
    game_id: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    recording = await recorded(game_id, seed, monkeypatch)
    assert recording.stored.room.seed == seed & ((1 << 63) - 1)
    leaks, auditor = audit(recording)
    assert not leaks, f"{len(leaks)} leak(s):\n" + "\n".join(leaks[:25])

    stats = auditor.stats
    game = get_game(game_id)
    states, _, final = replay(game, recording.stored)
    assert game.is_over(final), f"{game_id} did not finish in {recording.steps} steps"
    for kind in (p.WELCOME, p.JOINED, p.ROOM, p.VIEW, p.CHAT_LINE, p.ERROR, p.NOTICE):
        assert stats[f"frames:{kind}"] > 0, f"no {kind} frame was audited"
    assert stats["frames:view"] >= 2 * len(states)  # every seat, every version
    if game_id == "meme":
        assert stats["frames with links"] >= stats["in game"] // 4
    elif game_id == "stealing-home":
        assert stats["hidden cards"] >= 10 * stats["in game"]  # the draw pile
    else:
        assert stats["frames with hidden hands"] >= 0.6 * stats["in game"]
        assert stats["hidden cards"] >= 10 * stats["in game"]
    if game_id in ("tshirt", "stealing-home"):
        assert stats["frames with links"] > 0  # authors before the pick; a pending claim


def plant(frame: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """``frame`` with ``extra`` added inside its view (or at the top of other frames)."""
    if frame["t"] == p.VIEW:
        return {**frame, "view": {**frame["view"], **extra}}
    return {**frame, **extra}


def first_view(
    recording: Recording, states: Mapping[int, Any], name: str, where: Callable[[Any], bool]
) -> dict[str, Any]:
    """The first view frame ``name`` got whose state (at its version) matches ``where``."""
    for frame in recording.frames[name]:
        if frame["t"] == p.VIEW and where(states[frame["version"]]):
            return frame
    raise AssertionError(f"no view of {name} matches")


Planted = tuple[str, dict[str, Any], dict[str, dict[str, Any]], dict[str, dict[str, Any]]]
"""Whose frames, a clean view frame, frames that leak (by what) and copies that must pass.

A leaky frame is judged at its own version, or the clean frame's if it has none.
"""


def gridiron_plants(rec: Recording, states: Mapping[int, Any]) -> Planted:
    frame = first_view(rec, states, "Ann", lambda state: len(state.pile) >= 4)
    state = states[frame["version"]]
    hand = cards_view(state.deck, state.hands[rec.seat_of["Bob"]])
    assert cells_of(hand[0]["cells"])
    leaky = {
        "another hand": plant(frame, peek=hand),
        "another hand by its cells alone": plant(frame, peek=[{"cells": c["cells"]} for c in hand]),
        "the pile's order": plant(frame, hint=list(state.pile[:4])),
        "a generator state": plant(frame, nonce=state.rng),
        "the seed in a text": {"t": p.CHAT_LINE, "text": f"seed {rec.stored.room.seed}"},
    }
    return "Ann", frame, leaky, {"the board again": plant(frame, again=frame["view"]["board"])}


def stealing_home_plants(rec: Recording, states: Mapping[int, Any]) -> Planted:
    bob = rec.seat_of["Bob"]
    frame = first_view(rec, states, "Bob", lambda state: state.first and state.first.seat != bob)
    move = states[frame["version"]].first.move
    leaky = {
        "a pending claim's spot": plant(frame, at={"card": move.card, "x": move.x, "y": move.y})
    }
    return "Bob", frame, leaky, {"face-up cards": plant(frame, again=frame["view"]["face_up"])}


def tshirt_plants(rec: Recording, states: Mapping[int, Any]) -> Planted:
    ann = rec.seat_of["Ann"]

    def judged(state: Any) -> bool:
        authors = [sub.seat for sub in state.submissions]
        return state.phase.value == "judging" and ann not in authors and authors != sorted(authors)

    frame = first_view(rec, states, "Ann", judged)
    state = states[frame["version"]]
    deck, sub = state.deck, state.submissions[0]
    hand = next(player.hand for player in state.players if player.seat != ann and player.hand)
    clue = {"seat": sub.seat, "text": deck.slogans[sub.card]}
    leaky = {
        "an author before the pick": plant(frame, clue=clue),
        "the authors in revealed order": plant(frame, by=[s.seat for s in state.submissions]),
        "another hand in a chat line": {"t": p.CHAT_LINE, "text": deck.slogans[hand[0]]},
        "another seat's token": {"t": p.NOTICE, "text": rec.tokens["Bob"]},
        "the next T-shirt": plant(frame, tip=deck.tshirts[state.tshirt_pile[0]].picture),
    }
    return (
        "Ann",
        frame,
        leaky,
        {"an earlier round's author": plant(frame, old={**clue, "round": 0})},
    )


def meme_plants(rec: Recording, states: Mapping[int, Any]) -> Planted:
    ann = rec.seat_of["Ann"]

    def unrevealed(state: Any) -> bool:
        return state.reaction is not None and not state.reaction_revealed and state.reactor != ann

    def sealed(state: Any) -> bool:
        return not state.bets_revealed and any(b != ann and m for b, m in state.bets.items())

    frame, betting = (
        first_view(rec, states, "Ann", unrevealed),
        first_view(rec, states, "Ann", sealed),
    )
    state = states[frame["version"]]
    reaction = {"seat": state.reactor, "state": "face_down", "meme": state.reaction}
    past = {"turn": state.turn - 1, "reactor": state.reactor, "reaction": state.reaction}
    bettor, bets = next(
        (b, m) for b, m in states[betting["version"]].bets.items() if b != ann and m
    )
    bet = {"seat": bettor, "bets": [{"seat": t, "amount": n} for t, n in bets.items()]}
    leaky = {
        "the reactor's face-down meme": plant(frame, table={"reaction": reaction}),
        "a sealed bet": plant(betting, peek=[bet]),
    }
    return "Ann", frame, leaky, {"an earlier turn's reaction": plant(frame, record=past)}


PLANTERS: dict[str, Callable[[Recording, Mapping[int, Any]], Planted]] = {
    "gridiron": gridiron_plants,
    "stealing-home": stealing_home_plants,
    "tshirt": tshirt_plants,
    "meme": meme_plants,
}


@pytest.mark.parametrize("game_id", sorted(PLANTERS))
async def test_the_audit_reports_leaks_planted_in_real_frames(
    game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    recording = await recorded(game_id, SEEDS[0], monkeypatch)
    states, _, _ = replay(get_game(game_id), recording.stored)
    _, auditor = audit(recording)
    name, frame, leaky, innocent = PLANTERS[game_id](recording, states)
    version, seat = frame["version"], recording.seat_of[name]
    banned = {token: "a seat token" for who, token in recording.tokens.items() if who != name}
    assert not auditor.check(frame, version, seat, banned), "the clean frame must pass"
    for what, planted in leaky.items():
        at = planted.get("version", version)
        assert auditor.check(planted, at, seat, banned), f"the audit missed {what}"
    for what, planted in innocent.items():
        assert not auditor.check(planted, version, seat, banned), f"{what} is not a leak"


@pytest.mark.parametrize("part", ["private", "secret"])
@pytest.mark.parametrize("game_id", ["tshirt", "scramble", "meme"])
async def test_the_audit_catches_a_host_that_sends_hidden_event_fields_to_everyone(
    game_id: str, part: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def leaky_seat_events(
        frames: p.ViewFrames, events: Sequence[Event], seat: int | None
    ) -> list[bytes]:
        packed = []
        for event in events:
            shown = {"kind": event.kind, **event.data}
            for extra in event.private.values() if part == "private" else [event.secret]:
                shown.update(extra)
            packed.append(frames.pack(shown))
        return packed

    monkeypatch.setattr(RoomBroadcast, "seat_events", staticmethod(leaky_seat_events))
    monkeypatch.setattr(roomgame, "secrets", SeededSecrets(SEEDS[1]))
    leaks, _ = audit(await record(game_id, SEEDS[1], max_steps=40))
    assert leaks, f"{part} event fields sent to everyone went unnoticed"


async def test_the_audit_catches_a_log_that_tells_a_newcomer_what_its_seat_never_saw(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    honest = RoomBroadcast.first_view

    def telling_first_view(broadcast: RoomBroadcast, seat: int | None) -> dict[str, Any]:
        message = honest(broadcast, seat)
        message["log"] = [
            {
                "version": version,
                "events": [
                    {
                        "kind": e.kind,
                        **e.data,
                        **{k: v for extra in e.private.values() for k, v in extra.items()},
                    }
                ],
            }
            for version, e in broadcast._recent
        ]
        return message

    monkeypatch.setattr(RoomBroadcast, "first_view", telling_first_view)
    leaks, _ = audit(await record_takeover(SEEDS[0]))
    assert any("(log entry," in leak for leak in leaks), "a log of other seats' cards passed"


async def test_the_audit_catches_a_view_that_shows_another_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    honest = get_game("gridiron").view

    def peeking_view(state: Any, seat: int | None) -> dict[str, Any]:
        view = honest(state, seat)
        neighbour = next(s for s in state.seats if s != seat)
        return {**view, "peek": cards_view(state.deck, state.hands[neighbour])}

    swap_game(monkeypatch, "gridiron", view=peeking_view)
    monkeypatch.setattr(roomgame, "secrets", SeededSecrets(SEEDS[1]))
    leaks, _ = audit(await record("gridiron", SEEDS[1], max_steps=12))
    assert any("Ann" in leak and "hidden gsm card" in leak for leak in leaks)
    assert any("Watcher" in leak for leak in leaks), "a spectator must see no hand at all"


async def record_takeover(seed: int) -> Recording:
    """A T-Shirt room of Ann and two bots; Bea joins mid-game, waits, takes over a bot's seat
    and plays two rounds in it. Every frame each of them got is kept."""
    spec = SPECS["tshirt"]
    raw: dict[str, list[bytes]] = {}
    welcomes: dict[str, dict[str, Any]] = {}

    async def opener(name: str) -> Seat:
        raw[name] = []
        conn = await connect(port, name, tap=raw[name].append)
        welcomes[name] = conn.welcome
        return Seat(conn)

    async with running_host(deck_dirs=(DECK_DIR, AUDIT_DECKS), bot_pace=0.0) as host:
        port = host.port
        ann = await opener("Ann")
        options = {**spec.options, "round_results": "no pause"}
        await ann.create_room("tshirt", deck=spec.deck, options=options)
        code = (await ann.expect(p.JOINED))["code"]
        for _ in range(2):
            await ann.add_bot(None)
        await ann.expect(p.ROOM, where=lambda room: len(room["seats"]) == 3)
        await ann.start_game()
        await ann.expect(p.VIEW)
        players = [asyncio.create_task(autoplay(ann, "tshirt"))]
        bea = await opener("Bea")
        await bea.join_room(code)
        await bea.until(lambda: seated(bea) is not None, timeout=30)
        players.append(asyncio.create_task(autoplay(bea, "tshirt")))
        await bea.until(lambda: bea.view is not None and seated(bea) == bea.view["view"]["you"])
        start = (bea.view or {})["view"]["round"]
        await bea.until(lambda: (bea.view or {})["view"]["round"] >= start + 2, timeout=30)
        for player in players:
            player.cancel()
        await asyncio.gather(*players, return_exceptions=True)
        await asyncio.sleep(0.05)  # let trailing frames arrive
        assert host.journal is not None
        (stored,) = [item for item in host.journal.load() if item.room.code == code]
        tokens = {"Ann": ann.conn.token, "Bea": bea.conn.token}
        seat_of: dict[str, int | None] = {"Ann": seat_number(ann), "Bea": seated(bea)}
    frames = {
        name: [welcomes[name], *(p.decode_body(f[p.HEADER.size :], strict_keys=False) for f in got)]
        for name, got in raw.items()
    }
    seated_from = next(
        index
        for index, frame in enumerate(frames["Bea"])
        if frame["t"] == p.JOINED and frame["seat"] is not None
    )
    clean = {name: token for name, token in tokens.items() if isinstance(token, str)}
    return Recording("tshirt", frames, seat_of, clean, stored, 0, {"Bea": seated_from})


async def test_a_newcomer_sees_a_bots_hand_only_once_its_seat_is_theirs() -> None:
    recording = await record_takeover(SEEDS[0])
    leaks, auditor = audit(recording)
    assert not leaks, f"{len(leaks)} leak(s):\n" + "\n".join(leaks[:25])
    watched = recording.frames["Bea"][: recording.seated_from["Bea"]]
    assert sum(frame["t"] == p.VIEW for frame in watched) >= 1  # she watched before
    assert auditor.stats["frames with hidden hands"] > 0

    # The audit does look: judged as a spectator's, her frames from the seat on show a hand.
    as_spectator = Recording(
        "tshirt",
        recording.frames,
        {**recording.seat_of, "Bea": None},
        recording.tokens,
        recording.stored,
        0,
    )
    spotted, _ = audit(as_spectator)
    assert any(leak.startswith("Bea") for leak in spotted)
