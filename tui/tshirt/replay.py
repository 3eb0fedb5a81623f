"""The T-Shirt Game in a replay: every hand of slogans, and whose each slogan on the table is."""

from __future__ import annotations

from partyhost.tui.shared.replayparts import ReplayParts, by_seat, joined
from partyhost.tui.text import Frame, Glyphs, Name, literal, quoted
from partyhost.tui.tshirt.text import describe_event
from rich.console import Group, RenderableType
from rich.text import Text


def table(view: Frame, name: Name, glyphs: Glyphs, ascii_only: bool) -> RenderableType:
    if not view.get("round"):  # before the first move: no round, no judge yet
        heading = Text("Before the first round", "bold")
    else:
        heading = Text.assemble(
            (f"Round {view.get('round')}", "bold"),
            "  judge ",
            name(view.get("judge")),
            f"  ({view.get('phase')})",
        )
    lines = [heading]
    shirt = view.get("tshirt")
    if isinstance(shirt, dict):
        lines.append(Text.assemble("The shirt: ", literal(shirt.get("picture", ""), "italic")))
    hands, played = by_seat(view.get("hands")), view.get("played") or []
    face = "face up" if view.get("phase") == "judging" else "face down"
    for player in view.get("players", []):
        seat = player.get("seat")
        role = " (judge)" if player.get("is_judge") else ""
        gone = "" if player.get("presence") == "active" else f" [{player.get('presence')}]"
        lines.append(Text())
        lines.append(Text.assemble(name(seat), f"  {player.get('score', 0)} points{role}{gone}"))
        slogans = [quoted(card.get("text", "")) for card in hands.get(seat, {}).get("cards", [])]
        lines.append(Text.assemble("  hand: ", *(joined(slogans) if slogans else ["(none)"])))
        for entry in played:
            if entry.get("seat") == seat:
                lines.append(Text.assemble("  on the table: ", quoted(entry["text"]), f" ({face})"))
    return Group(*lines)


PARTS = ReplayParts(describe_event, table)
