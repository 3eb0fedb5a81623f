"""Making the client app: the real network or an injected one, and ``partyhost join``.

:func:`make_app` is the one way to build a :class:`~partyhost.tui.app.PartyApp`
(the SSH door's workers, ``partyhost play`` and the tests use it too);
:func:`run_join` runs one full-screen client until it quits.
"""

from __future__ import annotations

from collections.abc import Callable

from partyhost.tui.app import PartyApp
from partyhost.tui.connection import ConnectionFactory


def make_app(
    connection_factory: ConnectionFactory | None = None,
    *,
    address: str | None = None,
    name: str | None = None,
    room: str | None = None,
    ascii_only: bool = False,
    remember: bool = True,
    animate: bool = True,
    on_welcome: Callable[[PartyApp], None] | None = None,
    solo: bool = False,
    deck_file: str | None = None,
    pause_with_dialogs: bool = False,
    locked: bool = False,
) -> PartyApp:
    """The client app, with the real network unless a factory is injected."""
    if connection_factory is None:
        from partyhost.net.client import open_client

        connection_factory = open_client
    return PartyApp(
        connection_factory,
        address=address,
        name=name,
        room=room,
        ascii_only=ascii_only,
        remember=remember,
        animate=animate,
        on_welcome=on_welcome,
        solo=solo,
        deck_file=deck_file,
        pause_with_dialogs=pause_with_dialogs,
        locked=locked,
    )


def run_join(
    address: str | None,
    name: str | None,
    room: str | None,
    ascii_only: bool,
    deck_file: str | None = None,
    *,
    remember: bool = True,
    locked: bool = False,
) -> int:
    """``partyhost join``: the full-screen client; returns the process exit code.

    With ``deck_file`` the create-room dialog opens in the lobby with that file
    chosen as the deck to bring; without ``remember`` nothing is kept on disk.
    ``locked`` keeps it on ``address`` (nothing kept on disk either, no other
    host offered).
    """
    app = make_app(
        address=address,
        name=name,
        room=room,
        ascii_only=ascii_only,
        deck_file=deck_file,
        remember=remember and not locked,
        locked=locked,
    )
    result = app.run()
    return result if isinstance(result, int) else 0
