"""A replay told in words (the replay screen's log and ``--export text``): each step's events
in its game's own log wording."""

from __future__ import annotations

import time
from collections.abc import Iterable

from partyhost.tui.games import replay_parts
from partyhost.tui.shared.replayparts import ReplayParts, namer
from partyhost.tui.text import Frame, Glyphs, counted
from rich.text import Text


def parts_for(info: Frame) -> ReplayParts:
    return replay_parts(str(info.get("game", "")))


def step_lines(info: Frame, step: Frame, glyphs: Glyphs) -> list[Text]:
    """What the step's events say, one line each (bookkeeping left out)."""
    narrate, name, view = parts_for(info).narrate, namer(info), step.get("view") or {}
    lines = [narrate(event, view, name, glyphs) for event in step.get("events", [])]
    return [line for line in lines if line is not None and line.plain.strip()]


def clock(moment: object, pattern: str = "%H:%M:%S") -> str:
    """A moment on the host's clock in local time ("?" if unknown)."""
    if not isinstance(moment, int | float):
        return "?"
    return time.strftime(pattern, time.localtime(moment))


def result_line(result: Frame, info: Frame) -> Text:
    """``Ann won, 3200 points`` / ``Bob, $4``."""
    parts: list[Text | str] = [namer(info)(result.get("seat"))]
    if result.get("bot"):
        parts.append(" (bot)")
    if result.get("won"):
        parts.append(" won")
    if result.get("points") is not None:
        parts.append(f", {counted(result['points'], 'point')}")
    if result.get("money") is not None:
        parts.append(f", ${result['money']}")
    return Text.assemble(*parts)


def export_text(info: Frame, steps: Iterable[Frame], glyphs: Glyphs) -> str:
    """The whole game as a readable log: who played, each step's events (with its time, number
    and the round the table is in after it), then the result."""
    players = ", ".join(
        f"{p['name']} (seat {p['seat']}{', bot' if p.get('bot') else ''})"
        for p in info.get("players", [])
    )
    lines = [
        f"{info.get('game_name') or info.get('game')}: game {info.get('id')} in room"
        f" {info.get('room')}",
        f"Played {clock(info.get('started'), '%Y-%m-%d %H:%M')} to"
        f" {clock(info.get('ended'), '%H:%M')}, deck {info.get('deck')}",
        f"Players: {players}",
        "",
    ]
    for step in steps:
        said = step_lines(info, step, glyphs)
        if not said:
            continue
        where = parts_for(info).round_title(step.get("round")).lower()
        prefix = f"[{clock(step.get('at'))}] step {step.get('step')}, {where}: "
        lines.append(prefix + said[0].plain)
        lines += [" " * len(prefix) + line.plain for line in said[1:]]
    results = [f"  {result_line(r, info).plain}" for r in info.get("results", [])]
    lines += ["", "Result:", *results]
    return "\n".join(lines) + "\n"
