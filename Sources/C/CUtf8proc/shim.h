// utf8proc (Debian's libutf8proc-dev): Unicode normalisation without Foundation, whose
// NSString normalisers would bring Foundation proper and ICU into every process.
#include <utf8proc.h>
