// The geography maps are drawn from, built into the program: the linker places the bytes of
// geography.c.bin (made by bin/lib/make-geography.py) in read-only data, so they cost nothing
// until a map reads them (the pages are mapped from the file on first touch), and the
// multi-call program stays one file to install. `__FILE__` is this file's path, so the data
// is found beside it wherever the tree is built.
// geography.c.bin sha256 b262a06cf5a3e20b03d00a9c995963afca8c833a6a242b0035d985faa0fe9bbf
#include "geography.h"
#include "built_in_data.h"

TOPREGIONS_BUILT_IN_DATA(geography)
