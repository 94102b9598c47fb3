"""The model card's HTML as a reader sees it: `card.html` opened in a real headless browser (Debian's `chromium`).

A string check on the HTML cannot tell whether a browser builds the sections we wrote, logs errors on opening it, or
paints a blank page; a browser can. The card is made by `write_cards` from real Inspect logs of all five suites
(`tests/card/conftest.py`: a scripted mock model on the committed builds); Chromium then dumps the DOM it built,
with its console routed to stderr, and takes a screenshot. The console and screenshot checks are themselves run on
pages that must fail them (a `console.error`, an uncaught error, a blank page), so a clean card means "nothing was
logged" and "something was painted", not "the check could see nothing".

Chromium is the Debian package that `make test` installs as it installs E (`make chromium`). Without it these tests
skip with a warning; with `CI` set they fail, since CI must not pass with the browser checks skipped.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import warnings
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path

import pytest
from inspect_ai.log import EvalLog
from PIL import Image, ImageChops

from lgmt_tasks.suites import SUITE_NAMES

BROWSER = "chromium"
SECTIONS = ("provenance", "suites", *SUITE_NAMES, "not-comparable")
"""The `<section id=...>` every card has: provenance first (as the issue asks), then one per suite of the registry."""
WINDOW = (1280, 2400)

CONSOLE_LINE = re.compile(r"^\[[^\]\n]*:CONSOLE\b[^\]\n]*\]\s*(.*)$", re.MULTILINE)
"""A console message in Chromium's stderr log, `[pid:tid:time:INFO:CONSOLE:12] "text", source: url (12)` (older
builds write `CONSOLE(12)`). Every console level is logged as INFO, so levels cannot be told apart here: the card has
no script, so any console message at all is a finding (and `console.error` or an uncaught error is one)."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------------------------------------ the browser


def require_chromium() -> str:
    """The browser's path; without it, fail under CI (the browser checks must run there) and skip with a warning
    elsewhere (a skip alone is easy to miss in a long run)."""
    found = shutil.which(BROWSER)
    if found:
        return found
    message = f"Chromium (`{BROWSER}`) is not installed: apt-get install -y chromium, or `make chromium` as root"
    if os.environ.get("CI"):
        pytest.fail(f"{message}; CI must open the card in a browser, not skip it", pytrace=False)
    warnings.warn(f"{message}; the card's browser tests are skipped", stacklevel=2)
    pytest.skip(message)


@pytest.fixture(scope="module")
def chromium() -> str:
    return require_chromium()


def run_chromium(binary: str, page: Path, profile: Path, *action: str) -> subprocess.CompletedProcess[str]:
    """One headless launch on a local file. Each launch gets its own profile folder: Chromium hands a launch that
    shares a profile with a running instance over to that instance (a developer's open browser, a parallel test)."""
    command = [
        binary,
        "--headless=new",
        "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
        "--disable-gpu",
        "--disable-dev-shm-usage",  # containers often have a small /dev/shm
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        *action,
        page.resolve().as_uri(),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, f"{' '.join(command)} exited {done.returncode}:\n{done.stderr[-3000:]}"
    return done


def dump_dom(binary: str, page: Path, profile: Path) -> tuple[str, list[str]]:
    """The DOM Chromium built from the page (after scripts ran, within 2 s of virtual time), and its console lines."""
    done = run_chromium(binary, page, profile, "--virtual-time-budget=2000", "--dump-dom")
    return done.stdout, console_messages(done.stderr)


def screenshot(binary: str, page: Path, profile: Path, png: Path) -> bytes:
    run_chromium(binary, page, profile, f"--screenshot={png}", f"--window-size={WINDOW[0]},{WINDOW[1]}")
    return png.read_bytes()


def console_messages(stderr: str) -> list[str]:
    """The console messages in Chromium's stderr (its own log lines, such as D-Bus errors, are not the page's)."""
    return CONSOLE_LINE.findall(stderr)


class Sections(HTMLParser):
    """The text inside each `<section id=...>` of a DOM, and any resource it would load from the network."""

    def __init__(self, dom: str) -> None:
        super().__init__()
        self.text: dict[str, list[str]] = {}
        self.open: list[str | None] = []
        self.external: list[str] = []
        self.plots = 0
        self.feed(dom)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "section":
            self.open.append(found.get("id"))
            self.text.setdefault(found.get("id") or "", [])
        if tag == "svg" or (tag == "img" and (found.get("src") or "").startswith("data:image/")):
            self.plots += 1
        loads = found.get("src") or (found.get("href") if tag == "link" else None) or ""
        if re.match(r"(https?:)?//", loads):
            self.external.append(f"<{tag}> {loads}")

    def handle_endtag(self, tag: str) -> None:
        if tag == "section" and self.open:
            self.open.pop()

    def handle_data(self, data: str) -> None:
        for name in self.open:
            self.text[name or ""].append(data)

    def words(self, name: str) -> str:
        return " ".join(" ".join(self.text.get(name, [])).split())


def painted(png: bytes) -> list[str]:
    """What is wrong with a screenshot of a page with content: empty or no PNG, the wrong size, one colour, or so
    little painted that the page looks blank (a blank 1280 × 2400 page is a ~14 KB one-colour PNG)."""
    if not png.startswith(PNG_SIGNATURE):
        return ["not a PNG"]
    problems = [] if len(png) > 20_000 else [f"only {len(png)} bytes"]
    image = Image.open(BytesIO(png)).convert("RGB")
    if image.size != WINDOW:
        problems.append(f"size {image.size}, not {WINDOW}")
    colours = image.getcolors(maxcolors=1 << 16)
    if colours is not None and len(colours) < 16:
        problems.append(f"{len(colours)} colours")
    background = Image.new("RGB", image.size, image.getpixel((0, 0)))  # type: ignore[arg-type]
    box = ImageChops.difference(image, background).getbbox()
    if box is None or box[3] - box[1] < image.size[1] // 4:
        problems.append(f"content spans {0 if box is None else box[3] - box[1]} px of {image.size[1]}")
    return problems


# ------------------------------------------------------------------------------------------------ the checks check


@pytest.mark.parametrize(
    ("script", "expected"),
    [
        ('console.error("deliberate console error")', "deliberate console error"),
        ("null.field", "Uncaught TypeError"),
    ],
    ids=["console.error", "uncaught-error"],
)
def test_the_console_check_sees_a_logged_error_and_an_uncaught_one(
    chromium: str, tmp_path: Path, script: str, expected: str
) -> None:
    page = tmp_path / "bad.html"
    page.write_text(f'<!doctype html><section id="x">text</section><script>{script}</script>', encoding="utf-8")
    dom, console = dump_dom(chromium, page, tmp_path / "profile")
    assert 'id="x"' in dom
    assert len(console) == 1 and expected in console[0], console


def test_the_screenshot_check_rejects_a_blank_page(chromium: str, tmp_path: Path) -> None:
    page = tmp_path / "blank.html"
    page.write_text("<!doctype html><title>blank</title>", encoding="utf-8")
    problems = painted(screenshot(chromium, page, tmp_path / "profile", tmp_path / "blank.png"))
    assert any("colours" in p for p in problems) and any("content spans" in p for p in problems), problems


def test_a_missing_browser_skips_with_a_warning_but_fails_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(f"{__name__}.BROWSER", "no-such-browser-lgmt")
    monkeypatch.delenv("CI", raising=False)
    with pytest.warns(UserWarning, match="browser tests are skipped"), pytest.raises(pytest.skip.Exception):
        require_chromium()
    monkeypatch.setenv("CI", "1")
    with pytest.raises(pytest.fail.Exception, match="CI must open the card"):
        require_chromium()


def test_the_section_reader_finds_nested_text_and_network_loads() -> None:
    dom = (
        '<section id="a"><h2>A</h2><p>one <b>two</b></p><section id="b">three</section></section>'
        '<section id="c"></section><img src="https://example.com/x.png"><link rel="stylesheet" href="//cdn/x.css">'
        '<a href="https://example.com">a link loads nothing</a><svg></svg>'
    )
    found = Sections(dom)
    assert (found.words("a"), found.words("b"), found.words("c")) == ("A one two three", "three", "")
    assert found.external == ["<img> https://example.com/x.png", "<link> //cdn/x.css"] and found.plots == 1


# ------------------------------------------------------------------------------------------------ the card


@pytest.fixture(scope="module")
def card(five_suite_logs: dict[str, EvalLog], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`card.html` of the one model in real logs of all five suites (`tests/card/conftest.py`)."""
    from lgmt_tasks.card import write_cards

    [folder] = write_cards([log.location for log in five_suite_logs.values()], tmp_path_factory.mktemp("card-browser"))
    return folder / "card.html"


@pytest.fixture(scope="module")
def card_dom(chromium: str, card: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[str]]:
    return dump_dom(chromium, card, tmp_path_factory.mktemp("chromium-profile"))


def test_the_card_opens_without_console_messages(card_dom: tuple[str, list[str]]) -> None:
    dom, console = card_dom
    assert "<html" in dom and console == []


def test_every_section_is_in_the_browser_s_dom_with_text_and_nothing_loads_from_the_network(
    card_dom: tuple[str, list[str]],
) -> None:
    found = Sections(card_dom[0])
    assert {name: bool(found.words(name)) for name in SECTIONS} == dict.fromkeys(SECTIONS, True)
    assert next(name for name in found.text if name in SECTIONS) == "provenance"  # the issue: provenance first
    assert found.external == [] and found.plots > 0


def test_the_card_screenshot_shows_a_painted_page(chromium: str, card: Path, tmp_path: Path) -> None:
    png = screenshot(chromium, card, tmp_path / "profile", tmp_path / "card.png")
    assert painted(png) == []
