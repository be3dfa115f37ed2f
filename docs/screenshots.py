"""Make the explorer's screenshots in docs/ from pages that ``fnmcts explore`` writes.

    python docs/screenshots.py

Needs the test extra (selenium) and Debian's chromium and chromium-driver. Each
picture is a page opened from disk in headless Chromium (no network) at a
projector's 1024x768 or a larger 1400x1000, moved to a dive and a phase (or
left where it opens, on the finished search), a node clicked, and the window
saved as PNG.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DOCS = Path(__file__).resolve().parent

SHOTS = (
    # (picture, (width, height), fnmcts explore arguments, dive (None: where the page opens), phase,
    #  node to click: the root's child by its move text)
    ("explore-tic-tac-toe.png", (1400, 1000),
     ["tic-tac-toe", "--dives", "300", "--seed", "1", "--vs-rule", "ucb1", "--vs-c", "0.5"], 120, 1, "X at 4"),
    ("explore-shut-the-box.png", (1024, 768), ["shut-the-box", "--dives", "500", "--seed", "2017"], 400, 0, "flip 9"),
    ("explore-nim.png", (1024, 768), ["nim", "--dives", "300", "--seed", "1"], None, 0, None),
)


def main() -> int:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    folder = Path(tempfile.mkdtemp(prefix="fnmcts-shots-"))
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--hide-scrollbars", f"--user-data-dir={folder / 'profile'}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)
    try:
        for picture, (width, height), arguments, dive, phase, click in SHOTS:
            page = folder / (picture[:-4] + ".html")
            subprocess.run([sys.executable, "-m", "fnmcts", "explore", *arguments, "-o", str(page)], check=True)
            driver.set_window_size(width, height)  # then grown by the window's frame: the page itself is width x height
            inner = driver.execute_script("return [innerWidth, innerHeight]")
            driver.set_window_size(2 * width - inner[0], 2 * height - inner[1])
            driver.get(page.as_uri())
            if dive is not None:
                driver.execute_script("window.fnmctsExplorer.go(arguments[0], arguments[1])", dive, phase)
            if click is not None:
                for row in driver.find_elements(By.CSS_SELECTOR, "#root-table tr.root-move"):
                    if row.find_element(By.CSS_SELECTOR, "td.move").text.split(" \u2605")[0] == click:
                        node = row.get_attribute("data-id")
                        driver.execute_script(
                            "document.querySelector(`#tree [data-id='${arguments[0]}'].node`)"
                            ".dispatchEvent(new MouseEvent('click', {bubbles: true}))", node)
                        break
            time.sleep(0.3)
            driver.save_screenshot(str(DOCS / picture))
            print(f"wrote {DOCS / picture}")
    finally:
        driver.quit()
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
