"""Watching a finished game again: step by move or by round, every hand shown.

Steps may keep arriving after the screen opens (the host sends long replays in pages).
:class:`ReplayApp` is ``partyhost replay GAME``: the screen without a host.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

from partyhost.tui.replay.narration import clock, parts_for, result_line, step_lines
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.log import ReflowLog
from partyhost.tui.shared.pastgamesscreen import ended_text
from partyhost.tui.shared.replayparts import namer
from partyhost.tui.text import Frame, Glyphs, glyphs_for, literal
from partyhost.tui.toasts import OneToastEach, guard_toasts
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

if TYPE_CHECKING:
    from partyhost.tui.hostlink import ReplayPage
    from partyhost.tui.party import Party

LOG_STEPS = 60
"""Steps before the current one whose events the log shows."""


def replay_title(info: Frame) -> Text:
    """``Replay: <game> in room ABCD, Sat 21:40: Ann*, Bob`` (winners starred; when it
    ended, as the past games list says it: the store's game number means nothing here)."""
    winners = {r.get("seat") for r in info.get("results", []) if r.get("won")}
    name = namer(info)
    players = Text(", ").join(
        Text.assemble(name(p.get("seat")), "*" if p.get("seat") in winners else "")
        for p in info.get("players", [])
    )
    return Text.assemble(
        ("Replay: ", "bold"),
        literal(info.get("game_name") or info.get("game"), "bold"),
        f" in room {info.get('room')}, ",
        ended_text(info),
        ": ",
        players,
    )


class ReplayScreen(Screen[None]):
    """One finished game, one step at a time; Escape closes it."""

    DEFAULT_CSS = """
    ReplayScreen { layout: vertical; }
    ReplayScreen #replay-title { height: auto; padding: 0 1; background: $panel; }
    ReplayScreen #replay-status { height: auto; padding: 0 1; }
    ReplayScreen #replay-body { height: 1fr; }
    ReplayScreen #replay-table-box { width: 3fr; border: $edge $border-blurred; }
    ReplayScreen #replay-log {
        width: 2fr;
        min-width: 24;
        border: $edge $border-blurred;
        padding: 0 1;
        scrollbar-size-vertical: 1;
    }
    ReplayScreen #replay-table-box:focus, ReplayScreen #replay-log:focus {
        border: $edge $border;
        border-title-style: bold reverse;
    }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: the focused table or log would take these keys for scrolling.
        Binding("right,l", "move(1)", "Next move", key_display="→", priority=True),
        Binding("left,h", "move(-1)", "Back", key_display="←", priority=True),
        Binding(
            "right_square_bracket,pagedown",
            "round(1)",
            "Next round",
            key_display="]",
            priority=True,
        ),
        Binding(
            "left_square_bracket,pageup", "round(-1)", "Round back", key_display="[", priority=True
        ),
        # Off the footer, which must keep Help in 80 columns (F1 lists them).
        Binding("home", "jump(0)", "Start", show=False, priority=True),
        Binding("end", "to_end", "End", show=False, priority=True),
        Binding("escape,q", "close", "Close"),
    ]

    def __init__(
        self, info: Frame, steps: Sequence[Frame], glyphs: Glyphs, *, ascii_only: bool = False
    ) -> None:
        super().__init__()
        self.info = info
        self.steps: list[Frame] = list(steps)
        self.glyphs = glyphs
        self.ascii_only = ascii_only
        self.position = 0
        self._lines: dict[int, list[Text]] = {}
        self._drawn = False
        """Whether the widgets exist yet (steps may arrive before the screen is shown)."""

    @property
    def total(self) -> int:
        """Steps in the whole replay (some may not have arrived yet)."""
        return int(self.info.get("steps") or len(self.steps))

    def compose(self) -> ComposeResult:
        yield Static(replay_title(self.info), id="replay-title")
        yield Static(id="replay-status")
        with Horizontal(id="replay-body"):
            with VerticalScroll(id="replay-table-box"):
                yield Static(id="replay-table")
            yield ReflowLog(id="replay-log")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#replay-table-box").border_title = "The table, every card shown"
        self.query_one("#replay-log").border_title = "Log"
        self._drawn = True
        self.show_step()

    def add_steps(self, first: int, steps: Sequence[Frame]) -> None:
        """More of the replay arrived (a page from the host); ignored unless it is the next."""
        if first == len(self.steps) and steps:
            self.steps.extend(steps)
            self.show_step()

    # --- moving -----------------------------------------------------------------

    def action_move(self, by: int) -> None:
        self.action_jump(self.position + by)

    def action_jump(self, index: int) -> None:
        last = max(0, len(self.steps) - 1)
        self.position = min(max(0, index), last)
        self.show_step()

    def action_to_end(self) -> None:
        self.action_jump(len(self.steps) - 1)

    def action_round(self, by: int) -> None:
        """To the first step of the next round, or back to this round's (then the previous)."""
        starts = [s for s in self.info.get("rounds", []) if s < len(self.steps)] or [0]
        if by > 0:
            later = [s for s in starts if s > self.position]
            self.action_jump(later[0] if later else len(self.steps) - 1)
        else:
            earlier = [s for s in starts if s < self.position]
            self.action_jump(earlier[-1] if earlier else 0)

    def action_close(self) -> None:
        self.dismiss(None)

    # --- drawing ----------------------------------------------------------------

    def lines_of(self, index: int) -> list[Text]:
        if index not in self._lines:
            self._lines[index] = step_lines(self.info, self.steps[index], self.glyphs)
        return self._lines[index]

    def status(self) -> Text:
        if not self.steps:
            return Text("Loading the replay…", "italic")
        step = self.steps[self.position]
        where = parts_for(self.info).round_title(step.get("round"))
        line = Text.assemble(
            (f"Step {self.position} of {self.total - 1}", "bold"),
            f"  {where}  {clock(step.get('at'))}",
        )
        if len(self.steps) < self.total:
            line.append(f"  (loading: {len(self.steps)} of {self.total})", "dim")
        said = self.lines_of(self.position)
        if said:
            line.append("\n")
            line.append_text(said[0])
        elif self.position == 0:
            line.append("\nThe game before its first move.", "italic")
        if self.position == self.total - 1:
            line.append("\nThe end. ", "bold")
            results = self.info.get("results", [])
            line.append_text(Text("; ").join(result_line(r, self.info) for r in results))
        return line

    def show_step(self) -> None:
        if not self._drawn:
            return
        self.query_one("#replay-status", Static).update(self.status())
        if not self.steps:
            return
        view = self.steps[self.position].get("view") or {}
        name = namer(self.info, coloured=True)
        table = parts_for(self.info).table(view, name, self.glyphs, self.ascii_only)
        self.query_one("#replay-table", Static).update(table)
        log = self.query_one("#replay-log", ReflowLog)
        log.reset()
        for index in range(max(0, self.position - LOG_STEPS), self.position + 1):
            for line in self.lines_of(index):
                if index == self.position:  # the current step's lines, kept plain for later
                    line = line.copy()
                    line.stylize("reverse")
                log.add(line)


def show_page(
    app: App[Any], page: ReplayPage, wanted: int | None, token: str | None = None
) -> None:
    """Open a replay with its first page; add later pages, and ask for the next until all came
    (``token``: the seat token a password room's game opens for). A page for a replay closed,
    or other than the one asked for last, opens nothing."""
    replays = [screen for screen in app.screen_stack if isinstance(screen, ReplayScreen)]
    shown = next((screen for screen in replays if screen.info.get("id") == page.game_id), None)
    party = cast("Party", app)
    if shown is None:
        if page.first != 0 or page.game_id != wanted:
            return
        shown = ReplayScreen(page.info, page.steps, party.glyphs, ascii_only=party.ascii_only)
        app.push_screen(shown)
    else:
        shown.add_steps(page.first, page.steps)
    if len(shown.steps) < page.total and page.steps:
        party.requests.get_replay(page.game_id, first=len(shown.steps), token=token)


class ReplayApp(OneToastEach):
    """One replay, full screen; Escape or q closes it (and the app)."""

    TITLE = "partyhost replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, info: Frame, steps: Sequence[Frame], *, ascii_only: bool = False) -> None:
        guard_toasts()
        self.info = info
        self.steps = list(steps)
        self.ascii_only = ascii_only
        super().__init__()

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {"edge": "ascii" if self.ascii_only else "round"}

    def on_mount(self) -> None:
        if not self.is_headless and self.console.color_system in ("standard", "windows"):
            self.theme = "ansi-dark"
        screen = ReplayScreen(
            self.info, self.steps, glyphs_for(self.ascii_only), ascii_only=self.ascii_only
        )
        self.push_screen(screen, lambda _: self.exit(0))


def run_replay_viewer(info: Frame, steps: Sequence[Frame], ascii_only: bool) -> int:
    result = ReplayApp(info, steps, ascii_only=ascii_only).run()
    return result if isinstance(result, int) else 0
