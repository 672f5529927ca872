/// The toolkit's version, shown by every tool's --version.
public let toolkitVersion = "0.1.0"
