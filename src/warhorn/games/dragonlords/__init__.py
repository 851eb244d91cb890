"""Quest for the DragonLords with the Crystal of Power expansion (game id ``dragonlords``, issue #17).

Not registered yet: the package holds the content (``content.py``, ``data/``) and, from helper
``dlx-world``, the world (``world.py``, ``data/world/``). The base rules no source gives are
reconstructed in ``docs/dragonlords-reconstruction.md`` (DLR-*); the expansion's rules are the
digest ``shared/rules/quest-for-the-dragonlords.md`` (DLX-*).
"""
