// The geography maps are drawn from, built into the program: the linker places the bytes of
// geography.c.bin (made by bin/lib/make-geography.py) in read-only data, so they cost nothing
// until a map reads them (the pages are mapped from the file on first touch), and the
// multi-call program stays one file to install. `__FILE__` is this file's path, so the data
// is found beside it wherever the tree is built.
// geography.c.bin sha256 ab0751eb49f321afa988fa901968a0d6caef771fafddb670df5dd0068186f32d
#include "geography.h"
#include "built_in_data.h"

TOPREGIONS_BUILT_IN_DATA(geography)
