// The video writers of `timelapse`: an H.264 MP4 over libavcodec (libx264) and libavformat
// (RGBA frames in, yuv420p out, the moov atom moved to the front with `+faststart` so that a
// browser plays the file before it has all of it), and an animated WebP over libwebp's
// WebPAnimEncoder. In C because FFmpeg's error codes and libwebp's initialisers are macros
// and inline functions bound to the headers' ABI versions.

#ifndef INKLING_VIDEO_BRIDGE_H
#define INKLING_VIDEO_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

typedef struct inkling_mp4 inkling_mp4;

/// Opens `path` for writing an MP4 of `width` × `height` (both even) at `fps` frames a second.
/// NULL on failure, with the reason in `error` (`error_size` bytes).
inkling_mp4 *inkling_mp4_open(const char *path, int width, int height, int fps, char *error, size_t error_size);

/// Encodes one frame of `width` × `height` RGBA pixels (rows top to bottom, no padding).
/// 0 on success, else -1 with the reason in `error`.
int inkling_mp4_add_rgba(inkling_mp4 *video, const uint8_t *rgba, char *error, size_t error_size);

/// Flushes the encoder, writes the index and closes the file. 0 on success, else -1.
int inkling_mp4_finish(inkling_mp4 *video, char *error, size_t error_size);

/// Frees everything (after `finish`, or instead of it to give up).
void inkling_mp4_free(inkling_mp4 *video);

typedef struct inkling_webp inkling_webp;

/// Starts an animated WebP of `width` × `height` at `fps`, looping forever; NULL on failure.
inkling_webp *inkling_webp_open(int width, int height, int fps, char *error, size_t error_size);

/// Adds one frame of RGBA pixels. 0 on success, else -1 with the reason in `error`.
int inkling_webp_add_rgba(inkling_webp *animation, const uint8_t *rgba, char *error, size_t error_size);

/// Ends the animation and returns its bytes (`*size` of them, freed with `inkling_webp_free_bytes`);
/// NULL on failure.
uint8_t *inkling_webp_finish(inkling_webp *animation, size_t *size, char *error, size_t error_size);

void inkling_webp_free_bytes(uint8_t *bytes);
void inkling_webp_free(inkling_webp *animation);

/// The versions of the libraries linked in, for `--version --verbose`: FFmpeg's release
/// ("5.1.6-0+deb12u1"), libavcodec's and libavformat's AV_VERSION_INT, and libwebp's encoder
/// as 0xMMmmpp.
const char *inkling_ffmpeg_version(void);
unsigned inkling_avcodec_version(void);
unsigned inkling_avformat_version(void);
int inkling_webp_version(void);

#endif
