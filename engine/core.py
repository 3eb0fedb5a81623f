"""The contract every game declares, the checks all games share, and their common types.

A game is a :class:`Game`: its metadata and pure functions (``decide`` turns a
command into events or raises :class:`IllegalMove`; ``evolve`` is the only way
state changes). Commands, events, views and options are plain data, so the host
can journal and send them as is. The host sends *system commands* from
:data:`SYSTEM_SEAT`, each naming the ``seat`` it is about.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Generic, Literal, Protocol, TypeVar

from partyhost.engine.rng import Rng
from partyhost.engine.wire import GameSpec

Command = dict[str, Any]
View = dict[str, Any]

SYSTEM_SEAT = -1
"""The seat number the host uses for system commands (joins, leaves, away)."""

SYSTEM_COMMANDS = ("seat_joined", "seat_left", "seat_away", "seat_back")
"""The command types only the host sends, each naming the ``seat`` it is about."""

BOT_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
"""How quickly an in-host bot reacts, slowest first; ``normal`` is the default."""


class IllegalMove(Exception):
    """A command the rules refuse. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.message!r})"


@dataclass(frozen=True)
class RuleOption:
    """One room setting a game offers, with its default and bounds."""

    name: str
    label: str
    kind: Literal["int", "bool", "choice"]
    default: int | bool | str | None
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()
    allow_none: bool = False
    """For timers: ``None`` (shown as "off") is allowed besides numbers."""

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
            "min": self.minimum,
            "max": self.maximum,
            "choices": list(self.choices),
            "allow_none": self.allow_none,
        }

    def check(self, value: Any) -> int | bool | str | None:
        """Return ``value`` if it suits this option, else raise :class:`IllegalMove`."""
        if value is None and self.allow_none:
            return None
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            must = "true or false"
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                must = "a whole number"
            elif self.minimum is not None and value < self.minimum:
                must = f"at least {self.minimum}"
            elif self.maximum is not None and value > self.maximum:
                must = f"at most {self.maximum}"
            else:
                return value
        elif value in self.choices:
            return str(value)
        else:
            must = f"one of: {', '.join(self.choices)}"
        raise IllegalMove("bad_option", f"Option {self.name!r} must be {must}.")


RESULT_PAUSES: dict[str, float] = {
    "until all press a key": 30.0,
    "5 seconds": 5.0,
    "10 seconds": 10.0,
    "no pause": 0.0,
}
"""Most seconds the table stops after a round, by :data:`ROUND_RESULTS` choice."""

ROUND_RESULTS = RuleOption(
    "round_results",
    "Round results stay",
    "choice",
    "until all press a key",
    help="After each round the table stops so everyone can read what won and why: until "
    "every person has pressed a key (30 s at most), a few seconds, or not at all. The "
    "game's timers wait too.",
    choices=tuple(RESULT_PAUSES),
)
"""The room option of every game with rounds; only the host reads it."""

FRIENDS_TAKE_BOTS = RuleOption(
    "friends_take_bots",
    "Friends take bots' seats",
    "bool",
    True,
    help="Someone who joins while the game runs watches, then takes over a bot's seat (its "
    "hand and score) when the next round starts, or when the game ends in games without "
    "rounds.",
)
"""The room option of every game; only the host reads it."""


@dataclass(frozen=True)
class Event:
    """Something that happened: ``data`` for everyone, ``private`` fields for single seats,
    ``secret`` for the host and ``evolve`` only."""

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    private: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    secret: Mapping[str, Any] = field(default_factory=dict)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it: everyone's fields, then that seat's own."""
        shown: dict[str, Any] = {"kind": self.kind, **self.data}
        if seat is not None and seat in self.private:
            shown.update(self.private[seat])
        return shown


@dataclass(frozen=True)
class SeatResult:
    """How one seat ended a game (``points``, ``money``: ``None`` where not kept)."""

    seat: int
    won: bool
    points: int | None = None
    money: int | None = None


@dataclass(frozen=True)
class DeckProblem:
    """One thing wrong with a deck: where (a path of keys and indexes) and what."""

    path: tuple[str | int, ...]
    message: str


class DeckInvalid(Exception):
    """Raised by ``Game.build_deck`` with every problem found, not just the first."""

    def __init__(self, problems: Sequence[DeckProblem]) -> None:
        super().__init__(f"{len(problems)} problem(s) in deck")
        self.problems = list(problems)


def no_rounds(events: Sequence[Event]) -> bool:
    """A game without rounds has no round result to pause on."""
    return False


def round_ends_on(*kinds: str) -> Callable[[Sequence[Event]], bool]:
    """The ``round_over`` of a game whose rounds end with any event of these kinds."""
    return lambda events: any(event.kind in kinds for event in events)


@dataclass(frozen=True, kw_only=True, eq=False)
class Game:
    """A registered game: its metadata and the pure functions of the contract."""

    id: str
    name: str
    min_players: int
    max_players: int
    deck_game: str
    """The ``game:`` value this game's deck files declare."""
    default_deck: str
    """File stem of the shipped deck used when a room names none."""
    build_deck: Callable[[Any], Any]
    """Parsed deck data to the game's deck object, or raise :class:`DeckInvalid`."""
    setup: Callable[[Any, Sequence[int], Mapping[str, Any], int], Any]
    """A new game's state from resolved rules and checked seats: call :meth:`start`."""
    decide: Callable[[Any, int, Command, float], list[Event]]
    """The events a command causes, or raise IllegalMove."""
    evolve: Callable[[Any, Event], Any]
    """The state after one event."""
    view: Callable[[Any, int | None], View]
    """What a seat (``None``: a spectator) may see, including its ``legal`` commands."""
    legal: Callable[[Any, int], list[Command]]
    """Commands a seat may send now (templates; UI and bots pick from them)."""
    replay_view: Callable[[Any], View]
    """A finished game's table with everything shown, plus the ``"round"`` replays step by."""
    results: Callable[[Any], list[SeatResult]]
    """Each seat's outcome of a game that is over, for the night's standings."""
    bot_command: Callable[[View, Rng, float], Command | None]
    """A bot's command chosen from its seat's view alone (reproducibly), or ``None`` to wait."""
    is_over: Callable[[Any], bool] = lambda state: bool(state.phase == "over")
    """Whether the game has ended (by default: its state's ``phase`` reads ``"over"``)."""
    tick: Callable[[Any, float], list[Event]] = lambda state, now: []
    """Events caused by the passage of time (by default none: a game without timers)."""
    deadline: Callable[[Any], float | None] = lambda state: None
    """When ``tick`` has something to do next, or ``None`` (always, without timers)."""
    round_over: Callable[[Sequence[Event]], bool] = no_rounds
    """Whether events end a round whose result the table pauses on (:data:`ROUND_RESULTS`)."""
    bot_delays: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    """Seconds (low, high) a bot waits, by level; unlisted levels keep the host's delay."""
    options: tuple[RuleOption, ...] = ()
    versioned_commands: frozenset[str] = frozenset()
    """Command types refused when they name an older state version."""
    joins_mid_game: bool = False
    deck_preview: tuple[str, ...] = ()
    """Deck sections a deck's preview shows first; the others follow in file order."""
    card_locations: Callable[[Any], list[tuple[Any, str]]] | None = None
    """Every card and where it lies, for conservation checks (optional)."""
    wire: GameSpec | None = None
    """The game's commands and view as a client sees them (its ``wire`` module's ``WIRE``)."""

    def start(self, deck: Any, seats: Sequence[int], rules: Mapping[str, Any], seed: int) -> Any:
        """A new game: the room's rules resolved, the seats checked, then the game's setup."""
        resolved = self.rules_for(rules)
        self.check_seats(seats)
        return self.setup(deck, seats, resolved, seed)

    def rules_for(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """The option defaults overlaid with ``given``; unknown names, bad values: bad_option."""
        by_name = {option.name: option for option in self.options}
        unknown = sorted(set(given) - set(by_name))
        if unknown:
            raise IllegalMove("bad_option", f"Unknown option(s): {', '.join(map(str, unknown))}.")
        rules: dict[str, Any] = {option.name: option.default for option in self.options}
        for name, value in given.items():
            rules[name] = by_name[name].check(value)
        return rules

    def check_player_count(self, count: int) -> None:
        """Refuse ``count`` players outside ``min_players``..``max_players`` (``player_count``)."""
        low, high = self.min_players, self.max_players
        if low <= count <= high:
            return
        wanted = f"exactly {high}" if low == high else f"{low} to {high}"
        raise IllegalMove("player_count", f"{self.name} needs {wanted} players, not {count}.")

    def check_seats(self, seats: Sequence[int]) -> None:
        """Refuse a table that repeats a seat, uses a negative one or has the wrong count."""
        if len(set(seats)) != len(seats) or any(seat < 0 for seat in seats):
            raise IllegalMove("bad_seats", "Seats must be distinct numbers, zero or more.")
        self.check_player_count(len(seats))

    def has_free_seat(self, seated: int) -> bool:
        """Whether a table of ``seated`` players has room for one more."""
        return seated < self.max_players

    def describe(self) -> dict[str, Any]:
        named = ("id", "name", "min_players", "max_players", "deck_game", "default_deck")
        return {
            **{key: getattr(self, key) for key in named},
            "options": [option.describe() for option in self.options],
            "joins_mid_game": self.joins_mid_game,
        }


JOBS: dict[str, tuple[str, ...]] = {
    "deck": ("build_deck",),
    "state": ("setup", "evolve", "card_locations"),
    "rules": ("decide", "tick", "deadline"),
    "views": ("view", "legal", "replay_view", "results"),
    "bot": ("bot_command",),
    "wire": ("WIRE",),
}
"""Each job module's name -> the :class:`Game` functions it holds under those names."""


def declare(jobs: Sequence[ModuleType], **own: Any) -> Game:
    """A game's :class:`Game`: its ``jobs`` modules' functions (:data:`JOBS`), then ``own``."""
    found: dict[str, Any] = {}
    for module in jobs:
        for name in JOBS[module.__name__.rpartition(".")[2]]:
            if hasattr(module, name):
                found[name.lower()] = getattr(module, name)
    return Game(**{**found, **own})


@dataclass(frozen=True)
class SharedViews:
    """The base of every game's state: ``shared_views`` keeps view parts every seat sees
    alike (:func:`shared_part`); states never change, so it never goes stale, and
    ``dataclasses.replace`` starts the next state's empty."""

    shared_views: dict[str, View] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )


def shared_part(state: SharedViews, key: str, build: Callable[[], View]) -> View:
    """A view part every seat sees alike, built once per state."""
    cache = state.shared_views
    found = cache.get(key)
    if found is None:
        found = cache[key] = build()
    return found


def check_join(seat: int, present: int, most: int) -> None:
    """Refuse a negative ``seat``, or one joining a running game whose ``present`` players
    already number ``most`` (games that seat players mid-game ask it from ``decide``)."""
    if seat < 0:
        raise IllegalMove("bad_command", "Seat numbers are zero or more.")
    if present >= most:
        raise IllegalMove("table_full", f"The table already has {most} players.")


def read_int(command: Command, key: str) -> int:
    """The whole number ``command`` names at ``key`` (a bool is not one)."""
    value = command.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalMove("bad_command", f"The command needs a whole number {key!r}.")
    return value


def system_target(command: Command) -> int:
    """The seat a host system command is about; any other type from the host is refused."""
    kind = command.get("type")
    if kind not in SYSTEM_COMMANDS:
        raise IllegalMove("unknown_command", f"Unknown system command {kind!r}.")
    return read_int(command, "seat")


class SeededState(Protocol):
    """What :class:`Decision` needs of a state: its generator, kept as one integer."""

    @property
    def rng(self) -> int: ...


State = TypeVar("State", bound=SeededState)


class Decision(Generic[State]):
    """The events one ``decide`` or ``tick`` call has made so far, and where they lead.

    :attr:`state` is the start with every event so far folded in (lazily), so a
    later step sees the table as it then is; only :attr:`events` leave the decision.
    The newest decision is kept, so :func:`settle` need not fold its events again.
    """

    latest: Decision[Any] | None = None

    def __init__(self, evolve: Callable[[State, Event], State], state: State, now: float) -> None:
        self.evolve = evolve
        self.start = state
        self._state = state
        self._folded = 0
        self.now = now
        self.events: list[Event] = []
        Decision.latest = self

    @property
    def state(self) -> State:
        events = self.events
        while self._folded < len(events):
            self._state = self.evolve(self._state, events[self._folded])
            self._folded += 1
        return self._state

    def emit(
        self,
        kind: str,
        data: Mapping[str, Any] | None = None,
        *,
        private: Mapping[int, Mapping[str, Any]] | None = None,
        secret: Mapping[str, Any] | None = None,
    ) -> None:
        """Record an event (see :class:`Event` for who may see which part)."""
        self.events.append(Event(kind, {} if data is None else data, private or {}, secret or {}))

    def rng(self) -> Rng:
        """A copy of the game's generator; put its ``.state`` in the event's ``secret``."""
        return Rng(self.state.rng)


def apply(
    game: Game, state: Any, seat: int, command: Command, now: float
) -> tuple[Any, list[Event]]:
    """Decide and evolve one command, refusing a stale one; the new state and its events."""
    kind = command.get("type")
    if not isinstance(kind, str):
        raise IllegalMove("bad_command", "A command needs a text 'type'.")
    seen = command.get("v")
    if kind in game.versioned_commands and seen is not None and seen != state.version:
        raise IllegalMove(
            "stale", "The table changed before your move arrived; look again and retry."
        )
    events = game.decide(state, seat, command, now)
    return settle(game, state, events), events


def apply_tick(game: Game, state: Any, now: float) -> tuple[Any, list[Event]]:
    """Run the game's timers at ``now``; returns the new state and its events."""
    events = game.tick(state, now)
    return (settle(game, state, events) if events else state), events


def settle(game: Game, state: Any, events: Sequence[Event]) -> Any:
    """Evolve every event in order (or take the decision's that did), then bump the version."""
    decision = Decision.latest
    if (
        decision is not None
        and decision.events is events
        and decision.start is state
        and decision.evolve is game.evolve
    ):
        state = decision.state
    else:
        for event in events:
            state = game.evolve(state, event)
    return dataclasses.replace(state, version=state.version + 1)
