"""warhorn: plays, analyses and simulates fantasy conquest board games by their rules."""

__version__ = "0.1.0"
