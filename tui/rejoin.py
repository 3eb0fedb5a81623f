"""Back to your seat: the seats this client holds, which to offer on connecting, keeping
that memory true, and taking a seat back by name ("Ann is back?", answered by the player
the host asks; when the time runs out the host has taken silence for no, so nothing is sent).

A closed terminal should not cost a seat, so every token from ``joined`` is kept in the
state folder (mode 0600: a token is a key to the seat) under the host's ``host_id`` and
the room code, and offered back only to that host; one it calls unknown or gone is
forgotten. A mangled file is never an error.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any, ClassVar, cast

from partyhost.paths import state_dir
from partyhost.tui.party import Party
from partyhost.tui.shared.base import HELP_KEY, PartyModal, show_text
from partyhost.tui.shared.dialogs import ConfirmScreen, JoinRoomScreen
from partyhost.tui.shared.footer import KeyFooter
from partyhost.tui.text import Frame, literal
from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

FILE_NAME = "seats.json"
KEPT = 40
"""Seats remembered at most (the oldest go first)."""


@dataclass(frozen=True)
class HeldSeat:
    """One seat this client was given, and what it shows when offering it back."""

    host_id: str
    code: str
    token: str
    host_name: str = ""
    name: str = ""
    game_name: str = ""
    round: int | None = None
    """The round the game was in when last seen, if its views count rounds."""
    saved: float = 0.0

    def describe(self) -> str:
        """``room KXTM, The T-Shirt Game, round 4``."""
        parts = [f"room {self.code}", self.game_name, f"round {self.round}" if self.round else ""]
        return ", ".join(part for part in parts if part)


class SeatOfferScreen(PartyModal[HeldSeat | None]):
    """On reaching a host where you hold seats: the seats, newest first; Enter goes back."""

    AUTO_FOCUS = "#seat-offers"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "take", "Go back"),
        Binding("escape", "close", "Not now"),
        HELP_KEY,
    ]
    DEFAULT_CSS = """
    SeatOfferScreen #seat-offers { height: auto; max-height: 8; border: none; padding: 0; }
    """

    def __init__(self, offers: list[HeldSeat]) -> None:
        super().__init__()
        self.offers = offers

    def compose(self) -> ComposeResult:
        with Vertical(id="seat-offer", classes="dialog"):
            yield Static("Back to your seat?", classes="dialog-title")
            yield Static(self._question(), id="seat-offer-text")
            if len(self.offers) > 1:  # one is named in the question: Enter goes back to it
                yield OptionList(
                    *(
                        Option(literal(offer.describe()), id=f"offer-{index}")
                        for index, offer in enumerate(self.offers)
                    ),
                    id="seat-offers",
                )
            yield Static("Escape goes to the lobby instead.", classes="hint")
        yield KeyFooter()

    def _question(self) -> Text:
        if len(self.offers) == 1:
            return Text.assemble(
                "You have a seat in ", literal(self.offers[0].describe()), ": Enter to go back."
            )
        return Text("You have seats in these rooms: choose one and press Enter to go back.")

    def action_take(self) -> None:
        lists = self.query(OptionList)
        index = lists.first().highlighted if lists else None
        self.dismiss(self.offers[index or 0])

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.offers[event.option_index])


def memory_path() -> Path:
    return state_dir() / FILE_NAME


class SeatMemory:
    """The held seats on disk (``path`` None: a client that remembers nothing)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def seats_at(self, host_id: str) -> list[HeldSeat]:
        """The seats held at this host, newest first."""
        held = [seat for seat in self._load() if seat.host_id == host_id]
        return sorted(held, key=lambda seat: -seat.saved)

    def find(self, host_id: str, code: str) -> HeldSeat | None:
        return next((s for s in self._load() if (s.host_id, s.code) == (host_id, code)), None)

    def keep(self, seat: HeldSeat) -> None:
        """Remember ``seat`` (replacing what was held in that room at that host)."""
        if self.path is None or not seat.host_id or not seat.token:
            return
        others = [s for s in self._load() if (s.host_id, s.code) != (seat.host_id, seat.code)]
        held = [replace(seat, saved=time.time()), *others]
        self._save(sorted(held, key=lambda s: -s.saved)[:KEPT])

    def forget(self, host_id: str, code: str) -> None:
        held = self._load()
        kept = [s for s in held if (s.host_id, s.code) != (host_id, code)]
        if len(kept) != len(held):
            self._save(kept)

    # --- the file ---------------------------------------------------------------

    def _load(self) -> list[HeldSeat]:
        if self.path is None:
            return []
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        entries = data.get("seats") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            return []
        return [seat for entry in entries if (seat := _seat(entry)) is not None]

    def _save(self, held: list[HeldSeat]) -> None:
        """Write atomically, readable by this user only; a full disk only costs the memory."""
        if self.path is None:
            return
        path = self.path
        with contextlib.suppress(OSError):
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(descriptor, "w", encoding="utf-8") as file:
                json.dump({"seats": [asdict(seat) for seat in held]}, file)
            os.chmod(temporary, 0o600)
            os.replace(temporary, path)


_NUMBERS: dict[str, tuple[type, ...]] = {"round": (int, type(None)), "saved": (int, float)}
"""A held seat's fields that are not text, with the types the file may give them."""


def _seat(entry: Any) -> HeldSeat | None:
    """A held seat from one entry of the file, or None if it is not one."""
    if not isinstance(entry, dict):
        return None
    values = {field.name: entry[field.name] for field in fields(HeldSeat) if field.name in entry}
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, _NUMBERS.get(name, (str,))):
            return None
    if not all(values.get(key) for key in ("host_id", "code", "token")):
        return None
    return HeldSeat(**values)


class SeatKeeper:
    """The seats the client holds at the host it is connected to, and going back to them."""

    def __init__(self, app: App[Any], memory: SeatMemory) -> None:
        self.app = app
        self.party = cast(Party, app)
        self.memory = memory
        self.host_id = ""
        self.host_name = ""
        self.resuming: str | None = None
        """The room of a ``resume_seat`` sent and not answered yet."""
        self.joining: str | None = None
        """The room of a ``join_room`` sent for ``--room`` (its password is asked if needed)."""
        self._current: HeldSeat | None = None

    # --- going back ---------------------------------------------------------------

    def connected(
        self, welcome: Frame, room: str | None, *, offer: bool, resume: bool = False
    ) -> None:
        """The hello is done (a new host, or the same one again): straight to ``room``
        (``--room``: back to the seat held there, else join it, and if a seat there is held
        for this name the host asks the table whether it is ours), back to the newest seat
        held (``resume``: a reloaded page takes its seat without a question), or offer them."""
        self.host_id = str(welcome.get("host_id") or "")
        self.host_name = str(welcome.get("host") or "")
        self.resuming, self._current = None, None
        offers = self.memory.seats_at(self.host_id) if self.host_id else []
        token = self.token_for(room) if room else None
        if room and token is not None:
            self.resuming = room
            self.party.requests.resume_seat(token)
        elif room:
            self.joining = room
            self.party.requests.join_room(room)
        elif offers and resume:
            self.take_offer(offers[0])
        elif offers and offer:
            self.app.push_screen(SeatOfferScreen(offers), self.take_offer)

    def take_offer(self, offer: HeldSeat | None) -> None:
        """Back to an offered seat with its token."""
        if offer is None:
            return
        self.resuming = offer.code
        self.party.requests.resume_seat(offer.token)

    def refused(self, code: str) -> bool:
        """The host refused a request with ``code``; True if that is handled here."""
        if code == "token_unknown":
            self.gone(self.resuming or self.party.room_code)
        elif code == "wrong_password" and self.joining is not None:
            room, self.joining = self.joining, None
            self._ask_password(room)
            return True
        return False

    def _ask_password(self, code: str) -> None:
        def join(request: Frame | None) -> None:
            if request is not None:
                self.party.requests.join_room(**request)

        self.app.push_screen(JoinRoomScreen(code, needs_password=True), join)

    # --- the memory -----------------------------------------------------------------

    def token_for(self, code: str) -> str | None:
        """The token held for room ``code`` at this host, if any (the seat taken last counts
        even when nothing is remembered on disk)."""
        if self._current is not None and self._current.code == code:
            return self._current.token
        seat = self.memory.find(self.host_id, code) if self.host_id else None
        return seat.token if seat is not None else None

    def joined(self, code: str, token: str | None) -> None:
        self.resuming = self.joining = None
        if token is None or not self.host_id:
            self._current = None
            return
        held = self.memory.find(self.host_id, code)
        seat = HeldSeat(self.host_id, code, token, self.host_name)
        if held is not None and held.token == token:
            seat = replace(held, host_name=self.host_name)
        self._current = seat
        self.memory.keep(seat)

    def room_changed(self, room: Frame) -> None:
        """Remember the game's name and the seat's, to show when the seat is offered back."""
        seat = self._current
        if seat is None or room.get("code") != seat.code:
            return
        you = room.get("you")
        mine: Frame = next((s for s in room.get("seats", []) if s.get("seat") == you), {})
        name, game = str(mine.get("name") or seat.name), str(room.get("game_name") or "")
        if (name, game) != (seat.name, seat.game_name):
            self._current = replace(seat, name=name, game_name=game)
            self.memory.keep(self._current)

    def round_seen(self, view: Frame) -> None:
        seat, number = self._current, view.get("round")
        if seat is None or not isinstance(number, int) or isinstance(number, bool):
            return
        if number != seat.round:
            self._current = replace(seat, round=number)
            self.memory.keep(self._current)

    def gone(self, code: str | None) -> None:
        """The host says the seat in ``code`` is no longer this client's."""
        self.resuming = None
        if code and self.host_id:
            self.memory.forget(self.host_id, code)
        if self._current is not None and self._current.code == code:
            self._current = None


def reclaim_question(name: str, seconds_left: int) -> Text:
    """``Ann is back? Someone joined as Ann ...``, with the seconds left to answer."""
    return Text.assemble(
        literal(name, "bold"),
        " is back? (y/n)\nSomeone joined under the name ",
        literal(name),
        " to take that seat back, hand and score included. Say yes only if it is really them.\n",
        (f"{max(0, seconds_left)} s left; no answer counts as no.", "italic"),
    )


class ReclaimAskScreen(ConfirmScreen):
    """The host's question to this player: is the visitor the absent player they claim?"""

    def __init__(
        self, name: str, seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.name_asked = name
        self._clock = clock
        self.ends = clock() + seconds
        self.expired = False
        """The time to answer ran out: the host has answered no already."""
        super().__init__(reclaim_question(name, self.seconds_left()), "Yes, it's them")

    def seconds_left(self) -> int:
        return math.ceil(self.ends - self._clock())

    def on_mount(self) -> None:
        self.set_interval(1.0, self.tick)

    def tick(self) -> None:
        """Count down; close (answering nothing) when the time is up."""
        left = self.seconds_left()
        show_text(
            self.query_one("#confirm-question", Static), reclaim_question(self.name_asked, left)
        )
        if left <= 0 and not self.expired:
            self.expired = True
            self.dismiss(False)


def ask_about_reclaim(
    app: App[Any], ask: int, name: str, seconds: float, answer: Callable[[int, bool], object]
) -> None:
    """Put the host's question ``ask`` on screen; ``answer(ask, yes)`` once it is answered
    in time."""
    screen = ReclaimAskScreen(name, seconds)

    def answered(yes: bool | None) -> None:
        if not screen.expired:
            answer(ask, bool(yes))

    app.push_screen(screen, answered)


def waiting_words(name: str, seconds: float) -> str:
    """What the visitor reads while the table decides."""
    return (
        f"Waiting for the table to confirm that you are {name} (up to {math.ceil(seconds)} s)."
        " A name alone does not give a seat back; your seat token would."
    )
