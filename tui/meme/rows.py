"""The rows of the table (this turn) and of the reveal (the turn just played, from the
host's ``last_turn`` record), as text; and the bet being put together, kept within the limits
the view's ``bet`` template states (the host has the final word)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from partyhost.tui.meme.text import (
    VOID_REASONS,
    MemeGlyphs,
    amount_text,
    bills_text,
    caption_of,
    color_style,
    fit,
    payout_rule,
    signed_money,
)
from partyhost.tui.party import legal_of
from partyhost.tui.text import Frame, Glyphs, Name, literal
from rich.text import Text

SHADE = 10


@dataclass(frozen=True)
class RowSpec:
    """One line of the table; ``number`` (1-based) when it can carry a bet."""

    text: Text
    number: int | None = None


@dataclass(frozen=True)
class Look:
    """How to draw: names, glyphs, and the room there is."""

    view: Frame
    name: Name
    glyphs: Glyphs
    meme: MemeGlyphs
    width: int

    @property
    def name_width(self) -> int:
        return 14 if self.width >= 60 else 9

    @property
    def card_width(self) -> int:
        return 17 if self.width >= 60 else 12

    def stake(self, amount: int, owner: object, unit: object) -> Text:
        """Tokens as colored discs; dollars as ``$5`` in the owner's color."""
        style = f"bold {color_style(self.view, owner)}"
        if unit == "dollar":
            return Text(f"${amount}", style)
        if amount > 5:
            return Text(f"{self.meme.token}x{amount}", style)
        return Text(self.meme.token * amount, style)

    def dotted(self, seat: object) -> Text:
        """The seat's dot in its color, then its name as wide as the name column."""
        name = fit(self.name(seat), self.name_width, self.glyphs.ellipsis)
        return Text.assemble((self.meme.dot, color_style(self.view, seat)), " ", name)


def bet_template(view: Frame) -> Frame | None:
    found = legal_of(view, "bet")
    return found[0] if found else None


def targets_of(template: Frame | None) -> list[Frame]:
    if template is None:
        return []
    return [t for t in template.get("targets", []) if isinstance(t, dict)]


def _line(look: Look, mark: Text, seat: object, card: Text, extra: Text) -> Text:
    card = fit(card, look.card_width, look.glyphs.ellipsis)
    line = Text.assemble(fit(mark, 2, ""), look.dotted(seat), " ", card, no_wrap=False)
    if extra.plain:
        line.append(" ")
        line.append_text(extra)
    return line


def _card(look: Look, entry: Frame, hidden: bool, *, yours: bool) -> Text:
    state = entry.get("state")
    meme = entry.get("meme")
    if state == "none":
        return Text(f"picking{look.glyphs.ellipsis}", "dim italic")
    if state == "sitting_out":
        return Text("sits out", "dim italic")
    if state == "withdrawn":
        return Text("left", "dim italic")
    if state == "revealed" and not hidden:
        return literal(caption_of(look.view, meme), "bold")
    if meme is not None and yours:
        return literal(caption_of(look.view, meme), "italic")
    return Text(look.meme.shade * SHADE, "dim")


def live_rows(
    look: Look, draft: Mapping[int, int], flipped: int | None
) -> tuple[str, list[RowSpec]]:
    """This turn's table. ``flipped``: how many revealed guesses are turned so far."""
    view = look.view
    table = view.get("table") or {}
    unit = table.get("unit")
    you = view.get("you")
    numbers = {t.get("seat"): n for n, t in enumerate(targets_of(bet_template(view)), start=1)}
    reactor_bets = {e.get("seat"): int(e.get("amount", 0)) for e in table.get("reactor_bets") or []}
    open_bets = _stakes(table)
    reaction = table.get("reaction") or {}
    rows = []
    reactor = reaction.get("seat")
    if reactor is not None:
        card = _card(look, reaction, False, yours=reactor == you)
        note = Text("reactor", "dim") if reactor != you else Text("your reaction", "dim")
        rows.append(
            RowSpec(_line(look, Text(look.meme.reactor, "bold magenta"), reactor, card, note))
        )
    for index, entry in enumerate(g for g in table.get("guesses", []) if isinstance(g, dict)):
        seat = entry.get("seat")
        hidden = flipped is not None and index >= flipped
        extra = Text()
        if seat in reactor_bets:  # marked as the reactor's: the mark of the reaction's row
            extra.append(look.meme.reactor, "bold magenta")
            extra.append_text(look.stake(reactor_bets[seat], reactor, unit))
        for owner, amount in open_bets.get(seat, []):
            extra.append(" ")
            extra.append_text(look.stake(amount, owner, unit))
        mine = draft.get(seat, 0) if isinstance(seat, int) else 0
        if mine:
            extra.append(" you ", "bold")
            extra.append_text(look.stake(mine, you, unit))
        number = numbers.get(seat)
        mark = Text(str(number), "bold") if number is not None else Text(" ")
        card = _card(look, entry, hidden, yours=seat == you)
        rows.append(RowSpec(_line(look, mark, seat, card, extra), number))
    phase = view.get("phase")
    faces = {"betting_1": ": guesses face down", "betting_2": ": guesses face up"}
    title = f"The table{faces.get(str(phase), '')}"
    if reactor_bets:  # the mark's legend, in the room a title has at 80 columns
        face = "face up" if phase == "betting_2" else "face down"
        title = f"Guesses {face}; {look.meme.reactor}: the reactor's bets"
    return title, rows


def _stakes(table: Frame) -> dict[object, list[tuple[object, int]]]:
    """The bets on the table (or in a turn record) by the guess they lie on: [(owner, amount)]."""
    stakes: dict[object, list[tuple[object, int]]] = {}
    for bettor in table.get("bets", []):
        for entry in bettor.get("bets") or []:
            stakes.setdefault(entry.get("seat"), []).append(
                (bettor.get("seat"), int(entry.get("amount", 0)))
            )
    return stakes


def reveal_text(look: Look, record: Frame, flipped: int | None) -> Text:
    """The turn just played, turned over: guesses, the reaction, bets and payouts.

    ``flipped`` counts the steps shown so far (guesses, the reaction, the payouts); ``None``:
    all.
    """
    view = look.view
    guesses = [g for g in record.get("guesses", []) if isinstance(g, dict)]
    shown = len(guesses) + 2 if flipped is None else flipped
    final = record.get("round") == int(view.get("rounds") or 4)
    text = Text.assemble(
        (f"Turn {record.get('turn')}", "bold"),
        (" (final round)" if final else ""),
        ": ",
        look.name(record.get("reactor")),
    )
    if record.get("void"):
        reason = VOID_REASONS.get(str(record["void"]), str(record["void"]))
        text.append(f" - called off: {reason}.", "yellow")
        return text
    known = shown > len(guesses)
    text.append(" reacted with ")
    if known:
        text.append_text(literal(caption_of(view, record.get("reaction")), "bold reverse"))
    else:
        text.append(look.meme.shade * SHADE, "dim")
    unit = "dollar" if final else "token"
    ellipsis = look.glyphs.ellipsis
    stakes = _stakes(record)
    correct = set(record.get("correct", []))
    for index, guess in enumerate(guesses):
        seat = guess.get("seat")
        text.append("\n")
        if index >= shown:
            hidden = Text(look.meme.shade * SHADE, "dim")
            text.append_text(_line(look, Text(" "), seat, hidden, Text()))
            continue
        mark = Text(" ")
        if known and seat in correct:
            mark = Text(look.meme.right, "bold green")
        elif known:
            mark = Text(look.meme.wrong, "red")
        extra = Text()
        for owner, amount in stakes.get(seat, []):
            extra.append(", " if extra.plain else "bets: ", "dim")
            owner_name = look.name(owner)
            extra.append_text(fit(owner_name, min(look.name_width, owner_name.cell_len), ellipsis))
            extra.append(" ")
            extra.append_text(look.stake(amount, owner, unit))
        right = seat in correct and known
        card = literal(caption_of(view, guess.get("meme")), "bold" if right else "")
        text.append_text(_line(look, mark, seat, card, extra))
    if shown >= len(guesses) + 2:
        text.append("\n")
        text.append_text(payouts_text(look, record, final))
    return text


def payouts_text(look: Look, record: Frame, final: bool) -> Text:
    """The rule, then one line per seat that won or lost: ``Ann +$3  $1 $1 $1`` (bills paid)."""
    moved = [
        p
        for p in record.get("payouts", [])
        if isinstance(p, dict) and (p.get("won") or p.get("lost"))
    ]
    rule = Text(f" ({payout_rule(final)})", "dim")
    if not moved:
        return Text.assemble(("Payouts: nothing changes hands", "dim"), rule)
    text = Text.assemble(("Payouts:", "bold"), rule)
    for payout in moved:
        seat = payout.get("seat")
        text.append("\n  ")
        text.append_text(look.dotted(seat))
        text.append_text(fit(signed_money(int(payout.get("net", 0))), 6, ""))
        won = int(payout.get("won", 0))
        if won:
            text.append_text(bills_text(won))
        if payout.get("lost"):
            text.append(f" lost ${payout['lost']}", "red")
    return text


def _who_got_it(look: Look, record: Frame, gap: str, nobody: str) -> Text:
    correct = [s for s in record.get("correct", []) if isinstance(s, int)]
    if not correct:
        return Text(f"{gap}{look.meme.wrong} {nobody}", "dim")
    names = Text(", ").join(look.name(seat) for seat in correct)
    return Text.assemble((f"{gap}{look.meme.right} ", "green"), names)


def summary_text(look: Look, record: Frame) -> Text:
    """The last turn in a line or two: the reaction, who got it, what you won."""
    text = Text.assemble(look.name(record.get("reactor")))
    if record.get("void"):
        reason = VOID_REASONS.get(str(record["void"]), str(record["void"]))
        text.append(f": called off ({reason}).", "yellow")
        return text
    text.append(": ")
    text.append_text(literal(caption_of(look.view, record.get("reaction")), "bold"))
    text.append_text(_who_got_it(look, record, "  ", "nobody got it"))
    you = look.view.get("you")
    mine = next((p for p in record.get("payouts", []) if p.get("seat") == you), None)
    if isinstance(mine, dict):
        text.append(f"  {look.glyphs.bullet} you ", "dim")
        text.append_text(signed_money(int(mine.get("net", 0))))
    return text


def history_text(look: Look, history: list[Frame], limit: int) -> Text:
    """The latest turns, newest first: who reacted, with what, and who got it."""
    text = Text(no_wrap=True, overflow="crop")
    for record in list(reversed(history))[:limit]:
        if not isinstance(record, dict):
            continue
        if text.plain:
            text.append("\n")
        text.append(f"{record.get('turn', 0):>2} ", "dim")
        text.append_text(fit(look.name(record.get("reactor")), look.name_width, ""))
        if record.get("void"):
            text.append("called off", "dim italic")
            continue
        number = record.get("number")
        text.append("own " if number is None else f"#{int(number):02d} ", "dim")
        text.append_text(
            fit(literal(caption_of(look.view, record.get("reaction")), "bold"), 12, "")
        )
        text.append_text(_who_got_it(look, record, " ", "nobody"))
    return text


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
        """What is still allowed: placed so far, minimum, own-guess limit."""
        template = self.template
        if template is None:
            return Text()
        cash = self.unit == "dollar"
        top = int(template.get("max_total", 0))
        placed = sum(self.amounts.values())
        text = Text()
        if cash:
            text.append("Cash ", "bold")
            text.append(f"${placed}", "bold yellow")
            text.append(f" of ${top}")
        else:
            mine = f"bold {color_style(look.view, look.view.get('you'))}"
            text.append("Tokens ", "bold")
            text.append(look.meme.token * placed, mine)
            text.append(look.meme.free * max(0, top - placed), "dim")
            text.append(f" {placed} of {top}")
        rules = []
        least = int(template.get("min_total", 0))
        if least:
            rules.append(f"at least {amount_text(least, self.unit)}")
        own = next((t for t in self.targets if t.get("own")), None)
        if own is not None and template.get("max_own") is not None:
            rules.append(f"at most {template['max_own']} on your own guess")
        if cash:
            rules.append("right pays 1:1, wrong is lost")
        elif least == 0:
            rules.append("none is fine")
        for rule in rules:
            text.append(f" {look.glyphs.bullet} ", "dim")
            text.append(rule)
        if cash:
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
