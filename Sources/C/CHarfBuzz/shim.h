// HarfBuzz without its FreeType glue (hb-ft.h): fonts are read from their files with
// HarfBuzz's own OpenType functions, so this module and CFreeType share no headers.
#include <hb.h>
#include <hb-ot.h>
