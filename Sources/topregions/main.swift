import TopRegionsCLI
import TopRegionsServer

// regions-serve's server, as the regions-serve executable sets it up; then the tool this
// program is run as.
Serving.install()
ToolkitProgram.runAsInvoked()
