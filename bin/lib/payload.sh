# Shared by bin/install and bin/package: the build they install from, and the list of files
# that make up an installation. Source after bin/lib/setup.sh, from the repository root.

# The seven tools: the six filters in pipeline order, then the server. flickr-fake (the offline Flickr) is installed on request.
TOPREGIONS_TOOLS=(flickr-recent place-resolve regions-load regions-top thumb-get photo-cache regions-serve)

# A release build with the Swift runtime linked into each binary, so an installed tool needs
# no Swift toolchain: only the C libraries it names (libc, libstdc++, libsqlite3) and libcurl,
# which it opens at run time. Kept in its own scratch directory so it never invalidates the
# ordinary .build/; no $ORIGIN run path, since nothing is loaded from beside the binary.
# Incremental: a second call only checks. Prints the directory holding the binaries.
# Symbols bound at start (-z now), so the relocations can be read-only (as Debian hardens).
TOPREGIONS_STATIC_BUILD=(-c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now
    --scratch-path .build-static)
topregions_static_build() {
    swift build "${TOPREGIONS_STATIC_BUILD[@]}" >&2
    swift build "${TOPREGIONS_STATIC_BUILD[@]}" --show-bin-path
}

# topregions_version: the toolkit's version, as every tool's --version prints it.
topregions_version() {
    sed -n 's/^public let toolkitVersion = "\([^"]*\)".*/\1/p' Sources/TopRegionsCLI/Support/Version.swift
}

# topregions_payload BIN_DIR STAGE TOOL...
# Writes each tool's bash, zsh and fish completions (from its own
# --generate-completion-script) into STAGE and prints one line per file of an installation:
#   KIND<TAB>SOURCE<TAB>NAME
# KIND is bin, man1, man7, bash, zsh or fish; NAME is the file name each shell looks for.
topregions_payload() {
    local bin_dir="$1" stage="$2" tool shell page
    shift 2
    mkdir -p "$stage/bash" "$stage/zsh" "$stage/fish"
    for tool in "$@"; do
        [ -x "$bin_dir/$tool" ] || { echo "payload: $bin_dir/$tool was not built" >&2; return 70; }
        printf 'bin\t%s\t%s\n' "$bin_dir/$tool" "$tool"
        [ -f "man/$tool.1" ] || { echo "payload: man/$tool.1 is missing (bin/gen-man writes it)" >&2; return 70; }
        printf 'man1\t%s\t%s\n' "$PWD/man/$tool.1" "$tool.1"
        # Sourced by bash-completion, never run: no "#!" line (Debian's lintian asks for that).
        "$bin_dir/$tool" --generate-completion-script bash | sed '1{/^#!/d;}' > "$stage/bash/$tool"
        "$bin_dir/$tool" --generate-completion-script zsh > "$stage/zsh/_$tool"
        "$bin_dir/$tool" --generate-completion-script fish > "$stage/fish/$tool.fish"
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

completion_name() {
    case "$1" in
        bash) printf '%s' "$2" ;;
        zsh) printf '_%s' "$2" ;;
        fish) printf '%s.fish' "$2" ;;
    esac
}
