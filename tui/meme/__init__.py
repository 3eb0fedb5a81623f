"""What Do You Meme? in the terminal.

``screen`` is the table and its keys; ``middle`` the part that changes with the phase and
the money beside it, filled from ``rows`` (the bet too); ``cards`` the memes and the dice.
"""
