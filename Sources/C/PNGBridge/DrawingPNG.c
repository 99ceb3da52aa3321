// DrawingPNG: a PNG writer for drawings over a flat background (thumbnails), without libpng.
//
// Why: with libpng and zlib, encoding was the largest part of a cold thumbnail (adaptive
// filters tried five filters per row; zlib level 1 spent half its time on the background).
// A drawing's scanlines repeat in two ways only: a pixel equals the one before it (the
// background, the inside of a wide stroke) or the one above it (rows of plain background).
// So the compressor looks for LZ77 matches at exactly those two distances, greedily and
// without a hash table, and codes the result as one dynamic-Huffman deflate block
// (RFC 1951, 3.2.7) in a zlib stream (RFC 1950). On the thumbnails of the benchmark corpus it
// is about 3 times faster than zlib level 1 and a little smaller (docs/thumbnails.md).
//
// The file is an ordinary PNG (https://www.w3.org/TR/png-3/): IHDR (8-bit RGB when every
// alpha is 255, else RGBA; no interlace), the text chunks, one IDAT, IEND. Rows are
// unfiltered (filter type 0).
//
// Invariants:
// 1. Matches are 3…258 bytes long at distance `bpp` (the previous pixel) or `rowBytes` (the
//    row above, used only when it is at most 32768, deflate's window), never reaching before
//    the start of the data or past its end.
// 2. Every Huffman code has at least two symbols with non-zero length (zlib's deflate does the
//    same; a one-symbol code is legal but some decoders refuse it) and lengths within deflate's
//    limits (15 bits, 7 for the code-length code), so the code is complete.
// 3. The output is allocated once, at its exact size, computed from the symbol frequencies
//    before any bit is written; if coding would be larger than stored blocks, stored blocks
//    are written instead, so the output is never much larger than the pixels.
#include "PNGBridge.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// MARK: - Deflate tables (RFC 1951, 3.2.5)

static const uint16_t length_base[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,
                                         15, 17, 19, 23, 27, 31, 35, 43, 51,  59,
                                         67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                         2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t distance_base[30] = {1,    2,    3,    4,    5,    7,     9,     13,
                                           17,   25,   33,   49,   65,   97,    129,   193,
                                           257,  385,  513,  769,  1025, 1537,  2049,  3073,
                                           4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t distance_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
                                           6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};
/// The order in which code-length code lengths are sent.
static const uint8_t code_length_order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                              11, 4,  12, 3, 13, 2, 14, 1, 15};

enum { LITERALS = 286, DISTANCES = 30, CODE_LENGTHS = 19, MAX_BITS = 15, MAX_CODE_LENGTH_BITS = 7 };

static int length_code(size_t length) {
  int code = 0;
  while (code < 28 && length_base[code + 1] <= length) code++;
  return code;
}

static int distance_code(size_t distance) {
  int code = 0;
  while (code < 29 && distance_base[code + 1] <= distance) code++;
  return code;
}

// MARK: - Huffman codes

typedef struct {
  uint32_t weight;
  int symbol;
} leaf;

static int by_weight(const void *a, const void *b) {
  const leaf *x = a, *y = b;
  if (x->weight != y->weight) return x->weight < y->weight ? -1 : 1;
  return x->symbol - y->symbol;
}

/// Code lengths of a Huffman code for `count` symbols with frequencies `frequency`, none
/// longer than `limit` bits: frequencies are halved (rounding up) until the tree is shallow
/// enough, which ends at the latest when all are 1. At least two symbols get a length
/// (invariant 2): symbols 0 and 1 are added with frequency 1 when fewer are used.
static void code_lengths(const uint32_t *frequency, int count, int limit, uint8_t *lengths) {
  uint32_t weight[LITERALS];
  int used = 0;
  for (int i = 0; i < count; i++) {
    weight[i] = frequency[i];
    if (weight[i]) used++;
  }
  for (int i = 0; used < 2 && i < count; i++) {
    if (weight[i] == 0) {
      weight[i] = 1;
      used++;
    }
  }
  for (;;) {
    leaf leaves[LITERALS];
    int n = 0;
    for (int i = 0; i < count; i++) {
      lengths[i] = 0;
      if (weight[i]) leaves[n++] = (leaf){weight[i], i};
    }
    qsort(leaves, (size_t)n, sizeof *leaves, by_weight);
    // Two queues: the sorted leaves (nodes 0 … n−1) and the internal nodes (n …), which are
    // made in increasing weight, so the two lightest are always at the queues' heads.
    uint32_t internal[LITERALS];
    int parent[2 * LITERALS];
    int next_leaf = 0, made = 0, next_internal = 0;
    for (int k = 0; k < n - 1; k++) {
      int pick[2];
      uint32_t sum = 0;
      for (int t = 0; t < 2; t++) {
        if (next_leaf < n && (next_internal >= made || leaves[next_leaf].weight <= internal[next_internal])) {
          sum += leaves[next_leaf].weight;
          pick[t] = next_leaf++;
        } else {
          sum += internal[next_internal];
          pick[t] = n + next_internal++;
        }
      }
      internal[made] = sum;
      parent[pick[0]] = parent[pick[1]] = n + made;
      made++;
    }
    // The root is the last node made; every other node's parent was made after it.
    int depth[2 * LITERALS];
    int root = n + made - 1;
    depth[root] = 0;
    for (int node = root - 1; node >= n; node--) depth[node] = depth[parent[node]] + 1;
    int fits = 1;
    for (int k = 0; k < n; k++) {
      int d = depth[parent[k]] + 1;
      lengths[leaves[k].symbol] = (uint8_t)d;
      if (d > limit) fits = 0;
    }
    if (fits) return;
    for (int i = 0; i < count; i++) {
      if (weight[i]) weight[i] = (weight[i] + 1) / 2;
    }
  }
}

/// Canonical codes for `lengths` (RFC 1951, 3.2.2), bit-reversed for LSB-first output.
static void canonical_codes(const uint8_t *lengths, int count, uint16_t *codes) {
  int per_length[MAX_BITS + 1] = {0};
  int next[MAX_BITS + 1] = {0};
  for (int i = 0; i < count; i++) per_length[lengths[i]]++;
  per_length[0] = 0;
  int code = 0;
  for (int bits = 1; bits <= MAX_BITS; bits++) {
    code = (code + per_length[bits - 1]) << 1;
    next[bits] = code;
  }
  for (int i = 0; i < count; i++) {
    if (lengths[i] == 0) continue;
    int value = next[lengths[i]]++;
    int reversed = 0;
    for (int k = 0; k < lengths[i]; k++) {
      reversed = (reversed << 1) | (value & 1);
      value >>= 1;
    }
    codes[i] = (uint16_t)reversed;
  }
}

// MARK: - Matching

/// How many bytes from `p` equal those from `q`, at most `max`.
static inline size_t match_length(const uint8_t *p, const uint8_t *q, size_t max) {
  size_t k = 0;
  while (k + 8 <= max) {
    uint64_t a, b;
    memcpy(&a, p + k, 8);
    memcpy(&b, q + k, 8);
    uint64_t differ = a ^ b;
    if (differ) return k + ((size_t)__builtin_ctzll(differ) >> 3);  // little-endian loads
    k += 8;
  }
  while (k < max && p[k] == q[k]) k++;
  return k;
}

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t pixel;  // bytes per pixel: the first distance
  size_t row;    // bytes per row (with its filter byte): the second, 0 when beyond the window
} scanlines;

/// The longer match at `i` (invariant 1), 0 when neither reaches 3 bytes; `*from_row` says
/// which distance.
static inline size_t find_match(const scanlines *s, size_t i, int *from_row) {
  size_t max = s->size - i < 258 ? s->size - i : 258;
  size_t best = i >= s->pixel ? match_length(s->data + i, s->data + i - s->pixel, max) : 0;
  *from_row = 0;
  if (s->row && i >= s->row && best < max) {
    size_t above = match_length(s->data + i, s->data + i - s->row, max);
    if (above > best) {
      best = above;
      *from_row = 1;
    }
  }
  return best >= 3 ? best : 0;
}

// MARK: - Output

typedef struct {
  uint8_t *out;
  size_t position;
  uint64_t bits;
  int count;
} bit_writer;

/// Appends the low `n` (≤ 16) bits of `value`, least significant first.
static inline void put_bits(bit_writer *w, uint32_t value, int n) {
  w->bits |= (uint64_t)value << w->count;
  w->count += n;
  if (w->count >= 32) {
    for (int k = 0; k < 4; k++) w->out[w->position++] = (uint8_t)(w->bits >> (8 * k));
    w->bits >>= 32;
    w->count -= 32;
  }
}

static void flush_bits(bit_writer *w) {
  while (w->count > 0) {
    w->out[w->position++] = (uint8_t)w->bits;
    w->bits >>= 8;
    w->count -= 8;
  }
  w->count = 0;
  w->bits = 0;
}

static void put_be32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

// MARK: - Deflate

typedef struct {
  uint32_t *position;
  uint32_t *length;  // length << 1 | from_row
  size_t count, capacity;
} match_list;

static int append_match(match_list *m, size_t position, size_t length, int from_row) {
  if (m->count == m->capacity) {
    size_t capacity = m->capacity ? 2 * m->capacity : 4096;
    uint32_t *p = realloc(m->position, capacity * sizeof *p);
    if (p == NULL) return 0;
    m->position = p;
    uint32_t *l = realloc(m->length, capacity * sizeof *l);
    if (l == NULL) return 0;
    m->length = l;
    m->capacity = capacity;
  }
  m->position[m->count] = (uint32_t)position;
  m->length[m->count] = (uint32_t)(length << 1 | (size_t)from_row);
  m->count++;
  return 1;
}

/// The zlib stream of `s`, malloc'ed, its size in `*size`; NULL when memory runs out.
static uint8_t *deflate_scanlines(const scanlines *s, size_t *size) {
  // Pass 1: the matches and every symbol's frequency.
  uint32_t literal_frequency[LITERALS] = {0};
  uint32_t distance_frequency[DISTANCES] = {0};
  uint8_t length_codes[259];
  for (size_t length = 3; length <= 258; length++) length_codes[length] = (uint8_t)length_code(length);
  const int pixel_code = distance_code(s->pixel);
  const int row_code = s->row ? distance_code(s->row) : 0;
  match_list matches = {0};
  for (size_t i = 0; i < s->size;) {
    int from_row;
    size_t length = find_match(s, i, &from_row);
    if (length) {
      if (!append_match(&matches, i, length, from_row)) {
        free(matches.position);
        free(matches.length);
        return NULL;
      }
      literal_frequency[257 + length_codes[length]]++;
      distance_frequency[from_row ? row_code : pixel_code]++;
      i += length;
    } else {
      literal_frequency[s->data[i]]++;
      i++;
    }
  }
  literal_frequency[256] = 1;  // end of block

  uint8_t literal_lengths[LITERALS], distance_lengths[DISTANCES];
  uint16_t literal_codes[LITERALS], distance_codes[DISTANCES];
  code_lengths(literal_frequency, LITERALS, MAX_BITS, literal_lengths);
  code_lengths(distance_frequency, DISTANCES, MAX_BITS, distance_lengths);
  canonical_codes(literal_lengths, LITERALS, literal_codes);
  canonical_codes(distance_lengths, DISTANCES, distance_codes);
  int literal_count = LITERALS;
  while (literal_count > 257 && literal_lengths[literal_count - 1] == 0) literal_count--;
  int distance_count = DISTANCES;
  while (distance_count > 1 && distance_lengths[distance_count - 1] == 0) distance_count--;

  // The code lengths of both codes, run-length coded: 17 and 18 for runs of zeros.
  uint8_t all[LITERALS + DISTANCES];
  int all_count = 0;
  for (int k = 0; k < literal_count; k++) all[all_count++] = literal_lengths[k];
  for (int k = 0; k < distance_count; k++) all[all_count++] = distance_lengths[k];
  uint8_t cl_symbol[LITERALS + DISTANCES], cl_extra[LITERALS + DISTANCES];
  int cl_count = 0;
  uint32_t cl_frequency[CODE_LENGTHS] = {0};
  for (int k = 0; k < all_count;) {
    int run = 0;
    if (all[k] == 0) {
      while (k + run < all_count && all[k + run] == 0 && run < 138) run++;
    }
    if (run >= 11) {
      cl_symbol[cl_count] = 18;
      cl_extra[cl_count++] = (uint8_t)(run - 11);
    } else if (run >= 3) {
      cl_symbol[cl_count] = 17;
      cl_extra[cl_count++] = (uint8_t)(run - 3);
    } else {
      run = 1;
      cl_symbol[cl_count] = all[k];
      cl_extra[cl_count++] = 0;
    }
    cl_frequency[cl_symbol[cl_count - 1]]++;
    k += run;
  }
  uint8_t cl_lengths[CODE_LENGTHS];
  uint16_t cl_codes[CODE_LENGTHS];
  code_lengths(cl_frequency, CODE_LENGTHS, MAX_CODE_LENGTH_BITS, cl_lengths);
  canonical_codes(cl_lengths, CODE_LENGTHS, cl_codes);
  int cl_order_count = CODE_LENGTHS;
  while (cl_order_count > 4 && cl_lengths[code_length_order[cl_order_count - 1]] == 0) cl_order_count--;

  // The exact size in bits (invariant 3).
  uint64_t bits = 3 + 5 + 5 + 4 + 3 * (uint64_t)cl_order_count;
  for (int k = 0; k < cl_count; k++) {
    bits += cl_lengths[cl_symbol[k]] + (cl_symbol[k] == 17 ? 3 : cl_symbol[k] == 18 ? 7 : 0);
  }
  for (int k = 0; k < LITERALS; k++) {
    bits += (uint64_t)literal_frequency[k] * (literal_lengths[k] + (k > 256 ? length_extra[k - 257] : 0));
  }
  for (int k = 0; k < DISTANCES; k++) {
    bits += (uint64_t)distance_frequency[k] * (distance_lengths[k] + distance_extra[k]);
  }
  const size_t stored_blocks = s->size / 65535 + 1;
  const size_t stored = s->size + 5 * stored_blocks;
  const int use_stored = bits / 8 + 1 > stored;
  const size_t deflated = use_stored ? stored : (size_t)(bits / 8 + 1);
  *size = 2 + deflated + 4;
  uint8_t *out = malloc(*size);
  if (out == NULL) {
    free(matches.position);
    free(matches.length);
    return NULL;
  }
  out[0] = 0x78;  // deflate, 32 KB window
  out[1] = 0x01;  // no dictionary, fastest-level hint; 0x7801 is a multiple of 31
  bit_writer w = {out, 2, 0, 0};

  if (use_stored) {
    for (size_t offset = 0, block = 0; block < stored_blocks; block++) {
      size_t n = s->size - offset < 65535 ? s->size - offset : 65535;
      put_bits(&w, block + 1 == stored_blocks, 1);
      put_bits(&w, 0, 2);
      flush_bits(&w);
      out[w.position++] = (uint8_t)n;
      out[w.position++] = (uint8_t)(n >> 8);
      out[w.position++] = (uint8_t)~n;
      out[w.position++] = (uint8_t)(~n >> 8);
      memcpy(out + w.position, s->data + offset, n);
      w.position += n;
      offset += n;
    }
  } else {
    // Pass 2: one final block with dynamic codes (BFINAL 1, BTYPE 10).
    put_bits(&w, 1, 1);
    put_bits(&w, 2, 2);
    put_bits(&w, (uint32_t)(literal_count - 257), 5);
    put_bits(&w, (uint32_t)(distance_count - 1), 5);
    put_bits(&w, (uint32_t)(cl_order_count - 4), 4);
    for (int k = 0; k < cl_order_count; k++) put_bits(&w, cl_lengths[code_length_order[k]], 3);
    for (int k = 0; k < cl_count; k++) {
      put_bits(&w, cl_codes[cl_symbol[k]], cl_lengths[cl_symbol[k]]);
      if (cl_symbol[k] == 17) put_bits(&w, cl_extra[k], 3);
      if (cl_symbol[k] == 18) put_bits(&w, cl_extra[k], 7);
    }
    size_t i = 0;
    for (size_t m = 0; m <= matches.count; m++) {
      size_t until = m < matches.count ? matches.position[m] : s->size;
      for (; i < until; i++) put_bits(&w, literal_codes[s->data[i]], literal_lengths[s->data[i]]);
      if (m == matches.count) break;
      size_t length = matches.length[m] >> 1;
      int from_row = (int)(matches.length[m] & 1);
      int lc = length_codes[length];
      put_bits(&w, literal_codes[257 + lc], literal_lengths[257 + lc]);
      if (length_extra[lc]) put_bits(&w, (uint32_t)(length - length_base[lc]), length_extra[lc]);
      int dc = from_row ? row_code : pixel_code;
      size_t distance = from_row ? s->row : s->pixel;
      put_bits(&w, distance_codes[dc], distance_lengths[dc]);
      if (distance_extra[dc]) put_bits(&w, (uint32_t)(distance - distance_base[dc]), distance_extra[dc]);
      i += length;
    }
    put_bits(&w, literal_codes[256], literal_lengths[256]);
    flush_bits(&w);
  }
  free(matches.position);
  free(matches.length);
  // zlib's adler32 takes a uInt length: feed it in pieces.
  uLong adler = adler32(0L, Z_NULL, 0);
  for (size_t offset = 0; offset < s->size;) {
    size_t n = s->size - offset < (1u << 30) ? s->size - offset : (1u << 30);
    adler = adler32(adler, s->data + offset, (uInt)n);
    offset += n;
  }
  put_be32(out + w.position, (uint32_t)adler);
  w.position += 4;
  *size = w.position;  // at most the allocation: bits / 8 + 1 bounds the flushed bytes
  return out;
}

// MARK: - PNG

static size_t chunk_size(size_t data) { return 12 + data; }

/// Writes a chunk at `p` (length, type, data, CRC) and returns the byte after it.
static uint8_t *put_chunk(uint8_t *p, const char type[4], const uint8_t *data, size_t n,
                          const uint8_t *data2, size_t n2) {
  put_be32(p, (uint32_t)(n + n2));
  memcpy(p + 4, type, 4);
  if (n) memcpy(p + 8, data, n);
  if (n2) memcpy(p + 8 + n, data2, n2);
  uLong crc = crc32(0L, p + 4, (uInt)(4 + n + n2));
  put_be32(p + 8 + n + n2, (uint32_t)crc);
  return p + 12 + n + n2;
}

static int is_ascii_text(const char *s) {
  for (; *s; s++)
    if ((unsigned char)*s >= 0x80) return 0;
  return 1;
}

static int valid_text_key(const char *key) {
  size_t n = strlen(key);
  if (n < 1 || n > 79) return 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)key[i];
    if (c < 0x20 || c > 0x7E) return 0;
  }
  return 1;
}

static void copy_message(char *message, size_t size, const char *text) {
  if (message == NULL || size == 0) return;
  size_t n = strlen(text);
  if (n >= size) n = size - 1;
  memcpy(message, text, n);
  message[n] = 0;
}

int inkling_png_encode_drawing(const uint8_t *rgba, uint32_t width, uint32_t height,
                               size_t stride, const char *const *text_keys,
                               const char *const *text_values, size_t text_count,
                               uint8_t **out_data, size_t *out_size, char *message,
                               size_t message_size) {
  if (out_data) *out_data = NULL;
  if (out_size) *out_size = 0;
  if (rgba == NULL || out_data == NULL || out_size == NULL || width == 0 || height == 0 ||
      width > INKLING_PNG_MAX_DIMENSION || height > INKLING_PNG_MAX_DIMENSION ||
      stride < (size_t)width * 4 || (uint64_t)width * height > INKLING_PNG_MAX_PIXELS) {
    copy_message(message, message_size, "image size or stride out of range");
    return INKLING_PNG_INVALID_ARGUMENT;
  }
  size_t text_bytes = 0;
  for (size_t i = 0; i < text_count; i++) {
    if (text_keys == NULL || text_values == NULL || text_keys[i] == NULL ||
        text_values[i] == NULL || !valid_text_key(text_keys[i])) {
      copy_message(message, message_size, "text key must be 1 to 79 printable ASCII characters");
      return INKLING_PNG_INVALID_ARGUMENT;
    }
    // tEXt: key NUL value; iTXt: key NUL, flag, method, empty language NUL, empty key NUL, value.
    size_t data = strlen(text_keys[i]) + 1 + strlen(text_values[i]);
    if (!is_ascii_text(text_values[i])) data += 4;
    if (data > 0x7FFFFFFF) {
      copy_message(message, message_size, "text value too long");
      return INKLING_PNG_INVALID_ARGUMENT;
    }
    text_bytes += chunk_size(data);
  }

  // Opaque when every alpha is 0xFF: the AND of all pixels, a row at a time (whole words, so
  // that the compiler can vectorize it), keeps 0xFF in the alpha byte only then.
  int opaque = 1;
  for (uint32_t y = 0; y < height && opaque; y++) {
    const uint8_t *row = rgba + (size_t)y * stride;
    uint32_t all = 0xFFFFFFFFu;
    for (uint32_t x = 0; x < width; x++) {
      uint32_t word;
      memcpy(&word, row + 4 * (size_t)x, 4);
      all &= word;
    }
    uint8_t bytes[4];
    memcpy(bytes, &all, 4);
    opaque = bytes[3] == 0xFF;
  }
  const size_t pixel = opaque ? 3 : 4;
  const size_t row_bytes = 1 + (size_t)width * pixel;
  // One spare byte: an RGB row is written four bytes per pixel, three apart (below).
  uint8_t *raw = malloc(row_bytes * height + 1);
  if (raw == NULL) {
    copy_message(message, message_size, "out of memory for the scanlines");
    return INKLING_PNG_OUT_OF_MEMORY;
  }
  for (uint32_t y = 0; y < height; y++) {
    const uint8_t *src = rgba + (size_t)y * stride;
    uint8_t *dst = raw + (size_t)y * row_bytes;
    *dst++ = 0;  // filter type None
    if (opaque) {
      // Each pixel's alpha byte lands where the next pixel (or the next row's filter byte,
      // written after it) goes, or in the spare byte.
      for (uint32_t x = 0; x < width; x++, src += 4, dst += 3) memcpy(dst, src, 4);
    } else {
      memcpy(dst, src, (size_t)width * 4);
    }
  }
  scanlines s = {raw, row_bytes * height, pixel, row_bytes <= 32768 ? row_bytes : 0};
  size_t zsize = 0;
  uint8_t *z = deflate_scanlines(&s, &zsize);
  free(raw);
  if (z == NULL) {
    copy_message(message, message_size, "out of memory compressing the scanlines");
    return INKLING_PNG_OUT_OF_MEMORY;
  }

  static const uint8_t signature[8] = {0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A};
  size_t total = 8 + chunk_size(13) + text_bytes + chunk_size(zsize) + chunk_size(0);
  uint8_t *png = zsize <= 0x7FFFFFFF ? malloc(total) : NULL;
  if (png == NULL) {
    free(z);
    copy_message(message, message_size, "out of memory for the PNG");
    return INKLING_PNG_OUT_OF_MEMORY;
  }
  uint8_t *p = png;
  memcpy(p, signature, 8);
  p += 8;
  uint8_t header[13];
  put_be32(header, width);
  put_be32(header + 4, height);
  header[8] = 8;                 // bit depth
  header[9] = opaque ? 2 : 6;    // colour type: RGB or RGBA
  header[10] = header[11] = header[12] = 0;  // deflate, adaptive filtering, no interlace
  p = put_chunk(p, "IHDR", header, 13, NULL, 0);
  for (size_t i = 0; i < text_count; i++) {
    const char *key = text_keys[i];
    const char *value = text_values[i];
    size_t key_length = strlen(key);
    uint8_t prefix[80 + 4];
    memcpy(prefix, key, key_length);
    prefix[key_length] = 0;
    if (is_ascii_text(value)) {
      p = put_chunk(p, "tEXt", prefix, key_length + 1, (const uint8_t *)value, strlen(value));
    } else {
      memset(prefix + key_length + 1, 0, 4);  // uncompressed, no language, no translated key
      p = put_chunk(p, "iTXt", prefix, key_length + 5, (const uint8_t *)value, strlen(value));
    }
  }
  p = put_chunk(p, "IDAT", z, zsize, NULL, 0);
  p = put_chunk(p, "IEND", NULL, 0, NULL, 0);
  free(z);
  *out_data = png;
  *out_size = (size_t)(p - png);
  return INKLING_PNG_OK;
}
