"""Gridiron: take turns placing one card; draw only when nothing in hand fits.

Whether anything fits is decided by the host from the seat's own hand and the
public board, so the "draw" and "pass" commands are legal exactly when the
rulebook allows them and a player can never draw to dodge a hard placement.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import Command, Event, IllegalMove, RuleOption, View
from partyhost.engine.gsm import bots
from partyhost.engine.gsm.board import any_fit
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.common import (
    HINTS,
    ROTATE,
    HandsGame,
    Placement,
    board_map,
    deal_hands,
    fewest_cards,
    place_template,
    placement_clash,
    placement_event_data,
    placement_from,
    read_placement,
)
from partyhost.engine.gsm.seating import TableState, score_rows, seat_changed
from partyhost.engine.gsm.views import board_view
from partyhost.engine.rng import Rng

HAND_SIZE = 7


@dataclass(frozen=True, kw_only=True)
class GridironState(TableState):
    """Hands, the draw pile, the grid and whose turn it is."""

    hands: dict[int, tuple[int, ...]]
    pile: tuple[int, ...]
    board: tuple[Placement, ...]
    turn: int
    passes: int = 0
    phase: str = "turns"
    out_of_play: tuple[int, ...] = ()


def _hand_out_of_play(state: GridironState, seat: int) -> dict[str, Any]:
    """A leaving player's hand is out of play for the rest of the game."""
    return {
        "hands": {**state.hands, seat: ()},
        "out_of_play": (*state.out_of_play, *state.hands[seat]),
    }


def can_place(state: GridironState, seat: int) -> bool:
    deck = state.deck
    mask = deck.table.hand_mask(state.hands[seat], bool(state.rules["rotate"]))
    return any_fit(deck.table, board_map(deck, state.board), mask) is not None


class Gridiron(HandsGame):
    id = "gridiron"
    name = "Game, Set, Match! - Gridiron"
    min_players = 2
    max_players = 6
    versioned_commands = frozenset({"place", "draw", "pass"})
    options = (
        ROTATE,
        HINTS,
        RuleOption(
            "first_seat",
            "First player (seat)",
            "int",
            None,
            help="Who starts; off (or a seat not playing): a random seat, announced.",
            minimum=0,
            maximum=63,
            allow_none=True,
        ),
    )

    def setup(
        self, deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> GridironState:
        rules, rng = self.start(deck, seats, rules, seed, HAND_SIZE * len(seats) + 1)
        pile = rng.shuffled(range(len(deck.cards)))
        first = rules["first_seat"]
        if first not in seats:  # off, or a seat that is not playing: a random seat starts
            first = rng.choice(list(seats))
        hands = deal_hands(pile, seats, HAND_SIZE)
        rest = pile[HAND_SIZE * len(seats) :]
        return GridironState(
            deck=deck,
            rules=rules,
            rng=rng.state,
            seats=tuple(seats),
            hands=hands,
            pile=tuple(rest[1:]),
            board=(Placement(rest[0], 0, 0),),
            turn=first,
        )

    # --------------------------------------------------------------- deciding
    def play(self, state: GridironState, seat: int, command: Command, now: float) -> list[Event]:
        kind = command.get("type")
        if state.phase != "turns":
            raise IllegalMove("not_now", "The game is over.")
        if seat != state.turn:
            raise IllegalMove("not_your_turn", f"It is seat {state.turn}'s turn.")
        if kind == "place":
            return self._place(state, seat, command)
        if kind in ("draw", "pass"):
            if can_place(state, seat):
                raise IllegalMove("card_fits", "One of your cards fits somewhere; place it.")
            if kind == "draw" and not state.pile:
                raise IllegalMove("pile_empty", "The draw pile is empty; pass instead.")
            if kind == "pass" and state.pile:
                raise IllegalMove("pile_not_empty", "Draw a card instead of passing.")
            return self._draw(state, seat) if kind == "draw" else self._pass(state, seat)
        raise IllegalMove("unknown_command", f"{self.name} has no command {kind!r}.")

    def _place(self, state: GridironState, seat: int, command: Command) -> list[Event]:
        move = read_placement(command, bool(state.rules["rotate"]))
        if move.card not in state.hands[seat]:
            raise IllegalMove("not_in_hand", "That card is not in your hand.")
        reason = placement_clash(state.deck, state.board, move)
        if reason is not None:
            raise IllegalMove("breaks_rule", reason)
        left = len(state.hands[seat]) - 1
        placed = Event("card_placed", {**placement_event_data(move, seat), "hand": left})
        if left == 0:
            return [placed, self._over([seat], "out_of_cards")]
        return [placed, self._next_turn(state, seat)]

    def _draw(self, state: GridironState, seat: int) -> list[Event]:
        card = state.pile[0]
        drawn = Event(
            "card_drawn",
            {"seat": seat, "hand": len(state.hands[seat]) + 1, "pile": len(state.pile) - 1},
            private={seat: {"card": card}},
            secret={"card": card},
        )
        return [drawn, self._next_turn(state, seat)]

    def _pass(self, state: GridironState, seat: int) -> list[Event]:
        passed = Event("passed", {"seat": seat, "passes": state.passes + 1})
        if state.passes + 1 >= len(state.active()):
            after = self.evolve(state, passed)
            return [passed, self._over(fewest_cards(after.hands, after.present()), "all_passed")]
        return [passed, self._next_turn(state, seat)]

    def _next_turn(self, state: GridironState, after: int) -> Event:
        """The next seat in order that is still here and not away (skipping is not passing)."""
        order = list(state.seats)
        start = order.index(after)
        ring = order[start + 1 :] + order[: start + 1]
        active = [s for s in ring if s not in state.left and s not in state.away]
        present = [s for s in ring if s not in state.left]
        return Event("turn", {"seat": (active or present or [after])[0]})

    def _over(self, winners: list[int], reason: str) -> Event:
        return Event("game_over", {"winners": winners, "reason": reason})

    def seat_change(self, state: GridironState, kind: str, target: int, now: float) -> list[Event]:
        if kind == "seat_joined":
            raise IllegalMove("no_joining", "Gridiron cannot take new players mid-game.")
        if state.phase != "turns" or target not in state.seats:
            return []
        event = Event(kind, {"seat": target})
        after = self.evolve(state, event)
        if kind == "seat_left" and len(after.present()) < 2:
            return [event, self._over(after.present(), "others_left")]
        if kind in ("seat_left", "seat_away") and state.turn == target:
            return [event, self._next_turn(after, target)]
        if kind == "seat_back" and state.turn not in after.active():
            return [event, Event("turn", {"seat": target})]
        return [event]

    # --------------------------------------------------------------- evolving
    def evolve(self, state: GridironState, event: Event) -> GridironState:
        data, replace = event.data, dataclasses.replace
        kind = event.kind
        if kind == "card_placed":
            seat = data["seat"]
            hand = tuple(c for c in state.hands[seat] if c != data["card"])
            return replace(
                state,
                board=(*state.board, placement_from(data)),
                hands={**state.hands, seat: hand},
                passes=0,
                last=dict(data),
            )
        if kind == "card_drawn":
            seat, card = data["seat"], event.secret["card"]
            hands = {**state.hands, seat: (*state.hands[seat], card)}
            return replace(state, hands=hands, pile=state.pile[1:], passes=0, last=dict(data))
        if kind == "passed":
            return replace(state, passes=data["passes"], last=dict(data))
        if kind == "turn":
            return replace(state, turn=data["seat"])
        if kind == "game_over":
            return replace(state, phase="over", winners=tuple(data["winners"]))
        return seat_changed(state, kind, data["seat"], leaving=_hand_out_of_play)

    # ------------------------------------------------------------ what to see
    def legal(self, state: GridironState, seat: int) -> list[Command]:
        if state.phase != "turns" or seat != state.turn:
            return []
        if can_place(state, seat):
            return [place_template(state.deck, state.board, state.hands[seat], state.rules)]
        return [{"type": "draw" if state.pile else "pass"}]

    def public_view(self, state: GridironState) -> View:
        hands = state.hands
        return {
            "board": board_view(state.deck, state.board),
            "hand": [],
            "pile": len(state.pile),
            "turn": state.turn,
            "passes": state.passes,
            "scores": score_rows(state, lambda s: {"hand": len(hands[s])}),
            "deadlines": {},
            "last": state.last,
        }

    def piles(self, state: GridironState) -> list[tuple[str, Sequence[int]]]:
        return [("pile", state.pile), ("out of play", state.out_of_play)]

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bots.gridiron(view, rng)

    def bot_delay(self, level: str) -> tuple[float, float] | None:
        """Turns, not a race: the host's own pace (scaled by level) suits it."""
        return None
