"""A T-Shirt bot: reads only its view's ``legal`` list and face-up cards, as a person would."""

from __future__ import annotations

from typing import Any

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
    keep_value = view["booyah"]["points"]
    cards_by_seat: dict[int, list[dict[str, Any]]] = {
        player["seat"]: player["cards"] for player in view["players"]
    }
    best: Command = {"type": "booyah", "choice": "keep"}
    best_average: float = keep_value
    for command in legal:
        cards = cards_by_seat.get(command.get("victim", -1), [])
        if command["choice"] != "steal" or not cards:
            continue
        average = sum(card["points"] for card in cards) / len(cards)
        if average > best_average:
            best, best_average = dict(command), average
    return best
