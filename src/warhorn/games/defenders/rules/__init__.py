"""The rules of Defenders of the Realm, one module per part of the game (see each module's docstring)."""
