"""The page in a real browser: Debian's headless Chromium driven by selenium (docs/web.md).

One server (uvicorn in a daemon thread) and one browser per module (per
xdist worker).  Each test loads the page afresh, does what a user would
(clicks, typing, a file upload), waits for the answer on the page and keeps
a screenshot of what it saw in its tmp_path.  Without /usr/bin/chromium the
tests fail in CI (CI=true) and are skipped elsewhere.
"""

from __future__ import annotations

import json
import os

import httpx
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

import localcount
from localcount.web.app import running

pytestmark = pytest.mark.browser  # run by CI after the quick suite: python -m pytest -m 'long or browser'

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
HEART = ["01010", "11111", "11111", "01110", "00100"]


def runs(line) -> list:
    """A line's clue: the lengths of its runs of '1'."""
    return [len(run) for run in "".join(line).split("0") if run]


def shown(clue: list) -> str:
    """A clue as the page writes it in data-clue."""
    return " ".join(map(str, clue)) or "0"


@pytest.fixture(scope="module")
def server():
    """The app on a free 127.0.0.1 port: its base URL."""
    with running() as url:
        yield url


@pytest.fixture(scope="module")
def driver():
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not os.path.exists(path)]
    if missing:
        why = f"{' and '.join(missing)} missing: apt-get install chromium chromium-driver"
        if os.environ.get("CI", "").lower() in ("true", "1", "yes"):
            pytest.fail(why)
        pytest.skip(why)
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                "--force-device-scale-factor=1"):  # fmt: skip
        options.add_argument(arg)
    options.binary_location = CHROMIUM
    chrome = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    yield chrome
    chrome.quit()


@pytest.fixture
def page(server, driver):
    """The page, freshly loaded, its /api/info read: the driver."""
    driver.get(server + "/")
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    return driver


def until(driver, condition, seconds: float = 15):
    """Wait for ``condition``; an element the page re-rendered meanwhile (stale) is looked up again at the next poll."""
    from selenium.common.exceptions import StaleElementReferenceException

    return WebDriverWait(
        driver, seconds, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
    ).until(condition)


def by_id(driver, name: str):
    return driver.find_element(By.ID, name)


def type_into(driver, name: str, text: str) -> None:
    """Replace a field's text as a user would (select all, type), then leave it (change fires)."""
    field = by_id(driver, name)
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(text, Keys.TAB)


def shot(driver, tmp_path, name: str) -> None:
    path = tmp_path / name
    driver.save_screenshot(str(path))
    assert path.exists() and path.stat().st_size > 1000


def clues_shown(puzzle) -> tuple:
    """A Puzzle's clues as clues_on_page reads them."""
    return [shown(c) for c in puzzle.rows], [shown(c) for c in puzzle.columns]


def clues_on_page(driver, board: str) -> tuple:
    rows = [e.get_attribute("data-clue") for e in driver.find_elements(By.CSS_SELECTOR, f"#{board}-row-clues > div")]
    cols = [e.get_attribute("data-clue") for e in driver.find_elements(By.CSS_SELECTOR, f"#{board}-col-clues > div")]
    return rows, cols


def grid_of(driver, name: str):
    return json.loads(by_id(driver, name).get_attribute("data-grid") or "null")


def click_cells(driver, canvas, cells, button: str = "left") -> None:
    """Click cells (row, column) of a board's canvas: its data-cell is the cell size in CSS pixels."""
    cell, width, height = int(canvas.get_attribute("data-cell")), canvas.size["width"], canvas.size["height"]
    actions = ActionChains(driver, duration=0)
    for r, c in cells:  # offsets are from the canvas's centre
        actions.move_to_element_with_offset(
            canvas, int((c + 0.5) * cell - width / 2), int((r + 0.5) * cell - height / 2)
        )
        actions.context_click() if button == "right" else actions.click()
    actions.perform()


def drag_cells(driver, canvas, start, end) -> None:
    cell, width, height = int(canvas.get_attribute("data-cell")), canvas.size["width"], canvas.size["height"]
    at = lambda r, c: (int((c + 0.5) * cell - width / 2), int((r + 0.5) * cell - height / 2))
    ActionChains(driver, duration=0).move_to_element_with_offset(canvas, *at(*start)).click_and_hold().move_to_element_with_offset(
        canvas, *at(*end)).release().perform()  # fmt: skip


def test_painting_shows_the_clues_and_the_verdict(page, server, tmp_path):
    type_into(page, "draw-rows", "5")
    type_into(page, "draw-cols", "5")
    canvas = by_id(page, "draw-canvas")
    until(page, lambda d: canvas.get_attribute("data-rows") == "5" and canvas.get_attribute("data-cols") == "5")
    until(page, lambda d: grid_of(d, "draw-canvas") == ["00000"] * 5)
    drag_cells(page, canvas, (1, 0), (1, 4))  # row 2 in one stroke
    click_cells(page, canvas, [(r, c) for r, row in enumerate(HEART) for c, v in enumerate(row) if v == "1" and r != 1])
    click_cells(page, canvas, [(4, 0)])  # a stray cell ...
    click_cells(page, canvas, [(4, 0)], button="right")  # ... erased by the right button
    until(
        page,
        lambda d: grid_of(d, "draw-canvas") == HEART and by_id(d, "draw-verdict").get_attribute("data-state") == "done",
    )
    shot(page, tmp_path, "draw.png")

    expected = ([shown(runs(row)) for row in HEART], [shown(runs(col)) for col in zip(*HEART)])
    assert clues_on_page(page, "draw") == expected
    answer = httpx.post(server + "/api/analyze", json={"grid": HEART, "timeout": 5}).json()
    assert ([shown(c) for c in answer["rows"]], [shown(c) for c in answer["columns"]]) == expected
    verdict = by_id(page, "draw-verdict")
    assert verdict.get_attribute("data-verdict") == answer["verdict"] == "unique"
    assert verdict.get_attribute("data-simple") == "true" and answer["simple"]
    assert verdict.text == f"solved by local logic in {answer['steps']} steps · level: {answer['level']} · unique"
    by_id(page, "draw-play").click()  # the drawing's clues, in Play
    until(page, lambda d: by_id(d, "panel-play").is_displayed() and clues_on_page(d, "play") == expected)
    assert marks_of(page) == ["....."] * 5
    by_id(page, "tab-draw").click()
    # the verdict is not styled as Play's finished clues (data-state=done there too): neither grey nor struck
    assert "line-through" not in verdict.value_of_css_property("text-decoration-line")
    assert verdict.value_of_css_property("color") != "rgba(156, 163, 175, 1)"
    by_id(page, "draw-to-files").click()  # the drawing as a puzzle under Files: save it, open it in Type
    until(page, lambda d: by_id(d, "panel-files").is_displayed() and "drawing-5x5" in by_id(d, "files-title").text)
    assert clues_on_page(page, "files") == expected
    by_id(page, "save-button").click()
    until(page, lambda d: by_id(d, "message").text == "saved drawing-5x5.non")
    by_id(page, "files-to-type").click()
    until(page, lambda d: by_id(d, "panel-type").is_displayed())
    typed = [by_id(page, f"type-row-{i}").get_attribute("value") for i in range(5)]
    assert typed == [" ".join(map(str, runs(row))) for row in HEART]


def test_typed_clues_are_checked_then_solved(page, tmp_path):
    by_id(page, "tab-type").click()
    type_into(page, "type-rows", "5")
    type_into(page, "type-cols", "5")
    rows, cols = [runs(row) for row in HEART], [runs(col) for col in zip(*HEART)]
    for i, clue in enumerate(rows):
        type_into(page, f"type-row-{i}", " ".join(map(str, clue)))
    message = by_id(page, "type-message")
    until(page, lambda d: message.text == f"rows fill {''.join(HEART).count('1')} cells, columns 0")
    type_into(page, "type-row-1", "5 a")
    until(page, lambda d: "row 2: invalid characters" in message.text)
    assert by_id(page, "type-row-1-msg").text == "invalid characters"
    assert not by_id(page, "solve-button").is_enabled()
    shot(page, tmp_path, "type-mistake.png")
    type_into(page, "type-row-1", "3 3")
    until(page, lambda d: "row 2: clue 3 3 needs 7 cells, the line has 5" in message.text)
    type_into(page, "type-row-1", "5")
    for j, clue in enumerate(cols):
        type_into(page, f"type-col-{j}", " ".join(map(str, clue)))
    until(page, lambda d: by_id(d, "solve-button").is_enabled())
    assert message.text == "5×5: the clues fit"

    by_id(page, "solve-button").click()
    verdict = by_id(page, "result-verdict")
    until(page, lambda d: verdict.get_attribute("data-verdict") == "unique")
    assert verdict.text.startswith("unique · solved by local logic")
    assert grid_of(page, "result-solution-0") == HEART
    assert by_id(page, "replay-text").text.startswith("step 0 of ")
    shot(page, tmp_path, "type-solved.png")


def test_an_uploaded_non_file_is_read_and_solved(page, server, tmp_path):
    text = localcount.Puzzle.read("cat").to_string("non")
    (tmp_path / "cat.non").write_text(text)
    answer = httpx.post(server + "/api/solve", json={"text": text, "format": "non", "timeout": 5}).json()
    by_id(page, "tab-files").click()
    by_id(page, "file-input").send_keys(str(tmp_path / "cat.non"))
    until(page, lambda d: by_id(d, "files-current").is_displayed())
    assert by_id(page, "file-info").text == "cat.non: non, 10×10"
    assert clues_on_page(page, "files") == (
        [shown(c) for c in answer["puzzle"]["rows"]],
        [shown(c) for c in answer["puzzle"]["columns"]],
    )
    by_id(page, "files-solve").click()
    verdict = by_id(page, "result-verdict")
    until(page, lambda d: verdict.is_displayed() and verdict.get_attribute("data-verdict"))
    assert verdict.get_attribute("data-verdict") == answer["verdict"] == "unique"
    assert verdict.get_attribute("data-local") == answer["local"] == "solved"
    assert grid_of(page, "result-solution-0") == answer["solutions"][0]
    assert not by_id(page, "message").is_displayed()  # no error
    shot(page, tmp_path, "files.png")


def test_the_replay_plays_to_the_solution(page, server, tmp_path):
    by_id(page, "tab-type").click()
    Select(by_id(page, "type-example")).select_by_value("stuck8")  # local logic gets stuck: the search ends the replay
    until(page, lambda d: by_id(d, "type-row-0").get_attribute("value") and by_id(d, "solve-button").is_enabled())
    by_id(page, "solve-button").click()
    until(page, lambda d: by_id(d, "result-verdict").get_attribute("data-verdict") == "unique")
    slider = by_id(page, "replay-slider")
    last = int(slider.get_attribute("max"))
    example = httpx.post(server + "/api/example", json={"name": "stuck8"}).json()
    answer = httpx.post(server + "/api/solve", json={"text": example["text"], "timeout": 5}).json()
    assert last == len(answer["replay"]) + 1 and answer["local"] == "stuck"
    assert grid_of(page, "result-canvas") == ["?" * 8] * 8

    by_id(page, "replay-step").click()
    assert by_id(page, "replay-text").text == f"step 1 of {last}: {answer['replay'][0]['line']}"
    Select(by_id(page, "replay-speed")).select_by_visible_text("fast")
    by_id(page, "replay-play").click()
    until(page, lambda d: slider.get_attribute("value") == str(last))
    assert by_id(page, "replay-text").text == f"step {last} of {last}: search: the rest from the first solution"
    assert grid_of(page, "result-canvas") == answer["solutions"][0] == grid_of(page, "result-solution-0")
    until(page, lambda d: by_id(d, "replay-play").is_enabled())  # stopped at the end
    shot(page, tmp_path, "replay-end.png")
    by_id(page, "replay-back").click()
    assert "?" in "".join(grid_of(page, "result-canvas"))


def test_every_puzzle_by_its_number_next_and_solve(page, tmp_path, monkeypatch):
    """Every puzzle: a 4x4 index built into tmp_path (the server is in this process: it reads the variable), #1234 typed,
    Next pressed twice, the title and clues of puzzle #1236, solved; ← goes back one."""
    from localcount.api import numbering
    from localcount.results import numberings

    numbering.build_numbering(4, 4, directory=tmp_path / "index")
    monkeypatch.setenv(numberings.ENV_DIR, str(tmp_path / "index"))
    by_id(page, "tab-every").click()  # the tab reads the sizes with an index each time it is shown
    until(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#every-size option[value='4x4']"))
    Select(by_id(page, "every-size")).select_by_value("4x4")
    title = by_id(page, "every-title")
    until(page, lambda d: (title.get_attribute("data-size"), title.get_attribute("data-k")) == ("4x4", "1"))
    type_into(page, "every-k", "1234")
    until(page, lambda d: title.get_attribute("data-k") == "1234")
    by_id(page, "every-next").click()
    by_id(page, "every-next").click()
    until(page, lambda d: title.get_attribute("data-k") == "1236")
    x = numbering.nth(4, 4, 1236, build=False)
    assert title.text == f"puzzle #1,236 of {x.of:,}" == "puzzle #1,236 of 51,234"
    assert by_id(page, "every-k").get_attribute("value") == "1,236"
    assert clues_on_page(page, "files") == clues_shown(x.puzzle)
    assert by_id(page, "files-current").is_displayed() and by_id(page, "files-title").text.startswith(x.title)

    by_id(page, "files-solve").click()
    verdict = by_id(page, "result-verdict")
    until(page, lambda d: verdict.is_displayed() and verdict.get_attribute("data-verdict") == "unique")
    assert grid_of(page, "result-solution-0") == list(x.rows) and verdict.get_attribute("data-local") == "solved"
    shot(page, tmp_path, "every.png")
    by_id(page, "every-next").send_keys(Keys.ARROW_LEFT)
    until(page, lambda d: title.get_attribute("data-k") == "1235")
    assert not by_id(page, "result").is_displayed()  # the solve was of #1236
    assert clues_on_page(page, "files") == clues_shown(numbering.nth(4, 4, 1235, build=False).puzzle)
    assert not by_id(page, "message").is_displayed()  # no error


def test_every_drawing_of_an_indexed_size_shows_its_number(page, tmp_path, monkeypatch):
    """Draw: a simple 3x3 drawing says "puzzle #k of 384"; clicking it opens that puzzle in Every puzzle."""
    from localcount.api import numbering
    from localcount.results import numberings

    numbering.build_numbering(3, 3, directory=tmp_path / "index")
    monkeypatch.setenv(numberings.ENV_DIR, str(tmp_path / "index"))
    page.refresh()  # the page reads the sizes with an index when it starts
    until(page, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    type_into(page, "draw-rows", "3")
    type_into(page, "draw-cols", "3")
    canvas = by_id(page, "draw-canvas")
    until(page, lambda d: grid_of(d, "draw-canvas") == ["000"] * 3)
    drawing = ["101", "010", "111"]
    click_cells(page, canvas, [(r, c) for r, row in enumerate(drawing) for c, v in enumerate(row) if v == "1"])
    number = by_id(page, "draw-number")
    until(page, lambda d: grid_of(d, "draw-canvas") == drawing and number.is_displayed())
    x = numbering.rank(drawing, build=False)
    assert number.text == f"puzzle #{x.k:,} of {x.of:,}" and number.get_attribute("data-number") == str(x.number)
    shot(page, tmp_path, "draw-number.png")
    number.click()
    title = by_id(page, "every-title")
    until(page, lambda d: title.is_displayed() and title.get_attribute("data-k") == str(x.k))
    assert title.get_attribute("data-size") == "3x3" and title.get_attribute("data-number") == str(x.number)
    assert clues_on_page(page, "files") == (
        [shown(runs(row)) for row in drawing],
        [shown(runs(col)) for col in zip(*drawing)],
    )


def marks_of(driver) -> list:
    return json.loads(by_id(driver, "play-board").get_attribute("data-marks") or "[]")


def status_of(driver) -> str:
    return by_id(driver, "play-status").text


def test_play_puzzle_1234_of_5x5_from_its_link_to_solved(server, driver, tmp_path):
    """/#5x5/1234 opens Every puzzle #1234 in Play (the shipped index); a hint on the empty grid names a line and fills
    its cells; a cross, an undo and a redo; a wrong mark is named by the next hint; clicks finish it: "solved in";
    a reload keeps the marks."""
    x = localcount.nth(5, 5, 1234)
    solution = list(x.rows)
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#5x5/1234")
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    assert by_id(driver, "panel-play").is_displayed() and "#1,234" in by_id(driver, "play-title").text
    assert clues_on_page(driver, "play") == clues_shown(x.puzzle)
    assert marks_of(driver) == ["....."] * 5

    by_id(driver, "play-hint").click()
    until(driver, lambda d: status_of(d).startswith(("row ", "column ")))
    hinted = marks_of(driver)
    decided = [(r, c) for r in range(5) for c in range(5) if hinted[r][c] != "."]
    assert decided and all((hinted[r][c] == "1") == (solution[r][c] == "1") for r, c in decided)
    line = by_id(driver, "play-status").get_attribute("data-line")
    kind, number = line.split()
    assert all((r if kind == "row" else c) == int(number) - 1 for r, c in decided)

    canvas = by_id(driver, "play-canvas")
    empty = next((r, c) for r in range(5) for c in range(5) if solution[r][c] == "0" and hinted[r][c] == ".")
    click_cells(driver, canvas, [empty], "right")
    until(driver, lambda d: marks_of(d)[empty[0]][empty[1]] == "x")
    by_id(driver, "play-undo").click()
    until(driver, lambda d: marks_of(d)[empty[0]][empty[1]] == ".")
    by_id(driver, "play-redo").click()
    until(driver, lambda d: marks_of(d)[empty[0]][empty[1]] == "x")

    filled = next((r, c) for r in range(5) for c in range(5) if solution[r][c] == "1" and marks_of(driver)[r][c] == ".")
    click_cells(driver, canvas, [filled], "right")  # a cross where the solution fills: a mistake
    until(driver, lambda d: marks_of(d)[filled[0]][filled[1]] == "x")
    by_id(driver, "play-hint").click()
    until(driver, lambda d: "wrong" in status_of(d))
    assert by_id(driver, "play-status").get_attribute("data-kind") == "mistakes"
    click_cells(driver, canvas, [filled], "right")  # clicking a cross clears it
    until(driver, lambda d: marks_of(d)[filled[0]][filled[1]] == ".")
    assert "wrong" not in status_of(driver)  # the mistakes' message goes with their red marks

    todo = [(r, c) for r in range(5) for c in range(5) if solution[r][c] == "1" and marks_of(driver)[r][c] != "1"]
    click_cells(driver, canvas, todo)
    until(driver, lambda d: status_of(d).startswith("solved in"))
    assert [row.replace("x", "0").replace(".", "0") for row in marks_of(driver)] == solution
    shot(driver, tmp_path, "play-solved.png")
    kept = marks_of(driver)
    driver.refresh()
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    until(driver, lambda d: marks_of(d) == kept)
    assert status_of(driver).startswith("solved in")


def test_a_link_with_clues_opens_a_typed_puzzle_to_play(page, server, tmp_path):
    """Type's Play gives the clues' link; the link opens the same puzzle in Play on a fresh page."""
    by_id(page, "tab-type").click()
    type_into(page, "type-rows", "3")
    type_into(page, "type-cols", "3")
    clues = ([[1, 1], [1], [3]], [[1, 1], [2], [1, 1]])
    for kind, lines in zip(("row", "col"), clues):
        for i, clue in enumerate(lines):
            field = page.find_elements(By.CSS_SELECTOR, f"#type-{kind}-list input")[i]
            field.send_keys(Keys.CONTROL, "a")
            field.send_keys(" ".join(map(str, clue)))
    by_id(page, "type-play").click()
    link = "c=1,1.1.3_1,1.2.1,1"
    until(page, lambda d: by_id(d, "play-title").get_attribute("data-link") == link)
    page.get(server + "/#" + link)
    page.refresh()
    until(page, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    until(page, lambda d: by_id(d, "play-title").get_attribute("data-link") == link)
    assert clues_on_page(page, "play") == ([shown(c) for c in clues[0]], [shown(c) for c in clues[1]])
    shot(page, tmp_path, "play-link.png")


def test_a_filled_cell_in_a_line_whose_clue_is_0_shows_the_clue_red(page, server):
    """Rows 1, 0 and columns 1, 0: a cell filled in row 2 makes it wrong, and its clue '0' turns red like any other."""
    page.get(server + "/#c=1.0_1.0")
    page.refresh()
    until(page, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    until(page, lambda d: by_id(d, "play-title").get_attribute("data-link") == "c=1.0_1.0")
    click_cells(page, by_id(page, "play-canvas"), [(1, 0)])
    row = page.find_elements(By.CSS_SELECTOR, "#play-row-clues > div")[1]
    until(page, lambda d: row.get_attribute("data-state") == "wrong")
    zero = row.find_element(By.CSS_SELECTOR, ".zero")
    assert zero.value_of_css_property("color") == "rgba(185, 28, 28, 1)"  # --error, not the grey of a quiet 0


def test_the_keyboard_goes_to_the_board_after_the_toolbar(server, driver):
    """Tick Auto-cross, fill a cell (its row is crossed), Ctrl+Z undoes all of it; Restart leaves no cross; fill a
    cell, Space marks the keyboard's cell and does not press Restart again."""
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#5x5/1234")
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    canvas = by_id(driver, "play-canvas")
    by_id(driver, "play-autocross").click()
    click_cells(driver, canvas, [(2, 2)])
    until(driver, lambda d: marks_of(d)[2][2] == "1")
    assert driver.switch_to.active_element == by_id(driver, "play-board")
    assert "x" in marks_of(driver)[2]  # auto-crossed
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    until(driver, lambda d: marks_of(d)[2][2] == ".")
    assert marks_of(driver) == ["....."] * 5  # the whole step undone, nothing crossed again
    click_cells(driver, canvas, [(2, 2)])
    until(driver, lambda d: marks_of(d)[2][2] == "1")
    before = marks_of(driver)
    by_id(driver, "play-restart").click()
    until(driver, lambda d: marks_of(d) == ["....."] * 5)  # no auto-crossed line left behind
    ActionChains(driver).key_down(Keys.CONTROL).send_keys("z").key_up(Keys.CONTROL).perform()
    until(driver, lambda d: marks_of(d) == before)  # a restart is undone as one step
    by_id(driver, "play-restart").click()
    until(driver, lambda d: marks_of(d) == ["....."] * 5)
    click_cells(driver, canvas, [(4, 4)])
    until(driver, lambda d: marks_of(d)[4][4] == "1")
    ActionChains(driver).send_keys(Keys.SPACE).perform()
    until(driver, lambda d: marks_of(d)[0][0] == "1")  # the keyboard's cell, top left
    assert marks_of(driver)[4][4] == "1"  # no second restart


@pytest.mark.parametrize("link", ["c=1,1.zz_3", "c=1..1_1.1", "c=1.1e1_1.1"])
def test_a_link_whose_clues_cannot_be_read_says_so_and_plays_nothing(server, driver, link):
    driver.get(server + "/")
    driver.get(server + "/#" + link)
    driver.refresh()
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    until(driver, lambda d: "cannot be read" in by_id(d, "message").text)
    assert by_id(driver, "play-title").get_attribute("data-link") != link


def test_a_solve_says_its_hints_and_checks_and_the_clock_stops_on_another_tab(server, driver):
    x = localcount.nth(5, 5, 1234)
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#5x5/1234")
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    assert by_id(driver, "play-timer").get_attribute("data-running") == "true"
    by_id(driver, "tab-draw").click()
    assert by_id(driver, "play-timer").get_attribute("data-running") == "false"  # paused while Draw is shown
    by_id(driver, "tab-play").click()
    assert by_id(driver, "play-timer").get_attribute("data-running") == "true"
    by_id(driver, "play-hint").click()
    until(driver, lambda d: status_of(d).startswith(("row ", "column ")))
    by_id(driver, "play-check").click()
    until(driver, lambda d: status_of(d) == "no mistakes so far")
    todo = [(r, c) for r in range(5) for c in range(5) if x.rows[r][c] == "1" and marks_of(driver)[r][c] != "1"]
    click_cells(driver, by_id(driver, "play-canvas"), todo)
    until(driver, lambda d: status_of(d).startswith("solved in"))
    assert status_of(driver).endswith(" with 1 hint and 1 check")
    assert by_id(driver, "play-timer").get_attribute("data-running") == "false"


def test_a_link_keeps_its_title_and_warns_of_two_solutions(server, driver):
    link = "c=1.1_1.1&t=Two%20ways"  # 2x2, one cell in each line: either diagonal
    driver.get(server + "/")
    driver.get(server + "/#" + link)
    driver.refresh()
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == link)
    assert by_id(driver, "play-title").text.startswith("Two ways")
    until(driver, lambda d: "more than one solution" in by_id(d, "message").text)


def test_every_puzzle_shows_the_puzzle_a_link_opened_in_play(server, driver):
    driver.get(server + "/")
    driver.get(server + "/#5x5/1234")
    driver.refresh()
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    by_id(driver, "tab-every").click()
    until(
        driver,
        lambda d: by_id(d, "every-k").get_attribute("value") == "1,234" and "#1,234" in by_id(d, "every-title").text,
    )


def test_a_stroke_shows_its_length_while_it_drags_and_the_mode_marks_crosses(server, driver):
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#5x5/1234")
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    canvas, counter = by_id(driver, "play-canvas"), by_id(driver, "play-drag")
    cell, width, height = int(canvas.get_attribute("data-cell")), canvas.size["width"], canvas.size["height"]
    at = lambda r, c: (int((c + 0.5) * cell - width / 2), int((r + 0.5) * cell - height / 2))
    actions = ActionChains(driver, duration=0).move_to_element_with_offset(canvas, *at(0, 0)).click_and_hold()
    actions.move_to_element_with_offset(canvas, *at(0, 3)).perform()
    until(driver, lambda d: counter.is_displayed() and counter.text == "4")  # four cells under the stroke
    ActionChains(driver, duration=0).release().perform()
    until(driver, lambda d: not counter.is_displayed())
    by_id(driver, "play-mode").click()
    assert by_id(driver, "play-mode").text == "Mode: cross"
    click_cells(driver, canvas, [(4, 4)])
    until(driver, lambda d: marks_of(d)[4][4] == "x")  # a click crosses now; the right button fills
    click_cells(driver, canvas, [(3, 3)], "right")
    until(driver, lambda d: marks_of(d)[3][3] == "1")


def test_a_clue_number_is_struck_once_its_marks_fix_its_run(server, driver):
    """Row clue '1 1' in 5 cells: a filled first cell is open on the right; crossed next to it, run 1 is finished and
    struck alone.  Then a run in the middle, '..x1x' style, which either number could be: not struck."""
    link = "c=1,1_1.0.1.0.0"
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#" + link)
    driver.refresh()
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == link)
    canvas = by_id(driver, "play-canvas")
    numbers = lambda d: [
        s.get_attribute("data-done") for s in d.find_elements(By.CSS_SELECTOR, "#play-row-clues > div:first-child span")
    ]
    click_cells(driver, canvas, [(0, 0)])
    until(driver, lambda d: marks_of(d)[0][0] == "1")
    assert numbers(driver) == ["false", "false"]  # open on its right: not finished
    click_cells(driver, canvas, [(0, 1)], "right")
    until(driver, lambda d: numbers(d) == ["true", "false"])
    span = driver.find_element(By.CSS_SELECTOR, "#play-row-clues > div:first-child span")
    assert "line-through" in span.value_of_css_property("text-decoration-line")
    click_cells(driver, canvas, [(0, 0)])  # cleared: the first 1 is open again
    until(driver, lambda d: marks_of(d)[0][0] == "." and numbers(d) == ["false", "false"])
    click_cells(driver, canvas, [(0, 3)], "right")
    click_cells(driver, canvas, [(0, 2)])  # '.x1x.': run 1 or run 2, the marks do not say
    until(driver, lambda d: marks_of(d)[0] == ".x1x.")
    assert numbers(driver) == ["false", "false"]


def test_plays_board_fits_the_window_and_zooms_and_keeps_its_zoom(server, driver):
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#5x5/1234")
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    canvas = by_id(driver, "play-canvas")
    assert canvas.size["width"] >= 300  # a 5x5 in a 1280x1000 window: cells follow the window, not 28 px
    cell = int(canvas.get_attribute("data-cell"))
    by_id(driver, "play-zoom-in").click()
    until(driver, lambda d: int(by_id(d, "play-canvas").get_attribute("data-cell")) > cell)
    zoomed = int(by_id(driver, "play-canvas").get_attribute("data-cell"))
    driver.execute_script(  # Ctrl+wheel over the board: one step out
        "document.querySelector('#play-board').dispatchEvent(new WheelEvent('wheel', "
        "{deltaY: 100, ctrlKey: true, bubbles: true, cancelable: true}))"
    )
    until(driver, lambda d: int(by_id(d, "play-canvas").get_attribute("data-cell")) == cell)
    by_id(driver, "play-zoom-in").click()
    until(driver, lambda d: int(by_id(d, "play-canvas").get_attribute("data-cell")) == zoomed)
    driver.refresh()  # the zoom is kept with the puzzle's progress
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    assert int(by_id(driver, "play-canvas").get_attribute("data-cell")) == zoomed


def test_line_numbers_every_5_can_be_turned_off(server, driver):
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#5x5/1234")
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    label = lambda d, kind, where: d.execute_script(
        f"return getComputedStyle(document.querySelector('#play-{kind}-clues > div:nth-child(5)'), '{where}').content"
    )
    assert label(driver, "row", "::before") == '"5"' and label(driver, "col", "::after") == '"5"'
    assert (
        driver.execute_script(
            "return getComputedStyle(document.querySelector('#play-row-clues > div:nth-child(4)'), '::before').content"
        )
        == "none"
    )
    # a finished line strikes its clue numbers, not the line's number beside them (a decoration of the whole line would)
    row = localcount.nth(5, 5, 1234).rows[4]
    click_cells(driver, by_id(driver, "play-canvas"), [(4, c) for c in range(5) if row[c] == "1"])
    fifth = driver.find_element(By.CSS_SELECTOR, "#play-row-clues > div:nth-child(5)")
    until(driver, lambda d: fifth.get_attribute("data-state") == "done")
    assert fifth.value_of_css_property("text-decoration-line") == "none"
    spans = fifth.find_elements(By.CSS_SELECTOR, "span")
    assert spans and all("line-through" in s.value_of_css_property("text-decoration-line") for s in spans)
    by_id(driver, "play-numbers").click()
    until(driver, lambda d: label(d, "row", "::before") == "none")
    driver.refresh()  # the choice is kept
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    assert not by_id(driver, "play-numbers").is_selected() and label(driver, "col", "::after") == "none"


@pytest.mark.parametrize(
    "link, why",
    [("5x5/abc", "names no puzzle"), ("5x5/99999999", "opens nothing (nth:"), ("c=1.1_zz", "cannot be read")],
)
def test_a_link_that_opens_nothing_says_so_and_keeps_the_puzzle_on_the_board(server, driver, link, why):
    """A failed link names itself and why, says which puzzle is still on the board, and the address names that one."""
    driver.get(server + "/")
    driver.get(server + "/#5x5/1234")
    driver.refresh()
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    driver.execute_script("location.hash = arguments[0]", link)  # a link followed with the page open: hashchange
    until(driver, lambda d: f"#{link} {why}" in by_id(d, "message").text)
    assert "still playing 5x5 puzzle #1,234" in by_id(driver, "message").text
    assert by_id(driver, "play-title").get_attribute("data-link") == "5x5/1234"
    until(driver, lambda d: d.execute_script("return location.hash") == "#5x5/1234")


def random_link(n: int, m: int, density: float, seed: int = 1) -> str:
    """The #c= link of a random n x m drawing's clues (density: the chance a cell is filled)."""
    import random

    rng = random.Random(seed)
    grid = ["".join("1" if rng.random() < density else "0" for _ in range(m)) for _ in range(n)]
    half = lambda lines: ".".join(",".join(map(str, runs(line))) or "0" for line in lines)
    return f"c={half(grid)}_{half(zip(*grid))}"


# Every clue number's box on the page, and the pairs of them that intersect (a sweep over their left edges).
CLUE_BOXES = """
const boxes = [...document.querySelectorAll('#play-row-clues span, #play-col-clues span')].map((s) => {
  const b = s.getBoundingClientRect(); return [b.left, b.right, b.top, b.bottom, s.textContent,
    parseFloat(getComputedStyle(s).fontSize)]; }).sort((a, b) => a[0] - b[0]);
const meet = [];
for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length && boxes[j][0] < boxes[i][1] - 0.01; j++) {
  const [a, b] = [boxes[i], boxes[j]];
  if (a[3] > b[2] + 0.01 && a[2] < b[3] - 0.01) meet.push([a[4], b[4], a.slice(0, 4), b.slice(0, 4)]);
}
return {count: boxes.length, meet: meet.slice(0, 5), smallest: Math.min(...boxes.map((b) => b[5]))};
"""


@pytest.fixture
def desktop(server, driver):
    """The module's browser at 1400x1000 (the size given back after)."""
    driver.set_window_size(1400, 1000)
    try:
        yield driver
    finally:
        driver.set_window_size(1280, 1000)


def test_at_1400x1000_a_5x5_is_large_and_no_two_clue_numbers_of_a_100x100_meet(server, desktop, tmp_path):
    desktop.get(server + "/")
    desktop.execute_script("localStorage.clear()")
    desktop.get(server + "/#5x5/1234")
    until(desktop, lambda d: by_id(d, "play-title").get_attribute("data-link") == "5x5/1234")
    assert by_id(desktop, "play-canvas").size["width"] >= 300
    link = random_link(100, 100, 0.8)  # runs of 10 and more: two-digit numbers in the column clues
    desktop.get(server + "/#" + link)
    desktop.refresh()
    until(desktop, lambda d: by_id(d, "play-title").get_attribute("data-link") == link, 60)
    boxes = desktop.execute_script(CLUE_BOXES)
    assert boxes["count"] > 2000 and boxes["meet"] == [] and boxes["smallest"] >= 8
    assert any(len(c.split(" ")) and max(map(len, c.split(" "))) == 2 for c in clues_on_page(desktop, "play")[1])
    shot(desktop, tmp_path, "play-100x100.png")


@pytest.fixture(scope="module")
def phone():
    """A second browser: a 400x800 phone screen with touch (Chromium's mobile emulation)."""
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        pytest.skip("chromium missing")  # the module's driver fixture fails in CI for this already
    options = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--force-device-scale-factor=1"):
        options.add_argument(arg)
    metrics = {"width": 400, "height": 800, "pixelRatio": 1, "touch": True, "mobile": True}
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    options.binary_location = CHROMIUM
    chrome = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    yield chrome
    chrome.quit()


def tap(driver, canvas, r: int, c: int) -> None:
    """A finger's tap on cell (r, c) of a board's canvas."""
    from selenium.webdriver.common.actions import interaction
    from selenium.webdriver.common.actions.action_builder import ActionBuilder
    from selenium.webdriver.common.actions.pointer_input import PointerInput

    box = driver.execute_script("const b = arguments[0].getBoundingClientRect(); return [b.left, b.top];", canvas)
    cell = int(canvas.get_attribute("data-cell"))
    actions = ActionBuilder(driver, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"), duration=0)
    actions.pointer_action.move_to_location(int(box[0] + (c + 0.5) * cell), int(box[1] + (r + 0.5) * cell))
    actions.pointer_action.pointer_down().pointer_up()
    actions.perform()


def test_on_a_400x800_phone_every_tab_is_on_screen_a_50x30_fits_and_the_toolbar_stays(server, phone, tmp_path):
    link = random_link(50, 30, 0.5, seed=2)  # 30 columns across a phone (runs of at most 7); 50 rows: taller than it
    phone.get(server + "/")
    phone.execute_script("localStorage.clear()")
    phone.get(server + "/#" + link)
    phone.refresh()
    until(phone, lambda d: by_id(d, "play-title").get_attribute("data-link") == link)
    width = phone.execute_script("return innerWidth")
    assert width == 400 and phone.execute_script("return document.documentElement.scrollWidth") <= width
    for tab in phone.find_elements(By.CSS_SELECTOR, "[role=tab]"):
        box = phone.execute_script("const b = arguments[0].getBoundingClientRect(); return [b.left, b.right];", tab)
        assert 0 <= box[0] and box[1] <= width, (tab.text, box)
    canvas = by_id(phone, "play-canvas")
    right = phone.execute_script("return arguments[0].getBoundingClientRect().right", canvas)
    assert canvas.get_attribute("data-cols") == "30" and right <= width  # every column on screen
    tap(phone, canvas, 0, 0)
    until(phone, lambda d: marks_of(d)[0][0] == "1")  # a tap fills
    by_id(phone, "play-mode").click()
    tap(phone, canvas, 1, 1)
    until(phone, lambda d: marks_of(d)[1][1] == "x")  # Mode: cross, a tap crosses
    phone.execute_script("window.scrollTo(0, 300)")
    until(phone, lambda d: d.execute_script("return scrollY") > 50)
    bar = phone.execute_script(
        "const b = document.querySelector('#panel-play .toolbar').getBoundingClientRect(); return [b.top, b.bottom];"
    )
    assert 0 <= bar[0] <= 2 and bar[1] < 200  # the toolbar stays at the top of the screen
    shot(phone, tmp_path, "phone-50x30.png")


def finished_runs_naive(line, clue) -> list:
    """The clue numbers a line's marks (1, 0, None) finish, by listing every placement of the clue that fits them."""
    import itertools

    n, k = len(line), len(clue)
    placements = []
    for starts in itertools.combinations(range(n), k):
        if any(starts[i] + clue[i] >= starts[i + 1] for i in range(k - 1)) or (k and starts[-1] + clue[-1] > n):
            continue
        cells = [0] * n
        for st, length in zip(starts, clue):
            cells[st : st + length] = [1] * length
        if all(v is None or v == c for v, c in zip(line, cells)):
            placements.append(starts)
    if not placements:
        return []
    out = []
    for i, length in enumerate(clue):
        st = placements[0][i]
        bounded = (st == 0 or line[st - 1] == 0) and (st + length == n or line[st + length] == 0)
        if all(p[i] == st for p in placements) and bounded and all(v == 1 for v in line[st : st + length]):
            out.append(i)
    return out


def test_the_pages_finished_runs_equal_a_naive_listing_of_placements(page):
    import random

    rng = random.Random(69)
    cases = []
    for _ in range(400):
        n = rng.randint(1, 9)
        grid = [rng.random() < 0.5 for _ in range(n)]
        clue = runs("".join("1" if v else "0" for v in grid))
        line = [(1 if v else 0) if rng.random() < 0.6 else None for v in grid]
        if rng.random() < 0.2:  # marks that no placement fits
            j = rng.randrange(n)
            line[j] = 1 - line[j] if line[j] is not None else 1
        cases.append((line, clue))
    got = page.execute_script("return arguments[0].map(([line, clue]) => finishedRuns(line, clue));", cases)
    assert got == [finished_runs_naive(line, clue) for line, clue in cases]


def test_a_drawing_local_logic_cannot_finish_names_its_stuck_lines(page):
    """For makers: the lines where local logic stops, beside the shaded cells."""
    type_into(page, "draw-rows", "3")
    type_into(page, "draw-cols", "4")
    canvas = by_id(page, "draw-canvas")
    until(page, lambda d: grid_of(d, "draw-canvas") == ["0000"] * 3)
    click_cells(page, canvas, [(0, 0), (1, 1), (2, 3)])  # two of its cells can swap with their diagonal partners
    status = by_id(page, "draw-status")
    until(page, lambda d: grid_of(d, "draw-canvas") == ["1000", "0100", "0001"] and status.get_attribute("data-stuck"))
    answer = httpx.post(
        page.current_url.split("#")[0] + "api/analyze", json={"grid": ["1000", "0100", "0001"], "search": False}
    ).json()
    rows = sorted({r + 1 for r, _ in answer["unknown"]})
    cols = sorted({c + 1 for _, c in answer["unknown"]})
    said = f"row{'s' if len(rows) > 1 else ''} {', '.join(map(str, rows))}; column{'s' if len(cols) > 1 else ''} {', '.join(map(str, cols))}"
    assert rows and status.get_attribute("data-stuck") == said and f"stuck: {said}" in status.text
    # each clue says, on hover, its line's last deduction and where local logic stops on it
    titles = [e.get_attribute("title") for e in page.find_elements(By.CSS_SELECTOR, "#draw-row-clues > div")]
    for r, title in enumerate(titles):
        last = answer["last"].get(f"row {r + 1}")
        if last:
            assert title.startswith(
                f"row {r + 1}: its last deduction, local logic's update {last['update']} of {answer['updates']}:"
            )
        else:
            assert title.startswith(f"row {r + 1}: local logic decides nothing on it alone")
        left = sum(1 for x, _ in answer["unknown"] if x == r)
        assert (f"stops with {left} of its cells unknown" in title) == (left > 0)


def test_the_best_time_of_a_puzzle_is_kept_and_shown_when_it_is_solved_again(server, driver):
    """A first solve shows its time alone; solved again after Restart, slower than a kept best, it shows that
    best; faster, it says it is a new best and what the old one was; a reload still shows the best."""
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#c=1.1_1.1")  # 2x2 rows 1 1, columns 1 1: two solutions, either solves it
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "c=1.1_1.1")
    canvas, status = by_id(driver, "play-canvas"), lambda: by_id(driver, "play-status").text

    def solve_again():
        by_id(driver, "play-restart").click()
        until(driver, lambda d: not status().startswith("solved"))
        click_cells(driver, canvas, [(0, 0), (1, 1)])
        until(driver, lambda d: status().startswith("solved in "))

    click_cells(driver, canvas, [(0, 0), (1, 1)])
    until(driver, lambda d: status().startswith("solved in "))
    assert "best" not in status()  # the first solve: nothing to compare with
    key = driver.execute_script("return Object.keys(localStorage).find((k) => k.endsWith(':best'))")
    assert key and int(driver.execute_script(f"return Number(localStorage.getItem('{key}'))")) >= 0
    driver.execute_script(f"localStorage.setItem('{key}', '1')")  # a best of 1 ms: this solve is slower
    solve_again()
    assert status().endswith(", best 0:00")
    driver.execute_script(f"localStorage.setItem('{key}', '3723000')")  # 62:03: this solve beats it
    solve_again()
    assert status().endswith(", a new best (was 62:03)")
    assert int(driver.execute_script(f"return Number(localStorage.getItem('{key}'))")) < 3723000
    driver.execute_script(f"localStorage.setItem('{key}', '1')")
    driver.refresh()
    until(driver, lambda d: status().startswith("solved in ") and status().endswith(", best 0:00"))


def test_dots_are_a_third_mark_off_by_default_that_check_and_the_solve_ignore(server, driver):
    """Rows 1, 0 and columns 1, 0 (only the top-left cell filled). Mode offers a dot only with Dots on; a dot on a
    cell that is empty is no mistake for Check; D puts one from the keyboard; a fill goes over a dot, and the
    puzzle is solved with a dot left on an empty cell; the dots and the choice are kept across a reload."""
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#c=1.0_1.0")
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == "c=1.0_1.0")
    mode, dots, canvas = by_id(driver, "play-mode"), by_id(driver, "play-dots"), by_id(driver, "play-canvas")
    assert not dots.is_selected()
    assert [mode.click() or mode.text for _ in range(3)] == ["Mode: cross", "Mode: fill", "Mode: cross"]
    mode.click()  # back to fill
    dots.click()
    assert [mode.click() or mode.text for _ in range(3)] == ["Mode: cross", "Mode: dot", "Mode: fill"]
    mode.click(), mode.click()  # dot
    click_cells(driver, canvas, [(1, 1)])
    until(driver, lambda d: marks_of(d) == ["..", ".o"])
    by_id(driver, "play-check").click()
    until(driver, lambda d: by_id(d, "play-status").text == "no mistakes so far")
    driver.execute_script("document.querySelector('#play-board').focus()")  # the keyboard's cursor: top left
    ActionChains(driver).send_keys("d").perform()
    until(driver, lambda d: marks_of(d)[0][0] == "o")
    mode.click()  # fill
    click_cells(driver, canvas, [(0, 0)])  # a fill goes over the dot
    until(driver, lambda d: marks_of(d) == ["1.", ".o"])
    until(driver, lambda d: by_id(d, "play-status").text.startswith("solved in "))
    driver.refresh()
    until(driver, lambda d: marks_of(d) == ["1.", ".o"] and by_id(d, "play-dots").is_selected())


# --- issue 77, items 6-9: clipped clue digits, names, wording, Play with no puzzle ---

# The tallest column's top number and a number with the same text lower in a column: their boxes, and the clip's top.
TOP_DIGITS = """
const cols = [...document.querySelectorAll('#play-col-clues > div')];
const tall = cols.reduce((a, b) => (b.children.length > a.children.length ? b : a)), top = tall.children[0];
const other = cols.flatMap((c) => [...c.children].slice(1)).find((s) => s.textContent === top.textContent);
const box = (s) => { const b = s.getBoundingClientRect(); return [b.left, b.right, b.top, b.bottom]; };
return {top: box(top), other: box(other), clip: document.querySelector('.play-scroll').getBoundingClientRect().top,
  font: parseFloat(getComputedStyle(top).fontSize)};
"""


def ink_rows(picture, box) -> int:
    """How many pixel rows the glyph around the middle of ``box`` (left, right, top, bottom) inks: the run of rows with
    a dark pixel between left and right that holds the box's middle row."""
    import math

    left, right, top, bottom = box
    inked = lambda y: any(sum(picture.getpixel((x, y))[:3]) < 3 * 200 for x in range(int(left), math.ceil(right)))
    middle = int((top + bottom) / 2)
    assert inked(middle)
    up, down = middle, middle
    while inked(up - 1):
        up -= 1
    while inked(down + 1):
        down += 1
    return down - up + 1


def test_the_top_digit_of_mums_tallest_clue_column_is_drawn_whole(server, driver, tmp_path):
    """Mum (webpbn #65, 40x34, columns of up to 12 numbers) zoomed out to the 8 px clue font: the top number of its
    tallest column inks as many rows as the same number lower down (the board's scroll box cut its top row)."""
    import io
    import pathlib

    from PIL import Image

    mum = localcount.Puzzle.read(pathlib.Path(__file__).parent / "puzzles" / "webpbn-00065.non")
    half = lambda lines: ".".join(",".join(map(str, c)) or "0" for c in lines)
    link = f"c={half(mum.rows)}_{half(mum.columns)}"
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#" + link)
    driver.refresh()
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == link)
    by_id(driver, "play-zoom-out").click()  # the smallest cells: the clue font at its least
    until(driver, lambda d: d.execute_script(TOP_DIGITS)["font"] == 8)
    got = driver.execute_script(TOP_DIGITS)
    picture = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    shot(driver, tmp_path, "play-mum-8px.png")
    assert got["top"][2] >= got["clip"]
    assert ink_rows(picture, got["top"]) >= ink_rows(picture, got["other"]), got


def test_a_puzzle_keeps_one_name_and_shows_its_size_once(page):
    """A Type example plays and solves under its name; a drawing opened in Files, and a generated puzzle, have one
    title on the card, the solve's result and Play; a generated puzzle's title names its size once."""
    by_id(page, "tab-type").click()
    until(page, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#type-example option")) > 1)
    Select(by_id(page, "type-example")).select_by_value("heart")
    until(page, lambda d: by_id(d, "type-rows").get_attribute("value") == "8")
    by_id(page, "solve-button").click()
    until(page, lambda d: by_id(d, "result-title").text.startswith("heart"))
    by_id(page, "type-play").click()
    until(page, lambda d: by_id(d, "play-title").text.startswith("heart"))

    titles = lambda d: [
        by_id(d, name).get_attribute("textContent") for name in ("files-title", "result-title", "play-title")
    ]
    by_id(page, "tab-draw").click()
    by_id(page, "draw-to-files").click()
    until(page, lambda d: by_id(d, "files-title").text.startswith("drawing-10x10"))
    by_id(page, "files-solve").click()
    until(page, lambda d: by_id(d, "result").is_displayed() and by_id(d, "result-title").text)
    by_id(page, "files-play").click()
    until(page, lambda d: by_id(d, "play-title").text.startswith("drawing-10x10"))
    by_id(page, "tab-files").click()
    assert len(set(titles(page))) == 1, titles(page)

    type_into(page, "gen-rows", "6")
    type_into(page, "gen-cols", "6")
    type_into(page, "gen-steps", "")
    by_id(page, "gen-button").click()
    until(page, lambda d: by_id(d, "files-title").text.startswith("random 6x6"), 60)
    by_id(page, "files-solve").click()
    until(page, lambda d: by_id(d, "result-title").text.startswith("random 6x6"))
    by_id(page, "files-play").click()
    until(page, lambda d: by_id(d, "play-title").text.startswith("random 6x6"))
    by_id(page, "tab-files").click()
    names = titles(page)
    assert len(set(names)) == 1 and names[0].replace("×", "x").count("6x6") == 1, names


def test_counts_are_singular_or_plural_and_errors_speak_of_the_page(page, server, tmp_path):
    """Counts: "in 1 step", "has 1 clue"; generate's failure names the page's own controls, not the command line's; a hint
    that decides nothing is not counted in "solved ... with N hints"."""
    by_id(page, "tab-type").click()
    type_into(page, "type-rows", "1")
    type_into(page, "type-cols", "1")
    for name in ("type-row-0", "type-col-0"):
        by_id(page, name).send_keys("1")
    by_id(page, "solve-button").click()
    verdict = by_id(page, "result-verdict")
    until(page, lambda d: "local logic" in verdict.text)
    assert "in 1 step ·" in verdict.text, verdict.text

    bad = tmp_path / "one-column.non"
    bad.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n")
    by_id(page, "tab-files").click()
    by_id(page, "file-input").send_keys(str(bad))
    until(page, lambda d: "section has" in by_id(d, "message").text)
    assert "has 1 clue," in by_id(page, "message").text, by_id(page, "message").text

    type_into(page, "gen-rows", "5")
    type_into(page, "gen-cols", "5")
    type_into(page, "gen-steps", "17-")  # so few 5x5s take 17 steps or more that seed 1 finds none
    type_into(page, "gen-seed", "1")
    by_id(page, "gen-button").click()
    until(page, lambda d: by_id(d, "message").text.startswith("generate:"), 90)
    said = by_id(page, "message").text
    assert "--" not in said and "Steps" in said, said

    page.get(server + "/#c=1.1_1.1")  # two solutions: no line and no probe decides a cell
    page.refresh()
    until(page, lambda d: by_id(d, "play-title").get_attribute("data-link") == "c=1.1_1.1")
    page.execute_script("localStorage.clear()")
    by_id(page, "play-hint").click()
    until(page, lambda d: status_of(d).startswith("no line alone decides"))
    click_cells(page, by_id(page, "play-canvas"), [(0, 0), (1, 1)])
    until(page, lambda d: status_of(d).startswith("solved in"))
    assert "hint" not in status_of(page), status_of(page)


def test_play_with_no_puzzle_says_how_to_get_one_and_offers_no_controls(server, driver):
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#play")
    driver.refresh()
    until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
    for name in ("play-hint", "play-check", "play-restart", "play-zoom-in", "play-zoom-out", "play-undo", "play-redo"):
        assert not by_id(driver, name).is_enabled(), name
    none = by_id(driver, "play-none")
    assert none.is_displayed() and "Files" in none.text and not by_id(driver, "play-canvas").is_displayed()
    bar = driver.execute_script("return document.querySelector('#panel-play .toolbar').getBoundingClientRect().bottom")
    assert none.rect["y"] - bar < 80  # no blank block between the toolbar and the line


# --- colour play: a 4x4 of two colours (marks: "1" red, "2" blue, "." the background) ---

COLOURED = ["112.", "1.22", ".22.", "22.1"]
COLOUR_LINK = "c=2a,1b.1a,2b.2b.2b,1a_2a,1b.1a,2b.3b.1b,1a&p=e11d48.2563eb"


def colour_xml() -> str:
    """COLOURED as a webpbn XML file, its colours named red and blue."""
    from localcount.puzzle import formats
    from localcount.puzzle.solving.colour import ColourPuzzle, line_clue

    cells = tuple(0 if ch == "." else int(ch) for row in COLOURED for ch in row)
    rows = tuple(line_clue(cells[r * 4 : (r + 1) * 4]) for r in range(4))
    cols = tuple(line_clue(cells[c::4]) for c in range(4))
    palette = (("white", ".", "FFFFFF"), ("red", "r", "E11D48"), ("blue", "b", "2563EB"))
    return formats.format_puzzle(ColourPuzzle(rows, cols, palette, title="Two colours"), "xml")


def palette_buttons(driver) -> list:
    return driver.find_elements(By.CSS_SELECTOR, "#play-palette button")


def colour_cells(colour: str) -> list:
    return [(r, c) for r in range(4) for c in range(4) if COLOURED[r][c] == colour]


def check_colour_hint_and_undo(driver) -> None:
    """A hint on the empty board names a line and paints its cells in their colours, the reason naming them with
    swatches; undo takes it back, redo brings it again."""
    assert marks_of(driver) == ["...."] * 4
    by_id(driver, "play-hint").click()
    until(driver, lambda d: by_id(d, "play-status").get_attribute("data-line"))
    line = by_id(driver, "play-status").get_attribute("data-line")
    assert status_of(driver).startswith(line + ": clue ") and driver.find_elements(
        By.CSS_SELECTOR, "#play-status .swatch"
    )
    hinted = marks_of(driver)
    decided = [(r, c) for r in range(4) for c in range(4) if hinted[r][c] != "."]
    assert decided and all(hinted[r][c] == COLOURED[r][c].replace(".", "x") for r, c in decided)
    by_id(driver, "play-undo").click()
    until(driver, lambda d: marks_of(d) == ["...."] * 4)
    by_id(driver, "play-redo").click()
    until(driver, lambda d: marks_of(d) == hinted)


def test_a_colour_puzzle_from_files_plays_at_1280x900_to_solved(server, driver, tmp_path):
    """Files opens a colour XML; Play shows its palette and coloured clues; a hint, undo and redo; the palette's
    buttons and the keys 1-2 pick the colour a click paints; a struck run; Check names a wrong cell; solved; a
    reload keeps it all."""
    driver.set_window_size(1280, 900)
    try:
        (tmp_path / "two.xml").write_text(colour_xml())
        driver.get(server + "/")
        driver.execute_script("localStorage.clear()")
        driver.refresh()
        until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        by_id(driver, "tab-files").click()
        by_id(driver, "file-input").send_keys(str(tmp_path / "two.xml"))
        until(driver, lambda d: by_id(d, "files-current").is_displayed())
        by_id(driver, "files-play").click()
        link = COLOUR_LINK + "&t=Two%20colours"
        until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == link)
        assert "2 colours" in by_id(driver, "play-title").text and not by_id(driver, "message").is_displayed()
        assert [b.get_attribute("aria-pressed") for b in palette_buttons(driver)] == ["true", "false"]
        chip = driver.find_element(By.CSS_SELECTOR, "#play-row-clues > div .chip")
        assert chip.text == "2" and chip.value_of_css_property("background-color") == "rgba(225, 29, 72, 1)"
        check_colour_hint_and_undo(driver)
        by_id(driver, "play-restart").click()
        until(driver, lambda d: marks_of(d) == ["...."] * 4)

        canvas = by_id(driver, "play-canvas")
        palette_buttons(driver)[1].click()  # blue, by its button
        click_cells(driver, canvas, [(3, 0), (3, 1)])
        until(driver, lambda d: marks_of(d)[3] == "22..")
        row4 = driver.find_elements(By.CSS_SELECTOR, "#play-row-clues > div")[3].find_elements(By.TAG_NAME, "span")
        assert row4[0].get_attribute("data-done") == "false"  # its run's end is not marked yet
        click_cells(driver, canvas, [(3, 2)], "right")
        until(
            driver,
            lambda d: row4[0].get_attribute("data-done") == "true" and row4[1].get_attribute("data-done") == "false",
        )
        click_cells(driver, canvas, [(0, 0)])  # blue where red belongs
        until(driver, lambda d: marks_of(d)[0][0] == "2")
        by_id(driver, "play-check").click()
        until(driver, lambda d: "1 mark is wrong" in status_of(d))
        assert by_id(driver, "play-status").get_attribute("data-kind") == "mistakes"
        ActionChains(driver).send_keys("1").perform()  # the board has the keyboard: 1 picks red
        until(driver, lambda d: palette_buttons(d)[0].get_attribute("aria-pressed") == "true")
        click_cells(driver, canvas, [(0, 0)])  # red paints over blue
        until(driver, lambda d: marks_of(d)[0][0] == "1")
        click_cells(driver, canvas, [cell for cell in colour_cells("1") if cell != (0, 0)])
        ActionChains(driver).send_keys("2").perform()
        until(driver, lambda d: palette_buttons(d)[1].get_attribute("aria-pressed") == "true")
        click_cells(driver, canvas, [cell for cell in colour_cells("2") if cell[0] != 3])
        until(driver, lambda d: status_of(d).startswith("solved in"))
        assert [row.replace("x", ".") for row in marks_of(driver)] == COLOURED
        shot(driver, tmp_path, "play-colour.png")
        kept = marks_of(driver)
        driver.refresh()
        until(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "true")
        until(driver, lambda d: marks_of(d) == kept and status_of(d).startswith("solved in"))
    finally:
        driver.set_window_size(1280, 1000)


def test_a_colour_link_plays_on_a_400x800_phone(server, phone, tmp_path):
    """A #c= link with colours opens on a phone: a palette bar of finger-sized buttons across the screen, every tab
    on screen; taps paint in the colour picked, a hint names a line, Check a wrong cell; solved; a reload keeps it."""
    for url in (server + "/", server + "/#" + COLOUR_LINK):  # a fresh page, its progress forgotten, then the link
        phone.get(url)
        phone.execute_script("localStorage.clear()")
    phone.refresh()
    until(phone, lambda d: by_id(d, "play-title").get_attribute("data-link") == COLOUR_LINK)
    width = phone.execute_script("return innerWidth")
    assert phone.execute_script("return document.documentElement.scrollWidth") <= width
    boxes = "return [...arguments[0]].map((e) => { const b = e.getBoundingClientRect(); return [b.left, b.right, b.height]; });"
    for left, right, _ in phone.execute_script(boxes, phone.find_elements(By.CSS_SELECTOR, "[role=tab]")):
        assert 0 <= left and right <= width, (left, right)  # every tab on screen
    for left, right, height in phone.execute_script(boxes, palette_buttons(phone)):
        assert 0 <= left and right <= width and height >= 40, (left, right, height)  # a bar of finger-sized buttons
    check_colour_hint_and_undo(phone)
    canvas = by_id(phone, "play-canvas")
    todo = lambda colour: [cell for cell in colour_cells(colour) if marks_of(phone)[cell[0]][cell[1]] == "."]
    palette_buttons(phone)[1].click()
    tap(phone, canvas, 0, 0)  # blue where red belongs
    until(phone, lambda d: marks_of(d)[0][0] == "2")
    by_id(phone, "play-check").click()
    until(phone, lambda d: "1 mark is wrong" in status_of(d))
    by_id(phone, "play-undo").click()
    until(phone, lambda d: marks_of(d)[0][0] == ".")
    for cell in todo("2"):
        tap(phone, canvas, *cell)
    palette_buttons(phone)[0].click()
    for cell in todo("1"):
        tap(phone, canvas, *cell)
    until(phone, lambda d: status_of(d).startswith("solved in"))
    shot(phone, tmp_path, "phone-colour.png")
    kept = marks_of(phone)
    phone.refresh()
    until(phone, lambda d: by_id(d, "play-title").get_attribute("data-link") == COLOUR_LINK)
    until(phone, lambda d: marks_of(d) == kept and status_of(d).startswith("solved in"))


def play_link(driver, server: str, link: str) -> None:
    """A fresh page (nothing kept in the browser) opened at /#LINK: its puzzle on Play's board."""
    driver.get(server + "/")
    driver.execute_script("localStorage.clear()")
    driver.get(server + "/#" + link)
    driver.refresh()
    until(driver, lambda d: by_id(d, "play-title").get_attribute("data-link") == link)


def message_of(driver) -> str:
    """The message area's text ('' while it is hidden)."""
    box = by_id(driver, "message")
    return box.text if box.is_displayed() else ""


def test_one_bad_size_beside_a_good_one_is_said_naming_its_box_on_every_tab(page):
    """Issue 77: Rows 0 on Draw, Rows 1000 on Type, Rows 500 on Files' Generate (the Columns good) each say so."""
    type_into(page, "draw-rows", "0")
    until(page, lambda d: "sizes are 1 to 100: Rows is 0" in message_of(d))
    assert by_id(page, "draw-rows").get_attribute("aria-invalid") == "true"
    type_into(page, "draw-rows", "4")
    until(page, lambda d: message_of(d) == "" and grid_of(d, "draw-canvas") == ["0" * 10] * 4)
    by_id(page, "tab-type").click()
    type_into(page, "type-rows", "1000")
    until(page, lambda d: "sizes are 1 to 100: Rows is 1000" in message_of(d))
    by_id(page, "tab-files").click()
    type_into(page, "gen-rows", "500")
    by_id(page, "gen-button").click()
    until(page, lambda d: "sizes are 1 to 100: Rows is 500" in message_of(d))
    type_into(page, "gen-rows", "5")
    type_into(page, "gen-cols", "0")
    by_id(page, "gen-button").click()
    until(page, lambda d: "sizes are 1 to 100: Columns is 0" in message_of(d))


def type_clues(driver, rows: list, columns: list) -> None:
    """Type's boxes set to len(rows) x len(columns) and these clues typed in."""
    by_id(driver, "tab-type").click()
    type_into(driver, "type-rows", str(len(rows)))
    type_into(driver, "type-cols", str(len(columns)))
    for kind, lines in (("row", rows), ("col", columns)):
        until(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, f"#type-{kind}-list input")) == len(lines))
        for i, clue in enumerate(lines):
            field = by_id(driver, f"type-{kind}-{i}")
            field.send_keys(Keys.CONTROL, "a")
            field.send_keys(" ".join(map(str, clue)))


def test_clues_with_two_solutions_warn_on_play_from_type_as_from_a_link(page):
    """Issue 77: Type's Play of a 2x2 whose every clue is 1 (either diagonal) warns as its #c= link does."""
    type_clues(page, [[1], [1]], [[1], [1]])
    by_id(page, "type-play").click()
    until(page, lambda d: by_id(d, "play-title").get_attribute("data-link") == "c=1.1_1.1")
    until(page, lambda d: "more than one solution" in message_of(d))


def test_the_hint_that_solves_the_puzzle_leaves_no_cell_highlighted(server, driver):
    """Issue 77: hints to the end of #5x5/1234; once solved, no cell keeps the last hint's blue."""
    play_link(driver, server, "5x5/1234")
    for _ in range(50):
        if status_of(driver).startswith("solved"):
            break
        before = marks_of(driver)
        by_id(driver, "play-hint").click()
        until(driver, lambda d: marks_of(d) != before or status_of(d).startswith("solved"))
    assert status_of(driver).startswith("solved in") and " hint" in status_of(driver)
    colours = driver.execute_script(  # each cell's colour at its centre
        "const c = document.querySelector('#play-canvas'), ctx = c.getContext('2d'), cell = +c.dataset.cell;"
        "const k = c.width / c.getBoundingClientRect().width, out = [];"
        "for (let r = 0; r < 5; r++) for (let j = 0; j < 5; j++) {"
        "  const [R, G, B] = ctx.getImageData(Math.floor((j + 0.5) * cell * k), Math.floor((r + 0.5) * cell * k), 1, 1).data;"
        "  out.push([R, G, B].map((v) => v.toString(16).padStart(2, '0')).join('')); }"
        "return out;"
    )
    assert not {"2563eb", "dbeafe"} & set(colours), colours  # the hint's blue fill, the hint's light blue cell


def test_a_message_stays_on_the_tab_it_was_said_on(page):
    """Issue 77: Draw's 'made simple' does not follow the player to Play; back on Draw it is there again."""
    type_into(page, "draw-rows", "2")
    type_into(page, "draw-cols", "2")
    until(page, lambda d: grid_of(d, "draw-canvas") == ["00", "00"])
    click_cells(page, by_id(page, "draw-canvas"), [(0, 0), (1, 1)])  # either diagonal: not simple
    until(page, lambda d: grid_of(d, "draw-canvas") == ["10", "01"])
    by_id(page, "draw-simplify").click()
    until(page, lambda d: "made simple" in message_of(d))
    by_id(page, "draw-play").click()
    until(page, lambda d: by_id(d, "panel-play").is_displayed() and by_id(d, "play-title").get_attribute("data-link"))
    assert "made simple" not in message_of(page)
    by_id(page, "tab-draw").click()
    until(page, lambda d: "made simple" in message_of(d))


def test_an_all_empty_puzzle_is_solved_as_it_opens(server, driver):
    """Issue 77: #c=0.0_0.0 (a 2x2 with no filled cell) says solved at once, its clock stopped at 0:00."""
    play_link(driver, server, "c=0.0_0.0")
    until(driver, lambda d: status_of(d).startswith("solved"))
    assert by_id(driver, "play-timer").get_attribute("data-running") == "false"
    assert by_id(driver, "play-timer").text == "0:00"


def test_a_late_answer_for_an_earlier_link_does_not_touch_what_a_newer_link_said(server, driver):
    """Issue 77: link #5x5/7's answer held back 1.5 s, link #5x5/abc followed meanwhile: its error stays, and
    #5x5/1234 stays on the board (the answer for #5x5/7 comes after a newer link: it is dropped)."""
    play_link(driver, server, "5x5/1234")
    driver.execute_script(
        "const real = window.fetch;"
        "window.fetch = (url, options) => url.endsWith('/api/nth')"
        "  ? new Promise((done) => setTimeout(() => done(real(url, options)), 1500)) : real(url, options);"
        "location.hash = '5x5/7';"
    )
    until(driver, lambda d: by_id(d, "busy").is_displayed())  # #5x5/7 asked for
    driver.execute_script("location.hash = '5x5/abc'")
    until(driver, lambda d: "#5x5/abc names no puzzle" in message_of(d))
    until(driver, lambda d: not by_id(d, "busy").is_displayed())  # #5x5/7 answered
    assert "#5x5/abc names no puzzle" in message_of(driver) and "still playing 5x5 puzzle #1,234" in message_of(driver)
    assert by_id(driver, "play-title").get_attribute("data-link") == "5x5/1234"
    assert driver.execute_script("return location.hash") == "#5x5/1234"


def test_typed_colour_clues_are_checked_solved_and_played(page):
    """Type with Colours 'red #2563eb': runs '1a 1b' (a: red, b: blue) are checked (a colour that is none, a letter
    past the colours, a colour's cells that rows and columns count apart), solved as the one 2x2 grid, and played
    in colour to solved."""
    by_id(page, "tab-type").click()
    type_into(page, "type-rows", "2")
    type_into(page, "type-cols", "2")
    message = by_id(page, "type-message")
    type_into(page, "type-colours", "red nocolour")
    until(page, lambda d: "colours: nocolour is not a colour" in message.text)
    type_into(page, "type-colours", "red #2563eb")
    for i, clue in enumerate(["1a 1b", "1b 1a"]):
        type_into(page, f"type-row-{i}", clue)
    type_into(page, "type-col-0", "1a 1c")
    until(page, lambda d: "column 1: 1c is not a run (a length and a colour's letter, a to b)" in message.text)
    type_into(page, "type-col-0", "1a 1b")
    type_into(page, "type-col-1", "1a")
    until(page, lambda d: message.text == "colour b: rows fill 2 cells, columns 1")
    type_into(page, "type-col-1", "1b 1a")
    until(page, lambda d: message.text == "2×2: the clues fit" and by_id(d, "solve-button").is_enabled())
    by_id(page, "solve-button").click()
    until(page, lambda d: by_id(d, "result-verdict").get_attribute("data-verdict") == "unique")
    by_id(page, "type-play").click()
    until(page, lambda d: "2 colours" in by_id(d, "play-title").text)
    assert len(page.find_elements(By.CSS_SELECTOR, "#play-palette button")) == 2
    canvas = by_id(page, "play-canvas")
    for key, cells in (("1", [(0, 0), (1, 1)]), ("2", [(0, 1), (1, 0)])):
        page.execute_script("document.querySelector('#play-board').focus()")
        ActionChains(page).send_keys(key).perform()  # picks the colour
        click_cells(page, canvas, cells)
    until(page, lambda d: marks_of(d) == ["12", "21"])
    until(page, lambda d: by_id(d, "play-status").text.startswith("solved in "))
