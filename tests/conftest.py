"""Shared test setup: plain colours, no theme override, private config folders, tmux."""

from __future__ import annotations

import warnings
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from tmuxdriver import Terminal


@pytest.fixture(autouse=True)
def _isolated_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """No user settings leak in, and no test writes into the user's folders."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TEXTUAL_THEME", raising=False)
    monkeypatch.setenv("PARTYHOST_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PARTYHOST_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("PARTYHOST_STATE_DIR", str(tmp_path / "state"))
    yield


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    """A private tmux server for end-to-end tests (closed, with what runs in it, after)."""
    term = Terminal(tmp_path)
    try:
        yield term
    finally:
        term.close()


@pytest.fixture
def results_hold_their_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game's results take keys only after their pause; a picture shows them before it.

    The pause's end redraws the footer; on a loaded machine it could land while a
    snapshot is being taken, and the picture would depend on the machine's speed.
    """
    from partyhost.tui.shared import results

    monkeypatch.setattr(results, "KEY_PAUSE", 600.0)


@pytest.hookimpl(wrapper=True, trylast=True)  # inside pytest's own warning filters
def pytest_sessionfinish() -> Generator[None, object, object]:
    """The snapshot plugin writes its failure report from a template it reads without an
    encoding: let it, so a failed snapshot is reported instead of the run ending in an
    EncodingWarning (an error everywhere else)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EncodingWarning)
        return (yield)
