"""What Do You Meme?: react to a scenario, guess the reaction, bet on the guesses.

The rules as refereed are in ``docs/rules.md``; ``betting`` holds the betting arithmetic.
"""
