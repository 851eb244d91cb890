"""warhorn's games for reinforcement-learning libraries (the optional extra ``warhorn[rl]``).

- :mod:`warhorn.interop.action_index`: the fixed token vocabulary every action is coded in;
- :mod:`warhorn.interop.observation`: what a player sees as a fixed-shape float32 vector (the game's
  own encoder, ``GamePlugin.observation``, or its view hashed);
- :mod:`warhorn.interop.pettingzoo`: every registered game as a PettingZoo AEC environment;
- :mod:`warhorn.interop.gymnasium`: one seat of every registered game as a Gymnasium environment.

Every registered game (:func:`warhorn.engine.registry.registered_games`) gets these with no code
of its own. The rules core never imports this package. See ``docs/interop.md``.
"""
