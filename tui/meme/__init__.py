"""What Do You Meme? in the terminal.

``screen`` is the table and its keys; ``middle`` the part that changes with
the phase (roll-off, scenario, memes, guesses, betting, reveal), filled from
``rows`` and ``betting``; ``text`` its words and rules; ``dialogs`` writing a
scenario and the last turn; ``results`` the end; ``replay`` a finished game;
``cards``, ``dice``, ``money`` and ``table`` the widgets.
"""
