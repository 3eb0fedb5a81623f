"""When the host's console reads its terminal, and what it answers (no host process needed)."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from partyhost.net.hosting.serve import HostConsole, console_input


class Lobby:
    def __init__(self) -> None:
        self.closed: list[str] = []

    def room_listing(self) -> list[dict[str, Any]]:
        return [
            {
                "code": "KQZD",
                "game_name": "Game, Set, Match! - Scramble",
                "status": "playing",
                "seats": 2,
                "max_seats": 6,
                "spectators": 0,
                "owner_name": "Ann",
                "creator": None,
            }
        ]

    def close_room(self, code: str) -> bool:
        self.closed.append(code)
        return code == "KQZD"


def test_only_a_pipe_or_a_terminal_in_front_is_read(tmp_path: Path) -> None:
    read_end, write_end = os.pipe()
    with os.fdopen(read_end, encoding="utf-8") as pipe, open(os.devnull, encoding="utf-8") as null:
        assert console_input(pipe) is pipe
        assert console_input(null) is None  # a service, or `serve < /dev/null &`
        script = tmp_path / "commands.txt"
        script.write_text("close KQZD\n", encoding="utf-8")
        with script.open(encoding="utf-8") as file:
            assert console_input(file) is None
    os.close(write_end)


def test_commands_answer_in_words() -> None:
    lobby, out, stopped = Lobby(), io.StringIO(), []
    console = HostConsole(lobby, lambda: stopped.append(True), out)
    for line in ("rooms", "close kqzd", "close ZZZZ", "close", "dance", "", "quit"):
        console.handle(line + "\n")
    said = out.getvalue()
    assert "KQZD  Game, Set, Match! - Scramble, playing, 2/6 seats, 0 watching, owner Ann" in said
    assert "created from unknown (made before a restart)" in said
    assert "Closing room KQZD" in said and "No open room has the code ZZZZ" in said
    assert "Usage: close CODE" in said and "Unknown command 'dance'" in said
    assert lobby.closed == ["KQZD", "ZZZZ"] and stopped == [True]
