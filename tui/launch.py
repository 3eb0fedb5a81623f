"""Making the client app: the real network or an injected one, and ``partyhost join``.

:func:`make_app` is the one way to build a :class:`~partyhost.tui.app.PartyApp`
(the SSH door's workers, ``partyhost play`` and the tests use it too);
:func:`run_join` runs one full-screen client until it quits.
"""

from __future__ import annotations

from partyhost.tui.app import PartyApp

make_app = PartyApp
"""The client app, with the real network unless a connection factory is injected."""


def run_join(
    address: str | None,
    name: str | None,
    room: str | None,
    ascii_only: bool,
    deck_file: str | None = None,
    *,
    remember: bool = True,
    locked: bool = False,
    resume: bool = False,
) -> int:
    """``partyhost join``: the full-screen client; returns the process exit code.

    With ``deck_file`` the create-room dialog opens in the lobby with that file
    chosen as the deck to bring; without ``remember`` nothing is kept on disk.
    ``locked`` keeps it on ``address`` (no other host offered); ``resume`` goes back
    to the seat held there at once instead of offering it.
    """
    app = make_app(
        address=address,
        name=name,
        room=room,
        ascii_only=ascii_only,
        deck_file=deck_file,
        remember=remember,
        locked=locked,
        resume=resume,
    )
    result = app.run()
    return result if isinstance(result, int) else 0
