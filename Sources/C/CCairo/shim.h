#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-ft.h>
#include <cairo-svg.h>
