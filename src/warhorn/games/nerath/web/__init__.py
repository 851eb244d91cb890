"""Conquest of Nerath in the browser.

:mod:`.layout` builds the public board layout; ``nerath.js`` (with any other ``nerath.*``
file here) draws it. The game's plugin names this package as its ``web_assets``, so the
server serves those files at ``/static/games/``.
"""
