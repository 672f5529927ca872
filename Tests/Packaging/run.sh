#!/usr/bin/env bash
# The toolkit installed as a user would get it, tested from the outside:
#   Packaging.install  bin/install into a temporary prefix: what it weighs (at most 100 MB:
#                      one program, each tool a link to it), then flickr-fake added (--dry-run
#                      first); the pipeline against flickr-fake from PATH alone; man pages;
#                      bash, zsh and fish completions; a refused foreign file; a re-install;
#                      --uninstall leaves the prefix as it was.
#   Packaging.deb      bin/package; the .deb's Depends and Installed-Size; dpkg-deb -x into a
#                      temporary directory; the pipeline from there with no Swift on PATH (ldd:
#                      no libswift); man page and completion from the package; lintian: no errors.
# Both use the same static build (.build-static), built once by the first.
#   Packaging.demo     bin/demo on the tests' build: its output, and --serve over what it left.
#   Tests/Packaging/run.sh [--filter REGEX]     bin/test runs it after swift test
# Prints one line per check and "packaging: N passed, N failed"; exits 1 if any failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
repo="$PWD"

filter=""
while [ $# -gt 0 ]; do
    case "$1" in
        --filter) filter="${2:-}"; shift ;;
        --filter=*) filter="${1#--filter=}" ;;
        *) ;;  # other swift test arguments do not concern these tests
    esac
    shift
done

source bin/lib/setup.sh
source bin/lib/payload.sh
topregions_ensure_swift

passed=0 failed=0
pass() { passed=$((passed + 1)); echo "ok - $current: $1"; }
fail() { failed=$((failed + 1)); echo "FAIL - $current: $1"; [ $# -lt 2 ] || printf '%s\n' "$2" | sed 's/^/    | /' | head -40; }
# check DESCRIPTION COMMAND...: passes when the command exits 0; shows its output if not.
check() {
    local description="$1" output
    shift
    if output="$("$@" 2>&1)"; then pass "$description"; else fail "$description" "$output"; fi
}

work="$(mktemp -d "${TMPDIR:-/tmp}/topregions-packaging.XXXXXX")"
fake_pid=""
cleanup() {
    if [ -n "$fake_pid" ]; then kill "$fake_pid" 2>/dev/null; wait "$fake_pid" 2>/dev/null; fi
    rm -rf "$work"
}
trap cleanup EXIT

version="$(topregions_version)"
api_key="packaging-test-key"
world=(--seed 2013 --photos 1500)
# PATH with no Swift toolchain: the system's directories only.
system_path="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
if PATH="$system_path" command -v swift >/dev/null 2>&1; then
    echo "packaging: note: swift is also in $system_path here; the ldd checks still prove no libswift is loaded"
fi

# --- helpers ---------------------------------------------------------------------------

# In a clean environment: only PATH (the tools' directory first), HOME and the test's own
# database, cache and Flickr endpoint. $1 = directory to put first on PATH; rest = script.
clean_env() {
    local first="$1"
    shift
    env -i HOME="$work/home" LANG=C.UTF-8 PATH="$first:$system_path" \
        XDG_DATA_HOME="$work/home/.local/share" XDG_CACHE_HOME="$work/home/.cache" \
        TOPREGIONS_DB="$run_dir/topregions.db" TOPREGIONS_CACHE="$run_dir/cache" \
        FLICKR_API_BASE="${base:-}/services/rest/" FLICKR_API_KEY="$api_key" \
        bash -c "$@"
}

# start_fake FAKE: flickr-fake on a free port; sets base to the URL it prints first.
start_fake() {
    local fake="$1"
    mkfifo "$run_dir/fake.out"
    env -i PATH="$system_path" "$fake" --port 0 --api-key "$api_key" "${world[@]}" \
        --log "$run_dir/requests.ndjson" > "$run_dir/fake.out" 2> "$run_dir/fake.err" &
    fake_pid=$!
    exec 3< "$run_dir/fake.out"
    base=""
    read -r -t 60 base <&3 || true
    [ -n "$base" ]
}
stop_fake() {
    exec 3<&-
    [ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null && wait "$fake_pid" 2>/dev/null
    fake_pid=""
}

# The ranking as (region id | name | photographers | photos), from regions-top or --truth.
ranking() { python3 -c '
import json, sys
for line in sys.stdin:
    row = json.loads(line)
    print(" | ".join(str(row[key]) for key in ("region_id", "name", "photographers", "photos")))'; }

# run_pipeline BIN_DIR FAKE: the cron line and a thumbnail fetch, from PATH alone, checked
# against the fake's ground truth.
run_pipeline() {
    local tools="$1" fake="$2"
    run_dir="$work/run-$current"
    mkdir -p "$run_dir" "$work/home"
    if ! start_fake "$fake"; then
        fail "flickr-fake started and printed its URL" "$(cat "$run_dir/fake.err")"
        return
    fi
    check "each tool is found on PATH in $tools, and swift is not" clean_env "$tools" '
        for tool in flickr-recent place-resolve regions-load regions-top thumb-get photo-cache regions-serve; do
            [ "$(command -v "$tool")" = "'"$tools"'/$tool" ] || { echo "$tool: $(command -v "$tool")"; exit 1; }
        done
        if command -v swift; then echo "swift is on PATH"; exit 1; fi'
    local statuses
    statuses="$(clean_env "$tools" 'flickr-recent | place-resolve | regions-load; echo "${PIPESTATUS[*]}"' \
        2> "$run_dir/pipeline.err")"
    if [ "$statuses" = "0 0 0" ]; then
        pass "flickr-recent | place-resolve | regions-load exits 0 0 0"
    else
        fail "flickr-recent | place-resolve | regions-load exits 0 0 0 (got '$statuses')" "$(cat "$run_dir/pipeline.err")"
    fi
    check "regions-load reports what it stored" grep -Eq '^regions-load: read [1-9][0-9]*, new [1-9]' "$run_dir/pipeline.err"
    clean_env "$tools" 'regions-top --limit 1000 --format ndjson' 2>&1 | ranking > "$run_dir/top.txt"
    env -i PATH="$system_path" "$fake" --truth "${world[@]}" | ranking > "$run_dir/truth.txt"
    local regions
    regions="$(wc -l < "$run_dir/truth.txt")"
    check "regions-top equals flickr-fake's ground truth ($regions regions, every photographer and photo count)" \
        bash -c '[ "$(wc -l < "$1")" -gt 20 ] && diff "$1" "$2"' _ "$run_dir/truth.txt" "$run_dir/top.txt"
    # The program itself, the tool named first: the same answer as by the tool's own name.
    clean_env "$tools" 'topregions regions-top --limit 1000 --format ndjson' 2>&1 | ranking > "$run_dir/named.txt"
    check "topregions regions-top, from PATH, answers as regions-top does" diff "$run_dir/top.txt" "$run_dir/named.txt"
    # regions-top's own refresh runs flickr-recent | place-resolve | regions-load beside it.
    clean_env "$tools" "regions-top --db '$run_dir/refreshed.db' --limit 1000 --format ndjson" 2> "$run_dir/refresh.err" \
        | ranking > "$run_dir/refreshed.txt"
    check "regions-top on a new database refreshes it through the tools beside it, to the same ranking" \
        bash -c 'grep -q "refreshing it from Flickr" "$3" && diff "$1" "$2"' _ "$run_dir/truth.txt" "$run_dir/refreshed.txt" "$run_dir/refresh.err"
    local region
    region="$(head -1 "$run_dir/top.txt" | cut -d' ' -f1)"
    clean_env "$tools" "regions-top --region '$region' --limit 3 | thumb-get --out '$run_dir/thumbs'" \
        > /dev/null 2> "$run_dir/thumbs.err"
    check "thumb-get downloads the top region's thumbnails through libcurl (3 JPEG files)" \
        bash -c '[ "$(ls "$1" | wc -l)" -eq 3 ] && for f in "$1"/*; do [ "$(head -c 2 "$f" | od -An -tx1 | tr -d " ")" = ffd8 ] || exit 1; done' \
        _ "$run_dir/thumbs"
    stop_fake
}

# one_program DIR: DIR holds the program, and each tool's name as a link to it beside it.
one_program() {
    [ -f "$1/$TOPREGIONS_PROGRAM" ] && [ ! -L "$1/$TOPREGIONS_PROGRAM" ] || { echo "$1/$TOPREGIONS_PROGRAM is not a file"; return 1; }
    local tool
    for tool in "${TOPREGIONS_TOOLS[@]}"; do
        [ "$(readlink "$1/$tool")" = "$TOPREGIONS_PROGRAM" ] || { echo "$1/$tool: $(ls -l "$1/$tool")"; return 1; }
    done
}

# no_swift_runtime DIR: every binary in DIR loads no libswift and nothing missing.
no_swift_runtime() {
    local binary out bad=0
    for binary in "$1"/*; do
        out="$(ldd "$binary" 2>&1)"
        if grep -Eq 'libswift|libFoundation|libdispatch|not found' <<< "$out"; then
            echo "$binary:"; echo "$out"; bad=1
        fi
    done
    return $bad
}

# bash_completes FLAG... : with XDG_DATA_DIRS=$1, bash-completion's own loader finds
# regions-top's completion, and completing "regions-top --" offers each FLAG.
bash_completes() {
    local share="$1"
    shift
    env -i HOME="$work/home" PATH="$system_path" XDG_DATA_DIRS="$share" bash --norc --noprofile -c '
        source /usr/share/bash-completion/bash_completion
        __load_completion regions-top || { echo "bash-completion found no completion for regions-top"; exit 1; }
        function="$(complete -p regions-top | sed -n "s/.* -F \([^ ]*\) .*/\1/p")"
        COMP_LINE="regions-top --"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=(regions-top --); COMP_CWORD=1
        "$function" regions-top -- regions-top
        offered=" ${COMPREPLY[*]} "
        for flag in "$@"; do
            [[ "$offered" == *" $flag "* ]] || { echo "not offered: $flag (offered:$offered)"; exit 1; }
        done' _ "$@"
}

ran=0
selected() { { [ -z "$filter" ] || [[ "$1" =~ $filter ]]; } && ran=$((ran + 1)); }
started_all="$(date +%s)"

# --- Packaging.install -----------------------------------------------------------------

current=Packaging.install
if selected "$current"; then
    started="$(date +%s)"
    prefix="$work/prefix"
    # Someone else's files in the prefix, which install and uninstall must leave alone.
    mkdir -p "$prefix/bin" "$prefix/share/man/man1"
    printf '#!/bin/sh\necho other\n' > "$prefix/bin/other-tool"
    chmod 755 "$prefix/bin/other-tool"
    printf '.TH OTHER-TOOL 1\n' > "$prefix/share/man/man1/other-tool.1"
    snapshot() { (cd "$prefix" && find . -printf '%p %y %m\n' | sort && find . -type f -exec md5sum {} + | sort); }
    snapshot > "$work/before.txt"

    if bin/install --prefix "$prefix" > "$work/install.out" 2> "$work/install.err"; then
        pass "bin/install --prefix PREFIX exits 0"
    else
        fail "bin/install --prefix PREFIX exits 0" "$(tail -20 "$work/install.err")"
    fi
    check "PREFIX/bin holds one program, topregions, and each tool's name as a link to it" one_program "$prefix/bin"
    # Everything it put there, links by their own size, as du counts them.
    weight="$(cd "$prefix" && grep "^file " share/topregions/install-manifest | cut -c6- | tr '\n' '\0' | xargs -0 stat -c %s |
        awk '{ bytes += $1 } END { print bytes }')"
    check "the install weighs at most 100 MB (${weight:-?} bytes in 38 files)" bash -c '
        [ "$(grep -c "^file " "$2/share/topregions/install-manifest")" -eq 38 ] && [ "$1" -le 100000000 ]' _ "${weight:-0}" "$prefix"

    # flickr-fake added to the installation: said first, then done.
    snapshot > "$work/installed.without-fake"
    bin/install --prefix "$prefix" --with-fake --dry-run > /dev/null 2> "$work/dry-run.err"
    check "--dry-run --with-fake says it would add flickr-fake's 5 files" bash -c '
        grep -q "would install 5 files (38 already up to date)" "$1" && grep -q "would install $2/bin/flickr-fake$" "$1"' \
        _ "$work/dry-run.err" "$prefix"
    check "--dry-run changes nothing" diff "$work/installed.without-fake" <(snapshot)
    if bin/install --prefix "$prefix" --with-fake > /dev/null 2> "$work/install.err"; then
        pass "bin/install --prefix PREFIX --with-fake exits 0"
    else
        fail "bin/install --prefix PREFIX --with-fake exits 0" "$(tail -20 "$work/install.err")"
    fi
    check "it adds flickr-fake, leaving the rest as it was" grep -q "(5 files written, 38 already up to date)" "$work/install.err"
    check "every tool, man page and completion is where its reader looks" bash -c '
        p="$1"; shift
        for tool in "$@" flickr-fake; do
            for f in "bin/$tool" "share/man/man1/$tool.1" "share/bash-completion/completions/$tool" \
                     "share/zsh/site-functions/_$tool" "share/fish/vendor_completions.d/$tool.fish"; do
                [ -s "$p/$f" ] || { echo "missing: $f"; exit 1; }
            done
            [ -x "$p/bin/$tool" ] || { echo "not executable: bin/$tool"; exit 1; }
        done
        [ -s "$p/share/man/man7/topregions-record.7" ] || { echo "missing: topregions-record.7"; exit 1; }' \
        _ "$prefix" "${TOPREGIONS_TOOLS[@]}"
    check "the manifest lists exactly the files installed (43)" bash -c '
        cd "$1" && [ "$(grep -c "^file " share/topregions/install-manifest)" -eq 43 ] &&
        grep "^file " share/topregions/install-manifest | cut -c6- | while read -r f; do [ -f "$f" ] || { echo "listed, absent: $f"; exit 1; }; done' \
        _ "$prefix"
    check "installed binaries load no Swift runtime (ldd)" no_swift_runtime "$prefix/bin"
    check "--version says topregions $version, then the copyright and license" \
        bash -c '[ "$("$1/bin/regions-top" --version | head -1)" = "topregions $2" ] && "$1/bin/regions-top" --version | grep -q "License: Apache-2.0"' _ "$prefix" "$version"

    run_pipeline "$prefix/bin" "$prefix/bin/flickr-fake"

    check "man -M PREFIX/share/man -w regions-top finds the installed page" \
        bash -c '[ "$(man -M "$1/share/man" -w regions-top)" = "$1/share/man/man1/regions-top.1" ]' _ "$prefix"
    check "man -M PREFIX/share/man -w topregions finds the program's page" \
        bash -c '[ "$(man -M "$1/share/man" -w topregions)" = "$1/share/man/man1/topregions.1" ]' _ "$prefix"
    check "man -M PREFIX/share/man -w 7 topregions-record finds the record reference" \
        bash -c '[ "$(man -M "$1/share/man" -w 7 topregions-record)" = "$1/share/man/man7/topregions-record.7" ]' _ "$prefix"
    check "man renders regions-top's page" \
        bash -c 'MANWIDTH=80 man -P cat -M "$1/share/man" regions-top 2>/dev/null | grep -q "regions-top \[--db path\]"' _ "$prefix"
    check "bash completion (found by bash-completion under PREFIX/share) offers --db and --limit" \
        bash_completes "$prefix/share" --db --limit --format
    check "zsh completion: compinit maps regions-top to _regions-top from PREFIX/share/zsh/site-functions" \
        env -i HOME="$work/home" PATH="$system_path" zsh -fc '
            fpath=("$1" $fpath); autoload -Uz compinit; compinit -u -D
            [[ $_comps[regions-top] == _regions-top ]] || { print "regions-top -> ${_comps[regions-top]:-nothing}"; exit 1 }' \
        _ "$prefix/share/zsh/site-functions"
    check "fish completion (found through XDG_DATA_DIRS) completes --l to --limit" bash -c '
        out="$(env -i HOME="$2" PATH="$1/bin:$3" XDG_DATA_DIRS="$1/share" fish -c "complete -C \"regions-top --l\"")"
        echo "$out"; [ "$(echo "$out" | cut -f1)" = "--limit" ]' _ "$prefix" "$work/home" "$system_path"

    # Again: nothing changes, nothing is written.
    cp "$prefix/share/topregions/install-manifest" "$work/manifest.first"
    (cd "$prefix" && find . -printf '%p %y %m %s %T@\n' | sort) > "$work/installed.first"
    bin/install --prefix "$prefix" --with-fake > /dev/null 2> "$work/reinstall.err"
    check "a second install writes nothing and keeps the manifest" bash -c '
        grep -q "(0 files written, 43 already up to date)" "$1" && cmp "$2" "$3/share/topregions/install-manifest" &&
        diff "$4" <(cd "$3" && find . -printf "%p %y %m %s %T@\n" | sort)' \
        _ "$work/reinstall.err" "$work/manifest.first" "$prefix" "$work/installed.first"

    # A file of someone else's at a destination is refused, and nothing is touched.
    other="$work/other-prefix"
    mkdir -p "$other/bin"
    echo "not ours" > "$other/bin/regions-top"
    bin/install --prefix "$other" > /dev/null 2> "$work/conflict.err"
    status=$?
    check "installing over someone else's regions-top exits 73 and changes nothing" bash -c '
        [ "$1" -eq 73 ] && grep -q "not put there by bin/install" "$2" && [ "$(cat "$3/bin/regions-top")" = "not ours" ] &&
        [ "$(cd "$3" && find . | sort | tr "\n" " ")" = ". ./bin ./bin/regions-top " ]' \
        _ "$status" "$work/conflict.err" "$other"
    for bad in "--prefix" "--bogus" "--uninstall --with-fake"; do
        # shellcheck disable=SC2086
        bin/install $bad > /dev/null 2>&1
        status=$?
        check "bin/install $bad is a usage error (64)" test "$status" -eq 64
    done

    bin/install --uninstall --prefix "$prefix" > /dev/null 2> "$work/uninstall.err"
    status=$?
    check "bin/install --uninstall exits 0 and says what it removed" bash -c '[ "$1" -eq 0 ] && grep -q "removed 43 files" "$2"' \
        _ "$status" "$work/uninstall.err"
    check "after --uninstall the prefix is exactly as before (files, directories, modes, contents)" \
        diff "$work/before.txt" <(snapshot)
    bin/install --uninstall --prefix "$prefix" > /dev/null 2>&1
    status=$?
    check "a second --uninstall finds nothing to remove (66)" test "$status" -eq 66
    echo "packaging: $current took $(( $(date +%s) - started )) s"
fi

# --- Packaging.deb ---------------------------------------------------------------------

current=Packaging.deb
if selected "$current"; then
    started="$(date +%s)"
    deb="$(bin/package --out "$work/dist" 2> "$work/package.err")"
    status=$?
    arch="$(dpkg --print-architecture)"
    if [ $status -eq 0 ] && [ "$deb" = "$work/dist/topregions_${version}_${arch}.deb" ] && [ -f "$deb" ]; then
        pass "bin/package builds topregions_${version}_${arch}.deb and prints its path"
    else
        fail "bin/package builds topregions_${version}_${arch}.deb (status $status, printed '$deb')" "$(tail -20 "$work/package.err")"
    fi
    check "Depends names libsqlite3-0 (linked) and libcurl4 (opened at run time), versioned" bash -c '
        depends="$(dpkg-deb -f "$1" Depends)"; echo "Depends: $depends"
        for package in libc6 libsqlite3-0 libcurl4; do
            echo ", $depends," | grep -Eq ", $package \(>= [0-9][^)]*\)," || exit 1
        done' _ "$deb"
    root="$work/extracted"
    check "dpkg-deb -x extracts it" dpkg-deb -x "$deb" "$root"
    check "the package holds the seven tools and no flickr-fake" bash -c '
        [ "$(ls "$1/usr/bin" | tr "\n" " ")" = "flickr-recent photo-cache place-resolve regions-load regions-serve regions-top thumb-get topregions " ]' _ "$root"
    check "/usr/bin holds one program, topregions, and each tool's name as a link to it" one_program "$root/usr/bin"
    check "Installed-Size is at most 100 MB" bash -c '
        size="$(dpkg-deb -f "$1" Installed-Size)"; echo "Installed-Size: $size KiB"; [ "$size" -le $((100000000 / 1024)) ]' _ "$deb"
    check "packaged binaries are stripped (no symbol table)" bash -c '
        for b in "$1"/usr/bin/*; do ! readelf -S "$b" | grep -q "\.symtab" || { echo "$b has symbols"; exit 1; }; done' _ "$root"
    check "packaged binaries load no Swift runtime (ldd)" no_swift_runtime "$root/usr/bin"
    check "man pages are gzipped; copyright and changelog.gz are in /usr/share/doc/topregions" bash -c '
        cd "$1/usr/share" && [ "$(ls man/man1 | grep -c "\.1\.gz$")" -eq 8 ] && [ -f man/man1/topregions.1.gz ] && [ -f man/man7/topregions-record.7.gz ] &&
        [ -s doc/topregions/copyright ] && zcat doc/topregions/changelog.gz | head -1 | grep -q "^topregions ($2)"' _ "$root" "$version"

    run_pipeline "$root/usr/bin" "$(topregions_static_build flickr-fake 2>/dev/null)/flickr-fake"

    check "man -M finds regions-top's page in the package" \
        bash -c '[ "$(man -M "$1/usr/share/man" -w regions-top)" = "$1/usr/share/man/man1/regions-top.1.gz" ]' _ "$root"
    check "man -M finds topregions' page in the package" \
        bash -c '[ "$(man -M "$1/usr/share/man" -w topregions)" = "$1/usr/share/man/man1/topregions.1.gz" ]' _ "$root"
    check "bash completion from the package offers --db and --limit" bash_completes "$root/usr/share" --db --limit
    lintian --fail-on error "$deb" > "$work/lintian.out" 2>&1
    status=$?
    check "lintian reports no errors" bash -c '[ "$1" -eq 0 ] && ! grep -q "^E:" "$2"' _ "$status" "$work/lintian.out"
    warnings="$(grep -c '^W:' "$work/lintian.out")"
    [ "$warnings" -eq 0 ] || { echo "packaging: lintian warnings:"; grep '^W:' "$work/lintian.out" | sed 's/^/    /'; }
    echo "packaging: $current took $(( $(date +%s) - started )) s"
fi

# --- Packaging.demo --------------------------------------------------------------------
# The README's first command, bin/demo, on the tests' own build (no release build): its
# output is what a person needs, and bin/demo --serve serves what the demo left (a photo
# deleted since stays deleted) with the offline Flickr back on the port the photos name,
# without running the demo again.

current=Packaging.demo
if selected "$current"; then
    started="$(date +%s)"
    debug_bin="$(swift build --show-bin-path)"
    demo_out="$work/demo-out"
    demo_env=(env TOPREGIONS_BIN="$debug_bin" TOPREGIONS_DEMO_OUT="$demo_out")
    "${demo_env[@]}" bin/demo > "$work/demo.out" 2> "$work/demo.err"
    status=$?
    check "bin/demo runs end to end (status 0) and says how to explore what it made"         bash -c '[ "$1" -eq 0 ] && grep -q "^== explore it" "$2" && grep -q "^   bin/demo --serve" "$2"' _ "$status" "$work/demo.out"
    check "bin/demo prints no apt or SwiftPM chatter" bash -c '
        ! grep -Eh "Compiling|Building for|Reading package lists|Selecting previously|Unpacking|Setting up" "$1" "$2"' _ "$work/demo.out" "$work/demo.err"
    demo_db="$demo_out/topregions.db"
    deleted="$(sqlite3 "$demo_db" "SELECT id FROM photo ORDER BY id LIMIT 1")"
    kept_thumb="$(sqlite3 "$demo_db" "SELECT thumb_url FROM photo ORDER BY id DESC LIMIT 1")"
    "$debug_bin/regions-load" -q --db "$demo_db" --delete "$deleted" < /dev/null

    setsid "${demo_env[@]}" bin/demo --serve > "$work/serve.out" 2> "$work/serve.err" &
    demo_pid=$!
    served=""
    for _ in $(seq 1 600); do  # the served address, once regions-serve prints it (at most 60 s)
        served="$(sed -n '/^== regions-serve/,$ { /^http:/ { p; q } }' "$work/serve.out")"
        [ -n "$served" ] || ! kill -0 "$demo_pid" 2>/dev/null && break
        sleep 0.1
    done
    check "bin/demo --serve serves what the demo left, without running it again" bash -c '
        [ -n "$2" ] && grep -q "^== serving what bin/demo left" "$1" && ! grep -q "^== flickr-recent | place-resolve" "$1" &&
        grep -q "^== explore it" "$1"' _ "$work/serve.out" "$served"
    check "the served top page answers 200" bash -c '[ "$(curl -s -o /dev/null -w "%{http_code}" "$1/")" = 200 ]' _ "$served"
    check "the photo deleted before --serve stays deleted (404)"         bash -c '[ "$(curl -s -o /dev/null -w "%{http_code}" "$1/photos/$2")" = 404 ]' _ "$served" "$deleted"
    check "the offline Flickr is back on the port the photos name (a thumbnail answers 200)"         bash -c '[ "$(curl -s -o /dev/null -w "%{http_code}" "$1")" = 200 ]' _ "$kept_thumb"
    kill -INT -- "-$demo_pid" 2>/dev/null
    wait "$demo_pid" 2>/dev/null
    check "Ctrl-C stops the server and the offline Flickr" bash -c '! curl -s -o /dev/null "$1" && ! curl -s -o /dev/null "$2/"' _ "$kept_thumb" "$served"
    echo "packaging: $current took $(( $(date +%s) - started )) s"
fi

[ "$ran" -gt 0 ] || exit 0  # --filter chose none of these
echo "packaging: took $(( $(date +%s) - started_all )) s"
echo "packaging: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
