// PNGBridge: RGBA8 <-> PNG in memory over libpng, for Swift.
//
// libpng reports errors by longjmp, which must never unwind through Swift frames. Every entry
// point here sets its own setjmp(png_jmpbuf(...)) before calling libpng, so an error in libpng
// becomes a non-zero return code and a message in the caller's buffer. Memory returned to the
// caller is malloc'ed and released with inkling_png_free.
#ifndef INKLING_PNG_BRIDGE_H
#define INKLING_PNG_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Return codes.
enum {
  INKLING_PNG_OK = 0,
  /// libpng reported an error; the message buffer says which.
  INKLING_PNG_LIBPNG_ERROR = 1,
  /// An argument was out of range (size, stride, text key); the message buffer says which.
  INKLING_PNG_INVALID_ARGUMENT = 2,
  /// malloc failed or the image is larger than the limits.
  INKLING_PNG_OUT_OF_MEMORY = 3,
};

/// The largest width or height either direction accepts, and the most pixels decoding
/// allocates (64 Mpx = 256 MB of RGBA).
#define INKLING_PNG_MAX_DIMENSION 32768u
#define INKLING_PNG_MAX_PIXELS (64u * 1024u * 1024u)

/// Options of inkling_png_encode, or'ed together.
enum {
  /// Every row unfiltered (filter type None) instead of libpng's adaptive choice.
  INKLING_PNG_NO_FILTER = 1,
};

/// Encodes `height` rows of `width` RGBA8 pixels (non-premultiplied, `stride` bytes apart) as
/// an 8-bit PNG, RGB when every alpha is 255 and RGBA otherwise, with `text_count` text chunks
/// (tEXt when the value is ASCII, iTXt in UTF-8 otherwise; keys must be 1–79 printable ASCII
/// characters) at zlib level `compression_level` (clamped to 0…9), with `options` (above).
///
/// On success returns INKLING_PNG_OK and stores a malloc'ed buffer in `*out_data` and its size
/// in `*out_size`; otherwise writes a NUL-terminated message into `message` (at most
/// `message_size` bytes) and leaves `*out_data` NULL.
int inkling_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                       const char *const *text_keys, const char *const *text_values,
                       size_t text_count, int compression_level, int options,
                       uint8_t **out_data, size_t *out_size, char *message,
                       size_t message_size);

/// A PNG being written a strip of rows at a time (inkling_png_writer_begin), so that an image
/// is never held whole: only its compressed bytes grow.
typedef struct inkling_png_writer inkling_png_writer;

/// Starts a PNG of `height` rows of `width` pixels, RGB when `opaque` (the rows given are
/// still RGBA; their alpha is dropped) else RGBA, with its text chunks, compression level and
/// options as inkling_png_encode takes them; the header and text chunks are written at once.
///
/// On success returns INKLING_PNG_OK and stores the writer in `*out_writer`, which
/// inkling_png_writer_end or inkling_png_writer_discard must release; otherwise writes a
/// message and leaves `*out_writer` NULL.
int inkling_png_writer_begin(uint32_t width, uint32_t height, int opaque,
                             const char *const *text_keys, const char *const *text_values,
                             size_t text_count, int compression_level, int options,
                             inkling_png_writer **out_writer, char *message, size_t message_size);

/// Writes the next `rows` rows (RGBA8, `stride` bytes apart). More rows than the image has
/// left, or a writer that has failed before, is an error; after any error the writer can
/// only be discarded.
int inkling_png_writer_rows(inkling_png_writer *writer, const uint8_t *rgba, uint32_t rows,
                            size_t stride, char *message, size_t message_size);

/// Ends the image (every row must have been written) and releases the writer, whatever the
/// outcome. On success stores the PNG's malloc'ed bytes in `*out_data` and their count in
/// `*out_size`.
int inkling_png_writer_end(inkling_png_writer *writer, uint8_t **out_data, size_t *out_size,
                           char *message, size_t message_size);

/// Releases a writer that will not be ended, and what it has written. NULL is allowed.
void inkling_png_writer_discard(inkling_png_writer *writer);

/// Decodes any PNG (palette, grey, 16-bit, interlaced, with or without alpha) to 8-bit
/// non-premultiplied RGBA, rows packed (`width × 4` bytes apart).
///
/// On success returns INKLING_PNG_OK and stores a malloc'ed buffer of `width × height × 4`
/// bytes in `*out_rgba`; otherwise writes a message and leaves `*out_rgba` NULL.
int inkling_png_decode(const uint8_t *data, size_t size, uint8_t **out_rgba,
                       uint32_t *out_width, uint32_t *out_height, char *message,
                       size_t message_size);

/// Releases a buffer returned by this bridge.
void inkling_png_free(void *buffer);

/// The version of the libpng linked in ("1.6.39"), for `--version --verbose`.
const char *inkling_png_version(void);

#ifdef __cplusplus
}
#endif

#endif
