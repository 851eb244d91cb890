"""The rules of Defenders of the Realm, one module per part of the game (see each module's docstring).

The modules form layers; each imports only modules listed before it (checked by
``tests/defenders/test_structure.py``), never one inside a function:

1. ``cards`` (decks, hands, Rumors' draw), ``combat`` (dice, re-rolls, rewards held),
   ``victory`` (how the game ends and who is King's Champion);
2. ``heroes`` (life, wounds, a hero's fall and replacement, where a hero may not go);
3. ``picks`` (targets chosen one at a time: opening, choices, settling);
4. ``quests`` (progress, completion, rewards);
5. ``minions`` (placement, overruns, taint, kills);
6. ``specials`` (purple cards and their windows);
7. ``battle`` (general battles), ``darkness`` (the night);
8. ``hero_actions`` (the Daytime actions);
9. ``turn`` (the automatic steps between decisions: a turn's start, evening, night, end);
10. ``decisions`` (who decides now, one handler per kind of decision) and ``setup``.

The records a state is made of are in :mod:`warhorn.games.defenders.records`; the state
(:mod:`warhorn.games.defenders.state`) asks ``decisions`` and ``turn``.
"""
