"""The client's small pure pieces: literal text, frame reading, the shirt, settings, samples."""

from __future__ import annotations

from partyhost.decks.catalog import shipped_decks_dir
from partyhost.decks.files import load_deck_file
from partyhost.engine.core import apply_tick
from partyhost.engine.registry import get_game
from partyhost.net import protocol as p
from partyhost.tui.app import PartyApp
from partyhost.tui.hostlink import LOG_LIMIT, STORED, FrameReader
from partyhost.tui.play import default_bots
from partyhost.tui.shared.connect import Remembered, load_remembered, save_remembered, settings_path
from partyhost.tui.text import ASCII, a_number, clean, literal, progress_bar
from partyhost.tui.tshirt.cards import ASCII_BOX, BOX, shirt_rows
from tuikit.samples import booyah_view, tshirt_view


def test_markup_in_player_text_is_kept_as_typed() -> None:
    assert literal("[red]x[/red] [link=http://a]b").plain == "[red]x[/red] [link=http://a]b"
    assert literal("[red]x").spans == []


def test_control_characters_are_shown_not_obeyed() -> None:
    assert clean("\x1b[31mred\x07") == "^[[31mred^G"
    assert clean("a\u202eb\x9bc") == "a\\u202eb\\x9bc"
    assert clean("two\nlines") == "two^Jlines"
    assert clean("two\nlines", multiline=True) == "two\nlines"
    assert clean("plain ünïcode ✓") == "plain ünïcode ✓"


def test_newer_views_carry_every_event_so_far() -> None:
    reader = FrameReader()
    first = reader.read({"t": "view", "view": {"v": 1}, "events": [{"kind": "a"}]})
    second = reader.read({"t": "view", "view": {"v": 2}, "events": [{"kind": "b"}, "junk"]})
    assert first is not None and second is not None and second.kind == "view"
    assert second.can_replace(first)
    assert [e["kind"] for e in second.events] == ["a", "b"]
    reader.read({"t": "joined", "code": "ABCD", "seat": 1, "token": "t"})
    third = reader.read({"t": "view", "view": {}, "events": [{"kind": "c"}] * (LOG_LIMIT + 5)})
    assert third is not None and third.kind == "view" and len(third.events) == LOG_LIMIT


def test_a_first_views_log_starts_the_log_afresh_before_its_events() -> None:
    """Back at a seat (a reloaded page, a phone that slept): the log has what came before."""
    reader = FrameReader()
    reader.read({"t": "view", "view": {}, "events": [{"kind": "stale"}]})
    reader.read({"t": "joined", "code": "ABCD", "seat": 1, "token": "t"})
    log = [{"version": 3, "events": [{"kind": "a"}, 7]}, "junk", {"events": [{"kind": "b"}]}]
    back = reader.read({"t": "view", "view": {}, "events": [], "log": log})
    assert back is not None and back.kind == "view"
    assert [e["kind"] for e in back.events] == ["a", "b"]
    later = reader.read({"t": "view", "view": {}, "events": [{"kind": "c"}]})
    assert later is not None and later.kind == "view"
    assert [e["kind"] for e in later.events] == ["a", "b", "c"]


def test_unknown_or_malformed_frames_are_ignored() -> None:
    reader = FrameReader()
    assert reader.read({"t": "mystery"}) is None
    assert reader.read({"t": "view", "view": "not a map"}) is None
    status = reader.read({"t": "connection", "state": "lost"})
    assert status is not None and status.kind == "connection"
    assert status.data["state"] == "lost"


def test_the_shirt_is_a_rectangle_and_ascii_mode_uses_only_ascii() -> None:
    for box in (BOX, ASCII_BOX):
        rows = shirt_rows(["(o.o)", "a longer line of art here"], 30, box)
        widths = {len(left + middle + right) for left, middle, right in rows}
        assert widths == {30 + 2 + 2 * 3}
    ascii_text = "".join("".join(row) for row in shirt_rows(["x"], 24, ASCII_BOX))
    assert ascii_text.isascii()


def test_progress_bar_fills_toward_the_target() -> None:
    assert progress_bar(1500, 3000, 10, ASCII) == "#####....."
    assert progress_bar(5000, 3000, 4, ASCII) == "####"
    assert progress_bar(-200, 3000, 4, ASCII) == "...."


def test_settings_survive_a_round_trip_and_a_broken_file() -> None:
    save_remembered(Remembered("10.0.0.2:7777", "Ann"))
    assert load_remembered() == Remembered("10.0.0.2:7777", "Ann")
    settings_path().write_text("{not json", encoding="utf-8")
    assert load_remembered() == Remembered()


def test_play_seats_three_bots_for_the_t_shirt_game() -> None:
    assert default_bots(3, 10) == 3
    assert default_bots(2, 2) == 1
    assert default_bots(5, 8) == 4


def test_sample_views_have_exactly_the_keys_the_engine_sends() -> None:
    game = get_game("tshirt")
    loaded = load_deck_file(shipped_decks_dir() / "the-t-shirt-game.yaml")
    state = game.start(loaded.deck, [0, 1, 2, 3], {}, seed=7)
    state, _ = apply_tick(game, state, 0.0)
    real = game.view(state, 0)
    assert set(tshirt_view()) == set(real)
    assert set(booyah_view()["booyah"]) <= {
        "seat",
        "card",
        "points",
        "verdict",
        "booyah",
        "victims",
    }
    assert set(tshirt_view()["players"][0]) == set(real["players"][0])
    assert set(tshirt_view()["hand"][0]) == set(real["hand"][0])


def test_numbers_get_the_article_they_are_spoken_with() -> None:
    assert [a_number(n) for n in (0, 7, 8, 11, 18, 80, 21)] == [
        "a 0",
        "a 7",
        "an 8",
        "an 11",
        "an 18",
        "an 80",
        "a 21",
    ]


def test_every_kind_the_frame_reader_passes_on_has_its_handler_in_the_app() -> None:
    frames = [{"t": kind, "view": {}, "ask": 0} for kind in p.HOST_MESSAGES]
    kinds = {said.kind for frame in frames if (said := FrameReader().read(frame)) is not None}
    assert {"view", "room", "rooms", "joined", "error"} <= kinds  # a reader that passes on
    kinds |= {"connected", "connect_failed", "closed", "replay"}  # the worker's, and pages
    handled = {name.removeprefix("said_") for name in dir(PartyApp) if name.startswith("said_")}
    assert kinds - STORED <= handled
