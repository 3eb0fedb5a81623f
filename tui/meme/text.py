"""Words for What Do You Meme?: the status line, log lines, the rules, and the small pieces
every widget draws with (glyphs, seat colors, amounts, bills, widths)."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass

from partyhost.tui.party import legal_of
from partyhost.tui.shared.seats import seat_style
from partyhost.tui.text import (
    Frame,
    Glyphs,
    Name,
    a_number,
    counted,
    literal,
    names,
    number_keys,
    quoted,
)
from rich.cells import cell_len
from rich.color import Color, ColorParseError
from rich.text import Text

VOID_REASONS = {
    "reactor_left": "the reactor left",
    "reactor_away": "the reactor is away",
    "reactor_timer": "the reactor ran out of time",
    "no_guesses": "nobody put a guess on the table",
}
AUTO = {"timer": "time ran out", "away": "they are away", "no_money": "no money to bet"}


def memes_of(view: Frame) -> list[Frame]:
    return [m for m in view.get("memes", []) if isinstance(m, dict)]


def caption_of(view: Frame, meme: object) -> str:
    return next((str(m.get("caption", "")) for m in memes_of(view) if m.get("meme") == meme), "?")


def amount_text(amount: object, unit: object) -> str:
    """``$3`` for dollars, ``2 tokens`` for tokens."""
    if unit == "dollar":
        return f"${amount if isinstance(amount, int) else 0}"
    return counted(amount, "token")


def round_label(view: Frame) -> str:
    """``Round 2 of 4``; the last one says it bets cash (``Round 4 of 4: cash bets``)."""
    rounds = int(view.get("rounds") or 4)
    label = f"Round {view.get('round', 1)} of {rounds}"
    return f"{label}: cash bets" if view.get("final") else label


def payout_rule(final: bool) -> str:
    """What a right guess pays: the tokens (or cash) on it, not the guess itself."""
    if final:
        return "cash on a right guess doubles, on a wrong one it is lost"
    return "each token on a right guess pays its owner $1"


def bets_line(entries: object, name: Name, unit: object) -> Text:
    """``2 tokens on Carl, 1 token on Dev`` (or ``nothing``)."""
    listed = [e for e in entries if isinstance(e, dict)] if isinstance(entries, list) else []
    text = Text(", ").join(
        Text.assemble(amount_text(int(e.get("amount", 0)), unit), " on ", name(e.get("seat")))
        for e in listed
    )
    return text or Text("nothing", "dim")


def _waiting(view: Frame, name: Name, glyphs: Glyphs, then: str = "") -> Text:
    return Text.assemble(names(view.get("waiting_for", []), name), then, glyphs.ellipsis)


def status_line(view: Frame, name: Name, glyphs: Glyphs) -> Text:
    """Whose turn it is and what this seat is asked for, or waiting for."""
    phase, role = view.get("phase"), view.get("role")
    reactor = view.get("reactor")
    cash = bool(view.get("final"))
    if phase == "over":
        return Text.assemble("Game over: ", names(view.get("winners") or [], name), " won.")
    if role == "spectator":
        return Text.assemble("You are watching. Waiting for ", _waiting(view, name, glyphs))
    if role == "left":
        return Text("You left this game; you can still watch it.", "dim")
    if phase == "rolloff":
        if legal_of(view, "roll"):
            return Text("Who goes first? Roll the die: press r.", "bold")
        return Text.assemble("Waiting for ", _waiting(view, name, glyphs, " to roll"))
    if phase == "scenario":
        if legal_of(view, "roll"):
            own = " (or w to write your own)" if legal_of(view, "write_scenario") else ""
            return Text(f"You react this turn: press r to roll for a scenario{own}.", "bold")
        return Text.assemble(name(reactor), f" is rolling for a scenario{glyphs.ellipsis}")
    if phase == "picking":
        if legal_of(view, "react"):
            return Text(
                "Pick the meme that shows how YOU would react (1-7, Enter plays it).", "bold"
            )
        if legal_of(view, "guess"):
            return Text.assemble(
                ("Guess ", "bold"),
                name(reactor),
                ("'s reaction: play the same meme (1-7, Enter plays it).", "bold"),
            )
        if role == "sitting_out":
            return Text("You sit this turn out.", "dim")
        return Text.assemble("Your meme is face down. Waiting for ", _waiting(view, name, glyphs))
    if phase in ("betting_1", "betting_2"):
        bet = legal_of(view, "bet")
        if bet:
            return _bet_prompt(bet[0], cash)
        if phase == "betting_1":
            return Text.assemble(name(reactor), f" bets on the face-down guesses{glyphs.ellipsis}")
        return Text.assemble(
            "Bets are sealed until all are in. Waiting for ", _waiting(view, name, glyphs)
        )
    return Text(str(phase or ""))


def _bet_prompt(template: Frame, cash: bool) -> Text:
    count = len(template.get("targets", []))
    what = "dollars" if cash else "tokens"
    if template.get("stage") == 1:
        where = "Bet on the guesses that match your meme"
    else:
        where = "Bet on the guesses you think are right"
    pick = "picks" if count <= 1 else "pick"  # "1 picks", "1-3 pick": the keys pick
    return Text(f"{where}: {number_keys(count)} {pick}, +/- {what}, Enter bets.", "bold")


def describe_event(event: Frame, view: Frame, name: Name, glyphs: Glyphs) -> Text | None:
    """One log line for an event, or ``None`` for bookkeeping nobody needs to read."""
    kind = event.get("kind")
    seat = event.get("seat")
    auto = AUTO.get(str(event.get("auto")))
    why = Text(f" ({auto})", "dim") if auto else Text("")
    unit = "dollar" if view.get("final") else "token"
    if kind == "rolloff_roll":
        return Text.assemble(
            name(seat), f" rolls {a_number(event.get('value'))} for first player", why, "."
        )
    if kind == "rolloff_tie":
        return Text.assemble(
            f"Tie at {event.get('value')}: ", names(event.get("seats", []), name), " roll again."
        )
    if kind == "first_player":
        return Text.assemble(name(seat), f" rolled highest ({event.get('value')}) and starts.")
    if kind == "round_started":
        if event.get("final"):
            return Text("Final round: bet your cash, even money!", "bold yellow")
        return Text(f"Round {event.get('round')} begins.", "bold")
    if kind == "turn_started":
        return Text.assemble(f"Turn {event.get('turn')}: ", name(event.get("reactor")), " reacts.")
    if kind == "scenario_rolled":
        return Text.assemble(
            name(event.get("reactor")),
            f" rolls {event.get('tens')} and {event.get('units')}: scenario {event.get('number')}",
            why,
            ".",
        )
    if kind == "scenario_written":
        return Text.assemble(name(event.get("reactor")), " writes: ", quoted(event.get("text", "")))
    if kind == "reaction_picked":
        if "meme" in event:
            return _ended(Text.assemble("You react with ", _caption(view, event["meme"])))
        return Text.assemble(name(seat), " picks a reaction, face down.")
    if kind == "guess_placed":
        if "meme" in event:
            return _ended(Text.assemble("You guess ", _caption(view, event["meme"])))
        return Text.assemble(name(seat), " puts a guess face down.")
    if kind == "sat_out":
        reason = AUTO.get(str(event.get("reason")), "")
        return Text.assemble(name(seat), " sits this turn out", f" ({reason})." if reason else ".")
    if kind == "reactor_bet":
        return Text.assemble(
            name(seat), " bets ", bets_line(event.get("bets"), name, unit), why, "."
        )
    if kind == "guesses_revealed":
        return Text(f"The guesses turn face up ({len(event.get('guesses', []))}).")
    if kind == "bet_committed":
        if "bets" in event:
            return Text.assemble("You bet ", bets_line(event["bets"], name, unit), ".", why)
        return Text.assemble(name(seat), " has bet.", why)
    if kind == "bets_revealed":
        return Text("All bets are in and turned over.")
    if kind == "reaction_revealed":
        line = Text.assemble(
            name(event.get("reactor")), "'s reaction: ", _caption(view, event.get("meme")), " "
        )
        correct = event.get("correct") or []
        if correct:
            line.append_text(Text.assemble(glyphs.ready, " ", names(correct, name), " got it"))
        else:
            line.append("Nobody got it")
        line.append(f" ({payout_rule(bool(view.get('final')))}).", "dim")
        return line
    if kind == "turn_over":
        return _turn_over(event, name, bool(view.get("final")))
    if kind == "game_over":
        winners = event.get("winners") or []
        return Text.assemble(
            (f"{glyphs.trophy} Game over! ", "bold"),
            names(winners, name),
            " wins." if len(winners) == 1 else " share the win.",
        )
    simple = {
        "seat_left": " leaves the game.",
        "seat_away": " is away.",
        "seat_back": " is back.",
        "guess_withdrawn": "'s guess leaves the table with them.",
    }
    if kind in simple:
        return Text.assemble(name(seat), simple[str(kind)])
    return None


def _caption(view: Frame, meme: object) -> Text:
    return literal(caption_of(view, meme), "bold")


def _ended(text: Text) -> Text:
    """A sentence gets its full stop unless it already ends in one (``NOPE.``)."""
    if not text.plain.endswith((".", "!", "?")):
        text.append(".")
    return text


def _turn_over(event: Frame, name: Name, final: bool) -> Text:
    if event.get("void"):
        reason = VOID_REASONS.get(str(event["void"]), str(event["void"]))
        return Text(f"Turn {event.get('turn')} is called off: {reason}.", "yellow")
    moved = [p for p in event.get("payouts", []) if isinstance(p, dict) and p.get("net")]
    line = Text("Payouts: ")
    line.append_text(nets_text(moved, name))
    if not moved:
        what = "cash" if final else "tokens"
        line.append(f"nobody wins anything (no {what} lay on a right guess).", "dim")
    return line


RULES = """\
Four rounds; in each, every player is the reactor once. The reactor rolls
two dice for a scenario (or writes one, if the room allows) and picks one
of their 7 memes face down. Everyone else guesses it by playing a meme from
their own hand, face down.

The reactor bets 1 to 3 tokens on the others' guesses. The guesses are
shown, and everyone else bets up to 3 tokens (at most 2 on their own
guess). Then the reactor's meme is revealed: each token on a right guess
pays $1. In the final round you bet your own cash instead: a right bet
doubles, a wrong one is lost. Most money after round 4 wins."""
"""How to play, as the help screen shows it (keys come from the screens)."""


@dataclass(frozen=True)
class MemeGlyphs:
    """The game's own symbols, swapped as a set for ``--ascii``."""

    token: str
    free: str
    """A token not placed yet."""
    dot: str
    shade: str
    reactor: str
    right: str
    wrong: str
    pencil: str
    waiting: str
    box: str
    """Die outline: top-left, top, top-right, side, bottom-left, bottom-right."""


MEME_UNICODE = MemeGlyphs("●", "○", "●", "░", "◆", "✔", "✘", "✎", "…", "╭─╮│╰╯")
MEME_ASCII = MemeGlyphs("o", "-", "*", ".", "R", "+", "x", "~", "?", "+-+|++")


def meme_glyphs(ascii_only: bool) -> MemeGlyphs:
    return MEME_ASCII if ascii_only else MEME_UNICODE


def color_style(view: Frame, seat: object) -> str:
    """The seat's meme color as a style (deck data, so parsed before use)."""
    players = [p for p in view.get("players", []) if isinstance(p, dict)]
    terminal = next((p.get("terminal") for p in players if p.get("seat") == seat), None)
    if isinstance(terminal, str):
        with suppress(ColorParseError):
            Color.parse(terminal)
            return terminal
    return seat_style(seat)


def bill_counts(amount: int) -> list[tuple[int, int]]:
    """``amount`` dollars as funny-money bills, largest first: [(100, n), (10, n)...]."""
    counts = []
    left = max(0, amount)
    for bill in (100, 10, 5, 1):
        number, left = divmod(left, bill)
        if number:
            counts.append((bill, number))
    return counts


BILL_STYLES = {
    1: "black on green",
    5: "black on cyan",
    10: "black on yellow",
    100: "white on magenta",
}


def bills_text(amount: int, *, width: int = 24) -> Text:
    """Bills as little banknotes (``$10 $10 $5 $1``); ``$10x7 $5 $1`` when wider than ``width``."""
    counts = bill_counts(amount)
    for compact in (False, True):
        text = Text()
        for bill, number in counts:
            for _ in range(1 if compact else number):
                if text.plain:
                    text.append(" ")
                text.append(f"${bill}", f"bold {BILL_STYLES[bill]}")
            if compact and number > 1:
                text.append(f"x{number}", "bold")
        if compact or text.cell_len <= width:
            return text
    return Text()


def nets_text(payouts: list[Frame], name: Name) -> Text:
    """``Ann +$3, Bob -$1``."""
    return Text(", ").join(
        Text.assemble(name(p.get("seat")), " ", signed_money(int(p.get("net", 0)))) for p in payouts
    )


def signed_money(amount: int) -> Text:
    if amount > 0:
        return Text(f"+${amount}", "bold green")
    if amount < 0:
        return Text(f"-${-amount}", "bold red")
    return Text("$0", "dim")


def fit(text: Text, width: int, ellipsis: str) -> Text:
    """``text`` cut (with ``ellipsis``) or padded to exactly ``width`` cells."""
    text = text.copy()
    if text.cell_len > width:
        text.truncate(max(0, width - cell_len(ellipsis)))
        text.append(ellipsis, "dim")
    text.pad_right(width - text.cell_len)
    return text
