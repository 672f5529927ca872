#!/usr/bin/env python3
"""Opens the pages `regions-top --format html` wrote in Chromium, with the network off, and
checks what a person would see. Run by HTMLPagesEndToEndTests (bin/test), which builds the
pages and writes DIR/expect.json; usable by hand too:

    python3 Tests/Browser/check_pages.py DIR [--screenshots OUT]

expect.json: {"pages": [{"file", "markers", "points", "thumbnails", "placeholders",
"texts", "rtl", "follow"}], "screenshots": {"page.html": "name.png"}}. Every count is exact.

Checks, per page: no console error; no <script> element; every <img> is a data: URI that
decoded (naturalWidth > 0); the map has exactly the markers (one per region listed with a
position) or points (a pin per photo with coordinates) expected; the hostile texts are visible
text and made no element; right-to-left names render right to left; a screenshot is not
blank. Before the pages: proof that the network is off (a probe image on a local server does
not load, and does once the network is back), and that the page's Content-Security-Policy
alone blocks a remote image and an inline script.

Needs Debian's chromium and chromium-driver and Python's selenium (bin/lib/setup.sh installs
them). Exit status 0 when every check passed, 1 otherwise (each failure on stderr).
"""
import argparse
import http.server
import json
import os
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import check, not_blank, outcome, start_chromium  # noqa: E402

from selenium.webdriver.common.by import By  # noqa: E402

PIXEL = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc0f01f0005000201b1d6a0da0000000049454e44ae426082")

# MARK: a local server for the probe image


class ProbeServer:
    """Serves /pixel.png on 127.0.0.1 and counts the requests that reach it."""

    def __init__(self):
        hits = self.hits = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                hits.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(PIXEL)))
                self.end_headers()
                self.wfile.write(PIXEL)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d/pixel.png" % self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


# MARK: the browser


def start_browser():
    driver = start_chromium([
        "--window-size=1000,760", "--force-device-scale-factor=1", "--lang=en-US",
        # No host resolves but 127.0.0.1 (the probe server); DevTools' offline mode (network())
        # then cuts that too while the pages are checked.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ], {"browser": "ALL"})
    driver.execute_cdp_cmd("Network.enable", {})
    return driver


def network(driver, online):
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def open_page(driver, path):
    driver.get_log("browser")  # drop what earlier pages logged
    driver.get("file://" + os.path.abspath(path))
    state = driver.execute_script("return document.readyState")
    check(state == "complete", "%s: document.readyState is %s" % (path, state))
    return driver.get_log("browser")


def probe_width(driver):
    return driver.execute_script(
        "var i = document.getElementById('probe'); return i && i.complete ? i.naturalWidth : -1")


def prove_isolation(driver, directory, top_page, probe):
    """The network is off, and the CSP alone would block remote loads and scripts anyway."""
    control = os.path.join(directory, "probe-control.html")
    with open(control, "w") as f:
        f.write('<!DOCTYPE html><meta charset="utf-8"><title>probe</title><img id="probe" src="%s">' % probe.url)
    network(driver, online=False)
    open_page(driver, control)
    check(probe_width(driver) == 0 and not probe.hits,
          "network off: the probe image loaded (%s, %d requests)" % (probe_width(driver), len(probe.hits)))
    network(driver, online=True)
    open_page(driver, control)
    check(probe_width(driver) == 1 and len(probe.hits) == 1,
          "network on: the probe image did not load (%s, %d requests): the probe proves nothing"
          % (probe_width(driver), len(probe.hits)))

    # The real page with a remote image and an inline script added, network on: the CSP blocks both.
    with open(top_page, encoding="utf-8") as f:
        html = f.read()
    injected = html.replace(
        "</body>", '<img id="probe" src="%s"><script>document.title = "script ran"</script>\n</body>' % probe.url)
    variant = os.path.join(directory, "probe-csp.html")
    with open(variant, "w", encoding="utf-8") as f:
        f.write(injected)
    hits_before = len(probe.hits)
    logs = open_page(driver, variant)
    check(probe_width(driver) == 0 and len(probe.hits) == hits_before,
          "CSP: the remote image loaded (%s, %d requests)" % (probe_width(driver), len(probe.hits) - hits_before))
    check(driver.title != "script ran", "CSP: the inline script ran")
    csp_errors = [entry["message"] for entry in logs if "Content Security Policy" in entry["message"]]
    check(len(csp_errors) >= 2, "CSP: expected the image and the script refused in the console, got %s" % logs)
    network(driver, online=False)
    os.remove(control)
    os.remove(variant)


def check_page(driver, directory, page, screenshots):
    name = page["file"]
    path = os.path.join(directory, name)
    logs = open_page(driver, path)
    errors = [entry for entry in logs if entry["level"] == "SEVERE"]
    check(not errors, "%s: console errors: %s" % (name, errors))

    facts = driver.execute_script("""
        const images = [...document.images];
        return {
          scripts: document.querySelectorAll('script').length,
          images: images.map(i => [i.getAttribute('src').slice(0, 11), i.complete, i.naturalWidth]),
          handlers: document.querySelectorAll('[onerror],[onload],[onclick]').length,
          placeholders: document.querySelectorAll('.placeholder').length,
          markers: document.querySelectorAll('svg circle.marker').length,
          markerTitles: [...document.querySelectorAll('svg circle.marker > title')].filter(t => t.textContent.trim()).length,
          points: document.querySelectorAll('figure.map a.pin').length,
          rows: document.querySelectorAll('table.ranking tbody tr').length,
          mapHeight: document.querySelector('figure.map svg') ? document.querySelector('figure.map svg').getBoundingClientRect().height : 0,
          text: document.body.innerText,
          csp: (document.querySelector('meta[http-equiv="Content-Security-Policy"]') || {}).content,
        };
    """)
    check(facts["scripts"] == 0, "%s: %d <script> elements" % (name, facts["scripts"]))
    check(facts["handlers"] == 0, "%s: %d elements with event handlers" % (name, facts["handlers"]))
    check("script-src 'none'" in (facts["csp"] or "") and "default-src 'none'" in (facts["csp"] or ""),
          "%s: Content-Security-Policy is %r" % (name, facts["csp"]))
    bad = [image for image in facts["images"] if not image[0].startswith("data:image/") or not image[1] or image[2] <= 0]
    check(not bad, "%s: images not decoded from data: URIs: %s" % (name, bad[:5]))
    check(len(facts["images"]) == page.get("thumbnails", 0),
          "%s: %d images, expected %d" % (name, len(facts["images"]), page.get("thumbnails", 0)))
    check(facts["placeholders"] == page.get("placeholders", 0),
          "%s: %d placeholders, expected %d" % (name, facts["placeholders"], page.get("placeholders", 0)))
    if "markers" in page:
        check(facts["markers"] == page["markers"], "%s: %d markers, expected %d" % (name, facts["markers"], page["markers"]))
        check(facts["markerTitles"] == page["markers"], "%s: %d markers with hover text, expected %d" % (name, facts["markerTitles"], page["markers"]))
        check(facts["rows"] == page["rows"], "%s: %d rows, expected %d" % (name, facts["rows"], page["rows"]))
    check(facts["points"] == page.get("points", 0), "%s: %d points, expected %d" % (name, facts["points"], page.get("points", 0)))
    if page.get("markers") or page.get("points"):
        check(facts["mapHeight"] > 200, "%s: the map is %s px tall" % (name, facts["mapHeight"]))
    for text in page.get("texts", []):
        check(text in facts["text"], "%s: %r is not visible as text" % (name, text))
    for text in page.get("rtl", []):
        direction = driver.execute_script("""
            const element = [...document.querySelectorAll('[dir=auto]')].find(e => e.textContent === arguments[0]);
            return element ? getComputedStyle(element).direction : null;
        """, text)
        check(direction == "rtl", "%s: %r renders %s, expected rtl" % (name, text, direction))

    png = driver.get_screenshot_as_png()
    colours, largest = not_blank(png)
    check(colours >= 50 and largest < 0.85,
          "%s: the screenshot looks blank (%d colours, the commonest covers %.0f%%)" % (name, colours, largest * 100))
    if screenshots:
        shot = os.path.join(screenshots, os.path.splitext(name)[0] + ".png")
        with open(shot, "wb") as f:
            f.write(png)
        print("screenshot %s: %d bytes, %d colours" % (shot, len(png), colours))

    if "follow" in page:
        # The first link of the list opens that region's page, beside this one.
        link = driver.find_element(By.CSS_SELECTOR, "table.ranking tbody tr a")
        check(link.get_attribute("href").endswith("/" + page["follow"]["file"]),
              "%s: the first row links to %s" % (name, link.get_attribute("href")))
        link.click()
        heading = driver.find_element(By.TAG_NAME, "h1").text
        check(heading == page["follow"]["h1"], "%s: following the first row shows %r" % (name, heading))
    return facts


def main():
    parser = argparse.ArgumentParser(description="Checks regions-top's HTML pages in Chromium.")
    parser.add_argument("directory")
    parser.add_argument("--screenshots", help="write a screenshot of each page here")
    args = parser.parse_args()
    with open(os.path.join(args.directory, "expect.json"), encoding="utf-8") as f:
        expect = json.load(f)
    if args.screenshots:
        os.makedirs(args.screenshots, exist_ok=True)

    probe = ProbeServer()
    driver = start_browser()
    try:
        prove_isolation(driver, args.directory, os.path.join(args.directory, expect["pages"][0]["file"]), probe)
        for page in expect["pages"]:
            facts = check_page(driver, args.directory, page, args.screenshots)
            print("checked %s: %d images, %d placeholders, %d markers, %d points"
                  % (page["file"], len(facts["images"]), facts["placeholders"], facts["markers"], facts["points"]))
    finally:
        driver.quit()
        probe.close()
    return outcome()


if __name__ == "__main__":
    sys.exit(main())
