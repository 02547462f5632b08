"""Screenshots of every page at desktop (1280 px) and phone (390 px) widths, into
docs/screenshots/<page>-desktop.png and <page>-phone.png (BINDERY_SCREENSHOT_DIR moves
them). Each scene is first used a little, as a visitor would, so the picture shows it
working. Starts the real .build/debug/bindery like the browser tests.

    /tmp/bindery-test-venv/bin/python Tests/Browser/screenshots.py [page ...]
"""

import os
import sys
import time
from pathlib import Path

from harness import DOC_SCREENSHOTS, By, Page, Server, new_driver

SCREENSHOTS = Path(os.environ.get("BINDERY_SCREENSHOT_DIR", DOC_SCREENSHOTS))

WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}


def use_colors(p):
    p.widget("picker").find_elements(By.TAG_NAME, "button")[1].click()
    p.until(lambda: p.text("valueLabel") == "Green")
    p.js("const s = arguments[0]; s.value = 0.8; s.dispatchEvent(new Event('input', {bubbles: true}))", p.widget("whiteSlider"))
    p.until(p.settled)


def use_counter(p):
    p.widget("textField").send_keys("안녕하세요, Bindery")
    p.until(lambda: p.text("countLabel") == "14개")


def use_date(p):
    p.widget("nowButton").click()
    p.until(lambda: p.widget("dateField").get_attribute("value") != "")


def use_login(p):
    p.widget("email").send_keys("user@example.com")
    p.widget("password").send_keys("hunter2")
    p.until(lambda: p.widget("loginButton").is_enabled())
    p.widget("loginButton").click()
    p.until(lambda: p.text("status").startswith("Signed in"), timeout=10)


def use_repos(p):
    for n in (20, 40):
        p.widget("loadMoreButton").click()
        p.until(lambda: len(p.rows("repoList")) == n)


def use_echo(p):
    p.widget("input").send_keys("Hello from the browser")
    p.until(lambda: p.text("output") == "HELLO FROM THE BROWSER")


def use_chart(p):
    # A few samples in, and a vote, so every chart has something to show.
    p.widget("applesButton").click()
    p.widget("pearsButton").click()
    p.widget("pearsButton").click()
    time.sleep(4)


def use_gallery(p):
    p.until(lambda: p.widget("photoGrid").find_elements(By.CSS_SELECTOR, "[role=option]"))
    p.widget("photoGrid").find_elements(By.CSS_SELECTOR, "[role=option]")[1].click()
    p.until(lambda: "Shells" in p.text("selectionLabel") or p.text("selectionLabel").startswith("Selected"))


PAGES = {
    "index": ("/", None),
    "colors": ("/scene/colors", use_colors),
    "counter": ("/scene/counter", use_counter),
    "date": ("/scene/date", use_date),
    "login": ("/scene/login", use_login),
    "repos": ("/scene/repos", use_repos),
    "echo": ("/scene/echo", use_echo),
    "board": ("/scene/board", None),
    "chart": ("/scene/chart", use_chart),
    "gallery": ("/scene/gallery", use_gallery),
    "upload": ("/scene/upload", None),
    "colors-attach": ("/examples/colors.html", None),
    # The dark theme (the system's preference, forced here with <html data-theme="dark">).
    "colors-dark": ("/scene/colors", use_colors),
    "login-dark": ("/scene/login", use_login),
}


def shoot(server, names):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in WIDTHS.items():
        driver = new_driver(width, height)
        try:
            p = Page(driver, server.base)
            for name in names:
                path, use = PAGES[name]
                p.fresh()
                driver.set_window_size(width, height)
                driver.get(server.base + path)
                if path != "/":
                    p.wait_connected()
                else:
                    p.until(lambda: driver.find_elements(By.CSS_SELECTOR, "a.bd-scene-link"))
                if name.endswith("-dark"):
                    p.js("document.documentElement.dataset.theme = 'dark'")
                if use:
                    use(p)
                p.js("document.activeElement?.blur(); window.scrollTo(0, 0)")
                time.sleep(0.4)  # transitions and toasts settle
                # The whole page: grow the window to the document's height (capped).
                full = p.js("return document.documentElement.scrollHeight")
                driver.set_window_size(width, min(max(height, full + 130), 2000))
                time.sleep(0.2)
                out = SCREENSHOTS / f"{name}-{label}.png"
                driver.save_screenshot(str(out))
                print(out)
        finally:
            driver.quit()


if __name__ == "__main__":
    names = sys.argv[1:] or list(PAGES)
    server = Server()
    try:
        shoot(server, names)
    finally:
        server.stop()
