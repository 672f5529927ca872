import TopRegionsCLI

PhotoCacheCommand.main()
