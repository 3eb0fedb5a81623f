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

from partyhost.engine.core import SYSTEM_SEAT, Command, Event, IllegalMove, RuleOption, View
from partyhost.engine.gsm import bots
from partyhost.engine.gsm.board import any_fit
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.common import (
    HINTS,
    ROTATE,
    GsmGame,
    Placement,
    base_view,
    board_map,
    board_view,
    cards_view,
    fewest_cards,
    place_template,
    placement_clash,
    placement_event_data,
    placement_from,
    read_placement,
    require_system,
    system_target,
)
from partyhost.engine.rng import Rng

HAND_SIZE = 7


@dataclass(frozen=True)
class GridironState:
    """Hands, the draw pile, the grid and whose turn it is."""

    deck: Deck
    rules: dict[str, Any]
    rng: int
    seats: tuple[int, ...]
    hands: dict[int, tuple[int, ...]]
    pile: tuple[int, ...]
    board: tuple[Placement, ...]
    turn: int
    passes: int = 0
    phase: str = "turns"
    away: frozenset[int] = frozenset()
    left: frozenset[int] = frozenset()
    out_of_play: tuple[int, ...] = ()
    last: dict[str, Any] | None = None
    winners: tuple[int, ...] = ()
    version: int = 0

    def active(self) -> list[int]:
        return [s for s in self.seats if s not in self.left and s not in self.away]

    def present(self) -> list[int]:
        return [s for s in self.seats if s not in self.left]


def can_place(state: GridironState, seat: int) -> bool:
    deck = state.deck
    mask = deck.table.hand_mask(state.hands[seat], bool(state.rules["rotate"]))
    return any_fit(deck.table, board_map(deck, state.board), mask) is not None


class Gridiron(GsmGame):
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
        rules = self.rules_for(rules)
        if len(set(seats)) != len(seats) or not 2 <= len(seats) <= self.max_players:
            raise IllegalMove("bad_seats", f"{self.name} needs 2 to {self.max_players} players.")
        if len(deck.cards) < HAND_SIZE * len(seats) + 1:
            raise IllegalMove("deck_too_small", "The deck has too few cards for this table.")
        rng = Rng(seed)
        pile = rng.shuffled(range(len(deck.cards)))
        first = rules["first_seat"]
        if first not in seats:  # off, or a seat that is not playing: a random seat starts
            first = rng.choice(list(seats))
        hands = {
            seat: tuple(pile[i * HAND_SIZE : (i + 1) * HAND_SIZE]) for i, seat in enumerate(seats)
        }
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
    def decide(self, state: GridironState, seat: int, command: Command, now: float) -> list[Event]:
        kind = command.get("type")
        if seat == SYSTEM_SEAT or kind in ("seat_joined", "seat_left", "seat_away", "seat_back"):
            require_system(seat)
            return self._system(state, str(kind), system_target(command))
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

    def _system(self, state: GridironState, kind: str, target: int) -> list[Event]:
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
        seat = data["seat"]
        if kind == "seat_left":
            out = (*state.out_of_play, *state.hands[seat])
            hands = {**state.hands, seat: ()}
            return replace(state, left=state.left | {seat}, hands=hands, out_of_play=out)
        if kind == "seat_away":
            return replace(state, away=state.away | {seat})
        if kind == "seat_back":
            return replace(state, away=state.away - {seat})
        raise ValueError(f"unknown event {kind!r}")

    # ------------------------------------------------------------ what to see
    def legal(self, state: GridironState, seat: int) -> list[Command]:
        if state.phase != "turns" or seat != state.turn:
            return []
        if can_place(state, seat):
            return [place_template(state.deck, state.board, state.hands[seat], state.rules)]
        return [{"type": "draw" if state.pile else "pass"}]

    def view(self, state: GridironState, seat: int | None) -> View:
        view = base_view(self, state, seat, [] if seat is None else self.legal(state, seat))
        view.update(
            board=board_view(state.deck, state.board),
            hand=cards_view(state.deck, state.hands.get(seat, ()) if seat is not None else ()),
            pile=len(state.pile),
            turn=state.turn,
            passes=state.passes,
            scores=[
                {
                    "seat": s,
                    "hand": len(state.hands[s]),
                    "away": s in state.away,
                    "left": s in state.left,
                }
                for s in state.seats
            ],
            deadlines={},
            last=state.last,
        )
        return view

    def card_locations(self, state: GridironState) -> list[tuple[int, str]]:
        """Where every card is (for the invariant tests)."""
        found = [(c, f"hand {s}") for s, hand in state.hands.items() for c in hand]
        found += [(p.card, "board") for p in state.board] + [(c, "pile") for c in state.pile]
        return found + [(c, "out of play") for c in state.out_of_play]

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bots.gridiron(view, rng)

    def bot_delay(self, level: str) -> tuple[float, float] | None:
        """Turns, not a race: the host's own pace (scaled by level) suits it."""
        return None
