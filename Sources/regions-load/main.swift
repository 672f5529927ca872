import TopRegionsCLI

RegionsLoad.main()
