// See VideoBridge.h. One encoder, one stream, frames numbered 0, 1, 2, … in a time base of
// 1/fps, so the video lasts exactly frames / fps seconds.

#include "VideoBridge.h"

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct inkling_mp4 {
  AVFormatContext *format;
  AVCodecContext *codec;
  AVStream *stream;
  struct SwsContext *scaler;
  AVFrame *frame;
  AVPacket *packet;
  int64_t next_pts;
  int header_written;
};

static void describe(char *error, size_t size, const char *what, int code) {
  char reason[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(code, reason, sizeof reason);
  snprintf(error, size, "%s: %s", what, reason);
}

/// Writes every packet the encoder has ready. 0, or a negative AVERROR.
static int drain(inkling_mp4 *video) {
  for (;;) {
    int status = avcodec_receive_packet(video->codec, video->packet);
    if (status == AVERROR(EAGAIN) || status == AVERROR_EOF) return 0;
    if (status < 0) return status;
    av_packet_rescale_ts(video->packet, video->codec->time_base, video->stream->time_base);
    video->packet->stream_index = video->stream->index;
    status = av_interleaved_write_frame(video->format, video->packet);
    if (status < 0) return status;
  }
}

inkling_mp4 *inkling_mp4_open(const char *path, int width, int height, int fps, char *error, size_t error_size) {
  // Every failure comes back as a status and becomes the error; FFmpeg's own log would
  // only repeat it (and print encoder statistics) on standard error.
  av_log_set_level(AV_LOG_QUIET);
  inkling_mp4 *video = calloc(1, sizeof *video);
  if (!video) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  int status = avformat_alloc_output_context2(&video->format, NULL, "mp4", path);
  if (status < 0 || !video->format) {
    describe(error, error_size, "the MP4 muxer is not available", status);
    goto fail;
  }
  const AVCodec *encoder = avcodec_find_encoder_by_name("libx264");
  if (!encoder) {
    snprintf(error, error_size, "libavcodec was built without the libx264 encoder");
    goto fail;
  }
  video->stream = avformat_new_stream(video->format, NULL);
  video->codec = avcodec_alloc_context3(encoder);
  video->frame = av_frame_alloc();
  video->packet = av_packet_alloc();
  if (!video->stream || !video->codec || !video->frame || !video->packet) {
    snprintf(error, error_size, "out of memory");
    goto fail;
  }
  video->codec->width = width;
  video->codec->height = height;
  video->codec->pix_fmt = AV_PIX_FMT_YUV420P;
  video->codec->time_base = (AVRational){1, fps};
  video->codec->framerate = (AVRational){fps, 1};
  // A keyframe every two seconds: a scrubber can seek, and the file stays small.
  video->codec->gop_size = 2 * fps;
  video->codec->color_range = AVCOL_RANGE_MPEG;
  video->codec->colorspace = AVCOL_SPC_BT709;
  video->codec->color_primaries = AVCOL_PRI_BT709;
  video->codec->color_trc = AVCOL_TRC_BT709;
  if (video->format->oformat->flags & AVFMT_GLOBALHEADER) video->codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  // veryfast: the preset the comparison pipeline uses (BENCHMARKS.md); the crf default (23)
  // keeps flat backgrounds and thin lines clean.
  av_opt_set(video->codec->priv_data, "preset", "veryfast", 0);
  // x264 keeps pictures for each frame thread, B-frame and look-ahead slot, each several times
  // the size of the frame (half-pel planes, low-resolution copies), and starts a thread and a
  // half per core. Above 1080p that, not the drawing, bounds the process's memory: there two
  // threads, no B-frames and no look-ahead keep it bounded, for a somewhat larger file. Below,
  // at most four threads, whatever the machine.
  if ((long)width * height > 1920L * 1088L) {
    video->codec->thread_count = 2;
    av_opt_set(video->codec->priv_data, "x264-params", "bframes=0:rc-lookahead=0:sync-lookahead=0", 0);
  } else {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    video->codec->thread_count = cores < 2 ? 1 : cores * 3 / 2 > 4 ? 4 : (int)(cores * 3 / 2);
  }
  status = avcodec_open2(video->codec, encoder, NULL);
  if (status < 0) {
    describe(error, error_size, "the H.264 encoder refused the settings", status);
    goto fail;
  }
  status = avcodec_parameters_from_context(video->stream->codecpar, video->codec);
  if (status < 0) {
    describe(error, error_size, "cannot set up the stream", status);
    goto fail;
  }
  video->stream->time_base = video->codec->time_base;
  video->stream->avg_frame_rate = video->codec->framerate;
  video->frame->format = AV_PIX_FMT_YUV420P;
  video->frame->width = width;
  video->frame->height = height;
  status = av_frame_get_buffer(video->frame, 0);
  if (status < 0) {
    describe(error, error_size, "cannot allocate a frame", status);
    goto fail;
  }
  video->scaler = sws_getContext(
    width, height, AV_PIX_FMT_RGBA, width, height, AV_PIX_FMT_YUV420P, SWS_BILINEAR, NULL, NULL, NULL);
  if (!video->scaler) {
    snprintf(error, error_size, "cannot convert RGBA to yuv420p");
    goto fail;
  }
  // The encoder writes BT.709; tell the converter the same, in limited range.
  const int *coefficients = sws_getCoefficients(SWS_CS_ITU709);
  sws_setColorspaceDetails(video->scaler, coefficients, 1, coefficients, 0, 0, 1 << 16, 1 << 16);
  status = avio_open(&video->format->pb, path, AVIO_FLAG_WRITE);
  if (status < 0) {
    describe(error, error_size, "cannot open the file", status);
    goto fail;
  }
  AVDictionary *options = NULL;
  av_dict_set(&options, "movflags", "+faststart", 0);
  status = avformat_write_header(video->format, &options);
  av_dict_free(&options);
  if (status < 0) {
    describe(error, error_size, "cannot write the MP4 header", status);
    goto fail;
  }
  video->header_written = 1;
  return video;
fail:
  inkling_mp4_free(video);
  return NULL;
}

int inkling_mp4_add_rgba(inkling_mp4 *video, const uint8_t *rgba, char *error, size_t error_size) {
  int status = av_frame_make_writable(video->frame);
  if (status < 0) {
    describe(error, error_size, "cannot reuse the frame", status);
    return -1;
  }
  const uint8_t *planes[1] = {rgba};
  const int strides[1] = {video->codec->width * 4};
  sws_scale(video->scaler, planes, strides, 0, video->codec->height, video->frame->data, video->frame->linesize);
  video->frame->pts = video->next_pts++;
  status = avcodec_send_frame(video->codec, video->frame);
  if (status >= 0) status = drain(video);
  if (status < 0) {
    describe(error, error_size, "cannot encode a frame", status);
    return -1;
  }
  return 0;
}

int inkling_mp4_finish(inkling_mp4 *video, char *error, size_t error_size) {
  int status = avcodec_send_frame(video->codec, NULL);
  if (status >= 0) status = drain(video);
  if (status >= 0) status = av_write_trailer(video->format);
  if (status >= 0) status = avio_closep(&video->format->pb);
  if (status < 0) {
    describe(error, error_size, "cannot finish the MP4", status);
    return -1;
  }
  return 0;
}

void inkling_mp4_free(inkling_mp4 *video) {
  if (!video) return;
  if (video->format && video->format->pb) avio_closep(&video->format->pb);
  sws_freeContext(video->scaler);
  av_packet_free(&video->packet);
  av_frame_free(&video->frame);
  avcodec_free_context(&video->codec);
  avformat_free_context(video->format);
  free(video);
}

const char *inkling_ffmpeg_version(void) { return av_version_info(); }
unsigned inkling_avcodec_version(void) { return avcodec_version(); }
unsigned inkling_avformat_version(void) { return avformat_version(); }
