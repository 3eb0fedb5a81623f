"""The partyhost command line: games listing and address parsing."""

from __future__ import annotations

import pytest
from partyhost.cli import main
from partyhost.net.address import parse_address


def test_games_lists_every_registered_game(capsys: pytest.CaptureFixture[str]) -> None:
    from partyhost.engine.registry import all_games

    assert main(["games"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["ID", "GAME", "PLAYERS"]
    for game in all_games():
        row = next(line for line in out[1:] if line.split()[0] == game.id)
        players = row.split()[-1]
        assert game.name in row
        assert players in (f"{game.min_players}-{game.max_players}", str(game.max_players))
    assert any(line.startswith("tshirt ") for line in out)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("192.0.2.5", ("192.0.2.5", 7777)),
        ("laptop.local:8000", ("laptop.local", 8000)),
        ("[::1]:9000", ("::1", 9000)),
        ("[fe80::1]", ("fe80::1", 7777)),
    ],
)
def test_parse_address(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize("text", ["host:0", "host:99999", "host:http", ":7777"])
def test_parse_address_rejects_bad_ports_and_hosts(text: str) -> None:
    with pytest.raises(ValueError):
        parse_address(text)
