"""A chat or event flood cannot grow the client: every history keeps a fixed number of lines."""

from __future__ import annotations

from partyhost.tui.shared.log import LINE_LIMIT, ROW_LIMIT, GameLog, ReflowLog
from rich.text import Text
from textual.app import App, ComposeResult

FLOOD = ROW_LIMIT + LINE_LIMIT
"""More lines than the widget keeps rows, even of one row each."""


class Logs(App[None]):
    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {"edge": "round"}  # as the client's app sets it

    def compose(self) -> ComposeResult:
        yield ReflowLog(id="chat")
        yield GameLog(lambda event: Text(str(event["text"])), id="events")


async def test_a_flood_of_lines_keeps_the_last_ones_only() -> None:
    app = Logs()
    async with app.run_test(size=(40, 20)) as pilot:
        chat = app.query_one("#chat", ReflowLog)
        long_line = "spam " * 30  # wraps into several rows at this width
        for n in range(FLOOD):
            chat.add(Text(f"{n} {long_line}"))
        events = app.query_one("#events", GameLog)
        history: tuple[dict[str, object], ...] = ()
        for n in range(FLOOD):
            history = (*history, {"text": f"event {n}"})[-LINE_LIMIT:]
            events.show(history)
        await pilot.pause()
        assert len(chat.kept) == LINE_LIMIT
        assert 0 < len(chat.lines) <= ROW_LIMIT
        assert chat.kept[-1].plain.startswith(f"{FLOOD - 1} ")
        assert len(events.kept) == LINE_LIMIT and len(events.lines) <= ROW_LIMIT
        assert events.kept[-1].plain == f"event {FLOOD - 1}"
        await pilot.resize_terminal(60, 20)  # a reflow rewrites only what is kept
        await pilot.pause()
        assert 0 < len(chat.lines) <= ROW_LIMIT
