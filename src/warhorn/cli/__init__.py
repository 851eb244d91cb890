"""The ``warhorn`` command line."""
