# Shared by bin/test, bin/demo and bin/bench: make a fresh machine able to build and run
# topregions. Installs only what is missing, without asking.

# The Debian packages the build links against (all bin/demo needs), and what the tests drive:
# the shells whose completion scripts they load (zsh, fish; bash is there), man to render the
# man pages.
TOPREGIONS_BUILD_APT_PACKAGES=(libsqlite3-dev libcurl4-openssl-dev)
TOPREGIONS_APT_PACKAGES=("${TOPREGIONS_BUILD_APT_PACKAGES[@]}" curl time sqlite3 zsh fish man-db groff-base libxml2-utils)
# What bin/test's packaging tests use besides: bin/package's tools, lintian, bash's completion loader.
TOPREGIONS_PACKAGING_APT_PACKAGES=(dpkg-dev binutils lintian bash-completion)
# What bin/bench's cases use besides (and bin/test, which runs each once: bin/bench --smoke):
# wrk, the serve case's load generator; libjansson-dev, the json case's other decoder.
TOPREGIONS_BENCH_APT_PACKAGES=(wrk libjansson-dev)

topregions_ensure_swift() {
    if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/bin/swift ]; then
        export PATH="/opt/swift/bin:$PATH"
    fi
    command -v swift >/dev/null 2>&1 || { echo "setup: swift is not installed (see README.md)" >&2; exit 69; }
}

# Installs the packages given that are missing. apt's own words go to a log, shown only
# when it fails: what a person needs is which packages, and whether it worked.
topregions_install_missing() {
    local missing=() package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup: installing ${missing[*]}" >&2
    local sudo=() log
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    log="$(mktemp "${TMPDIR:-/tmp}/topregions-apt.XXXXXX")"
    if ! { "${sudo[@]}" apt-get update -qq && "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } > "$log" 2>&1; then
        cat "$log" >&2
        echo "setup: could not install ${missing[*]} (apt-get's words above)" >&2
        rm -f "$log"
        exit 69
    fi
    rm -f "$log"
}

topregions_ensure_packages() {
    topregions_install_missing "${TOPREGIONS_APT_PACKAGES[@]}" "$@"
}

# What the browser test of the HTML pages needs (bin/test): Chromium and its WebDriver, and
# fonts for the scripts region names are written in (DejaVu, which fontconfig brings, has
# Latin, Greek, Cyrillic, Arabic and Hebrew; these add CJK, Hangul and Thai).
TOPREGIONS_BROWSER_PACKAGES=(chromium chromium-driver fonts-wqy-microhei fonts-tlwg-loma-otf python3 python3-pip)

# Python's selenium (PyPI), which drives Chromium in Tests/Browser/check_pages.py.
topregions_ensure_selenium() {
    python3 -c 'import selenium' 2>/dev/null && return 0
    echo "setup: installing selenium (PyPI)" >&2
    # A Debian python3 refuses plain pip installs (PEP 668): then into the user's site.
    python3 -m pip install --quiet selenium >&2 2>/dev/null \
        || python3 -m pip install --quiet --user --break-system-packages selenium >&2
}

# Datasette and sqlite-utils (PyPI), which Tests/Peers/check_search.py uses to show that
# other tools search the database with no extra step.
topregions_ensure_search_peers() {
    python3 -c 'import datasette, sqlite_utils' 2>/dev/null && return 0
    echo "setup: installing datasette and sqlite-utils (PyPI)" >&2
    python3 -m pip install --quiet datasette sqlite-utils >&2 2>/dev/null \
        || python3 -m pip install --quiet --user --break-system-packages datasette sqlite-utils >&2
}

# What the feed checks use (Tests/Feeds/check_feed.py): Python's feedparser and rnc2rng
# (PyPI), and xmllint (Debian's libxml2-utils, in TOPREGIONS_APT_PACKAGES).
topregions_ensure_feed_checkers() {
    python3 -c 'import feedparser, rnc2rng' 2>/dev/null && return 0
    echo "setup: installing feedparser and rnc2rng (PyPI)" >&2
    python3 -m pip install --quiet feedparser rnc2rng >&2 2>/dev/null \
        || python3 -m pip install --quiet --user --break-system-packages feedparser rnc2rng >&2
}

# DuckDB (PyPI: the duckdb module and the duckdb-cli command), bin/bench's windows peer.
topregions_ensure_duckdb() {
    python3 -c 'import duckdb' 2>/dev/null && { command -v duckdb >/dev/null 2>&1 || [ -x "$HOME/.local/bin/duckdb" ]; } && return 0
    echo "setup: installing duckdb and duckdb-cli (PyPI)" >&2
    python3 -m pip install --quiet duckdb duckdb-cli >&2 2>/dev/null \
        || python3 -m pip install --quiet --user --break-system-packages duckdb duckdb-cli >&2
}

topregions_setup() {
    topregions_ensure_swift
    topregions_ensure_packages "$@"
}

# bin/demo's: what the build needs, nothing the tests alone use.
topregions_setup_build() {
    topregions_ensure_swift
    topregions_install_missing "${TOPREGIONS_BUILD_APT_PACKAGES[@]}"
}
