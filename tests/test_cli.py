"""The partyhost command line: games listing and address parsing."""

from __future__ import annotations

from pathlib import Path

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


def test_serve_offers_the_decks_of_each_deck_dir(tmp_path: Path) -> None:
    from partyhost.cli import build_parser
    from partyhost.net.deckshelf import DeckShelf
    from partyhost.playcommands import serve_config

    starters = Path(__file__).resolve().parent.parent / "decks" / "starters"
    for folder, deck in (("party", "tshirt"), ("friends", "meme")):
        (tmp_path / folder).mkdir()
        text = (starters / f"{deck}.yaml").read_text(encoding="utf-8")
        (tmp_path / folder / f"{folder}-deck.yaml").write_text(text, encoding="utf-8")
    args = build_parser().parse_args(
        ["serve", "--deck-dir", str(tmp_path / "party"), "--deck-dir", str(tmp_path / "friends")]
    )
    config = serve_config(args)
    assert config.deck_dirs == (tmp_path / "party", tmp_path / "friends")
    shelf = DeckShelf(config.deck_dirs)
    shelf.scan()
    offered = {entry.name: entry.version.loaded for entry in shelf.entries}
    assert offered["party-deck"] is not None and offered["friends-deck"] is not None
    assert serve_config(build_parser().parse_args(["serve"])).deck_dirs == ()


def test_serve_caps_the_history_at_200_mib_unless_told_otherwise(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from partyhost.cli import build_parser
    from partyhost.playcommands import serve_config

    parser = build_parser()
    assert serve_config(parser.parse_args(["serve"])).max_history_mib == 200
    given = parser.parse_args(["serve", "--max-history-mib", "0.5"])
    assert serve_config(given).max_history_mib == 0.5
    with pytest.raises(SystemExit):
        parser.parse_args(["serve", "--max-history-mib", "0"])
    assert "--max-history-mib: '0' is not a number of MiB above 0" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["serve", "party"])
def test_a_port_out_of_range_is_refused_in_one_line(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not a traceback from the socket's bind: the host's flags are read alike by both."""
    from partyhost.cli import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--port", "70000"])
    assert "--port: '70000' is not a port number" in capsys.readouterr().err
