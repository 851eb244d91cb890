"""Defenders of the Realm (Eagle Games, 2010): a cooperative game against four invading generals.

``content`` holds the board, generals, heroes and decks as validated data
(``data/*.toml``); the rules live in their own modules, and the game plugin (spec,
factory, content, AI, web board) is :mod:`.plugin`.
"""
