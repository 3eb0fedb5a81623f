"""Small words that must read right: the dice as they land, the reactor's bets, one card left."""

from __future__ import annotations

import pytest
from partyhost.tui.gsm.screen import choose_words
from partyhost.tui.meme import cards
from partyhost.tui.meme.cards import ScenarioCard
from partyhost.tui.text import number_keys
from test_tui_meme import at_table
from test_tui_presence import seat_ann
from tuikit.fakehost import FakeHost
from tuikit.pilot import app_for, screen_text, settle
from tuikit.samples_gsm import card, gsm_room, stealing_home_view
from tuikit.samples_meme import betting_view, meme_view


async def test_a_roll_that_lands_shows_its_own_dice_and_scenario_not_rolling(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Lit for a minute here, not 0.6 s: on a busy machine the moment could pass before the look.
    monkeypatch.setattr(cards, "LANDING_SECONDS", 60.0)
    async with at_table(meme_view("scenario", reactor=0), animate=True) as table:
        await table.push(meme_view("picking", reactor=0))
        card_widget = table.app.screen.query_one(ScenarioCard)
        assert card_widget.landing  # the new roll is lit for a moment...
        text = table.text()
        assert "Rolling" not in text  # ...but the turn has moved on, and so do the words
        assert "│ 2 │ │ 8 │" in text  # the scenario's own dice (28), not random faces
        assert "Scenario 28" in text and "twenty dollars" in text


async def test_the_reactors_bets_on_a_guess_are_labelled() -> None:
    async with at_table(meme_view("betting_2")) as table:
        text = table.text()
        assert "◆●●" in text and "Guesses face up; ◆: the reactor's bets" in text


def test_one_card_left_reads_as_one_key() -> None:
    assert [number_keys(n) for n in (1, 3, 9, 10)] == ["1", "1-3", "1-9", "1-9,0"]
    assert choose_words(1) == "1 chooses it"
    assert choose_words(4) == "1-4 choose"
    assert choose_words(10) == "1-9,0 choose"


async def test_the_rack_title_with_one_face_up_card_reads_right() -> None:
    host = FakeHost()
    app = app_for(host)
    async with app.run_test(size=(80, 24)) as pilot:
        view = stealing_home_view(face_up=[card(45, "Mg Hr / Tb Bw")])
        await seat_ann(pilot, host, gsm_room("stealing-home"), view)
        await settle(pilot)
        text = screen_text(app)
        assert "(1): 1 chooses it" in text and "1-1" not in text


async def test_betting_on_the_one_guess_there_is_reads_1_picks() -> None:
    view = betting_view(2)
    for template in view["legal"]:
        if template.get("type") == "bet":
            template["targets"] = template["targets"][:1]
    async with at_table(view, size=(120, 40)) as table:
        text = table.text()
        assert "1 picks, +/-" in text and "1-1" not in text
