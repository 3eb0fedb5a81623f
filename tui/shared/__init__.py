"""Reusable widgets: cards, hand, shirt, scoreboard, chat, log, seats."""
