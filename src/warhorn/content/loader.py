"""Reading content files (TOML or YAML) into typed, frozen models.

Each game describes its content with pydantic models derived from
:class:`SourcedModel` (every item says where it comes from) and checks
cross-references with a :class:`ContentReport`, which gathers every mistake
with its file and key before refusing the folder as a whole.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

import pydantic

from warhorn.engine.errors import ContentError, ContentErrors

M = TypeVar("M", bound=pydantic.BaseModel)


class SourcedModel(pydantic.BaseModel):
    """A content item. ``source`` is ``"original"`` (designed by warhorn) or ``"fact: <where>"``."""

    model_config = pydantic.ConfigDict(frozen=True, extra="forbid")

    source: str

    @pydantic.field_validator("source")
    @classmethod
    def _source_is_honest(cls, value: str) -> str:
        if value != "original" and not (value.startswith("fact:") and len(value) > len("fact:") + 1):
            raise ValueError('source must be "original" or "fact: <where it comes from>"')
        return value


class ContentModel(pydantic.BaseModel):
    """A content file's top level (not itself an item, so no source)."""

    model_config = pydantic.ConfigDict(frozen=True, extra="forbid")


#: The largest content file read (the shipped files are all under 100 KB).
MAX_CONTENT_FILE_BYTES = 4 * 1024 * 1024
#: No number in a content file may be larger than this in size: every count, amount, price or
#: coordinate a board game needs is far smaller, and a larger one could only exhaust memory or time.
MAX_CONTENT_NUMBER = 100_000


def read_data_file(path: Path) -> dict[str, Any]:
    """Parse a TOML (or YAML, if PyYAML is installed) file; a mistake names the file and line or key.

    Refused with one :class:`ContentError` each: a file over :data:`MAX_CONTENT_FILE_BYTES`, bytes that
    are not UTF-8, a syntax error, nesting too deep to parse, and any number beyond
    :data:`MAX_CONTENT_NUMBER` (named by its key).
    """
    try:
        size = path.stat().st_size
        if size > MAX_CONTENT_FILE_BYTES:
            raise ContentError(
                str(path), "(file)", f"{size:,} bytes is too large (at most {MAX_CONTENT_FILE_BYTES:,})"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise ContentError(str(path), "(file)", f"cannot read it ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(
            str(path), "(encoding)", f"not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})"
        ) from None
    data = _parse(path, text)
    _check_numbers(path, data, "")
    return data


def _parse(path: Path, text: str) -> dict[str, Any]:
    if path.suffix == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ContentError(str(path), "(syntax)", str(exc)) from None
        except RecursionError:
            raise ContentError(str(path), "(syntax)", "nested too deeply to be content") from None
    if path.suffix in {".yaml", ".yml"}:
        try:
            import yaml  # type: ignore[import-untyped]
        except ImportError:
            raise ContentError(
                str(path), "(file)", "YAML content needs PyYAML: pip install 'warhorn[yaml]'"
            ) from None
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            raise ContentError(str(path), "(syntax)", " ".join(str(exc).split())) from None
        except RecursionError:
            raise ContentError(str(path), "(syntax)", "nested too deeply to be content") from None
        if not isinstance(data, dict):
            raise ContentError(str(path), "(top level)", "expected a mapping")
        return data
    raise ContentError(str(path), "(file)", f"unsupported content file type {path.suffix!r}")


def _check_numbers(path: Path, data: Any, key: str) -> None:
    """Refuse the first number anywhere in ``data`` whose size exceeds :data:`MAX_CONTENT_NUMBER`."""
    if isinstance(data, bool):
        return
    if isinstance(data, int | float):
        if not -MAX_CONTENT_NUMBER <= data <= MAX_CONTENT_NUMBER:
            shown = f"{data:.3g}" if isinstance(data, float) or abs(data) > 10**12 else f"{data:,}"
            raise ContentError(
                str(path),
                key or "(top level)",
                f"{shown} is out of range (numbers in content are at most {MAX_CONTENT_NUMBER:,} in size)",
            )
    elif isinstance(data, dict):
        for name, value in data.items():
            _check_numbers(path, value, f"{key}.{name}" if key else str(name))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            item_id = value.get("id") if isinstance(value, dict) else None
            label = f" (id {item_id})" if isinstance(item_id, str) else ""
            _check_numbers(path, value, f"{key}[{index}]{label}")


def _key(loc: Iterable[Any], data: Any) -> str:
    """A readable key path such as ``spaces[3].adjacent`` (or ``spaces.zaarnath`` for tables)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            label = ""
            if isinstance(data, list) and 0 <= part < len(data):
                item = data[part]
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    label = f" (id {item['id']})"
                data = item
            else:
                data = None
            out += f"[{part}]{label}"
        else:
            data = data.get(part) if isinstance(data, dict) else None
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def load_model(path: Path, model: type[M], data: dict[str, Any] | None = None) -> M:
    """Read ``path`` (unless ``data`` is given) and validate it as ``model``; errors name file and key."""
    raw = read_data_file(path) if data is None else data
    try:
        return model.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise ContentErrors(
            [ContentError(str(path), _key(err["loc"], raw), err["msg"]) for err in exc.errors()]
        ) from None


class ContentReport:
    """Gathers content mistakes; :meth:`raise_if_any` refuses the content with all of them."""

    def __init__(self) -> None:
        self.errors: list[ContentError] = []

    def error(self, file: str | Path, key: str, message: str) -> None:
        self.errors.append(ContentError(str(file), key, message))

    def check(self, ok: bool, file: str | Path, key: str, message: str) -> bool:
        if not ok:
            self.error(file, key, message)
        return ok

    def absorb(self, exc: ContentError | ContentErrors) -> None:
        if isinstance(exc, ContentErrors):
            self.errors.extend(exc.errors)
        else:
            self.errors.append(exc)

    def raise_if_any(self) -> None:
        if self.errors:
            raise ContentErrors(self.errors)


def content_hash(paths: Iterable[Path]) -> str:
    """SHA-256 over the files' names and bytes, in sorted order: the content identity a save records."""
    digest = hashlib.sha256()
    for path in sorted(paths, key=lambda p: p.name):
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
