"""A replay told in words: each step's events narrated as the table's log tells them.

The replay screen's log and ``partyhost replay --export text`` both use
:func:`narrate`, which hands an event to its game's own log wording; a game
this client does not know gets its events listed by kind. Player text goes
through ``literal`` like everywhere else.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from partyhost.tui.screens import gsm_text, meme_text, tshirt_text
from partyhost.tui.text import Glyphs, literal
from rich.text import Text

Frame = dict[str, Any]
Name = Callable[[object], Text]

CARD_COUNTED = frozenset({"gridiron", "four-corners"})
"""Games without rounds, whose replays step by each card put on the table."""
SCRAMBLE = "scramble"


def narrate(game: str, event: Frame, view: Frame, name: Name, glyphs: Glyphs) -> Text | None:
    """The log line for ``event`` (None: bookkeeping the log leaves out)."""
    if game == "tshirt":
        return tshirt_text.describe_event(event, name, glyphs)
    if game == "meme":
        return meme_text.describe_event(event, view, name, glyphs)
    if game in ("stealing-home", SCRAMBLE, "gridiron", "four-corners"):
        return gsm_text.describe_event(event, name, glyphs, None)
    return Text(str(event.get("kind", "?")), "dim")


def round_title(game: str, number: object) -> str:
    """``Round 3``, ``Game 2`` (a Scramble match's games), ``5 cards on the table``."""
    if game == SCRAMBLE:
        return f"Game {number}"
    if game in CARD_COUNTED:
        return f"{number} cards on the table"
    return f"Round {number}"


def player_names(info: Frame) -> dict[int, str]:
    return {int(p["seat"]): str(p["name"]) for p in info.get("players", []) if "seat" in p}


def namer(info: Frame) -> Name:
    """A seat's name as typed (``seat N`` for a seat the game does not list)."""
    names = player_names(info)

    def name(seat: object) -> Text:
        if isinstance(seat, int) and seat in names:
            return literal(names[seat], "bold")
        return Text("?" if seat is None else f"seat {seat}")

    return name


def step_lines(info: Frame, step: Frame, glyphs: Glyphs) -> list[Text]:
    """What the step's events say, one line each."""
    game, name, view = str(info.get("game", "")), namer(info), step.get("view") or {}
    lines = [narrate(game, event, view, name, glyphs) for event in step.get("events", [])]
    return [line for line in lines if line is not None and line.plain.strip()]


def _clock(moment: object, pattern: str = "%H:%M:%S") -> str:
    if not isinstance(moment, int | float):
        return "?"
    return time.strftime(pattern, time.localtime(moment))


def _result_line(result: Frame, names: dict[int, str]) -> str:
    name = names.get(int(result["seat"]), f"seat {result['seat']}")
    parts = [f"{name}{' (bot)' if result.get('bot') else ''}"]
    if result.get("won"):
        parts.append("won")
    if result.get("points") is not None:
        parts.append(f"{result['points']} points")
    if result.get("money") is not None:
        parts.append(f"${result['money']}")
    return "  " + ", ".join(parts)


def header_lines(info: Frame) -> list[str]:
    title = info.get("game_name") or info.get("game")
    players = ", ".join(
        f"{p['name']} (seat {p['seat']}{', bot' if p.get('bot') else ''})"
        for p in info.get("players", [])
    )
    return [
        f"{title}: game {info.get('id')} in room {info.get('room')}",
        f"Played {_clock(info.get('started'), '%Y-%m-%d %H:%M')} to"
        f" {_clock(info.get('ended'), '%H:%M')}, deck {info.get('deck')}",
        f"Players: {players}",
    ]


def export_text(info: Frame, steps: Iterable[Frame], glyphs: Glyphs) -> str:
    """The whole game as a readable log: who played, each step's events, then the result.

    Each step is marked with its time, its number and the round the table is
    in after it (the step that ends a round already shows the next one).
    """
    lines = [*header_lines(info), ""]
    game = str(info.get("game", ""))
    for step in steps:
        said = step_lines(info, step, glyphs)
        if not said:
            continue
        where = round_title(game, step.get("round")).lower()
        prefix = f"[{_clock(step.get('at'))}] step {step.get('step')}, {where}: "
        lines.append(prefix + said[0].plain)
        lines += [" " * len(prefix) + line.plain for line in said[1:]]
    names = player_names(info)
    lines += ["", "Result:", *(_result_line(r, names) for r in info.get("results", []))]
    return "\n".join(lines) + "\n"
