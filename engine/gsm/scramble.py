"""Scramble: everyone arranges their own seven cards at once; first correct "Game!" wins.

Boards are private: a move's details go to its player only (``private``) and
to ``evolve`` (``secret``); everyone else learns how many cards each player
has placed. Calling "Game!" shows the caller's board to the table, as when
the others check it at a real table.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from partyhost.engine.core import Command, Event, IllegalMove, RuleOption, View
from partyhost.engine.gsm import bots
from partyhost.engine.gsm.board import arrangement_clash, is_connected
from partyhost.engine.gsm.cards import Deck
from partyhost.engine.gsm.common import (
    HINTS,
    ROTATE,
    GsmGame,
    Placement,
    cells_map,
    clash_text,
    place_template,
    read_placement,
)
from partyhost.engine.gsm.seating import TableState, read_int, score_rows, seat_changed
from partyhost.engine.gsm.solver import solve
from partyhost.engine.gsm.views import board_view, boards_view, cards_view, hands_view
from partyhost.engine.rng import Rng

HAND_SIZE = 7
DEAL_ATTEMPTS = 200
MATCH_WINS = {"single": 1, "best-of-3": 2, "best-of-5": 3}


@dataclass(frozen=True, kw_only=True)
class ScrambleState(TableState):
    """Every player's hand and private board, and the match score."""

    hands: dict[int, tuple[int, ...]]
    boards: dict[int, tuple[Placement, ...]]
    wins: dict[int, int]
    out_of_play: tuple[int, ...]
    stuck: frozenset[int] = frozenset()
    game: int = 1
    phase: str = "race"


def _cards_out_of_play(state: ScrambleState, seat: int) -> dict[str, Any]:
    """A leaving player's cards, in hand and on their board, are out of play."""
    own = (*state.hands[seat], *(p.card for p in state.boards[seat]))
    return {
        "hands": {**state.hands, seat: ()},
        "boards": {**state.boards, seat: ()},
        "out_of_play": (*state.out_of_play, *own),
    }


def deal(
    deck: Deck, seats: Sequence[int], rng: Rng, solvable: bool, rotate: bool
) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
    """Seven cards a seat and the undealt rest.

    With ``solvable``, a hand the solver cannot arrange is shuffled back and
    redrawn (at most ``DEAL_ATTEMPTS`` times, so a strange deck cannot hang
    the host).
    """
    pile = rng.shuffled(range(len(deck.cards)))
    hands: dict[int, tuple[int, ...]] = {}
    for seat in seats:
        for _ in range(DEAL_ATTEMPTS):
            if not solvable or solve(deck.table, pile[:HAND_SIZE], rotate) is not None:
                break
            pile = rng.shuffled(pile)
        hands[seat] = tuple(pile[:HAND_SIZE])
        pile = pile[HAND_SIZE:]
    return hands, tuple(pile)


class Scramble(GsmGame):
    id = "scramble"
    name = "Game, Set, Match! - Scramble"
    min_players = 2
    max_players = 6
    options = (
        ROTATE,
        HINTS,
        RuleOption(
            "solvable_deals",
            "Only solvable hands",
            "bool",
            True,
            help="Deal only hands that can be arranged (checked by the host's solver).",
        ),
        RuleOption(
            "match",
            "Match",
            "choice",
            "single",
            help="One game, or the best of 3 or 5 games.",
            choices=tuple(MATCH_WINS),
        ),
    )

    def setup(
        self, deck: Deck, seats: Sequence[int], rules: Mapping[str, Any], seed: int
    ) -> ScrambleState:
        rules, rng = self.start(deck, seats, rules, seed, HAND_SIZE * len(seats))
        hands, rest = deal(deck, seats, rng, bool(rules["solvable_deals"]), bool(rules["rotate"]))
        return ScrambleState(
            deck=deck,
            rules=rules,
            rng=rng.state,
            seats=tuple(seats),
            hands=hands,
            boards={seat: () for seat in seats},
            wins={seat: 0 for seat in seats},
            out_of_play=rest,
        )

    # --------------------------------------------------------------- deciding
    def play(self, state: ScrambleState, seat: int, command: Command, now: float) -> list[Event]:
        kind = command.get("type")
        if state.phase != "race":
            raise IllegalMove("not_now", "The match is over.")
        if seat not in state.seats or seat in state.left:
            raise IllegalMove("not_playing", "You are not playing at this table.")
        board = {p.card: p for p in state.boards[seat]}
        if kind == "place":
            move = read_placement(command, bool(state.rules["rotate"]))
            if move.card not in board and move.card not in state.hands[seat]:
                raise IllegalMove("not_yours", "That card is not one of yours.")
            taken = next((p for p in state.boards[seat] if p.slot == move.slot), None)
            if taken is not None and taken.card != move.card:
                raise IllegalMove("occupied", f"There is already a card at ({move.x}, {move.y}).")
            return [self._moved(state, seat, "placed", move.card, move)]
        if kind in ("turn", "take_back"):
            card = read_int(command, "card")
            if card not in board:
                raise IllegalMove("not_placed", "That card is not on your board.")
            if kind == "take_back":
                return [self._moved(state, seat, "taken_back", card, None)]
            if not state.rules["rotate"]:
                raise IllegalMove("no_turning", "Turning cards around is off at this table.")
            p = board[card]
            return [
                self._moved(
                    state, seat, "placed", card, dataclasses.replace(p, turned=not p.turned)
                )
            ]
        if kind == "stuck":
            if seat in state.stuck:
                raise IllegalMove("already_stuck", "You already said you are stuck.")
            vote = Event("stuck", {"seat": seat})
            return [vote, *self._maybe_redeal(self.evolve(state, vote))]
        if kind == "call_game":
            if state.hands[seat]:
                raise IllegalMove("cards_in_hand", "Place all seven cards before calling Game!")
            return self._call(state, seat)
        raise IllegalMove("unknown_command", f"{self.name} has no command {kind!r}.")

    def _moved(
        self, state: ScrambleState, seat: int, kind: str, card: int, move: Placement | None
    ) -> Event:
        """A private board change: the player sees it, the others see only the counts."""
        placed = len(state.boards[seat]) + (card in state.hands[seat]) - (move is None)
        detail = {"card": card}
        if move is not None:
            detail.update(x=move.x, y=move.y, turned=move.turned)
        counts = {"seat": seat, "placed": placed, "hand": HAND_SIZE - placed}
        return Event(kind, counts, private={seat: detail}, secret=detail)

    def _call(self, state: ScrambleState, seat: int) -> list[Event]:
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
        called = Event("game_called", data)
        if reason is not None:
            return [called]
        wins = state.wins[seat] + 1
        if wins >= MATCH_WINS[state.rules["match"]]:
            return [called, Event("match_over", {"winners": [seat]})]
        return [called, self._deal(state, state.present())]

    def _maybe_redeal(self, state: ScrambleState) -> list[Event]:
        """When every player still here says they are stuck, the game is void: deal again."""
        here = {s for s in state.present() if s not in state.away}
        if state.phase == "race" and state.stuck and here <= state.stuck:
            return [self._deal(state, state.present(), void=True)]
        return []

    def _deal(self, state: ScrambleState, seats: Sequence[int], void: bool = False) -> Event:
        rng = Rng(state.rng)
        hands, rest = deal(
            state.deck, seats, rng, bool(state.rules["solvable_deals"]), bool(state.rules["rotate"])
        )
        return Event(
            "dealt",
            {"game": state.game + 1, "void": void},
            private={seat: {"hand": list(hand)} for seat, hand in hands.items()},
            secret={
                "rng": rng.state,
                "hands": [{"seat": s, "hand": list(h)} for s, h in hands.items()],
                "rest": list(rest),
            },
        )

    def seat_change(self, state: ScrambleState, kind: str, target: int, now: float) -> list[Event]:
        if kind == "seat_joined":
            raise IllegalMove("no_joining", "Scramble cannot take new players mid-match.")
        if state.phase != "race" or target not in state.seats:
            return []
        event = Event(kind, {"seat": target})
        if kind == "seat_left":
            others = [s for s in state.present() if s != target]
            if len(others) < 2:
                return [event, Event("match_over", {"winners": others})]
        if kind in ("seat_left", "seat_away"):
            return [event, *self._maybe_redeal(self.evolve(state, event))]
        return [event]

    # --------------------------------------------------------------- evolving
    def evolve(self, state: ScrambleState, event: Event) -> ScrambleState:
        data, secret, replace = event.data, event.secret, dataclasses.replace
        kind = event.kind
        if kind in ("placed", "taken_back"):
            seat, card = data["seat"], secret["card"]
            board = tuple(p for p in state.boards[seat] if p.card != card)
            if kind == "placed":
                board = (*board, Placement(card, secret["x"], secret["y"], secret["turned"], seat))
            placed = {p.card for p in board}
            own = (*state.hands[seat], *(p.card for p in state.boards[seat]))
            hand = tuple(c for c in own if c not in placed)
            return replace(
                state, boards={**state.boards, seat: board}, hands={**state.hands, seat: hand}
            )
        if kind == "game_called":
            seat = data["seat"]
            if data["valid"]:
                return replace(
                    state, wins={**state.wins, seat: state.wins[seat] + 1}, last=dict(data)
                )
            own = (*state.hands[seat], *(p.card for p in state.boards[seat]))
            return replace(
                state,
                hands={**state.hands, seat: own},
                boards={**state.boards, seat: ()},
                last=dict(data),
            )
        if kind == "dealt":
            hands = {entry["seat"]: tuple(entry["hand"]) for entry in secret["hands"]}
            hands = {seat: hands.get(seat, ()) for seat in state.seats}
            boards: dict[int, tuple[Placement, ...]] = {seat: () for seat in state.seats}
            return replace(
                state,
                rng=secret["rng"],
                hands=hands,
                boards=boards,
                game=data["game"],
                out_of_play=tuple(secret["rest"]),
                stuck=frozenset(),
            )
        if kind == "stuck":
            return replace(state, stuck=state.stuck | {data["seat"]})
        if kind == "match_over":
            return replace(state, phase="over", winners=tuple(data["winners"]))
        return seat_changed(state, kind, data["seat"], leaving=_cards_out_of_play)

    # ------------------------------------------------------------ what to see
    def legal(self, state: ScrambleState, seat: int) -> list[Command]:
        if state.phase != "race" or seat not in state.seats or seat in state.left:
            return []
        on_board = [p.card for p in state.boards[seat]]
        own = [*state.hands[seat], *on_board]
        legal: list[Command] = [
            place_template(state.deck, (), own, {**state.rules, "hints": False})
        ]
        if on_board:
            legal.append({"type": "take_back", "cards": on_board})
            if state.rules["rotate"]:
                legal.append({"type": "turn", "cards": on_board})
        if not state.hands[seat]:
            legal.append({"type": "call_game"})
        if seat not in state.stuck:
            legal.append({"type": "stuck"})
        return legal

    def public_view(self, state: ScrambleState) -> View:
        """Boards are private: the public part has counts only."""
        hands, boards, wins = state.hands, state.boards, state.wins
        return {
            "hand": [],
            "board": [],
            "game_number": state.game,
            "stuck": sorted(state.stuck),
            "wins_needed": MATCH_WINS[state.rules["match"]],
            "scores": score_rows(
                state,
                lambda s: {"placed": len(boards[s]), "hand": len(hands[s]), "wins": wins[s]},
            ),
            "deadlines": {},
            "last": state.last,
        }

    def seat_view(self, state: ScrambleState, seat: int) -> View:
        if seat not in state.seats:
            return {}
        deck = state.deck
        return {
            "legal": self.legal(state, seat),
            "hand": cards_view(deck, state.hands[seat]),
            "board": board_view(deck, state.boards[seat]),
        }

    def revealed(self, state: ScrambleState) -> View:
        return {"hands": hands_view(state), "boards": boards_view(state)}

    def replay_round(self, state: ScrambleState) -> int:
        """Each game of the match is a round."""
        return state.game

    def points(self, state: ScrambleState, seat: int) -> int | None:
        """Games won in the match."""
        return state.wins[seat]

    def card_locations(self, state: ScrambleState) -> list[tuple[int, str]]:
        """Where every card is (for the invariant tests): hands, boards, out of play."""
        found = [(c, f"hand {s}") for s, hand in state.hands.items() for c in hand]
        found += [(p.card, f"board {s}") for s, board in state.boards.items() for p in board]
        return found + [(c, "out of play") for c in state.out_of_play]

    def bot_command(self, view: View, rng: Rng, now: float) -> Command | None:
        return bots.scramble(view, rng)
