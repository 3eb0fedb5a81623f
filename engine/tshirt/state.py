"""The T-Shirt Game's state (frozen, tuples only) and the questions rules ask of it.

Everything derivable is derived: a score is the sum of the Hot or Not cards a
seat owns, who still has to submit follows from presence and submissions.
Piles are tuples whose first item is the top card.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from partyhost.engine.tshirt.deck import TShirtDeck

MIN_ACTIVE = 3
MAX_SEATS = 10


class Phase(enum.Enum):
    """Where the table is in a round; ``STARTING`` waits for the opening tick."""

    STARTING = "starting"
    SUBMITTING = "submitting"
    JUDGING = "judging"
    BOOYAH = "booyah"
    PAUSED = "paused"
    OVER = "over"


class Presence(enum.Enum):
    """Whether a seat is at the table, briefly gone, or gone for good."""

    ACTIVE = "active"
    AWAY = "away"
    LEFT = "left"


@dataclass(frozen=True)
class Player:
    """One seat: its presence, its hand of slogans and the Hot or Not cards it won."""

    seat: int
    presence: Presence = Presence.ACTIVE
    hand: tuple[int, ...] = ()
    won: tuple[int, ...] = ()


@dataclass(frozen=True)
class Submission:
    """A slogan lying on the table, and (secretly until the pick) whose it is."""

    seat: int
    card: int


@dataclass(frozen=True)
class PendingBooyah:
    """A drawn Booyah card waiting for its drawer to keep it or steal with it."""

    seat: int
    card: int


@dataclass(frozen=True)
class RoundResult:
    """What happened in the last finished (or void) round, shown to everyone."""

    round: int
    tshirt: int | None
    void_reason: str | None = None
    submissions: tuple[Submission, ...] = ()
    winning_index: int | None = None
    random_pick: bool = False
    sat_out: tuple[int, ...] = ()
    hot_card: int | None = None
    booyah_choice: str | None = None
    """``keep``, ``steal`` or ``returned`` when the drawn card was a Booyah card."""
    victim: int | None = None
    stolen_card: int | None = None


@dataclass(frozen=True)
class Settings:
    """The room's options for this game, resolved once at setup."""

    hand_size: int
    target: int
    submit_timer: int | None
    judge_timer: int | None
    first_judge: int | None


@dataclass(frozen=True)
class TShirtState:
    """A whole game. ``evolve`` is the only thing that makes a new one."""

    deck: TShirtDeck
    settings: Settings
    players: tuple[Player, ...]
    slogan_pile: tuple[int, ...]
    tshirt_pile: tuple[int, ...]
    hot_pile: tuple[int, ...]
    rng: int
    slogan_discard: tuple[int, ...] = ()
    tshirt_discard: tuple[int, ...] = ()
    phase: Phase = Phase.STARTING
    round: int = 0
    judge: int | None = None
    tshirt: int | None = None
    submissions: tuple[Submission, ...] = ()
    """In submission order while face down, in shuffled order once revealed."""
    sat_out: tuple[int, ...] = ()
    booyah: PendingBooyah | None = None
    last_round: RoundResult | None = None
    past_rounds: tuple[RoundResult, ...] = ()
    """Every finished round before ``last_round``, oldest first (for the game-over recap)."""
    deadline: float | None = 0.0
    """When ``tick`` acts next; 0.0 at setup so the host deals right away."""
    winners: tuple[int, ...] = ()
    end_reason: str | None = None
    version: int = 0


def player_of(state: TShirtState, seat: int | None) -> Player | None:
    """The seat's player, or None for spectators and unknown seats."""
    for player in state.players:  # a plain loop: this runs many times per command
        if player.seat == seat:
            return player
    return None


def present_players(state: TShirtState) -> Iterator[Player]:
    """Seats still in the game (active or away), in seat order."""
    return (player for player in state.players if player.presence is not Presence.LEFT)


def active_seats(state: TShirtState) -> list[int]:
    return [player.seat for player in state.players if player.presence is Presence.ACTIVE]


def has_presence(state: TShirtState, seat: int | None, presence: Presence) -> bool:
    player = player_of(state, seat)
    return player is not None and player.presence is presence


def score(state: TShirtState, player: Player) -> int:
    cards = state.deck.hot_or_not
    return sum([cards[card].points for card in player.won])


def seats_from(state: TShirtState, seat: int | None, *, inclusive: bool) -> list[int]:
    """Every seat in clockwise (seat) order starting at or after ``seat``."""
    seats = [player.seat for player in state.players]
    start = seats.index(seat) if seat in seats else 0
    ordered = seats[start:] + seats[:start]
    return ordered if inclusive else ordered[1:] + ordered[:1]


def first_active_from(state: TShirtState, seat: int | None, *, inclusive: bool) -> int:
    """The first active seat clockwise from ``seat``; callers ensure there is one."""
    active = active_seats(state)
    return next(s for s in seats_from(state, seat, inclusive=inclusive) if s in active)


def submitted_seats(state: TShirtState) -> list[int]:
    """Who has a slogan on the table, sorted so the order reveals nothing."""
    return sorted(submission.seat for submission in state.submissions)


def waiting_for(state: TShirtState) -> list[int]:
    """Active non-judges with a slogan in hand who have not submitted yet."""
    if state.phase is not Phase.SUBMITTING:
        return []
    done = set(submitted_seats(state))
    return [
        player.seat
        for player in state.players
        if player.presence is Presence.ACTIVE
        and player.seat != state.judge
        and player.seat not in done
        and player.hand
    ]


def submission_of(state: TShirtState, seat: int) -> Submission | None:
    return next((sub for sub in state.submissions if sub.seat == seat), None)


def victims_for(state: TShirtState, thief: int) -> list[int]:
    """Seats a Booyah drawer may steal from: still in the game, owning a card."""
    return [player.seat for player in present_players(state) if player.seat != thief and player.won]


def can_play_round(state: TShirtState) -> bool:
    """Enough active seats, and a slogan somewhere the active seats can get to."""
    if len(active_seats(state)) < MIN_ACTIVE:
        return False
    held = sum(len(p.hand) for p in state.players if p.presence is Presence.ACTIVE)
    return held + len(state.slogan_pile) + len(state.slogan_discard) > 0


def reached_target(state: TShirtState) -> list[int]:
    """Seats still in the game whose score has reached the target."""
    target = state.settings.target
    return [p.seat for p in present_players(state) if score(state, p) >= target]


def highest_scorers(state: TShirtState) -> list[int]:
    """Seats still in the game sharing the highest score (ties share the win)."""
    scores = {p.seat: score(state, p) for p in present_players(state)}
    best = max(scores.values(), default=0)
    return [seat for seat, points in scores.items() if points == best]


def hot_card_shown(state: TShirtState, card: int) -> dict[str, Any]:
    """A face-up Hot or Not card as views and events show it."""
    hot = state.deck.hot_or_not[card]
    return {"card": card, "points": hot.points, "verdict": hot.verdict, "booyah": hot.booyah}


def tshirt_shown(state: TShirtState, card: int | None) -> dict[str, Any] | None:
    """A turned T-shirt as views and events show it."""
    if card is None:
        return None
    shirt = state.deck.tshirts[card]
    return {"card": card, "picture": shirt.picture, "art": shirt.art}


def authors_shown(state: TShirtState, played: tuple[Submission, ...]) -> list[dict[str, Any]]:
    """Slogans on the table with whose each is, once the judge has picked."""
    slogans = state.deck.slogans
    return [
        {"index": i, "seat": sub.seat, "text": slogans[sub.card]} for i, sub in enumerate(played)
    ]


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
