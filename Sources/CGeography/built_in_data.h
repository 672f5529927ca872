#ifndef TOPREGIONS_BUILT_IN_DATA_H
#define TOPREGIONS_BUILT_IN_DATA_H
#include <stddef.h>

/// Builds the bytes of the file beside the C file that uses it (its own name and ".bin") into
/// the program as topregions_NAME_bytes() and topregions_NAME_count(): the assembler's .incbin
/// puts them in read-only data, so they cost nothing until read, and `__FILE__`, the C file's
/// path, finds them wherever the tree is built.
#define TOPREGIONS_BUILT_IN_DATA(name)                                                         \
    __asm__(".section .rodata\n"                                                               \
            ".balign 16\n"                                                                     \
            "topregions_" #name "_start:\n"                                                    \
            ".incbin \"" __FILE__ ".bin\"\n"                                                   \
            "topregions_" #name "_end:\n"                                                      \
            ".previous\n");                                                                    \
    extern const unsigned char topregions_##name##_start[], topregions_##name##_end[];         \
    const unsigned char *topregions_##name##_bytes(void) { return topregions_##name##_start; } \
    size_t topregions_##name##_count(void) { return (size_t)(topregions_##name##_end - topregions_##name##_start); }

#endif
