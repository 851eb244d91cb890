"""The games shipped with warhorn, one package each.

Each package builds one :class:`~warhorn.engine.plugin.GamePlugin` in its ``plugin`` module,
named by an entry point of the ``warhorn.games`` group in ``pyproject.toml``; nothing here lists them.
"""
