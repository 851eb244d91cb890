"""Quest for the DragonLords in the browser.

:mod:`.layout` builds the public drawing of the world; ``dragonlords.js`` and ``dragonlords.css``
draw it with the pieces of the seat's view. The game's plugin names this package as its
``web_assets`` and ``warhorn.games.dragonlords.web.layout:dragonlords_layout`` as its ``board_layout``.
"""
