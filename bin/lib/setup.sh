# Shared by bin/test, bin/demo and bin/bench: make a fresh machine able to build and run
# topregions. Installs only what is missing, without asking.

# The Debian packages the build links against.
TOPREGIONS_APT_PACKAGES=(libsqlite3-dev libcurl4-openssl-dev curl time sqlite3)

topregions_ensure_swift() {
    if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/bin/swift ]; then
        export PATH="/opt/swift/bin:$PATH"
    fi
    command -v swift >/dev/null 2>&1 || { echo "setup: swift is not installed (see README.md)" >&2; exit 69; }
}

topregions_ensure_packages() {
    local missing=() package
    for package in "${TOPREGIONS_APT_PACKAGES[@]}" "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "setup: installing ${missing[*]}" >&2
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq >&2
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
}

topregions_setup() {
    topregions_ensure_swift
    topregions_ensure_packages "$@"
}
