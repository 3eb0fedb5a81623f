"""What Do You Meme? on the wire: its commands and view, for client authors (pure data)."""

from __future__ import annotations

from typing import Any

from partyhost.engine.wire import CommandSpec, GameSpec, keys

(_TURN,) = keys("""
    turn? | int | the view's `turn` the command is meant for; another turn's command is refused as
        `stale` (leave it out to mean the current turn)
""")
(_TEMPLATE_TURN,) = keys("turn | int | the turn this template is for")


def _meme(kind: str, doc: str, example: dict[str, Any]) -> CommandSpec:
    """A meme played face down (``react``, ``guess``): one template per meme."""
    return CommandSpec(
        kind,
        doc,
        (_TURN, *keys("meme | int | the meme's number in the view's `memes`")),
        template=(
            _TEMPLATE_TURN,
            *keys("""
            meme | int | the meme this template plays
            choices | array of int | every meme you may play (a hint, the same in each)
            """),
        ),
        example=example,
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
            (_TURN, *keys("text | str | one line of 1 to `max_length` characters")),
            template=(
                _TEMPLATE_TURN,
                *keys("""
                text | str | empty: write the scenario here
                max_length | int | the longest text allowed (a hint)
                """),
            ),
            fill="Put the scenario in `text`; `max_length` may stay or go.",
            example={"type": "write_scenario", "turn": 3, "text": "When the wifi drops"},
        ),
        _meme(
            "react",
            "The reactor's meme, face down. One template per meme.",
            {"type": "react", "turn": 3, "meme": 4},
        ),
        _meme(
            "guess",
            "A guesser's meme, face down: the guess of the reactor's. One template per meme.",
            {"type": "guess", "turn": 3, "meme": 2},
        ),
        CommandSpec(
            "bet",
            "Your whole bet for this betting, in one command (betting 1: the reactor on the"
            " face-down guesses; betting 2: the others, sealed). Final.",
            (
                _TURN,
                *keys("""
                bets | array of map | `{seat, amount}` per guess you bet on; amounts of 0 are
                    ignored, a seat twice is refused; `[]` bets nothing
                """),
            ),
            template=(
                _TEMPLATE_TURN,
                *keys("""
                stage | int | 1 (the reactor's betting) or 2 (the others')
                unit | str | `token` (rounds 1-3) or `dollar` (the final round)
                min_total | int | the least the amounts may add up to
                max_total | int | the most the amounts may add up to
                max_own | int or nil | the most on your own guess (nil: no limit)
                targets | array of map | guesses you may bet on: `{seat, max, own}` (`max`: the
                    most on it)
                bets | array | empty: list your bets here
                """),
            ),
            fill=(
                "Put `{seat, amount}` entries in `bets`, seats from `targets`, each amount at"
                " most its `max`, the total from `min_total` to `max_total`. The other template"
                " keys are hints and may stay or go."
            ),
            example={"type": "bet", "turn": 3, "bets": [{"seat": 1, "amount": 2}]},
        ),
    ),
    view=keys("""
        game | str | `meme`
        version | int | the state's version
        phase | str | `rolloff`, `scenario`, `picking`, `betting_1`, `betting_2` or `over`
        round | int | 1 to `rounds`; the last is the final (cash) round
        rounds | int | how many rounds a game has
        final | bool | whether this is the final round
        turn | int | the turn number (commands name it)
        reactor | int or nil | the reactor's seat (nil in the roll-off)
        you | int or nil | your seat; nil for spectators
        role | str | `spectator`, `left`, `player`, `reactor`, `guesser` or `sitting_out`
        first_player | int or nil | who won the roll-off
        rolloff | map | `{attempts, waiting}`: rolls so far as `{seat, value}` lists
        dice | map or nil | the scenario roll `{tens, units}`
        scenario | map or nil | `{number, text, custom}`
        memes | array of map | every meme: `{meme, caption, face, keywords}`
        players | array of map | per seat: `{seat, color, terminal, money, tokens, away, left,
            reactor, waiting, last_payout, winner}`
        table | map | `{reaction, guesses, reactor_bets, bets, bets_revealed, unit}`; a face-down
            meme is nil except to its owner
        waiting_for | array of int | seats the table waits for
        deadline | float or nil | when the table next stops waiting (host clock)
        last_turn | map or nil | the last finished turn: `{turn, round, reactor, scenario, reaction,
            guesses, correct, bets, payouts, void}`
        history | array of map | every finished turn in brief
        winners | array of int or nil | the winners once the game is over
        options | map | the room's rules and the game's constants (`tokens`, `max_own_tokens`)
        legal | array of map | the command templates you may send now
    """),
)
