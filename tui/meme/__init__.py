"""What Do You Meme? in the terminal.

``screen`` is the table and its keys; ``middle`` the part that changes with the phase,
filled from ``rows`` and ``betslip``; ``cards``, ``dice`` and ``money`` the widgets.
"""
