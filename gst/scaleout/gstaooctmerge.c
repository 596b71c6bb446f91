/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctmerge
 * @title: aooctmerge
 * @short_description: the branches' outputs back in the input order
 *
 * The second half of the pair that runs an aooct chain on several GPUs of
 * one host (docs/scale-out.md): aooctsplit numbers each buffer and hands
 * it to one branch; aooctmerge, with one request pad sink_%u per branch,
 * pushes the branches' outputs in the order of those numbers, so the
 * merged stream is the one a single branch would give, byte for byte.
 * Each branch must run on its own streaming thread (a queue at its start):
 * the thread of a branch whose output is not next waits here for its turn.
 *
 * The rule: the buffer numbered next goes at once (an image of a group
 * of B-scans stands for all its inputs: the number after its last goes
 * next); and where every other branch has a buffer waiting (or has
 * ended, or waits at an event), the lowest number goes, so that a buffer
 * a branch did not give back now and then (an element's QoS) cannot stop
 * the stream.  A branch that stops delivering altogether (it drops every
 * buffer, or EOS too) is an element error naming it once a branch has
 * waited stall-timeout with the stream not moving.  Each event that comes
 * between buffers (caps, segment, EOS, custom) is pushed once, when every
 * branch has reached it, after all buffers before it and before any after
 * it; caps that differ between branches are an element error.  A flush
 * is pushed once: the flush-start of the first branch, the flush-stop of
 * the last (numbers start over from 0, as aooctsplit's).  A GAP event of
 * a branch (an element holding its image back, aooct-gap.h) carries the
 * number of that image and is pushed once the image is next; an
 * unnumbered one (from upstream, through every branch) stops here.  A
 * flow error downstream (not-linked, an error, EOS) is returned to every
 * branch.  An error inside a branch stops that branch; its element posts
 * the error, and the others are released when the pipeline stops.
 *
 * Seeks go upstream through the first branch only; allocation queries go
 * downstream with the pool taken out of the answer, so that each branch
 * makes its own (on its own GPU).
 *
 * The volume views (aooctenface, aooctrender) and aooctangio come after
 * aooctmerge, or inside the branches with aooctsplit buffers-per-branch
 * handing each branch whole volumes or groups (docs/scale-out.md).
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc num-buffers=100 ! aooctsplit name=s \
 *     aooctmerge name=m ! videoconvert ! autovideosink \
 *     s. ! queue ! aooctbin cuda-device-id=0 ! m. \
 *     s. ! queue ! aooctbin cuda-device-id=1 ! m.
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstaooctmerge.h"
#include "aooct-seq-meta.h"
#include "aooct-gap.h"
#include "aooct-group-query.h"

GST_DEBUG_CATEGORY_STATIC (gst_aooct_merge_debug);
#define GST_CAT_DEFAULT gst_aooct_merge_debug

/* A sink pad and where its branch is; all fields under the element's
 * lock. */
#define AOOCT_TYPE_MERGE_PAD (aooct_merge_pad_get_type ())
G_DECLARE_FINAL_TYPE (AooctMergePad, aooct_merge_pad, AOOCT, MERGE_PAD, GstPad);

struct _AooctMergePad
{
  GstPad parent;

  gboolean has_head;            /* a buffer waits for its turn: */
  guint64 head;                 /* its number */
  GstEvent *barrier;            /* an event waits for the other branches */
  gboolean eos;                 /* the branch has ended */
  gboolean flushing;            /* between flush-start and flush-stop */
  GstEvent *gap;                /* a numbered GAP, until its number is next */
  guint64 gap_seq;              /* its number */
};

G_DEFINE_TYPE (AooctMergePad, aooct_merge_pad, GST_TYPE_PAD);

static void
aooct_merge_pad_finalize (GObject * object)
{
  gst_clear_event (&AOOCT_MERGE_PAD (object)->barrier);
  gst_clear_event (&AOOCT_MERGE_PAD (object)->gap);
  G_OBJECT_CLASS (aooct_merge_pad_parent_class)->finalize (object);
}

static void
aooct_merge_pad_class_init (AooctMergePadClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = aooct_merge_pad_finalize;
}

static void
aooct_merge_pad_init (AooctMergePad * pad)
{
}

struct _GstAooctMerge
{
  GstElement parent;

  GstPad *srcpad;
  GMutex lock;
  GCond cond;
  /* under the lock: */
  GPtrArray *sinkpads;          /* AooctMergePad */
  guint pad_counter;            /* for the names of new pads */
  guint64 next;                 /* the number to push next */
  gboolean pushing;             /* a thread pushes downstream */
  gboolean flushing;            /* a branch flushes, or the element stops */
  guint64 barrier_gen;          /* events pushed after a barrier */
  GstFlowReturn flow;           /* downstream's refusal, for every branch */
  gint64 progress;              /* monotonic time the stream last moved */
  gboolean failed;              /* a stall or caps that differ: stopped */
  guint stall_timeout;          /* property, ms; 0: wait for ever */
};

enum
{
  PROP_0,
  PROP_STALL_TIMEOUT
};

#define DEFAULT_STALL_TIMEOUT 10000

G_DEFINE_TYPE (GstAooctMerge, gst_aooct_merge, GST_TYPE_ELEMENT);

GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctmerge, "aooctmerge",
    GST_RANK_NONE, GST_TYPE_AOOCT_MERGE,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_merge_debug, "aooctmerge", 0,
        "aooct ordered merge of branches"));

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink_%u",
    GST_PAD_SINK, GST_PAD_REQUEST, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

#define MERGE_PAD(p) ((AooctMergePad *) (p))

/* Whether the branch of @p takes part in the stream (a requested pad
 * nobody linked does not hold the others back). */
static gboolean
pad_active (AooctMergePad * p)
{
  return gst_pad_is_linked (GST_PAD (p));
}

/* Whether @mp's waiting buffer goes now (see the rule at the top). */
static gboolean
may_push (GstAooctMerge * self, AooctMergePad * mp)
{
  guint i;

  if (self->pushing || !mp->has_head)
    return FALSE;
  if (mp->head <= self->next)
    return TRUE;
  for (i = 0; i < self->sinkpads->len; i++) {
    AooctMergePad *o = g_ptr_array_index (self->sinkpads, i);

    if (o == mp || !pad_active (o) || o->eos || o->barrier)
      continue;
    if (!o->has_head || o->head < mp->head)
      return FALSE;
  }
  GST_DEBUG_OBJECT (self, "%" G_GUINT64_FORMAT " goes before %"
      G_GUINT64_FORMAT ", which no branch holds", mp->head, self->next);
  return TRUE;
}

/* Whether every branch still in the stream waits at an event. */
static gboolean
all_at_barrier (GstAooctMerge * self)
{
  guint i;

  for (i = 0; i < self->sinkpads->len; i++) {
    AooctMergePad *o = g_ptr_array_index (self->sinkpads, i);

    if (!pad_active (o))
      continue;
    if (!o->barrier && !o->eos)
      return FALSE;
  }
  return TRUE;
}

/* Something arrived or left: the stream moves (under the lock). */
static void
moved (GstAooctMerge * self)
{
  self->progress = g_get_monotonic_time ();
}

/* The element a branch's pad is fed by, for messages (free it). */
static gchar *
branch_name (AooctMergePad * p)
{
  GstPad *peer = gst_pad_get_peer (GST_PAD (p));
  GstObject *parent = peer ? gst_pad_get_parent (peer) : NULL;
  gchar *path = parent ? gst_object_get_path_string (parent) : NULL;
  gchar *name = g_strdup_printf ("%s (after %s)", GST_PAD_NAME (p),
      path ? path : "nothing");

  g_free (path);
  gst_clear_object (&parent);
  gst_clear_object (&peer);
  return name;
}

/* stall-timeout has passed without the stream moving while a branch
 * waits for its turn: the branches that hold nothing and have not ended
 * dropped what the others wait for (an element that drops buffers, or
 * EOS: valve drop=true).  The stream cannot go on in order; an element
 * error names them (called with the lock, which it lets go meanwhile). */
static void
report_stall (GstAooctMerge * self)
{
  GString *silent = g_string_new (NULL);
  gchar *waiting = NULL;
  guint i;

  for (i = 0; i < self->sinkpads->len; i++) {
    AooctMergePad *o = g_ptr_array_index (self->sinkpads, i);
    gchar *name;

    if (!pad_active (o) || o->flushing)
      continue;
    name = branch_name (o);
    if (!o->eos && !o->has_head && !o->barrier)
      g_string_append_printf (silent, "%s%s", silent->len ? ", " : "", name);
    else if (waiting == NULL)
      waiting = o->has_head ? g_strdup_printf ("%s waits with buffer %"
          G_GUINT64_FORMAT, name, o->head) : g_strdup_printf ("%s waits at "
          "%s", name, o->barrier ? GST_EVENT_TYPE_NAME (o->barrier) : "EOS");
    g_free (name);
  }
  if (silent->len == 0) {
    /* everybody holds something: nothing to name, wait on */
    g_string_free (silent, TRUE);
    g_free (waiting);
    moved (self);
    return;
  }
  self->flow = GST_FLOW_ERROR;
  self->failed = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  GST_ELEMENT_ERROR (self, STREAM, FAILED, ("branch %s delivered nothing "
          "for %u ms while %s (buffer %" G_GUINT64_FORMAT " of the stream "
          "is next): an element of that branch drops buffers or EOS "
          "(valve drop=true, identity drop-probability, qos=true dropping "
          "many in a row), so the stream cannot be put back in order.  "
          "Every branch must give one output per input or per group "
          "(docs/scale-out.md); stall-timeout sets the wait",
          silent->str, self->stall_timeout, waiting ? waiting :
          "another branch waits", self->next), (NULL));
  g_mutex_lock (&self->lock);
  g_string_free (silent, TRUE);
  g_free (waiting);
}

/* One wait for the others (under the lock), bounded by stall-timeout
 * where the stream does not move. */
static void
wait_turn (GstAooctMerge * self)
{
  gint64 deadline;

  if (self->stall_timeout == 0) {
    g_cond_wait (&self->cond, &self->lock);
    return;
  }
  deadline = self->progress + (gint64) self->stall_timeout * 1000;
  if (g_cond_wait_until (&self->cond, &self->lock, deadline))
    return;
  /* downstream holds the stream (a paused sink): not a branch's doing */
  if (self->pushing || self->flushing || self->flow != GST_FLOW_OK)
    return;
  if (g_get_monotonic_time () >= self->progress +
      (gint64) self->stall_timeout * 1000)
    report_stall (self);
}

/* A numbered GAP of a branch goes downstream once the output it stands
 * for is the next in order: nothing still to come lies before its
 * timestamp (aooct-gap.h).  Pushed by whichever thread finds it due
 * (under the lock, which it lets go meanwhile). */
static void
push_due_gaps (GstAooctMerge * self)
{
  guint i;

  for (i = 0; i < self->sinkpads->len && !self->pushing; i++) {
    AooctMergePad *o = g_ptr_array_index (self->sinkpads, i);
    GstEvent *gap;
    GstClockTime ts, dur;

    if (o->gap == NULL || o->flushing || o->gap_seq > self->next)
      continue;
    gap = o->gap;
    o->gap = NULL;
    if (o->gap_seq < self->next) {
      /* its output went already */
      gst_event_unref (gap);
      continue;
    }
    /* downstream gets a plain GAP, as from one chain */
    gst_event_parse_gap (gap, &ts, &dur);
    {
      GstEvent *plain = gst_event_new_gap (ts, dur);

      gst_event_set_seqnum (plain, gst_event_get_seqnum (gap));
      gst_event_unref (gap);
      gap = plain;
    }
    GST_LOG_OBJECT (self, "%s's GAP at %" GST_TIME_FORMAT, GST_PAD_NAME (o),
        GST_TIME_ARGS (ts));
    self->pushing = TRUE;
    g_mutex_unlock (&self->lock);
    gst_pad_push_event (self->srcpad, gap);
    g_mutex_lock (&self->lock);
    self->pushing = FALSE;
    moved (self);
    g_cond_broadcast (&self->cond);
    i = (guint) - 1;            /* from the start: others may be due now */
  }
}

static GstFlowReturn
gst_aooct_merge_chain (GstPad * pad, GstObject * parent, GstBuffer * buf)
{
  GstAooctMerge *self = GST_AOOCT_MERGE (parent);
  AooctMergePad *mp = MERGE_PAD (pad);
  GstFlowReturn ret;
  guint64 seq, seq_end;

  if (!aooct_seq_meta_get_span (buf, &seq, &seq_end)) {
    gst_buffer_unref (buf);
    GST_ELEMENT_ERROR (self, STREAM, FAILED, ("%s got a buffer without the "
            "number aooctsplit puts on each buffer: each branch must come "
            "from aooctsplit, through elements that keep a buffer's metas",
            GST_PAD_NAME (pad)), (NULL));
    return GST_FLOW_ERROR;
  }

  g_mutex_lock (&self->lock);
  /* after its own flush-stop a branch waits for the others' */
  while (self->flushing && !mp->flushing)
    g_cond_wait (&self->cond, &self->lock);
  if (mp->flushing || mp->eos || self->flow != GST_FLOW_OK) {
    ret = mp->flushing ? GST_FLOW_FLUSHING : mp->eos ? GST_FLOW_EOS :
        self->flow;
    g_mutex_unlock (&self->lock);
    gst_buffer_unref (buf);
    return ret;
  }
  mp->has_head = TRUE;
  mp->head = seq;
  moved (self);
  /* the output a GAP of this branch stood for is here */
  if (mp->gap && seq >= mp->gap_seq)
    gst_clear_event (&mp->gap);
  g_cond_broadcast (&self->cond);
  while (!may_push (self, mp)) {
    if (mp->flushing || self->flow != GST_FLOW_OK) {
      ret = mp->flushing ? GST_FLOW_FLUSHING : self->flow;
      mp->has_head = FALSE;
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
      gst_buffer_unref (buf);
      return ret;
    }
    wait_turn (self);
  }
  if (seq_end < self->next)
    GST_WARNING_OBJECT (self, "buffer %" G_GUINT64_FORMAT " after %"
        G_GUINT64_FORMAT ": a branch gave its outputs out of order", seq,
        self->next - 1);
  mp->has_head = FALSE;
  self->pushing = TRUE;
  g_mutex_unlock (&self->lock);

  /* the number is ours: downstream gets the buffer as one branch gives it
   * (a new GstBuffer only where somebody else holds this one) */
  buf = gst_buffer_make_writable (buf);
  gst_buffer_remove_meta (buf, gst_buffer_get_meta (buf,
          AOOCT_SEQ_META_API_TYPE));
  GST_LOG_OBJECT (self, "buffer %" G_GUINT64_FORMAT " from %s", seq,
      GST_PAD_NAME (pad));
  ret = gst_pad_push (self->srcpad, buf);

  g_mutex_lock (&self->lock);
  self->pushing = FALSE;
  /* an image of a group stands for every input of it */
  if (seq_end >= self->next)
    self->next = seq_end + 1;
  if (ret != GST_FLOW_OK && ret != GST_FLOW_FLUSHING
      && self->flow == GST_FLOW_OK)
    self->flow = ret;
  moved (self);
  g_cond_broadcast (&self->cond);
  if (ret == GST_FLOW_OK)
    push_due_gaps (self);
  g_mutex_unlock (&self->lock);
  return ret;
}

/* Whether every branch at a caps event has the caps of @event (@mp's);
 * else an element error naming two that differ, and the stream stops
 * (under the lock, which it lets go to post). */
static gboolean
same_caps (GstAooctMerge * self, AooctMergePad * mp, GstEvent * event)
{
  GstCaps *caps;
  guint i;

  gst_event_parse_caps (event, &caps);
  for (i = 0; i < self->sinkpads->len; i++) {
    AooctMergePad *o = g_ptr_array_index (self->sinkpads, i);
    GstCaps *other;
    gchar *a, *b, *na, *nb;

    if (o == mp || o->barrier == NULL
        || GST_EVENT_TYPE (o->barrier) != GST_EVENT_CAPS)
      continue;
    gst_event_parse_caps (o->barrier, &other);
    if (gst_caps_is_equal (caps, other))
      continue;
    a = gst_caps_to_string (caps);
    b = gst_caps_to_string (other);
    na = branch_name (mp);
    nb = branch_name (o);
    self->flow = GST_FLOW_NOT_NEGOTIATED;
    self->failed = TRUE;
    g_cond_broadcast (&self->cond);
    g_mutex_unlock (&self->lock);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("the branches give "
            "different caps, which cannot be one stream: %s gives %s, %s "
            "gives %s.  Give every branch the same elements and settings "
            "(docs/scale-out.md)", na, a, nb, b), (NULL));
    g_free (a);
    g_free (b);
    g_free (na);
    g_free (nb);
    g_mutex_lock (&self->lock);
    return FALSE;
  }
  return TRUE;
}

/* A serialized event of @pad's branch: pushed by the last branch to
 * reach it, once every buffer before it has gone; the others wait for
 * that. */
static gboolean
barrier (GstAooctMerge * self, AooctMergePad * mp, GstEvent * event)
{
  guint64 gen;
  gboolean res = TRUE;
  guint i;

  g_mutex_lock (&self->lock);
  if (mp->flushing) {
    g_mutex_unlock (&self->lock);
    gst_event_unref (event);
    return FALSE;
  }
  if (GST_EVENT_TYPE (event) == GST_EVENT_STREAM_START)
    mp->eos = FALSE;
  gst_clear_event (&mp->barrier);
  gst_clear_event (&mp->gap);
  mp->barrier = event;
  gen = self->barrier_gen;
  moved (self);
  g_cond_broadcast (&self->cond);
  while (self->barrier_gen == gen) {
    if (mp->flushing || self->failed) {
      gst_clear_event (&mp->barrier);
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
      return FALSE;
    }
    if (!self->pushing && all_at_barrier (self)) {
      /* branches that give different caps cannot be merged into one
       * stream */
      if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS
          && !same_caps (self, mp, event)) {
        gst_clear_event (&mp->barrier);
        g_cond_broadcast (&self->cond);
        g_mutex_unlock (&self->lock);
        return FALSE;
      }
      /* ours to push; the others' copies go */
      for (i = 0; i < self->sinkpads->len; i++) {
        AooctMergePad *o = g_ptr_array_index (self->sinkpads, i);

        if (o != mp && o->barrier && GST_EVENT_TYPE (o->barrier) !=
            GST_EVENT_TYPE (event))
          GST_WARNING_OBJECT (self, "branches differ: %s on %s, %s on %s",
              GST_EVENT_TYPE_NAME (event), GST_PAD_NAME (mp),
              GST_EVENT_TYPE_NAME (o->barrier), GST_PAD_NAME (o));
        if (o->barrier && GST_EVENT_TYPE (o->barrier) == GST_EVENT_EOS)
          o->eos = TRUE;
        if (o != mp)
          gst_clear_event (&o->barrier);
      }
      mp->barrier = NULL;
      self->barrier_gen++;
      self->pushing = TRUE;
      g_mutex_unlock (&self->lock);
      GST_DEBUG_OBJECT (self, "all branches at %" GST_PTR_FORMAT, event);
      res = gst_pad_push_event (self->srcpad, event);
      g_mutex_lock (&self->lock);
      self->pushing = FALSE;
      moved (self);
      g_cond_broadcast (&self->cond);
      /* a GAP that came while this event went */
      push_due_gaps (self);
      break;
    }
    wait_turn (self);
  }
  g_mutex_unlock (&self->lock);
  return res;
}

static gboolean
gst_aooct_merge_sink_event (GstPad * pad, GstObject * parent, GstEvent * event)
{
  GstAooctMerge *self = GST_AOOCT_MERGE (parent);
  AooctMergePad *mp = MERGE_PAD (pad);
  gboolean forward = FALSE;
  guint i;

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_START:
      g_mutex_lock (&self->lock);
      mp->flushing = TRUE;
      forward = !self->flushing;
      self->flushing = TRUE;
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
      break;
    case GST_EVENT_FLUSH_STOP:
      g_mutex_lock (&self->lock);
      mp->flushing = FALSE;
      mp->eos = FALSE;
      mp->has_head = FALSE;
      gst_clear_event (&mp->barrier);
      gst_clear_event (&mp->gap);
      moved (self);
      forward = TRUE;
      for (i = 0; i < self->sinkpads->len; i++)
        if (MERGE_PAD (g_ptr_array_index (self->sinkpads, i))->flushing)
          forward = FALSE;
      if (forward) {
        /* the last branch: the stream starts over, as aooctsplit's
         * numbers */
        self->flushing = FALSE;
        self->next = 0;
        self->flow = GST_FLOW_OK;
        self->failed = FALSE;
      }
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
      break;
    case GST_EVENT_GAP:{
      guint64 seq;

      /* a branch's own (an element holding its image back, aooct-gap.h),
       * numbered as the image it stands for: downstream gets it once
       * that image is next, when nothing still to come lies before it.
       * An unnumbered one (upstream's, through every branch) has no
       * place among the branches' outputs: pushed out of order it would
       * tell downstream that time has passed that an earlier image has
       * yet to fill */
      if (!gst_structure_get_uint64 (gst_event_get_structure (event),
              AOOCT_GAP_SEQ_FIELD, &seq)) {
        GST_LOG_OBJECT (self, "dropping %" GST_PTR_FORMAT, event);
        break;
      }
      g_mutex_lock (&self->lock);
      moved (self);
      if (!mp->flushing && seq >= self->next) {
        gst_clear_event (&mp->gap);
        mp->gap = event;
        mp->gap_seq = seq;
        event = NULL;
        push_due_gaps (self);
      }
      g_mutex_unlock (&self->lock);
      gst_clear_event (&event);
      return TRUE;
    }
    default:
      if (GST_EVENT_IS_SERIALIZED (event))
        return barrier (self, mp, event);
      forward = TRUE;
      break;
  }
  if (!forward) {
    gst_event_unref (event);
    return TRUE;
  }
  return gst_pad_push_event (self->srcpad, event);
}

static gboolean
gst_aooct_merge_sink_query (GstPad * pad, GstObject * parent, GstQuery * query)
{
  GstAooctMerge *self = GST_AOOCT_MERGE (parent);
  gboolean res;
  guint n;

  /* aooctsplit's question ends here: nothing after us needs a run */
  if (GST_QUERY_TYPE (query) == AOOCT_GROUP_QUERY)
    return TRUE;
  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return gst_pad_query_default (pad, parent, query);
  res = gst_pad_peer_query (self->srcpad, query);
  g_mutex_lock (&self->lock);
  n = self->sinkpads->len;
  g_mutex_unlock (&self->lock);
  /* one pool cannot serve several branches (each would configure and
   * start it): each makes its own */
  while (res && n > 1 && gst_query_get_n_allocation_pools (query) > 0)
    gst_query_remove_nth_allocation_pool (query, 0);
  return res;
}

static gboolean
gst_aooct_merge_src_event (GstPad * pad, GstObject * parent, GstEvent * event)
{
  GstAooctMerge *self = GST_AOOCT_MERGE (parent);

  if (GST_EVENT_TYPE (event) == GST_EVENT_SEEK) {
    GstPad *first = NULL;
    guint i;

    /* all branches have one upstream: through the first linked one */
    g_mutex_lock (&self->lock);
    for (i = 0; i < self->sinkpads->len && !first; i++)
      if (pad_active (g_ptr_array_index (self->sinkpads, i)))
        first = gst_object_ref (g_ptr_array_index (self->sinkpads, i));
    g_mutex_unlock (&self->lock);
    if (first == NULL) {
      gst_event_unref (event);
      return FALSE;
    }
    {
      gboolean res = gst_pad_push_event (first, event);

      gst_object_unref (first);
      return res;
    }
  }
  return gst_pad_event_default (pad, parent, event);
}

static GstPad *
gst_aooct_merge_request_new_pad (GstElement * element, GstPadTemplate * templ,
    const gchar * name, const GstCaps * caps)
{
  GstAooctMerge *self = GST_AOOCT_MERGE (element);
  GstPad *pad;
  gchar *pad_name;

  g_mutex_lock (&self->lock);
  pad_name = name ? g_strdup (name) : g_strdup_printf ("sink_%u",
      self->pad_counter++);
  g_mutex_unlock (&self->lock);
  pad = gst_element_get_static_pad (element, pad_name);
  if (pad) {
    GST_WARNING_OBJECT (self, "a pad %s exists already", pad_name);
    gst_object_unref (pad);
    g_free (pad_name);
    return NULL;
  }
  pad = g_object_new (AOOCT_TYPE_MERGE_PAD, "name", pad_name, "direction",
      GST_PAD_SINK, "template", templ, NULL);
  g_free (pad_name);
  gst_pad_set_chain_function (pad, GST_DEBUG_FUNCPTR (gst_aooct_merge_chain));
  gst_pad_set_event_function (pad,
      GST_DEBUG_FUNCPTR (gst_aooct_merge_sink_event));
  gst_pad_set_query_function (pad,
      GST_DEBUG_FUNCPTR (gst_aooct_merge_sink_query));
  GST_PAD_SET_PROXY_CAPS (pad);
  g_mutex_lock (&self->lock);
  MERGE_PAD (pad)->flushing = self->flushing;
  g_ptr_array_add (self->sinkpads, gst_object_ref (pad));
  g_mutex_unlock (&self->lock);
  gst_pad_set_active (pad, TRUE);
  gst_element_add_pad (element, pad);
  return pad;
}

static void
gst_aooct_merge_release_pad (GstElement * element, GstPad * pad)
{
  GstAooctMerge *self = GST_AOOCT_MERGE (element);
  gboolean ours;

  g_mutex_lock (&self->lock);
  ours = g_ptr_array_remove (self->sinkpads, pad);
  moved (self);
  /* the others no longer wait for it */
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
  if (ours) {
    gst_pad_set_active (pad, FALSE);
    gst_element_remove_pad (element, pad);
  }
}

/* Every branch's thread that waits here returns (flushing) or, with
 * @flushing FALSE, a fresh start. */
static void
set_flushing (GstAooctMerge * self, gboolean flushing)
{
  guint i;

  g_mutex_lock (&self->lock);
  self->flushing = flushing;
  for (i = 0; i < self->sinkpads->len; i++) {
    AooctMergePad *o = g_ptr_array_index (self->sinkpads, i);

    o->flushing = flushing;
    if (!flushing) {
      o->eos = o->has_head = FALSE;
      gst_clear_event (&o->barrier);
      gst_clear_event (&o->gap);
    }
  }
  if (!flushing) {
    moved (self);
    self->next = 0;
    self->pushing = FALSE;
    self->flow = GST_FLOW_OK;
    self->failed = FALSE;
  }
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

static GstStateChangeReturn
gst_aooct_merge_change_state (GstElement * element, GstStateChange transition)
{
  GstAooctMerge *self = GST_AOOCT_MERGE (element);

  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED)
    set_flushing (self, FALSE);
  /* before the pads deactivate: they wait for our threads to return */
  else if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    set_flushing (self, TRUE);
  return GST_ELEMENT_CLASS (gst_aooct_merge_parent_class)->change_state
      (element, transition);
}

static void
gst_aooct_merge_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctMerge *self = GST_AOOCT_MERGE (object);

  switch (prop_id) {
    case PROP_STALL_TIMEOUT:
      g_mutex_lock (&self->lock);
      self->stall_timeout = g_value_get_uint (value);
      g_cond_broadcast (&self->cond);
      g_mutex_unlock (&self->lock);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_aooct_merge_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctMerge *self = GST_AOOCT_MERGE (object);

  switch (prop_id) {
    case PROP_STALL_TIMEOUT:
      g_mutex_lock (&self->lock);
      g_value_set_uint (value, self->stall_timeout);
      g_mutex_unlock (&self->lock);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_aooct_merge_finalize (GObject * object)
{
  GstAooctMerge *self = GST_AOOCT_MERGE (object);

  g_ptr_array_unref (self->sinkpads);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  G_OBJECT_CLASS (gst_aooct_merge_parent_class)->finalize (object);
}

static void
gst_aooct_merge_class_init (GstAooctMergeClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  gobject_class->finalize = gst_aooct_merge_finalize;
  gobject_class->set_property = gst_aooct_merge_set_property;
  gobject_class->get_property = gst_aooct_merge_get_property;

  g_object_class_install_property (gobject_class, PROP_STALL_TIMEOUT,
      g_param_spec_uint ("stall-timeout", "Stall timeout",
          "Milliseconds a branch may hold back the output the others wait "
          "for (the stream not moving meanwhile) before aooctmerge stops "
          "with an error naming it (a branch that drops buffers or EOS); "
          "0 waits for ever", 0, G_MAXUINT, DEFAULT_STALL_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));
  element_class->request_new_pad =
      GST_DEBUG_FUNCPTR (gst_aooct_merge_request_new_pad);
  element_class->release_pad = GST_DEBUG_FUNCPTR (gst_aooct_merge_release_pad);
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_aooct_merge_change_state);
  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &sink_template, AOOCT_TYPE_MERGE_PAD);
  gst_element_class_add_static_pad_template (element_class, &src_template);
  gst_element_class_set_static_metadata (element_class,
      "AO-OCT ordered merge of branches", "Generic",
      "Pushes the outputs of aooctsplit's branches in the input order, "
      "each event once", "aooct developers");
}

static void
gst_aooct_merge_init (GstAooctMerge * self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->sinkpads = g_ptr_array_new_with_free_func (gst_object_unref);
  self->stall_timeout = DEFAULT_STALL_TIMEOUT;
  self->progress = g_get_monotonic_time ();
  self->srcpad = gst_pad_new_from_static_template (&src_template, "src");
  gst_pad_set_event_function (self->srcpad,
      GST_DEBUG_FUNCPTR (gst_aooct_merge_src_event));
  GST_PAD_SET_PROXY_CAPS (self->srcpad);
  gst_element_add_pad (GST_ELEMENT (self), self->srcpad);
}
