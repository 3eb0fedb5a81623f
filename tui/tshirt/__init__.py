"""The T-Shirt Game in the terminal.

``screen`` is the table (shirt, slogans, scores, log); ``text`` its words and
rules; ``dialogs`` the Booyah choice; ``results`` the end; ``replay`` a
finished game; ``cards`` and ``shirt`` the widgets.
"""
