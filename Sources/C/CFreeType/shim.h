#include <ft2build.h>
#include FT_FREETYPE_H

// Function-like and shifted macros that Swift does not import, as constants.
static const FT_Int32 inkling_FT_LOAD_TARGET_LIGHT = FT_LOAD_TARGET_LIGHT;
static const FT_Int32 inkling_FT_LOAD_COLOR = FT_LOAD_COLOR;
static const FT_Int32 inkling_FT_LOAD_NO_BITMAP = FT_LOAD_NO_BITMAP;
