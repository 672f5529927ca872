/// The toolkit's version (bin/package reads it from this line).
public let toolkitVersion = "0.2.0"

/// Who holds the copyright and under which license: --version's second line, the man
/// pages' COPYRIGHT section.
public let toolkitCopyright = "Copyright 2026 the topregions maintainers. License: Apache-2.0 <https://www.apache.org/licenses/LICENSE-2.0>."

/// What every tool's --version prints: the version, then the copyright line.
public let toolkitVersionText = "topregions \(toolkitVersion)\n\(toolkitCopyright)"
