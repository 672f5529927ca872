#include "JanssonShim.h"
#include <string.h>

json_type js_type(const json_t *value) { return json_typeof(value); }

void js_release(json_t *value) { json_decref(value); }

json_t *js_load(const char *buffer, size_t length, size_t flags, js_error *error) {
    json_error_t detail;
    json_t *value = json_loadb(buffer, length, flags, &detail);
    if (!value && error) {
        error->line = detail.line;
        error->column = detail.column;
        error->position = detail.position;
        memcpy(error->text, detail.text, sizeof error->text);
    }
    return value;
}
