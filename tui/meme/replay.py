"""What Do You Meme? in a replay: the reaction meme, every guess and every sealed bet shown."""

from __future__ import annotations

from partyhost.tui.meme.text import amount_text, describe_event, memes_of
from partyhost.tui.shared.replayparts import ReplayParts, joined
from partyhost.tui.text import Frame, Glyphs, Name, literal, quoted
from rich.console import Group, RenderableType
from rich.text import Text

NO_GUESS = {
    "none": "has not guessed yet",
    "sitting_out": "sits this turn out",
    "withdrawn": "left the game",
}


def _caption(view: Frame, meme: object) -> Text:
    for entry in memes_of(view):
        if entry.get("meme") == meme:
            return quoted(entry.get("caption", ""))
    return Text("?")


def table(view: Frame, name: Name, glyphs: Glyphs, ascii_only: bool) -> RenderableType:
    title = "Final round" if view.get("final") else f"Round {view.get('round')}"
    lines = [
        Text.assemble(
            (title, "bold"), f"  turn {view.get('turn')}  reactor ", name(view.get("reactor"))
        )
    ]
    scenario = view.get("scenario")
    if isinstance(scenario, dict):
        number = "" if scenario.get("custom") else f" {scenario.get('number')}"
        lines.append(Text.assemble(f"Scenario{number}: ", literal(scenario.get("text", ""))))
    on_table = view.get("table") or {}
    reaction = on_table.get("reaction") or {}
    if reaction.get("meme") is not None:
        face = "face up" if reaction.get("state") == "revealed" else "face down"
        lines.append(
            Text.assemble(
                name(reaction.get("seat")),
                " reacts with ",
                _caption(view, reaction["meme"]),
                f" ({face})",
            )
        )
    for guess in on_table.get("guesses", []):
        meme, state = guess.get("meme"), str(guess.get("state", ""))
        if meme is None:
            lines.append(Text.assemble(name(guess.get("seat")), f" {NO_GUESS.get(state, state)}"))
            continue
        face = "face up" if state == "revealed" else state.replace("_", " ")
        lines.append(
            Text.assemble(name(guess.get("seat")), " guesses ", _caption(view, meme), f" ({face})")
        )
    unit = on_table.get("unit")
    for bet in on_table.get("bets", []):
        sealed = " (sealed)" if bet.get("sealed") else ""
        on = [
            Text.assemble(name(b.get("seat")), f" {amount_text(b.get('amount'), unit)}")
            for b in bet.get("bets") or []
            if isinstance(b, dict)
        ]
        lines.append(Text.assemble(name(bet.get("seat")), f" bets{sealed}: ", *joined(on, ", ")))
    lines.append(Text())
    for player in view.get("players", []):
        lines.append(Text.assemble(name(player.get("seat")), f"  ${player.get('money', 0)}"))
    return Group(*lines)


PARTS = ReplayParts(describe_event, table)
