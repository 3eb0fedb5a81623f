"""The registry of games the host can run, by id; other modules add theirs with :func:`register`."""

from __future__ import annotations

from functools import cache

from partyhost.engine.core import Game

_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    """Add ``game`` under its id (ids are unique)."""
    if game.id in _GAMES and _GAMES[game.id] is not game:
        raise ValueError(f"game id {game.id!r} is already registered")
    _GAMES[game.id] = game
    return game


@cache
def _load_builtin_games() -> None:
    # Imported on first use, not at module top: a command that needs no game
    # (``partyhost decks validate``, say) does not pay for loading them all.
    from partyhost.engine.gsm.four_corners import game as four_corners
    from partyhost.engine.gsm.gridiron import game as gridiron
    from partyhost.engine.gsm.scramble import game as scramble
    from partyhost.engine.gsm.stealing_home import game as stealing_home
    from partyhost.engine.meme import game as meme
    from partyhost.engine.tshirt import game as tshirt

    for declared in (tshirt, meme, stealing_home, scramble, gridiron, four_corners):
        register(declared.GAME)


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
