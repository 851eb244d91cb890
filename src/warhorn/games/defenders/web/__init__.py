"""Defenders of the Realm in the browser.

:mod:`.layout` builds the public board layout; ``defenders.js`` (with any other ``defenders.*``
file here) draws it. The game's plugin names this package as its ``web_assets``, so the
server serves those files at ``/static/games/``.
"""
