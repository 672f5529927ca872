import TopRegionsCLI

RegionsTop.main()
