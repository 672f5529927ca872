import TopRegionsToolkit

// The tool this program is run as (by a link's name, or its first argument).
ToolkitProgram.runAsInvoked()
