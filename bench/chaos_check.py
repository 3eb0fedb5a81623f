"""The chaos bench's referee: every view a player was shown must fit one fault-free history.

The host's store holds a room's seed, deck and accepted commands. Replaying them on a
fresh engine, with no host, no network and no crash, gives the state at every
version. A finished room passes when:

- the replayed game is over;
- every view frame any bot received, before or after any kill, reconnect or drop,
  equals the engine's view of the replayed state at that version for that seat
  (so no acknowledged command was lost or changed: a view is only sent after its
  command is committed, and a lost command would make the history differ);
- no bot was ever shown an older version than one it had seen (a restart
  that forgot a command would do that);
- each bot's last view is of the final state, unless its seat was freed after the end:
  a bot away past the grace once the game had ended is no longer in the room (the host's
  rule: an expired grace between games removes the player), so its token is unknown
  when it returns and it never sees the last views. That is accepted only if the
  journal agrees: the game is over, the seat's member has left, and no ``seat_left``
  took the seat out during the game (``freed_after_the_end``).

The replay of the room's game, as ``partyhost replay`` builds it from the
store, is checked against the same fault-free replay (:func:`check_replay`):
the kept game holds exactly the room's commands, and every replay step is the
replay view of the state at that version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgpack
from chaos_players import ChaosBot, digest
from partyhost.engine.core import SYSTEM_SEAT, apply, apply_tick
from partyhost.engine.registry import get_game
from partyhost.net.store.records import CommandRecord, StoredRoom, StoreReader
from partyhost.net.store.replaybuilder import ReplayRefused, build_replay


@dataclass
class ReplayVerdict:
    code: str
    game: str
    steps_checked: int = 0
    problems: list[str] = field(default_factory=list)


@dataclass
class RoomVerdict:
    code: str
    game: str
    versions: int = 0
    views_checked: int = 0
    problems: list[str] = field(default_factory=list)
    freed_after_the_end: list[str] = field(default_factory=list)
    """Bots whose seat the host let go after the game ended, while they were away."""


def _wire(value: Any) -> Any:
    """``value`` as it looks after a trip over the wire (tuples become lists)."""
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)


def replay_states(stored: StoredRoom) -> list[Any]:
    """The room's states in order, from setup through every journalled command."""
    room = stored.room
    game = get_game(room.game)
    assert room.seed is not None and room.start_seats is not None and room.rules is not None
    state = game.start(game.build_deck(room.deck_data), room.start_seats, room.rules, room.seed)
    states = [state]
    for record in stored.commands:
        if record.command is None:
            state, _ = apply_tick(game, state, record.now)
        else:
            seat = SYSTEM_SEAT if record.seat is None else record.seat
            state, _ = apply(game, state, seat, record.command, record.now)
        states.append(state)
    return states


def check_room(stored: StoredRoom, bots: list[ChaosBot]) -> RoomVerdict:
    """Compare what every bot saw with the fault-free replay of the room's journal."""
    game = get_game(stored.room.game)
    verdict = RoomVerdict(stored.room.code, stored.room.game)
    try:
        states = replay_states(stored)
    except Exception as exc:  # a journal the engine cannot replay is itself a divergence
        verdict.problems.append(f"replay failed: {exc!r}")
        return verdict
    by_version = {state.version: state for state in states}
    final = states[-1]
    verdict.versions = len(by_version)
    if not game.is_over(final):
        verdict.problems.append(f"the replayed game is not over (version {final.version})")
    expected: dict[tuple[int, int], bytes] = {}
    for bot in bots:
        if bot.seat is None:
            verdict.problems.append(f"{bot.name} never got a seat")
            continue
        highest = -1
        for seen in bot.views:
            state = by_version.get(seen.version)
            if state is None:
                verdict.problems.append(f"{bot.name} saw version {seen.version}, not in the replay")
                continue
            key = (bot.seat, seen.version)
            if key not in expected:
                expected[key] = digest(_wire(game.view(state, bot.seat)))
            if seen.fingerprint != expected[key]:
                verdict.problems.append(
                    f"{bot.name} (seat {bot.seat}) saw a view at version {seen.version}"
                    " that differs from the fault-free replay"
                )
            if seen.version < highest:
                verdict.problems.append(
                    f"{bot.name} was shown version {seen.version} after version {highest}"
                )
            highest = max(highest, seen.version)
            verdict.views_checked += 1
        if highest != final.version and bot.seat_freed:
            why_not = _not_freed_after_the_end(stored, bot, game.is_over(final))
            if why_not is None:
                verdict.freed_after_the_end.append(bot.name)
            else:
                verdict.problems.append(
                    f"{bot.name} last saw version {highest}, the game ended at {final.version},"
                    f" and its token was refused: {why_not}"
                )
        elif highest != final.version:
            later = [
                record.command or "tick"
                for record, state in zip(stored.commands, states[1:], strict=True)
                if state.version > highest
            ]
            verdict.problems.append(
                f"{bot.name} last saw version {highest}, the game ended at {final.version}"
                f" (after {later[:3]})"
            )
    return verdict


def _not_freed_after_the_end(stored: StoredRoom, bot: ChaosBot, over: bool) -> str | None:
    """Why the journal does not show ``bot``'s seat freed after the game ended (None: it
    does)."""
    if not over:
        return "the game is not over"
    member = next(
        (m for m in stored.members if m.seat == bot.seat and m.name == bot.name and not m.bot),
        None,
    )
    if member is None:
        return f"no member {bot.name} in seat {bot.seat}"
    if not member.left:
        return "the journal still holds the seat"
    if any(_took_out(record, bot.seat) for record in stored.commands):
        return "the seat was taken out during the game"
    return None


def _took_out(record: CommandRecord, seat: int | None) -> bool:
    command = record.command
    return (
        record.seat in (None, SYSTEM_SEAT)
        and command is not None
        and command.get("type") == "seat_left"
        and command.get("seat") == seat
    )


def check_replay(stored: StoredRoom, history: StoreReader) -> ReplayVerdict:
    """Compare the kept game's replay with the room's fault-free replay."""
    room = stored.room
    verdict = ReplayVerdict(room.code, room.game)
    if room.seed is None:
        verdict.problems.append("the store holds no game for this room")
        return verdict
    game_id = history.game_of_room(room.code, room.seed)
    archived = None if game_id is None else history.archived(game_id)
    if archived is None:
        verdict.problems.append("the store does not hold the room's game")
        return verdict
    kept = [(c.seat, c.command, c.now) for c in archived.commands]
    journaled = [(c.seat, c.command, c.now) for c in stored.commands]
    if kept != journaled:
        verdict.problems.append(
            f"the history kept {len(kept)} commands, the journal {len(journaled)}, and they differ"
        )
    try:
        replay = build_replay(archived)
        states = replay_states(stored)
    except ReplayRefused as refused:
        verdict.problems.append(f"the replay was refused: {refused.code}: {refused.message}")
        return verdict
    except Exception as exc:
        verdict.problems.append(f"replay failed: {exc!r}")
        return verdict
    game = get_game(room.game)
    steps = replay.all_steps()
    if len(steps) != len(states):
        verdict.problems.append(
            f"the replay has {len(steps)} steps, the journal {len(states)} states"
        )
    for step, state in zip(steps, states, strict=False):
        if step["version"] != state.version:
            verdict.problems.append(
                f"replay step {step['step']} is version {step['version']}, not {state.version}"
            )
        elif _wire(step["view"]) != _wire(game.replay_view(state)):
            verdict.problems.append(
                f"replay step {step['step']} differs from the state rebuilt from the journal"
            )
        else:
            verdict.steps_checked += 1
    return verdict
