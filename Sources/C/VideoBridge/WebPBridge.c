// See VideoBridge.h. Frames are lossy WebP at quality 80 (lossless frames of a 1080 px canvas
// cost seconds each); the encoder stores each frame as the rectangle that changed, which for
// a time-lapse is the stroke being drawn. Frame k starts at round(k · 1000 / fps) ms, so the
// animation lasts frames / fps seconds to the millisecond.

#include "VideoBridge.h"

#include <stdio.h>
#include <stdlib.h>
#include <webp/encode.h>
#include <webp/mux.h>

struct inkling_webp {
  WebPAnimEncoder *encoder;
  WebPConfig config;
  int width, height, fps;
  long frames;
};

static long timestamp(const inkling_webp *animation, long frame) {
  return (frame * 1000 + animation->fps / 2) / animation->fps;
}

inkling_webp *inkling_webp_open(int width, int height, int fps, char *error, size_t error_size) {
  inkling_webp *animation = calloc(1, sizeof *animation);
  if (!animation) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  WebPAnimEncoderOptions options;
  if (!WebPAnimEncoderOptionsInit(&options) || !WebPConfigInit(&animation->config)) {
    snprintf(error, error_size, "libwebp's version does not match its headers");
    free(animation);
    return NULL;
  }
  options.anim_params.loop_count = 0;
  animation->config.quality = 80;
  animation->config.method = 2;
  animation->width = width;
  animation->height = height;
  animation->fps = fps;
  animation->encoder = WebPAnimEncoderNew(width, height, &options);
  if (!animation->encoder) {
    snprintf(error, error_size, "cannot start an animation of %d x %d pixels", width, height);
    free(animation);
    return NULL;
  }
  return animation;
}

int inkling_webp_add_rgba(inkling_webp *animation, const uint8_t *rgba, char *error, size_t error_size) {
  WebPPicture picture;
  if (!WebPPictureInit(&picture)) {
    snprintf(error, error_size, "libwebp's version does not match its headers");
    return -1;
  }
  picture.width = animation->width;
  picture.height = animation->height;
  picture.use_argb = 1;
  if (!WebPPictureImportRGBA(&picture, rgba, animation->width * 4)) {
    snprintf(error, error_size, "out of memory");
    return -1;
  }
  int added = WebPAnimEncoderAdd(
    animation->encoder, &picture, (int)timestamp(animation, animation->frames), &animation->config);
  WebPPictureFree(&picture);
  if (!added) {
    snprintf(error, error_size, "%s", WebPAnimEncoderGetError(animation->encoder));
    return -1;
  }
  animation->frames += 1;
  return 0;
}

uint8_t *inkling_webp_finish(inkling_webp *animation, size_t *size, char *error, size_t error_size) {
  WebPData data;
  WebPDataInit(&data);
  if (!WebPAnimEncoderAdd(animation->encoder, NULL, (int)timestamp(animation, animation->frames), NULL)
      || !WebPAnimEncoderAssemble(animation->encoder, &data)) {
    snprintf(error, error_size, "%s", WebPAnimEncoderGetError(animation->encoder));
    return NULL;
  }
  *size = data.size;
  return (uint8_t *)data.bytes;
}

void inkling_webp_free_bytes(uint8_t *bytes) { WebPFree(bytes); }

void inkling_webp_free(inkling_webp *animation) {
  if (!animation) return;
  WebPAnimEncoderDelete(animation->encoder);
  free(animation);
}

int inkling_webp_version(void) { return WebPGetEncoderVersion(); }
