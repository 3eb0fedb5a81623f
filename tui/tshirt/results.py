"""The end of The T-Shirt Game: points and the cards won, then every round's shirt and winner."""

from __future__ import annotations

from partyhost.tui.shared.results import ResultsScreen, section_title
from partyhost.tui.text import Frame, literal, quoted
from partyhost.tui.tshirt.text import VOID_REASONS, points_text
from rich.text import Text

END_REASONS = {
    "target": "reached the target",
    "hot_or_not_empty": "the Hot or Not deck ran out: highest score wins",
}

CARDS_INLINE = 4
"""Up to this many won cards' points follow a player's score on its line."""
CARDS_A_LINE = 5
"""Points a line when there are more: five of the widest (-1000) fit a phone held upright."""
CARDS_INDENT = " " * 6


class TShirtResultsScreen(ResultsScreen):
    """Final scores with the points of every Hot or Not card each player won."""

    def ending(self, view: Frame, winners: list[int]) -> Text:
        reason = END_REASONS.get(str(view.get("end_reason")), "")
        return Text(f"\n({reason})", "dim") if reason else Text()

    def player_note(self, player: Frame) -> Text:
        """A few cards' points after the score; more on lines of their own under the name, so
        a long game's list never wraps back to the screen's edge (43 columns upright)."""
        cards = [str(c.get("points")) for c in player.get("cards", []) if isinstance(c, dict)]
        if len(cards) <= CARDS_INLINE:
            return Text(f"  ({', '.join(cards)})", "dim") if cards else Text()
        lines = [
            ", ".join(cards[start : start + CARDS_A_LINE])
            for start in range(0, len(cards), CARDS_A_LINE)
        ]
        return Text(f"\n{CARDS_INDENT}" + f",\n{CARDS_INDENT}".join(lines), "dim")

    def recap(self, view: Frame) -> Text:
        """Round by round: the shirt, the slogan that won it, who wrote it, what it was worth."""
        rounds = [r for r in view.get("recap") or [] if isinstance(r, dict)]
        if not rounds:
            return Text()
        text = section_title("Round by round")
        for entry in rounds:
            text.append(f"{entry.get('round', '?'):>2}. ", "bold")
            if entry.get("void"):
                reason = VOID_REASONS.get(str(entry["void"]), str(entry["void"]))
                text.append(f"called off: {reason}", "dim")
            else:
                text.append_text(quoted(entry.get("slogan", "")))
                text.append(" by ")
                text.append_text(self._who(entry.get("winner")))
                text.append(" ")
                text.append_text(points_text(entry.get("points")))
            if entry.get("tshirt"):
                text.append("\n    on ", "dim")
                text.append_text(literal(entry["tshirt"], "dim italic"))
            text.append("\n")
        return text
