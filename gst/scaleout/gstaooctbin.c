/* SPDX-License-Identifier: GPL-2.0-or-later */
/**
 * SECTION:element-aooctbin
 * @title: aooctbin
 * @short_description: the whole reconstruction chain as one element
 *
 * One box for the whole chain: aooctdcsub ! aooctpad ! aooctkmap !
 * aooctdisp ! aooctfft ! aooctnorm, built inside a bin, raw spectra in
 * (video/x-raw GRAY16_LE/GRAY8, packed video/x-aooct-packed or float32
 * video/x-aooct-float, as aooctdcsub takes them), grey B-scans out (as
 * aooctnorm gives them).
 *
 * Every property of the six elements is a property of aooctbin with the
 * same name, type, range, default and blurb, and is passed to the element
 * that owns it (they are all distinct): mode, background-file,
 * alines-per-bscan (aooctdcsub); size, factor (aooctpad); wavelength-file,
 * wavelength-coeffs, interpolation, passthrough (aooctkmap); a2 .. a5,
 * phase-file, phase-file-grid, estimate (aooctdisp); window,
 * window-parameter (aooctfft); crop-start, crop-end, log, dynamic-range,
 * auto-range, range-min, range-max (aooctnorm).  backend and
 * cuda-device-id are set on all six and read from aooctdcsub.  The
 * properties that may change while PLAYING on the element may change so on
 * the bin.  Left out: each element's qos (GstBaseTransform's, left at its
 * default).  The elements are named dcsub, pad, kmap, disp, fft and norm,
 * so they can also be reached as children (GstChildProxy), e.g.
 * `aooctbin norm::qos=true` on a gst-launch-1.0 line.
 *
 * With gpus (e.g. gpus=0,1; set before the pipeline starts) the bin holds
 * one branch of the six elements per entry, named branch0, branch1, ...
 * (children as branch1::norm), each after a queue and pinned to that CUDA
 * device (cuda-device-id); aooctsplit hands them whole buffers in turn
 * and aooctmerge puts their images back into the input order, so the
 * output is the one of a single chain, byte for byte (docs/scale-out.md).
 * A property set on the bin goes to every branch; one changed while the
 * pipeline runs (a2, a3, window, the display range, ...) travels as a
 * serialized event from aooctsplit's input down each branch, and each
 * element applies it just before its first buffer after the change: the
 * same B-scan on every branch.  An error in a branch names it and its
 * device.  The volume views (aooctenface, aooctrender) come after the
 * bin: they get every B-scan in order.
 *
 * A step that a setup does not need is switched off through its
 * properties: a k-linear source sets passthrough=true, a2=0 a3=0 leaves
 * the data uncompensated.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 aooctsrc calibration-file=/tmp/cal.txt num-buffers=100 ! \
 *     aooctbin wavelength-file=/tmp/cal.txt a2=8 a3=-2 dynamic-range=50 ! \
 *     videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstaooctbin.h"
#include "gstaooctfilter.h"
#include "gstaooctdcsub.h"
#include "gstaooctpad.h"
#include "gstaooctkmap.h"
#include "gstaooctdisp.h"
#include "gstaooctfft.h"
#include "gstaooctnorm.h"

GST_DEBUG_CATEGORY_STATIC (gst_aooct_bin_debug);
#define GST_CAT_DEFAULT gst_aooct_bin_debug

#define N_STEPS 6
/* a proxied property that goes to every step */
#define ALL_STEPS (-1)

/* The custom event that carries a property changed while running down
 * every branch (fields "name", "value"), named after the property: sticky,
 * so that a flush (a seek) does not lose it in a branch's queue, and
 * replaced only by a later value of the same property */
#define LIVE_PROPERTY_EVENT "aooct-bin-property/"

/* One chain of the six elements: the bin's own children, or (gpus) in a
 * branch bin after a queue. */
typedef struct
{
  GstElement *step[N_STEPS];
  GstElement *branch;           /* NULL for the single chain */
  gint device;                  /* its gpus entry, or -1 */
} Chain;

struct _GstAooctBin
{
  GstBin parent;

  Chain *chains;
  guint n_chains;
  GstElement *split, *merge;    /* with more than one chain */
  GstPad *sinkpad, *srcpad;     /* ghost pads */
  gchar *gpus;
  gchar *gpus_error;            /* a gpus value that was not a list of
                                 * devices: the error at start */
  /* property values sent down the branches that branch0 has not applied
   * yet (name -> GValue): what the bin reads back meanwhile */
  GMutex live_lock;
  GHashTable *live;
};


G_DEFINE_TYPE (GstAooctBin, gst_aooct_bin, GST_TYPE_BIN);

GST_ELEMENT_REGISTER_DEFINE_WITH_CODE (aooctbin, "aooctbin",
    GST_RANK_NONE, GST_TYPE_AOOCT_BIN,
    GST_DEBUG_CATEGORY_INIT (gst_aooct_bin_debug, "aooctbin", 0,
        "aooct whole chain"));

/* the chain, in order; names of the children */
static const gchar *step_names[N_STEPS] =
    { "dcsub", "pad", "kmap", "disp", "fft", "norm" };

static GType
step_type (gint i)
{
  switch (i) {
    case 0:
      return GST_TYPE_AOOCT_DCSUB;
    case 1:
      return GST_TYPE_AOOCT_PAD;
    case 2:
      return GST_TYPE_AOOCT_KMAP;
    case 3:
      return GST_TYPE_AOOCT_DISP;
    case 4:
      return GST_TYPE_AOOCT_FFT;
    default:
      return GST_TYPE_AOOCT_NORM;
  }
}

/* property id (from 1) -> step index or ALL_STEPS, filled in class_init;
 * the bin's own gpus comes after them */
static GArray *prop_step;
static guint prop_gpus;

static void gst_aooct_bin_set_gpus (GstAooctBin * self, const gchar * gpus);

/* A copy of a step's property for the bin: same name, type, range,
 * default and blurb, so that gst-inspect-1.0 and the docs read the same. */
static GParamSpec *
copy_pspec (GParamSpec * p)
{
  const gchar *name = g_intern_string (g_param_spec_get_name (p));
  const gchar *nick = g_intern_string (g_param_spec_get_nick (p));
  const gchar *blurb = g_intern_string (g_param_spec_get_blurb (p));
  GParamFlags flags = (p->flags & ~(G_PARAM_CONSTRUCT |
          G_PARAM_CONSTRUCT_ONLY)) | G_PARAM_STATIC_STRINGS;
  GType t = G_PARAM_SPEC_TYPE (p);

  if (t == G_TYPE_PARAM_BOOLEAN) {
    GParamSpecBoolean *s = G_PARAM_SPEC_BOOLEAN (p);
    return g_param_spec_boolean (name, nick, blurb, s->default_value, flags);
  } else if (t == G_TYPE_PARAM_INT) {
    GParamSpecInt *s = G_PARAM_SPEC_INT (p);
    return g_param_spec_int (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_UINT) {
    GParamSpecUInt *s = G_PARAM_SPEC_UINT (p);
    return g_param_spec_uint (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_INT64) {
    GParamSpecInt64 *s = G_PARAM_SPEC_INT64 (p);
    return g_param_spec_int64 (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_UINT64) {
    GParamSpecUInt64 *s = G_PARAM_SPEC_UINT64 (p);
    return g_param_spec_uint64 (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_FLOAT) {
    GParamSpecFloat *s = G_PARAM_SPEC_FLOAT (p);
    return g_param_spec_float (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_DOUBLE) {
    GParamSpecDouble *s = G_PARAM_SPEC_DOUBLE (p);
    return g_param_spec_double (name, nick, blurb, s->minimum, s->maximum,
        s->default_value, flags);
  } else if (t == G_TYPE_PARAM_STRING) {
    GParamSpecString *s = G_PARAM_SPEC_STRING (p);
    return g_param_spec_string (name, nick, blurb, s->default_value, flags);
  } else if (t == G_TYPE_PARAM_ENUM) {
    GParamSpecEnum *s = G_PARAM_SPEC_ENUM (p);
    return g_param_spec_enum (name, nick, blurb, p->value_type,
        s->default_value, flags);
  }
  /* a new kind of property on a step must be added above; the bin test
   * (tests/elements/test-bin.c) fails until it is */
  g_critical ("aooctbin: cannot proxy %s of type %s", name, g_type_name (t));
  return NULL;
}

static gboolean
is_proxied (GParamSpec * p)
{
  /* GstObject's own, and GstBaseTransform's qos (per element, not per
   * chain) */
  return p->owner_type != GST_TYPE_OBJECT &&
      p->owner_type != GST_TYPE_BASE_TRANSFORM &&
      (p->flags & G_PARAM_READWRITE) == G_PARAM_READWRITE;
}

static void
set_on_chain (Chain * c, gint step, const gchar * name, const GValue * value)
{
  gint i;

  for (i = 0; i < N_STEPS; i++)
    if (step == ALL_STEPS || step == i)
      g_object_set_property (G_OBJECT (c->step[i]), name, value);
}

static void
free_value (GValue * v)
{
  g_value_unset (v);
  g_free (v);
}

/* A property changed while the branches run: as an event down each of
 * them from aooctsplit's input, between two buffers (see the top).  FALSE
 * where it cannot go that way (not running, flushing). */
static gboolean
send_live (GstAooctBin * self, GParamSpec * pspec, const GValue * value)
{
  GstStructure *st;
  GstPad *pad;
  gboolean sent;
  gchar *event_name;
  GValue *v;

  if (self->split == NULL || !(pspec->flags & GST_PARAM_MUTABLE_PLAYING)
      || GST_STATE (self) < GST_STATE_PAUSED)
    return FALSE;
  pad = gst_element_get_static_pad (self->split, "sink");
  /* before the stream's caps no branch has a B-scan: set at once */
  if (!gst_pad_has_current_caps (pad)) {
    gst_object_unref (pad);
    return FALSE;
  }
  event_name = g_strconcat (LIVE_PROPERTY_EVENT, pspec->name, NULL);
  st = gst_structure_new_empty (event_name);
  g_free (event_name);
  gst_structure_set (st, "name", G_TYPE_STRING, pspec->name, NULL);
  gst_structure_set_value (st, "value", value);
  v = g_new0 (GValue, 1);
  g_value_init (v, G_VALUE_TYPE (value));
  g_value_copy (value, v);
  g_mutex_lock (&self->live_lock);
  g_hash_table_insert (self->live, g_strdup (pspec->name), v);
  g_mutex_unlock (&self->live_lock);
  /* serialized: waits for the buffer aooctsplit is handing out */
  sent = gst_pad_send_event (pad,
      gst_event_new_custom (GST_EVENT_CUSTOM_DOWNSTREAM_STICKY, st));
  gst_object_unref (pad);
  if (!sent) {
    g_mutex_lock (&self->live_lock);
    g_hash_table_remove (self->live, pspec->name);
    g_mutex_unlock (&self->live_lock);
  }
  return sent;
}

static void
gst_aooct_bin_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstAooctBin *self = GST_AOOCT_BIN (object);
  gint step;
  guint k;

  if (prop_id == prop_gpus) {
    gst_aooct_bin_set_gpus (self, g_value_get_string (value));
    return;
  }
  if (prop_id == 0 || prop_id > prop_step->len) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  step = g_array_index (prop_step, gint, prop_id - 1);
  if (send_live (self, pspec, value))
    return;
  for (k = 0; k < self->n_chains; k++)
    set_on_chain (&self->chains[k], step, pspec->name, value);
}

static void
gst_aooct_bin_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstAooctBin *self = GST_AOOCT_BIN (object);
  const GValue *pending;
  gint step;

  if (prop_id == prop_gpus) {
    g_value_set_string (value, self->gpus);
    return;
  }
  if (prop_id == 0 || prop_id > prop_step->len) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    return;
  }
  g_mutex_lock (&self->live_lock);
  pending = g_hash_table_lookup (self->live, pspec->name);
  if (pending)
    g_value_copy (pending, value);
  g_mutex_unlock (&self->live_lock);
  if (pending)
    return;
  step = g_array_index (prop_step, gint, prop_id - 1);
  g_object_get_property (G_OBJECT (self->chains[0].step[step == ALL_STEPS ?
              0 : step]), pspec->name, value);
}

/* On each step's sink pad in a branch: a property changed while running
 * is set on the step that owns it as it passes, just before the step's
 * next buffer; the last step drops the event. */
static GstPadProbeReturn
live_property_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  GstElement *element;
  GObjectClass *klass;
  const GstStructure *st;
  const gchar *name;
  GParamSpec *pspec;
  gint i = GPOINTER_TO_INT (user_data), step;

  if (GST_EVENT_TYPE (event) != GST_EVENT_CUSTOM_DOWNSTREAM_STICKY
      || !g_str_has_prefix (gst_structure_get_name (gst_event_get_structure
              (event)), LIVE_PROPERTY_EVENT))
    return GST_PAD_PROBE_OK;
  st = gst_event_get_structure (event);
  name = gst_structure_get_string (st, "name");
  klass = g_type_class_peek (GST_TYPE_AOOCT_BIN);
  pspec = name ? g_object_class_find_property (klass, name) : NULL;
  element = GST_ELEMENT (gst_pad_get_parent (pad));
  if (pspec && element && pspec->param_id <= prop_step->len) {
    step = g_array_index (prop_step, gint, pspec->param_id - 1);
    if (step == ALL_STEPS || step == i) {
      GST_DEBUG_OBJECT (element, "%s changed", name);
      g_object_set_property (G_OBJECT (element), name,
          gst_structure_get_value (st, "value"));
    }
  }
  if (element && i == N_STEPS - 1) {
    GstElement *branch = GST_ELEMENT (gst_object_get_parent (GST_OBJECT
            (element)));
    GstAooctBin *self = branch ?
        GST_AOOCT_BIN (gst_object_get_parent (GST_OBJECT (branch))) : NULL;

    /* the first branch has it all: the bin reads its elements again
     * (unless a later value is on its way) */
    if (self && self->n_chains > 0 && self->chains[0].branch == branch) {
      const GValue *latest;

      g_mutex_lock (&self->live_lock);
      latest = g_hash_table_lookup (self->live, name);
      if (latest && gst_value_compare (latest, gst_structure_get_value (st,
                  "value")) == GST_VALUE_EQUAL)
        g_hash_table_remove (self->live, name);
      g_mutex_unlock (&self->live_lock);
    }
    gst_clear_object (&self);
    gst_clear_object (&branch);
  }
  gst_clear_object (&element);
  return i == N_STEPS - 1 ? GST_PAD_PROBE_DROP : GST_PAD_PROBE_OK;
}

/* The six elements, linked; in @branch (after a queue) with the probes of
 * live changes, or in the bin itself. */
static void
chain_make (GstAooctBin * self, Chain * c, GstElement * branch, gint device)
{
  GstBin *parent = branch ? GST_BIN (branch) : GST_BIN (self);
  gint i;

  c->branch = branch;
  c->device = device;
  for (i = 0; i < N_STEPS; i++) {
    c->step[i] = g_object_new (step_type (i), "name", step_names[i], NULL);
    gst_bin_add (parent, c->step[i]);
    if (i > 0)
      gst_element_link_pads (c->step[i - 1], "src", c->step[i], "sink");
    if (branch) {
      GstPad *pad = gst_element_get_static_pad (c->step[i], "sink");

      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
          live_property_probe, GINT_TO_POINTER (i), NULL);
      gst_object_unref (pad);
    }
  }
  if (device >= 0)
    for (i = 0; i < N_STEPS; i++)
      g_object_set (c->step[i], "cuda-device-id", device, NULL);
}

/* Every proxied property of @from that is not at its default, onto @to
 * (a new chain takes the settings of the one it replaces). */
static void
chain_copy_settings (Chain * from, Chain * to)
{
  GObjectClass *klass = g_type_class_peek (GST_TYPE_AOOCT_BIN);
  guint n, k;
  GParamSpec **all = g_object_class_list_properties (klass, &n);

  for (k = 0; k < n; k++) {
    GParamSpec *p = all[k];
    GValue v = G_VALUE_INIT;
    gint step;

    if (p->owner_type != GST_TYPE_AOOCT_BIN || p->param_id > prop_step->len)
      continue;
    /* a branch keeps its own device */
    if (to->device >= 0 && g_str_equal (p->name, "cuda-device-id"))
      continue;
    step = g_array_index (prop_step, gint, p->param_id - 1);
    g_value_init (&v, p->value_type);
    g_object_get_property (G_OBJECT (from->step[step == ALL_STEPS ? 0 :
                step]), p->name, &v);
    if (!g_param_value_defaults (p, &v))
      set_on_chain (to, step, p->name, &v);
    g_value_unset (&v);
  }
  g_free (all);
}

/* The chains of @self for @devices (@n of them; one chain on the
 * elements' own cuda-device-id where @devices is NULL), replacing the
 * ones there were, their settings kept. */
static void
build (GstAooctBin * self, const gint * devices, guint n)
{
  Chain *old = self->chains;
  guint n_old = self->n_chains, k;
  GstPad *in, *out;

  /* the old chains out of the bin first (kept alive for their settings):
   * a new chain in the bin itself takes the same element names */
  for (k = 0; old && k < n_old; k++) {
    if (old[k].branch) {
      gst_object_ref (old[k].branch);
      gst_bin_remove (GST_BIN (self), old[k].branch);
    } else {
      gint i;

      for (i = 0; i < N_STEPS; i++) {
        gst_object_ref (old[k].step[i]);
        gst_bin_remove (GST_BIN (self), old[k].step[i]);
      }
    }
  }
  self->chains = g_new0 (Chain, MAX (n, 1));
  self->n_chains = MAX (n, 1);
  if (n <= 1) {
    chain_make (self, &self->chains[0], NULL, devices ? devices[0] : -1);
  } else {
    self->split = gst_element_factory_make ("aooctsplit", "split");
    self->merge = gst_element_factory_make ("aooctmerge", "merge");
    gst_bin_add_many (GST_BIN (self), self->split, self->merge, NULL);
    for (k = 0; k < n; k++) {
      gchar *name = g_strdup_printf ("branch%u", k);
      GstElement *branch = gst_bin_new (name);
      /* a streaming thread per branch; a short queue, whatever the
       * buffer size, so that latency stays a buffer or two */
      GstElement *q = gst_element_factory_make ("queue", "queue");
      GstPad *pad, *ghost;

      g_object_set (q, "max-size-buffers", 2, "max-size-bytes", 0,
          "max-size-time", (guint64) 0, NULL);
      gst_bin_add (GST_BIN (branch), q);
      chain_make (self, &self->chains[k], branch, devices[k]);
      gst_element_link (q, self->chains[k].step[0]);
      pad = gst_element_get_static_pad (q, "sink");
      ghost = gst_ghost_pad_new ("sink", pad);
      gst_object_unref (pad);
      gst_element_add_pad (branch, ghost);
      pad = gst_element_get_static_pad (self->chains[k].step[N_STEPS - 1],
          "src");
      gst_element_add_pad (branch, gst_ghost_pad_new ("src", pad));
      gst_object_unref (pad);
      gst_bin_add (GST_BIN (self), branch);
      gst_element_link (self->split, branch);
      gst_element_link (branch, self->merge);
      g_free (name);
    }
  }
  if (old) {
    for (k = 0; k < self->n_chains; k++)
      chain_copy_settings (&old[0], &self->chains[k]);
    for (k = 0; k < n_old; k++) {
      if (old[k].branch) {
        /* out of the bin in READY (gpus may change there): stopped */
        gst_element_set_state (old[k].branch, GST_STATE_NULL);
        gst_object_unref (old[k].branch);
      } else {
        gint i;

        for (i = 0; i < N_STEPS; i++) {
          gst_element_set_state (old[k].step[i], GST_STATE_NULL);
          gst_object_unref (old[k].step[i]);
        }
      }
    }
    g_free (old);
  }
  in = gst_element_get_static_pad (n > 1 ? self->split :
      self->chains[0].step[0], "sink");
  out = gst_element_get_static_pad (n > 1 ? self->merge :
      self->chains[0].step[N_STEPS - 1], "src");
  gst_ghost_pad_set_target (GST_GHOST_PAD (self->sinkpad), in);
  gst_ghost_pad_set_target (GST_GHOST_PAD (self->srcpad), out);
  gst_object_unref (in);
  gst_object_unref (out);
}

/* gpus: "0,1" -> one branch per device.  Only while stopped (NULL or
 * READY: no pad is active; the new elements follow the bin up). */
static void
gst_aooct_bin_set_gpus (GstAooctBin * self, const gchar * gpus)
{
  gchar **parts;
  GArray *devices;
  guint k;

  /* (a failed start leaves READY pending: stopped still) */
  if (GST_STATE (self) > GST_STATE_READY
      || GST_STATE_PENDING (self) > GST_STATE_READY) {
    GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS, ("gpus can change only "
            "while the pipeline is stopped (NULL or READY state): kept gpus=%s, "
            "ignored gpus=%s", self->gpus ? self->gpus : "", gpus ? gpus :
            ""), (NULL));
    return;
  }
  parts = gpus ? g_strsplit (gpus, ",", -1) : NULL;
  devices = g_array_new (FALSE, FALSE, sizeof (gint));

  for (k = 0; parts && parts[k]; k++) {
    gchar *t = g_strstrip (parts[k]), *end = NULL;
    gint64 d;

    if (*t == '\0' && parts[1] == NULL)
      break;
    d = g_ascii_strtoll (t, &end, 10);
    if (*t == '\0' || *end != '\0' || d < 0 || d > 63) {
      /* refused when the pipeline starts (an element error: the bus may
       * not be there yet), not run as one chain */
      g_free (self->gpus_error);
      self->gpus_error = g_strdup_printf ("gpus=\"%s\": \"%s\" is not a "
          "CUDA device number (0 to 63); expected a comma-separated list "
          "such as 0,1, or nothing for one chain", gpus, t);
      GST_WARNING_OBJECT (self, "%s", self->gpus_error);
      g_strfreev (parts);
      g_array_unref (devices);
      return;
    }
    {
      gint di = (gint) d;

      g_array_append_val (devices, di);
    }
  }
  g_strfreev (parts);
  g_clear_pointer (&self->gpus_error, g_free);
  if (self->split) {
    gst_element_set_state (self->split, GST_STATE_NULL);
    gst_element_set_state (self->merge, GST_STATE_NULL);
    gst_bin_remove_many (GST_BIN (self), self->split, self->merge, NULL);
    self->split = self->merge = NULL;
  }
  build (self, devices->len ? (gint *) devices->data : NULL, devices->len);
  g_free (self->gpus);
  self->gpus = devices->len ? g_strdup (gpus) : NULL;
  g_array_unref (devices);
}

/* An error or warning from inside a branch says which branch and device
 * it came from. */
static void
gst_aooct_bin_handle_message (GstBin * bin, GstMessage * msg)
{
  GstAooctBin *self = GST_AOOCT_BIN (bin);
  GstMessageType t = GST_MESSAGE_TYPE (msg);
  guint k;

  for (k = 0; self->n_chains > 1 && k < self->n_chains &&
      (t == GST_MESSAGE_ERROR || t == GST_MESSAGE_WARNING); k++) {
    GError *err = NULL;
    gchar *dbg = NULL;
    GstMessage *named;

    if (!gst_object_has_as_ancestor (GST_MESSAGE_SRC (msg),
            GST_OBJECT (self->chains[k].branch)))
      continue;
    if (t == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, &dbg);
    else
      gst_message_parse_warning (msg, &err, &dbg);
    g_prefix_error (&err, "branch %u (cuda-device-id=%d): ", k,
        self->chains[k].device);
    named = t == GST_MESSAGE_ERROR ?
        gst_message_new_error (GST_MESSAGE_SRC (msg), err, dbg) :
        gst_message_new_warning (GST_MESSAGE_SRC (msg), err, dbg);
    gst_message_set_seqnum (named, gst_message_get_seqnum (msg));
    gst_message_unref (msg);
    msg = named;
    g_error_free (err);
    g_free (dbg);
    break;
  }
  GST_BIN_CLASS (gst_aooct_bin_parent_class)->handle_message (bin, msg);
}

/* Values sent down the branches that did not arrive (the pipeline
 * stopped first): set on every branch now, so that the next run has
 * what the bin says. */
static void
apply_pending (GstAooctBin * self)
{
  GObjectClass *klass = G_OBJECT_GET_CLASS (self);
  GHashTable *pending;
  GHashTableIter it;
  gpointer name, value;
  guint k;

  g_mutex_lock (&self->live_lock);
  pending = self->live;
  self->live = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) free_value);
  g_mutex_unlock (&self->live_lock);
  g_hash_table_iter_init (&it, pending);
  while (g_hash_table_iter_next (&it, &name, &value)) {
    GParamSpec *p = g_object_class_find_property (klass, name);
    gint step = g_array_index (prop_step, gint, p->param_id - 1);

    for (k = 0; k < self->n_chains; k++)
      set_on_chain (&self->chains[k], step, name, value);
  }
  g_hash_table_unref (pending);
}

/* With several branches, a setting that makes an image depend on the
 * B-scans before it would give other images than one chain (each branch
 * sees every n-th buffer): refused before anything runs.  The elements
 * themselves refuse such a buffer too (a change while playing). */
static gboolean
check_branchable (GstAooctBin * self)
{
  gint i;

  if (self->n_chains < 2)
    return TRUE;
  for (i = 0; i < N_STEPS; i++) {
    GstAooctFilter *step = GST_AOOCT_FILTER (self->chains[0].step[i]);
    GstAooctFilterClass *klass = GST_AOOCT_FILTER_GET_CLASS (step);
    gchar *setting = klass->in_order_setting ?
        klass->in_order_setting (step) : NULL;

    if (setting) {
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s makes each image "
              "depend on the B-scans before it, which gpus=%s cannot give "
              "as one chain does: each of its %u branches would see every "
              "%u-th buffer.  Use one chain (no gpus), or aooctsplit and "
              "aooctmerge around the steps before it and aooct%s after "
              "aooctmerge (docs/scale-out.md)", setting,
              self->gpus, self->n_chains, self->n_chains, step_names[i]),
          (NULL));
      g_free (setting);
      return FALSE;
    }
  }
  return TRUE;
}

static GstStateChangeReturn
gst_aooct_bin_change_state (GstElement * element, GstStateChange transition)
{
  GstStateChangeReturn ret;

  if ((transition == GST_STATE_CHANGE_NULL_TO_READY
          || transition == GST_STATE_CHANGE_READY_TO_PAUSED)
      && GST_AOOCT_BIN (element)->gpus_error) {
    GST_ELEMENT_ERROR (element, RESOURCE, SETTINGS, ("%s",
            GST_AOOCT_BIN (element)->gpus_error), (NULL));
    return GST_STATE_CHANGE_FAILURE;
  }
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED
      && !check_branchable (GST_AOOCT_BIN (element)))
    return GST_STATE_CHANGE_FAILURE;
  ret = GST_ELEMENT_CLASS (gst_aooct_bin_parent_class)->change_state (element,
      transition);

  if (transition == GST_STATE_CHANGE_PAUSED_TO_READY)
    apply_pending (GST_AOOCT_BIN (element));
  return ret;
}


static void
gst_aooct_bin_finalize (GObject * object)
{
  GstAooctBin *self = GST_AOOCT_BIN (object);

  g_free (self->chains);
  g_free (self->gpus);
  g_free (self->gpus_error);
  g_hash_table_unref (self->live);
  g_mutex_clear (&self->live_lock);
  G_OBJECT_CLASS (gst_aooct_bin_parent_class)->finalize (object);
}

static void
gst_aooct_bin_class_init (GstAooctBinClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstElementClass *first, *last;
  gint i;

  gobject_class->set_property = gst_aooct_bin_set_property;
  gobject_class->get_property = gst_aooct_bin_get_property;
  gobject_class->finalize = gst_aooct_bin_finalize;
  element_class->change_state = GST_DEBUG_FUNCPTR (gst_aooct_bin_change_state);
  GST_BIN_CLASS (klass)->handle_message =
      GST_DEBUG_FUNCPTR (gst_aooct_bin_handle_message);

  prop_step = g_array_new (FALSE, FALSE, sizeof (gint));
  for (i = 0; i < N_STEPS; i++) {
    GObjectClass *step_class = g_type_class_ref (step_type (i));
    GParamSpec **props;
    guint n, k;

    props = g_object_class_list_properties (step_class, &n);
    for (k = 0; k < n; k++) {
      GParamSpec *p = props[k], *copy;
      gint owner = i;

      if (!is_proxied (p))
        continue;
      /* properties of the base class (backend, cuda-device-id) are the
       * same on every step: one bin property sets them all */
      if (p->owner_type == GST_TYPE_AOOCT_FILTER) {
        if (i > 0)
          continue;
        owner = ALL_STEPS;
      }
      copy = copy_pspec (p);
      if (!copy)
        continue;
      g_array_append_val (prop_step, owner);
      g_object_class_install_property (gobject_class, prop_step->len, copy);
    }
    g_free (props);
    /* the step classes stay referenced: their pad templates and enum
     * types are used for the bin's lifetime */
  }

  prop_gpus = prop_step->len + 1;
  g_object_class_install_property (gobject_class, prop_gpus,
      g_param_spec_string ("gpus", "GPUs",
          "CUDA devices to spread the buffers over, comma-separated (e.g. "
          "0,1): one branch of the chain per entry, each on its device, the "
          "images merged back into the input order (docs/scale-out.md); "
          "empty: one chain, on cuda-device-id.  A value that is not such "
          "a list stops the start with an error", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  first = g_type_class_peek (step_type (0));
  last = g_type_class_peek (step_type (N_STEPS - 1));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
          gst_pad_template_get_caps (gst_element_class_get_pad_template
              (first, "sink"))));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS,
          gst_pad_template_get_caps (gst_element_class_get_pad_template
              (last, "src"))));

  gst_element_class_set_static_metadata (element_class,
      "AO-OCT reconstruction chain", "Filter/Converter/Video",
      "Raw spectral-domain OCT spectra to grey B-scans in one element: "
      "aooctdcsub, aooctpad, aooctkmap, aooctdisp, aooctfft, aooctnorm, "
      "with all their properties", "aooct developers");
}

static void
gst_aooct_bin_init (GstAooctBin * self)
{
  GstElementClass *klass = GST_ELEMENT_GET_CLASS (self);

  g_mutex_init (&self->live_lock);
  self->live = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) free_value);
  self->sinkpad = gst_ghost_pad_new_no_target_from_template ("sink",
      gst_element_class_get_pad_template (klass, "sink"));
  self->srcpad = gst_ghost_pad_new_no_target_from_template ("src",
      gst_element_class_get_pad_template (klass, "src"));
  gst_element_add_pad (GST_ELEMENT (self), self->sinkpad);
  gst_element_add_pad (GST_ELEMENT (self), self->srcpad);
  build (self, NULL, 0);
}
