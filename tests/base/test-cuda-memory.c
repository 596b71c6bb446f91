/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: the memory the base class takes and gives on CUDA, with
 * aooctdcsub as the element: two elements share one GstCudaContext; input
 * frames already in GPU memory (aooct's own and libgstcuda's
 * GstCudaMemory, ordered after the producer's stream); input frames in
 * the page-locked pool the element proposes (uploaded in place, held
 * until their copies have completed).  Every output against the CPU and
 * the float64 reference.
 *
 * meson: cuda-memory (CK_RUN_CASE=cuda); exits 77 (meson: skipped) where
 * no CUDA device is usable. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <string.h>
#include <glib/gstdio.h>

#include "aooct-test-util.h"
#include "aooct-cuda-test-util.h"
#include "aooct-test-frames.h"

#ifdef HAVE_CUDA
#include "aooct-cuda.h"
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudaloader.h>
#include <cuda_runtime_api.h>
#endif

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
  GstBuffer *host =
      aooct_test_make_frame (raw, n, rows, bytes, (gsize) n * bytes), *buf;
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
  /* from pageable host memory cuMemcpy2D may return before its DMA has
   * landed (CUDA's "API synchronization behavior"), and the element's
   * non-blocking streams are not ordered after the legacy stream: a 1.22
   * producer (no stream on the memory) pushes complete frames, as
   * libgstcuda's own elements do by synchronising their stream (this
   * test read a frame still arriving, "buffer 1 differs", under load) */
  fail_unless_equals_int (CuStreamSynchronize (NULL), CUDA_SUCCESS);
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
  gboolean ret = aooct_test_caps_have_cuda_feature (pad);

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
  gsize rows = (gsize) alines * bscans, stride =
      aooct_test_frame_stride (n, bytes);
  gchar *props = g_strdup_printf ("alines-per-bscan=%d", alines);
  gchar *sys_caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
      "height=%" G_GSIZE_FORMAT ",framerate=25/1", format, n, rows);
  gchar *gpu_caps = g_strdup_printf ("video/x-raw(" AOOCT_TEST_CUDA_FEATURE "),"
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

    raw[k] = aooct_test_make_spectra (rand, n, alines, bscans, max_value);
    fail_unless_equals_int (gst_harness_push (hc, aooct_test_make_frame (raw[k],
                n, rows, bytes, stride)), GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_push (hs, aooct_test_make_frame (raw[k],
                n, rows, bytes, stride)), GST_FLOW_OK);
    if (where == IN_AOOCT_MEMORY)
      in = aooct_test_frame_in_pool (pool, "aooct.cuda.memory", raw[k], n, rows,
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
    aooct_test_check_dc_same ((const gfloat *) mc.data,
        (const gfloat *) md.data, rows * n, raw[k]);
    aooct_test_check_dc_reference (raw[k], (const gfloat *) md.data, n, alines,
        bscans);
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
  gsize rows = (gsize) alines * bscans, stride =
      aooct_test_frame_stride (n, bytes);
  gchar *caps =
      g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%" G_GSIZE_FORMAT
      ",framerate=25/1", format, n, rows);
  gchar *l_cpu =
      g_strdup_printf ("aooctdcsub backend=cpu " "alines-per-bscan=%d", alines);
  gchar *l_gpu =
      g_strdup_printf ("aooctdcsub backend=cuda " "alines-per-bscan=%d",
      alines);
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
  pool = aooct_test_proposed_host_pool (hp, caps, &size);
  fail_unless (pool != NULL, "aooctdcsub on CUDA proposed no page-locked "
      "pool for system-memory input");
  fail_unless_equals_int (size, stride * rows);
  aooct_test_start_pool (pool, caps, size, pool_max);

  for (k = 0; k < n_buffers; k++) {
    GstBuffer *in;

    raw[k] = aooct_test_make_spectra (rand, n, alines, bscans, max_value);
    if (hc)
      fail_unless_equals_int (gst_harness_push (hc,
              aooct_test_make_frame (raw[k], n, rows, bytes, stride)),
          GST_FLOW_OK);
    fail_unless_equals_int (gst_harness_push (hs, aooct_test_make_frame (raw[k],
                n, rows, bytes, stride)), GST_FLOW_OK);
    in = aooct_test_frame_in_pool (pool, AOOCT_TEST_HOST_MEMORY_TYPE, raw[k], n,
        rows, bytes, stride);
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
  fail_unless (aooct_test_caps_have_cuda_feature (hp->sinkpad));

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
      aooct_test_check_dc_same ((const gfloat *) mc.data,
          (const gfloat *) mp.data, rows * n, raw[k]);
      aooct_test_check_dc_reference (raw[k], (const gfloat *) mp.data, n,
          alines, bscans);
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
static Suite *
cuda_memory_suite (void)
{
  Suite *s = suite_create ("aooct-cuda-memory");
  TCase *tc = aooct_test_backend_tcase (s, "cuda");

  if (tc) {
    tcase_add_test (tc, test_context_shared);
    tcase_add_test (tc, test_input_in_aooct_memory);
    tcase_add_test (tc, test_input_in_gst_cuda_memory);
    tcase_add_test (tc, test_input_in_pinned_pool);
    tcase_add_test (tc, test_pinned_buffer_lifetime);
  }
  return s;
}

GST_CHECK_MAIN (cuda_memory);
