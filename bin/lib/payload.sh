# Shared by bin/install and bin/package: the build they install from, and the list of files
# that make up an installation. Source after bin/lib/setup.sh, from the repository root.

# The seven tools: the six filters in pipeline order, then the server. flickr-fake (the offline Flickr) is installed on request.
TOPREGIONS_TOOLS=(flickr-recent place-resolve regions-load regions-top thumb-get photo-cache regions-serve)
# What is installed of them: one program, each tool's name a symbolic link to it beside it (as
# BusyBox does). The Swift runtime and Foundation with its ICU tables, 58 of a static binary's 64 MB,
# are then installed once, not seven times.
TOPREGIONS_PROGRAM=topregions

# A release build with the Swift runtime linked into each binary, so an installed tool needs
# no Swift toolchain: only the C libraries it names (libc, libstdc++, libsqlite3) and libcurl,
# which it opens at run time. Kept in its own scratch directory so it never invalidates the
# ordinary .build/; no $ORIGIN run path, since nothing is loaded from beside the binary.
# Incremental: a second call only checks. Prints the directory holding the binaries.
# Symbols bound at start (-z now), so the relocations can be read-only (as Debian hardens).
TOPREGIONS_STATIC_BUILD=(-c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now
    --scratch-path .build-static)
# topregions_static_build [PRODUCT...]: builds only these (default: the program), not the
# seven tools' own executables, the tests' or the documentation's.
topregions_static_build() {
    local product
    for product in "${@:-$TOPREGIONS_PROGRAM}"; do
        swift build "${TOPREGIONS_STATIC_BUILD[@]}" --product "$product" >&2
    done
    swift build "${TOPREGIONS_STATIC_BUILD[@]}" --show-bin-path
}

# topregions_version: the toolkit's version, as the first line of every tool's --version says it.
topregions_version() {
    sed -n 's/^public let toolkitVersion = "\([^"]*\)".*/\1/p' Sources/TopRegionsCLI/Support/Version.swift
}

# topregions_payload BIN_DIR STAGE TOOL...
# Writes each tool's bash, zsh and fish completions (from its own
# --generate-completion-script) into STAGE and prints one line per file of an installation:
#   KIND<TAB>SOURCE<TAB>NAME
# KIND is bin, link, man1, man7, bash, zsh or fish; NAME is the file name each shell looks
# for. A link is a symbolic link in the binaries' directory whose SOURCE is what it points to
# (the program, by its name): the seven tools are links to the program, which comes first;
# flickr-fake is a binary of its own.
topregions_payload() {
    local bin_dir="$1" stage="$2" tool shell page run
    shift 2
    mkdir -p "$stage/bash" "$stage/zsh" "$stage/fish"
    [ -x "$bin_dir/$TOPREGIONS_PROGRAM" ] || { echo "payload: $bin_dir/$TOPREGIONS_PROGRAM was not built" >&2; return 70; }
    printf 'bin\t%s\t%s\n' "$bin_dir/$TOPREGIONS_PROGRAM" "$TOPREGIONS_PROGRAM"
    payload_man_page "$TOPREGIONS_PROGRAM" || return
    for tool in "$@"; do
        if [[ " ${TOPREGIONS_TOOLS[*]} " == *" $tool "* ]]; then
            printf 'link\t%s\t%s\n' "$TOPREGIONS_PROGRAM" "$tool"
            run=("$bin_dir/$TOPREGIONS_PROGRAM" "$tool")
        else
            [ -x "$bin_dir/$tool" ] || { echo "payload: $bin_dir/$tool was not built" >&2; return 70; }
            printf 'bin\t%s\t%s\n' "$bin_dir/$tool" "$tool"
            run=("$bin_dir/$tool")
        fi
        payload_man_page "$tool" || return
        # Sourced by bash-completion, never run: no "#!" line (Debian's lintian asks for that).
        "${run[@]}" --generate-completion-script bash | sed '1{/^#!/d;}' > "$stage/bash/$tool"
        "${run[@]}" --generate-completion-script zsh > "$stage/zsh/_$tool"
        "${run[@]}" --generate-completion-script fish > "$stage/fish/$tool.fish"
        for shell in bash zsh fish; do
            [ -s "$stage/$shell/$(completion_name "$shell" "$tool")" ] || { echo "payload: $tool wrote no $shell completion" >&2; return 70; }
        done
        printf 'bash\t%s\t%s\n' "$stage/bash/$tool" "$tool"
        printf 'zsh\t%s\t%s\n' "$stage/zsh/_$tool" "_$tool"
        printf 'fish\t%s\t%s\n' "$stage/fish/$tool.fish" "$tool.fish"
    done
    for page in man/*.7; do
        printf 'man7\t%s\t%s\n' "$PWD/$page" "${page##*/}"
    done
}

payload_man_page() {
    [ -f "man/$1.1" ] || { echo "payload: man/$1.1 is missing (bin/gen-man writes it)" >&2; return 70; }
    printf 'man1\t%s\t%s\n' "$PWD/man/$1.1" "$1.1"
}

completion_name() {
    case "$1" in
        bash) printf '%s' "$2" ;;
        zsh) printf '_%s' "$2" ;;
        fish) printf '%s.fish' "$2" ;;
    esac
}
