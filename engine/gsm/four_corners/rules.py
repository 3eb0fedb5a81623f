"""Four Corners: two players race to empty their hands along crossing lines.

The first placement next to the middle card fixes its player's axis and gives
the other player the other one. Each builds only at the two ends of their own
line, and may take back an end card of it. The two lines cross at the middle
card, so cards near it also touch the other line at their corners, and the
rule is checked there too.

Stall rulings: the stall clock restarts only when a placement brings a hand
below its lowest count so far, so taking a card back and putting it down
again cannot keep a lost game alive for ever. Both players may also say
"stuck"; when both have (with no card placed or taken back since), the game
ends at once as a stall, which is what a real table does when nobody can move.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import Command, Event, IllegalMove, RuleOption, View
from partyhost.engine.gsm import bots
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.common import (
    HINTS,
    ROTATE,
    HandsGame,
    Placement,
    deal_hands,
    fewest_cards,
    place_template,
    placement_clash,
    placement_event_data,
    placement_from,
    read_placement,
)
from partyhost.engine.gsm.seating import TableState, read_int, score_rows, seat_changed
from partyhost.engine.gsm.table import Slot
from partyhost.engine.gsm.views import board_view
from partyhost.engine.rng import Rng

HAND_SIZE = 10
AXES = {"h": (1, 0), "v": (0, 1)}
"""Horizontal: left/right of the middle card (long sides touch); vertical: above/below."""


@dataclass(frozen=True, kw_only=True)
class FourCornersState(TableState):
    """Two hands, the crossing lines, who owns which axis, and the stall clock."""

    hands: dict[int, tuple[int, ...]]
    lowest: dict[int, int]
    board: tuple[Placement, ...]
    axes: dict[int, str]
    out_of_play: tuple[int, ...]
    phase: str = "race"
    stall_started: float | None = None
    stuck: frozenset[int] = frozenset()


def line(state: FourCornersState, seat: int) -> list[Placement]:
    """The seat's own cards, ordered along its axis (the middle card not included)."""
    return sorted((p for p in state.board if p.owner == seat), key=lambda p: p.x + p.y)


def open_slots(state: FourCornersState, seat: int) -> list[Slot]:
    """Where ``seat`` may put a card now: its line's two ends, or anywhere beside the middle."""
    axis = state.axes.get(seat)
    if axis is None:
        if state.axes:
            return []
        return [(1, 0), (-1, 0), (0, 1), (0, -1)]
    dx, dy = AXES[axis]
    steps = [p.x * dx + p.y * dy for p in line(state, seat)] + [0]
    return [
        (dx * (max(steps) + 1), dy * (max(steps) + 1)),
        (dx * (min(steps) - 1), dy * (min(steps) - 1)),
    ]


def end_cards(state: FourCornersState, seat: int) -> list[int]:
    """The seat's cards at the two ends of its line (what it may take back).

    The middle card belongs to the line, so a line built on one side only has
    one end a player may take from.
    """
    own = line(state, seat)
    ends = []
    if own and own[0].x + own[0].y < 0:
        ends.append(own[0].card)
    if own and own[-1].x + own[-1].y > 0:
        ends.append(own[-1].card)
    return sorted(ends)


class FourCorners(HandsGame):
    id = "four-corners"
    name = "Game, Set, Match! - Four Corners"
    min_players = 2
    max_players = 2
    options = (
        ROTATE,
        HINTS,
        RuleOption(
            "stall_seconds",
            "Stall timer (s)",
            "int",
            120,
            help="If no hand gets smaller for this long, fewer cards wins.",
            minimum=10,
            maximum=3600,
            allow_none=True,
        ),
    )

    def setup(
        self, deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> FourCornersState:
        rules, rng = self.start(deck, seats, rules, seed, 2 * HAND_SIZE + 1, "Four Corners")
        pile = rng.shuffled(range(len(deck.cards)))
        hands = deal_hands(pile, seats, HAND_SIZE)
        middle = pile[2 * HAND_SIZE]
        return FourCornersState(
            deck=deck,
            rules=rules,
            rng=rng.state,
            seats=tuple(seats),
            hands=hands,
            lowest={seat: HAND_SIZE for seat in seats},
            board=(Placement(middle, 0, 0),),
            axes={},
            out_of_play=tuple(pile[2 * HAND_SIZE + 1 :]),
        )

    # ---------------------------------------------------------------- timers
    def deadline(self, state: FourCornersState) -> float | None:
        if state.phase != "race":
            return None
        if state.stall_started is None:
            return 0.0
        limit = state.rules["stall_seconds"]
        return None if limit is None else float(state.stall_started + limit)

    def tick(self, state: FourCornersState, now: float) -> list[Event]:
        due = self.deadline(state)
        if due is None or now < due:
            return []
        if state.stall_started is None:
            return [Event("stall_clock", {"at": now})]
        return [self._stalled(state)]

    # --------------------------------------------------------------- deciding
    def play(self, state: FourCornersState, seat: int, command: Command, now: float) -> list[Event]:
        kind = command.get("type")
        if state.phase != "race":
            raise IllegalMove("not_now", "The game is over.")
        if seat not in state.seats:
            raise IllegalMove("not_playing", "You are not playing at this table.")
        if kind == "place":
            return self._place(state, seat, command, now)
        if kind == "take_back":
            card = read_int(command, "card")
            if card not in end_cards(state, seat):
                raise IllegalMove(
                    "not_an_end", "Take back one of your own cards at an end of your line."
                )
            return [
                Event(
                    "taken_back", {"seat": seat, "card": card, "hand": len(state.hands[seat]) + 1}
                )
            ]
        if kind == "stuck":
            if seat in state.stuck:
                raise IllegalMove("already_stuck", "You already said you are stuck.")
            vote = Event("stuck", {"seat": seat})
            if state.stuck | {seat} >= {s for s in state.seats if s not in state.left}:
                return [vote, self._stalled(state)]
            return [vote]
        raise IllegalMove("unknown_command", f"{self.name} has no command {kind!r}.")

    def _stalled(self, state: FourCornersState) -> Event:
        winners = fewest_cards(state.hands, [s for s in state.seats if s not in state.left])
        return Event("game_over", {"winners": winners, "reason": "stall"})

    def _place(
        self, state: FourCornersState, seat: int, command: Command, now: float
    ) -> list[Event]:
        move = read_placement(command, bool(state.rules["rotate"]))
        if move.card not in state.hands[seat]:
            raise IllegalMove("not_in_hand", "That card is not in your hand.")
        if move.slot not in open_slots(state, seat):
            raise IllegalMove(
                "not_your_line",
                "Place your card at either end of your own line through the middle card.",
            )
        reason = placement_clash(state.deck, state.board, move)
        if reason is not None:
            raise IllegalMove("breaks_rule", reason)
        hand = len(state.hands[seat]) - 1
        data = {**placement_event_data(move, seat), "hand": hand, "at": now}
        if not state.axes:
            data["axis"] = "h" if move.y == 0 else "v"
        placed = Event("card_placed", data)
        if hand == 0:
            return [placed, Event("game_over", {"winners": [seat], "reason": "out_of_cards"})]
        return [placed]

    def seat_change(
        self, state: FourCornersState, kind: str, target: int, now: float
    ) -> list[Event]:
        if kind == "seat_joined":
            raise IllegalMove("no_joining", "Four Corners is for exactly two players.")
        if state.phase != "race" or target not in state.seats:
            return []
        event = Event(kind, {"seat": target})
        if kind == "seat_left":
            others = [s for s in state.seats if s != target and s not in state.left]
            return [event, Event("game_over", {"winners": others, "reason": "others_left"})]
        return [event]

    # --------------------------------------------------------------- evolving
    def evolve(self, state: FourCornersState, event: Event) -> FourCornersState:
        data, replace = event.data, dataclasses.replace
        kind = event.kind
        if kind == "stall_clock":
            return replace(state, stall_started=data["at"])
        if kind == "card_placed":
            seat = data["seat"]
            hand = tuple(c for c in state.hands[seat] if c != data["card"])
            axes = state.axes
            if "axis" in data:
                other = next(s for s in state.seats if s != seat)
                axes = {seat: data["axis"], other: "v" if data["axis"] == "h" else "h"}
            progress = len(hand) < state.lowest[seat]
            return replace(
                state,
                board=(*state.board, placement_from(data)),
                hands={**state.hands, seat: hand},
                lowest={**state.lowest, seat: min(len(hand), state.lowest[seat])},
                axes=axes,
                stall_started=data["at"] if progress else state.stall_started,
                stuck=frozenset(),
                last=dict(data),
            )
        if kind == "taken_back":
            seat, card = data["seat"], data["card"]
            board = tuple(p for p in state.board if p.card != card)
            hands = {**state.hands, seat: (*state.hands[seat], card)}
            return replace(state, board=board, hands=hands, stuck=frozenset(), last=dict(data))
        if kind == "stuck":
            return replace(state, stuck=state.stuck | {data["seat"]})
        if kind == "game_over":
            return replace(state, phase="over", winners=tuple(data["winners"]))
        return seat_changed(state, kind, data["seat"])

    # ------------------------------------------------------------ what to see
    def legal(self, state: FourCornersState, seat: int) -> list[Command]:
        if state.phase != "race" or seat not in state.seats:
            return []
        legal: list[Command] = []
        slots = open_slots(state, seat)
        if slots and state.hands[seat]:
            legal.append(
                place_template(state.deck, state.board, state.hands[seat], state.rules, slots=slots)
            )
        ends = end_cards(state, seat)
        if ends:
            legal.append({"type": "take_back", "cards": ends})
        if seat not in state.stuck:
            legal.append({"type": "stuck"})
        return legal

    def public_view(self, state: FourCornersState) -> View:
        limit = state.rules["stall_seconds"]
        stall = None
        if state.phase == "race" and state.stall_started is not None and limit is not None:
            stall = float(state.stall_started + limit)
        hands = state.hands
        return {
            "board": board_view(state.deck, state.board),
            "hand": [],
            "axes": [{"seat": s, "axis": state.axes.get(s)} for s in state.seats],
            "stuck": sorted(state.stuck),
            "scores": score_rows(state, lambda s: {"hand": len(hands[s])}),
            "deadlines": {"stall": stall},
            "last": state.last,
        }

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bots.four_corners(view, rng)
