"""``partyhost play``: a loopback host inside this process, a room full of bots, and you in it.

The client is the normal one; :class:`QuickGame` only sends the requests a person would.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from collections.abc import AsyncIterator, Coroutine, Iterator
from typing import TYPE_CHECKING, Any

from partyhost.paths import state_dir
from partyhost.tui.app import PartyApp
from partyhost.tui.shared.connect import default_name, load_remembered
from partyhost.tui.shared.results import next_levels
from partyhost.tui.text import clean, counted

if TYPE_CHECKING:
    from partyhost.engine.core import Game
    from partyhost.net.config import HostConfig
    from partyhost.net.hosting.host import Host

BOT_DELAY = (0.9, 2.2)
"""Seconds a bot "thinks": slow enough to follow, quick enough to keep the pace."""
GOOD_TABLE = 4
"""Players that make a good game when a game's minimum allows it."""
SETUP_SECONDS = 5.0
"""How long the connect screen may stand for the setting up; then the room shows why not."""


def default_bots(min_players: int, max_players: int) -> int:
    """Bots that, with you, make a lively table (3 for The T-Shirt Game)."""
    return max(min_players - 1, min(GOOD_TABLE, max_players) - 1)


class QuickGame:
    """Creates the room, seats the bots and starts, as soon as the host says hello."""

    def __init__(
        self,
        game: str,
        bots: int,
        level: str | None = None,
        options: dict[str, Any] | None = None,
        *,
        start: bool = True,
    ) -> None:
        self.game = game
        self.bots = bots
        self.level = level
        self.options = options or None
        self.start = start
        """Start once the bots are seated; False leaves that to the owner (friends may sit)."""
        self.requested_bots = False
        self.started = False
        self.finished: tuple[dict[str, Any], dict[str, Any]] | None = None
        """The last game that ended (its view and room): what to say on the way out."""

    def hold(self, app: PartyApp) -> None:
        """Keep ``app`` on its connect screen until the game shows."""
        app.setting_up = True

    def attach(self, app: PartyApp) -> None:
        app.requests.create_room(self.game, options=self.options)
        app.set_timer(SETUP_SECONDS, lambda: self._stop_holding(app))
        app.watch(app, "room", lambda room: self._room_changed(app, room), init=False)
        app.watch(app, "view", lambda view: self._view_changed(app, view), init=False)

    def _stop_holding(self, app: PartyApp) -> None:
        if app.setting_up:
            app.setting_up = False
            app.route()

    def _view_changed(self, app: PartyApp, view: dict[str, Any] | None) -> None:
        if view is not None and view.get("phase") == "over":
            self.finished = (view, app.room or {})

    def _room_changed(self, app: PartyApp, room: dict[str, Any] | None) -> None:
        if self.started or room is None or room.get("owner") != app.seat:
            return
        if room.get("status") != "lobby":
            self.started = True
            return
        if not self.requested_bots:
            self.requested_bots = True
            for _ in range(self.bots):
                app.requests.add_bot(self.level)
        seated = [s for s in room.get("seats", []) if not s.get("left")]
        if self.start and len(seated) >= self.bots + 1:
            self.started = True
            app.requests.start_game()


def option_value(text: str) -> object:
    """An option's value as typed after ``=``: a number, on/off, true/false, or the text."""
    word = text.strip()
    lowered = word.lower()
    if lowered in ("off", "none", "null"):
        return None
    if lowered in ("on", "true", "yes"):
        return True
    if lowered in ("false", "no"):
        return False
    if word.lstrip("-").isdigit():
        return int(word)
    return word


def parse_options(pairs: list[str]) -> dict[str, object]:
    """``["target=1000", "submit_timer=off"]`` as room options; ValueError names a bad one."""
    options: dict[str, object] = {}
    for pair in pairs:
        name, sign, value = pair.partition("=")
        if not sign or not name.strip():
            raise ValueError(f"{pair!r} is not NAME=VALUE (e.g. target=1000)")
        options[name.strip()] = option_value(value)
    return options


def choose_table(
    command: str,
    game_id: str,
    bots: int | None,
    options: list[str],
    *,
    friends_coming: bool,
) -> tuple[Game, int, dict[str, Any]] | None:
    """The game, how many bots and the room options asked for; None once a refusal is printed.

    ``friends_coming`` (``partyhost party``): fewer bots than the game's minimum are fine.
    ``bots`` of ``partyhost play`` must make a table the engine accepts with you.
    """
    from partyhost.engine.core import IllegalMove
    from partyhost.engine.registry import all_games, get_game

    try:
        game = get_game(game_id)
    except KeyError:
        known = ", ".join(g.id for g in all_games())
        print(f"partyhost {command}: no game {game_id!r}; try one of: {known}", file=sys.stderr)
        return None
    count = default_bots(game.min_players, game.max_players) if bots is None else bots
    try:
        if not friends_coming:
            game.check_player_count(count + 1)
        elif count < 0 or not game.has_free_seat(count):
            high = game.max_players - 1
            raise ValueError(f"{game.name} takes 0 to {high} bots besides you.")
    except (ValueError, IllegalMove) as bad:
        besides = "" if friends_coming else f" (you and {counted(count, 'bot')})"
        print(f"partyhost {command}: {str(bad).rstrip('.')}{besides}.", file=sys.stderr)
        return None
    try:
        rules = parse_options(options)
        game.rules_for(rules)
    except (ValueError, IllegalMove) as bad:
        print(f"partyhost {command}: {bad}", file=sys.stderr)
        return None
    return game, count, rules


def player_name(name: str | None) -> str:
    """The name asked for, else the one this computer remembers, else the login's."""
    return (name or load_remembered().name or default_name()).strip() or "player"


async def play(
    game_id: str,
    bots: int | None,
    name: str | None,
    ascii_only: bool,
    level: str | None = None,
    options: list[str] | None = None,
    bot_pace: float = 1.0,
) -> int:
    """``partyhost play [GAME] [--bots N] [--level LEVEL] [--option NAME=VALUE]...``: host
    and client on one loop until the player quits (run it with :func:`until_interrupted`)."""
    from partyhost.net.hosting.host import HostConfig

    table = choose_table("play", game_id, bots, options or [], friends_coming=False)
    if table is None:
        return 2
    game, count, rules = table
    if bot_pace <= 0:
        print("partyhost play: --bot-pace must be more than 0", file=sys.stderr)
        return 2
    config = HostConfig(
        host="127.0.0.1",
        port=0,
        data_dir=None,
        bot_delay=BOT_DELAY,
        bot_pace=bot_pace,
        host_name="this computer",
    )
    async with running_host(config, PLAY_LOG, "The game was closed.") as host:
        quick = QuickGame(game.id, count, level, rules)
        app = PartyApp(
            address=f"127.0.0.1:{host.port}",
            name=player_name(name),
            ascii_only=ascii_only,
            remember=False,
            on_welcome=quick.attach,
            pause_with_dialogs=True,
            solo=True,
        )
        quick.hold(app)
        await app.run_async()
    if quick.finished is not None:
        print(parting_words(*quick.finished, game.name, game.id))
    return app.return_code or 0


PLAY_LOG = "play.log"
"""The host's warnings and errors during ``partyhost play``, in the state folder."""
PLAY_LOG_BYTES = 256 * 1024
"""The log's size before it starts over (one older copy is kept)."""


@contextlib.contextmanager
def logging_to_file(file_name: str = PLAY_LOG) -> Iterator[None]:
    """Send the embedded host's warnings and errors to ``file_name`` in the state folder:
    the game owns the terminal, yet a room that fails must leave a trace for a bug report."""
    from logging.handlers import RotatingFileHandler

    logger = logging.getLogger("partyhost")
    propagated = logger.propagate
    logger.propagate = False  # Python's last-resort handler would write into the game
    try:
        folder = state_dir()
        folder.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = RotatingFileHandler(
            folder / file_name, maxBytes=PLAY_LOG_BYTES, backupCount=1, encoding="utf-8"
        )
    except OSError:
        handler = logging.NullHandler()
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagated
        handler.close()


@contextlib.asynccontextmanager
async def running_host(config: HostConfig, log_file: str, farewell: str) -> AsyncIterator[Host]:
    """A host on this loop, its warnings and errors in ``log_file``; closed with ``farewell``
    once the client is done."""
    from partyhost.net.hosting.host import Host

    with logging_to_file(log_file):
        host = Host(config)
        await host.start()
        try:
            yield host
        finally:
            with contextlib.suppress(Exception):
                await host.close(farewell)


def until_interrupted(main: Coroutine[Any, Any, int]) -> int:
    """Run ``main`` for its exit code; 130 after a Ctrl+C."""
    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(main)
    return 130


def parting_words(view: dict[str, Any], room: dict[str, Any], title: str, game_id: str) -> str:
    """What stays in the terminal after a finished game: who won, and how to play again."""
    seats = {s.get("seat"): s.get("name") for s in room.get("seats", [])}
    winners = [clean(seats.get(seat, f"seat {seat}")) for seat in view.get("winners") or []]
    who = " and ".join(winners) if winners else "nobody"
    first, other = next_levels(room, view)
    again = f"partyhost play {game_id} --level {first} (or --level {other})"
    return f"{title}: {who} won. Play again: {again}"
