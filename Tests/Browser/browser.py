"""What Tests/Browser's checkers share: Chromium driven through selenium, headless and kept off
the network's background chatter, the checks' record of failures, and a test that a screenshot
is not blank. Imported by check_pages.py and check_served.py (bin/test installs Debian's
chromium and chromium-driver and Python's selenium)."""
import os
import shutil
import struct
import sys
import zlib

os.environ.setdefault("SE_OFFLINE", "true")  # Selenium Manager must never download a driver

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    sys.exit("%s: needs selenium (python3 -m pip install selenium; bin/test installs it)"
             % os.path.splitext(os.path.basename(sys.argv[0]))[0])

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

# Every checker's Chromium: headless, outside the sandbox, no scrollbar in the
# screenshots, and none of the first run's or the background's requests.
CHROMIUM_ARGUMENTS = [
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
    "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-default-apps",
]


def start_chromium(arguments, logging):
    """Chromium with the common arguments and `arguments`, keeping the logs `logging` names
    (goog:loggingPrefs: {"browser": "ALL"}, ...)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in CHROMIUM_ARGUMENTS + arguments:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", logging)
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print("FAIL " + message, file=sys.stderr)
    return condition


def outcome():
    """The exit status: 0 when every check passed, 1 otherwise, said on stdout or stderr."""
    if failures:
        print("%d checks failed" % len(failures), file=sys.stderr)
        return 1
    print("all checks passed")
    return 0


# MARK: PNG pixels, to tell a picture from a blank screenshot


def png_pixels(data):
    """(width, height, rows of RGB tuples) of an 8-bit RGB or RGBA, non-interlaced PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    position, idat = 8, b""
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour in (2, 6) and interlace == 0, "unexpected PNG format"
        elif kind == b"IDAT":
            idat += body
        position += 12 + length
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            up_left = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
            elif kind == 4:
                p = left + up - up_left
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else up_left
                line[i] = (line[i] + predictor) & 0xFF
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, channels)])
        previous = line
    return width, height, rows


def not_blank(png):
    """Many colours, none covering most of the picture: something was drawn."""
    width, height, rows = png_pixels(png)
    counts = {}
    for row in rows[::4]:
        for pixel in row[::4]:
            counts[pixel] = counts.get(pixel, 0) + 1
    sampled = sum(counts.values())
    return len(counts), max(counts.values()) / sampled
