"""Conquest of Nerath."""
