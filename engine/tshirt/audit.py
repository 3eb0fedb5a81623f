"""Where every card is, and what a seat must not see: for tests and diagnostics.

The generic random-game test reads these through optional ``Game`` methods to
check card conservation and that no view leaks hidden slogans.
"""

from __future__ import annotations

from partyhost.engine.tshirt.state import Phase, TShirtState


def card_locations(state: TShirtState) -> list[tuple[tuple[str, int], str]]:
    """One ``((deck, card), place)`` pair per card; each card must appear exactly once."""
    places: list[tuple[tuple[str, int], str]] = []

    def put(kind: str, cards: tuple[int, ...], place: str) -> None:
        places.extend(((kind, card), place) for card in cards)

    put("slogan", state.slogan_pile, "slogan pile")
    put("slogan", state.slogan_discard, "slogan discard")
    put("slogan", tuple(sub.card for sub in state.submissions), "on the table")
    put("tshirt", state.tshirt_pile, "T-shirt pile")
    put("tshirt", state.tshirt_discard, "T-shirt discard")
    put("tshirt", () if state.tshirt is None else (state.tshirt,), "on the table")
    put("hot", state.hot_pile, "Hot or Not pile")
    put("hot", () if state.booyah is None else (state.booyah.card,), "Booyah choice")
    for player in state.players:
        put("slogan", player.hand, f"hand of seat {player.seat}")
        put("hot", player.won, f"won by seat {player.seat}")
    return places


def hidden_texts(state: TShirtState, seat: int | None) -> set[str]:
    """Slogans other seats hold in hand or have played face down: ``seat`` must not see them.

    A slogan also counts as known once it was shown in the last finished
    round, because a reshuffled discard can deal it to someone's hand again.
    """
    secret: set[int] = set()
    for player in state.players:
        if player.seat != seat:
            secret.update(player.hand)
    if state.phase is Phase.SUBMITTING:
        secret.update(sub.card for sub in state.submissions if sub.seat != seat)
    if state.last_round is not None:
        secret.difference_update(sub.card for sub in state.last_round.submissions)
    return {state.deck.slogans[card] for card in secret}
