"""The errors the server answers with: an HTTP status, a short code and a message in words."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A refusal sent to the client as ``{"error": message, "code": code, ...extra}``."""

    def __init__(self, status: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra

    def body(self) -> dict[str, Any]:
        return {"error": self.message, "code": self.code, **self.extra}


def not_found(what: str) -> ApiError:
    return ApiError(404, "not_found", what)
