"""`card.json`: every number on the card, with its interval, in a documented and versioned layout.

The file is `dataclasses.asdict` of the `Card` (`lgmt_tasks.card.content`), with NaN written as null (JSON has no
NaN) and keys in the dataclasses' order. Its layout is described by `card.schema.json` (JSON Schema 2020-12), shipped
beside this module, and versioned by `CARD_SCHEMA_VERSION`: a leaderboard that ingests cards can check the version
and validate a file (`validate`) before trusting a field. The schema is written by hand, so that it documents each
field; a test validates the cards of real runs against it and checks that it names every field of the dataclasses.
"""

from __future__ import annotations

import dataclasses
import json
import math
from importlib import resources
from pathlib import Path
from typing import Any

from lgmt_tasks.card.content import Card

CARD_SCHEMA_VERSION = "1.0"
"""The version of `card.json`'s layout: the first number changes when a field changes meaning or goes away, the second
when fields are added (a reader of 1.x can read any 1.y file)."""

SCHEMA_FILE = "card.schema.json"
"""The schema's file name, shipped in this package (`schema()` reads it)."""

CARD_JSON = "card.json"


def _clean(value: Any) -> Any:
    """NaN and infinities to None, recursively (the dataclasses hold floats from pandas)."""
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value


def card_data(card: Card) -> dict[str, Any]:
    """The card as JSON-ready data (what `card.json` holds)."""
    data: dict[str, Any] = _clean(dataclasses.asdict(card))
    return data


def card_text(card: Card) -> str:
    """`card.json`'s text: indented, UTF-8 characters kept, a final newline."""
    return json.dumps(card_data(card), indent=2, ensure_ascii=False, default=str) + "\n"


def write_json(card: Card, folder: Path) -> Path:
    """Write `folder/card.json` and return its path."""
    path = folder / CARD_JSON
    path.write_text(card_text(card), encoding="utf-8")
    return path


def schema() -> dict[str, Any]:
    """The JSON Schema of `card.json` (`card.schema.json`, shipped in the package)."""
    text = resources.files("lgmt_tasks.card").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def validate(data: dict[str, Any]) -> None:
    """Check card data (a loaded `card.json`) against the schema.

    Raises:
        ValueError: One line naming the first field that does not fit, and why.
    """
    import jsonschema  # a dependency of Inspect's, so always installed; imported only when a card is checked

    try:
        jsonschema.validate(data, schema())
    except jsonschema.ValidationError as error:
        where = "/".join(str(part) for part in error.absolute_path) or "(top)"
        raise ValueError(f"card.json does not fit its schema at {where}: {error.message}") from None
