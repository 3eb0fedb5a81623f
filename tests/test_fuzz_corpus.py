"""The fuzzers' regression corpus: every kept input still gets its recorded outcome.

``fuzz/corpus/<target>/`` holds inputs the fuzzers found or people wrote on
purpose; ``fuzz/corpus/<target>.json`` says what the host must make of each
(an error code, ``ok``...). The checks are the fuzz targets themselves (plain
code, no atheris needed), so an input that breaks a promise again fails here
with the promise's assertion, and one whose outcome drifts fails visibly.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import msgpack
import pytest
from partyhost.engine.core import IllegalMove, system_target
from partyhost.net import protocol as p

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
sys.path.insert(0, str(FUZZ))

import commandcheck  # noqa: E402
import framecheck  # noqa: E402
from corpus import CORPUS, entries, load_index  # noqa: E402
from tables import prepared  # noqa: E402
from targets import TARGETS  # noqa: E402

KEPT = entries()


@pytest.mark.parametrize(
    ("target", "name", "expect"), KEPT, ids=[f"{target}/{name}" for target, name, _ in KEPT]
)
def test_kept_input_keeps_its_outcome(target: str, name: str, expect: Any) -> None:
    data = (CORPUS / target / name).read_bytes()
    got = json.loads(json.dumps(TARGETS[target](data)))
    assert got == expect


def test_the_corpus_covers_every_target_and_its_files_are_all_indexed() -> None:
    for target in TARGETS:
        on_disk = {path.name for path in (CORPUS / target).iterdir()}
        indexed = set(load_index(target))
        assert on_disk == indexed, target
        assert len(indexed) >= 10, target
        assert all(entry["note"] for entry in load_index(target).values())


def test_the_corpus_stays_small() -> None:
    sizes = [path.stat().st_size for path in CORPUS.rglob("*") if path.is_file()]
    assert len(sizes) < 400
    assert max(sizes) <= 70_000
    assert sum(sizes) < 1_000_000


# --- the checks themselves catch what they are for ----------------------------


def _body(message: dict[str, Any]) -> bytes:
    return msgpack.packb(message, use_bin_type=True)


def test_frame_check_reports_an_escaping_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    """A validator that lets a non-protocol exception out is a crash, not an outcome."""
    original = p.validate_client_message

    def validate(message: Any) -> dict[str, Any]:
        if isinstance(message, dict) and message.get("t") == "kick":
            raise KeyError("seat")
        return original(message)

    monkeypatch.setattr(p, "validate_client_message", validate)
    with pytest.raises(KeyError):
        framecheck.check_body(_body({"t": "kick", "seat": 0}))
    assert framecheck.check_body(_body({"t": "ping"})) == ["ok:ping"]


def test_frame_check_refuses_an_undocumented_error_code(monkeypatch: pytest.MonkeyPatch) -> None:
    # A copy without it, so the shared table keeps its order for whoever reads it next.
    undocumented = {code: text for code, text in p.ERROR_CODES.items() if code != "too_deep"}
    monkeypatch.setattr(p, "ERROR_CODES", undocumented)
    nested: Any = 0
    for _ in range(p.MAX_DEPTH):
        nested = [nested]
    with pytest.raises(AssertionError):
        framecheck.check_body(_body({"t": "play", "cmd": {"type": "x", "a": nested}}))


def test_frame_check_sees_a_decoder_that_depends_on_how_bytes_arrive(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decoder that loses a byte split across reads is caught by the read comparisons."""
    original = p.FrameDecoder.feed

    def lossy(self: Any, data: bytes) -> list[bytes]:
        return list(original(self, data[1:] if len(data) == 2 else data))

    stream = p.encode({"t": "ping", "n": 1}) * 3
    assert framecheck.check_frame(stream) == ["ok:ping"] * 3
    monkeypatch.setattr(p.FrameDecoder, "feed", lossy)
    with pytest.raises(AssertionError):
        framecheck.check_frame(stream + b"\x01")


def test_frame_check_sees_uncleaned_chat(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(framecheck, "clean_text", lambda raw, limit: raw[:limit].strip())
    with pytest.raises(AssertionError):
        framecheck.check_body(_body({"t": "chat", "text": "hi \x1b[2J there"}))


def _gsm_input() -> bytes:
    """The kept input where the host seat sends a Game, Set, Match! non-system command."""
    return (CORPUS / "command" / "gsm-host-sends-place.bin").read_bytes()


def test_command_check_reports_the_gsm_system_command_bug_if_it_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert commandcheck.check_command(_gsm_input()) == "illegal:unknown_command"
    with pytest.raises(IllegalMove):
        system_target({"type": "place", "seat": 0})
    from partyhost.engine.gsm import rules

    monkeypatch.setattr(rules, "system_target", lambda command: command["seat"])
    with pytest.raises(ValueError, match="unknown event"):
        commandcheck.check_command(_gsm_input())


def _swap_game(monkeypatch: pytest.MonkeyPatch, index: int, **changed: Any) -> None:
    """Make prepared table ``index`` play a game with ``changed`` declarations, for this test."""
    tables = list(prepared())
    table = tables[index]
    tables[index] = dataclasses.replace(table, game=dataclasses.replace(table.game, **changed))
    monkeypatch.setattr(commandcheck, "prepared", lambda: tuple(tables))


def test_command_check_sees_a_game_that_changes_the_state_it_is_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = next(t for t in prepared() if t.game.id == "meme")
    index = prepared().index(table)
    data = commandcheck.command_input(index, 0, 0, _body({"type": "nonsense"}))
    assert commandcheck.check_command(data) == "illegal:unknown_command"
    decide = table.game.decide

    def meddling(state: Any, seat: int, command: Any, now: float) -> Any:
        object.__setattr__(state, "version", state.version + 1000)
        return decide(state, seat, command, now)

    _swap_game(monkeypatch, index, decide=meddling)
    try:
        with pytest.raises(AssertionError, match="changed the state"):
            commandcheck.check_command(data)
    finally:  # the prepared state is shared by every test in the session
        object.__setattr__(table.state, "version", table.twin.version)


def test_command_check_sees_a_card_that_vanishes(monkeypatch: pytest.MonkeyPatch) -> None:
    """An accepted command must leave every card somewhere."""
    tables = prepared()
    index = next(i for i, t in enumerate(tables) if t.label == "gridiron/seed11/50%")
    table = tables[index]
    seat = table.seats.index(-1)
    data = commandcheck.command_input(index, seat, 0, _body({"type": "seat_away", "seat": 0}))
    assert commandcheck.check_command(data) == "ok"
    locate = table.game.card_locations
    assert locate is not None
    _swap_game(monkeypatch, index, card_locations=lambda state: locate(state)[1:])
    with pytest.raises(AssertionError, match="vanished"):
        commandcheck.check_command(data)
