"""Small World of Warcraft in the browser.

:mod:`.layout` builds the public board layout; ``smallworld.js`` and ``smallworld.css`` draw it.
The game's plugin names this package as its ``web_assets`` and
``warhorn.games.smallworld.web.layout:smallworld_layout`` as its ``board_layout``.
"""
