"""Every knob of the host in one place, with the defaults a LAN party wants."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from partyhost.net.address import DEFAULT_PORT
from partyhost.net.protocol import (
    MAX_CHAT_LENGTH,
    MAX_CLIENT_FRAME,
    MAX_NAME_LENGTH,
    MAX_PASSWORD_LENGTH,
)


@dataclass
class HostConfig:
    """Settings of one host. ``data_dir=None`` keeps everything in memory."""

    host: str = "0.0.0.0"
    port: int = DEFAULT_PORT
    data_dir: Path | None = None
    host_name: str | None = None
    """Shown to players; ``None`` means this machine's host name."""
    bot_delay: tuple[float, float] = (0.4, 1.2)
    """Seconds an in-host bot "thinks" before acting (uniform in the range)."""
    bot_pace: float = 1.0
    """Every bot's thinking time is multiplied by this (``--bot-pace``, for demos and tests)."""
    grace_seconds: float = 120.0
    """How long a disconnected player keeps their seat before it goes away."""
    ghost_grace_seconds: float = 15.0
    """The grace period instead for a seat that joined mid-game and dropped before acting."""
    max_pause_seconds: float = 600.0
    """How long an owner's pause lasts at most; then the game goes on by itself."""
    pause_toggles_per_second: float = 0.5
    pause_toggle_burst: int = 10
    """Pauses and resumes one room takes, together: a burst, then this many a second."""
    resumes_per_second: float = 0.2
    resume_burst: int = 5
    """Times one seat may be taken back with its token: a burst, then this many a second."""
    presence_notice_seconds: float = 5.0
    presence_notice_burst: int = 3
    """Notices of one seat's connection coming and going: a burst, then one every so many
    seconds (the room message still shows every change)."""
    reclaim_answer_seconds: float = 30.0
    """How long the table has to confirm a visitor taking an absent seat back by name."""
    heartbeat_interval: float = 5.0
    heartbeat_misses: int = 3
    """A client silent for this many heartbeat intervals is dropped."""
    hello_timeout: float = 10.0
    max_client_frame: int = MAX_CLIENT_FRAME
    max_unsent_bytes: int = 1024 * 1024
    """A client whose unsent bytes pass this is dropped (it may reconnect)."""
    max_name_length: int = MAX_NAME_LENGTH
    max_chat_length: int = MAX_CHAT_LENGTH
    chat_per_second: float = 1.0
    chat_burst: int = 5
    messages_per_second: float = 50.0
    message_burst: int = 200
    max_connections: int = 256
    max_connections_per_address: int = 16
    """Connections one source address may hold (the doors' own address gets their sessions
    on top: every door visitor's client connects from there)..."""
    busy_connections_per_address: int = 2
    """...and, once more than half of ``max_connections`` are open, at most this many."""
    max_rooms: int = 64
    max_rooms_per_address: int = 3
    """Open rooms one address may have created (the SSH door's: this many per visitor)."""
    max_spectators: int = 32
    wrong_password_free: int = 3
    """Wrong passwords an address may send before its tries are slowed down."""
    wrong_password_delay: float = 0.5
    """The first wait; it doubles with each further wrong password, up to the cap."""
    wrong_password_max_delay: float = 10.0
    wrong_password_memory: float = 600.0
    """Seconds a wrong password counts against its address."""
    idle_room_seconds: float = 600.0
    """A room nobody is connected to is closed after this long (also counted after a restart)."""
    max_game_commands: int = 20_000
    """Commands (and timer steps) one game may journal; the game stops when it reaches them."""
    max_game_journal_bytes: int = 4 * 1024 * 1024
    """Journal bytes of one game's commands; the game stops when it reaches them."""
    uploads_per_second: float = 1.0
    upload_burst: int = 5
    """Uploaded deck files the host reads, for everyone together..."""
    uploads_per_address_per_second: float = 0.25
    upload_address_burst: int = 3
    """...and for one address, so that one address cannot use up everyone's."""
    max_history_mib: float = 200.0
    """MiB the host's database may hold; past it the oldest finished games are deleted."""
    replay_cache_mib: float = 4.0
    """MiB the replays kept for the next requests hold together (docs/limits.md)."""
    replay_builds_per_address_per_second: float = 0.2
    replay_build_address_burst: int = 4
    """Replays one address may have built (a replay already kept costs nothing)."""
    disk_reserve_mib: float = 2.0
    """MiB the database keeps aside for the running games, given up when the disk is full."""
    deck_dirs: tuple[Path, ...] = ()
    """Extra deck folders searched after the shipped and user decks."""
    deck_poll_seconds: float = 2.0
    """How often the deck folders are checked for new, changed and removed files."""
    socket_send_buffer: int | None = None
    """SO_SNDBUF for client sockets (None: the system's default)."""
    shutdown_timeout: float = 5.0
    checkpoint_interval: float = 1.0
    """Seconds between the store's checkpoints (run in a thread, never on the event loop)."""
    lobby_news_interval: float = 0.5
    """Seconds between looks at the rooms list; a changed list goes to everyone in the lobby."""
    extra_games: tuple[str, ...] = field(default_factory=tuple)
    """Modules imported at start so the games they register can be hosted."""
    ssh_port: int | None = None
    """Port of the SSH door (``ssh -t -p PORT NAME@HOST``); None: no door, 0: any free port."""
    ssh_password: str | None = None
    """The party password for the SSH door; None: anyone on the LAN may come in."""
    ssh_max_sessions: int = 32
    """Door visitors playing at once."""
    ssh_max_connections: int = 64
    """SSH connections the door holds at once (logging in, playing or idle)."""
    ssh_max_per_address: int = 4
    """SSH connections from one address at once (each may open one session)."""
    ssh_login_timeout: float = 20.0
    """Seconds an SSH connection has to log in and open its session before it is closed."""
    web_port: int | None = None
    """Port of the browser door; None: no door, 0: any free port (capped like the SSH door's)."""
    web_idle_timeout: float = 1800.0
    """Seconds a browser door session may send nothing before it is closed."""
    discovery: bool = False
    """Advertise the host on the LAN with mDNS (``partyhost serve`` turns it on)."""
    discovery_refresh: float = 2.0
    """Seconds between checks of the advertised room counts (and so the update rate limit)."""

    @property
    def display_name(self) -> str:
        try:
            return self.host_name or socket.gethostname() or "partyhost"
        except OSError:
            return "partyhost"

    @property
    def silence_limit(self) -> float:
        return self.heartbeat_interval * self.heartbeat_misses

    def welcome_limits(self) -> dict[str, Any]:
        """``welcome.limits``: times and rates always as floats, whatever was configured."""
        return {
            "max_frame": int(self.max_client_frame),
            "max_name": int(self.max_name_length),
            "max_chat": int(self.max_chat_length),
            "max_password": MAX_PASSWORD_LENGTH,
            "chat_per_second": float(self.chat_per_second),
            "chat_burst": int(self.chat_burst),
            "messages_per_second": float(self.messages_per_second),
            "message_burst": int(self.message_burst),
            "heartbeat_interval": float(self.heartbeat_interval),
            "heartbeat_misses": int(self.heartbeat_misses),
            "grace_seconds": float(self.grace_seconds),
            "ghost_grace_seconds": float(self.ghost_grace_seconds),
            "max_unsent_bytes": int(self.max_unsent_bytes),
        }
