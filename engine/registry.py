"""The registry of games the host can run, by id."""

from __future__ import annotations

from partyhost.engine.core import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` under its id (ids are unique)."""
    if game.id in _GAMES and _GAMES[game.id] is not game:
        raise ValueError(f"game id {game.id!r} is already registered")
    _GAMES[game.id] = game
    return game


def _load_builtin_games() -> None:
    # Imported here, not at module top, so the registry has no import cycle
    # with the game modules that call register().
    from partyhost.engine import gsm, meme, tshirt  # noqa: F401


def all_games() -> list[Game]:
    """Every registered game, in a stable order."""
    _load_builtin_games()
    return sorted(_GAMES.values(), key=lambda game: game.id)


def get_game(game_id: str) -> Game:
    """The game with this id; KeyError with the known ids otherwise."""
    _load_builtin_games()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise KeyError(f"no game {game_id!r}; known games: {known}") from None
