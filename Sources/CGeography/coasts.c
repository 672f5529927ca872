// The land and rivers at a city's scale (GSHHG's high-resolution shorelines cut into degree
// cells, and its rivers), built into the program as geography.c.bin is (see there): the bytes
// of coasts.c.bin, made by bin/lib/make-coasts.py, read only by the maps whose view is small.
// coasts.c.bin sha256 8e8b5588174fd6eb66ea947c44eb9b461ed13fba44d13f2c72a25028459de19e
#include "geography.h"
#include "built_in_data.h"

TOPREGIONS_BUILT_IN_DATA(coasts)
