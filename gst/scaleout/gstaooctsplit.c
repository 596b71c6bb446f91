/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctsplit
 * @title: aooctsplit
 * @short_description: whole buffers handed round-robin to N branches
 *
 * The first half of a pair around any aooct chain that runs it on several
 * GPUs of one host (docs/scale-out.md): each input buffer goes whole to
 * one of the request pads src_%u in turn, with its position in the
 * stream (a sequence number, from 0 after start and after each flush,
 * and the position since the last new caps) in a meta that the aooct
 * elements carry over onto their outputs; aooctmerge puts the branches'
 * outputs back into that order.  Each branch gets buffers-per-branch
 * buffers in a row; by default (0) as many as hold whole groups of the
 * elements that make one image of several B-scans in the branches
 * (aooctangio, the volume views, aooctflowenface), asked of the branches
 * with a serialized query at the start, after a flush and at new caps
 * (aooct-group-query.h), else 1.  An element that needs the stream in
 * order (a rolling mean, an average over B-scans) or whole groups checks
 * the position and refuses, naming its setting, what would give other
 * images than one chain (docs/scale-out.md).  New caps start the
 * positions and the runs over.  Each branch starts with a
 * queue (its own streaming thread) and pins its elements to a GPU with
 * cuda-device-id.  aooctbin gpus=0,1 builds the same pair around the six
 * elements of the chain.
 *
 * Events from upstream (caps, segment, EOS, flushes, custom ones) go to
 * every branch, in their place between the buffers.  A seek from the
 * branches goes upstream once (the same seek seen again on another branch
 * is answered as the first was).  An allocation query is asked of every
 * branch: upstream gets the first branch's pools (aooctdcsub's page-locked
 * pool on CUDA, portable memory that every GPU reads in place) with the
 * branches' buffer counts added up, since each branch holds its own
 * buffers, and the metas that every branch accepts.
 *
 * What GStreamer has does not do this: roundrobin (gst-plugins-bad's rist
 * plugin) numbers nothing and asks only one branch for its allocation,
 * tee gives every buffer to every branch.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=100 ! aooctsplit name=s \
 *     aooctmerge name=m ! videoconvert ! autovideosink \
 *     s. ! queue ! aooctdcsub cuda-device-id=0 ! aooctcs cuda-device-id=0 ! \
 *         aooctnorm cuda-device-id=0 ! m. \
 *     s. ! queue ! aooctdcsub cuda-device-id=1 ! aooctcs cuda-device-id=1 ! \
 *         aooctnorm cuda-device-id=1 ! m.
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctsplit.h"
#include "aooct-seq-meta.h"
#include "aooct-group-query.h"

GST_DEBUG_CATEGORY_STATIC (gst_aooct_split_debug);
#define GST_CAT_DEFAULT gst_aooct_split_debug

struct _GstAooctSplit
{
  GstElement parent;

  GstPad *sinkpad;
  /* under the object lock: */
  GPtrArray *srcpads;           /* GstPad, in the order requested */
  guint next_pad;               /* index of the next number in srcpads */
  guint pad_counter;            /* for the names of new pads */
  guint chunk;                  /* buffers-per-branch in use */
  guint chunk_set;              /* buffers-per-branch as set: in use from
                                 * the start of the next run; 0: auto */
  guint chunk_auto;             /* the branches' answer (auto) */
  gboolean ask;                 /* ask the branches before the next buffer */
  guint in_chunk;               /* of them handed to srcpads[next_pad] */
  guint64 next_seq;
  guint64 origin;               /* next_seq at the last new caps */
  guint32 seek_seqnum;          /* the last seek sent upstream */
  gboolean seek_result;
};

enum
{
  PROP_0,
  PROP_BUFFERS_PER_BRANCH
};

G_DEFINE_TYPE (GstAooctSplit, gst_aooct_split, GST_TYPE_ELEMENT);

GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctsplit, "aooctsplit",
    GST_RANK_NONE, GST_TYPE_AOOCT_SPLIT,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_split_debug, "aooctsplit", 0,
        "aooct round-robin over branches"));

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src_%u",
    GST_PAD_SRC, GST_PAD_REQUEST, GST_STATIC_CAPS_ANY);

/* buffers-per-branch=0: the run every branch needs for whole groups
 * (aooct-group-query.h), the least common multiple of their answers. */
static guint
ask_branches (GstAooctSplit * self)
{
  GPtrArray *pads = g_ptr_array_new_with_free_func (gst_object_unref);
  guint64 run = 1;
  guint i;

  GST_OBJECT_LOCK (self);
  for (i = 0; i < self->srcpads->len; i++)
    g_ptr_array_add (pads, gst_object_ref (g_ptr_array_index (self->srcpads,
                i)));
  GST_OBJECT_UNLOCK (self);
  for (i = 0; i < pads->len; i++) {
    GstQuery *q = aooct_group_query_new ();
    guint64 k = gst_pad_peer_query (g_ptr_array_index (pads, i), q) ?
        aooct_group_query_buffers (q) : 1, a = run, b = k;

    while (b) {
      guint64 t = a % b;

      a = b;
      b = t;
    }
    run = MIN (run / a * k, G_MAXUINT);
    gst_query_unref (q);
  }
  g_ptr_array_unref (pads);
  GST_DEBUG_OBJECT (self, "the branches need runs of %" G_GUINT64_FORMAT
      " buffer(s)", run);
  return (guint) run;
}

static GstFlowReturn
gst_aooct_split_chain (GstPad * pad, GstObject * parent, GstBuffer * buf)
{
  GstAooctSplit *self = GST_AOOCT_SPLIT (parent);
  GstPad *out = NULL;
  guint64 seq = 0, origin = 0;

  GST_OBJECT_LOCK (self);
  if (self->chunk_set == 0 && self->ask) {
    guint run;

    self->ask = FALSE;
    GST_OBJECT_UNLOCK (self);
    run = ask_branches (self);
    GST_OBJECT_LOCK (self);
    self->chunk_auto = run;
  }
  if (self->in_chunk == 0)
    self->chunk = self->chunk_set ? self->chunk_set : self->chunk_auto;
  if (self->srcpads->len > 0) {
    out = gst_object_ref (g_ptr_array_index (self->srcpads,
            self->next_pad % self->srcpads->len));
    if (++self->in_chunk >= self->chunk) {
      self->next_pad = (self->next_pad + 1) % self->srcpads->len;
      self->in_chunk = 0;
    }
    seq = self->next_seq++;
    origin = self->origin;
  }
  GST_OBJECT_UNLOCK (self);
  if (out == NULL) {
    gst_buffer_unref (buf);
    GST_ELEMENT_ERROR (self, CORE, PAD, ("aooctsplit has no branch: "
            "request src pads (s. ! queue ! ... in gst-launch-1.0)"), (NULL));
    return GST_FLOW_NOT_LINKED;
  }
  /* a new GstBuffer only where somebody else holds this one: the memory
   * (a page-locked pool's) is shared, not copied */
  buf = gst_buffer_make_writable (buf);
  aooct_seq_meta_set (buf, seq, seq - origin);
  GST_LOG_OBJECT (self, "buffer %" G_GUINT64_FORMAT " to %s:%s", seq,
      GST_DEBUG_PAD_NAME (out));
  {
    GstFlowReturn ret = gst_pad_push (out, buf);

    gst_object_unref (out);
    return ret;
  }
}

static gboolean
gst_aooct_split_sink_event (GstPad * pad, GstObject * parent, GstEvent * event)
{
  GstAooctSplit *self = GST_AOOCT_SPLIT (parent);

  /* numbers start over with the stream after a flush, as aooctmerge's */
  if (GST_EVENT_TYPE (event) == GST_EVENT_FLUSH_STOP) {
    GST_OBJECT_LOCK (self);
    self->next_seq = 0;
    self->origin = 0;
    self->next_pad = 0;
    self->in_chunk = 0;
    self->ask = TRUE;
    GST_OBJECT_UNLOCK (self);
  } else if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    GstCaps *caps, *cur = gst_pad_get_current_caps (pad);

    gst_event_parse_caps (event, &caps);
    /* new caps start the elements' counts over (a group, a volume, a
     * rolling mean): positions count from here, and a branch's run of
     * buffers-per-branch starts here, so that a volume stays whole */
    if (cur == NULL || !gst_caps_is_equal (caps, cur)) {
      GST_OBJECT_LOCK (self);
      self->origin = self->next_seq;
      self->ask = TRUE;
      if (self->in_chunk > 0 && self->srcpads->len > 0) {
        self->next_pad = (self->next_pad + 1) % self->srcpads->len;
        self->in_chunk = 0;
      }
      GST_OBJECT_UNLOCK (self);
    }
    gst_clear_caps (&cur);
  }
  /* to every branch (the default goes to all our src pads) */
  return gst_pad_event_default (pad, parent, event);
}

/* Whether @q lists the meta API @api. */
static gboolean
has_meta (GstQuery * q, GType api)
{
  return gst_query_find_allocation_meta (q, api, NULL);
}

/* The branches' answers to an allocation query merged into @query: the
 * pools of the first that answered, buffer counts added up over all;
 * the metas all of them accept; the first one's allocators. */
static gboolean
answer_allocation (GstAooctSplit * self, GstQuery * query)
{
  GstCaps *caps = NULL;
  gboolean need_pool = FALSE;
  GPtrArray *pads = g_ptr_array_new_with_free_func (gst_object_unref);
  GPtrArray *answers = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_query_unref);
  GstQuery *first;
  guint i, k;

  gst_query_parse_allocation (query, &caps, &need_pool);
  GST_OBJECT_LOCK (self);
  for (i = 0; i < self->srcpads->len; i++)
    g_ptr_array_add (pads, gst_object_ref (g_ptr_array_index (self->srcpads,
                i)));
  GST_OBJECT_UNLOCK (self);
  for (i = 0; i < pads->len; i++) {
    GstQuery *q = gst_query_new_allocation (caps, need_pool);

    if (gst_pad_peer_query (g_ptr_array_index (pads, i), q))
      g_ptr_array_add (answers, q);
    else
      gst_query_unref (q);
  }
  g_ptr_array_unref (pads);
  if (answers->len == 0) {
    g_ptr_array_unref (answers);
    return FALSE;
  }
  first = g_ptr_array_index (answers, 0);

  for (i = 0; i < gst_query_get_n_allocation_pools (first); i++) {
    GstBufferPool *pool = NULL;
    guint size, min, max;

    gst_query_parse_nth_allocation_pool (first, i, &pool, &size, &min, &max);
    if (i == 0) {
      /* every branch holds buffers of its own at once */
      for (k = 1; k < answers->len; k++) {
        GstQuery *q = g_ptr_array_index (answers, k);
        guint kmin = min, kmax = max;

        if (gst_query_get_n_allocation_pools (q) > 0)
          gst_query_parse_nth_allocation_pool (q, 0, NULL, NULL, &kmin, &kmax);
        min += kmin;
        max = (max == 0 || kmax == 0) ? 0 : max + kmax;
      }
    }
    gst_query_add_allocation_pool (query, pool, size, min, max);
    gst_clear_object (&pool);
  }
  for (i = 0; i < gst_query_get_n_allocation_metas (first); i++) {
    const GstStructure *params = NULL;
    GType api = gst_query_parse_nth_allocation_meta (first, i, &params);
    gboolean everywhere = TRUE;

    for (k = 1; k < answers->len && everywhere; k++)
      everywhere = has_meta (g_ptr_array_index (answers, k), api);
    if (everywhere)
      gst_query_add_allocation_meta (query, api, params);
    else
      GST_DEBUG_OBJECT (self, "%s: not accepted by every branch",
          g_type_name (api));
  }
  for (i = 0; i < gst_query_get_n_allocation_params (first); i++) {
    GstAllocator *allocator = NULL;
    GstAllocationParams params;

    gst_query_parse_nth_allocation_param (first, i, &allocator, &params);
    gst_query_add_allocation_param (query, allocator, &params);
    gst_clear_object (&allocator);
  }
  GST_DEBUG_OBJECT (self, "allocation of %u branch(es): %" GST_PTR_FORMAT,
      answers->len, query);
  g_ptr_array_unref (answers);
  return TRUE;
}

static gboolean
gst_aooct_split_sink_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  if (GST_QUERY_TYPE (query) == GST_QUERY_ALLOCATION)
    return answer_allocation (GST_AOOCT_SPLIT (parent), query);
  return gst_pad_query_default (pad, parent, query);
}

static gboolean
gst_aooct_split_src_event (GstPad * pad, GstObject * parent, GstEvent * event)
{
  GstAooctSplit *self = GST_AOOCT_SPLIT (parent);

  if (GST_EVENT_TYPE (event) == GST_EVENT_SEEK) {
    guint32 seqnum = gst_event_get_seqnum (event);
    gboolean res;

    /* one seek reaches us from every branch that was asked: once
     * upstream */
    GST_OBJECT_LOCK (self);
    if (self->seek_seqnum == seqnum) {
      res = self->seek_result;
      GST_OBJECT_UNLOCK (self);
      GST_DEBUG_OBJECT (self, "seek %u already sent upstream", seqnum);
      gst_event_unref (event);
      return res;
    }
    self->seek_seqnum = seqnum;
    self->seek_result = FALSE;
    GST_OBJECT_UNLOCK (self);
    res = gst_pad_push_event (self->sinkpad, event);
    GST_OBJECT_LOCK (self);
    if (self->seek_seqnum == seqnum)
      self->seek_result = res;
    GST_OBJECT_UNLOCK (self);
    return res;
  }
  return gst_pad_event_default (pad, parent, event);
}

/* A branch added while data flows gets the stream's sticky events first
 * (as tee does), so that it knows the caps of the buffers it gets. */
static gboolean
copy_sticky (GstPad * pad, GstEvent ** event, gpointer user_data)
{
  gst_pad_store_sticky_event (GST_PAD (user_data), *event);
  return TRUE;
}

static GstPad *
gst_aooct_split_request_new_pad (GstElement * element, GstPadTemplate * templ,
    const gchar * name, const GstCaps * caps)
{
  GstAooctSplit *self = GST_AOOCT_SPLIT (element);
  GstPad *pad;
  gchar *pad_name;

  GST_OBJECT_LOCK (self);
  pad_name = name ? g_strdup (name) : g_strdup_printf ("src_%u",
      self->pad_counter++);
  GST_OBJECT_UNLOCK (self);
  pad = gst_element_get_static_pad (element, pad_name);
  if (pad) {
    GST_WARNING_OBJECT (self, "a pad %s exists already", pad_name);
    gst_object_unref (pad);
    g_free (pad_name);
    return NULL;
  }
  pad = gst_pad_new_from_template (templ, pad_name);
  g_free (pad_name);
  gst_pad_set_event_function (pad, GST_DEBUG_FUNCPTR
      (gst_aooct_split_src_event));
  GST_PAD_SET_PROXY_CAPS (pad);
  gst_pad_set_active (pad, TRUE);
  gst_pad_sticky_events_foreach (self->sinkpad, copy_sticky, pad);
  GST_OBJECT_LOCK (self);
  g_ptr_array_add (self->srcpads, gst_object_ref (pad));
  GST_OBJECT_UNLOCK (self);
  gst_element_add_pad (element, pad);
  return pad;
}

static void
gst_aooct_split_release_pad (GstElement * element, GstPad * pad)
{
  GstAooctSplit *self = GST_AOOCT_SPLIT (element);
  gboolean ours;

  GST_OBJECT_LOCK (self);
  ours = g_ptr_array_remove (self->srcpads, pad);
  GST_OBJECT_UNLOCK (self);
  if (ours) {
    gst_pad_set_active (pad, FALSE);
    gst_element_remove_pad (element, pad);
  }
}

static GstStateChangeReturn
gst_aooct_split_change_state (GstElement * element, GstStateChange transition)
{
  GstAooctSplit *self = GST_AOOCT_SPLIT (element);

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED) {
    GST_OBJECT_LOCK (self);
    self->next_seq = 0;
    self->origin = 0;
    self->next_pad = 0;
    self->in_chunk = 0;
    self->ask = TRUE;
    self->chunk_auto = 1;
    self->seek_seqnum = GST_SEQNUM_INVALID;
    GST_OBJECT_UNLOCK (self);
  }
  return GST_ELEMENT_CLASS (gst_aooct_split_parent_class)->change_state
      (element, transition);
}

static void
gst_aooct_split_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctSplit *self = GST_AOOCT_SPLIT (object);

  switch (prop_id) {
    case PROP_BUFFERS_PER_BRANCH:
      /* while running, from the next run on: a run cut short would split
       * a volume between two branches */
      GST_OBJECT_LOCK (self);
      self->chunk_set = g_value_get_uint (value);
      if (self->chunk_set == 0)
        self->ask = TRUE;
      if (self->in_chunk == 0)
        self->chunk = self->chunk_set ? self->chunk_set : self->chunk_auto;
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_aooct_split_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctSplit *self = GST_AOOCT_SPLIT (object);

  switch (prop_id) {
    case PROP_BUFFERS_PER_BRANCH:
      GST_OBJECT_LOCK (self);
      g_value_set_uint (value, self->chunk_set);
      GST_OBJECT_UNLOCK (self);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_aooct_split_finalize (GObject * object)
{
  GstAooctSplit *self = GST_AOOCT_SPLIT (object);

  g_ptr_array_unref (self->srcpads);
  G_OBJECT_CLASS (gst_aooct_split_parent_class)->finalize (object);
}

static void
gst_aooct_split_class_init (GstAooctSplitClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gobject_class->finalize = gst_aooct_split_finalize;
  gobject_class->set_property = gst_aooct_split_set_property;
  gobject_class->get_property = gst_aooct_split_get_property;

  g_object_class_install_property (gobject_class, PROP_BUFFERS_PER_BRANCH,
      g_param_spec_uint ("buffers-per-branch", "Buffers per branch",
          "Consecutive buffers handed to one branch before the next: 0 "
          "(default) asks the branches at the start and at new caps: 1 "
          "buffer, or the buffers of a whole group where aooctangio, "
          "aooctenface, aooctrender or aooctflowenface runs in the "
          "branches (repeats or bscans-per-volume B-scans); N hands N "
          "(a multiple of the groups, or the elements refuse).  Changed "
          "while playing: from the next branch's run on", 0, G_MAXUINT, 0,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  element_class->request_new_pad =
      GST_DEBUG_FUNCPTR (gst_aooct_split_request_new_pad);
  element_class->release_pad = GST_DEBUG_FUNCPTR (gst_aooct_split_release_pad);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_aooct_split_change_state);
  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "AO-OCT split over branches", "Generic",
      "Hands whole buffers round-robin to its branches (one per GPU), "
      "numbered for aooctmerge", "aooct developers");
}

static void
gst_aooct_split_init (GstAooctSplit * self)
{
  self->srcpads = g_ptr_array_new_with_free_func (gst_object_unref);
  self->chunk = self->chunk_auto = 1;
  self->chunk_set = 0;
  self->ask = TRUE;
  self->seek_seqnum = GST_SEQNUM_INVALID;
  self->sinkpad = gst_pad_new_from_static_template (&sink_template, "sink");
  gst_pad_set_chain_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_aooct_split_chain));
  gst_pad_set_event_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_aooct_split_sink_event));
  gst_pad_set_query_function (self->sinkpad,
      GST_DEBUG_FUNCPTR (gst_aooct_split_sink_query));
  GST_PAD_SET_PROXY_CAPS (self->sinkpad);
  gst_element_add_pad (GST_ELEMENT (self), self->sinkpad);
}
