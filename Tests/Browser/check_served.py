#!/usr/bin/env python3
"""Browses a running regions-serve in Chromium as a person does, and checks what Flickr (the
fake, through its request log) is asked for. Run by ServeBrowserEndToEndTests (bin/test):

    python3 Tests/Browser/check_served.py URL FAKE_LOG REGION_ID HOSTILE_ID [--screenshots OUT]

The browser loads images lazily as a person's does (headless Chromium loads every lazy image
unless told --blink-settings=lazyLoadEnabled=true), in a small window. Checks:

- the region's first page asks Flickr only for thumbnails of that page, not all of them,
  and every thumbnail on screen shows;
- scrolling to the end asks for the rest of that page's, and for no other page's;
- the next page asks only for its own; a reload asks for none;
- opening a photo downloads its full image once, shows it, and puts it first in Recents;
- deleting it (the page's button) removes it from the region's page;
- a hostile title is shown as text on the photo's page and runs nothing;
- nothing on any page is logged as an error, and no page needs sideways scrolling at 390 px.

Exit status 0 when every check passed, 1 otherwise (each failure on stderr).
"""
import argparse
import json
import os
import sys
import urllib.parse
import urllib.request
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import check, not_blank, outcome, start_chromium  # noqa: E402

from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402


def start_browser(width, height):
    return start_chromium([
        "--window-size=%d,%d" % (width, height),
        # Lazy images load as they come near the screen, as in a person's browser.
        "--blink-settings=lazyLoadEnabled=true",
        "--no-proxy-server",
    ], {"browser": "ALL", "performance": "ALL"})  # the performance log: the network's events


class Requests:
    """The browser's requests under way, from its network events (CDP, through the
    performance log), so a check can wait until the page has stopped loading."""

    def __init__(self, driver):
        self.driver = driver
        self.pending = {}
        self.urls = set()  # every address the pages asked for

    def under_way(self):
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            method, params = message.get("method"), message.get("params", {})
            if method == "Network.requestWillBeSent":
                self.pending[params["requestId"]] = params["request"]["url"]
                self.urls.add(params["request"]["url"])
            elif method in ("Network.loadingFinished", "Network.loadingFailed"):
                self.pending.pop(params.get("requestId"), None)
        return list(self.pending.values())


def wait_until(what, predicate, timeout=120):
    """Polls `predicate` until it holds; a failed check after `timeout` seconds (generous: a
    loaded machine makes Chromium slow, and a passing run never waits that long)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except (NoSuchElementException, StaleElementReferenceException):
            value = None  # the next page is still coming in
        except WebDriverException as error:
            # The same, as this ChromeDriver says it for an element of the page just left.
            if "does not belong to the document" not in str(error):
                raise
            value = None
        if value:
            return value
        time.sleep(0.05)
    check(False, "timed out waiting for " + what)
    return None


class FakeLog:
    """The fake Flickr's request log: which photos' images were asked for."""

    def __init__(self, path):
        self.path = path

    def images(self, suffix):
        ids = []
        if not os.path.exists(self.path):
            return ids
        with open(self.path, encoding="utf-8") as f:
            for line in f:
                entry = json.loads(line)
                name = entry["path"].rsplit("/", 1)[-1]
                if entry["kind"] == "image" and name.endswith("_%s.jpg" % suffix):
                    ids.append(name.split("_", 1)[0])
        return ids


def card_ids(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('li.card')].map(c => c.id.replace('photo-', ''))")


def shown_thumbnails(driver):
    """Ids of the cards whose thumbnail is on screen, and whether each has loaded."""
    return driver.execute_script("""
        const seen = {};
        for (const card of document.querySelectorAll('li.card')) {
          const image = card.querySelector('img');
          if (!image) continue;
          const box = image.getBoundingClientRect();
          if (box.bottom > 0 && box.top < window.innerHeight && box.right > 0 && box.left < window.innerWidth)
            seen[card.id.replace('photo-', '')] = image.complete && image.naturalWidth > 0;
        }
        return seen;
    """)


def all_card_images_loaded(driver):
    return driver.execute_script(
        "return [...document.querySelectorAll('li.card img')].every(i => i.complete && i.naturalWidth > 0)")


def errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def settle(driver, requests, log):
    """Waits until the thumbnails on screen have loaded and no request of the page is still
    under way; returns the thumbnails Flickr was asked for, in order."""
    wait_until("the thumbnails on screen to load", lambda: all(shown_thumbnails(driver).values()))
    wait_until("the page's requests to end", lambda: not requests.under_way())
    return log.images("q")


def scroll_through(driver, requests):
    """Scrolls to the end a screen at a time, as a person does, letting what comes on screen
    load at each step (a jump to the end would pass over the middle)."""
    while True:
        wait_until("the thumbnails on screen to load", lambda: all(shown_thumbnails(driver).values()))
        wait_until("the page's requests to end", lambda: not requests.under_way())
        at_end = driver.execute_script(
            "const before = window.scrollY; window.scrollBy(0, window.innerHeight * 0.8); return window.scrollY === before")
        if at_end:
            return


def check_feed_link(driver, page, window):
    """The page's feed, found as a feed reader finds it (its alternate link, resolved by the
    browser): an Atom feed, for the page's window."""
    links = driver.find_elements(By.CSS_SELECTOR, 'link[rel=alternate][type="application/atom+xml"]')
    check(len(links) == 1, "%s has %d feed links" % (page, len(links)))
    if not links:
        return
    href = links[0].get_attribute("href")
    check(window in href, "%s links a feed for another window: %s" % (page, href))
    # Fetched as a feed reader would (the page's own policy keeps its scripts from fetching).
    with urllib.request.urlopen(href) as response:
        answer = [response.status, response.headers.get("Content-Type"), response.read().decode("utf-8")]
    check(answer[0] == 200 and answer[1] == "application/atom+xml; charset=utf-8", "%s's feed answered %s %s" % (page, answer[0], answer[1]))
    check('<feed xmlns="http://www.w3.org/2005/Atom">' in answer[2] and "<entry>" in answer[2], "%s's feed is not an Atom feed with entries" % page)


def main():
    parser = argparse.ArgumentParser(description="Browses regions-serve in Chromium.")
    parser.add_argument("url")
    parser.add_argument("fake_log")
    parser.add_argument("region")
    parser.add_argument("hostile")
    parser.add_argument("--screenshots")
    parser.add_argument("--surging", required=True, help="the id of the region the fake's surge is in")
    args = parser.parse_args()
    base = args.url.rstrip("/")
    log = FakeLog(args.fake_log)
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)

    def shot(driver, name):
        png = driver.get_screenshot_as_png()
        colours, largest = not_blank(png)
        check(colours >= 50 and largest < 0.9, "%s: the screenshot looks blank" % name)
        if args.screenshots:
            with open(os.path.join(args.screenshots, name + ".png"), "wb") as f:
                f.write(png)

    driver = start_browser(800, 600)
    requests = Requests(driver)
    try:
        check(log.images("q") == [], "before any page, %d thumbnails were asked for" % len(log.images("q")))
        driver.get(base + "/")
        shot(driver, "served-top")
        check(log.images("q") == [], "the top regions page asked for thumbnails")

        # The region's first page: only what is on screen (and what Chromium loads just ahead).
        driver.get(base + "/regions/" + args.region)
        first = card_ids(driver)
        check(len(first) == 30, "the region's first page has %d photos, expected 30" % len(first))
        asked = settle(driver, requests, log)
        on_screen = shown_thumbnails(driver)
        check(on_screen and all(on_screen.values()), "thumbnails on screen not shown: %s" % on_screen)
        check(set(on_screen) <= set(asked), "on screen but never asked for: %s" % (set(on_screen) - set(asked)))
        # Sharp where shown: Flickr's 150 px square, not the 75 px one stretched (issue 36.3).
        sizes = driver.execute_script(
            "return [...document.querySelectorAll('li.card img')].filter(i => i.complete && i.naturalWidth > 0)"
            ".map(i => [i.naturalWidth, Math.round(i.getBoundingClientRect().width)])")
        check(sizes and all(natural >= shown for natural, shown in sizes),
              "thumbnails shown larger than they are (natural, shown px): %s" % sizes[:5])
        check(set(asked) <= set(first), "asked for thumbnails of other pages: %s" % (set(asked) - set(first)))
        check(len(asked) < len(first), "all %d thumbnails of the page were asked for before scrolling" % len(asked))
        check(len(asked) == len(set(asked)), "a thumbnail was asked for twice: %s" % asked)
        shot(driver, "served-region")
        before_scroll = len(asked)
        # The map's place names, as drawn: none covers another, and none is outside the map.
        labels = driver.execute_script("""
            const frame = document.querySelector('figure.map .frame svg').getBoundingClientRect();
            return [[frame.left, frame.top, frame.right, frame.bottom],
                    [...document.querySelectorAll('figure.map .places text')].map(t => {
                        const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.top, r.right, r.bottom]; })]""")
        frame, names = labels
        check(names, "the region's map names no place")
        for i, (name, left, top, right, bottom) in enumerate(names):
            for other, l2, t2, r2, b2 in names[i + 1:]:
                check(right <= l2 or r2 <= left or bottom <= t2 or b2 <= top, "the map's labels %r and %r overlap" % (name, other))
        # Names and counted clusters lie over the page's pins (an overlay the size of the map
        # that takes no clicks), no name covers a cluster's disc, and every pin not under
        # another pin answers a click at its centre.
        over = driver.execute_script("""
            const map = document.querySelector('figure.map .frame svg').getBoundingClientRect();
            const over = document.querySelector('figure.map svg.over'), box = over.getBoundingClientRect();
            const discs = [...over.querySelectorAll('.cluster circle')].map(c => { const r = c.getBoundingClientRect();
                return [r.left + r.width / 2, r.top + r.height / 2, r.width / 2]; });
            const hit = [...document.querySelectorAll('figure.map a.pin')].map(p => { const r = p.getBoundingClientRect();
                const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); return e ? (e.closest('a.pin') ? 'pin' : e.tagName) : 'none'; });
            return [[map.left, map.top, map.width, map.height], [box.left, box.top, box.width, box.height],
                    getComputedStyle(over).pointerEvents, discs, hit];""")
        map_box, over_box, pointer, discs, hit = over
        check(all(abs(a - b) < 0.5 for a, b in zip(map_box, over_box)), "the names' overlay %s is not the map's frame %s" % (over_box, map_box))
        check(pointer == "none" and hit and set(hit) == {"pin"}, "a pin does not take a click through the overlay: %s, %s" % (pointer, hit))
        for name, left, top, right, bottom in names:
            for cx, cy, r in discs:
                dx, dy = cx - min(max(cx, left), right), cy - min(max(cy, top), bottom)
                check(dx * dx + dy * dy >= (r - 1) ** 2, "the map's label %r covers a counted cluster at %.0f,%.0f" % (name, cx, cy))
        check(all(frame[0] - 1 <= n[1] and n[3] <= frame[2] + 1 for n in names),
              "a place name runs off the map: %s" % [n[0] for n in names if n[1] < frame[0] - 1 or n[3] > frame[2] + 1])
        # The region's outline (the subdivision or country that holds its photos, found by where
        # they are) holds at least half of its photos' dots and clusters, as the rule says, and
        # the map names cities (GeoNames') as well as Flickr's places.
        inside = driver.execute_script("""
            // The area's fill: on a city's map its outline is only its borders (the coasts
            // are the high-resolution ones), so what it holds is told by the fill.
            const outline = document.querySelector('figure.map path.region');
            if (!outline) return null;
            const own = outline.transform.baseVal.consolidate();
            const toPath = own ? own.matrix.inverse() : new DOMMatrix();
            const spots = [...document.querySelectorAll('figure.map .dots circle, figure.map .cluster circle')];
            const held = spots.filter(c => outline.isPointInFill(new DOMPoint(c.cx.baseVal.value, c.cy.baseVal.value).matrixTransform(toPath)));
            return [held.length, spots.length, document.querySelectorAll('figure.map .places text.city').length];""")
        check(inside is not None, "the region's map outlines no subdivision or country")
        if inside:
            check(inside[1] > 0 and 2 * inside[0] >= inside[1], "the region's outline holds %d of its %d spots" % (inside[0], inside[1]))
            check(inside[2] > 0, "the region's map names no city")

        # Scrolling to the end brings the rest of this page's, no other page's.
        scroll_through(driver, requests)
        check(all_card_images_loaded(driver), "after scrolling through, not every thumbnail of the page shows")
        asked = log.images("q")
        check(sorted(asked) == sorted(first), "after scrolling: asked %d, the page has %d (%s)"
              % (len(asked), len(first), set(asked) ^ set(first)))
        check(len(asked) > before_scroll, "scrolling asked for nothing more")

        # The next page: its own only.
        driver.find_element(By.CSS_SELECTOR, "a[rel=next]").click()
        wait_until("the second page", lambda: "page=2" in driver.current_url)
        second = card_ids(driver)
        check(second and not set(second) & set(first), "the second page repeats photos of the first")
        asked = settle(driver, requests, log)
        new = asked[len(first):]
        check(new and set(new) <= set(second), "the second page asked for %s, not only its own" % (set(new) - set(second)))

        # Back to the first page, reloaded and scrolled through: Flickr is asked nothing.
        count = len(log.images("q"))
        driver.get(base + "/regions/" + args.region)
        driver.refresh()
        scroll_through(driver, requests)
        check(all_card_images_loaded(driver), "after a reload, not every thumbnail of the page shows")
        check(len(log.images("q")) == count, "a reload asked Flickr for %d thumbnails" % (len(log.images("q")) - count))

        # A photo: opened from its card, downloaded once, shown, first in Recents.
        driver.execute_script("window.scrollTo(0, 0)")
        driver.find_element(By.CSS_SELECTOR, "li.card a.thumb").click()
        wait_until("the photo's page", lambda: "/photos/" in driver.current_url)
        photo = driver.current_url.rsplit("/", 1)[-1]
        wait_until("the full photo to show", lambda: driver.execute_script(
            "const i = document.querySelector('figure.full img'); return i && i.complete && i.naturalWidth > 0"))
        check(log.images("b") == [photo], "full images asked for: %s, expected [%s]" % (log.images("b"), photo))
        check("This photo on Flickr" in driver.find_element(By.TAG_NAME, "body").text, "the photo's page has no link to Flickr")
        full = driver.find_element(By.LINK_TEXT, "Full size").get_attribute("href")
        check(full.endswith("/photos/%s.jpg" % photo), "the full size links to %s" % full)
        # Its locator map: the world in a corner of the map, the view marked on it, and the
        # photo's pin not under it.
        boxes = driver.execute_script("""
            const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
            const map = document.querySelector('figure.map .frame'), inset = map && map.querySelector('svg.inset');
            const view = inset && inset.querySelector('rect.view'), pin = map && map.querySelector('a.pin');
            const names = map ? [...map.querySelectorAll('svg.over text')].map(box) : [];
            return map && inset && view && pin ? [box(map), box(inset), box(view), box(pin), names] : null""")
        check(boxes is not None, "the photo's page has no locator map (a map with an inset, its view and the pin)")
        if boxes:
            frame, inset, view, pin, names = boxes
            for name in names:
                check(name[2] <= inset[0] or name[3] <= inset[1], "a city's name %s is under the inset %s" % (name, inset))
            check(frame[0] <= inset[0] and inset[2] <= frame[2] and frame[1] <= inset[1] and inset[3] <= frame[3],
                  "the inset %s is not inside the map %s" % (inset, frame))
            check(inset[2] - inset[0] >= 60, "the inset is %.0f px wide" % (inset[2] - inset[0]))
            check(view[2] - view[0] >= 2 and view[3] - view[1] >= 2, "the view marked on the inset is %s" % view)
            check(pin[2] <= inset[0] or pin[3] <= inset[1], "the pin %s is under the inset %s" % (pin, inset))
        shot(driver, "served-photo")
        driver.find_element(By.LINK_TEXT, "Recently viewed").click()
        check(card_ids(driver)[:1] == [photo], "Recents starts with %s, expected %s" % (card_ids(driver)[:1], photo))
        driver.back()
        wait_until("the photo's page again", lambda: driver.current_url.endswith("/photos/" + photo))
        check(log.images("b") == [photo], "going back downloaded the photo again")

        # Deleting it from its page: gone from the region's page.
        driver.find_element(By.CSS_SELECTOR, "form.action button").click()
        wait_until("the deletion", lambda: "Photo deleted" in driver.find_element(By.TAG_NAME, "h1").text)
        driver.get(base + "/regions/" + args.region)
        check(photo not in card_ids(driver), "the deleted photo is still on the region's page")

        # The windows of upload time, as tabs a person clicks: the top regions of the last
        # hour, then all stored again, then a region in the last 7 days, whose links keep that
        # window. The tools' clock is the fake world's: its last hour has photos.
        driver.get(base + "/")
        check(driver.find_element(By.CSS_SELECTOR, "nav.tabs strong").text == "24 hours",
              "the top page does not open on the last 24 hours, where the refresh's photos are")
        driver.find_element(By.LINK_TEXT, "Last hour").click()
        wait_until("the last hour's top regions", lambda: driver.current_url.endswith("/?window=1h"))
        check(driver.find_element(By.CSS_SELECTOR, "nav.tabs strong").text == "Last hour", "the Last hour tab is not the current one")
        subtitle = driver.find_element(By.CSS_SELECTOR, "header p.sub").text
        check("most distinct photographers in the hour to " in subtitle, "the last hour's page does not say its window: %r" % subtitle)
        hour_rows = len(driver.find_elements(By.CSS_SELECTOR, "table.ranking tbody tr"))
        check(hour_rows > 0, "the last hour shows no region")
        shot(driver, "served-top-hour")
        driver.find_element(By.LINK_TEXT, "All stored").click()
        wait_until("every stored photo's top regions", lambda: driver.current_url.endswith("/?window=all"))
        check(driver.find_element(By.CSS_SELECTOR, "nav.tabs strong").text == "All stored", "the All stored tab is not the current one")
        subtitle = driver.find_element(By.CSS_SELECTOR, "header p.sub").text
        check("most distinct photographers among all " in subtitle and " stored photos, uploaded " in subtitle,
              "the all stored page does not say how many photos, uploaded when: %r" % subtitle)
        check(len(driver.find_elements(By.CSS_SELECTOR, "table.ranking tbody tr")) > hour_rows, "all stored shows no more regions than the last hour")
        driver.get(base + "/regions/" + args.region + "?window=7d")
        tabs = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "nav.tabs a, nav.tabs strong")]
        check(tabs == ["Last hour", "24 hours", "7 days", "All stored", "Rising"], "the region's tabs are %s" % tabs)
        check(driver.find_element(By.CSS_SELECTOR, "nav.tabs strong").text == "7 days", "the 7 days tab is not the current one")
        sort = driver.find_element(By.LINK_TEXT, "By title").get_attribute("href")
        check("window=7d" in sort, "sorting the region's photos forgets the window: %s" % sort)
        # Its feed, as a feed reader finds it: the page's alternate link, answered with Atom.
        check_feed_link(driver, "the region's page", "window=7d")
        # Rising regions, from the top page's tab: their own tabs, the rule said, the surge
        # first.
        driver.get(base + "/")
        driver.find_element(By.LINK_TEXT, "Rising").click()
        wait_until("the rising regions", lambda: "/rising?window=" in driver.current_url)
        check(driver.find_element(By.TAG_NAME, "h1").text == "Rising regions", "the Rising tab leads to %r" % driver.find_element(By.TAG_NAME, "h1").text)
        check("1.5 times as many photographers as before" in driver.find_element(By.CSS_SELECTOR, "header p.sub").text,
              "the rising page does not say its rule")
        tabs = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "nav.tabs a, nav.tabs strong")]
        check(tabs == ["Last hour", "6 hours", "24 hours", "7 days"], "the rising page's tabs are %s" % tabs)
        driver.find_element(By.LINK_TEXT, "6 hours").click()
        wait_until("the regions rising in 6 hours", lambda: driver.current_url.endswith("/rising?window=6h"))
        first = driver.find_element(By.CSS_SELECTOR, "table.ranking tbody tr td a")
        check(("/regions/" + args.surging + "?") in first.get_attribute("href"),
              "the surging region is not first on the rising list: %s" % first.get_attribute("href"))
        cells = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "table.ranking tbody tr:first-child td")]
        check(len(cells) == 6 and int(cells[2]) >= 2 * max(int(cells[3]), 10), "the surge's counts are %s" % cells)
        shot(driver, "served-rising")
        check_feed_link(driver, "the rising page", "window=6h")

        # A hostile title is text, and nothing runs.
        driver.get(base + "/photos/" + args.hostile)
        heading = driver.find_element(By.TAG_NAME, "h1").text
        check(heading == "<script>alert(1)</script>", "the hostile title shows as %r" % heading)
        check(driver.execute_script("return document.querySelectorAll('script').length") == 0, "a script element made it in")
        logged = errors(driver)
        check(not logged, "console errors: %s" % logged)

        # At a phone's width, no page scrolls sideways.
        driver.set_window_size(390, 844)
        # (Also pages whose words are longer than the screen: a 10,000-character title, a
        # region named by a 3,000-character word, a long search echoed back.)
        for path in ["/", "/?window=1h", "/rising?window=6h", "/regions/" + args.region, "/photos/" + args.hostile, "/recents", "/search?q=harbour",
                     "/photos/99000000002", "/regions/R-long", "/search?q=" + "w" * 1500]:
            driver.get(base + path)
            width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            check(width[0] <= width[1], "%s at 390 px is %d px wide" % (path, width[0]))
            if path == "/":
                shot(driver, "served-top-phone")
                # A number is never broken across lines (a rank of 10 read as "1" over "0").
                broken = driver.execute_script("""
                    return [...document.querySelectorAll('table.ranking td.n')].filter(td => {
                        const range = document.createRange(); range.selectNodeContents(td);
                        return range.getClientRects().length > 1; }).map(td => td.textContent)""")
                check(not broken, "numbers broken across lines at 390 px: %s" % broken[:5])
            if path in ("/", "/rising?window=6h"):
                # Nor is a word of a region's name that fits in its column ("Cundinamar" over
                # "ca" when the column was left 100 px): names break between words, or after
                # a hyphen. Words of scripts written with spaces, up to 20 letters.
                broken = driver.execute_script("""
                    const broken = [];
                    for (const a of document.querySelectorAll('table.ranking td a')) {
                        const node = a.firstChild;
                        if (!node || node.nodeType !== Node.TEXT_NODE) continue;
                        for (const m of node.data.matchAll(/[\\p{Script=Latin}\\p{Script=Cyrillic}\\p{Script=Greek}]+/gu)) {
                            if (m[0].length > 20) continue;
                            const range = document.createRange();
                            range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
                            if (range.getClientRects().length > 1) broken.push(m[0]);
                        }
                    }
                    return broken""")
                check(not broken, "%s: words of region names broken across lines at 390 px: %s" % (path, broken[:5]))

        # In a dark colour scheme, as a person's system asks for it: dark pages with light
        # text that reads (WCAG's 4.5:1 at least), the maps' sea and land dark too, the place
        # names light, and a photo's locator inset still there.
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        driver.get(base + "/regions/" + args.region)
        for path in ["/regions/" + args.region, "/photos/" + card_ids(driver)[0]]:
            driver.get(base + path)
            colours = driver.execute_script("""
                const rgb = c => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
                const style = (s, p) => { const e = document.querySelector(s); return e ? rgb(getComputedStyle(e)[p]) : null; };
                return {page: style('html', 'backgroundColor'), text: style('body', 'color'), sub: style('.sub', 'color'),
                        link: style('a', 'color'), sea: style('figure.map .sea', 'fill'), land: style('figure.map .land', 'fill'),
                        place: style('.places text', 'fill'), inset: document.querySelectorAll('svg.inset').length}""")
            def luminance(c):
                def channel(v):
                    v = v / 255
                    return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
                return 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2])
            def contrast(a, b):
                la, lb = sorted([luminance(a), luminance(b)], reverse=True)
                return (la + 0.05) / (lb + 0.05)
            page = colours["page"]
            check(luminance(page) < 0.05, "%s in the dark scheme has a light page: %s" % (path, page))
            for name in ["text", "sub", "link"]:
                check(contrast(colours[name], page) >= 4.5, "%s in the dark scheme: %s %s on %s reads at %.1f:1"
                      % (path, name, colours[name], page, contrast(colours[name], page)))
            for name in ["sea", "land"]:
                check(colours[name] is not None and luminance(colours[name]) < 0.08, "%s in the dark scheme: the map's %s is %s" % (path, name, colours[name]))
            if colours["place"] is not None:
                check(contrast(colours["place"], colours["land"]) >= 4.5, "%s in the dark scheme: place names %s on land %s"
                      % (path, colours["place"], colours["land"]))
            if path.startswith("/photos/"):
                check(colours["inset"] == 1, "%s in the dark scheme has no locator inset" % path)
                shot(driver, "served-photo-dark-phone")
        # The served placeholder (here for a photo the store does not hold) is dark there too:
        # a light square in a dark page was what a missing thumbnail looked like. (Opened as
        # a document, for an image's pixels are out of a script's reach; Chromium gives an
        # image the same scheme, as seen by hand.)
        driver.get(base + "/thumbs/99999999999.jpg")
        stripe = driver.execute_script("""
            const stripe = document.querySelector('rect.a');
            return stripe ? getComputedStyle(stripe).fill.match(/\\d+/g).slice(0, 3).map(Number) : null;""")
        check(stripe is not None and luminance(stripe) < 0.05, "the placeholder in the dark scheme is %s" % stripe)
        # Looking closer: a quarter of the region's map, clicked, lists only the photos inside
        # its box (the page's pins all inside the box's part of the frame), says how many, and
        # leads back to the whole map.
        driver.get(base + "/regions/" + args.region + "?window=all")
        quarters = driver.find_elements(By.CSS_SELECTOR, "figure.map a.zoom")
        check(quarters, "the region's map offers no part to look closer at")
        if quarters:
            driver.execute_script("arguments[0].click()", quarters[0])
            wait_until("the zoomed page", lambda: "bbox=" in driver.current_url)
            bbox = [float(n) for n in urllib.parse.unquote(driver.current_url.split("bbox=")[1].split("&")[0]).split(",")]
            placed = driver.execute_script("""
                const svg = document.querySelector('figure.map .frame svg'), vb = svg.viewBox.baseVal;
                const own = svg.querySelector('path.land').transform.baseVal.consolidate(), xs = own ? own.matrix.a : 1;
                const [w, s, e, n] = arguments[0];
                const box = [((w + 180) * 10 * xs - vb.x) / vb.width * 100, ((90 - n) * 10 - vb.y) / vb.height * 100,
                             ((e + 180) * 10 * xs - vb.x) / vb.width * 100, ((90 - s) * 10 - vb.y) / vb.height * 100];
                return [box, [...document.querySelectorAll('figure.map a.pin')].map(p => [parseFloat(p.style.left), parseFloat(p.style.top)]),
                        document.querySelectorAll('li.card').length, document.querySelector('p.sub').textContent,
                        [...document.querySelectorAll('figcaption.zoom-bar a')].map(a => a.textContent)];""", bbox)
            box, pins, cards, sub, links = placed
            check(pins and len(pins) == cards, "the zoomed page has %d pins for %d photos" % (len(pins), cards))
            outside = [p for p in pins if not (box[0] - 0.01 <= p[0] <= box[2] + 0.01 and box[1] - 0.01 <= p[1] <= box[3] + 0.01)]
            check(not outside, "the zoomed page lists photos outside its box %s: %s" % (box, outside[:3]))
            check("in this part of the map" in sub, "the zoomed page's heading says %r" % sub)
            check(links[-1:] == ["The whole map"] and "Zoom out" in links, "the zoomed page's ways out: %s" % links)
            shot(driver, "served-region-zoomed")
            driver.find_element(By.LINK_TEXT, "The whole map").click()
            wait_until("the whole map again", lambda: "bbox=" not in driver.current_url)
        # Nothing any page asked for left the server: no tile server, no font, no script.
        requests.under_way()
        elsewhere = sorted(url for url in requests.urls if not url.startswith(base + "/") and not url.startswith("data:"))
        check(requests.urls and not elsewhere, "the pages asked other hosts for %s" % elsewhere[:5])
    finally:
        driver.quit()

    return outcome()


if __name__ == "__main__":
    sys.exit(main())
