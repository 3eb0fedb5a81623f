"""Scramble's rules: moves on a private board, "stuck" votes, and calling "Game!".

A move's details go to its player (``private``) and ``evolve`` (``secret``); the
others learn only counts, until "Game!" shows the caller's board to everyone.
"""

from __future__ import annotations

import dataclasses

from partyhost.engine.core import Command, Decision, IllegalMove, read_int
from partyhost.engine.gsm import rules as shared
from partyhost.engine.gsm.board import arrangement_clash, is_connected
from partyhost.engine.gsm.placement import Placement, cells_map, clash_text, read_placement
from partyhost.engine.gsm.scramble.state import (
    HAND_SIZE,
    MATCH_WINS,
    NAME,
    ScrambleState,
    deal,
    evolve,
)
from partyhost.engine.gsm.views import board_view
from partyhost.engine.rng import Rng


def _play(decision: Decision[ScrambleState], seat: int, command: Command) -> None:
    state = decision.state
    kind = command.get("type")
    board = {p.card: p for p in state.boards[seat]}
    if kind == "place":
        move = read_placement(command, bool(state.rules["rotate"]))
        if move.card not in board and move.card not in state.hands[seat]:
            raise IllegalMove("not_yours", "That card is not one of yours.")
        taken = next((p for p in state.boards[seat] if p.slot == move.slot), None)
        if taken is not None and taken.card != move.card:
            raise IllegalMove("occupied", f"There is already a card at ({move.x}, {move.y}).")
        _moved(decision, seat, "placed", move.card, move)
    elif kind in ("turn", "take_back"):
        card = read_int(command, "card")
        if card not in board:
            raise IllegalMove("not_placed", "That card is not on your board.")
        if kind == "take_back":
            _moved(decision, seat, "taken_back", card, None)
            return
        if not state.rules["rotate"]:
            raise IllegalMove("no_turning", "Turning cards around is off at this table.")
        turned = dataclasses.replace(board[card], turned=not board[card].turned)
        _moved(decision, seat, "placed", card, turned)
    elif kind == "stuck":
        if seat in state.stuck:
            raise IllegalMove("already_stuck", "You already said you are stuck.")
        decision.emit("stuck", {"seat": seat})
        _maybe_redeal(decision)
    else:  # call_game
        if state.hands[seat]:
            raise IllegalMove("cards_in_hand", "Place all seven cards before calling Game!")
        _call(decision, seat)


def _moved(
    decision: Decision[ScrambleState], seat: int, kind: str, card: int, move: Placement | None
) -> None:
    """A private board change: the player sees it, the others see only the counts."""
    state = decision.state
    placed = len(state.boards[seat]) + (card in state.hands[seat]) - (move is None)
    detail = {"card": card}
    if move is not None:
        detail.update(x=move.x, y=move.y, turned=move.turned)
    counts = {"seat": seat, "placed": placed, "hand": HAND_SIZE - placed}
    decision.emit(kind, counts, private={seat: detail}, secret=detail)


def _call(decision: Decision[ScrambleState], seat: int) -> None:
    """Check the caller's board; a valid one wins the game, and maybe the match."""
    state = decision.state
    deck, board = state.deck, state.boards[seat]
    reason = None
    if not is_connected(p.slot for p in board):
        reason = "The cards do not form one grid joined by full sides."
    else:
        found = arrangement_clash(deck.rows, deck.cols, cells_map(deck, board))
        if found is not None:
            reason = clash_text(deck, found[1])
    data = {
        "seat": seat,
        "valid": reason is None,
        "reason": reason,
        "board": board_view(deck, board),
    }
    decision.emit("game_called", data)
    if reason is not None:
        return
    if state.wins[seat] + 1 >= MATCH_WINS[state.rules["match"]]:
        decision.emit("match_over", {"winners": [seat]})
        return
    _deal(decision)


def _maybe_redeal(decision: Decision[ScrambleState]) -> None:
    """When every player still here says they are stuck, the game is void: deal again."""
    state = decision.state
    here = {s for s in state.present() if s not in state.away}
    if state.phase == "race" and state.stuck and here <= state.stuck:
        _deal(decision, void=True)


def _deal(decision: Decision[ScrambleState], void: bool = False) -> None:
    """A new game of the match for the seats still here: fresh hands from the state's generator."""
    state, rng = decision.state, Rng(decision.state.rng)
    solvable, rotate = state.rules["solvable_deals"], state.rules["rotate"]
    hands, rest = deal(state.deck, state.present(), rng, solvable, rotate)
    decision.emit(
        "dealt",
        {"game": state.game + 1, "void": void},
        private={seat: {"hand": list(hand)} for seat, hand in hands.items()},
        secret={
            "rng": rng.state,
            "hands": [{"seat": s, "hand": list(h)} for s, h in hands.items()],
            "rest": list(rest),
        },
    )


def _seat_change(decision: Decision[ScrambleState], kind: str, target: int) -> None:
    others = decision.state.present()
    if kind == "seat_left" and len(others) < 2:
        decision.emit("match_over", {"winners": others})
    elif kind in ("seat_left", "seat_away"):
        _maybe_redeal(decision)


COMMANDS = ("place", "turn", "take_back", "stuck", "call_game")
decide = shared.decider(
    NAME,
    evolve,
    dict.fromkeys(COMMANDS, _play),
    _seat_change,
    no_joining="Scramble cannot take new players mid-match.",
)
