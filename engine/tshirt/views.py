"""What one seat may see and do: never the generator, a pile's order, another's hand,
or who wrote which slogan before the judge has picked.
"""

from __future__ import annotations

from typing import Any

from partyhost.engine.core import Command, SeatResult, View, shared_part
from partyhost.engine.tshirt.state import (
    Phase,
    Player,
    RoundResult,
    TShirtState,
    authors_shown,
    hot_card_shown,
    player_of,
    score,
    seated,
    submission_of,
    submitted_seats,
    tshirt_shown,
    victims_for,
    waiting_for,
)


def legal(state: TShirtState, seat: int) -> list[Command]:
    """Command templates for ``seat``; a bot or UI sends one of them as is."""
    player = seated(state, seat)
    if player is None:
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
    """What a UI draws for ``seat`` (None: a spectator); shared parts, so read-only."""
    public = shared_part(state, "view", lambda: _public(state))
    me = player_of(state, seat)
    if me is None:
        return dict(public)
    slogans = state.deck.slogans
    own = submission_of(state, me.seat) if public["submitted"] else None
    return {
        **public,
        "you": me.seat,
        "hand": [{"card": card, "text": slogans[card]} for card in me.hand],
        "your_submission": {"card": own.card, "text": slogans[own.card]} if own else None,
        "legal": legal(state, me.seat),
    }


def _public(state: TShirtState) -> View:
    """What every seat sees alike (a spectator's view)."""
    slogans, rules, booyah = state.deck.slogans, state.rules, state.booyah
    face_down_or_revealed = state.phase is Phase.SUBMITTING or state.phase is Phase.JUDGING
    return {
        "game": "tshirt",
        "version": state.version,
        "phase": state.phase.value,
        "round": state.round,
        "judge": state.judge,
        "you": None,
        "target": rules["target"],
        "hand_size": rules["hand_size"],
        "timers": {"submit": rules["submit_timer"], "judge": rules["judge_timer"]},
        "players": [_player_view(state, player) for player in state.players],
        "hand": [],
        "tshirt": tshirt_shown(state, state.tshirt),
        "submitted": submitted_seats(state) if face_down_or_revealed else [],
        "waiting_for": waiting_for(state),
        "your_submission": None,
        "submissions": (
            [
                {"index": index, "text": slogans[sub.card]}
                for index, sub in enumerate(state.submissions)
            ]
            if state.phase is Phase.JUDGING
            else []
        ),
        "sat_out": list(state.sat_out),
        "booyah": None
        if booyah is None or state.phase is not Phase.BOOYAH
        else {
            "seat": booyah.seat,
            **hot_card_shown(state, booyah.card),
            "victims": victims_for(state, booyah.seat),
        },
        "last_round": _result_view(state, state.rounds[-1]) if state.rounds else None,
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
        "end_reason": state.end_reason,
        "legal": [],
    }


def _player_view(state: TShirtState, player: Player) -> dict[str, Any]:
    return {
        "seat": player.seat,
        "presence": player.presence.value,
        "score": score(state, player),
        "cards": [hot_card_shown(state, card) for card in player.won],
        "hand_count": len(player.hand),
        "is_judge": player.seat == state.judge,
    }


def _result_view(state: TShirtState, result: RoundResult) -> dict[str, Any]:
    """The last round's outcome: everything is public once the judge has picked."""
    authors = authors_shown(state, result.submissions)
    winner = authors[result.winning_index] if result.winning_index is not None else None
    return {
        "round": result.round,
        "tshirt": tshirt_shown(state, result.tshirt),
        "void": result.void_reason,
        "winner": winner["seat"] if winner else None,
        "winning_index": result.winning_index,
        "slogan": winner["text"] if winner else None,
        "authors": authors,
        "random_pick": result.random_pick,
        "sat_out": list(result.sat_out),
        "hot_or_not": _hot_or_none(state, result.hot_card),
        "points": _points_won(state, result),
        "booyah": None
        if result.booyah_choice is None
        else {
            "choice": result.booyah_choice,
            "victim": result.victim,
            "stolen": _hot_or_none(state, result.stolen_card),
        },
    }


def _hot_or_none(state: TShirtState, card: int | None) -> dict[str, Any] | None:
    return None if card is None else hot_card_shown(state, card)


def _recap(state: TShirtState) -> list[dict[str, Any]]:
    """Every round in brief, for the game-over screen: its shirt, what won, who, the points."""
    recap = []
    for result in state.rounds:
        full = _result_view(state, result)
        shirt = full["tshirt"]
        brief = {key: full[key] for key in ("void", "winner", "slogan", "points")}
        recap.append({"round": full["round"], "tshirt": shirt and shirt["picture"], **brief})
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


def replay_view(state: TShirtState) -> View:
    """A finished game's table with every hand (``hands``) and each slogan's author (``played``)."""
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
