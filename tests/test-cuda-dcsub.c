/* aooct tests: aooctdcsub on the CUDA backend, and backend selection.
 *
 * Two parts, chosen by the first argument (meson runs both):
 *   gpu      CUDA output against CPU output and a float64 reference, memory
 *            type, context sharing, input frames already in GPU memory
 *            (aooct's own and libgstcuda's GstCudaMemory), input frames in
 *            the page-locked pool the element proposes (uploaded in place,
 *            held until their copies have completed); exits 77 (meson:
 *            skipped) where no CUDA device is usable.
 *   backend  backend=auto|cpu|cuda and cuda-device-id with or without a GPU:
 *            without one (CI), cuda must fail with a clear error and auto
 *            must run on the CPU; with one, auto must pick CUDA.  Which
 *            memory the video input negotiates, the error for input in
 *            CUDA memory on the CPU, and which pool the element proposes
 *            for system-memory input on each backend. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"

#ifdef HAVE_CUDA
#include "aooct-cuda.h"
#include "aooct-cuda-dcsub.h"
#include "aooct-cpu-dcsub.h"
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudaloader.h>
#include <cuda_runtime_api.h>
#endif

#define CUDA_FEATURE "memory:CUDAMemory"
/* aooct-cuda-host-memory.h (not linked here) */
#define HOST_MEMORY_TYPE "aooct.cuda.host"
/* aooct-cuda-pool.h: the option of the page-locked pool */
#define PAGE_LOCKED_OPTION "AooctBufferPoolOptionPageLocked"

static gboolean have_gpu;
static gchar *no_gpu_reason;

/* Realistic raw spectra: a Gaussian source spectrum common to all A-lines,
 * an A-line-dependent interference fringe, per-B-scan level changes and
 * noise, scaled to @max_value (4095: a 12-bit camera in GRAY16; 65535 to
 * use the whole 16-bit range; 255 for GRAY8). */
static guint16 *
make_spectra (GRand * rand, gint n, gint alines, gint bscans, gint max_value)
{
  gsize rows = (gsize) alines * bscans;
  guint16 *raw = g_new (guint16, rows * n);
  gdouble phase = g_rand_double_range (rand, 0, 2 * G_PI);
  gsize r;
  gint i;

  for (r = 0; r < rows; r++) {
    gdouble level = 0.9 + 0.1 * (r / alines) + g_rand_double_range (rand,
        -0.02, 0.02);
    gdouble depth = g_rand_double_range (rand, 0.05, 0.6);

    for (i = 0; i < n; i++) {
      gdouble t = (i - n / 2.0) / (n / 3.5);
      gdouble dc = 0.55 * exp (-t * t);
      gdouble fringe = 0.12 * exp (-t * t) * cos (depth * i + phase);
      gdouble v = level * (dc + fringe) + 0.04 +
          g_rand_double_range (rand, -0.01, 0.01);

      raw[r * n + i] = (guint16) CLAMP (floor (v * max_value + 0.5), 0,
          max_value);
    }
  }
  return raw;
}

/* @rows rows of @raw into @data as the camera delivers them: samples of
 * @bytes (little-endian), rows @stride bytes apart, the padding between
 * them left as it is (the caller fills it with garbage). */
static void
write_rows (guint8 * data, const guint16 * raw, gint n, gsize rows,
    gint bytes, gsize stride)
{
  gsize r;
  gint i;

  for (r = 0; r < rows; r++)
    for (i = 0; i < n; i++) {
      guint16 v = raw[r * n + i];
      if (bytes == 1)
        data[r * stride + i] = (guint8) v;
      else {
        data[r * stride + 2 * i] = v & 0xff;
        data[r * stride + 2 * i + 1] = v >> 8;
      }
    }
}

/* The frame as the camera delivers it: rows stride bytes apart (GRAY8 and
 * odd GRAY16 widths have padded rows), padding filled with garbage. */
static GstBuffer *
make_frame (const guint16 * raw, gint n, gsize rows, gint bytes, gsize stride)
{
  guint8 *data = g_malloc (stride * rows);

  memset (data, 0xA5, stride * rows);
  write_rows (data, raw, n, rows, bytes, stride);
  return gst_buffer_new_wrapped (data, stride * rows);
}

static gsize
frame_stride (gint n, gint bytes)
{
  return GST_ROUND_UP_4 ((gsize) n * bytes);
}

/* The page-locked pool aooctdcsub proposes for system-memory @caps, asked
 * for as an upstream element does (an allocation query from the harness's
 * src pad), or NULL when it proposes none.  Any other pool it proposes
 * must not hand out that memory. */
static GstBufferPool *
proposed_host_pool (GstHarness * h, const gchar * caps_str, guint * size)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstQuery *q = gst_query_new_allocation (caps, TRUE);
  GstBufferPool *found = NULL;
  guint i;

  fail_unless (gst_pad_peer_query (h->srcpad, q),
      "aooctdcsub did not answer the allocation query");
  for (i = 0; i < gst_query_get_n_allocation_pools (q); i++) {
    GstBufferPool *pool = NULL;
    guint sz = 0, min = 0, max = 0;

    gst_query_parse_nth_allocation_pool (q, i, &pool, &sz, &min, &max);
    if (pool && gst_buffer_pool_has_option (pool, PAGE_LOCKED_OPTION)
        && found == NULL) {
      found = pool;
      *size = sz;
      fail_unless (min >= 2, "page-locked pool proposed with min %u", min);
      continue;
    }
    gst_clear_object (&pool);
  }
  gst_query_unref (q);
  gst_caps_unref (caps);
  return found;
}

/* Configures and starts @pool for @max buffers at most (0: no limit). */
static void
start_pool (GstBufferPool * pool, const gchar * caps_str, guint size, guint max)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstStructure *config = gst_buffer_pool_get_config (pool);

  gst_buffer_pool_config_set_params (config, caps, size, max ? 1 : 2, max);
  fail_unless (gst_buffer_pool_set_config (pool, config));
  fail_unless (gst_buffer_pool_set_active (pool, TRUE));
  gst_caps_unref (caps);
}

/* A buffer of @pool (blocks until one is free), checked to be one memory
 * of @mem_type, written through a host map with the frame of @raw as
 * make_frame() lays it out: the page-locked pool aooctdcsub proposes for
 * system memory (HOST_MEMORY_TYPE; the host writes into it directly), or
 * the device pool it proposes for video/x-raw(memory:CUDAMemory)
 * ("aooct.cuda.memory"; uploaded before the element's GPU access). */
static GstBuffer *
frame_in_pool (GstBufferPool * pool, const gchar * mem_type,
    const guint16 * raw, gint n, gsize rows, gint bytes, gsize stride)
{
  GstBuffer *src = make_frame (raw, n, rows, bytes, stride), *buf = NULL;
  GstMapInfo map;

  fail_unless_equals_int (gst_buffer_pool_acquire_buffer (pool, &buf, NULL),
      GST_FLOW_OK);
  fail_unless_equals_int (gst_buffer_n_memory (buf), 1);
  fail_unless (gst_memory_is_type (gst_buffer_peek_memory (buf, 0),
          mem_type), "the proposed pool does not give %s memory", mem_type);
  fail_unless_equals_int (gst_buffer_get_size (buf), stride * rows);
  fail_unless (gst_buffer_map (buf, &map, GST_MAP_WRITE));
  gst_buffer_extract (src, 0, map.data, stride * rows);
  gst_buffer_unmap (buf, &map);
  gst_buffer_unref (src);
  return buf;
}

/* float64 reference (spec 1-2): x - mean of the column over the B-scan */
static void
check_reference (const guint16 * raw, const gfloat * out, gint n,
    gint alines, gint bscans)
{
  gint b, m, i;

  for (b = 0; b < bscans; b++)
    for (i = 0; i < n; i++) {
      gdouble mean = 0;
      for (m = 0; m < alines; m++)
        mean += raw[((gsize) b * alines + m) * n + i];
      mean /= alines;
      for (m = 0; m < alines; m++) {
        gsize idx = ((gsize) b * alines + m) * n + i;
        gdouble expect = raw[idx] - mean;
        /* rounding of the mean and of the difference to float32 */
        gdouble tol = 2 * FLT_EPSILON * MAX (raw[idx], mean) + 1e-6;

        fail_unless (fabs (out[idx] - expect) <= tol,
            "bscan %d aline %d sample %d: %.9g, float64 reference %.9g", b, m,
            i, out[idx], expect);
      }
    }
}

/* CUDA against CPU: the kernels are designed to be bit-identical (exact
 * integer sums, the same float rounding steps); allow one float32 ulp of
 * the larger operand in case a compiler reorders, and report exactness. */
static void
check_same (const gfloat * cpu, const gfloat * gpu, gsize count,
    const guint16 * raw)
{
  gsize i, exact = 0;

  for (i = 0; i < count; i++) {
    gdouble tol = FLT_EPSILON * MAX (fabsf (cpu[i]), raw[i]);

    fail_unless (fabs ((gdouble) cpu[i] - gpu[i]) <= tol,
        "value %" G_GSIZE_FORMAT ": CUDA %.9g, CPU %.9g", i, gpu[i], cpu[i]);
    exact += cpu[i] == gpu[i];
  }
  g_print ("  %" G_GSIZE_FORMAT " of %" G_GSIZE_FORMAT
      " values bit-identical to the CPU path\n", exact, count);
}

static gboolean
caps_have_cuda_feature (GstHarness * h)
{
  GstCaps *caps = gst_pad_get_current_caps (h->sinkpad);
  gboolean ret;

  fail_unless (caps != NULL);
  ret = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      CUDA_FEATURE);
  gst_caps_unref (caps);
  return ret;
}

/* Runs @n_buffers frames through aooctdcsub with @props on the CPU and on
 * CUDA and compares.  All frames are pushed before any is pulled, so that
 * several pooled device buffers are in flight. */
static void
compare_backends (const gchar * format, gint bytes, gint n, gint alines,
    gint bscans, gint max_value, const gchar * props, gboolean reference)
{
  enum
  { N_BUFFERS = 4 };
  GRand *rand = aooct_test_rand_new ();
  gsize rows = (gsize) alines * bscans, stride = frame_stride (n, bytes);
  guint16 *raw[N_BUFFERS];
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%"
      G_GSIZE_FORMAT ",framerate=25/1", format, n, rows);
  gchar *launch_cpu = g_strdup_printf ("aooctdcsub backend=cpu "
      "alines-per-bscan=%d %s", alines, props);
  gchar *launch_gpu = g_strdup_printf ("aooctdcsub backend=cuda "
      "alines-per-bscan=%d %s", alines, props);
  GstHarness *hc = aooct_test_harness_new (launch_cpu);
  GstHarness *hg = aooct_test_harness_new (launch_gpu);
  gint k;

  g_print ("%s %dx%" G_GSIZE_FORMAT " (%d B-scans) max %d %s\n", format, n,
      rows, bscans, max_value, props);
  gst_harness_set_src_caps_str (hc, g_strdup (caps));
  gst_harness_set_src_caps_str (hg, g_strdup (caps));
  for (k = 0; k < N_BUFFERS; k++) {
    raw[k] = make_spectra (rand, n, alines, bscans, max_value);
    fail_unless_equals_int (gst_harness_push (hc, make_frame (raw[k], n,
                rows, bytes, stride)), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_push (hg, make_frame (raw[k], n,
                rows, bytes, stride)), GST_FLOW_OK);
  }
  fail_unless (caps_have_cuda_feature (hg),
      "backend=cuda did not negotiate " CUDA_FEATURE);
  fail_if (caps_have_cuda_feature (hc));

  for (k = 0; k < N_BUFFERS; k++) {
    GstBuffer *oc = gst_harness_pull (hc), *og = gst_harness_pull (hg);
    GstMapInfo mc, mg;

    fail_unless (oc != NULL && og != NULL);
    fail_unless_equals_int (gst_buffer_n_memory (og), 1);
    fail_unless (gst_memory_is_type (gst_buffer_peek_memory (og, 0),
            "aooct.cuda.memory"), "CUDA output is not in aooct device memory");
    fail_unless (gst_buffer_map (oc, &mc, GST_MAP_READ));
    fail_unless (gst_buffer_map (og, &mg, GST_MAP_READ));
    fail_unless_equals_int (mg.size, rows * n * sizeof (gfloat));
    fail_unless_equals_int (mc.size, mg.size);
    check_same ((const gfloat *) mc.data, (const gfloat *) mg.data, rows * n,
        raw[k]);
    if (reference)
      check_reference (raw[k], (const gfloat *) mg.data, n, alines, bscans);
    gst_buffer_unmap (oc, &mc);
    gst_buffer_unmap (og, &mg);
    gst_buffer_unref (oc);
    gst_buffer_unref (og);
    g_free (raw[k]);
  }
  gst_harness_teardown (hc);
  gst_harness_teardown (hg);
  g_free (caps);
  g_free (launch_cpu);
  g_free (launch_gpu);
  g_rand_free (rand);
}

GST_START_TEST (test_gray16_odd_width)
{
  /* odd width: padded rows; a 12-bit camera, three B-scans per frame */
  compare_backends ("GRAY16_LE", 2, 1023, 200, 3, 4095, "", TRUE);
  /* the whole 16-bit range, many A-lines (several row blocks per column) */
  compare_backends ("GRAY16_LE", 2, 2049, 300, 2, 65535, "", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_gray8_odd_width)
{
  compare_backends ("GRAY8", 1, 833, 128, 4, 255, "", TRUE);
  compare_backends ("GRAY8", 1, 33, 7, 1, 255, "", TRUE);
}

GST_END_TEST;

GST_START_TEST (test_background_and_none)
{
  gint n = 257, i;
  GRand *rand = aooct_test_rand_new ();
  GString *text = g_string_new (NULL);
  gchar *path, *props;

  for (i = 0; i < n; i++)
    g_string_append_printf (text, "%.9g\n", g_rand_double_range (rand, 100,
            3000));
  path = aooct_test_write_temp (text->str);
  props = g_strdup_printf ("mode=background background-file=%s", path);
  compare_backends ("GRAY16_LE", 2, n, 50, 2, 4095, props, FALSE);
  compare_backends ("GRAY16_LE", 2, n, 50, 2, 4095, "mode=none", FALSE);
  g_unlink (path);
  g_free (path);
  g_free (props);
  g_string_free (text, TRUE);
  g_rand_free (rand);
}

GST_END_TEST;

/* Two aooctdcsub behind a tee must end up on one GstCudaContext (found
 * through the GstContext mechanism), and both produce the CPU result. */
GST_START_TEST (test_context_shared)
{
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch ("videotestsrc num-buffers=3 "
      "pattern=snow ! video/x-raw,format=GRAY16_LE,width=301,height=64 ! "
      "tee name=t ! queue ! aooctdcsub name=a backend=cuda ! fakesink "
      "t. ! queue ! aooctdcsub name=b backend=cuda ! fakesink", &err);
  GstElement *a, *b;
  GstContext *ca, *cb;
  GstMessage *msg;
  GstBus *bus;
  const GValue *va, *vb;

  fail_unless (pipeline != NULL, "%s", err ? err->message : "?");
  a = gst_bin_get_by_name (GST_BIN (pipeline), "a");
  b = gst_bin_get_by_name (GST_BIN (pipeline), "b");
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "pipeline did not reach EOS");
  gst_message_unref (msg);

  ca = gst_element_get_context (a, "gst.cuda.context");
  cb = gst_element_get_context (b, "gst.cuda.context");
  fail_unless (ca != NULL && cb != NULL, "no gst.cuda.context on the "
      "elements");
  va = gst_structure_get_value (gst_context_get_structure (ca),
      "gst.cuda.context");
  vb = gst_structure_get_value (gst_context_get_structure (cb),
      "gst.cuda.context");
  fail_unless (va != NULL && vb != NULL);
  fail_unless (g_value_get_object (va) == g_value_get_object (vb),
      "the two elements use different CUDA contexts");
  gst_context_unref (ca);
  gst_context_unref (cb);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (a);
  gst_object_unref (b);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;


/* ---- input frames already in GPU memory ---- */

#ifdef HAVE_CUDA
/* Same bit as GST_MAP_CUDA / AOOCT_MAP_CUDA */
#define MAP_CUDA ((GstMapFlags) (GST_MAP_FLAG_LAST << 1))

#ifdef HAVE_GST_CUDA_STREAM
/* A slow producer: its stream holds the frame's copy back this long, so
 * that a consumer that does not order itself after the memory's stream
 * reads the memory before the frame is in it. */
static void CUDART_CB
hold_stream (void *data)
{
  g_usleep (50 * G_TIME_SPAN_MILLISECOND);
}
#endif

/* The frame of @raw in one libgstcuda GstCudaMemory on @context, with the
 * pitched layout of its GstVideoInfo, written on the device.  GStreamer >=
 * 1.24: the memory carries a stream of its own, and the frame is written
 * on it without waiting (held back by hold_stream), as an nvcodec producer
 * does; the consumer must order itself after that stream. */
static GstBuffer *
frame_in_gst_cuda_memory (GstCudaContext * context, const guint16 * raw,
    gint n, gsize rows, gint bytes, GstVideoFormat format)
{
  GstAllocator *alloc;
  GstCudaMemory *cmem;
  GstMemory *mem;
  GstMapInfo map;
  GstVideoInfo gray;
  GstBuffer *host = make_frame (raw, n, rows, bytes, (gsize) n * bytes), *buf;
  GstMapInfo hmap;
#ifndef HAVE_GST_CUDA_STREAM
  CUDA_MEMCPY2D copy = { 0 };
#endif

  gst_cuda_memory_init_once ();
  alloc = gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
  fail_unless (alloc != NULL);
  gst_video_info_set_format (&gray, format, n, rows);
  {
    /* libgstcuda's allocator takes no grey format (1.22 aborts, 1.24 and
     * 1.26 return NULL): take an NV12 memory whose luma plane has the
     * frame's row bytes and describe that plane as the grey frame, pitch
     * and all, as a producer of grey frames in GPU memory would */
    GstVideoInfo nv12;

    gst_video_info_set_format (&nv12, GST_VIDEO_FORMAT_NV12, n * bytes,
        rows + (rows & 1));
#ifdef HAVE_GST_CUDA_STREAM
    {
      GstCudaStream *stream = gst_cuda_stream_new (context);

      fail_unless (stream != NULL);
      mem = gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (alloc), context,
          stream, &nv12);
      gst_cuda_stream_unref (stream);
    }
#else
    mem = gst_cuda_allocator_alloc (GST_CUDA_ALLOCATOR (alloc), context, &nv12);
#endif
    fail_unless (mem != NULL);
    cmem = GST_CUDA_MEMORY_CAST (mem);
    gray.stride[0] = cmem->info.stride[0];
    gray.offset[0] = 0;
    gray.size = (gsize) gray.stride[0] * rows;
    cmem->info = gray;
  }
  gst_object_unref (alloc);
  fail_unless (GST_VIDEO_INFO_PLANE_STRIDE (&cmem->info, 0) >= n * bytes);

  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE | MAP_CUDA));
  fail_unless (gst_buffer_map (host, &hmap, GST_MAP_READ));
  fail_unless (gst_cuda_context_push (context));
#ifdef HAVE_GST_CUDA_STREAM
  {
    cudaStream_t s = (cudaStream_t)
        gst_cuda_stream_get_handle (gst_cuda_memory_get_stream (cmem));
    gsize row = (gsize) n * bytes;
    void *src = NULL;

    /* the write map marked the memory as needing a sync (1.24's rule) */
    fail_unless (GST_MEMORY_FLAG_IS_SET (mem,
            GST_CUDA_MEMORY_TRANSFER_NEED_SYNC));
    fail_unless_equals_int (cudaMalloc (&src, row * rows), cudaSuccess);
    fail_unless_equals_int (cudaMemcpy (src, hmap.data, row * rows,
            cudaMemcpyHostToDevice), cudaSuccess);
    fail_unless_equals_int (cudaLaunchHostFunc (s, hold_stream, NULL),
        cudaSuccess);
    fail_unless_equals_int (cudaMemcpy2DAsync (map.data,
            GST_VIDEO_INFO_PLANE_STRIDE (&cmem->info, 0), src, row, row, rows,
            cudaMemcpyDeviceToDevice, s), cudaSuccess);
    /* freed in stream order (cudaFree would wait for the device) */
    fail_unless_equals_int (cudaFreeAsync (src, s), cudaSuccess);
  }
  gst_cuda_context_pop (NULL);
#else
  copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  copy.srcHost = hmap.data;
  copy.srcPitch = (gsize) n *bytes;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = (CUdeviceptr) map.data;
  copy.dstPitch = GST_VIDEO_INFO_PLANE_STRIDE (&cmem->info, 0);
  copy.WidthInBytes = (gsize) n *bytes;
  copy.Height = rows;
  fail_unless_equals_int (CuMemcpy2D (&copy), CUDA_SUCCESS);
  gst_cuda_context_pop (NULL);
#endif
  gst_buffer_unmap (host, &hmap);
  gst_memory_unmap (mem, &map);
  gst_buffer_unref (host);

  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  return buf;
}

static GstCudaContext *
element_cuda_context (GstHarness * h)
{
  GstElement *e = aooct_test_element (h, "aooctdcsub");
  GstContext *c = gst_element_get_context (e, "gst.cuda.context");
  GstCudaContext *ctx = NULL;

  fail_unless (c != NULL, "aooctdcsub has no gst.cuda.context");
  /* (no gst_context_get_cuda_context in 1.22) */
  fail_unless (gst_structure_get (gst_context_get_structure (c),
          "gst.cuda.context", GST_TYPE_CUDA_CONTEXT, &ctx, NULL));
  gst_context_unref (c);
  return ctx;
}

static gboolean
sink_caps_have_cuda_feature (GstHarness * h)
{
  GstPad *pad = gst_element_get_static_pad (aooct_test_element (h,
          "aooctdcsub"), "sink");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean ret;

  fail_unless (caps != NULL);
  ret = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      CUDA_FEATURE);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return ret;
}

enum
{
  IN_AOOCT_MEMORY,
  IN_GST_CUDA_MEMORY,
  IN_OTHER_CONTEXT
};

/* The same frames through aooctdcsub backend=cuda from system memory and
 * from GPU memory (@where): the float32 spectra must be bit-identical (the
 * same kernels on the same samples), and match the CPU within one ulp and
 * the float64 reference. */
static void
compare_gpu_input (const gchar * format, gint bytes, gint n, gint alines,
    gint bscans, gint max_value, gint where)
{
  enum
  { N_BUFFERS = 4 };
  GRand *rand = aooct_test_rand_new ();
  gsize rows = (gsize) alines * bscans, stride = frame_stride (n, bytes);
  gchar *props = g_strdup_printf ("alines-per-bscan=%d", alines);
  gchar *sys_caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
      "height=%" G_GSIZE_FORMAT ",framerate=25/1", format, n, rows);
  gchar *gpu_caps = g_strdup_printf ("video/x-raw(" CUDA_FEATURE "),"
      "format=%s,width=%d,height=%" G_GSIZE_FORMAT ",framerate=25/1", format,
      n, rows);
  gchar *l_cpu = g_strdup_printf ("aooctdcsub backend=cpu %s", props);
  gchar *l_gpu = g_strdup_printf ("aooctdcsub backend=cuda %s", props);
  GstHarness *hc = aooct_test_harness_new (l_cpu);
  GstHarness *hs = aooct_test_harness_new (l_gpu);
  GstHarness *hd = aooct_test_harness_new (l_gpu);
  GstBufferPool *pool = NULL;
  GstCudaContext *ctx = NULL;
  guint16 *raw[N_BUFFERS];
  gint k;

  g_print ("%s %dx%" G_GSIZE_FORMAT " in %s\n", format, n, rows,
      where == IN_AOOCT_MEMORY ? "aooct device memory" :
      where == IN_GST_CUDA_MEMORY ? "GstCudaMemory" :
      "GstCudaMemory of another CUDA context");
  gst_harness_set_src_caps_str (hc, g_strdup (sys_caps));
  gst_harness_set_src_caps_str (hs, g_strdup (sys_caps));
  gst_harness_set_src_caps_str (hd, g_strdup (gpu_caps));
  fail_unless (sink_caps_have_cuda_feature (hd));
  fail_if (sink_caps_have_cuda_feature (hs));

  if (where == IN_AOOCT_MEMORY) {
    /* what an upstream that writes on the GPU does: ask for a pool */
    GstCaps *caps = gst_caps_from_string (gpu_caps);
    GstQuery *q = gst_query_new_allocation (caps, TRUE);

    fail_unless (gst_pad_peer_query (hd->srcpad, q));
    fail_unless (gst_query_get_n_allocation_pools (q) > 0,
        "aooctdcsub proposed no pool for CUDA-memory input");
    gst_query_parse_nth_allocation_pool (q, 0, &pool, NULL, NULL, NULL);
    fail_unless (pool != NULL);
    fail_unless (gst_buffer_pool_set_active (pool, TRUE));
    gst_query_unref (q);
    gst_caps_unref (caps);
  } else if (where == IN_GST_CUDA_MEMORY) {
    ctx = element_cuda_context (hd);
  } else {
    ctx = gst_cuda_context_new (0);
    fail_unless (ctx != NULL);
  }

  for (k = 0; k < N_BUFFERS; k++) {
    GstBuffer *in;

    raw[k] = make_spectra (rand, n, alines, bscans, max_value);
    fail_unless_equals_int (gst_harness_push (hc, make_frame (raw[k], n,
                rows, bytes, stride)), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_push (hs, make_frame (raw[k], n,
                rows, bytes, stride)), GST_FLOW_OK);
    if (where == IN_AOOCT_MEMORY)
      in = frame_in_pool (pool, "aooct.cuda.memory", raw[k], n, rows,
          bytes, stride);
    else
      in = frame_in_gst_cuda_memory (ctx, raw[k], n, rows, bytes,
          gst_video_format_from_string (format));
    fail_unless_equals_int (gst_harness_push (hd, in), GST_FLOW_OK);
  }

  for (k = 0; k < N_BUFFERS; k++) {
    GstBuffer *oc = gst_harness_pull (hc), *os = gst_harness_pull (hs),
        *od = gst_harness_pull (hd);
    GstMapInfo mc, ms, md;

    fail_unless (oc != NULL && os != NULL && od != NULL);
    fail_unless (gst_memory_is_type (gst_buffer_peek_memory (od, 0),
            "aooct.cuda.memory"));
    fail_unless (gst_buffer_map (oc, &mc, GST_MAP_READ));
    fail_unless (gst_buffer_map (os, &ms, GST_MAP_READ));
    fail_unless (gst_buffer_map (od, &md, GST_MAP_READ));
    fail_unless_equals_int (md.size, rows * n * sizeof (gfloat));
    fail_unless_equals_int (ms.size, md.size);
    fail_unless (memcmp (ms.data, md.data, md.size) == 0,
        "buffer %d: GPU-memory input differs from system-memory input", k);
    check_same ((const gfloat *) mc.data, (const gfloat *) md.data,
        rows * n, raw[k]);
    check_reference (raw[k], (const gfloat *) md.data, n, alines, bscans);
    gst_buffer_unmap (oc, &mc);
    gst_buffer_unmap (os, &ms);
    gst_buffer_unmap (od, &md);
    gst_buffer_unref (oc);
    gst_buffer_unref (os);
    gst_buffer_unref (od);
    g_free (raw[k]);
  }
  if (pool) {
    gst_buffer_pool_set_active (pool, FALSE);
    gst_object_unref (pool);
  }
  gst_clear_object (&ctx);
  gst_harness_teardown (hc);
  gst_harness_teardown (hs);
  gst_harness_teardown (hd);
  g_free (props);
  g_free (sys_caps);
  g_free (gpu_caps);
  g_free (l_cpu);
  g_free (l_gpu);
  g_rand_free (rand);
}
#endif

GST_START_TEST (test_input_in_aooct_memory)
{
#ifdef HAVE_CUDA
  /* odd widths: padded rows (GRAY8, odd GRAY16) */
  compare_gpu_input ("GRAY16_LE", 2, 1023, 200, 3, 4095, IN_AOOCT_MEMORY);
  compare_gpu_input ("GRAY16_LE", 2, 2048, 64, 1, 65535, IN_AOOCT_MEMORY);
  compare_gpu_input ("GRAY8", 1, 833, 128, 2, 255, IN_AOOCT_MEMORY);
#endif
}

GST_END_TEST;

GST_START_TEST (test_input_in_gst_cuda_memory)
{
#ifdef HAVE_CUDA
  compare_gpu_input ("GRAY16_LE", 2, 1023, 200, 3, 4095, IN_GST_CUDA_MEMORY);
  compare_gpu_input ("GRAY8", 1, 833, 128, 2, 255, IN_GST_CUDA_MEMORY);
  /* another context: read through the host, same result */
  compare_gpu_input ("GRAY16_LE", 2, 257, 50, 2, 4095, IN_OTHER_CONTEXT);
#endif
}

GST_END_TEST;

/* ---- input frames in the page-locked pool aooctdcsub proposes ---- */

/* The same @n_buffers frames through aooctdcsub backend=cuda from ordinary
 * system memory (staging) and from buffers of the page-locked pool it
 * proposes (read in place), the pool limited to @pool_max buffers (0: no
 * limit): bit-identical float32 spectra, and (@with_cpu) the CPU path's
 * within one ulp and the float64 reference.  All frames are pushed before
 * any output is pulled, each pool buffer written right after it is
 * acquired: with a small pool that is a buffer the element had just
 * uploaded from, so a reference dropped before the copy completed would
 * let this overwrite a frame still being read (wrong output). */
static void
compare_pinned_input (const gchar * format, gint bytes, gint n, gint alines,
    gint bscans, gint max_value, guint pool_max, gint n_buffers,
    gboolean with_cpu)
{
  GRand *rand = aooct_test_rand_new ();
  gsize rows = (gsize) alines * bscans, stride = frame_stride (n, bytes);
  gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%"
      G_GSIZE_FORMAT ",framerate=25/1", format, n, rows);
  gchar *l_cpu = g_strdup_printf ("aooctdcsub backend=cpu "
      "alines-per-bscan=%d", alines);
  gchar *l_gpu = g_strdup_printf ("aooctdcsub backend=cuda "
      "alines-per-bscan=%d", alines);
  GstHarness *hc = with_cpu ? aooct_test_harness_new (l_cpu) : NULL;
  GstHarness *hs = aooct_test_harness_new (l_gpu);
  GstHarness *hp = aooct_test_harness_new (l_gpu);
  GstBufferPool *pool;
  GstBuffer *last = NULL;
  guint16 **raw = g_new0 (guint16 *, n_buffers);
  guint size = 0;
  gint k;

  g_print ("%s %dx%" G_GSIZE_FORMAT " (%d B-scans) in page-locked pool "
      "buffers, pool of %u at most\n", format, n, rows, bscans, pool_max);
  if (hc)
    gst_harness_set_src_caps_str (hc, g_strdup (caps));
  gst_harness_set_src_caps_str (hs, g_strdup (caps));
  gst_harness_set_src_caps_str (hp, g_strdup (caps));
  pool = proposed_host_pool (hp, caps, &size);
  fail_unless (pool != NULL, "aooctdcsub on CUDA proposed no page-locked "
      "pool for system-memory input");
  fail_unless_equals_int (size, stride * rows);
  start_pool (pool, caps, size, pool_max);

  for (k = 0; k < n_buffers; k++) {
    GstBuffer *in;

    raw[k] = make_spectra (rand, n, alines, bscans, max_value);
    if (hc)
      fail_unless_equals_int (gst_harness_push (hc, make_frame (raw[k], n,
                  rows, bytes, stride)), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_push (hs, make_frame (raw[k], n,
                rows, bytes, stride)), GST_FLOW_OK);
    in = frame_in_pool (pool, HOST_MEMORY_TYPE, raw[k], n, rows, bytes, stride);
    last = gst_buffer_ref (in);
    fail_unless_equals_int (gst_harness_push (hp, in), GST_FLOW_OK);
    /* read in place: the element holds the buffer while its copy may run
     * (a pool of one buffer: it waits for the copy and lets go at once,
     * so that upstream can acquire the next) */
    fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (last),
        pool_max == 1 ? 1 : 2);
    /* the last one is kept to see it released at stop */
    if (k < n_buffers - 1)
      gst_clear_buffer (&last);
  }
  fail_unless (caps_have_cuda_feature (hp));

  for (k = 0; k < n_buffers; k++) {
    GstBuffer *oc = hc ? gst_harness_pull (hc) : NULL;
    GstBuffer *os = gst_harness_pull (hs), *op = gst_harness_pull (hp);
    GstMapInfo mc, ms, mp;

    fail_unless (os != NULL && op != NULL && (oc != NULL || hc == NULL));
    fail_unless (gst_buffer_map (os, &ms, GST_MAP_READ));
    fail_unless (gst_buffer_map (op, &mp, GST_MAP_READ));
    fail_unless_equals_int (mp.size, rows * n * sizeof (gfloat));
    fail_unless_equals_int (ms.size, mp.size);
    fail_unless (memcmp (ms.data, mp.data, mp.size) == 0,
        "buffer %d: page-locked input differs from system-memory input", k);
    if (oc) {
      fail_unless (gst_buffer_map (oc, &mc, GST_MAP_READ));
      check_same ((const gfloat *) mc.data, (const gfloat *) mp.data,
          rows * n, raw[k]);
      check_reference (raw[k], (const gfloat *) mp.data, n, alines, bscans);
      gst_buffer_unmap (oc, &mc);
      gst_buffer_unref (oc);
    }
    gst_buffer_unmap (os, &ms);
    gst_buffer_unmap (op, &mp);
    gst_buffer_unref (os);
    gst_buffer_unref (op);
    g_free (raw[k]);
  }
  /* stopping lets go of every input buffer */
  gst_harness_teardown (hp);
  fail_unless_equals_int (GST_MINI_OBJECT_REFCOUNT_VALUE (last), 1);
  gst_buffer_unref (last);
  fail_unless (gst_buffer_pool_set_active (pool, FALSE));
  gst_object_unref (pool);
  if (hc)
    gst_harness_teardown (hc);
  gst_harness_teardown (hs);
  g_free (raw);
  g_free (caps);
  g_free (l_cpu);
  g_free (l_gpu);
  g_rand_free (rand);
}

GST_START_TEST (test_input_in_pinned_pool)
{
  /* odd widths: padded rows (GRAY8, odd GRAY16); several B-scans */
  compare_pinned_input ("GRAY16_LE", 2, 1023, 200, 3, 4095, 0, 4, TRUE);
  compare_pinned_input ("GRAY16_LE", 2, 2048, 64, 2, 65535, 3, 6, TRUE);
  compare_pinned_input ("GRAY8", 1, 833, 128, 4, 255, 0, 4, TRUE);
  compare_pinned_input ("GRAY8", 1, 1024, 100, 2, 255, 1, 4, TRUE);
}

GST_END_TEST;

/* Large frames pushed back to back from a small pool: each buffer is
 * acquired again, and overwritten, as soon as the element lets go of it;
 * an upload of 8 MB (about 0.15 ms) takes long enough that releasing a
 * buffer before its copy has completed shows up as a wrong B-scan. */
GST_START_TEST (test_pinned_buffer_lifetime)
{
  compare_pinned_input ("GRAY16_LE", 2, 2048, 1000, 2, 4095, 1, 6, FALSE);
  compare_pinned_input ("GRAY16_LE", 2, 2048, 1000, 2, 4095, 3, 6, FALSE);
  compare_pinned_input ("GRAY8", 1, 4095, 1000, 2, 255, 2, 6, FALSE);
}

GST_END_TEST;

/* ---- backend selection, with or without a GPU ---- */

static gfloat *
run_harness (const gchar * launch, const guint16 * raw, gint n, gint rows,
    gboolean * cuda_caps)
{
  GstHarness *h = aooct_test_harness_new (launch);
  GstBuffer *out;
  GstMapInfo map;
  gfloat *res;

  gst_harness_set_src_caps_str (h, g_strdup_printf ("video/x-raw,format="
          "GRAY16_LE,width=%d,height=%d,framerate=0/1", n, rows));
  out = gst_harness_push_and_pull (h, make_frame (raw, n, rows, 2,
          frame_stride (n, 2)));
  fail_unless (out != NULL, "%s produced nothing", launch);
  *cuda_caps = caps_have_cuda_feature (h);
  fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
  res = g_memdup2 (map.data, map.size);
  gst_buffer_unmap (out, &map);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  return res;
}

GST_START_TEST (test_auto_backend)
{
  const gint n = 211, rows = 40;
  GRand *rand = aooct_test_rand_new ();
  guint16 *raw = make_spectra (rand, n, rows, 1, 4095);
  gboolean cuda_cpu, cuda_auto, cuda_auto99;
  gfloat *cpu = run_harness ("aooctdcsub backend=cpu", raw, n, rows,
      &cuda_cpu);
  gfloat *autob = run_harness ("aooctdcsub", raw, n, rows, &cuda_auto);
  /* a device id that does not exist: auto still works, on the CPU */
  gfloat *auto99 = run_harness ("aooctdcsub cuda-device-id=99", raw, n, rows,
      &cuda_auto99);

  fail_if (cuda_cpu, "backend=cpu negotiated CUDA memory");
  fail_if (cuda_auto99, "cuda-device-id=99 negotiated CUDA memory");
  fail_unless_equals_int (cuda_auto, have_gpu);
  check_reference (raw, cpu, n, rows, 1);
  /* auto, on whatever it picked, gives the CPU's floats */
  if (!have_gpu)
    fail_unless (memcmp (cpu, autob, sizeof (gfloat) * n * rows) == 0);
  check_same (cpu, autob, (gsize) n * rows, raw);
  fail_unless (memcmp (cpu, auto99, sizeof (gfloat) * n * rows) == 0);
  g_free (cpu);
  g_free (autob);
  g_free (auto99);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

#define FORCED_LAUNCH \
  "videotestsrc num-buffers=2 ! video/x-raw,format=GRAY16_LE,width=65," \
  "height=16 ! aooctdcsub backend=cuda %s ! fakesink"

GST_START_TEST (test_forced_cuda)
{
  gchar *launch = g_strdup_printf (FORCED_LAUNCH, "");
  gchar *error = aooct_test_run_pipeline (launch, 20);

  if (have_gpu) {
    fail_unless (error == NULL, "backend=cuda failed with a GPU: %s", error);
  } else {
    /* a clear error: what was asked, why it cannot be, what to do */
    fail_unless (error != NULL, "backend=cuda ran without a usable GPU");
    g_print ("backend=cuda without GPU: %s\n", error);
    fail_unless (strstr (error, "backend=cuda") != NULL, "%s", error);
    fail_unless (strstr (error, "backend=cpu or auto") != NULL, "%s", error);
#ifdef HAVE_CUDA
    fail_unless (strstr (error, "CUDA") != NULL, "%s", error);
#else
    fail_unless (strstr (error, "no CUDA backend") != NULL, "%s", error);
#endif
  }
  g_free (error);
  g_free (launch);

  launch = g_strdup_printf (FORCED_LAUNCH, "cuda-device-id=99");
  error = aooct_test_run_pipeline (launch, 20);
  fail_unless (error != NULL, "cuda-device-id=99 ran");
  g_print ("backend=cuda cuda-device-id=99: %s\n", error);
  fail_unless (strstr (error, "backend=cuda") != NULL, "%s", error);
  if (have_gpu)
    fail_unless (strstr (error, "cuda-device-id=99") != NULL, "%s", error);
  g_free (error);
  g_free (launch);
}

GST_END_TEST;


#define CAPS_TAIL "format=GRAY16_LE,width=65,height=16,framerate=0/1"

/* The caps aooctdcsub @launch offers an upstream that can give both
 * memories (the order is the upstream's preference: CUDA first). */
static GstCaps *
offered_caps (const gchar * launch)
{
  GstHarness *h = aooct_test_harness_new (launch);
  GstCaps *filter = gst_caps_from_string ("video/x-raw(" CUDA_FEATURE "), "
      CAPS_TAIL "; video/x-raw, " CAPS_TAIL);
  GstCaps *caps = gst_pad_peer_query_caps (h->srcpad, filter);

  gst_caps_unref (filter);
  gst_harness_teardown (h);
  return caps;
}

static gboolean
first_is_cuda (GstCaps * caps)
{
  fail_if (gst_caps_is_empty (caps));
  return gst_caps_features_contains (gst_caps_get_features (caps, 0),
      CUDA_FEATURE);
}

/* Video input memory: CUDA memory when upstream offers it and the element
 * runs on CUDA; system memory from a plain source; CUDA memory on the CPU
 * is refused with a message that says why. */
GST_START_TEST (test_input_memory_negotiation)
{
  GstCaps *caps;
  GstElement *pipeline, *dcsub;
  GstPad *pad;
  GstBus *bus;
  GstMessage *msg;
  GError *err = NULL;

  caps = offered_caps ("aooctdcsub backend=cpu");
  fail_if (first_is_cuda (caps), "backend=cpu offers CUDA memory: %"
      GST_PTR_FORMAT, caps);
  fail_unless_equals_int (gst_caps_get_size (caps), 1);
  gst_caps_unref (caps);
  caps = offered_caps ("aooctdcsub");
  fail_unless_equals_int (first_is_cuda (caps), have_gpu);
  gst_caps_unref (caps);

  /* a camera-like source: system memory, whatever the backend */
  pipeline = gst_parse_launch ("videotestsrc num-buffers=2 ! "
      "video/x-raw,format=GRAY16_LE,width=65,height=16 ! "
      "aooctdcsub name=d ! fakesink", &err);
  fail_unless (pipeline != NULL, "%s", err ? err->message : "?");
  dcsub = gst_bin_get_by_name (GST_BIN (pipeline), "d");
  pad = gst_element_get_static_pad (dcsub, "sink");
  bus = gst_element_get_bus (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 20 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS,
      "videotestsrc ! aooctdcsub did not reach EOS");
  gst_message_unref (msg);
  caps = gst_pad_get_current_caps (pad);
  fail_unless (caps != NULL);
  fail_if (first_is_cuda (caps), "a system-memory source negotiated %"
      GST_PTR_FORMAT, caps);
  gst_caps_unref (caps);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (pad);
  gst_object_unref (dcsub);
  gst_object_unref (bus);
  gst_object_unref (pipeline);

  /* an upstream that gives CUDA memory only, to an element on the CPU */
  aooct_test_expect_error ("aooctdcsub backend=cpu",
      gst_caps_from_string ("video/x-raw(" CUDA_FEATURE "), " CAPS_TAIL),
      "CUDA memory", "runs on the CPU", "backend=cpu", "system memory", NULL);
  if (!have_gpu)
    aooct_test_expect_error ("aooctdcsub",
        gst_caps_from_string ("video/x-raw(" CUDA_FEATURE "), " CAPS_TAIL),
        "CUDA memory", "runs on the CPU", "backend=auto", NULL);
}

GST_END_TEST;

/* Which pool aooctdcsub proposes for frames in system memory: the
 * page-locked one only on CUDA; on the CPU (backend=cpu, or auto without a
 * device) none of that memory, and frames from whatever upstream allocates
 * go through as before. */
GST_START_TEST (test_pinned_pool_offer)
{
  const gint n = 129, rows = 24;
  const gchar *caps = "video/x-raw,format=GRAY16_LE,width=129,height=24,"
      "framerate=0/1";
  const gchar *launches[] = { "aooctdcsub backend=cpu", "aooctdcsub" };
  GRand *rand = aooct_test_rand_new ();
  guint16 *raw = make_spectra (rand, n, rows, 1, 4095);
  gfloat *expect = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (launches); i++) {
    GstHarness *h = aooct_test_harness_new (launches[i]);
    gboolean on_cuda = i == 1 && have_gpu;
    GstBufferPool *pool;
    GstBuffer *in, *out;
    GstMapInfo map;
    guint size = 0;

    gst_harness_set_src_caps_str (h, g_strdup (caps));
    pool = proposed_host_pool (h, caps, &size);
    g_print ("%s: page-locked pool %s\n", launches[i], pool ? "proposed" :
        "not proposed");
    fail_unless_equals_int (pool != NULL, on_cuda);
    if (pool) {
      fail_unless_equals_int (size, frame_stride (n, 2) * rows);
      start_pool (pool, caps, size, 0);
      in = frame_in_pool (pool, HOST_MEMORY_TYPE, raw, n, rows, 2,
          frame_stride (n, 2));
    } else {
      in = make_frame (raw, n, rows, 2, frame_stride (n, 2));
    }
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "%s produced nothing", launches[i]);
    fail_unless (gst_buffer_map (out, &map, GST_MAP_READ));
    fail_unless_equals_int (map.size, n * rows * sizeof (gfloat));
    if (expect == NULL) {
      expect = g_memdup2 (map.data, map.size);
      check_reference (raw, expect, n, rows, 1);
    } else {
      check_same (expect, (const gfloat *) map.data, (gsize) n * rows, raw);
    }
    gst_buffer_unmap (out, &map);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    if (pool) {
      fail_unless (gst_buffer_pool_set_active (pool, FALSE));
      gst_object_unref (pool);
    }
  }
  g_free (expect);
  g_free (raw);
  g_rand_free (rand);
}

GST_END_TEST;

/* ---- the kernels on device buffers, against the CPU core bit for bit ----
 *
 * aooct_cuda_dcsub() directly, on layouts the element rarely or never
 * produces: raw frames at any byte offset with any row stride (the kernels
 * load 8, 4, 2 or 1 bytes at a time, by the alignment of both), outputs
 * that are not 16- or 8-byte aligned (float4, float2 or scalar stores),
 * widths that leave a partial group of 4 (GRAY16) or 8 (GRAY8) samples at
 * the end of each row, or are smaller than one group, A-line counts that
 * are not a multiple of the kernels' row chunks or of their 8 row lanes,
 * many B-scans per buffer (more than a grid dimension holds), and column
 * sums beyond 32 bits.  The kernels are exact (integer sums, the CPU's
 * rounding steps), so the floats must be bit-identical to aooct_cpu_dcsub
 * on the same bytes; guard bytes around the output must stay untouched
 * and the scratch starts as garbage (it must need no clearing). */
#ifdef HAVE_CUDA

#define GUARD_BYTES 256

typedef struct
{
  const gchar *what;
  gint bytes, n, alines, bscans;
  gsize raw_offset;             /* bytes past a 256-byte aligned address */
  gsize stride;                 /* 0: frame_stride () */
  gsize out_offset;             /* floats past a 256-byte aligned address */
  gint max_value;
  gboolean saturated;           /* all samples within 1000 of max_value */
} CoreCase;

static const CoreCase core_cases[] = {
  /* the benchmark shapes: 8-byte loads, float4 stores */
  {"2048x1000 x4 (benchmark)", 2, 2048, 1000, 4, 0, 0, 0, 4095, FALSE},
  {"832x240 x16 (thesis x16)", 2, 832, 240, 16, 0, 0, 0, 4095, FALSE},
  /* odd width: last group of 3, scalar stores; rows past 8-byte aligned */
  {"1023x200 x3", 2, 1023, 200, 3, 0, 0, 0, 65535, FALSE},
  /* stride 2044: 4-byte loads; last group of 2; float2 stores */
  {"1022x130 x2 stride 2044", 2, 1022, 130, 2, 0, 0, 0, 4095, FALSE},
  /* 2-byte loads (offset 2, stride 2046), output 4 bytes off */
  {"1022x77 x2 offset 2 stride 2046, output +1", 2, 1022, 77, 2, 2, 2046, 1,
      4095, FALSE},
  /* odd address and odd stride: samples assembled from single bytes */
  {"513x65 x3 offset 1 stride 1029", 2, 513, 65, 3, 1, 1029, 0, 65535,
      FALSE},
  /* larger stride than the row (a pitched frame), output 8 bytes off */
  {"1000x333 stride 2560, output +2", 2, 1000, 333, 1, 0, 2560, 2, 4095,
      FALSE},
  {"GRAY8 833x128 x4 stride 836", 1, 833, 128, 4, 0, 0, 0, 255, FALSE},
  {"GRAY8 1021x300 x2 stride 1024", 1, 1021, 300, 2, 0, 0, 0, 255, FALSE},
  {"GRAY8 1000x1000 offset 3 stride 1003", 1, 1000, 1000, 1, 3, 1003, 0,
      255, FALSE},
  {"GRAY8 4096x50 x2 offset 6 stride 4102", 1, 4096, 50, 2, 6, 4102, 0, 255,
      FALSE},
  /* narrower than one group, fewer A-lines than row lanes */
  {"3x7 x5", 2, 3, 7, 5, 0, 0, 0, 65535, FALSE},
  {"GRAY8 5x1 x3", 1, 5, 1, 3, 0, 0, 0, 255, FALSE},
  /* column sums of about 4.6e9 > 2^32: a 32-bit sum fails here */
  {"5x70001 saturated", 2, 5, 70001, 1, 0, 0, 0, 65535, TRUE},
  /* more B-scans than a grid dimension (65535) holds */
  {"2x2 x66000", 2, 2, 2, 66000, 0, 0, 0, 4095, FALSE},
};

static guint16 *
core_samples (const CoreCase * c, GRand * rand)
{
  gsize count = (gsize) c->n * c->alines * c->bscans, i;
  guint16 *raw;

  if (!c->saturated)
    return make_spectra (rand, c->n, c->alines, c->bscans, c->max_value);
  raw = g_new (guint16, count);
  for (i = 0; i < count; i++)
    raw[i] = (guint16) g_rand_int_range (rand, c->max_value - 1000,
        c->max_value + 1);
  return raw;
}

/* A device copy of @size bytes of @host, @offset bytes past the start of
 * a fresh allocation (returned in @alloc); the bytes around it are 0xA5. */
static gpointer
device_copy_at (gconstpointer host, gsize size, gsize offset, gpointer * alloc)
{
  gsize total = offset + size + GUARD_BYTES;
  guint8 *img = g_malloc (total);
  GError *err = NULL;

  memset (img, 0xA5, total);
  if (host)
    memcpy (img + offset, host, size);
  fail_unless (aooct_cuda_malloc (total, alloc, &err)
      && aooct_cuda_upload (*alloc, img, total, &err), "%s",
      err ? err->message : "");
  g_free (img);
  return (guint8 *) * alloc + offset;
}

static void
check_core_case (const CoreCase * c, AooctDcMode mode, GRand * rand,
    AooctCudaStream stream)
{
  static const gchar *modes[] = { "bscan-mean", "background", "none" };
  gsize stride = c->stride ? c->stride : frame_stride (c->n, c->bytes);
  gsize rows = (gsize) c->alines * c->bscans;
  gsize out_bytes = rows * c->n * sizeof (gfloat);
  gsize out_at = GUARD_BYTES + c->out_offset * sizeof (gfloat);
  gsize out_total = out_at + out_bytes + GUARD_BYTES, i;
  guint16 *samples = core_samples (c, rand);
  guint8 *frame = g_malloc (stride * rows), *back;
  gfloat *bg = g_new (gfloat, c->n), *expect = g_new (gfloat, rows * c->n);
  gpointer raw_alloc, out_alloc, bg_alloc = NULL, scratch_alloc;
  gpointer raw_dev, out_dev, bg_dev = NULL;
  GError *err = NULL;
  AooctGeometry g;

  g_print ("  core %s %s\n", c->what, modes[mode]);
  aooct_geometry_init_raw (&g, c->n, c->alines, c->bscans, 25, 1);
  /* garbage in the row padding */
  for (i = 0; i < stride * rows; i++)
    frame[i] = (guint8) g_rand_int (rand);
  write_rows (frame, samples, c->n, rows, c->bytes, stride);
  for (i = 0; i < (gsize) c->n; i++)
    bg[i] = (gfloat) g_rand_double_range (rand, 0, c->max_value);
  aooct_cpu_dcsub (&g, frame, stride, c->bytes, mode, bg, expect);

  raw_dev = device_copy_at (frame, stride * rows, c->raw_offset, &raw_alloc);
  /* output region and guards: 0xff bytes (NaN), so a missed value shows */
  back = g_malloc (out_total);
  memset (back, 0xff, out_total);
  out_dev = device_copy_at (back, out_total, 0, &out_alloc);
  out_dev = (guint8 *) out_dev + out_at;
  if (mode == AOOCT_DC_BACKGROUND)
    bg_dev = device_copy_at (bg, c->n * sizeof (gfloat), 0, &bg_alloc);
  device_copy_at (NULL, aooct_cuda_dcsub_scratch_bytes (&g), 0, &scratch_alloc);

  fail_unless (aooct_cuda_dcsub (&g, raw_dev, stride, c->bytes, mode,
          (const gfloat *) bg_dev, scratch_alloc, (gfloat *) out_dev, stream,
          &err)
      && aooct_cuda_download_async (back, out_alloc, out_total, stream, &err)
      && aooct_cuda_stream_sync (stream, &err), "%s: %s", c->what,
      err ? err->message : "");

  /* (fail_unless costs a write per call in libcheck: test first) */
  for (i = 0; i < out_at; i++)
    if (back[i] != 0xff)
      fail ("%s %s: byte %" G_GSIZE_FORMAT " before the output was written",
          c->what, modes[mode], out_at - i);
  for (i = out_at + out_bytes; i < out_total; i++)
    if (back[i] != 0xff)
      fail ("%s %s: byte %" G_GSIZE_FORMAT " after the output was written",
          c->what, modes[mode], i - out_at - out_bytes);
  if (memcmp (back + out_at, expect, out_bytes) != 0) {
    const gfloat *got = (const gfloat *) (back + out_at);

    for (i = 0; i < rows * c->n; i++)
      if (memcmp (&got[i], &expect[i], sizeof (gfloat)) != 0)
        fail ("%s %s: B-scan %" G_GSIZE_FORMAT " A-line %" G_GSIZE_FORMAT
            " sample %" G_GSIZE_FORMAT ": CUDA %.9g, CPU %.9g (raw %u)",
            c->what, modes[mode], i / c->n / c->alines,
            i / c->n % c->alines, i % c->n, got[i], expect[i], samples[i]);
  }

  aooct_cuda_free (raw_alloc);
  aooct_cuda_free (out_alloc);
  aooct_cuda_free (bg_alloc);
  aooct_cuda_free (scratch_alloc);
  g_free (back);
  g_free (frame);
  g_free (bg);
  g_free (expect);
  g_free (samples);
}
#endif

GST_START_TEST (test_core_layouts)
{
#ifdef HAVE_CUDA
  GRand *rand = aooct_test_rand_new ();
  AooctCudaStream stream;
  GError *err = NULL;
  guint i;

  fail_unless (aooct_cuda_stream_new (&stream, &err), "%s",
      err ? err->message : "");
  for (i = 0; i < G_N_ELEMENTS (core_cases); i++) {
    check_core_case (&core_cases[i], AOOCT_DC_BSCAN_MEAN, rand, stream);
    check_core_case (&core_cases[i], AOOCT_DC_BACKGROUND, rand, stream);
    check_core_case (&core_cases[i], AOOCT_DC_NONE, rand, stream);
  }
  aooct_cuda_stream_free (stream);
  g_rand_free (rand);
#endif
}

GST_END_TEST;

/* Through the element: the shapes measured in docs/performance.md and
 * widths that take each load and store width from staged system memory
 * (rows of frame_stride () bytes). */
GST_START_TEST (test_kernel_shapes)
{
  /* the thesis camera, 16 B-scans per buffer; 2048 x 1000, 4 B-scans */
  compare_backends ("GRAY16_LE", 2, 832, 240, 16, 4095, "", TRUE);
  compare_backends ("GRAY16_LE", 2, 2048, 1000, 4, 4095, "", FALSE);
  /* stride 2044: 4-byte loads, float2 stores, a last group of 2 */
  compare_backends ("GRAY16_LE", 2, 1022, 130, 3, 65535, "", TRUE);
  /* GRAY8: stride 1024 with a last group of 5; stride 836 (4-byte) */
  compare_backends ("GRAY8", 1, 1021, 300, 2, 255, "", TRUE);
  compare_backends ("GRAY8", 1, 834, 77, 5, 255, "mode=none", FALSE);
}

GST_END_TEST;

static Suite *
gpu_suite (void)
{
  Suite *s = suite_create ("aooctdcsub-cuda");
  TCase *tc = tcase_create ("gpu");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_gray16_odd_width);
  tcase_add_test (tc, test_gray8_odd_width);
  tcase_add_test (tc, test_background_and_none);
  tcase_add_test (tc, test_core_layouts);
  tcase_add_test (tc, test_kernel_shapes);
  tcase_add_test (tc, test_context_shared);
  tcase_add_test (tc, test_input_in_aooct_memory);
  tcase_add_test (tc, test_input_in_gst_cuda_memory);
  tcase_add_test (tc, test_input_in_pinned_pool);
  tcase_add_test (tc, test_pinned_buffer_lifetime);
  return s;
}

static Suite *
backend_suite (void)
{
  Suite *s = suite_create ("aooct-backend");
  TCase *tc = tcase_create ("backend");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_auto_backend);
  tcase_add_test (tc, test_forced_cuda);
  tcase_add_test (tc, test_input_memory_negotiation);
  tcase_add_test (tc, test_pinned_pool_offer);
  return s;
}

int
main (int argc, char **argv)
{
  gboolean gpu_part = argc > 1 && strcmp (argv[1], "gpu") == 0;
  Suite *s;

  gst_check_init (&argc, &argv);
  have_gpu = aooct_test_cuda_available (&no_gpu_reason);
  g_print ("CUDA device: %s\n", have_gpu ? "yes" : no_gpu_reason);
  if (gpu_part && !have_gpu) {
    g_print ("SKIP: %s\n", no_gpu_reason);
    return AOOCT_TEST_SKIP_CODE;
  }
  s = gpu_part ? gpu_suite () : backend_suite ();
  return gst_check_run_suite (s, gpu_part ? "cuda-dcsub" : "cuda-backend",
      __FILE__);
}
