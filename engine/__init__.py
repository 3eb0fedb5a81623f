"""The rules of every partyhost game, as pure functions over plain data.

Nothing in this package does I/O, reads a clock or touches the network: time
comes in as an argument and randomness comes from the seeded generator kept in
each game's state, so any game can be replayed exactly from its seed and its
accepted commands. The contract is in :mod:`partyhost.engine.core`.
"""
