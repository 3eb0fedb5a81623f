"""What one seat may see and do. Views are plain data with text keys only.

A view never holds the generator, a pile's order, another seat's hand, or
who wrote which slogan before the judge has picked.
"""

from __future__ import annotations

from typing import Any

from partyhost.engine.core import Command, SeatResult, View
from partyhost.engine.tshirt.state import (
    Phase,
    Player,
    Presence,
    RoundResult,
    TShirtState,
    player_of,
    score,
    submission_of,
    submitted_seats,
    victims_for,
    waiting_for,
)


def legal(state: TShirtState, seat: int) -> list[Command]:
    """Command templates for ``seat``; a bot or UI sends one of them as is."""
    player = player_of(state, seat)
    if player is None or player.presence is Presence.LEFT:
        return []
    if state.phase is Phase.SUBMITTING:
        if seat == state.judge or submission_of(state, seat) is not None:
            return []
        return [{"type": "submit", "card": card} for card in player.hand]
    if state.phase is Phase.JUDGING and seat == state.judge:
        return [
            {"type": "pick", "index": index, "v": state.version}
            for index in range(len(state.submissions))
        ]
    if state.phase is Phase.BOOYAH and state.booyah is not None and state.booyah.seat == seat:
        steals: list[Command] = [
            {"type": "booyah", "choice": "steal", "victim": victim}
            for victim in victims_for(state, seat)
        ]
        return [{"type": "booyah", "choice": "keep"}, *steals]
    return []


def view(state: TShirtState, seat: int | None) -> View:
    """Everything a UI draws for ``seat`` (None: a spectator), public facts plus its own hand.

    The public parts are built once per state and shared by every seat's view
    of that state (the host sends one view per seat after each change), so a
    view is read-only: copy a part before changing it.
    """
    public = _public(state)
    me = player_of(state, seat)
    if me is None:
        you = None
        hand: list[dict[str, Any]] = []
        yours = None
    else:
        you = me.seat
        slogans = state.deck.slogans
        hand = [{"card": card, "text": slogans[card]} for card in me.hand]
        own = submission_of(state, you) if public["submitted"] else None
        yours = {"card": own.card, "text": slogans[own.card]} if own is not None else None
    return {
        "game": "tshirt",
        "version": state.version,
        "phase": public["phase"],
        "round": state.round,
        "judge": state.judge,
        "you": you,
        "target": public["target"],
        "hand_size": public["hand_size"],
        "timers": public["timers"],
        "players": public["players"],
        "hand": hand,
        "tshirt": public["tshirt"],
        "submitted": public["submitted"],
        "waiting_for": public["waiting_for"],
        "your_submission": yours,
        "submissions": public["submissions"],
        "sat_out": public["sat_out"],
        "booyah": public["booyah"],
        "last_round": public["last_round"],
        "recap": public["recap"],
        "piles": public["piles"],
        "deadline": public["deadline"],
        "winners": public["winners"],
        "end_reason": state.end_reason,
        "legal": legal(state, you) if you is not None else [],
    }


_last_public: tuple[TShirtState, dict[str, Any]] | None = None
"""The newest state's public parts: one entry, because views come in bursts per state."""


def _public(state: TShirtState) -> dict[str, Any]:
    """What every seat sees alike, built once per state (states never change)."""
    global _last_public
    cached = _last_public
    if cached is not None and cached[0] is state:
        return cached[1]
    slogans = state.deck.slogans
    settings = state.settings
    face_down_or_revealed = state.phase is Phase.SUBMITTING or state.phase is Phase.JUDGING
    public = {
        "phase": state.phase.value,
        "target": settings.target,
        "hand_size": settings.hand_size,
        "timers": {"submit": settings.submit_timer, "judge": settings.judge_timer},
        "players": [_player_view(state, player) for player in state.players],
        "tshirt": _tshirt_view(state, state.tshirt),
        "submitted": submitted_seats(state) if face_down_or_revealed else [],
        "waiting_for": waiting_for(state),
        "submissions": (
            [
                {"index": index, "text": slogans[sub.card]}
                for index, sub in enumerate(state.submissions)
            ]
            if state.phase is Phase.JUDGING
            else []
        ),
        "sat_out": list(state.sat_out),
        "booyah": _booyah_view(state),
        "last_round": _result_view(state, state.last_round),
        "recap": _recap(state) if state.phase is Phase.OVER else [],
        "piles": {
            "slogans": len(state.slogan_pile),
            "slogan_discard": len(state.slogan_discard),
            "tshirts": len(state.tshirt_pile),
            "tshirt_discard": len(state.tshirt_discard),
            "hot_or_not": len(state.hot_pile),
        },
        "deadline": None if state.phase is Phase.STARTING else state.deadline,
        "winners": list(state.winners),
    }
    _last_public = (state, public)
    return public


def _player_view(state: TShirtState, player: Player) -> dict[str, Any]:
    return {
        "seat": player.seat,
        "presence": player.presence.value,
        "score": score(state, player),
        "cards": [_hot_view(state, card) for card in player.won],
        "hand_count": len(player.hand),
        "is_judge": player.seat == state.judge,
    }


def _hot_view(state: TShirtState, card: int) -> dict[str, Any]:
    hot = state.deck.hot_or_not[card]
    return {"card": card, "points": hot.points, "verdict": hot.verdict, "booyah": hot.booyah}


def _tshirt_view(state: TShirtState, card: int | None) -> dict[str, Any] | None:
    if card is None:
        return None
    shirt = state.deck.tshirts[card]
    return {"card": card, "picture": shirt.picture, "art": shirt.art}


def _booyah_view(state: TShirtState) -> dict[str, Any] | None:
    pending = state.booyah
    if pending is None or state.phase is not Phase.BOOYAH:
        return None
    return {
        "seat": pending.seat,
        **_hot_view(state, pending.card),
        "victims": victims_for(state, pending.seat),
    }


def _result_view(state: TShirtState, result: RoundResult | None) -> dict[str, Any] | None:
    """The last round's outcome: everything is public once the judge has picked."""
    if result is None:
        return None
    slogans = state.deck.slogans
    authors = [
        {"index": index, "seat": sub.seat, "text": slogans[sub.card]}
        for index, sub in enumerate(result.submissions)
    ]
    winner = authors[result.winning_index] if result.winning_index is not None else None
    return {
        "round": result.round,
        "tshirt": _tshirt_view(state, result.tshirt),
        "void": result.void_reason,
        "winner": winner["seat"] if winner else None,
        "winning_index": result.winning_index,
        "slogan": winner["text"] if winner else None,
        "authors": authors,
        "random_pick": result.random_pick,
        "sat_out": list(result.sat_out),
        "hot_or_not": _hot_view(state, result.hot_card) if result.hot_card is not None else None,
        "points": _points_won(state, result),
        "booyah": (
            {
                "choice": result.booyah_choice,
                "victim": result.victim,
                "stolen": (
                    _hot_view(state, result.stolen_card) if result.stolen_card is not None else None
                ),
            }
            if result.booyah_choice is not None
            else None
        ),
    }


def _recap(state: TShirtState) -> list[dict[str, Any]]:
    """Every round in brief, for the game-over screen: its shirt, what won, who, the points."""
    rounds = (*state.past_rounds, state.last_round) if state.last_round else state.past_rounds
    recap = []
    for result in rounds:
        won = result.winning_index
        submission = result.submissions[won] if won is not None else None
        tshirt = _tshirt_view(state, result.tshirt)
        recap.append(
            {
                "round": result.round,
                "tshirt": tshirt["picture"] if tshirt else None,
                "void": result.void_reason,
                "winner": submission.seat if submission else None,
                "slogan": state.deck.slogans[submission.card] if submission else None,
                "points": _points_won(state, result),
            }
        )
    return recap


def _points_won(state: TShirtState, result: RoundResult) -> int:
    """What the round's winner gained: the card drawn, or the card a Booyah stole."""
    if result.hot_card is None:
        return 0
    drawn = state.deck.hot_or_not[result.hot_card]
    if not drawn.booyah or result.booyah_choice == "keep":
        return drawn.points
    if result.stolen_card is not None:
        return state.deck.hot_or_not[result.stolen_card].points
    return 0


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
    for past in state.past_rounds:  # every winner was shown when its round ended
        if past.winning_index is not None:
            secret.discard(past.submissions[past.winning_index].card)
    return {state.deck.slogans[card] for card in secret}


def replay_view(state: TShirtState) -> View:
    """The spectator's table with every hand shown and every slogan on it signed.

    Only for replays of a finished game: ``hands`` lists each seat's slogans,
    ``played`` whose each slogan on the table is (face down or not).
    """
    slogans = state.deck.slogans
    shown = dict(view(state, None))
    shown["hands"] = [
        {"seat": player.seat, "cards": [{"card": c, "text": slogans[c]} for c in player.hand]}
        for player in state.players
    ]
    shown["played"] = [
        {"index": index, "seat": sub.seat, "card": sub.card, "text": slogans[sub.card]}
        for index, sub in enumerate(state.submissions)
    ]
    return shown


def results(state: TShirtState) -> list[SeatResult]:
    """Every seat that played, with its Hot or Not points; the winners share the win."""
    return [
        SeatResult(player.seat, player.seat in state.winners, points=score(state, player))
        for player in state.players
    ]
