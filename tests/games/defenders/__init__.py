"""Tests of the Defenders of the Realm game."""
