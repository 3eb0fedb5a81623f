"""Back to your seat: which seats to offer on connecting, and keeping the seat memory true.

Two kinds of seat are offered when the client reaches a host: those this
client holds a token for at that host (:mod:`.seatmemory`), and those the
host holds for a person of this name who is not connected
(``welcome.waiting_seats``), which are taken back by joining the room under
the same name. Every token the host gives is kept; one the host says is
unknown, or a seat it says is gone (``left``), is forgotten.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, cast

from partyhost.tui.party import Party
from partyhost.tui.seatmemory import HeldSeat, SeatMemory
from partyhost.tui.shared.dialogs import SeatOffer, SeatOfferScreen, waiting_words
from textual.app import App

Frame = dict[str, Any]


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

    def connected(self, welcome: Frame, room: str | None, *, offer: bool) -> None:
        """The hello is done: straight to ``room`` (``--room``), or offer the seats held."""
        offers = self.offers(welcome)
        if room:
            self.go_to_room(room)
        elif offers and offer:
            self.app.push_screen(SeatOfferScreen(offers), self.take_offer)

    def go_to_room(self, code: str) -> None:
        """Back to the seat held in ``code``, else join it (by name, if a seat waits)."""
        token = self.token_for(code)
        if token is not None:
            self.resuming = code
            self.party.requests.resume_seat(token)
        else:
            self.joining = code
            self.party.requests.join_room(code)

    def take_offer(self, offer: SeatOffer | None) -> None:
        """Back to an offered seat: with its token, or by name (the password asked first)."""
        if offer is None:
            return
        if offer.token is not None:
            self.resuming = offer.code
            self.party.requests.resume_seat(offer.token)
        elif offer.has_password:
            self._ask_password(offer.code)
        else:
            self.party.requests.join_room(offer.code)

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
        from partyhost.tui.shared.dialogs import JoinRoomScreen

        def join(request: Frame | None) -> None:
            if request is not None:
                self.party.requests.join_room(
                    request["code"], request["password"], request["spectate"]
                )

        self.app.push_screen(JoinRoomScreen(code, needs_password=True), join)

    # --- the memory -----------------------------------------------------------------

    def offers(self, welcome: Frame) -> list[SeatOffer]:
        """A new host (or the same one again): the seats to offer, newest first."""
        self.host_id = str(welcome.get("host_id") or "")
        self.host_name = str(welcome.get("host") or "")
        self.resuming, self._current = None, None
        held = self.memory.seats_at(self.host_id) if self.host_id else []
        offers = [SeatOffer(seat.code, seat.describe(), seat.token) for seat in held]
        codes = {offer.code for offer in offers}
        for entry in welcome.get("waiting_seats") or []:
            code = entry.get("code") if isinstance(entry, dict) else None
            if isinstance(code, str) and code not in codes:
                codes.add(code)
                has_password = bool(entry.get("has_password"))
                offers.append(SeatOffer(code, waiting_words(entry), None, has_password))
        return offers

    def token_for(self, code: str) -> str | None:
        """The token held for room ``code`` at this host, if any."""
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
