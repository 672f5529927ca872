#ifndef JANSSON_SHIM_H
#define JANSSON_SHIM_H

#include <jansson.h>
#include <stddef.h>

// json_typeof is a macro and json_decref an inline function: one real function for each.
json_type js_type(const json_t *value);
void js_release(json_t *value);

// json_loadb with the error's position copied out (line, column, byte position, message).
typedef struct {
    int line;
    int column;
    int position;
    char text[JSON_ERROR_TEXT_LENGTH];
} js_error;
json_t *js_load(const char *buffer, size_t length, size_t flags, js_error *error);

#endif
