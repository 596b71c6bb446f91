/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:gstaooctgroup
 * @title: GstAooctGroup
 * @short_description: base class of the elements that make one image per
 * group of B-scans
 *
 * A GstAooctFilter that takes depth-domain B-scans and emits one image per
 * group of them: the volume views (aooctenface, aooctrender: a volume of
 * bscans-per-volume B-scans) and aooctangio (the repeats of one B-scan
 * position).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctgroup.h"
#include "aooct-gap.h"
#include "aooct-seq-meta.h"
#include "aooct-group-query.h"

GST_DEBUG_CATEGORY_STATIC (gst_aooct_group_debug);
#define GST_CAT_DEFAULT gst_aooct_group_debug

typedef struct
{
  /* the group being collected (streaming thread) */
  gint filled;                  /* B-scans collected */
  GstClockTime first_pts;       /* of its first B-scan */
  gboolean has_seq;             /* its first B-scan's buffer came from */
  guint64 first_seq;            /* aooctsplit, numbered so, */
  guint64 last_seq;             /* ... and its last B-scan's so far */
  guint64 first_index;          /* the stream's B-scan of that number */
  gboolean after_seek;          /* a flush since the last group began */
  gboolean by_time;             /* groups placed by timestamps (a flush
                                 * with realign_after_seek, until new caps) */
  gint skipped;                 /* B-scans skipped to realign since */
  gboolean have_pos;            /* the position (aooct-seq-meta.h) of */
  guint64 next_pos;             /* the buffer expected next, after one */
  GstClockTime bscan_duration;  /* of one B-scan, or NONE */
  guint64 groups;               /* images made since start */
  AooctGap gap;                 /* where the pending image will start */
  AooctGroupCall call;          /* what collect / emit ask of execute() */
} GstAooctGroupPrivate;

#define gst_aooct_group_parent_class parent_class
G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstAooctGroup, gst_aooct_group,
    GST_TYPE_AOOCT_FILTER, G_ADD_PRIVATE (GstAooctGroup);
    GST_DEBUG_CATEGORY_INIT (gst_aooct_group_debug, "aooctgroup", 0,
        "aooct images of groups of B-scans"));

#define PRIV(self) \
  ((GstAooctGroupPrivate *) gst_aooct_group_get_instance_private (self))

const AooctGroupCall *
gst_aooct_group_call (GstAooctGroup * self)
{
  return &PRIV (self)->call;
}

void
gst_aooct_group_rate (const AooctGeometry * in, gint n, AooctGeometry * out)
{
  /* images per second = buffers per second * B-scans per buffer / n */
  out->fps_n = 0;
  out->fps_d = 1;
  if (in->fps_n > 0 && !gst_util_fraction_multiply (in->fps_n, in->fps_d,
          in->bscans, n, &out->fps_n, &out->fps_d)) {
    out->fps_n = 0;
    out->fps_d = 1;
  }
}

static gint
group_size (GstAooctGroup * self)
{
  return GST_AOOCT_GROUP_GET_CLASS (self)->group_size (self);
}

static GstFlowReturn
allocate_output (GstAooctGroup * self, GstBuffer ** out)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstAooctFilter *filter = GST_AOOCT_FILTER (self);
  GstBufferPool *pool = gst_base_transform_get_buffer_pool (bt);
  GstFlowReturn ret = GST_FLOW_OK;

  *out = NULL;
  if (pool) {
    if (!gst_buffer_pool_is_active (pool)
        && !gst_buffer_pool_set_active (pool, TRUE)) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS,
          ("cannot activate the output buffer pool"), (NULL));
      ret = GST_FLOW_ERROR;
    } else {
      ret = gst_buffer_pool_acquire_buffer (pool, out, NULL);
    }
    gst_object_unref (pool);
  } else {
    GstAllocator *allocator = NULL;
    GstAllocationParams params;

    gst_base_transform_get_allocator (bt, &allocator, &params);
    *out = gst_buffer_new_allocate (allocator,
        GST_VIDEO_INFO_SIZE (&filter->out_vinfo), &params);
    if (allocator)
      gst_object_unref (allocator);
    if (*out == NULL) {
      GST_ELEMENT_ERROR (self, RESOURCE, NO_SPACE_LEFT,
          ("cannot allocate an output image of %" G_GSIZE_FORMAT " bytes",
              GST_VIDEO_INFO_SIZE (&filter->out_vinfo)), (NULL));
      ret = GST_FLOW_ERROR;
    }
  }
  return ret;
}

/* The image of the B-scans collected (a whole group, or the partial one
 * of a view at EOS or before new caps), on its way downstream: on CUDA the
 * streaming thread only enqueues its GPU work, and the base class's output
 * ring pushes it once downloaded (gst_aooct_filter_emit), so that the
 * next B-scans' upload and kernels overlap its download. */
static GstFlowReturn
emit_group (GstAooctGroup * self)
{
  GstAooctFilter *filter = GST_AOOCT_FILTER (self);
  GstAooctGroupPrivate *priv = PRIV (self);
  GstBuffer *out;
  GstFlowReturn ret;

  if (priv->filled == 0 || !filter->configured)
    return GST_FLOW_OK;
  ret = allocate_output (self, &out);
  if (ret != GST_FLOW_OK) {
    priv->filled = 0;
    aooct_gap_reset (&priv->gap);
    return ret;
  }
  priv->call.count = 0;
  priv->call.filled = priv->filled;
  GST_BUFFER_PTS (out) = priv->first_pts;
  GST_BUFFER_DTS (out) = GST_CLOCK_TIME_NONE;
  /* in a branch of aooctsplit: the image goes where its group began */
  if (priv->has_seq)
    aooct_seq_meta_set_span (out, priv->first_seq, priv->last_seq,
        priv->first_index / group_size (self));
  GST_BUFFER_DURATION (out) = GST_CLOCK_TIME_IS_VALID (priv->bscan_duration) ?
      priv->bscan_duration * group_size (self) : GST_CLOCK_TIME_NONE;
  GST_BUFFER_OFFSET (out) = priv->groups;
  GST_BUFFER_OFFSET_END (out) = priv->groups + 1;
  if (priv->groups == 0)
    GST_BUFFER_FLAG_SET (out, GST_BUFFER_FLAG_DISCONT);
  GST_LOG_OBJECT (self, "group %" G_GUINT64_FORMAT " of %d B-scans at %"
      GST_TIME_FORMAT, priv->groups, priv->filled,
      GST_TIME_ARGS (priv->first_pts));
  ret = gst_aooct_filter_emit (filter, out);
  priv->groups++;
  priv->filled = 0;
  aooct_gap_reset (&priv->gap);
  return ret;
}

/* A partial group at EOS (@eos) or before new caps: its image, or
 * (aooctangio) nothing, with a warning at EOS. */
static void
end_partial_group (GstAooctGroup * self, gboolean eos)
{
  GstAooctGroupPrivate *priv = PRIV (self);

  if (GST_AOOCT_GROUP_GET_CLASS (self)->emit_partial) {
    emit_group (self);
    return;
  }
  if (priv->filled > 0 && eos)
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("end of stream in the "
            "middle of a group: %d B-scan(s) dropped, a group has %d",
            priv->filled, group_size (self)), (NULL));
  else if (priv->filled > 0)
    GST_INFO_OBJECT (self, "new caps: %d B-scan(s) of a partial group "
        "dropped", priv->filled);
  priv->filled = 0;
  aooct_gap_reset (&priv->gap);
}

/* The index of B-scan @b of a buffer at @pts in the stream (from its
 * start: stream time over a B-scan's duration), or -1 where the
 * timestamps do not tell. */
static gint64
stream_bscan (GstAooctGroup * self, GstClockTime pts, gint b)
{
  GstBaseTransform *bt = GST_BASE_TRANSFORM (self);
  GstAooctGroupPrivate *priv = PRIV (self);
  GstClockTime t;

  if (!GST_CLOCK_TIME_IS_VALID (pts) || bt->segment.format != GST_FORMAT_TIME
      || !GST_CLOCK_TIME_IS_VALID (priv->bscan_duration)
      || priv->bscan_duration == 0)
    return -1;
  t = gst_segment_to_stream_time (&bt->segment, GST_FORMAT_TIME, pts);
  if (!GST_CLOCK_TIME_IS_VALID (t))
    return -1;
  return (gint64) ((t + priv->bscan_duration / 2) / priv->bscan_duration) + b;
}

/* A group split between branches of aooctsplit (its B-scans on two
 * branches, or a branch starting in the middle of one): the images
 * would differ from one chain's, so none is made.  @why says which. */
static GstFlowReturn
group_refused (GstAooctGroup * self, gint n, gint bscans, const gchar * why)
{
  const gchar *prop = GST_AOOCT_GROUP_GET_CLASS (self)->group_property;

  GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s=%d inside a branch of "
          "aooctsplit needs each group of %d B-scans whole, in order, on "
          "one branch, but %s: set aooctsplit buffers-per-branch to a "
          "multiple of %d / %d B-scan(s) per buffer (with %d B-scans per "
          "buffer a group must not straddle two buffers of different "
          "branches), or put %s after aooctmerge "
          "(docs/scale-out.md)", prop ? prop : "group size", n, n, why, n,
          bscans, bscans, GST_OBJECT_NAME (self)), (NULL));
  return GST_FLOW_ERROR;
}

/* Every B-scan of the input into the group; an image whenever a group is
 * complete (pushed here: one input may end one group and start the next,
 * or end several).  *outbuf stays NULL.  An input that leaves a group
 * pending is followed by a GAP event at the group's first B-scan
 * (aooct-gap.h): downstream prerolls while the group fills, as a tee with
 * a B-scan branch needs. */
static GstFlowReturn
gst_aooct_group_generate_output (GstBaseTransform * bt, GstBuffer ** outbuf)
{
  GstAooctGroup *self = GST_AOOCT_GROUP (bt);
  GstAooctGroupClass *klass = GST_AOOCT_GROUP_GET_CLASS (self);
  GstAooctFilter *filter = GST_AOOCT_FILTER (bt);
  GstAooctGroupPrivate *priv = PRIV (self);
  GstBuffer *inbuf = bt->queued_buf;
  GstFlowReturn ret = GST_FLOW_OK;
  GstClockTime pts, dur;
  gint b = 0, bscans, n;
  guint64 pos = 0;
  gboolean numbered, in_order;

  *outbuf = NULL;
  if (inbuf == NULL)
    return GST_FLOW_OK;
  bt->queued_buf = NULL;
  gst_aooct_filter_sync_values (filter, inbuf);
  if (!filter->configured) {
    gst_buffer_unref (inbuf);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("received a buffer before caps were negotiated"), (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  n = group_size (self);
  bscans = filter->in_geom.bscans;
  pts = GST_BUFFER_PTS (inbuf);
  dur = GST_BUFFER_DURATION (inbuf);
  priv->bscan_duration = GST_CLOCK_TIME_IS_VALID (dur) ? dur / bscans :
      GST_CLOCK_TIME_NONE;
  /* in a branch of aooctsplit: a group continued from the last buffer
   * must go on with the stream's next one */
  in_order = aooct_seq_meta_follows (inbuf, priv->filled > 0,
      &priv->have_pos, &priv->next_pos, &pos);
  numbered = aooct_seq_meta_get_pos (inbuf, &pos);
  if (!in_order) {
    gst_buffer_unref (inbuf);
    return group_refused (self, n, bscans, "the rest of a group came "
        "from another branch");
  }
  while (b < bscans && ret == GST_FLOW_OK) {
    gint take = MIN (bscans - b, n - priv->filled);
    gint64 index;

    /* after a seek, the groups start where they start in the stream:
     * placed by their timestamps (aooctangio, realign_after_seek) */
    index = priv->filled == 0 && priv->by_time ? stream_bscan (self, pts, b)
        : -1;
    if (index >= 0 && index % n != 0) {
      if (numbered && !priv->after_seek) {
        gst_buffer_unref (inbuf);
        return group_refused (self, n, bscans, "a group would start in "
            "the middle of one");
      }
      priv->skipped++;
      b++;
      continue;
    }
    if (priv->filled == 0 && priv->after_seek) {
      if (index < 0)
        GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("after a seek, groups "
                "of %s=%d count from the first B-scan after it: where that "
                "is not a group's first, each image mixes two positions (the "
                "B-scans carry no timestamps that would place them); seek to "
                "a multiple of %d B-scans", klass->group_property, n, n),
            (NULL));
      else if (priv->skipped > 0)
        GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("a seek into the "
                "middle of a group of %s=%d: the %d B-scan(s) before B-scan %"
                G_GINT64_FORMAT " of the stream (the next group's first) "
                "were skipped, so that each image is made of one group, as "
                "without the seek", klass->group_property, n, priv->skipped,
                index), (NULL));
      priv->after_seek = FALSE;
    }
    if (priv->filled == 0) {
      /* the group's timestamp: its first B-scan's */
      priv->first_pts = !GST_CLOCK_TIME_IS_VALID (pts) ? pts :
          GST_CLOCK_TIME_IS_VALID (priv->bscan_duration) ?
          pts + b * priv->bscan_duration : pts;
      priv->has_seq = aooct_seq_meta_get (inbuf, &priv->first_seq);
      if (priv->has_seq)
        aooct_gap_number (&priv->gap, priv->first_seq);
      /* ... and a group starts where one chain would start it (after a
       * realignment: where it did) */
      priv->first_index = pos * bscans + b;
      if (numbered && index < 0 && priv->first_index % n != 0) {
        gst_buffer_unref (inbuf);
        return group_refused (self, n, bscans, "a group would start in "
            "the middle of one");
      }
      if (klass->group_start)
        klass->group_start (self);
    }
    if (priv->has_seq) {
      guint64 first;

      aooct_seq_meta_get_span (inbuf, &first, &priv->last_seq);
    }
    priv->call.first = priv->filled;
    priv->call.count = take;
    priv->call.in_row = b * filter->in_geom.alines;
    priv->call.filled = priv->filled;
    ret = gst_aooct_filter_collect (filter, inbuf);
    if (ret != GST_FLOW_OK)
      break;
    priv->filled += take;
    b += take;
    aooct_gap_take (&priv->gap, priv->first_pts);
    if (priv->filled == n)
      ret = emit_group (self);
  }
  gst_buffer_unref (inbuf);
  if (ret == GST_FLOW_OK && priv->filled > 0) {
    GstEvent *gap = aooct_gap_event (&priv->gap);

    if (gap)
      gst_aooct_filter_push_event (filter, gap);
  }
  return ret;
}

/* A documented bypass of the step contract (docs/architecture.md, "The
 * base class in layers"), as generate_output above: a group spans
 * buffers, so the events that end or void a group (EOS: the partial group
 * out or dropped; new caps; a flush; a GAP from upstream while a group is
 * pending) are the group's, seen before GstBaseTransform's own handling.
 * The step's plan knows none of it (its reset at FLUSH_STOP is the base
 * class's). */
static gboolean
gst_aooct_group_sink_event (GstBaseTransform * bt, GstEvent * event)
{
  GstAooctGroup *self = GST_AOOCT_GROUP (bt);
  GstAooctGroupPrivate *priv = PRIV (self);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_EOS:
      end_partial_group (self, TRUE);
      break;
    case GST_EVENT_CAPS:
      /* the partial group belongs to the old caps: out (or dropped)
       * before them; counting starts over */
      if (GST_AOOCT_FILTER (self)->configured) {
        GstCaps *caps, *cur =
            gst_pad_get_current_caps (GST_BASE_TRANSFORM_SINK_PAD (bt));

        gst_event_parse_caps (event, &caps);
        if (cur == NULL || !gst_caps_is_equal (caps, cur)) {
          end_partial_group (self, FALSE);
          priv->have_pos = FALSE;
          priv->by_time = FALSE;
        }
        gst_clear_caps (&cur);
      }
      break;
    case GST_EVENT_FLUSH_STOP:
      priv->filled = 0;
      priv->have_pos = FALSE;
      priv->after_seek = GST_AOOCT_GROUP_GET_CLASS (self)->realign_after_seek;
      priv->by_time = priv->after_seek;
      priv->skipped = 0;
      aooct_gap_reset (&priv->gap);
      break;
    case GST_EVENT_GAP:
      /* no B-scans for a while: with a group pending, downstream hears
       * only that nothing comes before its image */
      event = aooct_gap_from_upstream (&priv->gap, event);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (bt, event);
}

/* aooctsplit's question (aooct-group-query.h): the run of input buffers
 * that holds whole groups, for downstream's run of our images */
static gboolean
gst_aooct_group_query (GstBaseTransform * bt, GstPadDirection direction,
    GstQuery * query)
{
  GstAooctFilter *filter = GST_AOOCT_FILTER (bt);

  if (direction == GST_PAD_SINK && GST_QUERY_TYPE (query) == AOOCT_GROUP_QUERY) {
    gst_pad_peer_query (GST_BASE_TRANSFORM_SRC_PAD (bt), query);
    if (filter->configured)
      aooct_group_query_answer (query, group_size (GST_AOOCT_GROUP (bt)),
          filter->in_geom.bscans);
    return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->query (bt, direction, query);
}

/* the base class's start hook: every run counts its groups afresh */
static gboolean
gst_aooct_group_start (GstAooctFilter * filter, GError ** error)
{
  GstAooctGroupPrivate *priv = PRIV (GST_AOOCT_GROUP (filter));

  priv->filled = 0;
  priv->groups = 0;
  priv->have_pos = FALSE;
  priv->after_seek = priv->by_time = FALSE;
  priv->skipped = 0;
  aooct_gap_reset (&priv->gap);
  return TRUE;
}

static void
gst_aooct_group_class_init (GstAooctGroupClass * klass)
{
  GstBaseTransformClass *bt_class = GST_BASE_TRANSFORM_CLASS (klass);

  bt_class->generate_output =
      GST_DEBUG_FUNCPTR (gst_aooct_group_generate_output);
  bt_class->sink_event = GST_DEBUG_FUNCPTR (gst_aooct_group_sink_event);
  GST_AOOCT_FILTER_CLASS (klass)->start =
      GST_DEBUG_FUNCPTR (gst_aooct_group_start);
  bt_class->query = GST_DEBUG_FUNCPTR (gst_aooct_group_query);
  GST_AOOCT_FILTER_CLASS (klass)->src_is_video = TRUE;
}

static void
gst_aooct_group_init (GstAooctGroup * self)
{
  GstAooctGroupPrivate *priv = PRIV (self);

  priv->first_pts = GST_CLOCK_TIME_NONE;
  priv->bscan_duration = GST_CLOCK_TIME_NONE;
  aooct_gap_reset (&priv->gap);
}
