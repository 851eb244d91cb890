"""Small World of Warcraft AI: the heuristic player."""
