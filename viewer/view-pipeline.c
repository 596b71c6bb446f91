/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: the pipeline.
 *
 *   SOURCE ! tee(raw) ! aooctdcsub ! aooctpad ! aooctkmap ! aooctdisp
 *     ! aooctfft [! tee(depth)] ! aooctnorm ! video/x-raw,format=GRAY8
 *     ! tee(processed) ! queue ! videoconvert ! gtksink
 *   tee(depth) ! queue ! aooctenface ! videoconvert ! gtksink  (if installed)
 *   tee(depth) ! queue ! aooctrender ! videoconvert ! gtksink  (if installed)
 *   tee(depth) ! queue ! aooctdoppler ! RGBA ! videoconvert ! gtksink  (the
 *   tee(depth) ! queue ! aooctangio ! videoconvert ! gtksink    Flow view)
 *   tee(depth) ! queue ! aooctorg ! videoconvert ! gtksink  (the ORG tab)
 *
 * With [registration] enabled, aooctregister sits after aooctfft, before
 * the depth tee: every view then works on registered B-scans.  The element
 * messages of the AO-OCT elements (the shifts, the ORG trace) go to the
 * window's plots (view-aooct.c).
 *
 * SOURCE (aooctsrc; aooctfilesrc; aravissrc ! capsfilter) is built from
 * element objects with the settings the printed gst-launch-1.0 line starts
 * with, every value (a file name as it is) a property; every chain element
 * gets its settings group as properties.
 * The tees take the recordings (view-record.c).  A property change goes to
 * the running element when the element allows it while PLAYING; one the
 * element reads at start (geometry, backend, crop) makes the program build
 * the pipeline anew from the settings (view_pipeline_set_property). */
#include "view-pipeline.h"
#include "view-settings.h"
#include "view-source.h"

#include <gst/video/video.h>
#include <string.h>
#ifdef HAVE_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/cuda-gst.h>
#endif

struct _ViewPipeline
{
  gchar *sink_factory;
  ViewStatusFunc status;
  ViewMessageFunc message;
  gpointer user_data;

  GstElement *pipeline;
  guint bus_watch;
  gboolean loop;                /* a file starts over at its end */
  GHashTable *elements;         /* factory name -> element (not owned) */
  GstElement *raw_tee, *proc_tee;
  GtkWidget *widgets[VIEW_N_VIEWS];

  GMutex lock;                  /* guards the counters and last */
  guint64 frames, alines;
  GstSample *last;
};

static void
clear_sample (GstSample ** s)
{
  if (*s)
    gst_sample_unref (*s);
  *s = NULL;
}

ViewPipeline *
view_pipeline_new (const gchar * sink_factory, ViewStatusFunc status,
    gpointer user_data)
{
  ViewPipeline *vp = g_new0 (ViewPipeline, 1);

  vp->sink_factory = g_strdup (sink_factory ? sink_factory : "gtksink");
  vp->status = status;
  vp->user_data = user_data;
  vp->elements = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_mutex_init (&vp->lock);
  return vp;
}

void
view_pipeline_set_message_func (ViewPipeline * vp, ViewMessageFunc func)
{
  vp->message = func;
}

void
view_pipeline_stop (ViewPipeline * vp)
{
  gint i;

  if (!vp->pipeline)
    return;
  gst_element_set_state (vp->pipeline, GST_STATE_NULL);
  if (vp->bus_watch)
    g_source_remove (vp->bus_watch);
  vp->bus_watch = 0;
  gst_clear_object (&vp->pipeline);
  g_hash_table_remove_all (vp->elements);
  vp->raw_tee = vp->proc_tee = NULL;
  for (i = 0; i < VIEW_N_VIEWS; i++)
    g_clear_object (&vp->widgets[i]);
  g_mutex_lock (&vp->lock);
  clear_sample (&vp->last);
  g_mutex_unlock (&vp->lock);
}

void
view_pipeline_free (ViewPipeline * vp)
{
  view_pipeline_stop (vp);
  g_hash_table_unref (vp->elements);
  g_mutex_clear (&vp->lock);
  g_free (vp->sink_factory);
  g_free (vp);
}

static gboolean
on_bus (GstBus * bus, GstMessage * msg, gpointer data)
{
  ViewPipeline *vp = data;
  GError *err = NULL;
  gchar *text, *debug = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &debug);
      /* GStreamer's generic "Internal data stream error" says why only in
       * its debug text ("reason not-negotiated (-4)") */
      text = g_strdup_printf ("%s: %s%s%s", GST_OBJECT_NAME (msg->src),
          err->message, g_error_matches (err, GST_STREAM_ERROR,
              GST_STREAM_ERROR_FAILED) && debug ? " " : "",
          g_error_matches (err, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED)
          && debug ? (strrchr (debug, '\n') ? strrchr (debug, '\n') + 1 :
              debug) : "");
      g_error_free (err);
      g_free (debug);
      /* stop, but keep the program and its settings: the user fixes the
       * setting and presses Play or opens another source */
      gst_element_set_state (vp->pipeline, GST_STATE_NULL);
      vp->status (text, TRUE, vp->user_data);
      g_free (text);
      break;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, NULL);
      text = g_strdup_printf ("%s: %s", GST_OBJECT_NAME (msg->src),
          err->message);
      g_error_free (err);
      vp->status (text, FALSE, vp->user_data);
      g_free (text);
      break;
    case GST_MESSAGE_ELEMENT:
      if (vp->message && gst_message_get_structure (msg))
        vp->message (gst_message_get_structure (msg), vp->user_data);
      /* aooctdoppler's velocity scale, once line rate and wavelength are
       * known (spec section 12) */
      if (gst_message_has_name (msg, "aooct-doppler")) {
        gdouble vmax;

        if (gst_structure_get_double (gst_message_get_structure (msg),
                "velocity-max", &vmax)) {
          text = g_strdup_printf ("Doppler: full red / blue = %.3f mm/s "
              "axial", vmax);
          vp->status (text, FALSE, vp->user_data);
          g_free (text);
        }
      }
      break;
    case GST_MESSAGE_EOS:
      if (vp->loop && gst_element_seek_simple (vp->pipeline, GST_FORMAT_TIME,
              GST_SEEK_FLAG_FLUSH, 0))
        break;
      vp->status ("end of the stream", FALSE, vp->user_data);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* Counts A-lines entering the chain (the frame height of each raw frame). */
static GstPadProbeReturn
count_alines (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  ViewPipeline *vp = data;
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstStructure *s;
  gint h = 0;

  if (caps) {
    s = gst_caps_get_structure (caps, 0);
    gst_structure_get_int (s, "height", &h);
    gst_caps_unref (caps);
  }
  g_mutex_lock (&vp->lock);
  vp->alines += h;
  g_mutex_unlock (&vp->lock);
  return GST_PAD_PROBE_OK;
}

/* Keeps the newest processed B-scan (what the window shows, before
 * videoconvert) for the frame counter and for saving it. */
static GstPadProbeReturn
keep_frame (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  ViewPipeline *vp = data;
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstSample *s = gst_sample_new (GST_PAD_PROBE_INFO_BUFFER (info), caps,
      NULL, NULL);

  if (caps)
    gst_caps_unref (caps);
  g_mutex_lock (&vp->lock);
  clear_sample (&vp->last);
  vp->last = s;
  vp->frames++;
  g_mutex_unlock (&vp->lock);
  return GST_PAD_PROBE_OK;
}

/* Elements from branches not merged yet (or plugins not installed) are
 * looked up at run time, so the program picks them up when they exist. */
gboolean
view_have_factory (const gchar * factory)
{
  GstElementFactory *f = gst_element_factory_find (factory);

  if (f)
    gst_object_unref (f);
  return f != NULL;
}

static GstElement *
add (ViewPipeline * vp, const gchar * factory, GError ** error)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  if (!e) {
    if (g_str_has_prefix (factory, "aooct"))
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
          "no element '%s': is the aooct plugin installed or on "
          "GST_PLUGIN_PATH?", factory);
    else
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
          "no GStreamer element '%s' (its plugin is not installed%s)",
          factory, g_str_equal (factory, "glsinkbin") ?
          "; Debian: gstreamer1.0-gl" : "");
    return NULL;
  }
  gst_bin_add (GST_BIN (vp->pipeline), e);
  return e;
}

/* gtksink 1.22 leaves the frame's rectangle as the cairo path after
 * drawing; GTK's next background fill (the status bar's) then fills it
 * too and paints the window's grey over the B-scan. */
static gboolean
clear_path (GtkWidget * widget, cairo_t * cr, gpointer data)
{
  cairo_new_path (cr);
  return FALSE;
}

/* queue ! videoconvert ! SINK: one view, its widget kept for the window */
static GstElement *
add_display (ViewPipeline * vp, ViewKind kind, GError ** error)
{
  GstElement *q, *conv, *sink, *gtk;

  if (!(q = add (vp, "queue", error)) || !(conv = add (vp, "videoconvert",
              error)))
    return NULL;
  if (g_strcmp0 (vp->sink_factory, "gtkglsink") == 0) {
    /* glsinkbin uploads and converts for the GL widget */
    if (!(sink = add (vp, "glsinkbin", error)))
      return NULL;
    gtk = gst_element_factory_make ("gtkglsink", NULL);
    if (!gtk) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
          "no element 'gtkglsink' (Debian: gstreamer1.0-gtk3)");
      return NULL;
    }
    g_object_set (sink, "sink", gtk, NULL);
  } else {
    if (!(sink = add (vp, vp->sink_factory, error)))
      return NULL;
    gtk = sink;
  }
  g_object_get (gtk, "widget", &vp->widgets[kind], NULL);
  /* B-scans are far taller than wide in pixels: fill the view, as OCT
   * programs do, instead of a thin strip between black bars */
  g_object_set (gtk, "force-aspect-ratio", FALSE, NULL);
  g_signal_connect_after (vp->widgets[kind], "draw",
      G_CALLBACK (clear_path), NULL);
  /* not async: the en-face and volume sinks get their first image only
   * after a whole volume; an async sink still waiting for it would hold a
   * pipeline that changes state (a recording branch joining it) in PAUSED,
   * where the B-scan sink waits for PLAYING and no volume ever completes */
  g_object_set (sink, "async", FALSE, NULL);
  /* show a B-scan that comes late (a chain slower than the camera) rather
   * than drop it and warn for every one: the leaky queue before the sink
   * already drops what the display cannot take */
  g_object_set (sink, "max-lateness", (gint64) - 1, "qos", FALSE, NULL);
  /* a view that cannot keep up drops B-scans instead of slowing the
   * chain (and the recording) down */
  g_object_set (q, "max-size-buffers", 2, "leaky", 2, NULL);
  if (!gst_element_link_many (q, conv, sink, NULL)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "cannot link the %s view", view_kind_name (kind));
    return NULL;
  }
  return q;
}

static void
remember (ViewPipeline * vp, GstElement * e)
{
  GstElementFactory *f = gst_element_get_factory (e);

  if (f && !g_hash_table_contains (vp->elements, GST_OBJECT_NAME (f)))
    g_hash_table_insert (vp->elements, g_strdup (GST_OBJECT_NAME (f)), e);
}

/* Removes first and what is linked after it through "src" pads. */
static void
remove_chain (ViewPipeline * vp, GstElement * first)
{
  GstElement *e = gst_object_ref (first), *next;
  GstPad *src, *peer;

  while (e) {
    next = NULL;
    if ((src = gst_element_get_static_pad (e, "src"))) {
      if ((peer = gst_pad_get_peer (src))) {
        next = gst_pad_get_parent_element (peer);
        gst_object_unref (peer);
      }
      gst_object_unref (src);
    }
    gst_bin_remove (GST_BIN (vp->pipeline), e);
    gst_object_unref (e);
    e = next;
  }
}

static const struct
{
  const gchar *name, *factory, *caps;
} view_kinds[VIEW_N_VIEWS] = {
  {"bscan", NULL, NULL},
  {"enface", "aooctenface", NULL},
  {"volume", "aooctrender", NULL},
  /* the phase in colour: red one way, blue the other */
  {"doppler", "aooctdoppler", "video/x-raw,format=RGBA"},
  {"angio", "aooctangio", NULL},
  /* the optoretinogram's kymograph (spec section 13) */
  {"org", "aooctorg", NULL},
};

const gchar *
view_kind_name (ViewKind kind)
{
  return view_kinds[kind].name;
}

const gchar *
view_kind_factory (ViewKind kind)
{
  return view_kinds[kind].factory;
}

/* A view of the depth-domain stream (aooctenface, aooctrender, the flow
 * elements) when its element is installed: a failure here loses that
 * view, not the B-scan. */
static void
add_depth_view (ViewPipeline * vp, GKeyFile * kf, GstElement * depth_tee,
    ViewKind kind)
{
  const gchar *factory = view_kinds[kind].factory;
  GstElement *q, *e, *filter = NULL, *disp;
  GError *err = NULL;
  gboolean linked;

  if (!view_have_factory (factory))
    return;
  if (!(q = add (vp, "queue", &err)) || !(e = add (vp, factory, &err))
      || (view_kinds[kind].caps && !(filter = add (vp, "capsfilter", &err)))
      || !(disp = add_display (vp, kind, &err))) {
    vp->status (err->message, TRUE, vp->user_data);
    g_error_free (err);
    return;
  }
  view_settings_apply (kf, factory, e);
  if (filter) {
    GstCaps *caps = gst_caps_from_string (view_kinds[kind].caps);

    g_object_set (filter, "caps", caps, NULL);
    gst_caps_unref (caps);
    linked = gst_element_link_many (depth_tee, q, e, filter, disp, NULL);
  } else {
    linked = gst_element_link_many (depth_tee, q, e, disp, NULL);
  }
  if (!linked) {
    gchar *m = g_strdup_printf ("%s: cannot link it after aooctfft; the "
        "view is off", factory);

    /* an unlinked sink would hold the pipeline in PAUSED for ever */
    g_clear_object (&vp->widgets[kind]);
    remove_chain (vp, disp);
    if (filter)
      gst_bin_remove (GST_BIN (vp->pipeline), filter);
    gst_bin_remove (GST_BIN (vp->pipeline), e);
    gst_bin_remove (GST_BIN (vp->pipeline), q);
    vp->status (m, TRUE, vp->user_data);
    g_free (m);
    return;
  }
  remember (vp, e);
}

/* Whether any view of the depth-domain stream is installed */
static gboolean
have_depth_views (void)
{
  gint k;

  for (k = VIEW_BSCAN + 1; k < VIEW_N_VIEWS; k++)
    if (view_have_factory (view_kinds[k].factory))
      return TRUE;
  return FALSE;
}

gboolean
view_pipeline_build (ViewPipeline * vp, GKeyFile * kf, GError ** error)
{
  GstElement *src, *prev, *e, *caps, *disp, *depth_tee = NULL;
  GstCaps *gray8;
  GstBus *bus;
  GstIterator *it;
  GValue item = G_VALUE_INIT;
  gint i;
  gboolean views;
  GstPad *pad;

  view_pipeline_stop (vp);
  /* the user's mistakes (file size, calibration) named before GStreamer
   * would only say "not negotiated" or drop the tail of the file */
  if (!view_source_check (kf, error))
    return FALSE;

  vp->pipeline = gst_pipeline_new ("aooct-view");
  vp->frames = vp->alines = 0;
  vp->loop = view_settings_source_kind (kf) == VIEW_SOURCE_FILE;
  src = view_settings_source_build (kf, error);
  if (!src)
    goto fail;
  gst_bin_add (GST_BIN (vp->pipeline), src);
  it = gst_bin_iterate_recurse (GST_BIN (src));
  while (gst_iterator_next (it, &item) == GST_ITERATOR_OK) {
    remember (vp, g_value_get_object (&item));
    g_value_reset (&item);
  }
  gst_iterator_free (it);

  if (!(vp->raw_tee = add (vp, "tee", error)))
    goto fail;
  g_object_set (vp->raw_tee, "allow-not-linked", TRUE, NULL);
  if (!gst_element_link (src, vp->raw_tee)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "cannot link the source");
    goto fail;
  }
  prev = vp->raw_tee;
  /* the views where installed, unless switched off ([views] enabled) */
  views = (!g_key_file_has_key (kf, VIEW_VIEWS, "enabled", NULL)
      || g_key_file_get_boolean (kf, VIEW_VIEWS, "enabled", NULL))
      && have_depth_views ();
  for (i = 0; view_chain_factories[i]; i++) {
    if (!view_settings_in_chain (kf, view_chain_factories[i]))
      continue;
    if (!(e = add (vp, view_chain_factories[i], error)))
      goto fail;
    view_settings_apply (kf, view_chain_factories[i], e);
    remember (vp, e);
    if (g_str_equal (view_chain_factories[i], "aooctdcsub")) {
      pad = gst_element_get_static_pad (e, "sink");
      gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, count_alines, vp,
          NULL);
      gst_object_unref (pad);
    }
    if (!gst_element_link (prev, e)) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
          "cannot link %s to %s", GST_OBJECT_NAME (prev),
          view_chain_factories[i]);
      goto fail;
    }
    prev = e;
    /* the views after the last step of the depth-domain stream */
    if (views && view_settings_depth_end (kf, view_chain_factories[i])) {
      if (!(depth_tee = add (vp, "tee", error)))
        goto fail;
      gst_element_link (prev, depth_tee);
      prev = depth_tee;
    }
  }
  /* GRAY8: what the window shows and the recording keeps */
  if (!(caps = add (vp, "capsfilter", error)))
    goto fail;
  gray8 = gst_caps_from_string ("video/x-raw,format=GRAY8");
  g_object_set (caps, "caps", gray8, NULL);
  gst_caps_unref (gray8);
  if (!(vp->proc_tee = add (vp, "tee", error))
      || !(disp = add_display (vp, VIEW_BSCAN, error)))
    goto fail;
  if (!gst_element_link_many (prev, caps, vp->proc_tee, disp, NULL)) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "cannot link aooctnorm to the display");
    goto fail;
  }
  pad = gst_element_get_static_pad (caps, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, keep_frame, vp, NULL);
  gst_object_unref (pad);
  if (depth_tee)
    for (i = VIEW_BSCAN + 1; i < VIEW_N_VIEWS; i++)
      add_depth_view (vp, kf, depth_tee, i);

  bus = gst_element_get_bus (vp->pipeline);
  vp->bus_watch = gst_bus_add_watch (bus, on_bus, vp);
  gst_object_unref (bus);
  return TRUE;

fail:
  view_pipeline_stop (vp);
  return FALSE;
}

/* After the widgets are in the window: a gtksink whose widget has no
 * window yet opens one of its own at start. */
void
view_pipeline_play (ViewPipeline * vp)
{
  /* a failure is also an error message on the bus: on_bus shows it */
  if (vp->pipeline)
    gst_element_set_state (vp->pipeline, GST_STATE_PLAYING);
}

GtkWidget *
view_pipeline_widget (ViewPipeline * vp, ViewKind kind)
{
  return vp->widgets[kind];
}

GstElement *
view_pipeline_element (ViewPipeline * vp, const gchar * factory)
{
  return g_hash_table_lookup (vp->elements, factory);
}

GstElement *
view_pipeline_get (ViewPipeline * vp)
{
  return vp->pipeline;
}

GstElement *
view_pipeline_tee (ViewPipeline * vp, gboolean raw)
{
  return raw ? vp->raw_tee : vp->proc_tee;
}

/* The one path every control takes to an element: a property the element
 * takes while PLAYING is set on it now (the next buffer uses it); for one
 * read at start (geometry, backend, FFT size, crop) the caller rebuilds
 * the pipeline from the settings.  (Taking the running pipeline through
 * READY instead renegotiates too, but gtksink 1.22 then sometimes stays
 * black: a new pipeline is the reliable way.) */
ViewSetResult
view_pipeline_set_property (ViewPipeline * vp, const gchar * factory,
    const gchar * property, const gchar * value)
{
  GstElement *e = view_pipeline_element (vp, factory);
  GParamSpec *ps;
  GError *err = NULL;

  if (!e || !(ps = g_object_class_find_property (G_OBJECT_GET_CLASS (e),
              property)))
    return VIEW_SET_NO_ELEMENT;
  if (!(ps->flags & GST_PARAM_MUTABLE_PLAYING))
    return VIEW_SET_REBUILD;
  if (!view_settings_set_arg (G_OBJECT (e), property, value, &err)) {
    g_warning ("aooct-view: %s: %s", factory, err->message);
    g_error_free (err);
  }
  return VIEW_SET_LIVE;
}

/* B-scans shown and A-lines taken in since the pipeline was built. */
void
view_pipeline_counts (ViewPipeline * vp, guint64 * frames, guint64 * alines)
{
  g_mutex_lock (&vp->lock);
  if (frames)
    *frames = vp->frames;
  if (alines)
    *alines = vp->alines;
  g_mutex_unlock (&vp->lock);
}

guint64
view_pipeline_frames (ViewPipeline * vp)
{
  guint64 n;

  view_pipeline_counts (vp, &n, NULL);
  return n;
}

GstSample *
view_pipeline_last_frame (ViewPipeline * vp)
{
  GstSample *s;

  g_mutex_lock (&vp->lock);
  s = vp->last ? gst_sample_ref (vp->last) : NULL;
  g_mutex_unlock (&vp->lock);
  return s;
}

/* Where the chain runs: "CPU", or the GPU's name from the pipeline's CUDA
 * context (the one the aooct elements share). */
gchar *
view_pipeline_device (ViewPipeline * vp)
{
  GstElement *fft = view_pipeline_element (vp, "aooctfft");
  GstStructure *st = NULL;
  gchar *backend = NULL, *out;

  if (!fft)
    return g_strdup ("-");
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (fft), "stats"))
    g_object_get (fft, "stats", &st, NULL);
  if (st)
    backend = g_strdup (gst_structure_get_string (st, "backend"));
  if (st)
    gst_structure_free (st);
  if (g_strcmp0 (backend, "cuda") != 0) {
    g_free (backend);
    return g_strdup ("CPU");
  }
  g_free (backend);
  out = g_strdup ("CUDA GPU");
#ifdef HAVE_GST_CUDA
  {
    GstContext *ctx = gst_element_get_context (vp->pipeline,
        GST_CUDA_CONTEXT_TYPE);
    GstCudaContext *cctx = NULL;
    guint id = 0;
    CUdevice dev;
    gchar name[256];

    /* as gst_context_new_cuda_context() stores it */
    if (ctx && gst_structure_get (gst_context_get_structure (ctx),
            GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &cctx, NULL)) {
      g_object_get (cctx, "cuda-device-id", &id, NULL);
      if (CuDeviceGet (&dev, id) == CUDA_SUCCESS
          && CuDeviceGetName (name, sizeof name, dev) == CUDA_SUCCESS) {
        g_free (out);
        out = g_strdup_printf ("GPU %u: %s", id, name);
      }
      gst_object_unref (cctx);
    }
    if (ctx)
      gst_context_unref (ctx);
  }
#endif
  return out;
}
