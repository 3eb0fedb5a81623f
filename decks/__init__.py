"""Deck files: the shipped decks (``*.yaml`` beside this module) and how any deck file is read."""
