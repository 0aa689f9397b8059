"""Issue 13: the HTML report in a real browser (Debian's headless Chromium through Selenium).

Chromium and chromium-driver come from Debian (``scripts/bootstrap.sh`` installs them with apt-get when
run as root); nothing is downloaded at run time (Selenium Manager is switched off by giving the driver's
path and SE_OFFLINE). Where they are not installed the test is skipped with the reason.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from tests.report.helpers import P0, make_report

CHROMIUM = next((p for p in ("/usr/bin/chromium", "/usr/bin/chromium-browser") if os.path.exists(p)), None)
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if os.path.exists("/usr/bin/chromedriver") else None)
WIDTH = 1280

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="Debian's chromium and chromium-driver are not installed (scripts/bootstrap.sh installs them as root: "
           "apt-get install chromium chromium-driver)")


@pytest.fixture(scope="module")
def browser():
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not download anything
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="rldp-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={WIDTH},900"):
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service(executable_path=DRIVER), options=opts)
    drv.set_page_load_timeout(60)
    try:
        yield drv
    finally:
        drv.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def page(browser, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    make_report(out)
    browser.get((out / "verification.html").as_uri())
    assert browser.execute_script("return document.readyState") == "complete"
    return browser


def test_loads_without_console_errors(page):
    errors = [e for e in page.get_log("browser") if e.get("level") == "SEVERE"]
    assert errors == [], errors
    assert page.title == "rldp-verify verification report"


def test_filter_hides_and_shows_claims(page):
    from selenium.webdriver.support.ui import Select

    def visible(verdict):
        return page.execute_script(
            "return Array.from(document.querySelectorAll(\"article.claim[data-verdict='\" + arguments[0] + \"']\"))"
            ".filter(e => e.offsetParent !== null).length", verdict)

    assert visible("VERIFIED") > 0 and visible("REFUTED") > 0
    Select(page.find_element("id", "f-verdict")).select_by_visible_text("REFUTED")
    assert visible("VERIFIED") == 0 and visible("REFUTED") == 2
    assert page.find_element("id", "f-count").text == "2 of 8 claims shown"
    Select(page.find_element("id", "f-kind")).select_by_value("false")
    assert visible("REFUTED") == 1
    page.find_element("id", "f-reset").click()
    Select(page.find_element("id", "f-paper")).select_by_value(P0)
    assert page.execute_script("return document.querySelectorAll(\"article.claim[data-paper='004_3b35ffa09c03afc4.txt']\")"
                               "[0].offsetParent") is None
    page.find_element("id", "f-reset").click()
    page.find_element("id", "f-text").send_keys("0.3782")
    assert visible("REFUTED") == 1 and visible("VERIFIED") == 0
    page.find_element("id", "f-reset").click()
    assert visible("VERIFIED") == 4


def test_every_toc_anchor_resolves(page):
    links = page.execute_script("return Array.from(document.querySelectorAll('#toc a')).map(a => a.getAttribute('href'))")
    assert len(links) >= 6
    missing = page.execute_script(
        "return Array.from(document.querySelectorAll('a[href^=\"#\"]')).map(a => a.getAttribute('href').slice(1))"
        ".filter(id => !document.getElementById(decodeURIComponent(id)))")
    assert missing == []


def test_no_element_wider_than_the_viewport(page):
    page.set_window_size(WIDTH, 900)
    width = page.execute_script("return document.documentElement.clientWidth")
    assert width <= WIDTH
    for d in page.find_elements("css selector", "details"):
        page.execute_script("arguments[0].open = true", d)
    wide = page.execute_script(
        "const w = document.documentElement.clientWidth;"
        "return Array.from(document.querySelectorAll('body *')).filter(e => e.offsetParent !== null)"
        ".map(e => [e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className, e.getBoundingClientRect().right])"
        ".filter(x => x[1] > w + 0.5).slice(0, 10)")
    assert wide == [], wide
    assert page.execute_script("return document.documentElement.scrollWidth") <= width


def test_every_image_loads(page):
    import time

    js = "return Array.from(document.images).map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])"
    deadline = time.monotonic() + 20
    imgs = page.execute_script(js)
    while not all(c for _, c, _ in imgs) and time.monotonic() < deadline:
        time.sleep(0.2)
        imgs = page.execute_script(js)
    assert imgs, "the sample report has a figure"
    broken = [src for src, complete, natural in imgs if not complete or natural == 0]
    assert broken == []
