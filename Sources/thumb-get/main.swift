import TopRegionsCLI

ThumbGet.main()
