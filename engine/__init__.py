"""The rules of every partyhost game, as pure functions over plain data.

No I/O, no clock, no network: time is an argument and randomness comes from a
generator kept in the state, so a game replays exactly from its seed and commands.
"""
