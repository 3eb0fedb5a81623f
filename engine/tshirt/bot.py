"""A T-Shirt bot: reads only its view's ``legal`` list and face-up cards, as a person would."""

from __future__ import annotations

from partyhost.engine.core import Command, View
from partyhost.engine.rng import Rng


def bot_command(view: View, rng: Rng, now: float) -> Command | None:
    """Any slogan, any submission; a Booyah steal only when it beats keeping."""
    legal: list[Command] = view.get("legal") or []
    if not legal:
        return None
    if legal[0]["type"] == "booyah":
        return _booyah_choice(view, legal)
    return dict(rng.choice(legal))


def _booyah_choice(view: View, legal: list[Command]) -> Command:
    """Steal from the seat whose face-up cards average best, if that beats keeping."""
    cards_by_seat = {player["seat"]: player["cards"] for player in view["players"]}

    def worth(command: Command) -> float:
        cards = cards_by_seat.get(command.get("victim", -1), [])
        if not cards:  # keeping, or stealing from a seat with nothing to take
            return float(view["booyah"]["points"])
        return sum(float(card["points"]) for card in cards) / len(cards)

    best = max(legal, key=worth)  # the first best: keeping, listed first, wins a tie
    return dict(best)
