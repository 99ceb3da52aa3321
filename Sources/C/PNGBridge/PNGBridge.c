// PNGBridge: RGBA8 <-> PNG in memory over libpng (see include/PNGBridge.h).
//
// A PNG is written a strip of rows at a time (`inkling_png_writer`), so that a large image
// such as a contact sheet need not be held whole; inkling_png_encode writes a whole image
// through the same writer.
//
// Invariants:
// 1. No libpng call is made outside a function that has set setjmp(png_jmpbuf(png)); libpng's
//    error callback (bridge_error) records the message and longjmps back there.
// 2. Every object live across setjmp that changes after it is reached through a `volatile`
//    pointer or lives in a struct whose address does not change (C11 7.13.2.1).
// 3. Every path out of a function releases the png/info structs and any buffer it allocated
//    that is not handed to the caller.
#include "PNGBridge.h"

#include <png.h>

const char *inkling_png_version(void) { return png_get_libpng_ver(NULL); }
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// MARK: - Errors

typedef struct {
  char *message;
  size_t message_size;
} bridge_errors;

static void set_message(char *message, size_t size, const char *text) {
  if (message == NULL || size == 0) return;
  snprintf(message, size, "%s", text ? text : "unknown error");
}

static void bridge_error(png_structp png, png_const_charp text) {
  bridge_errors *errors = (bridge_errors *)png_get_error_ptr(png);
  if (errors) set_message(errors->message, errors->message_size, text);
  png_longjmp(png, 1);
}

static void bridge_warning(png_structp png, png_const_charp text) {
  (void)png;
  (void)text;  // Warnings (e.g. a bad CRC in an ancillary chunk) are not failures.
}

// MARK: - Encoding

typedef struct {
  uint8_t *data;
  size_t size;
  size_t capacity;
  int failed;
} growable_buffer;

static void buffer_write(png_structp png, png_bytep bytes, png_size_t length) {
  growable_buffer *buffer = (growable_buffer *)png_get_io_ptr(png);
  if (buffer->size + length > buffer->capacity) {
    size_t capacity = buffer->capacity ? buffer->capacity : 4096;
    while (capacity < buffer->size + length) {
      if (capacity > SIZE_MAX / 2) {
        buffer->failed = 1;
        png_error(png, "output too large");
      }
      capacity *= 2;
    }
    uint8_t *grown = realloc(buffer->data, capacity);
    if (grown == NULL) {
      buffer->failed = 1;
      png_error(png, "out of memory growing the output buffer");
    }
    buffer->data = grown;
    buffer->capacity = capacity;
  }
  memcpy(buffer->data + buffer->size, bytes, length);
  buffer->size += length;
}

static void buffer_flush(png_structp png) { (void)png; }

static int is_ascii(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s >= 0x80) return 0;
  return 1;
}

static int valid_key(const char *key) {
  size_t n = strlen(key);
  if (n < 1 || n > 79) return 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)key[i];
    if (c < 0x20 || c > 0x7E) return 0;
  }
  return 1;
}

struct inkling_png_writer {
  png_structp png;
  png_infop info;
  // The callbacks reach these through pointers libpng keeps, so they live here, on the heap,
  // at one address (invariant 2); `errors` is pointed at each call's message buffer.
  growable_buffer buffer;
  bridge_errors errors;
  uint32_t width;
  uint32_t height;
  uint32_t written;
  int failed;
};

void inkling_png_writer_discard(inkling_png_writer *writer) {
  if (writer == NULL) return;
  png_destroy_write_struct(&writer->png, &writer->info);
  free(writer->buffer.data);
  free(writer);
}

int inkling_png_writer_begin(uint32_t width, uint32_t height, int opaque,
                             const char *const *text_keys, const char *const *text_values,
                             size_t text_count, int compression_level, int options,
                             inkling_png_writer **out_writer, char *message, size_t message_size) {
  if (out_writer) *out_writer = NULL;
  if (out_writer == NULL || width == 0 || height == 0 || width > INKLING_PNG_MAX_DIMENSION ||
      height > INKLING_PNG_MAX_DIMENSION) {
    set_message(message, message_size, "image size out of range");
    return INKLING_PNG_INVALID_ARGUMENT;
  }
  for (size_t i = 0; i < text_count; i++) {
    if (text_keys == NULL || text_values == NULL || text_keys[i] == NULL ||
        text_values[i] == NULL || !valid_key(text_keys[i])) {
      set_message(message, message_size,
                  "text key must be 1 to 79 printable ASCII characters");
      return INKLING_PNG_INVALID_ARGUMENT;
    }
  }
  if (compression_level < 0) compression_level = 0;
  if (compression_level > 9) compression_level = 9;

  // Allocated before setjmp and never reassigned after it (invariant 2).
  png_text *texts = text_count ? calloc(text_count, sizeof(png_text)) : NULL;
  inkling_png_writer *writer = calloc(1, sizeof(inkling_png_writer));
  if (writer == NULL || (text_count && texts == NULL)) {
    free(texts);
    free(writer);
    set_message(message, message_size, "out of memory");
    return INKLING_PNG_OUT_OF_MEMORY;
  }
  for (size_t i = 0; i < text_count; i++) {
    texts[i].key = (png_charp)text_keys[i];
    if (is_ascii(text_values[i])) {
      texts[i].compression = PNG_TEXT_COMPRESSION_NONE;
      texts[i].text = (png_charp)text_values[i];
      texts[i].text_length = strlen(text_values[i]);
    } else {
      texts[i].compression = PNG_ITXT_COMPRESSION_NONE;
      texts[i].text = (png_charp)text_values[i];
      texts[i].itxt_length = strlen(text_values[i]);
      texts[i].lang = "";
      texts[i].lang_key = "";
    }
  }
  writer->errors = (bridge_errors){message, message_size};
  writer->width = width;
  writer->height = height;
  writer->png =
      png_create_write_struct(PNG_LIBPNG_VER_STRING, &writer->errors, bridge_error, bridge_warning);
  writer->info = writer->png ? png_create_info_struct(writer->png) : NULL;
  if (writer->png == NULL || writer->info == NULL) {
    inkling_png_writer_discard(writer);
    free(texts);
    set_message(message, message_size, "out of memory creating the PNG writer");
    return INKLING_PNG_OUT_OF_MEMORY;
  }
  if (setjmp(png_jmpbuf(writer->png))) {
    int code = writer->buffer.failed ? INKLING_PNG_OUT_OF_MEMORY : INKLING_PNG_LIBPNG_ERROR;
    inkling_png_writer_discard(writer);
    free(texts);
    return code;
  }
  png_set_write_fn(writer->png, &writer->buffer, buffer_write, buffer_flush);
  png_set_compression_level(writer->png, compression_level);
  // libpng's adaptive filtering tries all five filters on every row; for drawings on a flat
  // background no filter compresses as well at a third of the time (docs/thumbnails.md).
  if (options & INKLING_PNG_NO_FILTER)
    png_set_filter(writer->png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
  png_set_IHDR(writer->png, writer->info, width, height, 8,
               opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE,
               PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  // png_set_text copies the keys and values, so `texts` is not needed past it.
  if (text_count) png_set_text(writer->png, writer->info, texts, (int)text_count);
  png_write_info(writer->png, writer->info);
  // The rows stay RGBA; for an RGB image libpng drops the fourth byte of each pixel.
  if (opaque) png_set_filler(writer->png, 0, PNG_FILLER_AFTER);
  free(texts);
  *out_writer = writer;
  return INKLING_PNG_OK;
}

int inkling_png_writer_rows(inkling_png_writer *writer, const uint8_t *rgba, uint32_t rows,
                            size_t stride, char *message, size_t message_size) {
  if (writer == NULL || writer->failed) {
    set_message(message, message_size, "the PNG writer failed before");
    return INKLING_PNG_INVALID_ARGUMENT;
  }
  if ((rgba == NULL && rows > 0) || stride < (size_t)writer->width * 4 ||
      rows > writer->height - writer->written) {
    set_message(message, message_size, "rows out of range");
    return INKLING_PNG_INVALID_ARGUMENT;
  }
  writer->errors = (bridge_errors){message, message_size};
  if (setjmp(png_jmpbuf(writer->png))) {
    writer->failed = 1;
    return writer->buffer.failed ? INKLING_PNG_OUT_OF_MEMORY : INKLING_PNG_LIBPNG_ERROR;
  }
  for (uint32_t y = 0; y < rows; y++) {
    png_write_row(writer->png, (png_const_bytep)(rgba + (size_t)y * stride));
    writer->written++;
  }
  return INKLING_PNG_OK;
}

int inkling_png_writer_end(inkling_png_writer *writer, uint8_t **out_data, size_t *out_size,
                           char *message, size_t message_size) {
  if (out_data) *out_data = NULL;
  if (out_size) *out_size = 0;
  if (writer == NULL || out_data == NULL || out_size == NULL || writer->failed ||
      writer->written != writer->height) {
    set_message(message, message_size,
                writer && writer->failed ? "the PNG writer failed before"
                                         : "the image ends before its last row");
    inkling_png_writer_discard(writer);
    return INKLING_PNG_INVALID_ARGUMENT;
  }
  writer->errors = (bridge_errors){message, message_size};
  if (setjmp(png_jmpbuf(writer->png))) {
    int code = writer->buffer.failed ? INKLING_PNG_OUT_OF_MEMORY : INKLING_PNG_LIBPNG_ERROR;
    inkling_png_writer_discard(writer);
    return code;
  }
  png_write_end(writer->png, writer->info);
  png_destroy_write_struct(&writer->png, &writer->info);
  *out_data = writer->buffer.data;
  *out_size = writer->buffer.size;
  free(writer);
  return INKLING_PNG_OK;
}

int inkling_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height, size_t stride,
                       const char *const *text_keys, const char *const *text_values,
                       size_t text_count, int compression_level, int options,
                       uint8_t **out_data, size_t *out_size, char *message,
                       size_t message_size) {
  if (out_data) *out_data = NULL;
  if (out_size) *out_size = 0;
  if (rgba == NULL || out_data == NULL || out_size == NULL || width == 0 || height == 0 ||
      width > INKLING_PNG_MAX_DIMENSION || height > INKLING_PNG_MAX_DIMENSION ||
      stride < (size_t)width * 4) {
    set_message(message, message_size, "image size or stride out of range");
    return INKLING_PNG_INVALID_ARGUMENT;
  }
  // An opaque image is written as RGB: a quarter less to filter, compress and store.
  int opaque = 1;
  for (uint32_t y = 0; y < height && opaque; y++) {
    const uint8_t *row = rgba + (size_t)y * stride;
    for (uint32_t x = 0; x < width; x++) {
      if (row[4 * x + 3] != 0xFF) {
        opaque = 0;
        break;
      }
    }
  }
  inkling_png_writer *writer = NULL;
  int code = inkling_png_writer_begin(width, height, opaque, text_keys, text_values, text_count,
                                      compression_level, options, &writer, message, message_size);
  if (code != INKLING_PNG_OK) return code;
  code = inkling_png_writer_rows(writer, rgba, height, stride, message, message_size);
  if (code != INKLING_PNG_OK) {
    inkling_png_writer_discard(writer);
    return code;
  }
  return inkling_png_writer_end(writer, out_data, out_size, message, message_size);
}

// MARK: - Decoding

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t offset;
} read_cursor;

static void cursor_read(png_structp png, png_bytep out, png_size_t length) {
  read_cursor *cursor = (read_cursor *)png_get_io_ptr(png);
  if (length > cursor->size - cursor->offset) png_error(png, "PNG data ends early");
  memcpy(out, cursor->data + cursor->offset, length);
  cursor->offset += length;
}

int inkling_png_decode(const uint8_t *data, size_t size, uint8_t **out_rgba,
                       uint32_t *out_width, uint32_t *out_height, char *message,
                       size_t message_size) {
  if (out_rgba) *out_rgba = NULL;
  if (data == NULL || out_rgba == NULL || out_width == NULL || out_height == NULL) {
    set_message(message, message_size, "missing argument");
    return INKLING_PNG_INVALID_ARGUMENT;
  }
  if (size < 8 || png_sig_cmp(data, 0, 8) != 0) {
    set_message(message, message_size, "not a PNG (bad signature)");
    return INKLING_PNG_LIBPNG_ERROR;
  }
  read_cursor cursor = {data, size, 0};
  bridge_errors errors = {message, message_size};
  png_structp png =
      png_create_read_struct(PNG_LIBPNG_VER_STRING, &errors, bridge_error, bridge_warning);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (png == NULL || info == NULL) {
    png_destroy_read_struct(&png, &info, NULL);
    set_message(message, message_size, "out of memory creating the PNG reader");
    return INKLING_PNG_OUT_OF_MEMORY;
  }
  // Assigned after setjmp, so volatile (invariant 2).
  uint8_t *volatile pixels = NULL;
  png_bytep *volatile rows = NULL;
  volatile int code = INKLING_PNG_LIBPNG_ERROR;
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info, NULL);
    free(pixels);
    free(rows);
    return code;
  }
  png_set_read_fn(png, &cursor, cursor_read);
  png_set_user_limits(png, INKLING_PNG_MAX_DIMENSION, INKLING_PNG_MAX_DIMENSION);
  png_read_info(png, info);
  png_uint_32 width = png_get_image_width(png, info);
  png_uint_32 height = png_get_image_height(png, info);
  int bit_depth = png_get_bit_depth(png, info);
  int color_type = png_get_color_type(png, info);
  if ((uint64_t)width * height > INKLING_PNG_MAX_PIXELS) {
    code = INKLING_PNG_OUT_OF_MEMORY;
    png_error(png, "image has too many pixels");
  }
  // Everything to 8-bit RGBA: palette and low-bit grey expand, tRNS becomes alpha, 16-bit
  // scales down, grey becomes RGB, and an opaque alpha is added when there is none.
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (bit_depth == 16) png_set_scale_16(png);
  if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
    png_set_gray_to_rgb(png);
  if (!(color_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
    png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  if (png_get_rowbytes(png, info) != (size_t)width * 4) png_error(png, "unexpected row size");

  pixels = malloc((size_t)width * height * 4);
  rows = malloc(sizeof(png_bytep) * height);
  if (pixels == NULL || rows == NULL) {
    code = INKLING_PNG_OUT_OF_MEMORY;
    png_error(png, "out of memory for the pixels");
  }
  for (png_uint_32 y = 0; y < height; y++) rows[y] = pixels + (size_t)y * width * 4;
  png_read_image(png, rows);
  png_read_end(png, NULL);
  png_destroy_read_struct(&png, &info, NULL);
  free(rows);
  *out_rgba = pixels;
  *out_width = width;
  *out_height = height;
  return INKLING_PNG_OK;
}

void inkling_png_free(void *buffer) { free(buffer); }
