"""The refusal every rule raises: a stable code for programs and a sentence for people."""

from __future__ import annotations


class IllegalMove(Exception):
    """A command the rules refuse. ``code`` is stable; ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalMove({self.code!r}, {self.message!r})"
