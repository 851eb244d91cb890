"""The rules of Conquest of Nerath, one module per part of the turn."""
