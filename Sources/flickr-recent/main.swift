import TopRegionsCLI

FlickrRecent.main()
