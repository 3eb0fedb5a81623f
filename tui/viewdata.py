"""Reading the host's view: the few lookups every game screen makes the same way."""

from __future__ import annotations

from typing import Any

Frame = dict[str, Any]


def legal_of(view: Frame, kind: str) -> list[Frame]:
    """The view's legal commands of one type (the only moves the UI offers)."""
    return [c for c in view.get("legal", []) if isinstance(c, dict) and c.get("type") == kind]
