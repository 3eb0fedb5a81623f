"""Words for The T-Shirt Game: log lines, the status line, the last round's outcome, rules."""

from __future__ import annotations

from partyhost.tui.party import legal_of
from partyhost.tui.text import Frame, Glyphs, Name, literal, names, number_keys, quoted
from rich.text import Text

VOID_REASONS = {
    "judge_left": "the judge left",
    "judge_away": "the judge is away",
    "not_enough_players": "too few players are at the table",
    "no_submissions": "nobody played a slogan",
}
AUTO_KEEP = {"nobody_to_steal_from": "nobody had a card to steal", "away": "the drawer was away"}


def points_text(points: object) -> Text:
    value = int(points) if isinstance(points, int) else 0
    return Text(f"{value:+d}", "bold red" if value < 0 else "bold green")


def describe_event(event: Frame, view: Frame, name: Name, glyphs: Glyphs) -> Text | None:
    """One log line for an event, or ``None`` for bookkeeping nobody needs to read."""
    kind = event.get("kind")
    seat = event.get("seat")
    if kind == "first_judge":
        how = " (picked at random)" if event.get("chosen") == "random" else ""
        return Text.assemble(name(seat), f" judges first{how}.")
    if kind == "round_started":
        return Text.assemble(
            (f"Round {event.get('round')}", "bold"), ": ", name(event.get("judge")), " judges."
        )
    if kind == "tshirt_drawn":
        return Text.assemble("The shirt: ", literal(event.get("picture", ""), "italic"))
    if kind == "submitted":
        if "text" in event:
            return Text.assemble("You played ", quoted(event["text"]), ".")
        return Text.assemble(name(seat), " played a slogan.")
    if kind == "revealed":
        count = len(event.get("submissions", []))
        return Text(f"All slogans are in: {count} face up for the judge.")
    if kind == "picked":
        how = " (at random: time ran out)" if event.get("random") else ""
        return Text.assemble(
            glyphs.trophy,
            " ",
            quoted(event.get("text", "")),
            " by ",
            name(event.get("winner")),
            f" wins the round{how}.",
        )
    if kind == "drew":
        if event.get("booyah"):
            return Text.assemble(name(seat), " drew the ", ("Booyah card", "bold yellow"), "!")
        return Text.assemble(
            glyphs.hot,
            " ",
            name(seat),
            " draws ",
            points_text(event.get("points")),
            ": ",
            literal(event.get("verdict", ""), "italic"),
        )
    if kind == "booyah_kept":
        why = AUTO_KEEP.get(str(event.get("auto")), "")
        return Text.assemble(
            name(seat),
            " keeps the Booyah card ",
            points_text(event.get("points")),
            f" ({why})." if why else ".",
        )
    if kind == "stole":
        return Text.assemble(
            (f"{glyphs.booyah} Booyah! ", "bold yellow"),
            name(event.get("thief")),
            " stole a ",
            points_text(event.get("points")),
            " card from ",
            name(event.get("victim")),
            ".",
        )
    if kind == "booyah_returned":
        return Text("The Booyah card goes back under the Hot or Not deck.")
    if kind == "round_void":
        reason = VOID_REASONS.get(str(event.get("reason")), str(event.get("reason", "")))
        return Text(f"Round {event.get('round')} is called off: {reason}.", "yellow")
    if kind == "paused":
        return Text(
            f"Paused: {event.get('active')} active players, {event.get('needed')} needed.", "yellow"
        )
    if kind == "resumed":
        return Text("Enough players again: the game goes on.")
    if kind == "timed_out":
        if event.get("timer") == "submit":
            return Text.assemble(
                "Time is up for slogans. Sitting out: ",
                names(event.get("sat_out", []), name) or Text("nobody"),
                ".",
            )
        return Text(f"Time is up for the {event.get('timer')} choice.")
    if kind == "game_over":
        return Text.assemble(
            ("Game over! ", "bold"),
            names(event.get("winners", []), name),
            " win" + ("s." if len(event.get("winners", [])) == 1 else "."),
        )
    if kind == "reshuffled":
        return Text(f"The {event.get('pile')} discards are shuffled into a new pile.", "dim")
    simple = {
        "seat_joined": " joins the game.",
        "seat_left": " leaves the game.",
        "seat_away": " is away.",
        "seat_back": " is back.",
        "submission_withdrawn": "'s slogan is taken back.",
        "booyah_pending": " may keep the Booyah card or steal with it.",
    }
    if kind in simple:
        return Text.assemble(name(seat), simple[str(kind)])
    return None


def status_line(view: Frame, name: Name, glyphs: Glyphs) -> Text:
    """Whose turn it is and what this seat is waiting for."""
    phase = view.get("phase")
    you = view.get("you")
    judge = view.get("judge")
    waiting = names(view.get("waiting_for", []), name)
    if phase == "starting":
        return Text(f"Shuffling and dealing{glyphs.ellipsis}")
    if phase == "paused":
        return Text("Paused: the game needs at least 3 players at the table.", "yellow")
    if phase == "over":
        return Text.assemble("Game over: ", names(view.get("winners", []), name), " won.")
    if phase == "submitting":
        count = len(legal_of(view, "submit"))
        if count:
            return Text(
                "Your move: pick the slogan that best fits the shirt"
                f" ({number_keys(count)}, Enter plays it).",
                "bold",
            )
        if you is not None and you == judge:
            return Text.assemble(
                (f"{glyphs.judge} You judge this round. ", "bold"),
                "Waiting for slogans from ",
                waiting,
                glyphs.ellipsis,
            )
        if view.get("your_submission"):
            return Text.assemble(
                "Your slogan is on the table. Waiting for ", waiting, glyphs.ellipsis
            )
        return Text.assemble("Waiting for slogans from ", waiting, glyphs.ellipsis)
    if phase == "judging":
        count = len(legal_of(view, "pick"))
        if count:
            return Text(
                f"{glyphs.judge} You are the judge: pick the funniest slogan "
                f"({number_keys(count)}, Enter confirms).",
                "bold",
            )
        return Text.assemble(name(judge), f" is judging the slogans{glyphs.ellipsis}")
    if phase == "booyah":
        booyah = view.get("booyah") or {}
        if legal_of(view, "booyah"):
            return Text(
                f"{glyphs.booyah} Booyah! Keep the card for {booyah.get('points', 400)} "
                "points or steal one: press b to choose.",
                "bold yellow",
            )
        return Text.assemble(
            name(booyah.get("seat")),
            f" drew the Booyah card and is choosing: keep or steal{glyphs.ellipsis}",
        )
    return Text(str(phase or ""))


def outcome(last: Frame, name: Name, glyphs: Glyphs, *, detailed: bool) -> Text:
    """The last round: the winning slogan and author, the verdict and points."""
    text = Text(f"Round {last.get('round')}", "bold")
    if last.get("void"):
        reason = VOID_REASONS.get(str(last["void"]), str(last["void"]))
        text.append(f" was called off: {reason}.", "yellow")
        return text
    text.append(": ")
    text.append_text(quoted(last.get("slogan", "")))
    text.append(" by ")
    text.append_text(name(last.get("winner")))
    if last.get("random_pick"):
        text.append(" (picked at random)", "dim")
    hot = last.get("hot_or_not")
    if isinstance(hot, dict):
        text.append("\n")
        booyah = last.get("booyah")
        if hot.get("booyah"):
            text.append(f"{glyphs.booyah} Booyah card", "bold yellow")
            if booyah is None:
                text.append(f": keep or steal{glyphs.ellipsis}")
            elif booyah.get("choice") == "keep":
                text.append(": kept for ")
                text.append_text(points_text(last.get("points")))
            elif booyah.get("choice") == "steal":
                stolen = booyah.get("stolen") or {}
                text.append(": stole ")
                text.append_text(points_text(stolen.get("points")))
                text.append(" from ")
                text.append_text(name(booyah.get("victim")))
                text.append(" ")
                text.append_text(literal(stolen.get("verdict", ""), "italic"))
            else:
                text.append(": back under the deck")
        else:
            text.append(f"{glyphs.hot} ")
            text.append_text(points_text(hot.get("points")))
            text.append(" ")
            text.append_text(literal(hot.get("verdict", ""), "italic"))
    if detailed:
        for author in last.get("authors", []):
            if author.get("index") == last.get("winning_index"):
                continue
            text.append(f"\n{glyphs.bullet} ", "dim")
            text.append_text(name(author.get("seat")))
            text.append(": ", "dim")
            text.append_text(literal(author.get("text", ""), "dim"))
    return text


RULES = """\
Collect Hot or Not cards worth the target score (3000 by default) to win.

Each round one player is the judge. A T-shirt card is turned face up, and
everyone else picks the slogan from their hand that suits the shirt best.
The slogans are shuffled and revealed without names; the judge picks the
funniest match. Its author draws a Hot or Not card and scores its points
(some cards are worth little, or even less than nothing).

The Booyah card: keep it for 400 points, or give it up to steal a random
Hot or Not card from another player who has one.

Then everyone is dealt back up to 3 slogans and the next player judges.
The first to reach the target wins; if the Hot or Not deck runs out,
the highest score wins."""
"""How to play, as the help screen shows it (keys come from the screens)."""
