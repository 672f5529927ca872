import TopRegionsCLI
import TopRegionsServer

Serving.install()
RegionsServe.main()
