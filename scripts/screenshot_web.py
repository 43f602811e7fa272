"""Make docs/web.png: the page in headless Chromium, with the shipped picture "heart" designed and drawn.

    python scripts/screenshot_web.py [--out docs/web.png] [--size 20]

Starts the app (``localcount.web.app.running``: a free 127.0.0.1 port), opens the
page at 1280x900, designs the shipped picture "heart" (Files tab), opens it
in the Draw tab, waits for the analysis and saves the screenshot.  Needs
selenium, Debian's /usr/bin/chromium and /usr/bin/chromedriver.
"""

from __future__ import annotations

import argparse
import contextlib
import pathlib

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select, WebDriverWait

from localcount.web.app import running

ROOT = pathlib.Path(__file__).resolve().parent.parent


def chromium(width: int = 1280, height: int = 900) -> webdriver.Chrome:
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                "--force-device-scale-factor=1", "--hide-scrollbars"):  # fmt: skip
        options.add_argument(arg)
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "docs" / "web.png")
    parser.add_argument("--size", type=int, default=20, help="the design's rows and columns")
    args = parser.parse_args()
    with running() as url, contextlib.closing(chromium()) as driver:
        driver.get(url + "/#files")
        wait = WebDriverWait(driver, 30)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        Select(driver.find_element(By.ID, "design-picture")).select_by_value("heart")
        for name in ("design-rows", "design-cols"):
            field = driver.find_element(By.ID, name)
            field.clear()
            field.send_keys(str(args.size))
        driver.find_element(By.ID, "design-button").click()
        wait.until(ec.visibility_of_element_located((By.ID, "design-to-draw"))).click()
        wait.until(lambda d: d.find_element(By.ID, "draw-verdict").get_attribute("data-state") == "done")
        driver.execute_script("window.scrollTo(0, 0)")
        args.out.parent.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(args.out))
        print(f"wrote {args.out}: {driver.find_element(By.ID, 'draw-verdict').text}")


if __name__ == "__main__":
    main()
