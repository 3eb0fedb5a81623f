"""What the four Game, Set, Match! games share: options, placements, checks, the base game.

Each variant is its own :class:`GsmGame` subclass; this module keeps them from
repeating the card/board plumbing (how a placement command is read and
checked, the options every variant offers) and the game's skeleton: seat
checks, routing host seat commands, and assembling views from a shared public
part (:mod:`.views`) and a seat's own fields. Seat bookkeeping lives in
:mod:`.seating`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import (
    Command,
    Event,
    Game,
    IllegalMove,
    RuleOption,
    SeatResult,
    View,
)
from partyhost.engine.gsm.board import (
    BoardMap,
    Clash,
    find_clash,
    has_side_neighbour,
    legal_placements,
)
from partyhost.engine.gsm.bots import BOT_DELAYS
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.deckfile import DECK_GAME, build_deck
from partyhost.engine.gsm.seating import TableState, is_system, read_int, require_system
from partyhost.engine.gsm.seating import system_target as system_target  # also importable here
from partyhost.engine.gsm.table import Cell, Slot
from partyhost.engine.gsm.views import base_view, hands_view
from partyhost.engine.gsm.views import cards_view as cards_view  # also importable here
from partyhost.engine.rng import Rng

MAX_COORD = 60
"""Slots stay within +-60: far beyond any real board, small enough to refuse junk."""
HINT_LIMIT = 400
"""At most this many legal placements are listed in a view when hints are on."""

ROTATE = RuleOption(
    "rotate", "Turn cards around", "bool", True, help="Cards may be turned 180 degrees."
)
HINTS = RuleOption(
    "hints",
    "Show where cards fit",
    "bool",
    False,
    help="List every legal placement in each player's view (the UI highlights them).",
)


@dataclass(frozen=True)
class Placement:
    """A card on a board; ``owner`` is who put it there (``None``: the host)."""

    card: int
    x: int
    y: int
    turned: bool = False
    owner: int | None = None

    @property
    def slot(self) -> Slot:
        return (self.x, self.y)


def board_map(deck: Deck, board: Iterable[Placement]) -> BoardMap:
    table = deck.table
    return {p.slot: table.orientation(p.card, p.turned) for p in board}


def cells_map(deck: Deck, board: Iterable[Placement]) -> dict[Slot, tuple[Cell, ...]]:
    return {p.slot: deck.cells_of(p.card, p.turned) for p in board}


def read_placement(command: Command, rotate: bool) -> Placement:
    """The card, slot and turn a command names, checked for shape only."""
    card, x, y = read_int(command, "card"), read_int(command, "x"), read_int(command, "y")
    turned = command.get("turned", False)
    if not isinstance(turned, bool):
        raise IllegalMove("bad_command", "'turned' must be true or false.")
    if turned and not rotate:
        raise IllegalMove("no_turning", "Turning cards around is off at this table.")
    if abs(x) > MAX_COORD or abs(y) > MAX_COORD:
        raise IllegalMove("off_table", f"Slots go from -{MAX_COORD} to {MAX_COORD}.")
    return Placement(card, x, y, turned)


def clash_text(deck: Deck, clash: Clash) -> str:
    mine, theirs = deck.describe_cell(clash.mine), deck.describe_cell(clash.theirs)
    return f"{mine.capitalize()} would touch {theirs} (same {clash.same})."


def placement_clash(deck: Deck, board: Sequence[Placement], move: Placement) -> str | None:
    """Why ``move`` breaks the rule, or ``None`` if it obeys it.

    A slot that is taken, or a card that would not share a full side with the
    board, is not a placement at all and raises :class:`IllegalMove`.
    """
    if any(p.slot == move.slot for p in board):
        raise IllegalMove("occupied", f"There is already a card at ({move.x}, {move.y}).")
    placed = cells_map(deck, board)
    if placed and not has_side_neighbour(placed, move.slot):
        raise IllegalMove(
            "not_next_to",
            "A card must share a full side with a card on the table; a corner is not enough.",
        )
    clash = find_clash(
        deck.rows, deck.cols, placed, move.slot, deck.cells_of(move.card, move.turned)
    )
    return None if clash is None else clash_text(deck, clash)


def fits(
    deck: Deck,
    board: Sequence[Placement],
    hand: Iterable[int],
    rotate: bool,
    slots: Iterable[Slot] | None = None,
) -> list[dict[str, Any]]:
    """Every legal placement of ``hand`` cards as command fields, in a stable order."""
    table = deck.table
    found = legal_placements(table, board_map(deck, board), table.hand_mask(hand, rotate), slots)
    return [
        {"card": table.card_of(o), "x": x, "y": y, "turned": table.is_turned(o)}
        for (x, y), o in found
    ]


def place_template(
    deck: Deck,
    board: Sequence[Placement],
    hand: Sequence[int],
    rules: Mapping[str, Any],
    kind: str = "place",
    slots: Iterable[Slot] | None = None,
) -> Command:
    """The legal-command template for putting down a card; with hints, where it fits."""
    template: Command = {
        "type": kind,
        "cards": list(hand),
        "turned": [False, True] if rules["rotate"] else [False],
    }
    if slots is not None:
        slots = list(slots)
        template["slots"] = [[x, y] for x, y in slots]
    if rules["hints"]:
        template["fits"] = fits(deck, board, hand, bool(rules["rotate"]), slots)[:HINT_LIMIT]
    return template


def placement_event_data(move: Placement, seat: int | None) -> dict[str, Any]:
    return {"seat": seat, "card": move.card, "x": move.x, "y": move.y, "turned": move.turned}


def placement_from(data: Mapping[str, Any]) -> Placement:
    return Placement(data["card"], data["x"], data["y"], data["turned"], data["seat"])


def fewest_cards(hands: Mapping[int, Sequence[int]], seats: Iterable[int]) -> list[int]:
    """The seats holding the fewest cards (ties share the win)."""
    present = list(seats)
    if not present:
        return []
    least = min(len(hands[s]) for s in present)
    return [s for s in present if len(hands[s]) == least]


def deal_hands(pile: Sequence[int], seats: Sequence[int], size: int) -> dict[int, tuple[int, ...]]:
    """``size`` cards a seat from the top of ``pile``, seat after seat."""
    return {seat: tuple(pile[i * size : (i + 1) * size]) for i, seat in enumerate(seats)}


class GsmGame(Game):
    """What every Game, Set, Match! variant shares: deck, seat checks, command routing, views.

    A variant's own module holds its rules: :meth:`play` for its players'
    commands, :meth:`seat_change` for what the host's seat commands do there,
    and :meth:`public_view` / :meth:`seat_view` for what its views show.
    """

    deck_game = DECK_GAME
    default_deck = DECK_GAME

    def build_deck(self, data: Any) -> Deck:
        return build_deck(data)

    def start(
        self,
        deck: Deck,
        seats: Sequence[int],
        rules: Mapping[str, Any],
        seed: int,
        cards_needed: int = 0,
        table: str = "this table",
    ) -> tuple[dict[str, Any], Rng]:
        """A new game's checks (options, seats, deck size) and its generator.

        ``cards_needed`` is what dealing to these seats takes; ``table`` names
        what a too-small deck falls short for.
        """
        checked = self.rules_for(rules)
        low, high = self.min_players, self.max_players
        if len(set(seats)) != len(seats) or not low <= len(seats) <= high:
            if low == high:
                raise IllegalMove("bad_seats", f"{self.name} is for exactly {high} players.")
            raise IllegalMove("bad_seats", f"{self.name} needs {low} to {high} players.")
        if len(deck.cards) < cards_needed:
            raise IllegalMove("deck_too_small", f"The deck has too few cards for {table}.")
        return checked, Rng(seed)

    # --------------------------------------------------------------- deciding
    def decide(self, state: Any, seat: int, command: Command, now: float) -> list[Event]:
        """Overdue timers first, so a late command never jumps a settlement that was due.

        Host seat commands go to :meth:`seat_change`, everything else to :meth:`play`.
        """
        due = self.tick(state, now)
        for event in due:
            state = self.evolve(state, event)
        if is_system(seat, command):
            require_system(seat)
            kind = str(command.get("type"))
            return due + self.seat_change(state, kind, system_target(command), now)
        return due + self.play(state, seat, command, now)

    @abstractmethod
    def play(self, state: Any, seat: int, command: Command, now: float) -> list[Event]:
        """The events a player's command causes, or raise :class:`IllegalMove`."""

    @abstractmethod
    def seat_change(self, state: Any, kind: str, seat: int, now: float) -> list[Event]:
        """The events of a host seat command (``kind`` is one of the four) about ``seat``."""

    def is_over(self, state: Any) -> bool:
        return bool(state.phase == "over")

    # ------------------------------------------------------------ what to see
    def view(self, state: Any, seat: int | None) -> View:
        """The state's public part (built on its first view, then shared) with the seat's own.

        Views of one state share their parts, so a view is read-only.
        """
        table: TableState = state
        shared = table.shared_views
        public: View | None = shared.get("view")
        if public is None:
            public = shared["view"] = {**base_view(self.id, table), **self.public_view(table)}
        view = dict(public)
        if seat is not None:
            view["you"] = seat
            view.update(self.seat_view(table, seat))
        return view

    @abstractmethod
    def public_view(self, state: Any) -> View:
        """What every seat sees alike, after the common fields; a seat's own fields empty."""

    @abstractmethod
    def seat_view(self, state: Any, seat: int) -> View:
        """The fields only ``seat`` sees (its ``legal`` commands, its cards)."""

    def bot_delay(self, level: str) -> tuple[float, float] | None:
        """The real-time variants' reaction time for ``level``, from :data:`~.bots.BOT_DELAYS`."""
        return BOT_DELAYS.get(self.id, {}).get(level)

    # ------------------------------------------------------------ replays
    def replay_view(self, state: Any) -> View:
        """The spectator's view, with what only its owner saw (:meth:`revealed`) shown too."""
        shown = dict(self.view(state, None))
        shown.update(self.revealed(state))
        shown["round"] = self.replay_round(state)
        return shown

    def revealed(self, state: Any) -> View:
        """Replay-only fields: what only one seat could see. Nothing, if all is on the table."""
        return {}

    @abstractmethod
    def replay_round(self, state: Any) -> int:
        """What a replay steps by when it steps by round."""

    def results(self, state: Any) -> list[SeatResult]:
        """Every seat that played; ``points`` where the variant keeps a score."""
        return [
            SeatResult(seat, seat in state.winners, points=self.points(state, seat))
            for seat in state.seats
        ]

    def points(self, state: Any, seat: int) -> int | None:
        """A seat's score at the end (None: the variant keeps none, only winners)."""
        return None


class HandsGame(GsmGame):
    """A variant where each player holds a hidden hand and builds on one public board."""

    def seat_view(self, state: Any, seat: int) -> View:
        return {
            "legal": self.legal(state, seat),
            "hand": cards_view(state.deck, state.hands.get(seat, ())),
        }

    def revealed(self, state: Any) -> View:
        return {"hands": hands_view(state)}

    def replay_round(self, state: Any) -> int:
        """No rounds in a hands game: a replay's round is each card put on the table."""
        return len(state.board)

    def card_locations(self, state: Any) -> list[tuple[int, str]]:
        """Where every card is (for the invariant tests)."""
        found = [(c, f"hand {s}") for s, hand in state.hands.items() for c in hand]
        found += [(p.card, "board") for p in state.board]
        return found + [(c, where) for where, cards in self.piles(state) for c in cards]

    def piles(self, state: Any) -> list[tuple[str, Sequence[int]]]:
        """The variant's other places for cards, by name."""
        return [("out of play", state.out_of_play)]
