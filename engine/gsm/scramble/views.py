"""What a Scramble seat sees and may do: its own hand and board; of the others, counts only."""

from __future__ import annotations

from partyhost.engine.core import Command, SeatResult, View
from partyhost.engine.gsm import views as shared
from partyhost.engine.gsm.placement import place_template
from partyhost.engine.gsm.scramble.state import GAME_ID, MATCH_WINS, ScrambleState


def view(state: ScrambleState, seat: int | None) -> View:
    return shared.table_view(GAME_ID, state, seat, public_view, legal, own_cards)


def legal(state: ScrambleState, seat: int) -> list[Command]:
    """Place, take back or turn own cards; call "Game!" with an empty hand; say "stuck" once."""
    if state.refusal(seat) is not None:
        return []
    on_board = [p.card for p in state.boards[seat]]
    own = [*state.hands[seat], *on_board]
    commands: list[Command] = [place_template(state.deck, (), own, {**state.rules, "hints": False})]
    if on_board:
        commands.append({"type": "take_back", "cards": on_board})
        if state.rules["rotate"]:
            commands.append({"type": "turn", "cards": on_board})
    if not state.hands[seat]:
        commands.append({"type": "call_game"})
    if seat not in state.stuck:
        commands.append({"type": "stuck"})
    return commands


def public_view(state: ScrambleState) -> View:
    """Boards are private: the public part has counts only."""
    hands, boards, wins = state.hands, state.boards, state.wins
    return {
        "hand": [],
        "board": [],
        "game_number": state.game,
        "stuck": sorted(state.stuck),
        "wins_needed": MATCH_WINS[state.rules["match"]],
        "scores": shared.score_rows(
            state,
            lambda s: {"placed": len(boards[s]), "hand": len(hands[s]), "wins": wins[s]},
        ),
        "deadlines": {},
    }


def own_cards(state: ScrambleState, seat: int) -> View:
    if seat not in state.seats:
        return {}
    deck = state.deck
    return {
        "hand": shared.cards_view(deck, state.hands[seat]),
        "board": shared.board_view(deck, state.boards[seat]),
    }


def replay_view(state: ScrambleState) -> View:
    """Every hand and private board shown; a replay steps by the games of the match."""
    return {
        **view(state, None),
        "hands": shared.by_seat(state, "hands"),
        "boards": shared.by_seat(state, "boards"),
        "round": state.game,
    }


def results(state: ScrambleState) -> list[SeatResult]:
    """Points: the games each seat won in the match."""
    return shared.seat_results(state, lambda seat: state.wins[seat])
