import TopRegionsToolkit

RegionsServe.main()
