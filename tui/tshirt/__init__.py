"""The T-Shirt Game in the terminal: ``screen`` is the table; ``cards`` and ``shirt`` its
widgets, ``dialogs`` the Booyah choice."""
