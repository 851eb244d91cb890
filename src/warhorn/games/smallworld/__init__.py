"""Small World of Warcraft (Days of Wonder / Blizzard, 2020): 2-5 players conquer islands with
race and power combos, put races into decline and count victory coins.

``content`` holds the races, powers, artifacts, places and the box's numbers as validated data
(``data/*.toml``); ``board`` the islands; the rules, the state and the registration live in their
own modules.
"""
