import TopRegionsCLI

PhotoCache.main()
