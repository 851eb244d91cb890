"""The web app: a FastAPI server for every registered game (``warhorn serve``).

Generic over the engine contract: it stores games, seats and actions in SQLite
or PostgreSQL, replays them to resume, drives AI seats, streams each seat's
view of the events, and never sends a seat what it may not see.
"""

from warhorn.server.app import create_app

__all__ = ["create_app"]
