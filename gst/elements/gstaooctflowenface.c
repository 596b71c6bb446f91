/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctflowenface
 * @title: aooctflowenface
 * @short_description: the en-face image of a volume of flow images
 *
 * aooctenface projects depth-domain B-scans; angiograms and Doppler
 * images are display images already (aooctangio, aooctdoppler: GRAY8 or
 * GRAY16_LE, one row per depth bin of their crop, one column per A-line).
 * This element makes the en-face image of a volume of them: image v of
 * the volume (v = 0 .. bscans-per-volume - 1) becomes row v, whose pixel m
 * is the maximum (`projection=max`, default: a vessel is a few rows of a
 * slab) or the mean (`mean`, rounded to the nearest grey level) of column
 * m over the image rows [crop-start, crop-end) (the slab: the retinal
 * layers whose plexus you want; crop-end 0 = the image height).  The grey
 * levels keep their meaning (decorrelation / decorrelation-max, or the
 * Doppler phase with 128 for none): nothing is renormalised.  The output
 * is M wide and bscans-per-volume high, in the input's format, with the
 * timestamp of the volume's first image, at the input rate divided by
 * bscans-per-volume.  At EOS and before new caps a partial volume comes
 * out with the rows it has, the others black (as aooctenface's); a flush
 * drops it.  Every property may change while playing and applies from
 * the next volume (a new bscans-per-volume renegotiates the height).
 * While a volume fills, a GAP event (start, 0) at the volume's timestamp
 * follows every image (aooct-gap.h, as aooctangio and aooctenface do): a
 * sink behind a tee prerolls, and compositor goes on.
 *
 * For aooctangio, a volume of bscans-per-volume positions is that many
 * angiograms: the scanner's B-scans per volume divided by repeats.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=480 vessel-count=2 speckle-width=3 \
 *     repeats=4 bscans-per-volume=120 ! aooctdcsub ! aooctpad ! \
 *     aooctkmap wavelength-coeffs="785,0.125,1e-05,-2e-09" ! \
 *     aooctdisp a2=8 a3=-2 ! aooctfft ! aooctangio repeats=4 \
 *     crop-start=60 crop-end=120 ! \
 *     aooctflowenface bscans-per-volume=120 ! pngenc ! \
 *     filesink location=enface-angio.png
 * ]| writes the en-face angiogram of the inner retina (depth bins
 * 60 .. 119) of one volume of 120 positions.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gst/video/video.h>

#include "gstaooctflowenface.h"
#include "aooct-gap.h"
#include "aooct-seq-meta.h"
#include "aooct-group-query.h"

GST_DEBUG_CATEGORY_STATIC (gst_aooct_flow_enface_debug);
#define GST_CAT_DEFAULT gst_aooct_flow_enface_debug

typedef enum
{
  FLOW_ENFACE_MAX,
  FLOW_ENFACE_MEAN
} FlowEnfaceProjection;

#define DEFAULT_VOLUME 100
#define DEFAULT_PROJECTION FLOW_ENFACE_MAX

struct _GstAooctFlowEnface
{
  GstElement parent;

  GstPad *sinkpad, *srcpad;

  /* properties, under the object lock */
  gint volume;
  gint crop_start, crop_end;
  FlowEnfaceProjection projection;

  /* streaming thread */
  GstVideoInfo in_info;         /* the input's, from its caps */
  gboolean have_caps;
  GstVideoInfo out_info;        /* the output caps sent, if out_caps_sent */
  gboolean out_caps_sent;
  /* the volume being filled: settings fixed at its first image */
  GstBuffer *image;
  gint filled, rows_from, rows_to;
  FlowEnfaceProjection active_projection;
  GstClockTime first_pts, end_time;
  /* in a branch of aooctsplit (aooct-seq-meta.h): the volume's first
   * image's number and position, the position expected next */
  gboolean has_seq, have_pos;
  guint64 first_seq, last_seq, first_pos, next_pos;
  AooctGap gap;                 /* the span the pending volume covers */
};

enum
{
  PROP_0,
  PROP_BSCANS_PER_VOLUME,
  PROP_CROP_START,
  PROP_CROP_END,
  PROP_PROJECTION,
};

#define GST_TYPE_AOOCT_FLOW_ENFACE_PROJECTION \
  (gst_aooct_flow_enface_projection_get_type ())
static GType
gst_aooct_flow_enface_projection_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {FLOW_ENFACE_MAX, "Maximum grey level over the rows of the slab", "max"},
    {FLOW_ENFACE_MEAN, "Mean grey level over the rows of the slab", "mean"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstAooctFlowEnfaceProjection", values);
    g_once_init_leave (&type, t);
  }
  return type;
}

#define gst_aooct_flow_enface_parent_class parent_class
G_DEFINE_TYPE (GstAooctFlowEnface, gst_aooct_flow_enface, GST_TYPE_ELEMENT);
GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctflowenface, "aooctflowenface",
    GST_RANK_NONE, GST_TYPE_AOOCT_FLOW_ENFACE,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_flow_enface_debug, "aooctflowenface",
        0, "aooct en-face image of flow images"));

#define FLOW_ENFACE_CAPS "video/x-raw, format = (string) { GRAY8, GRAY16_LE }, " \
  "width = (int) [ 1, MAX ], height = (int) [ 1, MAX ], " \
  "framerate = (fraction) [ 0/1, MAX ]"

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (FLOW_ENFACE_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (FLOW_ENFACE_CAPS));

/* ---- the projection ----------------------------------------------------- */

/* Row @v of @out: column m's maximum or rounded mean over rows
 * [from, to) of @in (same format). */
static void
project (const GstVideoFrame * in, GstVideoFrame * out, gint v, gint from,
    gint to, FlowEnfaceProjection projection)
{
  gint width = GST_VIDEO_FRAME_WIDTH (in), m, r;
  gboolean wide = GST_VIDEO_FRAME_FORMAT (in) == GST_VIDEO_FORMAT_GRAY16_LE;
  const guint8 *src = GST_VIDEO_FRAME_PLANE_DATA (in, 0);
  gint in_stride = GST_VIDEO_FRAME_PLANE_STRIDE (in, 0);
  guint8 *dst = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (out, 0) +
      (gsize) v * GST_VIDEO_FRAME_PLANE_STRIDE (out, 0);

  for (m = 0; m < width; m++) {
    guint64 sum = 0;
    guint max = 0;

    for (r = from; r < to; r++) {
      const guint8 *row = src + (gsize) r * in_stride;
      guint g = wide ? GST_READ_UINT16_LE (row + 2 * m) : row[m];

      sum += g;
      max = MAX (max, g);
    }
    /* the mean rounded half up, in integers: floor ((2 sum + n) / 2n) */
    if (projection == FLOW_ENFACE_MEAN)
      max = (guint) ((2 * sum + (to - from)) / (2 * (guint64) (to - from)));
    if (wide)
      GST_WRITE_UINT16_LE (dst + 2 * m, max);
    else
      dst[m] = max;
  }
}

/* ---- volumes ------------------------------------------------------------ */

static void
drop_volume (GstAooctFlowEnface * self)
{
  gst_clear_buffer (&self->image);
  self->filled = 0;
  aooct_gap_reset (&self->gap);
}

/* Pushes the volume being filled (partial: its missing rows black). */
static GstFlowReturn
push_volume (GstAooctFlowEnface * self)
{
  GstBuffer *buf = self->image;

  self->image = NULL;
  aooct_gap_reset (&self->gap);
  if (buf == NULL)
    return GST_FLOW_OK;
  if (self->filled < self->out_info.height)
    GST_INFO_OBJECT (self, "partial volume: %d of %d images", self->filled,
        self->out_info.height);
  self->filled = 0;
  /* in a branch: the image goes where its volume began */
  if (self->has_seq)
    aooct_seq_meta_set_span (buf, self->first_seq, self->last_seq,
        self->first_pos / self->out_info.height);
  GST_BUFFER_PTS (buf) = self->first_pts;
  GST_BUFFER_DURATION (buf) = GST_CLOCK_TIME_IS_VALID (self->first_pts) &&
      GST_CLOCK_TIME_IS_VALID (self->end_time) && self->end_time >=
      self->first_pts ? self->end_time - self->first_pts : GST_CLOCK_TIME_NONE;
  return gst_pad_push (self->srcpad, buf);
}

/* Output caps for the input's and bscans-per-volume @v, sent when they
 * differ from those sent before. */
static gboolean
update_out_caps (GstAooctFlowEnface * self, gint v)
{
  GstVideoInfo out = self->in_info;
  GstCaps *caps;
  gboolean ok;

  gst_video_info_set_format (&out, GST_VIDEO_INFO_FORMAT (&self->in_info),
      GST_VIDEO_INFO_WIDTH (&self->in_info), v);
  out.fps_n = 0;
  out.fps_d = 1;
  if (self->in_info.fps_n > 0 && !gst_util_fraction_multiply
      (self->in_info.fps_n, self->in_info.fps_d, 1, v, &out.fps_n,
          &out.fps_d)) {
    out.fps_n = 0;
    out.fps_d = 1;
  }
  if (self->out_caps_sent && gst_video_info_is_equal (&out, &self->out_info))
    return TRUE;
  caps = gst_video_info_to_caps (&out);
  ok = gst_pad_set_caps (self->srcpad, caps);
  gst_caps_unref (caps);
  if (!ok) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("downstream refused the "
            "en-face image of %d x %d", out.width, out.height), (NULL));
    return FALSE;
  }
  self->out_info = out;
  self->out_caps_sent = TRUE;
  return TRUE;
}

static gint
volume_setting (GstAooctFlowEnface * self)
{
  gint v;

  GST_OBJECT_LOCK (self);
  v = self->volume;
  GST_OBJECT_UNLOCK (self);
  return v;
}

/* The settings of a new volume: the properties now, checked against the
 * input; new output caps if bscans-per-volume changed. */
static gboolean
begin_volume (GstAooctFlowEnface * self)
{
  gint v, from, to, height = GST_VIDEO_INFO_HEIGHT (&self->in_info);
  GstBuffer *buf;
  GstMapInfo map;

  GST_OBJECT_LOCK (self);
  v = self->volume;
  from = self->crop_start;
  to = self->crop_end ? self->crop_end : height;
  self->active_projection = self->projection;
  GST_OBJECT_UNLOCK (self);

  if (to > height || from >= to) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("crop-start=%d crop-end=%d "
            "does not fit images of %d rows: expected 0 <= crop-start < "
            "crop-end <= %d (crop-end 0 = all rows)", from,
            to == height ? 0 : to, height, height), (NULL));
    return FALSE;
  }
  self->rows_from = from;
  self->rows_to = to;
  if (!update_out_caps (self, v))
    return FALSE;

  buf = gst_buffer_new_allocate (NULL, self->out_info.size, NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  memset (map.data, 0, map.size);
  gst_buffer_unmap (buf, &map);
  self->image = buf;
  self->filled = 0;
  return TRUE;
}

/* A volume split between branches of aooctsplit: its image would differ
 * from one chain's (@why says how). */
static GstFlowReturn
refuse_split (GstAooctFlowEnface * self, GstBuffer * inbuf, const gchar * why)
{
  gst_buffer_unref (inbuf);
  GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("bscans-per-volume=%d inside a "
          "branch of aooctsplit needs each volume's %d images whole, in "
          "order, on one branch, but %s: set aooctsplit buffers-per-branch "
          "to the buffers of a volume (the scanner's B-scans per volume / "
          "B-scans per buffer), or put %s after aooctmerge "
          "(docs/scale-out.md)", self->out_info.height,
          self->out_info.height, why, GST_OBJECT_NAME (self)), (NULL));
  return GST_FLOW_ERROR;
}

static GstFlowReturn
gst_aooct_flow_enface_chain (GstPad * pad, GstObject * parent,
    GstBuffer * inbuf)
{
  GstAooctFlowEnface *self = GST_AOOCT_FLOW_ENFACE (parent);
  GstVideoFrame in, out;
  GstFlowReturn ret = GST_FLOW_OK;
  GstEvent *gap;
  guint64 pos = 0;

  if (!self->have_caps) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("an image came before its "
            "caps"), (NULL));
    gst_buffer_unref (inbuf);
    return GST_FLOW_NOT_NEGOTIATED;
  }
  /* in a branch of aooctsplit, a volume must be the stream's images in
   * order, from a volume's start, as one chain makes it */
  if (!aooct_seq_meta_follows (inbuf, self->image != NULL, &self->have_pos,
          &self->next_pos, &pos))
    return refuse_split (self, inbuf, "the rest of a volume came from "
        "another branch");
  if (self->image == NULL) {
    if (!begin_volume (self)) {
      gst_buffer_unref (inbuf);
      return GST_FLOW_ERROR;
    }
    self->first_pts = GST_BUFFER_PTS (inbuf);
    self->has_seq = aooct_seq_meta_get (inbuf, &self->first_seq);
    if (self->has_seq)
      aooct_gap_number (&self->gap, self->first_seq);
    self->first_pos = pos;
    if (self->has_seq && pos % self->out_info.height != 0)
      return refuse_split (self, inbuf, "a volume would start in the middle "
          "of one");
  }
  if (self->has_seq) {
    guint64 first;

    aooct_seq_meta_get_span (inbuf, &first, &self->last_seq);
  }
  if (!gst_video_frame_map (&in, &self->in_info, inbuf, GST_MAP_READ)) {
    GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("an image of %" G_GSIZE_FORMAT
            " bytes where its caps say %" G_GSIZE_FORMAT,
            gst_buffer_get_size (inbuf), self->in_info.size), (NULL));
    gst_buffer_unref (inbuf);
    return GST_FLOW_ERROR;
  }
  if (!gst_video_frame_map (&out, &self->out_info, self->image, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&in);
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, ("cannot map the en-face "
            "image"), (NULL));
    gst_buffer_unref (inbuf);
    return GST_FLOW_ERROR;
  }
  project (&in, &out, self->filled, self->rows_from, self->rows_to,
      self->active_projection);
  gst_video_frame_unmap (&out);
  gst_video_frame_unmap (&in);

  self->end_time = GST_BUFFER_PTS_IS_VALID (inbuf) ? GST_BUFFER_PTS (inbuf) +
      (GST_BUFFER_DURATION_IS_VALID (inbuf) ? GST_BUFFER_DURATION (inbuf) :
      0) : GST_CLOCK_TIME_NONE;
  aooct_gap_take (&self->gap, self->first_pts);
  gst_buffer_unref (inbuf);
  if (++self->filled == self->out_info.height)
    ret = push_volume (self);
  else if ((gap = aooct_gap_event (&self->gap)))
    /* the volume pending: tell downstream there is nothing before its image
     * (aooct-gap.h, the aooct rule for elements that collect) */
    gst_pad_push_event (self->srcpad, gap);
  return ret;
}

/* Caps the sink takes given what downstream takes: its formats, any
 * size and rate. */
static GstCaps *
sink_caps (GstAooctFlowEnface * self, GstCaps * filter)
{
  GstCaps *templ = gst_pad_get_pad_template_caps (self->sinkpad);
  GstCaps *peer = gst_pad_peer_query_caps (self->srcpad, NULL);
  GstCaps *caps, *result;
  guint i;

  caps = gst_caps_make_writable (peer);
  for (i = 0; i < gst_caps_get_size (caps); i++)
    gst_structure_remove_fields (gst_caps_get_structure (caps, i), "width",
        "height", "framerate", NULL);
  result = gst_caps_intersect (caps, templ);
  gst_caps_unref (caps);
  gst_caps_unref (templ);
  if (filter) {
    caps = gst_caps_intersect_full (filter, result, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref (result);
    result = caps;
  }
  return result;
}

static gboolean
gst_aooct_flow_enface_sink_query (GstPad * pad, GstObject * parent,
    GstQuery * query)
{
  GstAooctFlowEnface *self = GST_AOOCT_FLOW_ENFACE (parent);

  /* aooctsplit's question (aooct-group-query.h): volumes of images */
  if (GST_QUERY_TYPE (query) == AOOCT_GROUP_QUERY) {
    gst_pad_peer_query (self->srcpad, query);
    aooct_group_query_answer (query, volume_setting (self), 1);
    return TRUE;
  }
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS) {
    GstCaps *filter, *caps;

    gst_query_parse_caps (query, &filter);
    caps = sink_caps (self, filter);
    gst_query_set_caps_result (query, caps);
    gst_caps_unref (caps);
    return TRUE;
  }
  if (GST_QUERY_TYPE (query) == GST_QUERY_ACCEPT_CAPS) {
    GstCaps *caps, *ours;

    gst_query_parse_accept_caps (query, &caps);
    ours = sink_caps (self, NULL);
    gst_query_set_accept_caps_result (query, gst_caps_can_intersect (caps,
            ours));
    gst_caps_unref (ours);
    return TRUE;
  }
  return gst_pad_query_default (pad, parent, query);
}

static gboolean
gst_aooct_flow_enface_sink_event (GstPad * pad, GstObject * parent,
    GstEvent * event)
{
  GstAooctFlowEnface *self = GST_AOOCT_FLOW_ENFACE (parent);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_CAPS:{
      GstCaps *caps;
      GstVideoInfo info;

      gst_event_parse_caps (event, &caps);
      if (!gst_video_info_from_caps (&info, caps)) {
        GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("caps %" GST_PTR_FORMAT
                " are not GRAY8 or GRAY16_LE images", caps), (NULL));
        gst_event_unref (event);
        return FALSE;
      }
      /* the volume so far belongs to the old caps */
      if (self->have_caps && !gst_video_info_is_equal (&info, &self->in_info)) {
        if (self->image)
          push_volume (self);
        self->have_pos = FALSE;
      }
      self->in_info = info;
      self->have_caps = TRUE;
      gst_event_unref (event);
      /* ours: the en-face image's (again at a volume whose
       * bscans-per-volume changed) */
      return update_out_caps (self, volume_setting (self));
    }
    case GST_EVENT_EOS:
      if (self->image)
        push_volume (self);
      break;
    case GST_EVENT_FLUSH_STOP:
      drop_volume (self);
      self->have_pos = FALSE;
      break;
    case GST_EVENT_GAP:
      /* upstream's GAP (aooctangio's while a group fills) */
      if (self->image)
        event = aooct_gap_from_upstream (&self->gap, event);
      break;
    default:
      break;
  }
  return gst_pad_event_default (pad, parent, event);
}

static GstStateChangeReturn
gst_aooct_flow_enface_change_state (GstElement * element,
    GstStateChange transition)
{
  GstAooctFlowEnface *self = GST_AOOCT_FLOW_ENFACE (element);
  GstStateChangeReturn ret;

  ret = GST_ELEMENT_CLASS (parent_class)->change_state (element, transition);
  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY) {
    drop_volume (self);
    self->have_pos = FALSE;
    self->have_caps = FALSE;
    self->out_caps_sent = FALSE;
  }
  return ret;
}

/* ---- properties --------------------------------------------------------- */

static void
gst_aooct_flow_enface_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctFlowEnface *self = GST_AOOCT_FLOW_ENFACE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BSCANS_PER_VOLUME:
      self->volume = g_value_get_int (value);
      break;
    case PROP_CROP_START:
      self->crop_start = g_value_get_int (value);
      break;
    case PROP_CROP_END:
      self->crop_end = g_value_get_int (value);
      break;
    case PROP_PROJECTION:
      self->projection = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_flow_enface_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctFlowEnface *self = GST_AOOCT_FLOW_ENFACE (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_BSCANS_PER_VOLUME:
      g_value_set_int (value, self->volume);
      break;
    case PROP_CROP_START:
      g_value_set_int (value, self->crop_start);
      break;
    case PROP_CROP_END:
      g_value_set_int (value, self->crop_end);
      break;
    case PROP_PROJECTION:
      g_value_set_enum (value, self->projection);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_aooct_flow_enface_finalize (GObject * object)
{
  drop_volume (GST_AOOCT_FLOW_ENFACE (object));
  G_OBJECT_CLASS (parent_class)->finalize (object);
}

#define PLAYING_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_PLAYING)

static void
gst_aooct_flow_enface_class_init (GstAooctFlowEnfaceClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gobject_class->set_property = gst_aooct_flow_enface_set_property;
  gobject_class->get_property = gst_aooct_flow_enface_get_property;
  gobject_class->finalize = gst_aooct_flow_enface_finalize;
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_aooct_flow_enface_change_state);

  /**
   * GstAooctFlowEnface:bscans-per-volume:
   *
   * Images per volume V, the en-face image's height (for aooctangio: the
   * scanner's B-scans per volume divided by repeats); 1..65536, default
   * 100
   */
  g_object_class_install_property (gobject_class, PROP_BSCANS_PER_VOLUME,
      g_param_spec_int ("bscans-per-volume", "Images per volume",
          "Images per volume V, the en-face image's height (for aooctangio: "
          "the scanner's B-scans per volume divided by repeats); 1..65536, "
          "default 100", 1, 65536, DEFAULT_VOLUME, PLAYING_FLAGS));
  /**
   * GstAooctFlowEnface:crop-start:
   *
   * First image row of the slab projected (row r of aooctangio's image is
   * depth bin its crop-start + r), default 0
   */
  g_object_class_install_property (gobject_class, PROP_CROP_START,
      g_param_spec_int ("crop-start", "Crop start",
          "First image row of the slab projected (row r of aooctangio's "
          "image is depth bin its crop-start + r), default 0", 0, G_MAXINT,
          0, PLAYING_FLAGS));
  /**
   * GstAooctFlowEnface:crop-end:
   *
   * Image row after the last one of the slab, at most the image height; 0
   * (default) = the image height
   */
  g_object_class_install_property (gobject_class, PROP_CROP_END,
      g_param_spec_int ("crop-end", "Crop end",
          "Image row after the last one of the slab, at most the image "
          "height; 0 (default) = the image height", 0, G_MAXINT, 0,
          PLAYING_FLAGS));
  /**
   * GstAooctFlowEnface:projection:
   *
   * How a column of the slab becomes one pixel: its maximum (default) or
   * its mean grey level
   */
  g_object_class_install_property (gobject_class, PROP_PROJECTION,
      g_param_spec_enum ("projection", "Projection",
          "How a column of the slab becomes one pixel: its maximum (default) "
          "or its mean grey level", GST_TYPE_AOOCT_FLOW_ENFACE_PROJECTION,
          DEFAULT_PROJECTION, PLAYING_FLAGS));

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "AO-OCT en-face image of flow images", "Filter/Converter/Video",
      "Projects each image of a volume of angiograms (or Doppler images) "
      "over a slab of rows into one row of an en-face image",
      "aooct developers");
  gst_type_mark_as_plugin_api (GST_TYPE_AOOCT_FLOW_ENFACE_PROJECTION, 0);
}

static void
gst_aooct_flow_enface_init (GstAooctFlowEnface * self)
{
  self->sinkpad = gst_pad_new_from_static_template (&sink_template, "sink");
  gst_pad_set_chain_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_aooct_flow_enface_chain));
  gst_pad_set_event_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_aooct_flow_enface_sink_event));
  gst_pad_set_query_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_aooct_flow_enface_sink_query));
  gst_element_add_pad (GST_ELEMENT (self), self->sinkpad);
  self->srcpad = gst_pad_new_from_static_template (&src_template, "src");
  gst_pad_use_fixed_caps (self->srcpad);
  gst_element_add_pad (GST_ELEMENT (self), self->srcpad);

  self->volume = DEFAULT_VOLUME;
  self->projection = DEFAULT_PROJECTION;
}
