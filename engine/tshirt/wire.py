"""The T-Shirt Game on the wire: its commands and view, for client authors (pure data)."""

from __future__ import annotations

from partyhost.engine.wire import CommandSpec, GameSpec, WireField

_SEATS = "array of int"

WIRE = GameSpec(
    game="tshirt",
    notes=(
        "Every template is a complete command: send the one the player chose as is. Seats are"
        " listed in seat order. `pick` is versioned: its template carries `v`."
    ),
    commands=(
        CommandSpec(
            "submit",
            "Play a slogan from your hand, face down. Offered to every seat that is not the"
            " judge while slogans are being chosen, one template per slogan in the hand.",
            (WireField("card", "int", "the slogan's `card` number from your `hand`"),),
            example={"type": "submit", "card": 17},
        ),
        CommandSpec(
            "pick",
            "The judge picks the winning slogan. One template per revealed slogan.",
            (
                WireField("index", "int", "the slogan's `index` in `submissions`"),
                WireField("v", "int", "the view `version` you chose from", optional=True),
            ),
            example={"type": "pick", "index": 0, "v": 7},
        ),
        CommandSpec(
            "booyah",
            "The winner who drew a Booyah card keeps it, or steals a Hot or Not card at"
            " random from another player. One template to keep, one per player to steal from.",
            (
                WireField("choice", "str", "`keep` or `steal`"),
                WireField("victim", "int", "with `steal`: the seat to steal from", optional=True),
            ),
            example={"type": "booyah", "choice": "steal", "victim": 2},
        ),
    ),
    view=(
        WireField("game", "str", "`tshirt`"),
        WireField("version", "int", "the state's version (the `v` of versioned commands)"),
        WireField(
            "phase",
            "str",
            "`starting` (the host deals at once), `submitting`, `judging`, `booyah`,"
            " `paused` (fewer than 3 players) or `over`",
        ),
        WireField("round", "int", "the round number, from 1 (0 before the first deal)"),
        WireField("judge", "int or nil", "the judge's seat (while paused: the next judge)"),
        WireField("you", "int or nil", "your seat; nil for spectators"),
        WireField("target", "int", "points to win"),
        WireField("hand_size", "int", "slogans a player holds"),
        WireField("timers", "map", "`{submit, judge}`: each timer's seconds, nil when off"),
        WireField(
            "players",
            "array of map",
            "per seat: `{seat, presence (active/away/left), score, cards, hand_count,"
            " is_judge}`; `cards` are the Hot or Not cards won: `{card, points, verdict, booyah}`",
        ),
        WireField("hand", "array of map", "your slogans: `{card, text}` (empty for spectators)"),
        WireField("tshirt", "map or nil", "the turned T-shirt: `{card, picture, art}`"),
        WireField("submitted", _SEATS, "seats that have played a slogan this round"),
        WireField("waiting_for", _SEATS, "seats the table waits for"),
        WireField("your_submission", "map or nil", "your face-down slogan `{card, text}`"),
        WireField("submissions", "array of map", "while judging: `{index, text}`, authors hidden"),
        WireField("sat_out", _SEATS, "seats sitting this round out"),
        WireField(
            "booyah",
            "map or nil",
            "a Booyah card waiting for its drawer: `{seat, card, points, verdict, booyah,"
            " victims}` (`victims`: seats that may be stolen from)",
        ),
        WireField(
            "last_round",
            "map or nil",
            "the last finished round, authors shown: `{round, tshirt, void, winner,"
            " winning_index, slogan, authors, random_pick, sat_out, hot_or_not, points, booyah}`",
        ),
        WireField(
            "piles",
            "map",
            "card counts: `{slogans, slogan_discard, tshirts, tshirt_discard, hot_or_not}`",
        ),
        WireField(
            "deadline",
            "float or nil",
            "when a running timer ends (host clock); nil with no timer, and while `starting`",
        ),
        WireField("winners", _SEATS, "the winners once the game is over"),
        WireField(
            "recap",
            "array of map",
            "once the game is over, every round in brief: `{round, tshirt, void, winner, slogan,"
            " points}`; empty before",
        ),
        WireField("end_reason", "str or nil", "why the game ended"),
        WireField("legal", "array of map", "the command templates you may send now"),
    ),
)
