#include <stddef.h>
int inkling_png_placeholder(void);
