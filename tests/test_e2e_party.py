"""End to end in a real terminal: ``partyhost party tshirt --no-wait`` at 80x24, in tmux.

The host and its client run as one process; a friend joins with ``partyhost
join`` in a second tmux session, and the host's quitting asks before it ends
the party for them (the driver: tests/tmuxdriver.py).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from tmuxdriver import Terminal, free_port, partyhost_command

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        shutil.which("tmux") is None,
        reason="tmux is not installed: the real-terminal tests drive the client through it",
    ),
]


def test_party_tshirt_opens_the_hosts_room_and_a_friend_sits_down(
    terminal: Terminal, tmp_path: Path
) -> None:
    port = free_port()
    terminal.start(
        [
            *partyhost_command(),
            *("party", "tshirt", "--no-wait", "--player", "Hana", "--name", "e2e party"),
            *("--host", "127.0.0.1", "--port", str(port), "--ssh", "0", "--web", "0"),
            *("--data", str(tmp_path / "host-data"), "--no-discovery"),
        ],
        size=(80, 24),
    )
    screen = terminal.wait_for(lambda s: "You own this room" in s and "Bot 3" in s)
    assert "Hana (you)" in screen and "Press s to start" in screen
    code = re.search(r"room ([A-Z]{4})", screen)
    assert code is not None

    (tmp_path / "friend").mkdir()
    friend = Terminal(tmp_path / "friend")
    friend.target = "friend"
    try:
        friend.start(
            [*partyhost_command(), "join", f"127.0.0.1:{port}", "--name", "Bea"],
            size=(80, 24),
            PARTYHOST_CONFIG_DIR=str(tmp_path / "friend-config"),
            PARTYHOST_STATE_DIR=str(tmp_path / "friend-state"),
            PARTYHOST_DATA_DIR=str(tmp_path / "friend-data"),
        )
        friend.wait_for(lambda s: "Welcome to e2e party" in s and code.group(1) in s)
        friend.keys("Enter")
        friend.wait_for("Hana")
        terminal.wait_for("Bea")

        terminal.keys("C-q")
        terminal.wait_for("1 friend is still at the table: stop the party?")
        terminal.keys("y")
        assert terminal.wait_exit() == 0
        friend.wait_for(lambda s: "Host closing" in s or "party is over" in s)
    finally:
        friend.close()
