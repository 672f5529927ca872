import TopRegionsCLI

PlaceResolve.main()
