"""What Do You Meme? on the wire: its commands and view, for client authors (pure data)."""

from __future__ import annotations

from partyhost.engine.wire import CommandSpec, GameSpec, WireField

_TURN = WireField(
    "turn",
    "int",
    "the view's `turn` the command is meant for; another turn's command is refused as"
    " `stale` (leave it out to mean the current turn)",
    optional=True,
)
_TEMPLATE_TURN = WireField("turn", "int", "the turn this template is for")
_SEATS = "array of int"
_MEME_TEMPLATE = (
    _TEMPLATE_TURN,
    WireField("meme", "int", "the meme this template plays"),
    WireField("choices", "array of int", "every meme you may play (a hint, the same in each)"),
)

WIRE = GameSpec(
    game="meme",
    notes=(
        "No command is versioned (`v`): in simultaneous betting someone else's bet would make"
        " yours stale. Commands name the `turn` instead. `roll`, `react` and `guess` templates"
        " are complete commands; `write_scenario` and `bet` are forms to fill in."
    ),
    commands=(
        CommandSpec(
            "roll",
            "Roll the die in the roll-off, or (the reactor) roll both dice for the scenario.",
            (_TURN,),
            example={"type": "roll", "turn": 0},
        ),
        CommandSpec(
            "write_scenario",
            "The reactor writes the scenario instead of rolling (option `custom_scenarios`).",
            (_TURN, WireField("text", "str", "one line of 1 to `max_length` characters")),
            template=(
                _TEMPLATE_TURN,
                WireField("text", "str", "empty: write the scenario here"),
                WireField("max_length", "int", "the longest text allowed (a hint)"),
            ),
            fill="Put the scenario in `text`; `max_length` may stay or go.",
            example={"type": "write_scenario", "turn": 3, "text": "When the wifi drops"},
        ),
        CommandSpec(
            "react",
            "The reactor's meme, face down. One template per meme.",
            (_TURN, WireField("meme", "int", "the meme's number in the view's `memes`")),
            template=_MEME_TEMPLATE,
            example={"type": "react", "turn": 3, "meme": 4},
        ),
        CommandSpec(
            "guess",
            "A guesser's meme, face down: the guess of the reactor's. One template per meme.",
            (_TURN, WireField("meme", "int", "the meme's number in the view's `memes`")),
            template=_MEME_TEMPLATE,
            example={"type": "guess", "turn": 3, "meme": 2},
        ),
        CommandSpec(
            "bet",
            "Your whole bet for this betting, in one command (betting 1: the reactor on the"
            " face-down guesses; betting 2: the others, sealed). Final.",
            (
                _TURN,
                WireField(
                    "bets",
                    "array of map",
                    "`{seat, amount}` per guess you bet on; amounts of 0 are ignored, a seat"
                    " twice is refused; `[]` bets nothing",
                ),
            ),
            template=(
                _TEMPLATE_TURN,
                WireField("stage", "int", "1 (the reactor's betting) or 2 (the others')"),
                WireField("unit", "str", "`token` (rounds 1-3) or `dollar` (the final round)"),
                WireField("min_total", "int", "the least the amounts may add up to"),
                WireField("max_total", "int", "the most the amounts may add up to"),
                WireField("max_own", "int or nil", "the most on your own guess (nil: no limit)"),
                WireField(
                    "targets",
                    "array of map",
                    "guesses you may bet on: `{seat, max, own}` (`max`: the most on it)",
                ),
                WireField("bets", "array", "empty: list your bets here"),
            ),
            fill=(
                "Put `{seat, amount}` entries in `bets`, seats from `targets`, each amount at"
                " most its `max`, the total from `min_total` to `max_total`. The other template"
                " keys are hints and may stay or go."
            ),
            example={"type": "bet", "turn": 3, "bets": [{"seat": 1, "amount": 2}]},
        ),
    ),
    view=(
        WireField("game", "str", "`meme`"),
        WireField("version", "int", "the state's version"),
        WireField(
            "phase",
            "str",
            "`rolloff`, `scenario`, `picking`, `betting_1`, `betting_2` or `over`",
        ),
        WireField("round", "int", "1 to `rounds`; the last is the final (cash) round"),
        WireField("rounds", "int", "how many rounds a game has"),
        WireField("final", "bool", "whether this is the final round"),
        WireField("turn", "int", "the turn number (commands name it)"),
        WireField("reactor", "int or nil", "the reactor's seat (nil in the roll-off)"),
        WireField("you", "int or nil", "your seat; nil for spectators"),
        WireField(
            "role",
            "str",
            "`spectator`, `left`, `player`, `reactor`, `guesser` or `sitting_out`",
        ),
        WireField("first_player", "int or nil", "who won the roll-off"),
        WireField("rolloff", "map", "`{attempts, waiting}`: rolls so far as `{seat, value}` lists"),
        WireField("dice", "map or nil", "the scenario roll `{tens, units}`"),
        WireField("scenario", "map or nil", "`{number, text, custom}`"),
        WireField("memes", "array of map", "every meme: `{meme, caption, face, keywords}`"),
        WireField(
            "players",
            "array of map",
            "per seat: `{seat, color, terminal, money, tokens, away, left, reactor, waiting,"
            " last_payout, winner}`",
        ),
        WireField(
            "table",
            "map",
            "`{reaction, guesses, reactor_bets, bets, bets_revealed, unit}`; a face-down meme"
            " is nil except to its owner",
        ),
        WireField("waiting_for", _SEATS, "seats the table waits for"),
        WireField("deadline", "float or nil", "when the table next stops waiting (host clock)"),
        WireField(
            "last_turn",
            "map or nil",
            "the last finished turn: `{turn, round, reactor, scenario, reaction, guesses,"
            " correct, bets, payouts, void}`",
        ),
        WireField("history", "array of map", "every finished turn in brief"),
        WireField("winners", "array of int or nil", "the winners once the game is over"),
        WireField(
            "options",
            "map",
            "the room's rules and the game's constants (`tokens`, `max_own_tokens`)",
        ),
        WireField("legal", "array of map", "the command templates you may send now"),
    ),
)
