// The geography maps are drawn from, built into the program: the linker places the bytes of
// geography.c.bin (made by bin/lib/make-geography.py) in read-only data, so they cost nothing
// until a map reads them (the pages are mapped from the file on first touch), and the
// multi-call program stays one file to install. `__FILE__` is this file's path, so the data
// is found beside it wherever the tree is built.
// geography.c.bin sha256 69aa9b00590eac27ab1dda9896d1744d77820af6a1869313e0f839c58e378842
#include "geography.h"
#include "built_in_data.h"

TOPREGIONS_BUILT_IN_DATA(geography)
