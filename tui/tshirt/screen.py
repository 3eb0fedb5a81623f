"""The T-Shirt Game table: the shirt, your slogans or the table's, scores, log and chat.

A card is playable only if the view's ``legal`` list has a command for it, which is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from partyhost.tui.party import legal_of
from partyhost.tui.shared.base import TitleBar, show_text
from partyhost.tui.shared.chat import ChatPanel
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.shared.gamelength import rough_rounds
from partyhost.tui.shared.gametable import TABLE_KEYS, TableScreen
from partyhost.tui.shared.log import GameLog
from partyhost.tui.shared.scoreboard import Badge, Scoreboard, ScoreLine
from partyhost.tui.shared.seats import seat_markers, seat_style
from partyhost.tui.text import Frame, Glyphs, literal
from partyhost.tui.tshirt.cards import CardFace, CardRack, Shirt
from partyhost.tui.tshirt.dialogs import BooyahScreen
from partyhost.tui.tshirt.text import describe_event, outcome, status_line
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Static

REVEAL_SECONDS = 0.45
CHOOSE = Binding.Group("Choose")


def score_lines(
    view: Frame, room: Frame, glyphs: Glyphs, presence: Mapping[int, Badge]
) -> list[ScoreLine]:
    """Scores with progress toward the target, who is judging or still playing, and who is
    gone; the Hot or Not cards won below when there is room."""
    target = int(view.get("target") or 0)
    winners = view.get("winners", [])
    lines = []
    for player in view.get("players", []):
        if not isinstance(player, dict):
            continue
        seat = player.get("seat")
        score = int(player.get("score", 0))
        entry = next(
            (s for s in room.get("seats", []) if s.get("seat") == seat),
            {"seat": seat, "name": f"seat {seat}"},
        )
        lines.append(
            ScoreLine(
                seat=seat,
                name=str(entry.get("name", f"seat {seat}")),
                value=str(score),
                mark=_status(seat, player.get("presence"), view, glyphs),
                left=player.get("presence") == "left",
                you=seat == view.get("you"),
                seat_marks=seat_markers(entry, room, glyphs),
                name_badge=presence.get(seat) if isinstance(seat, int) else None,
                bar=(score, target, "green" if seat in winners else seat_style(seat)),
                below=_cards_won(player, glyphs),
            )
        )
    return lines


def _status(seat: object, presence: object, view: Frame, glyphs: Glyphs) -> Text:
    if not isinstance(seat, int):
        return Text(" ")
    if seat in view.get("winners", []):
        return Text(glyphs.trophy, "bold yellow")
    if presence == "left":
        return Text(glyphs.offline, "dim")
    if presence == "away":
        return Text(glyphs.away, "yellow")
    if seat == view.get("judge"):
        return Text(glyphs.judge, "bold magenta")
    if seat in view.get("submitted", []):
        return Text(glyphs.submitted, "green")
    return Text(" ")


def _cards_won(player: Frame, glyphs: Glyphs) -> Text:
    cards = [card for card in player.get("cards", []) if isinstance(card, dict)]
    line = Text("      ")
    if not cards:
        line.append("no Hot or Not cards yet", "dim italic")
        return line
    for number, card in enumerate(cards):
        if number:
            line.append(" ")
        points = int(card.get("points", 0))
        style = "red" if points < 0 else ("yellow" if card.get("booyah") else "dim")
        line.append(f"{glyphs.hot}{points}", style)
    return line


class TShirtScreen(TableScreen):
    """One round after another until someone reaches the target."""

    KIND = "game"
    LEAVE_QUESTION = "Leave this game? Your seat and points stay behind."
    BINDINGS: ClassVar[list[BindingType]] = [
        *(
            Binding(str(n), f"choose({n})", "Choose", key_display="1-9", show=n == 1, group=CHOOSE)
            for n in range(1, 10)
        ),
        Binding("down", "move(1)", "Next card", show=False),
        Binding("up", "move(-1)", "Previous card", show=False),
        Binding("enter", "confirm", "Confirm"),
        # When choosing is not yours to do the keys above are hidden: these say why.
        Binding(",".join(str(n) for n in range(1, 10)) + ",enter", "why_not_now", show=False),
        Binding("b", "booyah", "Booyah"),
        Binding("c", "chat", "Chat"),
        *TABLE_KEYS,
        Binding("escape", "leave", "Leave"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self._phase: str | None = None
        self._moment: tuple[object, object] | None = None
        """The round and phase last shown: a new one starts with no card chosen."""
        self._revealed: int | None = None
        self._reveal_timer: Timer | None = None
        self._booyah_asked = False
        self._sent_from: object = None
        """The view version a card was last played from (None: none since the last choice)."""

    def compose(self) -> ComposeResult:
        yield TitleBar(id="title")
        yield Static("", id="status")
        with Horizontal(id="tshirt-body"):
            with VerticalScroll(id="table"):
                yield Shirt(ascii_only=self.party.ascii_only, id="shirt")
                yield Static("Scores", classes="section-title")
                yield Scoreboard(self.glyphs, value_width=5, id="scores")
            with Vertical(id="play"):
                yield Static("", id="rack-title", classes="section-title")
                yield CardRack(self.glyphs.bar_empty, id="rack")
                yield Static("", id="outcome")
                yield GameLog(
                    lambda event: describe_event(event, self.view, self._who, self.glyphs), id="log"
                )
            yield ChatPanel(id="chat")
        yield KeyFooter()

    # --- names and view -------------------------------------------------------

    def _show_view(self) -> None:
        view = self.view
        if not view or not self.on_stage:
            return
        phase = view.get("phase")
        if phase == "judging" and self._phase != "judging" and self._phase is not None:
            self._start_reveal(len(view.get("submissions", [])))
        elif phase != "judging":
            self._stop_reveal()
        self._phase = str(phase)
        if (moment := (view.get("round"), phase)) != self._moment:
            self._moment = moment
            self.picks().highlighted = None  # last round's card is gone: one tap must not play
        self.show_title(
            Text(f"room {self.party.room_code or ''}", "bold"),
            Text(f"Round {view.get('round', 0)}"),
            Text.assemble("judge ", self._who(view.get("judge"))),
            self._target_text(view),
        )
        self.query_one("#shirt", Shirt).show(view.get("tshirt"))
        lines = score_lines(view, self.party.room or {}, self.glyphs, self.presence_badges())
        self.query_one("#scores", Scoreboard).show(lines, detailed=self._wide())
        self._show_cards(view)
        last = view.get("last_round")
        outcome_box = self.query_one("#outcome", Static)
        outcome_box.display = isinstance(last, dict)
        if isinstance(last, dict):
            show_text(outcome_box, outcome(last, self._who, self.glyphs, detailed=self._wide()))
        self._show_status()
        self._offer_booyah()
        self.keys_follow_view()

    def _target_text(self, view: Frame) -> Text:
        """``to 3,000 points``; in the first round also about how many rounds that takes."""
        target = view.get("target")
        if not isinstance(target, int):
            return Text("to the target", "dim")
        players = [p for p in view.get("players", []) if isinstance(p, dict) and not p.get("left")]
        rounds = rough_rounds("tshirt", {"target": target}, len(players))
        if rounds is not None and int(view.get("round") or 0) <= 1:
            return Text(f"to {target:,} points, about {rounds} rounds", "dim")
        return Text(f"to {target:,} points", "dim")

    def status(self) -> Text:
        return status_line(self.view, self._who, self.glyphs)

    def round_result(self) -> tuple[str, Text]:
        """The shirt, the winning slogan and its author, the Hot or Not card, the others."""
        last = self.view.get("last_round")
        if not isinstance(last, dict):
            return super().round_result()
        text = Text()
        shirt = last.get("tshirt")
        if isinstance(shirt, dict) and shirt.get("picture"):
            text.append("The shirt: ", "dim")
            text.append_text(literal(shirt["picture"], "italic"))
            text.append("\n\n")
        text.append_text(outcome(last, self._who, self.glyphs, detailed=True))
        return f"Round {last.get('round', '')}: the result", text

    # --- the cards ------------------------------------------------------------

    def _faces(self, view: Frame) -> tuple[str, list[CardFace]]:
        """The rack's title and cards for this phase and seat."""
        you, judge, phase = view.get("you"), view.get("judge"), view.get("phase")
        if phase == "judging":
            picks = {c.get("index") for c in legal_of(view, "pick")}
            mine = (view.get("your_submission") or {}).get("text")
            faces = []
            for number, sub in enumerate(view.get("submissions", [])):
                hidden = self._revealed is not None and number >= self._revealed
                tag = "yours" if mine is not None and sub.get("text") == mine else ""
                if tag:
                    mine = None
                faces.append(
                    CardFace(str(sub.get("text", "")), sub.get("index") in picks, hidden, tag)
                )
            title = "Pick the winner" if picks else "The slogans on the table"
            return title, faces
        if you is None:
            return "You are watching", []
        playable = {c.get("card") for c in legal_of(view, "submit")}
        faces = [
            CardFace(str(card.get("text", "")), card.get("card") in playable)
            for card in view.get("hand", [])
        ]
        if phase == "submitting" and you == judge:
            if not faces:
                return "You judge: slogans come next round", faces
            return "Your slogans (you judge this round)", faces
        if view.get("your_submission"):
            return "Your slogans (one is on the table)", faces
        return "Your slogans", faces

    def _show_cards(self, view: Frame) -> None:
        title, faces = self._faces(view)
        show_text(self.query_one("#rack-title", Static), title)
        self.query_one("#rack", CardRack).show(faces)

    def _start_reveal(self, count: int) -> None:
        self._stop_reveal()
        if not self.party.animated or count == 0:
            return
        self._revealed = 0
        self._reveal_timer = self.set_interval(REVEAL_SECONDS, self._reveal_next)

    def _reveal_next(self) -> None:
        if not self.on_stage:
            return
        count = len(self.view.get("submissions", []))
        self._revealed = (self._revealed or 0) + 1
        if self._revealed >= count:
            self._stop_reveal()
        self._show_cards(self.view)

    def _stop_reveal(self) -> None:
        if self._reveal_timer is not None:
            self._reveal_timer.stop()
            self._reveal_timer = None
        if self._revealed is not None:
            self._revealed = None
            self._show_cards(self.view)

    # --- actions --------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        view = self.view
        if action == "booyah":
            return bool(legal_of(view, "booyah"))
        if action in ("choose", "move", "confirm"):
            return bool(legal_of(view, "submit") or legal_of(view, "pick"))
        return super().check_action(action, parameters)

    def picks(self) -> CardRack:
        return self.query_one("#rack", CardRack)

    def action_choose(self, number: int) -> None:
        self._stop_reveal()
        self._sent_from = None
        rack = self.picks()
        if rack.is_playable(number):
            rack.highlighted = number
        elif 1 <= number <= len(rack.faces):
            self.notify(self._why_not(), severity="warning", timeout=3)

    def action_why_not_now(self) -> None:
        """A number or Enter while there is nothing to choose: say why, once the table shows."""
        if legal_of(self.view, "booyah"):
            self.notify("Press b for the Booyah choice: keep it or steal.", timeout=3)
        elif self.view.get("phase") in ("submitting", "judging"):
            self.notify(self._why_not(), severity="warning", timeout=3)

    def _why_not(self) -> str:
        view = self.view
        if view.get("phase") == "judging":
            return "Only the judge picks the winner."
        if view.get("you") == view.get("judge"):
            return "You judge this round: wait for the slogans."
        if view.get("your_submission"):
            return "You already played a slogan this round."
        return "That card can't be played right now."

    def action_move(self, step: int) -> None:
        self._stop_reveal()
        self._sent_from = None
        self.picks().move(step)

    def action_confirm(self) -> None:
        number = self.picks().highlighted
        if number is None:
            if legal_of(self.view, "submit") or legal_of(self.view, "pick"):
                self.notify("Choose a card first with its number.", timeout=3)
            return
        # The highlight stays until the next view clears it (one redraw, not two);
        # a second Enter before that view sends nothing.
        version = self.view.get("version")
        command = self._command_for(number)
        if command is not None and version != self._sent_from and self.party.play(command):
            self._sent_from = version

    play_chosen = action_confirm

    def _command_for(self, number: int) -> Frame | None:
        """The legal command behind card ``number`` (1-based) in the rack."""
        judging = self.view.get("phase") == "judging"
        kind, key = ("pick", "index") if judging else ("submit", "card")
        cards = self.view.get("submissions" if judging else "hand", [])
        wanted = cards[number - 1].get(key) if number <= len(cards) else None
        return next((c for c in legal_of(self.view, kind) if c.get(key) == wanted), None)

    def _open_booyah(self) -> BooyahScreen | None:
        return next((s for s in self.app.screen_stack if isinstance(s, BooyahScreen)), None)

    def _offer_booyah(self) -> None:
        if not self.on_stage:
            return
        open_modal = self._open_booyah()
        if not legal_of(self.view, "booyah"):
            self._booyah_asked = False
            if open_modal is not None:
                open_modal.dismiss(None)
            return
        if not self._booyah_asked and open_modal is None and not self.result_showing():
            self._booyah_asked = True
            self.action_booyah()

    def follow_pause(self) -> None:
        """The round's result comes first: an open Booyah choice makes way (its ``k`` would
        close the result) and is offered again once the result is read."""
        open_modal = self._open_booyah()
        if open_modal is not None and self.host_awaits_result():
            self._booyah_asked = False
            open_modal.dismiss(None)
        super().follow_pause()
        self._offer_booyah()

    def result_read(self, by_key: bool | None) -> None:
        super().result_read(by_key)
        self.call_after_refresh(self._offer_booyah)  # once the result is gone

    def action_booyah(self) -> None:
        commands = legal_of(self.view, "booyah")
        if commands and not isinstance(self.app.screen, BooyahScreen):
            screen = BooyahScreen(
                commands, self.view.get("booyah") or {}, list(self.view.get("players", []))
            )
            self.app.push_screen(screen, self._booyah_chosen)

    def _booyah_chosen(self, command: Frame | None) -> None:
        if command is not None and command in legal_of(self.view, "booyah"):
            self.party.play(command)
