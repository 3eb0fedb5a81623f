"""What Do You Meme? (the betting game): react to a scenario, guess, bet, cash in.

Each turn one player, the reactor, rolls a scenario and picks a reaction meme
face down; the others guess it with a meme of their own; then both sides bet
on the guesses. Three rounds with tokens that earn $1 when right, then a
final round betting cash at even odds. The rules as refereed are in
``docs/rules.md``. Besides the modules every game has, ``betting`` holds the
betting arithmetic.
"""
