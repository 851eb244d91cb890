"""Content loading: per-game data files read into frozen pydantic models, every error with file and key."""

from warhorn.content.loader import (
    ContentReport,
    SourcedModel,
    content_hash,
    load_model,
    read_data_file,
)

__all__ = ["ContentReport", "SourcedModel", "content_hash", "load_model", "read_data_file"]
