"""A deck file with a number too big for anything: a clear error, and no other deck lost.

The attack: an integer of 5,000 digits (past Python's 4,300-digit limit for
decimal conversion) in a user deck. It once crashed ``decks validate`` and
``decks list`` and left the host offering no decks at all.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from doorhelpers import partyhost
from nethelpers import HostProcess, Seat
from partyhost.decks.files import MAX_NUMBER_DIGITS

SHIPPED = Path(__file__).resolve().parent.parent / "decks" / "the-t-shirt-game.yaml"
HUGE = "9" * 5000


def _with_points(points: str) -> tuple[str, int, int]:
    """The shipped deck with its first Hot or Not card worth ``points``; that value's place."""
    lines = SHIPPED.read_text(encoding="utf-8").splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("  - points: "))
    column = len("  - points: ") + 1
    lines[number] = f"  - points: {points}"
    return "\n".join(lines) + "\n", number + 1, column


def _user_decks(tmp_path: Path) -> tuple[dict[str, str], Path, int, int]:
    """A config folder whose deck folder holds a huge-number deck and a good one."""
    decks = tmp_path / "config" / "decks"
    decks.mkdir(parents=True)
    text, line, column = _with_points(HUGE)
    (decks / "huge.yaml").write_text(text, encoding="utf-8")
    (decks / "mine.yaml").write_text(_with_points("250")[0], encoding="utf-8")
    env = dict(os.environ, PARTYHOST_CONFIG_DIR=str(tmp_path / "config"))
    return env, decks / "huge.yaml", line, column


@pytest.mark.parametrize("points", [HUGE, "-" + HUGE, "0x" + "f" * 100, "1.5e+999", ".nan"])
def test_validate_names_the_out_of_range_number_by_line_and_column(
    tmp_path: Path, points: str
) -> None:
    text, line, column = _with_points(points)
    path = tmp_path / "deck.yaml"
    path.write_text(text, encoding="utf-8")
    result = partyhost("decks", "validate", str(path))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr, result.stderr
    expected = f"{path}:{line}:{column}: the number "
    assert re.search(
        rf"^{re.escape(expected)}.* is out of range: deck numbers are finite, with at most"
        rf" {MAX_NUMBER_DIGITS} digits$",
        result.stdout,
        flags=re.MULTILINE,
    ), result.stdout
    assert len(result.stdout) < 1000  # the number is shortened, not echoed whole


def test_decks_list_shows_every_deck_and_marks_only_the_bad_one(tmp_path: Path) -> None:
    env, huge, line, column = _user_decks(tmp_path)
    result = partyhost("decks", "list", env=env)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    listed = {row.split()[0]: row for row in result.stdout.splitlines() if row.startswith("  ")}
    assert "INVALID" in listed["huge"]
    assert "INVALID" not in listed["mine"] and "tshirt" in listed["mine"]
    assert "tshirt" in listed["the-t-shirt-game"]
    shown = partyhost("decks", "validate", str(huge), env=env)
    assert f"{huge}:{line}:{column}: the number 9999" in shown.stdout


async def test_a_host_still_offers_every_good_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env, _, _, _ = _user_decks(tmp_path)
    monkeypatch.setenv("PARTYHOST_CONFIG_DIR", env["PARTYHOST_CONFIG_DIR"])
    host = HostProcess(tmp_path / "data")
    port = await host.ready()
    try:
        seat = await Seat.open(port, "Ann")
        games = {game["id"]: game for game in seat.conn.welcome["games"]}
        await seat.close()
    finally:
        err = host.stop()
    assert "Traceback" not in err, err
    assert {deck["name"] for deck in games["tshirt"]["decks"]} == {"the-t-shirt-game", "mine"}
    for game_id in ("meme", "counting"):
        assert games[game_id]["decks"], game_id  # other games keep their decks too
