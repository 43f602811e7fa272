"""Make docs/web.png, web-play.png, web-phone.png and web-colour.png: the page in headless Chromium, the shipped picture "heart".

    python scripts/screenshot_web.py [--out docs] [--size 20] [--hints 6]

Starts the app (``localcount.web.app.running``: a free 127.0.0.1 port), opens the
page at 1280x900, designs the shipped picture "heart" (Files tab), opens it
in the Draw tab, waits for the analysis and saves web.png; then plays the
drawing (Draw's Play), asks for a few hints and saves web-play.png; then
opens the same link on a 400x800 phone screen (Chromium's mobile emulation,
touch), asks for the same hints and saves web-phone.png; last, it opens a
colour puzzle (``MUSHROOM``, an XML file) in Files, plays it, asks for the
same hints, paints a cell with the palette and saves web-colour.png (at
900x760).  Needs selenium, Debian's /usr/bin/chromium and
/usr/bin/chromedriver.
"""

from __future__ import annotations

import argparse
import contextlib
import pathlib
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select, WebDriverWait

from localcount.web.app import running

ROOT = pathlib.Path(__file__).resolve().parent.parent
#: web-colour.png's puzzle: three colours (r, y, g; '.' the background) that local logic solves.
MUSHROOM = ["..rrrrrr..", ".rr.rrr.r.", "rrrrrrrrrr", "r.rrr.rrr.", "rrrrrrrrrr",
            "...yyyy...", "...y.yy...", "...yyyy...", "g.gyyyyg.g", "gggggggggg"]  # fmt: skip


def chromium(width: int = 1280, height: int = 900, phone: bool = False) -> webdriver.Chrome:
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}",
                "--force-device-scale-factor=1", "--hide-scrollbars"):  # fmt: skip
        options.add_argument(arg)
    if phone:
        metrics = {"width": width, "height": height, "pixelRatio": 1, "touch": True, "mobile": True}
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def hints(driver, wait, count: int) -> None:
    """Press Hint ``count`` times, each after the last one's answer (the status names a line)."""
    for k in range(count):
        driver.find_element(By.ID, "play-hint").click()
        wait.until(lambda d: d.find_element(By.ID, "play-status").get_attribute("data-line"))
        wait.until(lambda d, k=k: d.execute_script("return document.querySelector('#play-hint').disabled") is False)
        driver.execute_script("document.querySelector('#play-status').removeAttribute('data-line')")


def colour_file(folder: pathlib.Path) -> pathlib.Path:
    """MUSHROOM as a webpbn XML file (its colours named) in ``folder``."""
    from localcount.api import Puzzle
    from localcount.puzzle.solving.colour import ColourPuzzle, line_clue

    palette = (("white", ".", "FFFFFF"), ("red", "r", "DC2626"), ("yellow", "y", "EAB308"), ("green", "g", "16A34A"))
    ids = {char: k for k, (_, char, _) in enumerate(palette)}
    cells, m = tuple(ids[char] for row in MUSHROOM for char in row), len(MUSHROOM[0])
    rows = tuple(line_clue(cells[r * m : (r + 1) * m]) for r in range(len(MUSHROOM)))
    cols = tuple(line_clue(cells[c::m]) for c in range(m))
    path = folder / "mushroom.xml"
    path.write_text(Puzzle.of(ColourPuzzle(rows, cols, palette, title="Mushroom")).to_string("xml"))
    return path


def colour_shot(url: str, out: pathlib.Path, count: int) -> None:
    """web-colour.png: MUSHROOM opened in Files and played: ``count`` hints, then a cell painted yellow."""
    with tempfile.TemporaryDirectory() as folder, contextlib.closing(chromium(900, 760)) as driver:
        driver.get(url + "/#files")
        wait = WebDriverWait(driver, 30)
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        driver.execute_script("localStorage.clear()")
        driver.find_element(By.ID, "tab-files").click()
        driver.find_element(By.ID, "file-input").send_keys(str(colour_file(pathlib.Path(folder))))
        wait.until(ec.visibility_of_element_located((By.ID, "files-play"))).click()
        wait.until(lambda d: d.find_element(By.ID, "play-title").get_attribute("data-link"))
        hints(driver, wait, count)
        driver.find_element(By.CSS_SELECTOR, "#play-palette button[data-colour='2']").click()
        canvas = driver.find_element(By.ID, "play-canvas")
        cell, (r, c) = int(canvas.get_attribute("data-cell")), (6, 3)  # a yellow cell of the stem
        offset = ((c + 0.5) * cell - canvas.size["width"] / 2, (r + 0.5) * cell - canvas.size["height"] / 2)
        ActionChains(driver, duration=0).move_to_element_with_offset(canvas, *map(int, offset)).click().move_to_element(
            driver.find_element(By.ID, "play-title")
        ).perform()  # the pointer off the board: no row highlighted
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(out / "web-colour.png"))
        print(f"wrote {out / 'web-colour.png'}: {driver.find_element(By.ID, 'play-status').text}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "docs", help="the folder for the four files")
    parser.add_argument("--size", type=int, default=20, help="the design's rows and columns")
    parser.add_argument("--hints", type=int, default=6, help="hints asked for before the Play screenshots")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
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
        driver.save_screenshot(str(args.out / "web.png"))
        print(f"wrote {args.out / 'web.png'}: {driver.find_element(By.ID, 'draw-verdict').text}")
        driver.execute_script("localStorage.clear()")
        driver.find_element(By.ID, "draw-play").click()
        wait.until(lambda d: d.find_element(By.ID, "play-title").get_attribute("data-link"))
        link = driver.find_element(By.ID, "play-title").get_attribute("data-link")
        hints(driver, wait, args.hints)
        driver.save_screenshot(str(args.out / "web-play.png"))
        print(f"wrote {args.out / 'web-play.png'}: {driver.find_element(By.ID, 'play-status').text}")
        with contextlib.closing(chromium(400, 800, phone=True)) as phone:
            phone.get(url + "/#" + link)
            wait = WebDriverWait(phone, 30)
            wait.until(lambda d: d.find_element(By.ID, "play-title").get_attribute("data-link") == link)
            hints(phone, wait, args.hints)
            phone.save_screenshot(str(args.out / "web-phone.png"))
            print(f"wrote {args.out / 'web-phone.png'}: {phone.find_element(By.ID, 'play-status').text}")
        colour_shot(url, args.out, args.hints)


if __name__ == "__main__":
    main()
