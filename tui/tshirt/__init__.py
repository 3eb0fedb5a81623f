"""The T-Shirt Game in the terminal: ``screen`` is the table; ``cards`` its widgets
(the slogans and the shirt), ``dialogs`` the Booyah choice."""
