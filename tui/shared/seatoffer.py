"""On reaching a host where you hold a seat: "You have a seat in room KXTM: Enter to go back"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from partyhost.tui.shared.base import PartyModal
from partyhost.tui.text import literal
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option

Frame = dict[str, Any]


STATUS_WORDS = {"playing": "game under way", "over": "game over", "lobby": "waiting to start"}


@dataclass(frozen=True)
class SeatOffer:
    """A seat to go back to: with a token, or by name (then maybe behind a password)."""

    code: str
    words: str
    """``room KXTM, The T-Shirt Game, round 4``."""
    token: str | None = None
    has_password: bool = False


def waiting_words(entry: Frame) -> str:
    parts = [f"room {entry.get('code')}"]
    if isinstance(entry.get("game_name"), str):
        parts.append(str(entry["game_name"]))
    status = STATUS_WORDS.get(str(entry.get("status")))
    if status:
        parts.append(status)
    return ", ".join(parts)


class SeatOfferScreen(PartyModal[SeatOffer | None]):
    """The seats you may go back to, newest first; Enter takes the highlighted one."""

    AUTO_FOCUS = "#seat-offers"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "take", "Go back"),
        Binding("escape", "cancel", "Not now"),
    ]
    DEFAULT_CSS = """
    SeatOfferScreen #seat-offers { height: auto; max-height: 8; border: none; padding: 0; }
    """

    def __init__(self, offers: list[SeatOffer]) -> None:
        super().__init__()
        self.offers = offers

    def compose(self) -> ComposeResult:
        with Vertical(id="seat-offer", classes="dialog"):
            yield Static("Back to your seat?", classes="dialog-title")
            yield Static(self._question(), id="seat-offer-text")
            if len(self.offers) > 1:  # one is named in the question: Enter goes back to it
                yield OptionList(
                    *(
                        Option(literal(offer.words), id=f"offer-{index}")
                        for index, offer in enumerate(self.offers)
                    ),
                    id="seat-offers",
                )
            yield Static("Escape goes to the lobby instead.", classes="hint")
        yield Footer()

    def _question(self) -> Text:
        if len(self.offers) == 1:
            offer = self.offers[0]
            password = " (the room's password first)" if offer.has_password else ""
            return Text.assemble(
                "You have a seat in ", literal(offer.words), f": Enter to go back{password}."
            )
        return Text("You have seats in these rooms: choose one and press Enter to go back.")

    def action_take(self) -> None:
        lists = self.query(OptionList)
        index = lists.first().highlighted if lists else None
        self.dismiss(self.offers[index or 0])

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.offers[event.option_index])
