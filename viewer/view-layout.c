/* SPDX-License-Identifier: GPL-2.0-or-later */
/* aooct-view: the controls of the window, section by section: for each,
 * the element (settings group) and property, its label, and the range and
 * step a spin button shows (clipped to the property's own range).  A
 * property the installed element lacks gets no control, so properties of
 * elements still to come (averaging, NUFFT, views) are listed here too.
 * The program's own keys (source, record) get param specs of their own. */
#include "view-layout.h"
#include "view-settings.h"
#include "view-pipeline.h"

#include <gst/gst.h>

const ViewControlSpec view_source_specs[] = {
  {VIEW_SOURCE, "kind", "Source", 0, 0, 0, 0},
  {VIEW_SOURCE, "location", "Raw file", 0, 0, 0, 0},
  {VIEW_SOURCE, "camera", "Aravis camera", 0, 0, 0, 0},
  {VIEW_SOURCE, "format", "Pixel format", 0, 0, 0, 0},
  {VIEW_SOURCE, "width", "Samples per A-line", 2, 65536, 1, 0},
  {VIEW_SOURCE, "height", "A-lines per frame", 1, 65536, 1, 0},
  {VIEW_SOURCE, "framerate", "Frames per second (file)", 0, 0, 0, 0},
  {"aooctkmap", "wavelength-file", "Calibration file", 0, 0, 0, 0},
  {"aooctkmap", "wavelength-coeffs", "Calibration coefficients", 0, 0, 0, 0},
  {"aooctkmap", "passthrough", "k-linear source", 0, 0, 0, 0},
  {"aooctsrc", "phantom", "Synthetic sample", 0, 0, 0, 0},
  {"aooctsrc", "seed", "Synthetic seed", -1, 4294967295.0, 1, 0},
  {"aooctsrc", "alines", "Synthetic A-lines", 1, 4096, 1, 0},
  {NULL}
};

const ViewControlSpec view_dispersion_specs[] = {
  {"aooctdisp", "a2", "a2 (rad)", -500, 500, 0.1, 2},
  {"aooctdisp", "a3", "a3 (rad)", -500, 500, 0.1, 2},
  {"aooctdisp", "estimate", "Estimate a2/a3 automatically", 0, 0, 0, 0},
  {NULL}
};

const ViewControlSpec view_display_specs[] = {
  {"aooctnorm", "log", "Log (dB)", 0, 0, 0, 0},
  {"aooctnorm", "dynamic-range", "Dynamic range (dB)", 0, 200, 1, 1},
  {"aooctnorm", "auto-range", "Automatic range", 0, 0, 0, 0},
  {"aooctnorm", "range-min", "Manual black", -1000, 1e9, 1, 1},
  {"aooctnorm", "range-max", "Manual white", -1000, 1e9, 1, 1},
  {"aooctnorm", "crop-start", "Crop: first depth bin", 0, 65536, 1, 0},
  {"aooctnorm", "crop-end", "Crop: end (0 = half FFT)", 0, 65536, 1, 0},
  {NULL}
};

const ViewControlSpec view_averaging_specs[] = {
  {"aooctnorm", "average-bscans", "Average B-scans", 1, 256, 1, 0},
  {"aooctnorm", "average-alines", "Average A-lines", 1, 256, 1, 0},
  {"aooctnorm", "bilateral-sigma-space", "Bilateral sigma (px)", 0, 20,
      0.1, 1},
  {"aooctnorm", "bilateral-sigma-range", "Bilateral sigma (grey)", 0, 1,
      0.01, 2},
  {NULL}
};

const ViewControlSpec view_spectrum_specs[] = {
  {"aooctdcsub", "mode", "DC subtraction", 0, 0, 0, 0},
  {"aooctdcsub", "rolling-bscans", "Rolling background (B-scans)", 1, 1024,
      1, 0},
  {"aooctdcsub", "skip-alines-start", "Flyback: skip first A-lines", 0,
      65536, 1, 0},
  {"aooctdcsub", "skip-alines-end", "Flyback: skip last A-lines", 0, 65536,
      1, 0},
  {"aooctpad", "size", "FFT size (0 = auto)", 0, 65536, 256, 0},
  {"aooctpad", "factor", "Up-sampling factor", 1, 64, 1, 0},
  {"aooctkmap", "interpolation", "Interpolation", 0, 0, 0, 0},
  {"aooctkmap", "nufft-kernel", "NUFFT kernel", 0, 0, 0, 0},
  {"aooctkmap", "nufft-oversampling", "NUFFT oversampling", 1, 16, 0.25, 2},
  {"aooctkmap", "nufft-width", "NUFFT kernel width", 1, 64, 1, 0},
  {"aooctfft", "window", "Window", 0, 0, 0, 0},
  {"aooctfft", "window-parameter", "Window parameter", 0, 100, 0.1, 2},
  {VIEW_CHAIN, "backend", "Backend", 0, 0, 0, 0},
  {NULL}
};

const ViewControlSpec view_views_specs[] = {
  {VIEW_VIEWS, "enabled", "Compute the views", 0, 0, 0, 0},
  {"aooctenface", "bscans-per-volume", "En-face: B-scans per volume", 1,
      4096, 1, 0},
  {"aooctenface", "projection", "En-face: projection", 0, 0, 0, 0},
  {"aooctenface", "crop-start", "En-face: first depth bin", 0, 65536, 1, 0},
  {"aooctenface", "crop-end", "En-face: depth end", 0, 65536, 1, 0},
  {"aooctenface", "dynamic-range", "En-face: dynamic range (dB)", 0, 200, 1,
      1},
  {"aooctrender", "bscans-per-volume", "Volume: B-scans per volume", 1,
      4096, 1, 0},
  {"aooctrender", "mode", "Volume: rendering", 0, 0, 0, 0},
  {"aooctrender", "azimuth", "Volume: azimuth (deg)", -360, 360, 1, 0},
  {"aooctrender", "elevation", "Volume: elevation (deg)", -90, 90, 1, 0},
  {"aooctrender", "zoom", "Volume: zoom", 0.1, 20, 0.1, 1},
  {"aooctrender", "dynamic-range", "Volume: dynamic range (dB)", 0, 200, 1,
      1},
  {NULL}
};

/* Flow (spec section 12; docs/flow.md): the synthetic camera's vessels
 * and repeats, then the two elements of the Flow view */
const ViewControlSpec view_flow_specs[] = {
  {"aooctsrc", "vessel-count", "Synthetic vessels", 0, 16, 1, 0},
  {"aooctsrc", "vessel-velocity", "Synthetic blood velocity (mm/s)", -100,
      100, 0.1, 2},
  {"aooctsrc", "repeats", "Synthetic repeats per position", 1, 64, 1, 0},
  {"aooctsrc", "speckle-width", "Synthetic speckle width (A-lines)", 0, 8,
      0.5, 1},
  {"aooctdoppler", "lag", "Doppler: lag (A-lines)", 1, 1024, 1, 0},
  {"aooctdoppler", "aline-window", "Doppler: A-line window", 1, 256, 1, 0},
  {"aooctdoppler", "depth-window", "Doppler: depth window (odd)", 1, 255, 2,
      0},
  {"aooctdoppler", "threshold", "Doppler: mask below max (dB)", 0, 100, 1,
      1},
  {"aooctdoppler", "bulk-correction", "Doppler: bulk-motion correction", 0,
      0, 0, 0},
  {"aooctdoppler", "line-rate", "Doppler: line rate (A-lines/s)", 0, 1e7,
      1000, 0},
  {"aooctdoppler", "center-wavelength", "Doppler: wavelength (nm)", 0, 3000,
      1, 1},
  {"aooctdoppler", "refractive-index", "Doppler: refractive index", 1, 2,
      0.01, 2},
  {"aooctdoppler", "crop-start", "Doppler: first depth bin", 0, 65536, 1, 0},
  {"aooctdoppler", "crop-end", "Doppler: depth end", 0, 65536, 1, 0},
  {"aooctangio", "repeats", "Angiogram: repeats", 2, 64, 1, 0},
  {"aooctangio", "method", "Angiogram: method", 0, 0, 0, 0},
  {"aooctangio", "aline-window", "Angiogram: A-line window", 1, 256, 1, 0},
  {"aooctangio", "depth-window", "Angiogram: depth window (odd)", 1, 255, 2,
      0},
  {"aooctangio", "threshold", "Angiogram: mask below max (dB)", 0, 100, 1,
      1},
  {"aooctangio", "decorrelation-max", "Angiogram: white decorrelation", 0.01,
      1, 0.01, 2},
  {"aooctangio", "variance-max", "Angiogram: white variance (dB^2)", 0, 500,
      1, 1},
  {"aooctangio", "crop-start", "Angiogram: first depth bin", 0, 65536, 1, 0},
  {"aooctangio", "crop-end", "Angiogram: depth end", 0, 65536, 1, 0},
  {NULL}
};

/* AO-OCT (spec section 13; docs/aooct.md): registration against eye
 * motion, then the optoretinogram of the ORG tab */
const ViewControlSpec view_registration_specs[] = {
  {VIEW_REGISTRATION, "enabled", "Register B-scans (eye motion)", 0, 0, 0,
      0},
  {"aooctregister", "reference", "Reference B-scan", 0, 0, 0, 0},
  {"aooctregister", "upsample", "Sub-pixel steps per pixel", 1, 1000, 1, 0},
  {"aooctregister", "max-shift-depth", "Largest depth shift (bins)", -1,
      65536, 1, 0},
  {"aooctregister", "max-shift-alines", "Largest lateral shift (A-lines)",
      -1, 65536, 1, 0},
  {"aooctregister", "min-correlation", "Reject below correlation", 0, 1,
      0.01, 2},
  {"aooctregister", "crop-start", "Estimate: first depth bin", 0, 65536, 1,
      0},
  {"aooctregister", "crop-end", "Estimate: depth end", 0, 65536, 1, 0},
  {NULL}
};

const ViewControlSpec view_org_specs[] = {
  {"aooctorg", "layer-search-start", "ORG: first layer search bin", 0,
      65536, 1, 0},
  {"aooctorg", "layer-search-end", "ORG: layer search end", 0, 65536, 1, 0},
  {"aooctorg", "layer-range", "ORG: layer range (bins)", 0, 1024, 1, 0},
  {"aooctorg", "layer-smooth", "ORG: layer smoothing (A-lines)", 1, 1024,
      1, 0},
  {"aooctorg", "second-layer-min", "ORG: second layer from (bins)", 0,
      4096, 1, 0},
  {"aooctorg", "second-layer-max", "ORG: second layer to (bins)", 0, 4096,
      1, 0},
  {"aooctorg", "depth-window", "ORG: depth window (odd)", 1, 255, 2, 0},
  {"aooctorg", "threshold", "ORG: mask below max (dB)", 0, 100, 1, 1},
  {"aooctorg", "baseline", "ORG: baseline (B-scans)", 1, 100000, 1, 0},
  {"aooctorg", "center-wavelength", "ORG: wavelength (nm, 0 = rad)", 0,
      3000, 1, 1},
  {"aooctorg", "opl-range", "ORG: kymograph full scale", 0.001, 1e6, 10, 1},
  {"aooctorg", "history", "ORG: kymograph rows", 1, 65536, 1, 0},
  {"aooctorg", "crop-start", "ORG: first depth bin", 0, 65536, 1, 0},
  {"aooctorg", "crop-end", "ORG: depth end", 0, 65536, 1, 0},
  {NULL}
};

const ViewControlSpec view_record_specs[] = {
  {"record", "location", "B-scans to (Matroska)", 0, 0, 0, 0},
  {"record", "raw-location", "Raw frames to (optional)", 0, 0, 0, 0},
  {NULL}
};

static GType
enum_type (const gchar * name, const gchar * const *nicks)
{
  GType t = g_type_from_name (name);
  GEnumValue *v;
  gint i, n = g_strv_length ((gchar **) nicks);

  if (t)
    return t;
  v = g_new0 (GEnumValue, n + 1);
  for (i = 0; i < n; i++) {
    v[i].value = i;
    v[i].value_name = nicks[i];
    v[i].value_nick = nicks[i];
  }
  return g_enum_register_static (name, v);
}

/* The program's own keys (source, record, views) as param specs, so they get the
 * same controls as element properties. */
GParamSpec *
view_layout_own_pspec (const gchar * group, const gchar * key)
{
  static const gchar *const kinds[] = { "synthetic", "file", "aravis", NULL };
  static const gchar *const formats[] = { "gray16-le", "gray8", "mono12p",
    "mono12packed", "mono10p", "float32-le", NULL
  };
  static GHashTable *cache;
  gchar *id = g_strdup_printf ("%s/%s", group, key);
  GParamSpec *ps;

  if (!cache)
    cache = g_hash_table_new (g_str_hash, g_str_equal);
  if ((ps = g_hash_table_lookup (cache, id))) {
    g_free (id);
    return ps;
  }
  if (g_str_equal (group, VIEW_REGISTRATION)) {
    GstElementFactory *f = gst_element_factory_find ("aooctregister");

    if (!f) {
      g_free (id);
      return NULL;              /* nothing to switch on */
    }
    gst_object_unref (f);
    ps = g_param_spec_boolean (key, key, "Register every B-scan to a "
        "reference against eye motion (aooctregister after aooctfft; the "
        "views and the ORG then see registered B-scans)", FALSE,
        G_PARAM_READWRITE);
  } else if (g_str_equal (group, VIEW_VIEWS)) {
    gint k;

    for (k = VIEW_BSCAN + 1; k < VIEW_N_VIEWS; k++)
      if (view_have_factory (view_kind_factory (k)))
        break;
    if (k == VIEW_N_VIEWS) {
      g_free (id);
      return NULL;              /* no view to switch */
    }
    ps = g_param_spec_boolean (key, key, "Compute the en-face, volume and "
        "flow views (off: the B-scan alone, faster)", TRUE, G_PARAM_READWRITE);
  } else if (g_str_equal (key, "kind"))
    ps = g_param_spec_enum (key, key, "Where the raw spectra come from",
        enum_type ("AooctViewSourceKind", kinds), 0, G_PARAM_READWRITE);
  else if (g_str_equal (key, "format"))
    ps = g_param_spec_enum (key, key, "Raw pixels: 16-bit little-endian, "
        "8-bit, packed 12/10-bit or float32 (raw files)", enum_type
        ("AooctViewRawFormat", formats), 0, G_PARAM_READWRITE);
  else if (g_str_equal (key, "width") || g_str_equal (key, "height"))
    ps = g_param_spec_int (key, key, g_str_equal (key, "width") ?
        "Samples per A-line (the frame width)" :
        "A-lines per frame (the frame height)", 1, 65536,
        g_str_equal (key, "width") ? 832 : 240, G_PARAM_READWRITE);
  else
    ps = g_param_spec_string (key, key, g_str_equal (key, "framerate") ?
        "Frames per second of the raw file, as a fraction (100/1)" :
        "A path or name", NULL, G_PARAM_READWRITE);
  g_param_spec_ref_sink (ps);
  g_hash_table_insert (cache, id, ps);
  return ps;
}

gboolean
view_layout_is_own_group (const gchar * group)
{
  return g_str_equal (group, VIEW_SOURCE) || g_str_equal (group, "record")
      || g_str_equal (group, VIEW_VIEWS)
      || g_str_equal (group, VIEW_REGISTRATION);
}

/* Settings that describe the source: kept until Open is pressed. */
gboolean
view_layout_is_deferred (const gchar * group, const gchar * key)
{
  return g_str_equal (group, VIEW_SOURCE) || (g_str_equal (group,
          "aooctkmap") && (g_str_equal (key, "wavelength-file")
          || g_str_equal (key, "wavelength-coeffs")
          || g_str_equal (key, "passthrough")));
}

/* Where a control's value is kept: the backend of the whole chain as
 * aooctdcsub's (every step gets the same). */
const gchar *
view_layout_settings_group (const gchar * group)
{
  return g_str_equal (group, VIEW_CHAIN) ? "aooctdcsub" : group;
}

/* The param spec a control is made from: the program's own, or the
 * installed element's (NULL when it has no such property). */
GParamSpec *
view_layout_pspec (const gchar * group, const gchar * key)
{
  if (view_layout_is_own_group (group))
    return view_layout_own_pspec (group, key);
  return view_control_find_pspec (view_layout_settings_group (group), key);
}
