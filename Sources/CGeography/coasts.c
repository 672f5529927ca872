// The land at a city's scale (GSHHG's high-resolution shorelines cut into degree cells), built
// into the program as geography.c.bin is (see there): the bytes of coasts.c.bin, made by
// bin/lib/make-coasts.py, in read-only data, read only by the maps whose view is small.
// coasts.c.bin sha256 8e8b5588174fd6eb66ea947c44eb9b461ed13fba44d13f2c72a25028459de19e
#include "geography.h"

__asm__(
    ".section .rodata\n"
    ".balign 16\n"
    "topregions_coasts_start:\n"
    ".incbin \"" __FILE__ ".bin\"\n"
    "topregions_coasts_end:\n"
    ".previous\n");

extern const unsigned char topregions_coasts_start[], topregions_coasts_end[];

const unsigned char *topregions_coasts_bytes(void) { return topregions_coasts_start; }

size_t topregions_coasts_count(void) {
    return (size_t)(topregions_coasts_end - topregions_coasts_start);
}
