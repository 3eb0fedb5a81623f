"""The bet being put together, kept within the limits the view's ``bet`` template states
(the host has the final word)."""

from __future__ import annotations

from partyhost.tui.meme.rows import Look, bet_template, limits_text, targets_of
from partyhost.tui.meme.text import amount_text
from partyhost.tui.text import Frame
from rich.text import Text


class Betting:
    """Amounts per guess (by seat) and the highlighted guess (1-based, in target order)."""

    def __init__(self) -> None:
        self.template: Frame | None = None
        self.amounts: dict[int, int] = {}
        self.cursor: int | None = None
        self._key: tuple[object, object] | None = None

    def sync(self, view: Frame) -> None:
        """Follow the view: a new betting (turn or stage) starts from an empty bet."""
        template = bet_template(view)
        self.template = template
        key = None if template is None else (template.get("turn"), template.get("stage"))
        if key != self._key:
            self._key = key
            self.amounts = {}
            self.cursor = 1 if self.targets else None

    @property
    def active(self) -> bool:
        return self.template is not None

    @property
    def targets(self) -> list[Frame]:
        return targets_of(self.template)

    @property
    def unit(self) -> object:
        return (self.template or {}).get("unit")

    def shown(self) -> dict[int, int]:
        return dict(self.amounts) if self.active else {}

    def _target(self) -> Frame | None:
        if self.cursor is None or not 1 <= self.cursor <= len(self.targets):
            return None
        return self.targets[self.cursor - 1]

    def select(self, number: int) -> None:
        if 1 <= number <= len(self.targets):
            self.cursor = number

    def move(self, step: int) -> None:
        count = len(self.targets)
        if count:
            self.cursor = ((self.cursor or 1) - 1 + step) % count + 1

    def clear(self) -> None:
        self.amounts = {}

    def _room(self, target: Frame) -> tuple[int, int, int]:
        """(seat, amount on it now, the most it may carry given the rest of the bet)."""
        seat = int(target.get("seat", -1))
        current = self.amounts.get(seat, 0)
        others = sum(self.amounts.values()) - current
        room_total = int((self.template or {}).get("max_total", 0)) - others
        return seat, current, max(0, min(int(target.get("max", 0)), room_total))

    def _set(self, seat: int, amount: int) -> None:
        if amount > 0:
            self.amounts[seat] = amount
        else:
            self.amounts.pop(seat, None)

    def change(self, step: int) -> str | None:
        """Add ``step`` to the highlighted guess, clipped to what is allowed; why not, if not."""
        target = self._target()
        if target is None:
            return None
        seat, current, ceiling = self._room(target)
        wanted = max(0, current + step)
        self._set(seat, min(wanted, ceiling))
        if step > 0 and wanted > ceiling:
            return self._why_not(target)
        return None

    def maximize(self) -> None:
        """Put the most still allowed on the highlighted guess."""
        target = self._target()
        if target is not None:
            seat, _, ceiling = self._room(target)
            self._set(seat, ceiling)

    def _why_not(self, target: Frame) -> str:
        top = int((self.template or {}).get("max_total", 0))
        others = sum(a for s, a in self.amounts.items() if s != target.get("seat"))
        if target.get("own") and int(target.get("max", 0)) < top - others:
            return f"At most {amount_text(int(target.get('max', 0)), self.unit)} on your own guess."
        if self.unit == "dollar":
            return f"You hold ${top}: that is all you can bet."
        return f"You have {top} tokens and they are all placed."

    def limits(self, look: Look) -> Text:
        if self.template is None:
            return Text()
        text = limits_text(look, self.template, self.amounts)
        if self.unit == "dollar":
            text.append("\nPgUp/PgDn: $10 at a time; a: the most you can.", "dim")
        return text

    def command(self) -> tuple[Frame | None, str | None]:
        """The template with ``bets`` filled in, or why it cannot be sent yet."""
        template = self.template
        if template is None:
            return None, None
        least = int(template.get("min_total", 0))
        total = sum(self.amounts.values())
        if total < least:
            return None, f"Place at least {amount_text(least, self.unit)} before you confirm."
        order = [int(t.get("seat", -1)) for t in self.targets]
        bets = [
            {"seat": seat, "amount": self.amounts[seat]}
            for seat in order
            if self.amounts.get(seat, 0) > 0
        ]
        return {**template, "bets": bets}, None
