"""The chaos bench's referee: every view a player was shown must fit one fault-free history.

The journal holds a room's seed, deck and accepted commands. Replaying them on a
fresh engine, with no host, no network and no crash, gives the state at every
version. A finished room passes when:

- the replayed game is over;
- every view frame any bot received, before or after any kill, reconnect or drop,
  equals the engine's view of the replayed state at that version for that seat
  (so no acknowledged command was lost or changed: a view is only sent after its
  command is committed, and a lost command would make the history differ);
- no bot was ever shown an older version than one it had seen (a restart
  that forgot a command would do that);
- each bot's last view is of the final state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgpack
from chaos_players import ChaosBot, digest
from partyhost.engine.core import SYSTEM_SEAT, apply, apply_tick
from partyhost.engine.registry import get_game
from partyhost.net.journal import StoredRoom


@dataclass
class RoomVerdict:
    code: str
    game: str
    versions: int = 0
    views_checked: int = 0
    problems: list[str] = field(default_factory=list)


def _wire(value: Any) -> Any:
    """``value`` as it looks after a trip over the wire (tuples become lists)."""
    return msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)


def replay_states(stored: StoredRoom) -> list[Any]:
    """The room's states in order, from setup through every journalled command."""
    room = stored.room
    game = get_game(room.game)
    assert room.seed is not None and room.start_seats is not None and room.rules is not None
    state = game.setup(game.build_deck(room.deck_data), room.start_seats, room.rules, room.seed)
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
        if highest != final.version:
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
