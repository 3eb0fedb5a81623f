"""The T-Shirt Game on the wire: its commands and view, for client authors (pure data)."""

from __future__ import annotations

from partyhost.engine.wire import CommandSpec, GameSpec, field

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
            (field("card", "int", "the slogan's `card` number from your `hand`"),),
            example={"type": "submit", "card": 17},
        ),
        CommandSpec(
            "pick",
            "The judge picks the winning slogan. One template per revealed slogan.",
            (
                field("index", "int", "the slogan's `index` in `submissions`"),
                field("v", "int", "the view `version` you chose from", optional=True),
            ),
            example={"type": "pick", "index": 0, "v": 7},
        ),
        CommandSpec(
            "booyah",
            "The winner who drew a Booyah card keeps it, or steals a Hot or Not card at"
            " random from another player. One template to keep, one per player to steal from.",
            (
                field("choice", "str", "`keep` or `steal`"),
                field("victim", "int", "with `steal`: the seat to steal from", optional=True),
            ),
            example={"type": "booyah", "choice": "steal", "victim": 2},
        ),
    ),
    view=(
        field("game", "str", "`tshirt`"),
        field("version", "int", "the state's version (the `v` of versioned commands)"),
        field(
            "phase",
            "str",
            "`starting` (the host deals at once), `submitting`, `judging`, `booyah`,"
            " `paused` (fewer than 3 players) or `over`",
        ),
        field("round", "int", "the round number, from 1 (0 before the first deal)"),
        field("judge", "int or nil", "the judge's seat (while paused: the next judge)"),
        field("you", "int or nil", "your seat; nil for spectators"),
        field("target", "int", "points to win"),
        field("hand_size", "int", "slogans a player holds"),
        field("timers", "map", "`{submit, judge}`: each timer's seconds, nil when off"),
        field(
            "players",
            "array of map",
            "per seat: `{seat, presence (active/away/left), score, cards, hand_count,"
            " is_judge}`; `cards` are the Hot or Not cards won: `{card, points, verdict, booyah}`",
        ),
        field("hand", "array of map", "your slogans: `{card, text}` (empty for spectators)"),
        field("tshirt", "map or nil", "the turned T-shirt: `{card, picture, art}`"),
        field("submitted", _SEATS, "seats that have played a slogan this round"),
        field("waiting_for", _SEATS, "seats the table waits for"),
        field("your_submission", "map or nil", "your face-down slogan `{card, text}`"),
        field("submissions", "array of map", "while judging: `{index, text}`, authors hidden"),
        field("sat_out", _SEATS, "seats sitting this round out"),
        field(
            "booyah",
            "map or nil",
            "a Booyah card waiting for its drawer: `{seat, card, points, verdict, booyah,"
            " victims}` (`victims`: seats that may be stolen from)",
        ),
        field(
            "last_round",
            "map or nil",
            "the last finished round, authors shown: `{round, tshirt, void, winner,"
            " winning_index, slogan, authors, random_pick, sat_out, hot_or_not, points, booyah}`",
        ),
        field(
            "piles",
            "map",
            "card counts: `{slogans, slogan_discard, tshirts, tshirt_discard, hot_or_not}`",
        ),
        field(
            "deadline",
            "float or nil",
            "when a running timer ends (host clock); nil with no timer, and while `starting`",
        ),
        field("winners", _SEATS, "the winners once the game is over"),
        field(
            "recap",
            "array of map",
            "once the game is over, every round in brief: `{round, tshirt, void, winner, slogan,"
            " points}`; empty before",
        ),
        field("end_reason", "str or nil", "why the game ended"),
        field("legal", "array of map", "the command templates you may send now"),
    ),
)
