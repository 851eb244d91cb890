"""Browser tests: Debian's headless Chromium driven by Selenium against a real server on loopback.

Fixtures:

- ``web_server``: a live uvicorn server (``.url``) on a fresh SQLite file in ``tmp_path``;
  ``open_web_server(ai_delay=…)`` starts one with other settings.
- ``open_browser()``: a headless Chromium (a separate profile each call, so two calls are two
  players). The first call of a test lends the session's one shared Chromium, cleaned between tests
  as if new (one blank tab, the usual window size, the data the test's servers' pages stored cleared,
  no console messages left): starting a Chromium costs seconds on a loaded machine. Further calls
  start browsers that are quit after the test. ``browser`` is the first.
- ``screenshot(driver, name)``: saves ``name.png`` in the test's ``tmp_path`` and, when
  ``WARHORN_UPDATE_SCREENSHOTS=1``, also as ``docs/screenshots/name.png``.
- ``js_errors(driver)``: the severe messages of the page's console so far (a test can assert none).

Only Debian's packages are used (``chromium`` and ``chromium-driver``: /usr/bin/chromium and
/usr/bin/chromedriver, or WARHORN_CHROMIUM / WARHORN_CHROMEDRIVER); no browser is downloaded. Without
them the tests are skipped saying why, or fail when ``WARHORN_REQUIRE_SERVICES=1`` (as in CI).
"""

from __future__ import annotations

import contextlib
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

#: The origins (``http://127.0.0.1:PORT``) of the servers started since the shared browser was last
#: cleaned: their stored data is cleared before another test gets the browser.
_ORIGINS_USED: list[str] = []


@pytest.fixture
def open_web_server(tmp_path: Path) -> Iterator[OpenWebServer]:
    """``open_web_server(ai_delay=0.0)``: a live server on ``tmp_path/warhorn.sqlite3``, stopped at end."""
    with ExitStack() as stack:

        def opener(ai_delay: float = 0.0) -> LiveServer:
            url = f"sqlite:///{tmp_path / 'warhorn.sqlite3'}"
            server = stack.enter_context(LiveServer(create_app(url, ai_delay=ai_delay)))
            _ORIGINS_USED.append(server.url)
            return server

        yield opener


@pytest.fixture
def web_server(open_web_server: OpenWebServer) -> LiveServer:
    return open_web_server()


OpenBrowser = Callable[[], Any]


def _start_chromium(chromium: tuple[str, str], profile: Path) -> Any:
    """A headless Chromium WebDriver with the profile folder ``profile``."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must not try to download anything
    options = webdriver.ChromeOptions()
    options.binary_location = chromium[0]
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=chromium[1]))
    driver.set_window_size(*WINDOW)
    driver.implicitly_wait(0)
    return driver


def _clean(driver: Any) -> None:
    """Leave the browser as a new one would be for the next test: one tab on a blank page, the usual
    window size, no data stored by the pages of the servers used so far, no console messages left."""
    for handle in driver.window_handles[1:]:
        driver.switch_to.window(handle)
        driver.close()
    driver.switch_to.window(driver.window_handles[0])
    driver.get("about:blank")
    for origin in _ORIGINS_USED:
        driver.execute_cdp_cmd("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    _ORIGINS_USED.clear()
    driver.set_window_size(*WINDOW)
    driver.get_log("browser")


class _SharedBrowser:
    """One Chromium lent to one test at a time (starting one costs seconds on a loaded machine), cleaned
    between tests (:func:`_clean`); one that cannot be cleaned is quit and the next test starts another."""

    def __init__(self, chromium: tuple[str, str], profiles: pytest.TempPathFactory) -> None:
        self.chromium = chromium
        self.profiles = profiles
        self.driver: Any = None

    def lend(self) -> Any:
        if self.driver is None:
            self.driver = _start_chromium(self.chromium, self.profiles.mktemp("chromium-profile"))
        return self.driver

    def take_back(self) -> None:
        if self.driver is None:
            return
        try:
            _clean(self.driver)
        except Exception:
            self.quit()

    def quit(self) -> None:
        if self.driver is not None:
            with contextlib.suppress(Exception):
                self.driver.quit()
            self.driver = None


@pytest.fixture(scope="session")
def _shared_browser(
    chromium: tuple[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[_SharedBrowser]:
    shared = _SharedBrowser(chromium, tmp_path_factory)
    yield shared
    shared.quit()


@pytest.fixture
def open_browser(
    chromium: tuple[str, str], _shared_browser: _SharedBrowser, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[OpenBrowser]:
    """``open_browser()``: a headless Chromium WebDriver with its own profile, so two calls are two
    players. The first of a test is the session's shared browser, cleaned as new (:func:`_clean`); the
    others are started for the test and quit after it."""
    lent: list[Any] = []
    started: list[Any] = []

    def opener() -> Any:
        if not lent:
            lent.append(_shared_browser.lend())
            return lent[0]
        driver = _start_chromium(chromium, tmp_path_factory.mktemp("chromium-profile"))
        started.append(driver)
        return driver

    yield opener
    for driver in started:
        driver.quit()
    if lent:
        _shared_browser.take_back()
    else:
        _ORIGINS_USED.clear()  # no page of this test's servers was opened in the shared browser


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
