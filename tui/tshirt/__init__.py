"""The T-Shirt Game in the terminal.

``screen`` is the table (shirt, slogans, scores, log); ``text`` its words;
``dialogs`` the Booyah choice; ``results`` the end; ``help`` the rules;
``cards``, ``shirt`` and ``scoreboard`` the widgets.
"""
