"""The parameter table of every suite README, written from the suite's schema (`python -m` this module).

Like inspect_evals' generated Parameters blocks: the table sits between two HTML comments in
`lgmt_tasks/<suite>/README.md` and is replaced whole; `tests/builders/test_schema.py` checks it is current.
"""

from __future__ import annotations

import re
from pathlib import Path

from lgmt_tasks.suites import SUITES, Suite

START = "<!-- parameters: generated from the schema by `python -m lgmt_tasks.builders.parameters_doc` -->"
END = "<!-- parameters: end -->"
_BLOCK = re.compile(re.escape(START) + r".*?" + re.escape(END), re.DOTALL)


def readme_path(entry: Suite) -> Path:
    """The suite's README."""
    return Path(entry.module("config").__file__ or "").parent / "README.md"


def block(entry: Suite) -> str:
    """The generated block: markers and the schema's table."""
    return f"{START}\n{entry.module('config').SCHEMA.markdown_table()}\n{END}"


SECTION = "## Tasks and parameters"
"""The suite README section the table belongs to (`tests/test_readme.py` fixes the sections of every suite README)."""


def rendered(entry: Suite, text: str) -> str:
    """The README text with its block replaced (added at the end of `SECTION` when it has none)."""
    if START in text:
        return _BLOCK.sub(lambda _: block(entry), text)
    start = text.index(SECTION)
    end = text.find("\n## ", start + len(SECTION))
    end = len(text) if end < 0 else end + 1
    intro = "The dataset parameters, declared once in `config.py` (flags, `-T` names, lm-eval keys and defaults):"
    return text[:end].rstrip("\n") + f"\n\n{intro}\n\n{block(entry)}\n\n" + text[end:]


def main() -> None:
    """Rewrite the block of every suite README."""
    for entry in SUITES:
        path = readme_path(entry)
        path.write_text(rendered(entry, path.read_text(encoding="utf-8")), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
