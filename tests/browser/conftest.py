"""Browser tests: Debian's headless Chromium driven by Selenium against a real server on loopback.

Fixtures:

- ``web_server``: a live uvicorn server (``.url``) on a fresh SQLite file in ``tmp_path``;
  ``open_web_server(ai_delay=…)`` starts one with other settings.
- ``open_browser()``: a new headless Chromium (a separate profile each call, so two calls are two
  players); all are closed after the test. ``browser`` is one of them.
- ``screenshot(driver, name)``: saves ``name.png`` in the test's ``tmp_path`` and, when
  ``WARHORN_UPDATE_SCREENSHOTS=1``, also as ``docs/screenshots/name.png``.
- ``js_errors(driver)``: the severe messages of the page's console so far (a test can assert none).

Only Debian's packages are used (``chromium`` and ``chromium-driver``: /usr/bin/chromium and
/usr/bin/chromedriver, or WARHORN_CHROMIUM / WARHORN_CHROMEDRIVER); no browser is downloaded. Without
them the tests are skipped saying why, or fail when ``WARHORN_REQUIRE_SERVICES=1`` (as in CI).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import LiveServer
from warhorn.server import create_app

REQUIRE_SERVICES = os.environ.get("WARHORN_REQUIRE_SERVICES") == "1"
UPDATE_SCREENSHOTS = os.environ.get("WARHORN_UPDATE_SCREENSHOTS") == "1"
DOCS_SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WINDOW = (1400, 1000)

#: Flags for a headless Chromium on a machine without a screen or outside network.
CHROMIUM_FLAGS = (
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    f"--window-size={WINDOW[0]},{WINDOW[1]}",
)


def _executable(env: str, default: str) -> str | None:
    path = os.environ.get(env) or default
    return path if os.path.exists(path) else shutil.which(Path(path).name)


@pytest.fixture(scope="session")
def chromium() -> tuple[str, str]:
    """Paths of Debian's Chromium and ChromeDriver (skip, or fail under WARHORN_REQUIRE_SERVICES=1)."""
    browser = _executable("WARHORN_CHROMIUM", "/usr/bin/chromium")
    driver = _executable("WARHORN_CHROMEDRIVER", "/usr/bin/chromedriver")
    problems = []
    if browser is None:
        problems.append("no chromium (Debian package 'chromium')")
    if driver is None:
        problems.append("no chromedriver (Debian package 'chromium-driver')")
    try:
        import selenium  # noqa: F401
    except ImportError:
        problems.append("selenium is not installed (pip install -e '.[dev]')")
    if problems:
        reason = "browser tests cannot run: " + ", ".join(problems)
        if REQUIRE_SERVICES:
            pytest.fail(reason + " [WARHORN_REQUIRE_SERVICES=1]")
        pytest.skip(reason)
    assert browser is not None and driver is not None
    return browser, driver


OpenWebServer = Callable[..., LiveServer]


@pytest.fixture
def open_web_server(tmp_path: Path) -> Iterator[OpenWebServer]:
    """``open_web_server(ai_delay=0.0)``: a live server on ``tmp_path/warhorn.sqlite3``, stopped at end."""
    with ExitStack() as stack:

        def opener(ai_delay: float = 0.0) -> LiveServer:
            url = f"sqlite:///{tmp_path / 'warhorn.sqlite3'}"
            return stack.enter_context(LiveServer(create_app(url, ai_delay=ai_delay)))

        yield opener


@pytest.fixture
def web_server(open_web_server: OpenWebServer) -> LiveServer:
    return open_web_server()


OpenBrowser = Callable[[], Any]


@pytest.fixture
def open_browser(
    chromium: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[OpenBrowser]:
    """``open_browser()``: a new headless Chromium WebDriver with its own profile; all quit after the test."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not try to download anything
    drivers: list[Any] = []

    def opener() -> Any:
        options = webdriver.ChromeOptions()
        options.binary_location = chromium[0]
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service(executable_path=chromium[1]))
        driver.set_window_size(*WINDOW)
        driver.implicitly_wait(0)
        drivers.append(driver)
        return driver

    yield opener
    for driver in drivers:
        driver.quit()


@pytest.fixture
def browser(open_browser: OpenBrowser) -> Any:
    return open_browser()


@pytest.fixture
def screenshot(tmp_path: Path) -> Callable[[Any, str], Path]:
    def take(driver: Any, name: str) -> Path:
        path = tmp_path / f"{name}.png"
        driver.save_screenshot(str(path))
        if UPDATE_SCREENSHOTS:
            DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, DOCS_SCREENSHOTS / f"{name}.png")
        return path

    return take


def js_errors(driver: Any) -> list[str]:
    """The page's severe console messages since the last call (e.g. uncaught exceptions, failed loads)."""
    return [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
