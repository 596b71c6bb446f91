/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct tests: raw camera frames (see aooct-test-frames.h). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <float.h>
#include <math.h>
#include <string.h>

#include "aooct-test-frames.h"


/* Realistic raw spectra: a Gaussian source spectrum common to all A-lines,
 * an A-line-dependent interference fringe, per-B-scan level changes and
 * noise, scaled to @max_value (4095: a 12-bit camera in GRAY16; 65535 to
 * use the whole 16-bit range; 255 for GRAY8). */
guint16 *
aooct_test_make_spectra (GRand * rand, gint n, gint alines, gint bscans,
    gint max_value)
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
void
aooct_test_write_rows (guint8 * data, const guint16 * raw, gint n, gsize rows,
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
GstBuffer *
aooct_test_make_frame (const guint16 * raw, gint n, gsize rows, gint bytes,
    gsize stride)
{
  guint8 *data = g_malloc (stride * rows);

  memset (data, 0xA5, stride * rows);
  aooct_test_write_rows (data, raw, n, rows, bytes, stride);
  return gst_buffer_new_wrapped (data, stride * rows);
}

gsize
aooct_test_frame_stride (gint n, gint bytes)
{
  return GST_ROUND_UP_4 ((gsize) n * bytes);
}

/* The page-locked pool aooctdcsub proposes for system-memory @caps, asked
 * for as an upstream element does (an allocation query from the harness's
 * src pad), or NULL when it proposes none.  Any other pool it proposes
 * must not hand out that memory. */
GstBufferPool *
aooct_test_proposed_host_pool (GstHarness * h, const gchar * caps_str,
    guint * size)
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
    if (pool && gst_buffer_pool_has_option (pool, AOOCT_TEST_PAGE_LOCKED_OPTION)
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
void
aooct_test_start_pool (GstBufferPool * pool, const gchar * caps_str, guint size,
    guint max)
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
 * aooct_test_make_frame() lays it out: the page-locked pool aooctdcsub proposes for
 * system memory (AOOCT_TEST_HOST_MEMORY_TYPE; the host writes into it directly), or
 * the device pool it proposes for video/x-raw(memory:CUDAMemory)
 * ("aooct.cuda.memory"; uploaded before the element's GPU access). */
GstBuffer *
aooct_test_frame_in_pool (GstBufferPool * pool, const gchar * mem_type,
    const guint16 * raw, gint n, gsize rows, gint bytes, gsize stride)
{
  GstBuffer *src = aooct_test_make_frame (raw, n, rows, bytes, stride), *buf =
      NULL;
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
void
aooct_test_check_dc_reference (const guint16 * raw, const gfloat * out, gint n,
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
void
aooct_test_check_dc_same (const gfloat * cpu, const gfloat * gpu, gsize count,
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

gboolean
aooct_test_caps_have_cuda_feature (GstPad * pad)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean ret;

  fail_unless (caps != NULL);
  ret = gst_caps_features_contains (gst_caps_get_features (caps, 0),
      AOOCT_TEST_CUDA_FEATURE);
  gst_caps_unref (caps);
  return ret;
}
