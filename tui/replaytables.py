"""A replay step's table with nothing hidden, drawn for each game from its replay view.

Only presentation, like every game screen: each function reads the replay
view the host built (every hand, face-down card and sealed bet shown) and
says what lies where. Player and deck text goes through ``literal``. A game
this client does not know is shown as its view's plain data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from partyhost.tui.replaylog import namer
from partyhost.tui.text import Glyphs, literal, quoted
from partyhost.tui.widgets.gsm_board import BoardCard, BoardPicture, draw_board
from partyhost.tui.widgets.gsm_cards import Legend, Painter, read_cells
from partyhost.tui.widgets.seats import seat_style
from rich.console import Group, RenderableType
from rich.pretty import Pretty
from rich.text import Text

Frame = dict[str, Any]
Name = Callable[[object], Text]
GSM = frozenset({"stealing-home", "scramble", "gridiron", "four-corners"})
NO_GUESS = {
    "none": "has not guessed yet",
    "sitting_out": "sits this turn out",
    "withdrawn": "left the game",
}


def replay_table(info: Frame, view: Frame, glyphs: Glyphs, ascii_only: bool) -> RenderableType:
    """Everything on (and under) the table at one step of a replay."""
    game, name = str(info.get("game", "")), _coloured(namer(info))
    if game == "tshirt":
        return _tshirt(view, name, glyphs)
    if game == "meme":
        return _meme(view, name)
    if game in GSM:
        return _gsm(view, name, ascii_only)
    return Pretty(view)


def _coloured(name: Name) -> Name:
    def coloured(seat: object) -> Text:
        text = name(seat)
        text.stylize(f"bold {seat_style(seat)}")
        return text

    return coloured


def _by_seat(entries: object) -> dict[int, Frame]:
    if not isinstance(entries, list):
        return {}
    return {e["seat"]: e for e in entries if isinstance(e, dict) and isinstance(e.get("seat"), int)}


# --- The T-Shirt Game ---------------------------------------------------------------


def _tshirt(view: Frame, name: Name, glyphs: Glyphs) -> RenderableType:
    lines = [
        Text.assemble(
            (f"Round {view.get('round')}", "bold"),
            "  judge ",
            name(view.get("judge")),
            f"  ({view.get('phase')})",
        )
    ]
    shirt = view.get("tshirt")
    if isinstance(shirt, dict):
        lines.append(Text.assemble("The shirt: ", literal(shirt.get("picture", ""), "italic")))
    hands, played = _by_seat(view.get("hands")), view.get("played") or []
    for player in view.get("players", []):
        seat = player.get("seat")
        role = " (judge)" if player.get("is_judge") else ""
        gone = "" if player.get("presence") == "active" else f" [{player.get('presence')}]"
        lines.append(Text())
        lines.append(Text.assemble(name(seat), f"  {player.get('score', 0)} points{role}{gone}"))
        cards = hands.get(seat, {}).get("cards", [])
        slogans = [quoted(card.get("text", "")) for card in cards]
        lines.append(Text.assemble("  hand: ", *_joined(slogans) if slogans else ("(none)",)))
        for entry in played:
            if entry.get("seat") == seat:
                face = "face up" if view.get("phase") == "judging" else "face down"
                lines.append(Text.assemble("  on the table: ", quoted(entry["text"]), f" ({face})"))
    return Group(*lines)


def _joined(parts: list[Text], separator: str = " · ") -> list[Text | str]:
    joined: list[Text | str] = []
    for index, part in enumerate(parts):
        if index:
            joined.append(separator)
        joined.append(part)
    return joined


# --- What Do You Meme? ----------------------------------------------------------------


def _caption(view: Frame, meme: object) -> Text:
    for entry in view.get("memes", []):
        if isinstance(entry, dict) and entry.get("meme") == meme:
            return quoted(entry.get("caption", ""))
    return Text("?")


def _meme(view: Frame, name: Name) -> RenderableType:
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
    table = view.get("table") or {}
    reaction = table.get("reaction") or {}
    if reaction.get("meme") is not None:
        lines.append(
            Text.assemble(
                name(reaction.get("seat")),
                " reacts with ",
                _caption(view, reaction["meme"]),
                " (face up)" if reaction.get("state") == "revealed" else " (face down)",
            )
        )
    for guess in table.get("guesses", []):
        meme, state = guess.get("meme"), str(guess.get("state", ""))
        if meme is None:
            lines.append(Text.assemble(name(guess.get("seat")), f" {NO_GUESS.get(state, state)}"))
            continue
        shown = "face up" if state == "revealed" else state.replace("_", " ")
        lines.append(
            Text.assemble(name(guess.get("seat")), " guesses ", _caption(view, meme), f" ({shown})")
        )
    unit = table.get("unit")
    for bet in table.get("bets", []):
        sealed = " (sealed)" if bet.get("sealed") else ""
        on = [
            Text.assemble(name(b.get("seat")), f" {_amount(b.get('amount'), unit)}")
            for b in bet.get("bets") or []
            if isinstance(b, dict)
        ]
        lines.append(Text.assemble(name(bet.get("seat")), f" bets{sealed}: ", *_joined(on, ", ")))
    lines.append(Text())
    for player in view.get("players", []):
        lines.append(Text.assemble(name(player.get("seat")), f"  ${player.get('money', 0)}"))
    return Group(*lines)


def _amount(amount: object, unit: object) -> str:
    value = amount if isinstance(amount, int) else 0
    return f"${value}" if unit == "dollar" else f"{value} token{'' if value == 1 else 's'}"


# --- Game, Set, Match! ------------------------------------------------------------------


def _board(view: Frame, board: object, painter: Painter) -> Text:
    shape = view.get("shape") or {}
    rows, cols = int(shape.get("rows", 2)), int(shape.get("cols", 2))
    cards = [entry for entry in board if isinstance(entry, dict)] if isinstance(board, list) else []
    if not cards:
        return Text("(no cards)", "dim")
    placed = tuple(
        BoardCard(int(c["x"]), int(c["y"]), read_cells(c), _owner_style(c.get("owner")))
        for c in cards
    )
    xs, ys = [card.x for card in placed], [card.y for card in placed]
    last = view.get("last") if isinstance(view.get("last"), dict) else None
    spot = (last["x"], last["y"]) if last and isinstance(last.get("x"), int) else None
    picture = BoardPicture(
        rows, cols, placed, region=(min(xs), min(ys), max(xs), max(ys)), last=spot
    )
    return draw_board(picture, painter)


def _owner_style(owner: object) -> str:
    return seat_style(owner) if isinstance(owner, int) else "bright_black"


def _hand(cards: object, painter: Painter) -> Text:
    """A hand's cards side by side, each as its rows of tiles."""
    grids = [read_cells(c) for c in cards if isinstance(c, dict)] if isinstance(cards, list) else []
    if not grids:
        return Text("  (no cards)", "dim")
    text = Text(no_wrap=True)
    for row in range(max(len(grid) for grid in grids)):
        text.append("  " if row == 0 else "\n  ")
        for grid in grids:
            if row < len(grid):
                text.append_text(painter.row(grid[row]))
            text.append("  ")
    return text


def _gsm(view: Frame, name: Name, ascii_only: bool) -> RenderableType:
    painter = Painter(Legend.from_view(view), ascii_only=ascii_only, initials=True)
    parts: list[RenderableType] = []
    scores = []
    for row in view.get("scores", []):
        extras = ", ".join(
            f"{key} {value}"
            for key, value in row.items()
            if key not in ("seat", "away", "left") and not isinstance(value, bool)
        )
        flags = " (left)" if row.get("left") else " (away)" if row.get("away") else ""
        scores.append(Text.assemble(name(row.get("seat")), f": {extras}{flags}"))
    parts.append(Text.assemble(*_joined(scores, "   ")))
    if isinstance(view.get("board"), list) and view["board"]:
        parts.append(_board(view, view["board"], painter))
    if view.get("face_up"):
        parts += [Text("Face up:"), _hand(view["face_up"], painter)]
    boards = _by_seat(view.get("boards"))
    for seat, hand in _by_seat(view.get("hands")).items():
        parts.append(Text.assemble(name(seat), "'s hand:"))
        parts.append(_hand(hand.get("cards"), painter))
        if seat in boards:
            parts.append(Text.assemble(name(seat), "'s board:"))
            parts.append(_board(view, boards[seat].get("board"), painter))
    return Group(*parts)
