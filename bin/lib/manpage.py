#!/usr/bin/env python3
"""Finishes a page from swift-argument-parser's generate-manual plugin for topregions:
drops the plugin's generic "subcommand" and "help" entries (these tools have no
subcommands), and replaces its generic EXIT STATUS with the sysexits codes the tools use,
an ENVIRONMENT section and SEE ALSO."""
import re
import sys

ENVIRONMENT = {
    "common": [
        ("TOPREGIONS_DB", "The database file, when --db is not given."),
        ("XDG_DATA_HOME", "The database defaults to $XDG_DATA_HOME/topregions/topregions.db (~/.local/share when unset)."),
        ("TOPREGIONS_NOW", "Fixes the current time (Unix seconds), for tests and reproducible runs."),
        ("NO_COLOR", "When set and not empty, terminal output has no colour or emphasis."),
    ],
    "network": [
        ("FLICKR_API_KEY", "The Flickr API key (or --api-key-file). Never printed or logged."),
        ("FLICKR_API_BASE", "Another REST endpoint for every networked tool (the offline fake, a proxy). Default: https://api.flickr.com/services/rest/."),
        ("FLICKR_STATIC_BASE", "Where image URLs built from a photo's server and secret point. Default: the origin of FLICKR_API_BASE when set, else https://live.staticflickr.com."),
        ("http_proxy, https_proxy, HTTPS_PROXY, ALL_PROXY, NO_PROXY", "Proxies, as libcurl reads them."),
    ],
    "cache": [
        ("TOPREGIONS_CACHE", "The photo cache directory, when --cache-dir is not given."),
        ("XDG_CACHE_HOME", "The cache defaults to $XDG_CACHE_HOME/topregions/photos (~/.cache when unset)."),
    ],
}
USES = {
    "flickr-recent": ["common", "network"],
    "place-resolve": ["common", "network"],
    "regions-load": ["common", "network"],
    "regions-top": ["common"],
    "thumb-get": ["common", "network"],
    "photo-cache": ["common", "network", "cache"],
}
EXIT = [
    ("0", "Success."),
    ("64", "Usage error: a bad option or argument."),
    ("65", "Bad input data (a bad line names its line and column); also after --skip-bad-lines skipped some."),
    ("66", "An input file, region or photo that does not exist."),
    ("69", "A service (Flickr, a download) is unavailable."),
    ("70", "An internal error."),
    ("73", "The database or cache cannot be created."),
    ("74", "A read or write error."),
    ("75", "A temporary failure (rate limit, busy database): try again later."),
    ("78", "A configuration error (API key missing or refused)."),
]

path, tool = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
text = text.replace(".Ar subcommand\n", "")
text = re.sub(r"\.It Em help\n.*?\.El\n", "", text, flags=re.S)

def items(pairs):
    out = ".Bl -tag -width 6n\n"
    for name, what in pairs:
        out += ".It Ev %s\n%s\n" % (name, what) if not name[0].isdigit() else ".It %s\n%s\n" % (name, what)
    return out + ".El\n"

sections = ""
if tool in USES:
    sections += ".Sh ENVIRONMENT\n" + items([p for group in USES[tool] for p in ENVIRONMENT[group]])
sections += ".Sh \"EXIT STATUS\"\n" + items(EXIT)
others = [t for t in USES if t != tool]
sections += ".Sh \"SEE ALSO\"\n" + "".join(".Xr %s 1 ,\n" % t for t in others) + ".Xr topregions-record 7\n"
text = text.replace('.Sh "EXIT STATUS"\n.Ex -std\n', sections)
# Blank lines in the discussion text are paragraph breaks; mdoc wants .Pp, and lines
# starting with spaces (the examples) as literal text.
lines = []
for line in text.split("\n"):
    if line.strip() == "":
        lines.append(".Pp")
    else:
        lines.append(line)
open(path, "w", encoding="utf-8").write("\n".join(lines).rstrip("\n.Pp") + "\n")
