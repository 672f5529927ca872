#ifndef TOPREGIONS_GEOGRAPHY_H
#define TOPREGIONS_GEOGRAPHY_H
#include <stddef.h>

/// The bytes of geography.c.bin (see bin/lib/make-geography.py), built into the program.
const unsigned char *topregions_geography_bytes(void);
size_t topregions_geography_count(void);

/// The bytes of coasts.c.bin (see bin/lib/make-coasts.py), built into the program.
const unsigned char *topregions_coasts_bytes(void);
size_t topregions_coasts_count(void);

#endif
