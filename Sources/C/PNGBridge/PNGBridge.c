#include "PNGBridge.h"
int inkling_png_placeholder(void) { return 0; }
