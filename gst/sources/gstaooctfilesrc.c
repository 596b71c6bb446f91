/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctfilesrc
 * @title: aooctfilesrc
 * @short_description: raw B-scans from a file, read by several threads
 *
 * Reads a raw file of B-scans in the layout of the spec (section 0: 8- or
 * 16-bit little-endian samples, the samples of an A-line contiguous, then
 * the A-lines of a B-scan, then the B-scans, no row padding) and pushes
 * them as `video/x-raw, format=GRAY16_LE (or GRAY8), width=samples,
 * height=A-lines x bscans-per-buffer`, the caps aooctdcsub takes.  Packed
 * 12- and 10-bit samples (`format=mono12p`, `mono12packed`, `mono10p`:
 * width x 1.5 or x 1.25 bytes per A-line, width a multiple of 2 or 4) go
 * out as they are in the file, in `video/x-aooct-packed` caps, and float32
 * samples (`format=float32-le`) in `video/x-aooct-float` caps
 * (docs/caps.md); aooctdcsub converts them.
 *
 * Files as instruments write them: `header-bytes` skips a file header
 * once, `frame-stride` (bytes from one B-scan's start to the next) skips a
 * header or trailer of every B-scan, and bytes at the end that make no
 * whole B-scan (a trailer) are left out with a warning that names them.
 * A NumPy `.npy` file (uint16, uint8 or float32, little-endian, C order;
 * recognised by its magic bytes) needs no geometry: its last axis is the
 * samples (width), the one before the A-lines (height), any before that
 * the B-scans; its dtype gives the format.
 *
 * It does what `filesrc ! rawvideoparse` does for such a file, in
 * one step and faster:
 *
 * - with aooctdcsub on CUDA downstream, a file in the page cache is
 *   page-locked whole at start (`map-file`, `map-file-max`) and the GPU
 *   uploads every B-scan from the page cache itself, with no host copy;
 * - otherwise it reads with several threads at once (`threads`; one
 *   thread's read() from the page cache runs at a few GB/s, the CUDA chain
 *   takes tens of GB/s of raw samples), straight into the buffers of the
 *   pool downstream proposes: aooctdcsub on CUDA proposes page-locked
 *   memory, which it then uploads without another host copy;
 * - it reads the next buffer while the current one travels downstream;
 * - `bscans-per-buffer` puts several B-scans into one buffer (the caps
 *   say how many, field `bscans`: aooctdcsub takes its alines-per-bscan
 *   from them), which divides the per-buffer cost of every element
 *   (docs/performance.md, "What batching costs").
 *
 * The file must hold at least one B-scan of `width` x `height` samples
 * after `header-bytes` (an element error says so otherwise); a last buffer
 * that `bscans-per-buffer` does not fill is left out with a warning.  Timestamps follow `framerate`
 * (B-scans per second); the element answers duration queries and seeks in
 * time (to the buffer holding the position).  Works the same without a
 * GPU: downstream then proposes an ordinary pool.  Rows are padded to 4
 * bytes in the buffers, as GstVideoInfo lays them out (odd widths), with
 * zero bytes.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctfilesrc location=volume.raw format=gray16-le \
 *     width=832 height=240 ! aooctdcsub ! aooctpad size=2048 factor=2 ! \
 *     aooctkmap wavelength-file=calibration.txt ! aooctdisp a2=8 a3=-2 ! \
 *     aooctfft ! aooctnorm ! pngenc ! multifilesink location=b%05d.png
 * ]| reconstructs every B-scan of volume.raw into a PNG.
 * |[
 * gst-launch-1.0 aooctfilesrc location=pdms_LP01.raw header-bytes=552 \
 *     width=1024 height=1024 frame-stride=2148352 ! aooctdcsub ! \
 *     aooctfft ! aooctnorm ! pngenc ! filesink location=pdms.png
 * ]| the 1024 A-lines of a file with a 552-byte header, 25 more A-lines
 * and an 8192-byte trailer (the trailer gets a warning).
 * |[
 * gst-launch-1.0 aooctfilesrc location=spectra.npy ! aooctdcsub ! \
 *     aooctfft ! aooctnorm ! pngenc ! multifilesink location=b%05d.png
 * ]| an array of shape (B-scans, A-lines, samples), uint16 or float32.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <unistd.h>
#include <gst/video/video.h>

#include "aooct-src-util.h"
#include "aooct-raw-caps.h"

#include "gstaooctfilesrc.h"
#include "aooct-file-reader.h"
#include "aooct-file-prefetch.h"
#include "aooct-late-property.h"
#include "aooct-npy.h"
#ifdef HAVE_CUDA
#include "aooct-cuda-pool.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_aooct_file_src_debug);
#define GST_CAT_DEFAULT gst_aooct_file_src_debug

/* gst/backend/aooct-cuda-pool.h (a CUDA build only): the option of the
 * page-locked pool aooctdcsub proposes */
#define PAGE_LOCKED_OPTION "AooctBufferPoolOptionPageLocked"

#define DEFAULT_FORMAT AOOCT_RAW_GRAY16_LE
#define DEFAULT_FPS_N 100
#define DEFAULT_FPS_D 1
#define DEFAULT_BSCANS 1
#define DEFAULT_THREADS 0
#define DEFAULT_MAP_FILE TRUE
#define DEFAULT_MAP_FILE_MAX (-1)
#define DEFAULT_HEADER_BYTES 0
#define DEFAULT_FRAME_STRIDE 0

struct _GstAooctFileSrc
{
  GstPushSrc parent;

  /* properties, under the object lock */
  gchar *location;
  AooctRawFormat format;
  gint width, height;
  gint fps_n, fps_d;
  guint bscans;
  guint threads;
  gboolean map_file;
  gint64 map_file_max;          /* MiB, -1: a quarter of the memory */
  guint64 header_bytes;
  guint64 frame_stride;         /* 0: the B-scan's size */

  /* what the file holds, from start() to stop() (a .npy file's header
   * decides it, else the properties), under the object lock; width 0
   * when not started */
  AooctRawFormat file_format;
  gint file_width, file_height;

  /* streaming (streaming thread, or with the stream stopped) */
  AooctFileReader *reader;
  AooctFileLayout layout;       /* where the B-scans are in the file */
  GstVideoInfo vinfo;           /* what a buffer holds */
  gsize row_bytes;              /* one A-line in the file */
  gsize read_bytes;             /* one buffer's worth of the file */
  guint64 n_buffers;            /* whole buffers in the file */
  guint open_bscans;            /* bscans-per-buffer when it was opened */
  guint64 next;                 /* index of the buffer create() returns */
  gchar *path;                  /* location at start */
  /* the buffers fetched ahead (made at the first create(), once the pool
   * is known); the pointer and unlocked under the object lock: unlock()
   * may come before create() makes it, and must still stop it */
  AooctFilePrefetch *prefetch;
  gboolean unlocked;
  /* the page-locked pool's allocator, when downstream (aooctdcsub on CUDA)
   * proposed one and map-file lets the GPU read the file in place */
  GstAllocator *host_allocator;
};

enum
{
  PROP_0,
  PROP_LOCATION,
  PROP_FORMAT,
  PROP_WIDTH,
  PROP_HEIGHT,
  PROP_FRAMERATE,
  PROP_BSCANS_PER_BUFFER,
  PROP_THREADS,
  PROP_MAP_FILE,
  PROP_MAP_FILE_MAX,
  PROP_HEADER_BYTES,
  PROP_FRAME_STRIDE,
};

#define gst_aooct_file_src_parent_class parent_class
G_DEFINE_TYPE (GstAooctFileSrc, gst_aooct_file_src, GST_TYPE_PUSH_SRC);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctfilesrc, "aooctfilesrc",
    GST_RANK_NONE, GST_TYPE_AOOCT_FILE_SRC,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_file_src_debug, "aooctfilesrc", 0,
        "aooct raw B-scan file source"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-raw, format = (string) { GRAY16_LE, GRAY8 }, "
        "width = (int) [ 1, 65536 ], height = (int) [ 1, MAX ], "
        "framerate = (fraction) [ 0/1, MAX ]; " AOOCT_OWN_RAW_CAPS_TEMPLATE));

/* ---- properties --------------------------------------------------------- */

static void
gst_aooct_file_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_free (self->location);
      self->location = g_value_dup_string (value);
      break;
    case PROP_FORMAT:
      self->format = aooct_raw_format_from_enum (g_value_get_enum (value));
      break;
    case PROP_WIDTH:
      self->width = g_value_get_int (value);
      break;
    case PROP_HEIGHT:
      self->height = g_value_get_int (value);
      break;
    case PROP_FRAMERATE:
      self->fps_n = gst_value_get_fraction_numerator (value);
      self->fps_d = gst_value_get_fraction_denominator (value);
      break;
    case PROP_BSCANS_PER_BUFFER:
      self->bscans = g_value_get_uint (value);
      break;
    case PROP_THREADS:
      self->threads = g_value_get_uint (value);
      break;
    case PROP_MAP_FILE:
      self->map_file = g_value_get_boolean (value);
      break;
    case PROP_MAP_FILE_MAX:
      self->map_file_max = g_value_get_int64 (value);
      break;
    case PROP_HEADER_BYTES:
      self->header_bytes = g_value_get_uint64 (value);
      break;
    case PROP_FRAME_STRIDE:
      self->frame_stride = g_value_get_uint64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_file_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_LOCATION:
      g_value_set_string (value, self->location);
      break;
    case PROP_FORMAT:
      g_value_set_enum (value, aooct_raw_format_to_enum (self->format));
      break;
    case PROP_WIDTH:
      g_value_set_int (value, self->width);
      break;
    case PROP_HEIGHT:
      g_value_set_int (value, self->height);
      break;
    case PROP_FRAMERATE:
      gst_value_set_fraction (value, self->fps_n, self->fps_d);
      break;
    case PROP_BSCANS_PER_BUFFER:
      g_value_set_uint (value, self->bscans);
      break;
    case PROP_THREADS:
      g_value_set_uint (value, self->threads);
      break;
    case PROP_MAP_FILE:
      g_value_set_boolean (value, self->map_file);
      break;
    case PROP_MAP_FILE_MAX:
      g_value_set_int64 (value, self->map_file_max);
      break;
    case PROP_HEADER_BYTES:
      g_value_set_uint64 (value, self->header_bytes);
      break;
    case PROP_FRAME_STRIDE:
      g_value_set_uint64 (value, self->frame_stride);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

/* ---- negotiation -------------------------------------------------------- */

/* A frame of the properties that GStreamer's video frames can carry (see
 * aooct_src_check_frame; packed rows are checked as their bytes) */
static gboolean
check_frame (AooctRawFormat format, gint width, gint height, guint bscans,
    GError ** error)
{
  gint layout_width;
  GstVideoFormat vf = aooct_raw_format_video_layout (format, width,
      &layout_width);

  return aooct_src_check_frame (vf, layout_width, height, bscans, "height",
      "bscans-per-buffer", error);
}

static GstCaps *
gst_aooct_file_src_get_caps (GstBaseSrc * src, GstCaps * filter)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (src);
  GstCaps *caps;
  gint fps_n, fps_d, width, height;
  AooctRawFormat format;

  GST_OBJECT_LOCK (self);
  /* started: what the file holds (a .npy file's own geometry) */
  width = self->file_width > 0 ? self->file_width : self->width;
  height = self->file_width > 0 ? self->file_height : self->height;
  format = self->file_width > 0 ? self->file_format : self->format;
  if (width <= 0 || height <= 0 || self->bscans == 0
      || !check_frame (format, width, height, self->bscans, NULL)) {
    /* start() reports what is missing or overflows */
    GST_OBJECT_UNLOCK (self);
    caps = gst_pad_get_pad_template_caps (GST_BASE_SRC_PAD (src));
  } else {
    /* a buffer of K B-scans lasts K frame periods */
    gst_util_fraction_multiply (self->fps_n, self->fps_d, 1, self->bscans,
        &fps_n, &fps_d);
    caps = aooct_raw_caps_new (format, width, height * (gint) self->bscans,
        (gint) self->bscans, fps_n, fps_d);
    GST_OBJECT_UNLOCK (self);
  }
  return aooct_src_filter_caps (caps, filter);
}

static gboolean
gst_aooct_file_src_set_caps (GstBaseSrc * src, GstCaps * caps)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (src);
  AooctRawFormat format;

  /* packed rows: the file's bytes as they are (aooct-raw-caps.h) */
  if (!aooct_raw_caps_video_info (caps, &self->vinfo, &format))
    return FALSE;
  gst_base_src_set_blocksize (src, GST_VIDEO_INFO_SIZE (&self->vinfo));
  return TRUE;
}

/* Takes the page-locked pool aooctdcsub proposes where there is one (the
 * upload then reads our buffers in place), else the first proposed, else a
 * video pool; in any case buffers of the frame size. */
static gboolean
gst_aooct_file_src_decide_allocation (GstBaseSrc * src, GstQuery * query)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (src);
  GstBufferPool *pool = NULL;
  guint size = 0, min = 0, max = 0, i, n, chosen = 0;
  GstCaps *caps = NULL;
  GstStructure *config;

  gst_query_parse_allocation (query, &caps, NULL);
  n = gst_query_get_n_allocation_pools (query);
  for (i = 0; i < n; i++) {
    GstBufferPool *p = NULL;

    gst_query_parse_nth_allocation_pool (query, i, &p, NULL, NULL, NULL);
    if (p && gst_buffer_pool_has_option (p, PAGE_LOCKED_OPTION)) {
      chosen = i;
      gst_object_unref (p);
      break;
    }
    if (p)
      gst_object_unref (p);
  }
  if (n > 0)
    gst_query_parse_nth_allocation_pool (query, chosen, &pool, &size, &min,
        &max);
  /* (a video pool cannot take packed or float caps) */
  if (pool == NULL)
    pool = !aooct_raw_format_is_video (self->file_format) ?
        gst_buffer_pool_new () : gst_video_buffer_pool_new ();
  size = MAX (size, GST_VIDEO_INFO_SIZE (&self->vinfo));
  /* one buffer read ahead, one or two downstream */
  min = MAX (min, 3);
  if (max != 0)
    max = MAX (max, min);
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (!gst_buffer_pool_set_config (pool, config)) {
    config = gst_buffer_pool_get_config (pool);
    if (!gst_buffer_pool_config_validate_params (config, caps, size, min, max)
        || !gst_buffer_pool_set_config (pool, config)) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("cannot configure a buffer pool for %u-byte frames", size), (NULL));
      gst_object_unref (pool);
      return FALSE;
    }
  }
#ifdef HAVE_CUDA
  gst_clear_object (&self->host_allocator);
  GST_OBJECT_LOCK (self);
  if (self->map_file && gst_buffer_pool_has_option (pool, PAGE_LOCKED_OPTION)
      && (gsize) GST_VIDEO_INFO_SIZE (&self->vinfo) == self->read_bytes)
    /* rows packed in the buffers as in the file: the GPU can read the
     * file's pages themselves */
    self->host_allocator = aooct_cuda_buffer_pool_get_host_allocator (pool);
  GST_OBJECT_UNLOCK (self);
#endif
  GST_DEBUG_OBJECT (self, "pool %" GST_PTR_FORMAT " (%s), %u buffers of %u "
      "bytes", pool, gst_buffer_pool_has_option (pool, PAGE_LOCKED_OPTION) ?
      "page-locked" : "ordinary memory", min, size);
  if (n > 0) {
    /* basesrc takes the first one */
    gst_query_set_nth_allocation_pool (query, chosen, pool, size, min, max);
    if (chosen != 0) {
      GstBufferPool *first = NULL;
      guint s0, mn0, mx0;

      gst_query_parse_nth_allocation_pool (query, 0, &first, &s0, &mn0, &mx0);
      gst_query_set_nth_allocation_pool (query, 0, pool, size, min, max);
      gst_query_set_nth_allocation_pool (query, chosen, first, s0, mn0, mx0);
      if (first)
        gst_object_unref (first);
    }
  } else {
    gst_query_add_allocation_pool (query, pool, size, min, max);
  }
  gst_object_unref (pool);
  return GST_BASE_SRC_CLASS (parent_class)->decide_allocation (src, query);
}

/* ---- time and seeking --------------------------------------------------- */

/* the time of B-scan @n of the file */
static GstClockTime
frame_time (GstAooctFileSrc * self, guint64 n)
{
  return aooct_src_frame_time (self->fps_n, self->fps_d, n);
}

static gboolean
gst_aooct_file_src_is_seekable (GstBaseSrc * src)
{
  return TRUE;
}

static gboolean
gst_aooct_file_src_do_seek (GstBaseSrc * src, GstSegment * segment)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (src);
  guint64 frame;

  if (segment->rate < 0) {
    GST_WARNING_OBJECT (self, "reverse playback is not supported");
    return FALSE;
  }
  if (self->fps_n == 0) {
    frame = 0;
  } else {
    frame = gst_util_uint64_scale (segment->start, self->fps_n,
        (guint64) self->fps_d * GST_SECOND);
    /* the B-scan whose period holds the position, not the next one */
    while (frame > 0 && frame_time (self, frame) > segment->start)
      frame--;
  }
  self->next = frame / MAX (self->bscans, 1);
  if (self->prefetch)
    aooct_file_prefetch_seek (self->prefetch, self->next);
  segment->position = frame_time (self, self->next * self->bscans);
  segment->time = segment->start;
  GST_DEBUG_OBJECT (self, "seek to %" GST_TIME_FORMAT ": buffer %"
      G_GUINT64_FORMAT, GST_TIME_ARGS (segment->start), self->next);
  return TRUE;
}

static gboolean
gst_aooct_file_src_query (GstBaseSrc * src, GstQuery * query)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (src);

  if (GST_QUERY_TYPE (query) == GST_QUERY_DURATION && self->reader) {
    GstFormat format;

    gst_query_parse_duration (query, &format, NULL);
    if (format == GST_FORMAT_TIME && self->fps_n > 0) {
      gst_query_set_duration (query, GST_FORMAT_TIME,
          frame_time (self, self->n_buffers * self->bscans));
      return TRUE;
    }
  }
  return GST_BASE_SRC_CLASS (parent_class)->query (src, query);
}

/* ---- streaming ---------------------------------------------------------- */

/* Opens the file and checks it against the properties (an element error
 * and FALSE where it does not fit); at READY_TO_PAUSED
 * (aooct_src_change_state), or from start() after a stop. */
static gboolean
open_file (GstBaseSrc * src)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (src);
  GError *err = NULL;
  gchar *location;
  AooctRawFormat format;
  gint width, height;
  guint bscans, threads;
  guint64 size, header, stride, frame_bytes, payload, n_frames, left;
  guint64 npy_frames = 0;
  guint8 magic[AOOCT_NPY_MAGIC_LEN];
  gboolean npy;

  GST_OBJECT_LOCK (self);
  location = g_strdup (self->location);
  format = self->format;
  width = self->width;
  height = self->height;
  bscans = self->bscans;
  threads = self->threads;
  header = self->header_bytes;
  stride = self->frame_stride;
  GST_OBJECT_UNLOCK (self);

  if (location == NULL || *location == '\0') {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("no file to read: set location"), (NULL));
    goto failed;
  }
  self->reader = aooct_file_reader_open (location, threads, &err);
  if (self->reader == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, OPEN_READ, ("%s", err->message), (NULL));
    g_clear_error (&err);
    goto failed;
  }
  size = aooct_file_reader_size (self->reader);

  /* a NumPy array says its own geometry (aooct-npy.h); a file named .npy
   * that is not one is an error too, not raw samples */
  npy = pread (aooct_file_reader_fd (self->reader), magic, sizeof (magic), 0)
      == sizeof (magic) && aooct_npy_has_magic (magic, sizeof (magic));
  if (npy || g_str_has_suffix (location, ".npy")
      || g_str_has_suffix (location, ".NPY")) {
    AooctNpyHeader h;

    if (!aooct_npy_read_header (aooct_file_reader_fd (self->reader),
            location, &h, &err)) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", err->message),
          (NULL));
      g_clear_error (&err);
      goto failed;
    }
    if (header != 0 || stride != 0) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s is a NumPy .npy "
              "file, whose header says where its data start and how they "
              "are laid out: leave header-bytes (%" G_GUINT64_FORMAT ") and "
              "frame-stride (%" G_GUINT64_FORMAT ") at 0", location, header,
              stride), (NULL));
      goto failed;
    }
    if ((width > 0 && width != h.width) || (height > 0 && height != h.height)) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s: its array holds "
              "A-lines of %" G_GINT64_FORMAT " samples, %" G_GINT64_FORMAT
              " per B-scan (shape [..., %" G_GINT64_FORMAT ", %"
              G_GINT64_FORMAT "]), but width=%d and height=%d are set: "
              "leave them at 0 for a .npy file", location, h.width,
              h.height, h.height, h.width, width, height), (NULL));
      goto failed;
    }
    format = h.format;
    width = (gint) h.width;
    height = (gint) h.height;
    header = h.data_offset;
    npy_frames = h.bscans;
    if (size < h.data_offset + h.data_bytes) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s: truncated: its "
              ".npy header describes %" G_GUINT64_FORMAT " B-scan(s) of %d x "
              "%d %s samples (%" G_GUINT64_FORMAT " bytes of data after a "
              "%" G_GUINT64_FORMAT "-byte header), the file has %"
              G_GUINT64_FORMAT " bytes", location, h.bscans, height, width,
              aooct_raw_format_name (format), h.data_bytes, h.data_offset,
              size), (NULL));
      goto failed;
    }
    GST_INFO_OBJECT (self, "%s: .npy, %s, %" G_GUINT64_FORMAT " B-scans of "
        "%d x %d, data at byte %" G_GUINT64_FORMAT, location,
        aooct_raw_format_name (format), h.bscans, height, width, header);
  } else if (width <= 0 || height <= 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("%s: the geometry is not set: width (samples per A-line) is %d and "
            "height (A-lines per B-scan) is %d, both must be positive "
            "(only a .npy file says its own)", location, width, height),
        (NULL));
    goto failed;
  }
  if (!aooct_raw_format_is_video (format)
      && !aooct_raw_check_width (format, width, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s: format=%s: %s",
            location, aooct_raw_format_name (format), err->message), (NULL));
    g_clear_error (&err);
    goto failed;
  }
  if (!check_frame (format, width, height, bscans, &err)) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", err->message), (NULL));
    g_clear_error (&err);
    goto failed;
  }

  /* where the B-scans are: after the header, frame-stride apart */
  self->row_bytes = aooct_raw_row_bytes (format, width);
  frame_bytes = (guint64) self->row_bytes * height;
  if (stride == 0)
    stride = frame_bytes;
  if (stride < frame_bytes) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s: frame-stride=%"
            G_GUINT64_FORMAT " is smaller than one B-scan of %d A-lines x %d "
            "samples in %s (%" G_GUINT64_FORMAT " bytes): it is the bytes "
            "from one B-scan's start to the next, the B-scan's own bytes "
            "included (0: the B-scan's size)", location, stride, height,
            width, aooct_raw_format_name (format), frame_bytes), (NULL));
    goto failed;
  }
  if (header >= size) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s: header-bytes=%"
            G_GUINT64_FORMAT " skips the whole file (%" G_GUINT64_FORMAT
            " bytes): nothing is left to read", location, header, size),
        (NULL));
    goto failed;
  }
  payload = size - header;
  n_frames = payload >= frame_bytes ? (payload - frame_bytes) / stride + 1 : 0;
  if (npy)
    n_frames = MIN (n_frames, npy_frames);
  if (n_frames == 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("%s: %" G_GUINT64_FORMAT " bytes after header-bytes=%"
            G_GUINT64_FORMAT " are less than one B-scan of %d A-lines x %d "
            "samples in %s (%" G_GUINT64_FORMAT " bytes, %" G_GSIZE_FORMAT
            " per A-line): check width, height, format and header-bytes",
            location, payload, header, height, width,
            aooct_raw_format_name (format), frame_bytes, self->row_bytes),
        (NULL));
    goto failed;
  }
  /* bytes past the last B-scan's stride (a trailer, or a wrong geometry):
   * less than a B-scan, else it would have been one; the gap after the
   * last B-scan itself is its own trailer and expected */
  left = payload > n_frames * stride ? payload - n_frames * stride : 0;
  if (left > 0)
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("%s: the last %"
            G_GUINT64_FORMAT " bytes (from byte %" G_GUINT64_FORMAT ") are "
            "less than a B-scan of %d A-lines x %d samples in %s (%"
            G_GUINT64_FORMAT " bytes) and are not read: a trailer, or a "
            "wrong width, height, format, header-bytes or frame-stride",
            location, left, size - left, height, width,
            aooct_raw_format_name (format), frame_bytes), (NULL));
  self->n_buffers = n_frames / bscans;
  if (self->n_buffers == 0) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
        ("%s holds %" G_GUINT64_FORMAT " B-scan(s), fewer than "
            "bscans-per-buffer=%u", location, n_frames, bscans), (NULL));
    goto failed;
  }
  if (n_frames % bscans != 0)
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("%s: the last %" G_GUINT64_FORMAT " of its %" G_GUINT64_FORMAT
            " B-scans do not fill a buffer of bscans-per-buffer=%u and are "
            "not read", location, n_frames % bscans, n_frames, bscans), (NULL));
  self->read_bytes = (gsize) (frame_bytes * bscans);
  self->layout.offset = header;
  self->layout.frame_bytes = (gsize) frame_bytes;
  self->layout.frame_stride = stride;
  self->layout.frames = bscans;
  /* for the duration and percent queries basesrc answers (it sets the
   * duration itself only in bytes) */
  GST_OBJECT_LOCK (self);
  src->segment.duration = frame_time (self, self->n_buffers * bscans);
  self->file_format = format;
  self->file_width = width;
  self->file_height = height;
  GST_OBJECT_UNLOCK (self);
  self->open_bscans = bscans;
  if (!aooct_raw_format_is_video (format))
    aooct_raw_packed_video_info (&self->vinfo, format, width,
        height * bscans, 0, 1);
  else
    gst_video_info_set_format (&self->vinfo, format == AOOCT_RAW_GRAY8 ?
        GST_VIDEO_FORMAT_GRAY8 : GST_VIDEO_FORMAT_GRAY16_LE, width,
        height * bscans);
  self->next = 0;
  g_free (self->path);
  self->path = g_strdup (location);
  GST_INFO_OBJECT (self, "%s: %" G_GUINT64_FORMAT " B-scans from byte %"
      G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT " bytes apart, %"
      G_GUINT64_FORMAT " buffers", location, n_frames, header, stride,
      self->n_buffers);
  g_free (location);
  return TRUE;

failed:
  aooct_file_reader_close (self->reader);
  self->reader = NULL;
  g_free (location);
  return FALSE;
}

static gboolean
gst_aooct_file_src_start (GstBaseSrc * src)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (src);

  if (self->reader == NULL && !open_file (src))
    return FALSE;
  /* for the duration and percent queries basesrc answers (it sets the
   * duration itself only in bytes) */
  GST_OBJECT_LOCK (self);
  src->segment.duration = frame_time (self, self->n_buffers *
      self->open_bscans);
  GST_OBJECT_UNLOCK (self);
  self->next = 0;
  return TRUE;
}

static gboolean
gst_aooct_file_src_stop (GstBaseSrc * src)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (src);
  AooctFilePrefetch *prefetch;

  if (self->prefetch) {
    guint64 read, in_place;

    aooct_file_prefetch_counts (self->prefetch, &read, &in_place);
    GST_INFO_OBJECT (self, "%" G_GUINT64_FORMAT " buffers read by the "
        "threads, %" G_GUINT64_FORMAT " read by the GPU in place", read,
        in_place);
  }
  GST_OBJECT_LOCK (self);
  prefetch = self->prefetch;
  self->prefetch = NULL;
  GST_OBJECT_UNLOCK (self);
  aooct_file_prefetch_free (prefetch);
  aooct_file_reader_close (self->reader);
  self->reader = NULL;
  gst_clear_object (&self->host_allocator);
  GST_OBJECT_LOCK (self);
  self->file_width = self->file_height = 0;
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
gst_aooct_file_src_unlock (GstBaseSrc * src)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (src);

  GST_OBJECT_LOCK (self);
  self->unlocked = TRUE;
  if (self->prefetch)
    aooct_file_prefetch_set_flushing (self->prefetch, TRUE);
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

static gboolean
gst_aooct_file_src_unlock_stop (GstBaseSrc * src)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (src);

  GST_OBJECT_LOCK (self);
  self->unlocked = FALSE;
  if (self->prefetch)
    aooct_file_prefetch_set_flushing (self->prefetch, FALSE);
  GST_OBJECT_UNLOCK (self);
  return TRUE;
}

/* A buffer for the prefetch's reader to read into: from the pool basesrc
 * negotiated, without waiting (the reader asks again a little later, so
 * that it never blocks a state change in the pool). */
static GstFlowReturn
prefetch_alloc (gpointer user_data, GstBuffer ** buf)
{
  GstAooctFileSrc *self = user_data;
  GstBufferPool *pool = gst_base_src_get_buffer_pool (GST_BASE_SRC (self));
  GstBufferPoolAcquireParams params = { 0, };
  GstFlowReturn ret;

  if (pool == NULL) {
    *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&self->vinfo),
        NULL);
    return *buf ? GST_FLOW_OK : GST_FLOW_ERROR;
  }
  params.flags = GST_BUFFER_POOL_ACQUIRE_FLAG_DONTWAIT;
  ret = gst_buffer_pool_acquire_buffer (pool, buf, &params);
  gst_object_unref (pool);
  return ret;
}

/* map-file-max in bytes: -1 is a quarter of the physical memory */
static guint64
map_file_max_bytes (GstAooctFileSrc * self)
{
  gint64 mib;

  GST_OBJECT_LOCK (self);
  mib = self->map_file_max;
  GST_OBJECT_UNLOCK (self);
  if (mib < 0)
    return (guint64) sysconf (_SC_PHYS_PAGES) * sysconf (_SC_PAGESIZE) / 4;
  return (guint64) mib << 20;
}

static void
start_prefetch (GstAooctFileSrc * self)
{
  /* without the GPU reading in place: one buffer ahead of the one going
   * downstream, as a reader thread set needs no more */
  AooctFilePrefetch *prefetch = aooct_file_prefetch_new (self->reader,
      &self->layout, self->n_buffers, 2, prefetch_alloc, self);

  /* an unlock() that came before it (a state change while the first
   * create() starts) flushes it at once; else take() would wait for a
   * reader that gets no buffer from the deactivated pool, forever */
  GST_OBJECT_LOCK (self);
  self->prefetch = prefetch;
  aooct_file_prefetch_set_flushing (prefetch, self->unlocked);
  GST_OBJECT_UNLOCK (self);
  if (self->host_allocator) {
    GError *err = NULL;

    if (!aooct_file_prefetch_lock_file (self->prefetch, self->path,
            self->host_allocator, map_file_max_bytes (self), &err)) {
      GST_INFO_OBJECT (self, "not read in place, reader threads: %s",
          err->message);
      g_error_free (err);
    }
  }
  aooct_file_prefetch_seek (self->prefetch, self->next);
}

/* The file's rows are packed; the buffer's rows are the caps' stride apart
 * (padded to 4 bytes): spread them out from the last, zeroing the padding. */
static void
unpack_rows (GstAooctFileSrc * self, guint8 * data)
{
  gsize stride = GST_VIDEO_INFO_PLANE_STRIDE (&self->vinfo, 0);
  gsize rows = GST_VIDEO_INFO_HEIGHT (&self->vinfo);
  gsize r;

  if (stride == self->row_bytes)
    return;
  for (r = rows; r-- > 0;) {
    memmove (data + r * stride, data + r * self->row_bytes, self->row_bytes);
    memset (data + r * stride + self->row_bytes, 0, stride - self->row_bytes);
  }
}

static GstFlowReturn
gst_aooct_file_src_create (GstPushSrc * psrc, GstBuffer ** out)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (psrc);
  GstSegment *segment = &GST_BASE_SRC (psrc)->segment;
  GstFlowReturn ret;
  GstBuffer *buf;
  GError *err = NULL;
  guint64 index = self->next, first;
  gboolean in_place;

  if (index >= self->n_buffers)
    return GST_FLOW_EOS;
  first = index * self->bscans;
  if (GST_CLOCK_TIME_IS_VALID (segment->stop) && self->fps_n > 0
      && frame_time (self, first) >= segment->stop)
    return GST_FLOW_EOS;
  if (self->prefetch == NULL)
    start_prefetch (self);
  ret = aooct_file_prefetch_take (self->prefetch, index, &buf, &in_place, &err);
  if (ret == GST_FLOW_ERROR) {
    GST_ELEMENT_ERROR (self, RESOURCE, READ, ("%s", err->message), (NULL));
    g_error_free (err);
  }
  if (ret != GST_FLOW_OK)
    return ret;
  self->next = index + 1;
  if (!in_place
      && (gsize) GST_VIDEO_INFO_PLANE_STRIDE (&self->vinfo, 0) !=
      self->row_bytes) {
    GstMapInfo map;

    if (!gst_buffer_map (buf, &map, GST_MAP_READWRITE)) {
      gst_buffer_unref (buf);
      return GST_FLOW_ERROR;
    }
    unpack_rows (self, map.data);
    gst_buffer_unmap (buf, &map);
  }
  gst_buffer_set_size (buf, GST_VIDEO_INFO_SIZE (&self->vinfo));
  GST_BUFFER_PTS (buf) = frame_time (self, first);
  GST_BUFFER_DTS (buf) = GST_CLOCK_TIME_NONE;
  GST_BUFFER_DURATION (buf) = self->fps_n > 0 ?
      frame_time (self, first + self->bscans) - GST_BUFFER_PTS (buf) :
      GST_CLOCK_TIME_NONE;
  GST_BUFFER_OFFSET (buf) = first;
  GST_BUFFER_OFFSET_END (buf) = first + self->bscans;
  *out = buf;
  return GST_FLOW_OK;
}

/* ---- class -------------------------------------------------------------- */

static void
close_file (GstBaseSrc * src)
{
  gst_aooct_file_src_stop (src);
}

static GstStateChangeReturn
gst_aooct_file_src_change_state (GstElement * element,
    GstStateChange transition)
{
  return aooct_src_change_state (element, transition,
      GST_ELEMENT_CLASS (parent_class), open_file, close_file);
}

static void
gst_aooct_file_src_finalize (GObject * object)
{
  GstAooctFileSrc *self = GST_AOOCT_FILE_SRC (object);

  g_free (self->location);
  g_free (self->path);
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* Every property is read at start: a change while running does nothing
 * until the next start, say so (aooct-late-property.h). */
static void
gst_aooct_file_src_dispatch_properties_changed (GObject * object,
    guint n_pspecs, GParamSpec ** pspecs)
{
  aooct_warn_late_properties (GST_ELEMENT (object), n_pspecs, pspecs);
  G_OBJECT_CLASS (parent_class)->dispatch_properties_changed (object,
      n_pspecs, pspecs);
}

static void
gst_aooct_file_src_class_init (GstAooctFileSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseSrcClass *basesrc_class = GST_BASE_SRC_CLASS (klass);
  GstPushSrcClass *pushsrc_class = GST_PUSH_SRC_CLASS (klass);
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS
      | GST_PARAM_MUTABLE_READY;

  gobject_class->set_property = gst_aooct_file_src_set_property;
  gobject_class->get_property = gst_aooct_file_src_get_property;
  gobject_class->finalize = gst_aooct_file_src_finalize;
  gobject_class->dispatch_properties_changed =
      gst_aooct_file_src_dispatch_properties_changed;

  /**
   * GstAooctFileSrc:location:
   *
   * Path of the raw file of B-scans (spec section 0 layout, after
   * header-bytes, frame-stride apart), or of a NumPy .npy array (its
   * header gives the geometry and the format)
   */
  g_object_class_install_property (gobject_class, PROP_LOCATION,
      g_param_spec_string ("location", "Location",
          "Path of the raw file of B-scans (spec section 0 layout, after "
          "header-bytes, frame-stride apart), or of a NumPy .npy array (its "
          "header gives the geometry and the format)", NULL, flags));
  /**
   * GstAooctFileSrc:header-bytes:
   *
   * Bytes at the start of the file skipped once before the first B-scan
   * (a file header); 0 for a .npy file, whose header is read
   */
  g_object_class_install_property (gobject_class, PROP_HEADER_BYTES,
      g_param_spec_uint64 ("header-bytes", "Header bytes",
          "Bytes at the start of the file skipped once before the first "
          "B-scan (a file header); 0 for a .npy file, whose header is read",
          0, G_MAXUINT64, DEFAULT_HEADER_BYTES, flags));
  /**
   * GstAooctFileSrc:frame-stride:
   *
   * Bytes from the start of one B-scan to the start of the next, the
   * B-scan's own included: at least height x the bytes of an A-line; more
   * skips a per-B-scan header or trailer (header-bytes then points at the
   * first B-scan's samples); 0: the B-scan's size (B-scans back to back)
   */
  g_object_class_install_property (gobject_class, PROP_FRAME_STRIDE,
      g_param_spec_uint64 ("frame-stride", "Frame stride",
          "Bytes from the start of one B-scan to the start of the next, the "
          "B-scan's own included (more skips a per-B-scan header or "
          "trailer; 0: the B-scan's size)", 0, G_MAXUINT64,
          DEFAULT_FRAME_STRIDE, flags));
  /**
   * GstAooctFileSrc:format:
   *
   * Sample format in the file: gray16-le (16-bit little-endian), gray8,
   * packed: mono12p, mono12packed (12-bit, 1.5 bytes per sample, even
   * width), mono10p (10-bit, 1.25 bytes, width a multiple of 4), or
   * float32-le (32-bit IEEE floats); a .npy file's dtype decides instead
   */
  g_object_class_install_property (gobject_class, PROP_FORMAT,
      g_param_spec_enum ("format", "Format",
          "Sample format in the file: gray16-le (16-bit little-endian), "
          "gray8, packed mono12p, mono12packed (12-bit, even width), "
          "mono10p (10-bit, width a multiple of 4), or float32-le; a .npy "
          "file's dtype decides instead",
          GST_TYPE_AOOCT_RAW_FORMAT, aooct_raw_format_to_enum (DEFAULT_FORMAT),
          flags));
  /**
   * GstAooctFileSrc:width:
   *
   * Samples per A-line (N, spectrometer pixels); must be set (a .npy
   * file: 0, or its last axis)
   */
  g_object_class_install_property (gobject_class, PROP_WIDTH,
      g_param_spec_int ("width", "Width",
          "Samples per A-line (N, spectrometer pixels); must be set (a .npy "
          "file: 0, or its last axis)", 0, 65536, 0, flags));
  /**
   * GstAooctFileSrc:height:
   *
   * A-lines per B-scan (M); must be set (a .npy file: 0, or its
   * next-to-last axis)
   */
  g_object_class_install_property (gobject_class, PROP_HEIGHT,
      g_param_spec_int ("height", "Height",
          "A-lines per B-scan (M); must be set (a .npy file: 0, or its "
          "next-to-last axis)", 0, G_MAXINT, 0, flags));
  g_object_class_install_property (gobject_class, PROP_FRAMERATE,
      gst_param_spec_fraction ("framerate", "Frame rate",
          "B-scans per second, for timestamps (a file is read as fast as "
          "downstream takes it)", 0, 1, G_MAXINT, 1, DEFAULT_FPS_N,
          DEFAULT_FPS_D, flags));
  /**
   * GstAooctFileSrc:bscans-per-buffer:
   *
   * B-scans in each buffer (K; buffer height K x height; the caps field
   * bscans=K tells aooctdcsub)
   */
  g_object_class_install_property (gobject_class, PROP_BSCANS_PER_BUFFER,
      g_param_spec_uint ("bscans-per-buffer", "B-scans per buffer",
          "B-scans in each buffer (K; buffer height K x height; the caps "
          "field bscans=K tells aooctdcsub)", 1, 65536, DEFAULT_BSCANS, flags));
  /**
   * GstAooctFileSrc:threads:
   *
   * Threads reading the file at once (0: one per core, at most 8)
   */
  g_object_class_install_property (gobject_class, PROP_THREADS,
      g_param_spec_uint ("threads", "Threads",
          "Threads reading the file at once (0: one per core, at most 8)",
          0, 64, DEFAULT_THREADS, flags));
  /**
   * GstAooctFileSrc:map-file:
   *
   * Where aooctdcsub runs on CUDA (it proposes its page-locked pool), let
   * the upload read the file's page cache in place, without a CPU copy: a
   * file of at most map-file-max that is (almost) all in the page cache is
   * mapped read-only and page-locked whole at start (cudaHostRegister,
   * about 60 ms per GB on an H100 host), before any buffer flows.  Other
   * files, other downstream elements and CPU builds: the reader threads.
   * A mapped file must not be truncated while it plays: a CPU element that
   * reads a buffer of a cut part of the mapping would be killed by SIGBUS
   * (with the readers a truncated file is an element error).  A file
   * header (header-bytes) and gaps between B-scans (frame-stride) are
   * simply not uploaded as long as each buffer is one stretch of the file:
   * one B-scan per buffer, or no gaps; several B-scans per buffer with
   * gaps between them are gathered by the reader threads (the upload
   * takes one contiguous buffer).
   *
   * Registering parts of the file while the chain ran was measured 1.2 to
   * 3 times slower than the readers (a registration holds the driver for
   * milliseconds and every element's CUDA calls waited behind it); the
   * whole file at start made `aooctfilesrc ! chain` as fast as page-locked
   * input (docs/notes/performance-log.md, "The GPU reading the file in place").
   */
  g_object_class_install_property (gobject_class, PROP_MAP_FILE,
      g_param_spec_boolean ("map-file", "Map file",
          "Page-lock the file at start and let the GPU read it in place "
          "(CUDA downstream, file in the page cache and at most "
          "map-file-max); else reader threads", DEFAULT_MAP_FILE, flags));
  /**
   * GstAooctFileSrc:map-file-max:
   *
   * With map-file: the largest file, in MiB, that is page-locked (its
   * pages stay in memory while it plays).  -1: a quarter of the physical
   * memory; 0: never.
   */
  g_object_class_install_property (gobject_class, PROP_MAP_FILE_MAX,
      g_param_spec_int64 ("map-file-max", "Map file max",
          "Largest file in MiB that map-file page-locks (-1: a quarter of "
          "the physical memory, 0: never)", -1, G_MAXINT64 >> 20,
          DEFAULT_MAP_FILE_MAX, flags));

  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_RAW_FORMAT, 0);
  gst_element_class_set_static_metadata (element_class,
      "aooct raw B-scan file source", "Source/File/Video",
      "Reads a raw file of OCT B-scans (uint16/uint8/packed/float32 spectra, "
      "after a header, with per-B-scan gaps; or a NumPy .npy array) with "
      "several threads into the buffers downstream proposes",
      "aooct developers");

  basesrc_class->get_caps = gst_aooct_file_src_get_caps;
  basesrc_class->set_caps = gst_aooct_file_src_set_caps;
  basesrc_class->decide_allocation = gst_aooct_file_src_decide_allocation;
  basesrc_class->is_seekable = gst_aooct_file_src_is_seekable;
  basesrc_class->do_seek = gst_aooct_file_src_do_seek;
  basesrc_class->query = gst_aooct_file_src_query;
  basesrc_class->start = gst_aooct_file_src_start;
  element_class->change_state = gst_aooct_file_src_change_state;
  basesrc_class->stop = gst_aooct_file_src_stop;
  basesrc_class->unlock = gst_aooct_file_src_unlock;
  basesrc_class->unlock_stop = gst_aooct_file_src_unlock_stop;
  pushsrc_class->create = gst_aooct_file_src_create;
}

static void
gst_aooct_file_src_init (GstAooctFileSrc * self)
{
  self->format = DEFAULT_FORMAT;
  self->fps_n = DEFAULT_FPS_N;
  self->fps_d = DEFAULT_FPS_D;
  self->bscans = DEFAULT_BSCANS;
  self->threads = DEFAULT_THREADS;
  self->map_file = DEFAULT_MAP_FILE;
  self->map_file_max = DEFAULT_MAP_FILE_MAX;
  gst_base_src_set_format (GST_BASE_SRC (self), GST_FORMAT_TIME);
}
