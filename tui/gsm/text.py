"""Words for Game, Set, Match!: log lines, the status line, the claim outcome, timers, rules
and scoreboard lines, every fact from the host's view and events."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from partyhost.tui.party import legal_of
from partyhost.tui.shared.scoreboard import Badge, ScoreLine
from partyhost.tui.text import Frame, Glyphs, Name, clock_text, counted, literal, names, number_of
from rich.text import Text

TITLES = {
    "stealing-home": "Stealing Home",
    "scramble": "Scramble",
    "gridiron": "Gridiron",
    "four-corners": "Four Corners",
}
NO_FIT_REASONS = {
    "votes": "everyone said no fit",
    "timer": "time ran out",
    "tied_players_left": "the tied players left",
}
OVER_REASONS = {
    "out_of_cards": "is out of cards",
    "all_passed": "holds the fewest cards once everyone passed",
    "stall": "holds the fewest cards when the game stalled",
    "others_left": "is the last one at the table",
}
TIED_REASONS = {
    "all_passed": "hold the fewest cards once everyone passed",
    "stall": "hold the fewest cards when the game stalled",
}
"""Why several seats share the win (only a count can tie)."""
AXIS_NAMES = {"h": "left-right", "v": "up-down"}
AXIS_MARKS = {"h": ("↔", "<->"), "v": ("↕", "^v")}
"""A Four Corners line's direction drawn, and with ``--ascii``."""


def describe_event(event: Frame, view: Frame, name: Name, glyphs: Glyphs) -> Text | None:
    """One log line for an event, or ``None`` for bookkeeping nobody needs to read."""
    kind = event.get("kind")
    seat = event.get("seat")
    who = name(seat)
    if kind == "match_called":
        return Text.assemble(
            who, (" calls Match!", "bold"), " (a tie?)" if event.get("tie") else ""
        )
    if kind == "wrong_match":
        return Text.assemble(
            who, (" was wrong: ", "red"), literal(event.get("reason", "")), " Locked out."
        )
    if kind == "match_won":
        return Text.assemble(
            (f"{glyphs.trophy} ", "bold yellow"), who, " matched and keeps the other card."
        )
    if kind == "tiebreak":
        return Text.assemble(
            ("Tie! ", "bold yellow"), names(event.get("seats", []), name), " race a tiebreaker."
        )
    if kind == "no_fit":
        why = NO_FIT_REASONS.get(str(event.get("reason")), "")
        fit = "One of them did fit." if event.get("fit_existed") else "Right: neither fitted."
        return Text(f"No fit ({why}): both cards leave play. {fit}", "dim")
    if kind == "cards_turned":
        extra = " for the tiebreaker" if event.get("tiebreak") else ""
        return Text(f"Round {event.get('round')}: two new cards are turned{extra}.", "bold")
    if kind == "game_called":
        if event.get("valid"):
            return Text.assemble(who, (" calls Game! and every card fits.", "bold green"))
        return Text.assemble(
            who, " calls Game!, ", ("but: ", "red"), literal(event.get("reason", ""))
        )
    if kind == "dealt":
        if event.get("void"):
            return Text("Everyone was stuck: new hands are dealt.", "yellow")
        return Text(f"Game {event.get('game')}: new hands are dealt.", "bold")
    if kind == "card_placed":
        line = Text.assemble(who, f" places a card ({counted(event.get('hand'), 'card')} left).")
        axis = event.get("axis")
        if axis in AXIS_NAMES:
            line.append(f" Their line runs {AXIS_NAMES[str(axis)]}.")
        return line
    if kind == "card_drawn":
        if seat == view.get("you") and seat is not None:
            return Text("None of your cards fitted: you draw one (it waits for your next turn).")
        return Text.assemble(who, " draws a card: nothing fitted.")
    if kind == "taken_back":
        if "placed" in event:
            return None  # Scramble board changes: the counts are in the scores
        return Text.assemble(who, f" takes a card back ({counted(event.get('hand'), 'card')}).")
    if kind in ("game_over", "match_over"):
        winners = event.get("winners", [])
        why = OVER_REASONS.get(str(event.get("reason")), "")
        many = isinstance(winners, list) and len(winners) > 1
        verb = (" win" if many else " wins") + (f": {why}" if why and not many else "")
        return Text.assemble(("Game over! ", "bold"), names(winners, name), verb + ".")
    simple = {
        "seat_joined": " joins the game.",
        "seat_left": " leaves the game.",
        "seat_away": " is away.",
        "seat_back": " is back.",
        "no_fit_vote": " says no fit.",
        "stuck": " is stuck.",
        "passed": " passes.",
    }
    if kind in simple:
        return Text.assemble(who, simple[str(kind)])
    return None


def seconds_left(deadline: object, now: float) -> int | None:
    """Whole seconds until a view deadline (on the room's game clock), or ``None``."""
    when = number_of(deadline)
    return None if when is None or when <= 0 else max(0, round(when - now))


def timed_status(line: Text, view: Frame, now: float) -> tuple[Text, bool]:
    """The status line with the view's clocks counting down from ``now`` (the room's game
    clock); whether any is running."""
    deadlines = view.get("deadlines")
    deadlines = deadlines if isinstance(deadlines, dict) else {}
    stall = seconds_left(deadlines.get("stall"), now)
    left = seconds_left(deadlines.get("round"), now)
    if stall is not None:
        line.append(f"  (stall in {stall} s)", "yellow")
    if left is not None:
        line = Text.assemble(clock_text(left), " ", line)
    return line, stall is not None or left is not None


def mine(view: Frame) -> Frame:
    """This seat's entry in ``scores`` (empty for spectators)."""
    you = view.get("you")
    scores = [entry for entry in view.get("scores", []) if isinstance(entry, dict)]
    return next((entry for entry in scores if entry.get("seat") == you), {})


def status_line(view: Frame, name: Name, glyphs: Glyphs, ascii_only: bool) -> Text:
    """What is going on and what this seat may do, in one line."""
    game, you = view.get("game"), view.get("you")
    if view.get("phase") == "over":
        return Text.assemble("Game over: ", names(view.get("winners", []), name), " won.")
    if you is None:
        return Text("You are watching.", "italic")
    if game == "stealing-home":
        return _stealing_home(view, name, glyphs)
    if game == "scramble":
        if legal_of(view, "call_game"):
            return Text("All your cards are down: check them, then call Game! with g.", "bold")
        needed = view.get("wins_needed", 1)
        match = f" (first to {needed} wins)" if isinstance(needed, int) and needed > 1 else ""
        return Text(
            f"Game {view.get('game_number', 1)}{match}: build one grid of all your cards, "
            "then g: Game!"
        )
    if game == "gridiron":
        if legal_of(view, "place"):
            return Text("Your turn: place a card next to the grid (Enter).", "bold")
        if legal_of(view, "draw"):
            return Text("Your turn: none of your cards fits. Draw a card with d.", "bold yellow")
        if legal_of(view, "pass"):
            return Text("Your turn: nothing fits and the pile is empty. Pass with p.", "bold")
        return Text.assemble("Waiting for ", name(view.get("turn")), f"{glyphs.ellipsis}")
    return _four_corners(view, name, ascii_only)


def _stealing_home(view: Frame, name: Name, glyphs: Glyphs) -> Text:
    you = view.get("you")
    tiebreak = view.get("tiebreak")
    line = Text()
    if isinstance(tiebreak, list):
        line.append("Tiebreaker: ", "bold yellow")
        line.append_text(names(tiebreak, name))
        if you not in tiebreak:
            line.append(" race; you sit this one out.")
            return line
        line.append(" race. ")
    if mine(view).get("locked"):
        line.append(f"{glyphs.lock} Locked out until the next round.", "bold red")
    elif you in view.get("called", []):
        line.append(f"You called Match!: the host is checking{glyphs.ellipsis}", "bold yellow")
    elif legal_of(view, "match"):
        line.append(
            f"Round {view.get('round')}: choose a face-up card, find where it fits, press m.",
            "bold",
        )
    else:
        line.append(f"Waiting for the next cards{glyphs.ellipsis}")
    return line


def _four_corners(view: Frame, name: Name, ascii_only: bool) -> Text:
    you = view.get("you")
    axes = {a.get("seat"): a.get("axis") for a in view.get("axes", []) if isinstance(a, dict)}
    axis = axes.get(you)
    if axis is None and not any(axes.values()):
        return Text("Place a card beside the middle card: its side fixes your line.", "bold")
    other = next((seat for seat in axes if seat != you), None)
    text = Text()
    text.append(
        f"Your line runs {AXIS_NAMES.get(str(axis), '?')} {axis_mark(axis, ascii_only)}", "bold"
    )
    theirs = AXIS_NAMES.get(str(axes.get(other)), "?")
    text.append_text(Text.assemble("; ", name(other), f" builds {theirs}."))
    if legal_of(view, "place"):
        text.append(" Place at either end (marked).")
    return text


def claim_feedback(view: Frame, events: tuple[Frame, ...], name: Name, sent: bool) -> Text:
    """Stealing Home's answer to your last "Match!": sent, checking, right, wrong or tied."""
    you = view.get("you")
    for event in reversed(events):
        kind = event.get("kind")
        if kind in ("cards_turned", "tiebreak", "match_won", "no_fit"):
            break
        if kind == "wrong_match" and event.get("seat") == you:
            return Text.assemble(
                ("Wrong: ", "bold red"), literal(event.get("reason", "")), " You are locked out."
            )
    last = view.get("last") if isinstance(view.get("last"), dict) else None
    if you in view.get("called", []):
        return Text("Match! called: checking for a tie...", "bold yellow")
    if sent:
        return Text("Match! sent...", "bold yellow")
    if last is None:
        return Text()
    if "kept" in last:
        if last.get("seat") == you and not view.get("face_up"):  # new cards: a new round
            return Text("Accepted! Your match fits: you keep the other card.", "bold green")
        return Text.assemble("Last round: ", name(last.get("seat")), " matched first.")
    if "seats" in last:
        tied = last.get("seats", [])
        if you in tied:
            return Text.assemble(
                ("Tie! ", "bold yellow"), names(tied, name), " race a tiebreaker on new cards."
            )
        return Text.assemble("Tie between ", names(tied, name), ": tiebreaker.")
    if "fit_existed" in last:
        fit = "one of them did fit" if last.get("fit_existed") else "neither fitted"
        return Text(f"Last round: no fit ({fit}).", "dim")
    return Text()


def scramble_feedback(view: Frame) -> Text:
    """Your last "Game!" call, when it was wrong (until you lay out cards again)."""
    last = view.get("last")
    if view.get("board"):
        return Text()
    if isinstance(last, dict) and last.get("seat") == view.get("you") and not last.get("valid"):
        return Text.assemble(
            ("Your Game! call was wrong: ", "bold red"),
            literal(last.get("reason", "")),
            " Your cards are back in your hand.",
        )
    return Text()


def round_result_text(view: Frame, name: Name) -> Text:
    """Stealing Home's last round for the result moment: the match, the tie or the no fit."""
    last = view.get("last") if isinstance(view.get("last"), dict) else None
    if last is None:
        return Text("The round is over.")
    if "kept" in last:
        who = name(last.get("seat"))
        return Text.assemble(
            who,
            (" called Match! first and was right.", "bold"),
            "\nThe card lies on the board where it fitted (outlined brighter) and ",
            name(last.get("seat")),
            " keeps the other face-up card: one more card won.",
        )
    if "seats" in last:
        return Text.assemble(
            ("Tie! ", "bold yellow"),
            names(last.get("seats", []), name),
            " called Match! a blink apart: only they race a tiebreaker on two new cards.",
        )
    if "fit_existed" in last:
        why = NO_FIT_REASONS.get(str(last.get("reason")), "")
        fitted = "One of them did fit somewhere." if last.get("fit_existed") else "Neither fitted."
        return Text(f"No fit ({why}): both cards leave play. {fitted}")
    return Text("The round is over.")


CARD_RULE = """\
Game, Set, Match! cards show sports gear in colors. Every cell shows the
thing (its picture, when the terminal draws emoji), its letter and its
color's letter. In the shipped deck: G golf ball, T tennis racket, M baseball
mitt, H football helmet, S basketball sneaker, B soccer ball; r red, b blue,
g green, p purple, y yellow, w white (i hides the color letters). A card goes
down beside a card already on the board, sharing a full side. Wherever cards
meet, touching cells (across corners too) must differ in object AND in color.
A card may be turned upside down when the room allows it."""
"""The rule all four games share, at the end of each game's page in the help."""

RULES = {
    "stealing-home": f"""\
A race. Each round two cards are turned face up. Spot where one of them
fits and call Match! naming the card and the place: the first right call
places it, and its caller keeps the other card. A wrong call locks you out
until the next round; calls a blink apart are a tie, and only the tied
players race on two new cards. Nothing fits? Vote no fit (the round timer
ends the round too). When the cards run out, most cards kept wins.

{CARD_RULE}""",
    "scramble": f"""\
A race. Everyone gets 7 cards and arranges them on a private board: place,
move, turn and take back freely, nothing is checked yet. When all 7 form
one grid and every touching pair obeys the rule, call Game! A wrong call
sends all your cards back to your hand and play goes on. When everyone is
stuck the hand is void and fresh cards are dealt. The room may play a
best of 3 or 5.

{CARD_RULE}""",
    "gridiron": f"""\
Turns. Everyone gets 7 cards; one card starts the board. On your turn put
down one card where it fits. Only when none of yours fits anywhere do you
draw one (and your turn ends), or pass once the pile is empty. The first
player out of cards wins; if everyone passes in a row, the fewest cards in
hand wins.

{CARD_RULE}""",
    "four-corners": f"""\
A race for two. Each gets 10 cards; one card lies in the middle. The first
card put beside it fixes your line, across or up and down, and the other
player gets the other line. Build only at the two ends of your own line;
take an end card back to use it elsewhere. First out of cards wins; if no
card is placed before the stall timer runs out, or both say stuck, fewer
cards in hand wins.

{CARD_RULE}""",
}
"""How to play each game, as the help screen shows it (keys come from the screens)."""


def score_rows(
    view: Frame,
    name_of: Callable[[object], str],
    glyphs: Glyphs,
    ascii_only: bool,
    presence: Mapping[int, Badge],
) -> list[ScoreLine]:
    """The scoreboard for any of the four games; a presence badge first for each player who
    is not there, in place of the game's "away", which says less."""
    game, you = view.get("game"), view.get("you")
    called = view.get("called", []) or []
    tiebreak = view.get("tiebreak")
    stuck = view.get("stuck", []) or []
    axes = {a.get("seat"): a.get("axis") for a in view.get("axes", []) if isinstance(a, dict)}
    winners = view.get("winners", []) or []
    rows = []
    for entry in view.get("scores", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("seat"), int):
            continue
        seat = entry["seat"]
        badges: list[tuple[str, str]] = []
        marker = " "
        if game == "stealing-home":
            value = counted(entry.get("cards"), "card")
            if entry.get("locked"):
                badges.append((f"{glyphs.lock}locked", "bold red"))
            if seat in called:
                badges.append(("Match!", "bold yellow"))
            if entry.get("voted"):
                badges.append(("no fit", "dim"))
            if isinstance(tiebreak, list) and seat in tiebreak:
                badges.append(("tiebreak", "yellow"))
        elif game == "scramble":
            placed, hand = int(entry.get("placed", 0)), int(entry.get("hand", 0))
            value = f"{placed}/{placed + hand} down"
            if int(view.get("wins_needed", 1)) > 1:
                badges.append((f"{glyphs.trophy}{entry.get('wins', 0)}", "yellow"))
        else:
            value = counted(entry.get("hand"), "card")
            if game == "gridiron" and seat == view.get("turn"):
                marker = glyphs.you
            mark = axis_mark(axes.get(seat), ascii_only)
            if mark:
                badges.append((mark, "bold"))
        if seat in stuck:
            badges.append(("stuck", "dim"))
        if entry.get("away") and seat not in presence:
            badges.append((glyphs.away + "away", "yellow"))
        if seat in winners:
            badges.append((glyphs.trophy, "bold yellow"))
        if seat in presence:
            badges.insert(0, presence[seat])
        rows.append(
            ScoreLine(
                seat,
                name_of(seat),
                value,
                Text(marker, "bold yellow"),
                left=bool(entry.get("left")),
                you=seat == you,
                badges=tuple(badges),
            )
        )
    return rows


def axis_mark(axis: object, ascii_only: bool) -> str:
    marks = AXIS_MARKS.get(str(axis))
    return marks[ascii_only] if marks else ""
