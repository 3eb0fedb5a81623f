"""The T-Shirt Game on the wire: its commands and view, for client authors (pure data)."""

from __future__ import annotations

from partyhost.engine.wire import CommandSpec, GameSpec, keys

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
            keys("card | int | the slogan's `card` number from your `hand`"),
            example={"type": "submit", "card": 17},
        ),
        CommandSpec(
            "pick",
            "The judge picks the winning slogan. One template per revealed slogan.",
            keys("""
                index | int | the slogan's `index` in `submissions`
                v? | int | the view `version` you chose from
            """),
            example={"type": "pick", "index": 0, "v": 7},
        ),
        CommandSpec(
            "booyah",
            "The winner who drew a Booyah card keeps it, or steals a Hot or Not card at"
            " random from another player. One template to keep, one per player to steal from.",
            keys("""
                choice | str | `keep` or `steal`
                victim? | int | with `steal`: the seat to steal from
            """),
            example={"type": "booyah", "choice": "steal", "victim": 2},
        ),
    ),
    view=keys("""
        game | str | `tshirt`
        version | int | the state's version (the `v` of versioned commands)
        phase | str | `starting` (the host deals at once), `submitting`, `judging`, `booyah`,
            `paused` (fewer than 3 players) or `over`
        round | int | the round number, from 1 (0 before the first deal)
        judge | int or nil | the judge's seat (while paused: the next judge)
        you | int or nil | your seat; nil for spectators
        target | int | points to win
        hand_size | int | slogans a player holds
        timers | map | `{submit, judge}`: each timer's seconds, nil when off
        players | array of map | per seat: `{seat, presence (active/away/left), score, cards,
            hand_count, is_judge}`; `cards` are the Hot or Not cards won: `{card, points, verdict,
            booyah}`
        hand | array of map | your slogans: `{card, text}` (empty for spectators)
        tshirt | map or nil | the turned T-shirt: `{card, picture, art}`
        submitted | array of int | seats that have played a slogan this round
        waiting_for | array of int | seats the table waits for
        your_submission | map or nil | your face-down slogan `{card, text}`
        submissions | array of map | while judging: `{index, text}`, authors hidden
        sat_out | array of int | seats sitting this round out
        booyah | map or nil | a Booyah card waiting for its drawer: `{seat, card, points, verdict,
            booyah, victims}` (`victims`: seats that may be stolen from)
        last_round | map or nil | the last finished round, authors shown: `{round, tshirt, void,
            winner, winning_index, slogan, authors, random_pick, sat_out, hot_or_not, points,
            booyah}`
        piles | map | card counts: `{slogans, slogan_discard, tshirts, tshirt_discard, hot_or_not}`
        deadline | float or nil | when a running timer ends (host clock); nil with no timer, and
            while `starting`
        winners | array of int | the winners once the game is over
        recap | array of map | once the game is over, every round in brief: `{round, tshirt, void,
            winner, slogan, points}`; empty before
        end_reason | str or nil | why the game ended
        legal | array of map | the command templates you may send now
    """),
)
